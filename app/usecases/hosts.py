"""SSH hosts as the CLI and the GUI both see them: the one host list, adding a host, trusting a key.

Adding: the same order in `labgpu hosts add` and the Hosts page: a host whose key was refused, whose
password is wrong or that cannot be reached is not saved, and no keyring entry is left behind.
The host list (:func:`all_hosts`): saved hosts, then running launched instances not named like one;
the Hosts page, the Monitor page, the Sync page and `labgpu hosts ls` all read it.
A host key is trusted or forgotten only here (:func:`accept_host_key`, :func:`trust_host_key`,
:func:`forget_host_key`): the app's known_hosts and the saved host's fingerprint change together.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from enum import Enum

from app.core import secrets
from app.core.errors import InputError, LabGpuError
from app.core.fingerprints import normalize_fingerprint
from app.core.hosts import HostRecord, HostStore, instance_hosts, passphrase_key, password_key
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import Paths
from app.core.store import Store
from app.remote.hostkeys import HostKeyError, HostKeyPrompt, KnownHosts, fingerprint_matcher
from app.remote.ssh import Connection, find_host, open_connection, resolve_target
from app.usecases.changes import NO_CHANGES, Change, Changes

log = logging.getLogger(__name__)

Accept = Callable[[HostKeyPrompt], bool]


class HostSource(str, Enum):
    SAVED = "saved"  # added on the Hosts page or with `labgpu hosts add`
    INSTANCE = "instance"  # a running instance LabGPU launched (the ledger), named by its id

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class HostEntry:
    record: HostRecord
    source: HostSource

    @property
    def name(self) -> str:
        return self.record.name


def all_hosts(paths: Paths | None = None, store: Store | None = None) -> list[HostEntry]:
    """Every SSH target LabGPU knows: the saved hosts (by name), then the running launched instances
    whose name no saved host has. An unreadable ledger leaves the saved hosts listed (and is logged)."""
    hs = HostStore(store=store, paths=paths)
    out = [HostEntry(h, HostSource.SAVED) for h in hs.list()]
    names = {e.name for e in out}
    try:
        launched = instance_hosts(paths=paths, store=hs.store)
    except (LabGpuError, sqlite3.Error, OSError) as exc:
        log.warning("could not list instances as hosts: %s", exc)
        launched = []
    out += [HostEntry(h, HostSource.INSTANCE) for h in launched if h.name not in names]
    return out


def remove_host(name: str, hosts: HostStore, *, changes: Changes = NO_CHANGES) -> None:
    """Remove a saved host (a damaged row too) and its stored password and passphrase."""
    if not hosts.exists(name):
        hosts.get(name)  # raises HostNotFoundError
    hosts.remove(name)
    for key in (password_key(name), passphrase_key(name)):
        try:
            secrets.delete_secret(key)
        except (secrets.SecretsUnavailableError, secrets.SecretsError):
            pass  # nothing can have been stored without a keyring
    changes.emit(Change.HOSTS)


def _mismatch(host: str, fingerprint: str, given: str) -> HostKeyError:
    """The server answered with another key than the one the user gave."""
    return HostKeyError(
        QT_TRANSLATE_NOOP("LabGPU", "{host} has the key {fingerprint}, not the one given ({given})."),
        QT_TRANSLATE_NOOP("LabGPU", "Check the fingerprint with your provider."),
        code="HostKeyMismatch",
        host=host,
        fingerprint=fingerprint,
        given=given,
    )


def _remember_fingerprint(hosts: HostStore, name: str, fingerprint: str) -> None:
    if hosts.find(name) is not None:
        hosts.update(name, fingerprint=fingerprint)


def accept_host_key(name: str, prompt: HostKeyPrompt, paths: Paths, *, hosts: HostStore | None = None,
                    changes: Changes = NO_CHANGES) -> None:
    """The user compared and accepted exactly this key for host ``name``: remember it (the app's
    known_hosts, and the saved host's fingerprint)."""
    KnownHosts(paths).add(prompt.hostname, prompt.port, prompt.key)
    _remember_fingerprint(hosts or HostStore(paths=paths), name, prompt.fingerprint)
    changes.emit(Change.HOSTS)


def forget_host_key(rec: HostRecord, paths: Paths, *, changes: Changes = NO_CHANGES) -> list[str]:
    """Forget every trusted key of ``rec``'s address (after a provider-confirmed rebuild); the next
    connection is a first contact again. Returns the fingerprints that were trusted."""
    t = resolve_target(rec, paths)  # a ~/.ssh/config alias is known under its real HostName
    known = KnownHosts(paths)
    before = known.fingerprints(t.hostname, t.port)
    known.forget(t.hostname, t.port)
    changes.emit(Change.HOSTS)
    return before


def trust_host_key(name: str, paths: Paths, fingerprint: str, *, changes: Changes = NO_CHANGES) -> HostRecord:
    """Trust the key with ``fingerprint`` (the one the provider shows) for host or instance ``name``:
    connect accepting exactly that key. Refused while another key is trusted for it (forget it first).
    Returns the host, its ``fingerprint`` the one now trusted."""
    wanted = normalize_fingerprint(fingerprint)
    rec = find_host(name, paths)
    target = resolve_target(rec, paths)
    known = KnownHosts(paths).fingerprints(target.hostname, target.port)
    if known and wanted not in known:
        raise HostKeyError(
            QT_TRANSLATE_NOOP("LabGPU", "LabGPU already trusts another key for {name}: {known}."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Only if your provider confirms the host was rebuilt: 'labgpu hosts forget-key {name}', "
                "then trust the new key.",
            ),
            code="HostKeyKnown",
            name=rec.name,
            known=", ".join(known),
        )
    conn = open_connection(rec, paths, fingerprint_matcher(wanted))
    try:
        got = str(conn.fingerprint)
    finally:
        conn.close()
    if got != wanted:
        raise _mismatch(rec.name, got, fingerprint)
    _remember_fingerprint(HostStore(paths=paths), rec.name, got)
    changes.emit(Change.HOSTS)
    return replace(rec, fingerprint=got)


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
    changes: Changes = NO_CHANGES,
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
                raise _mismatch(rec.name, fingerprint, ", ".join(sorted(expected)))
            if password:
                owned.append(secrets.set_secret_owned(password_key(rec.name), password))
            saved = replace(rec, fingerprint=fingerprint)
            hosts.add(saved)
            ok = True
            changes.emit(Change.HOSTS)
            return AddedHost(saved, fingerprint, conn if keep_connection else None)
        finally:
            if conn is not None and not (ok and keep_connection):
                conn.close()
            if not ok:
                for write in reversed(owned):
                    secrets.undo_owned(write)

