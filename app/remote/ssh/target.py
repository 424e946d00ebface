"""What to dial: a host record merged with ~/.ssh/config, its ProxyJump hops, and the host-key
fingerprints a launched instance's cloud vouches for."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import paramiko

from app.core.hosts import HostRecord, HostStore, instance_hosts
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import Paths
from app.core.sshcmd import JumpHop, parse_jump
from app.remote import vouch

from .errors import SshError

log = logging.getLogger("app.remote.ssh")


@dataclass
class Target:
    """A host record after ~/.ssh/config was applied: exactly what will be dialled."""

    name: str
    hostname: str
    port: int
    user: str
    auth: str
    key_files: list[str] = field(default_factory=list)
    jump: list[Target] = field(default_factory=list)
    password: str | None = None  # only in memory, e.g. while adding a host
    address_family: str = ""  # "" = any, "inet" (IPv4 only), "inet6" (IPv6 only): what dial resolves

    @property
    def display(self) -> str:
        return f"{self.user}@{self.hostname}:{self.port}"


def ssh_config_path() -> Path:
    return Path(os.path.expanduser("~/.ssh/config"))


def _ssh_config() -> paramiko.SSHConfig | None:
    path = ssh_config_path()
    if not path.is_file():
        return None
    try:
        return paramiko.SSHConfig.from_path(str(path))
    except (OSError, paramiko.SSHException, ValueError) as exc:
        log.warning("ignoring unreadable %s: %s", path, exc)
        return None


def resolve_target(
    rec: HostRecord, paths: Paths | None = None, *, password: str | None = None, _depth: int = 0
) -> Target:
    """Merge the record with ~/.ssh/config (record wins) and resolve ProxyJump hops."""
    if _depth > 5:
        raise SshError(
            QT_TRANSLATE_NOOP("LabGPU", "ProxyJump for {host} loops or is too long."),
            QT_TRANSLATE_NOOP("LabGPU", "Check the -J hosts and ~/.ssh/config."),
            code="JumpLoop",
            host=rec.name,
        )
    cfg = _ssh_config()
    alias = rec.connect_address
    c: dict[str, Any] = dict(cfg.lookup(alias)) if cfg else {}
    hostname = rec.connect_address if rec.via_vpn else c.get("hostname", alias)
    port = rec.port or int(c.get("port", 22))
    user = rec.user or c.get("user", "") or os.environ.get("USER", "") or "root"
    keys: list[str] = []
    if rec.key_path:
        keys.append(rec.key_path)
    for k in c.get("identityfile", []) or []:
        if k not in keys:
            keys.append(k)
    # ssh -4/-6 of the saved command line, else ~/.ssh/config's AddressFamily (any/inet/inet6).
    family = rec.address_family or str(c.get("addressfamily", "")).lower()
    if family not in ("inet", "inet6"):
        family = ""
    jump_spec = rec.jump or ("" if rec.via_vpn else c.get("proxyjump", ""))
    hops: list[Target] = []
    for hop in parse_jump(jump_spec):
        hops.append(_hop_target(hop, paths, _depth + 1))
    # Nested ProxyJump of the first hop precedes it (OpenSSH semantics: the chain is flattened).
    flat: list[Target] = []
    for h in hops:
        flat.extend(h.jump)
        flat.append(replace(h, jump=[]))
    return Target(
        name=rec.name,
        hostname=hostname,
        port=port,
        user=user,
        auth=rec.auth,
        key_files=[os.path.expanduser(k) for k in keys],
        jump=flat,
        password=password,
        address_family=family,
    )


def _hop_target(hop: JumpHop, paths: Paths | None, depth: int) -> Target:
    saved = HostStore(paths=paths).find(hop.host)
    if saved is not None:
        rec = replace(saved, user=hop.user or saved.user, port=hop.port or saved.port)
    else:
        rec = HostRecord(name=hop.host, hostname=hop.host, user=hop.user, port=hop.port)
    return resolve_target(rec, paths, _depth=depth)


def find_host(name: str, paths: Paths | None = None) -> HostRecord:
    """A saved host, or a launched instance shown as a host."""
    hs = HostStore(paths=paths)
    rec = hs.find(name)
    if rec is not None:
        return rec
    for inst in instance_hosts(paths=paths, store=hs.store):
        if name in (inst.name, inst.instance_id):
            return inst
    return hs.get(name)  # raises HostNotFoundError


def set_console_voucher(voucher: vouch.ConsoleVoucher | None) -> None:
    """See app.remote.vouch (kept here for callers that already hold this module)."""
    vouch.set_console_voucher(voucher)


def console_fingerprints_for(rec: HostRecord, paths: Paths | None = None) -> list[str]:
    """For a launched instance: the host-key fingerprints its cloud says it printed at boot.

    An independent channel (the cloud's API) vouching for the key, so a match needs no prompt and a
    mismatch is refused. Best effort: any problem (no voucher, no account, no output yet, no network)
    gives [] and the user is asked as on any first contact.
    """
    voucher = vouch.console_voucher()
    if voucher is None or not rec.instance_id:
        return []
    try:
        return [str(f) for f in voucher(rec, paths)]
    except Exception as exc:  # noqa: BLE001 - a bonus check; never blocks connecting
        log.info("no console fingerprints for %s: %s", rec.instance_id, type(exc).__name__)
        return []
