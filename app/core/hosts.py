"""Saved SSH hosts: where and how to log in. Secrets stay in the keyring, never in this table.

A host is either added by the user (from an SSH command line or a ``~/.ssh/config`` alias) or is
a launched cloud instance (``instance_id`` links it to the instances ledger). Passwords and key
passphrases live in the keyring under :func:`password_key` / :func:`passphrase_key`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from typing import Any

from . import damage
from .errors import InputError, LabGpuError
from .i18n import QT_TRANSLATE_NOOP
from .instances import Ledger
from .paths import Paths, default_paths
from .sshcmd import DEFAULT_PORT, SshTarget, check_host, check_user, parse_jump, parse_ssh_command
from .store import Store, register_schema
from .vocab import InstanceState

AUTH_KINDS = ("auto", "key", "agent", "password")

register_schema(
    "hosts",
    [
        """
    CREATE TABLE hosts (
        name TEXT PRIMARY KEY,
        user TEXT NOT NULL DEFAULT '',
        hostname TEXT NOT NULL,
        port INTEGER,
        key_path TEXT NOT NULL DEFAULT '',
        auth TEXT NOT NULL DEFAULT 'auto',
        jump TEXT NOT NULL DEFAULT '',
        via_vpn TEXT NOT NULL DEFAULT '',
        private_address TEXT NOT NULL DEFAULT '',
        instance_id TEXT NOT NULL DEFAULT '',
        provider TEXT NOT NULL DEFAULT '',
        fingerprint TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    """,
        # ssh -4 / -6 (or -o AddressFamily) of the command line: "" = any, "inet", "inet6"
        "ALTER TABLE hosts ADD COLUMN address_family TEXT NOT NULL DEFAULT '';",
    ],
)

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,63}$")


class HostNotFoundError(LabGpuError):
    pass


class StoredHostError(LabGpuError):
    """A saved host whose row holds a value LabGPU would never have written (damaged or hand-edited)."""


_TEXT_COLUMNS = ("user", "key_path", "auth", "jump", "via_vpn", "private_address", "instance_id",
                 "provider", "fingerprint", "address_family")
ADDRESS_FAMILIES = ("", "inet", "inet6")  # any, IPv4 only (ssh -4), IPv6 only (ssh -6)


def _bad_row(name: object, column: str, value: object) -> StoredHostError:
    return StoredHostError(
        QT_TRANSLATE_NOOP("LabGPU", "The saved host {name!r} has a bad {column} in the database: {value!r}."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Remove it with 'labgpu hosts rm {name}' (or on the Hosts page) and add it again."
        ),
        code="BadStoredHost",
        name=str(name),
        column=column,
        value=value if isinstance(value, (str, int, float, type(None))) else repr(value),
    )


def record_from_row(d: dict[str, Any]) -> HostRecord:
    """A HostRecord from a ``hosts`` row, every value checked: a bad one is refused here, at once."""
    name = d.get("name")
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise _bad_row(name, "name", name)
    port = d.get("port")
    if port is not None and (isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535):
        raise _bad_row(name, "port", port)
    hostname = d.get("hostname")
    try:
        if not isinstance(hostname, str):
            raise InputError("")
        check_host(hostname if ":" not in hostname else f"[{hostname}]")
    except InputError:
        raise _bad_row(name, "hostname", hostname) from None
    for col in _TEXT_COLUMNS:
        if not isinstance(d.get(col, ""), str):
            raise _bad_row(name, col, d.get(col))
    try:
        check_user(d.get("user", ""))
    except InputError:
        raise _bad_row(name, "user", d.get("user")) from None
    if d.get("auth", "auto") not in AUTH_KINDS:
        raise _bad_row(name, "auth", d.get("auth"))
    if d.get("address_family", "") not in ADDRESS_FAMILIES:
        raise _bad_row(name, "address_family", d.get("address_family"))
    try:
        parse_jump(d.get("jump", ""))
    except InputError:
        raise _bad_row(name, "jump", d.get("jump")) from None
    for col in ("created_at", "updated_at"):
        v = d.get(col, 0.0)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise _bad_row(name, col, v)
    known = {f for f in HostRecord.__dataclass_fields__}
    return HostRecord(**{k: v for k, v in d.items() if k in known})


def password_key(name: str) -> str:
    return f"host:{name}:password"


def passphrase_key(name: str) -> str:
    return f"host:{name}:passphrase"


@dataclass(frozen=True)
class HostRecord:
    name: str
    hostname: str
    user: str = ""
    port: int | None = None
    key_path: str = ""
    auth: str = "auto"
    jump: str = ""
    via_vpn: str = ""
    private_address: str = ""
    instance_id: str = ""
    provider: str = ""
    fingerprint: str = ""  # SHA256 of the host key last accepted (shown, not trusted from here)
    created_at: float = 0.0
    updated_at: float = 0.0
    address_family: str = ""  # "" = any, "inet" (ssh -4), "inet6" (ssh -6): what the connection resolves

    @property
    def effective_port(self) -> int:
        return self.port or DEFAULT_PORT

    @property
    def connect_address(self) -> str:
        """Where to open the TCP connection: the private address for a host reached via VPN."""
        return self.private_address if (self.via_vpn and self.private_address) else self.hostname

    @property
    def address(self) -> str:
        """``user@host:port`` for lists."""
        user = f"{self.user}@" if self.user else ""
        port = f":{self.port}" if self.port and self.port != DEFAULT_PORT else ""
        return f"{user}{self.connect_address}{port}"

    def ssh_command(self) -> str:
        return SshTarget(
            host=self.connect_address,
            user=self.user,
            port=self.port,
            key_path=self.key_path,
            jump=parse_jump(self.jump),
            address_family=self.address_family,
        ).command()

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["address"] = self.address
        d["ssh_command"] = self.ssh_command()
        return d


def validate_name(name: str) -> str:
    if not _NAME_RE.match(name or ""):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "Host name {name!r} is not allowed."),
            QT_TRANSLATE_NOOP(
                "LabGPU", "Use 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit."
            ),
            code="BadHostName",
            name=name,
        )
    return name


def record_from_command(
    name: str, command: str, *, via_vpn: str = "", auth: str = "auto", private_address: str = ""
) -> HostRecord:
    """A new record from what the provider printed; for a VPN host the address is the private one."""
    target = parse_ssh_command(command)
    if auth not in AUTH_KINDS:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "Unknown authentication kind {auth!r}."),
            "",
            code="BadAuth",
            auth=auth,
        )
    if auth == "auto" and target.key_path:
        auth = "key"
    return HostRecord(
        name=validate_name(name),
        hostname=target.host,
        user=target.user,
        port=target.port,
        key_path=target.key_path,
        auth=auth,
        jump=target.jump_spec,
        via_vpn=via_vpn,
        private_address=private_address or (target.host if via_vpn else ""),
        address_family=target.address_family,
    )


class HostStore:
    """CRUD on the ``hosts`` table (safe from any thread: the Store keeps a connection per thread)."""

    def __init__(self, store: Store | None = None, paths: Paths | None = None) -> None:
        self.store = store or Store(paths=paths)
        self.store.migrate()

    @staticmethod
    def _row(row: Any) -> HostRecord:
        return record_from_row(dict(row))

    def exists(self, name: str) -> bool:
        """Whether a row of that name exists (without reading its values: works on a damaged row)."""
        return bool(self.store.query("SELECT 1 FROM hosts WHERE name=?", (name,)))

    def list(self) -> list[HostRecord]:
        return [self._row(r) for r in self.store.query("SELECT * FROM hosts ORDER BY name")]

    def find(self, name: str) -> HostRecord | None:
        rows = self.store.query("SELECT * FROM hosts WHERE name=?", (name,))
        return self._row(rows[0]) if rows else None

    def get(self, name: str) -> HostRecord:
        rec = self.find(name)
        if rec is None:
            raise HostNotFoundError(
                QT_TRANSLATE_NOOP("LabGPU", "No host named {name!r}."),
                QT_TRANSLATE_NOOP("LabGPU", "List hosts with 'labgpu hosts ls'."),
                code="HostNotFound",
                name=name,
            )
        return rec

    def add(self, rec: HostRecord, *, replace_existing: bool = False) -> HostRecord:
        validate_name(rec.name)
        now = time.time()
        rec = replace(rec, created_at=rec.created_at or now, updated_at=now)
        cols = list(asdict(rec))
        verb = "INSERT OR REPLACE" if replace_existing else "INSERT"
        try:
            self.store.execute(
                f"{verb} INTO hosts ({','.join(cols)}) VALUES ({','.join('?' * len(cols))})",  # noqa: S608
                [getattr(rec, c) for c in cols],
            )
        except Exception as exc:
            if "UNIQUE" in str(exc):
                raise InputError(
                    QT_TRANSLATE_NOOP("LabGPU", "A host named {name!r} already exists."),
                    QT_TRANSLATE_NOOP("LabGPU", "Pick another name or remove the old host first."),
                    code="HostExists",
                    name=rec.name,
                ) from None
            raise
        return rec

    def update(self, name: str, **changes: Any) -> HostRecord:
        rec = replace(self.get(name), **changes, updated_at=time.time())
        self.add(rec, replace_existing=True)
        return rec

    @contextmanager
    def adding(self) -> Iterator[None]:
        """Held while a host is added (keyring entries, then the row): LabGPU processes adding hosts
        take turns, so a second add of one name sees the first's row and touches no keyring entry."""
        with damage.file_lock(self.store.path.with_name(f".{self.store.path.name}.hosts-add.lock")):
            yield

    def remove(self, name: str) -> bool:
        cur = self.store.execute("DELETE FROM hosts WHERE name=?", (name,))
        return cur.rowcount > 0


# Tags a launch writes on an instance so the host made from it logs in right: the image's login user
# and the private key (a path on the computer that launched it). Launches before these tags wrote
# the user as "labgpu-user": still read.
SSH_USER_TAG = "labgpu:ssh-user"
SSH_KEY_PATH_TAG = "labgpu:ssh-key-path"
OLD_SSH_USER_TAG = "labgpu-user"


def login_user(tags: dict[str, str], provider: str = "") -> str:
    """The login user an instance's tags name: LabGPU's own tag, else the tag its provider declares
    for it (``ProviderSpec.tags["login"]``), else the tag older launches wrote; else ``ubuntu``, the
    user of the GPU images LabGPU launches."""
    from .providers import find_spec

    found = find_spec(provider) if provider else None
    declared = found.tag("login") if found is not None else ""
    return (
        tags.get(SSH_USER_TAG, "")
        or (tags.get(declared, "") if declared else "")
        or tags.get(OLD_SSH_USER_TAG, "")
        or "ubuntu"
    )


# LabGPU's own SSH keys for the instances it launches, one per key type (app.cloud.sshkeys keeps
# them there; each passphrase is in the keyring under "sshkey:<file name>:passphrase"): ed25519 (AWS,
# and every launch before), RSA for the clouds whose key import takes RSA only (Tencent, Alibaba).
OWN_KEY_DIR = "ssh"
OWN_KEY_NAMES = {"ed25519": "labgpu_ed25519", "rsa": "labgpu_rsa"}


def own_key_file(paths: Paths, key_name: str) -> str:
    """The file of LabGPU's own key that an instance launched with the cloud key pair ``key_name``
    logs in with ("" when none is): the key whose cloud name (``labgpu-`` + 16 hex digits of the
    SHA-256 of its ``SHA256:…`` fingerprint, app.cloud.sshkeys.SshKey.cloud_name) is ``key_name``."""
    import base64
    import hashlib

    folder = paths.data_dir / OWN_KEY_DIR
    for name in OWN_KEY_NAMES.values():
        try:
            blob = base64.b64decode((folder / f"{name}.pub").read_text(encoding="ascii").split()[1])
        except (OSError, IndexError, ValueError, UnicodeDecodeError):
            continue
        fp = "SHA256:" + base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
        if key_name == "labgpu-" + hashlib.sha256(fp.encode()).hexdigest()[:16] and (folder / name).exists():
            return str(folder / name)
    return ""


def instance_hosts(paths: Paths | None = None, store: Store | None = None) -> list[HostRecord]:
    """Running launched instances (the cloud feature's ledger) as hosts, named by instance id.

    The login user comes from the instance's ``labgpu:ssh-user`` tag the launch wrote (or the older
    ``labgpu-user``; else ``ubuntu``, the user of the GPU images LabGPU launches); the key from the
    ``labgpu:ssh-key-path`` tag, else LabGPU's own key (ed25519 or RSA) whose key pair the instance
    was launched with, else the user's default keys or agent.
    """
    paths = paths or default_paths()
    store = store or Store(paths=paths)
    store.migrate()  # the ledger's schema registers when its module is first imported
    ledger = Ledger(store)
    out = []
    for e in ledger.list(include_terminated=False):
        if e.state != InstanceState.RUNNING or not e.public_ip:
            continue
        try:
            name = validate_name(e.id)
        except InputError:
            continue
        key = e.tags.get(SSH_KEY_PATH_TAG, "")
        if not key and e.key_name.startswith("labgpu-"):
            key = own_key_file(paths, e.key_name)
        out.append(
            HostRecord(
                name=name,
                hostname=e.public_ip,
                user=login_user(e.tags, e.provider),
                instance_id=e.id,
                provider=e.provider,
                key_path=key,
                auth="key" if key else "auto",
                private_address=e.private_ip or "",
            )
        )
    return out
