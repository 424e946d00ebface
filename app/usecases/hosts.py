"""Adding an SSH host: connect and verify its key first, save only what answered.

The same order in `labgpu hosts add` and the Hosts page: a host whose key was refused, whose
password is wrong or that cannot be reached is not saved, and no keyring entry is left behind.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace

from app.core import secrets
from app.core.errors import InputError
from app.core.fingerprints import normalize_fingerprint
from app.core.hosts import HostRecord, HostStore, passphrase_key, password_key
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import Paths
from app.remote.hostkeys import HostKeyError, HostKeyPrompt
from app.remote.ssh import Connection

Accept = Callable[[HostKeyPrompt], bool]


@dataclass
class AddedHost:
    record: HostRecord  # as saved, with the verified fingerprint
    fingerprint: str
    connection: Connection | None  # open when the caller asked to keep it


def refuse_existing(hosts: HostStore, name: str) -> None:
    if hosts.exists(name):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "A host named {name!r} already exists."),
            QT_TRANSLATE_NOOP("LabGPU", "Pick another name or remove the old host first."),
            code="HostExists",
            name=name,
        )


def accept_only(fingerprints: Collection[str]) -> Accept:
    """An accept callback that trusts exactly these fingerprints (the user compared them)."""
    wanted = {normalize_fingerprint(f) for f in fingerprints}
    return lambda prompt: normalize_fingerprint(prompt.fingerprint) in wanted


def add_host(
    rec: HostRecord,
    paths: Paths,
    *,
    accept: Accept | None = None,
    password: str | None = None,
    passphrase: str | None = None,
    expected: Collection[str] = (),
    keep_connection: bool = False,
    hosts: HostStore | None = None,
) -> AddedHost:
    """Connect to `rec` (its host key checked: known, vouched for, or `accept`ed), then save it.

    ``expected``: fingerprints the user gave (e.g. ``--fingerprint``); a server with another key is
    refused even if it is already known. Raises the connection's errors (``HostKeyUnknownError``
    carries the prompt so a UI can ask and call again with :func:`accept_only`). One add at a time,
    between processes too; a failed add undoes only its own keyring writes.
    """
    hosts = hosts or HostStore(paths=paths)
    refuse_existing(hosts, rec.name)
    wanted = {normalize_fingerprint(f) for f in expected}
    with hosts.adding():
        refuse_existing(hosts, rec.name)
        owned: list[secrets.OwnedWrite] = []
        conn: Connection | None = None
        ok = False
        try:
            if passphrase:  # the key loader reads it from the keyring
                owned.append(secrets.set_secret_owned(passphrase_key(rec.name), passphrase))
            conn = Connection(rec, paths, accept, password=password).connect()
            fingerprint = str(conn.fingerprint)
            if wanted and normalize_fingerprint(fingerprint) not in wanted:
                raise HostKeyError(
                    QT_TRANSLATE_NOOP("LabGPU", "{host} has the key {fingerprint}, not the one given ({given})."),
                    QT_TRANSLATE_NOOP("LabGPU", "Check the fingerprint with your provider."),
                    code="HostKeyMismatch",
                    host=rec.name,
                    fingerprint=fingerprint,
                    given=", ".join(sorted(expected)),
                )
            if password:
                owned.append(secrets.set_secret_owned(password_key(rec.name), password))
            saved = replace(rec, fingerprint=fingerprint)
            hosts.add(saved)
            ok = True
            return AddedHost(saved, fingerprint, conn if keep_connection else None)
        finally:
            if conn is not None and not (ok and keep_connection):
                conn.close()
            if not ok:
                for write in reversed(owned):
                    secrets.undo_owned(write)

