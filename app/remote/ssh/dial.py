"""Dialling one hop: TCP (or a jump channel) → SSH handshake → host-key check → login."""

from __future__ import annotations

import socket
from collections.abc import Sequence
from typing import Any

import paramiko

from app.core.i18n import QT_TRANSLATE_NOOP
from app.remote import fastssh
from app.remote.hostkeys import AcceptCallback, KnownHosts, verify_host_key

from .auth import authenticate
from .errors import HostUnreachableError, name_not_resolved_error
from .target import Target
from .tuning import TransportTuning


def _unreachable(target: Target, why: str) -> HostUnreachableError:
    return HostUnreachableError(
        QT_TRANSLATE_NOOP("LabGPU", "Cannot reach {host} ({why})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Check that the server is running, the address and port are right and "
            "your network (or VPN) is up, then retry.",
        ),
        code="HostUnreachable",
        host=target.display,
        why=why,
    )


# getaddrinfo's answers that mean "there is no such name" (EAI_AGAIN, a resolver that cannot be
# asked right now, is not one of them)
_NO_SUCH_NAME = frozenset(
    getattr(socket, n) for n in ("EAI_NONAME", "EAI_NODATA", "EAI_FAIL") if hasattr(socket, n)
)

_FAMILIES = {"inet": (socket.AF_INET, "IPv4"), "inet6": (socket.AF_INET6, "IPv6")}


def _connect(target: Target, timeout: float) -> socket.socket:
    """TCP to the target like OpenSSH's ssh_connect_direct: every address getaddrinfo gives in the
    target's address family (ssh -4/-6, AddressFamily; any when not set), in order, until one answers."""
    family, label = _FAMILIES.get(target.address_family, (socket.AF_UNSPEC, ""))
    try:
        infos = socket.getaddrinfo(target.hostname, target.port, family, socket.SOCK_STREAM)
    except socket.gaierror as exc:
        why = exc.strerror or str(exc)
        if label:  # -4/-6: say which family found nothing, so the user sees why
            why = f"no {label} address ({'-4' if family == socket.AF_INET else '-6'}): {why}"
        if exc.errno in _NO_SUCH_NAME:  # the resolver's final answer: not retried (a temporary failure is)
            raise name_not_resolved_error(target.hostname, why) from None
        raise _unreachable(target, f"name not found: {why}") from None
    last: OSError | None = None
    for fam, kind, proto, _canon, addr in infos:
        sock = socket.socket(fam, kind, proto)
        try:
            sock.settimeout(timeout)
            sock.connect(addr)
            return sock
        except OSError as exc:
            sock.close()
            last = exc
    if isinstance(last, TimeoutError):
        raise _unreachable(target, "timed out")
    raise _unreachable(target, (last.strerror if last else "") or type(last).__name__)


def dial(
    target: Target,
    sock: Any,
    tuning: TransportTuning,
    known: KnownHosts,
    accept: AcceptCallback | None,
    expected: Sequence[str],
) -> tuple[paramiko.Transport, str]:
    """TCP (or ``sock``) → SSH handshake → host-key check → auth. Returns (transport, fingerprint)."""
    if sock is None:
        sock = _connect(target, tuning.connect_timeout)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    transport = paramiko.Transport(
        sock, default_window_size=tuning.window_size, default_max_packet_size=tuning.max_packet_size
    )
    transport.name = f"ssh:{target.name}"  # type: ignore[attr-defined]
    fastssh.install(transport)  # this transport's fast data paths, if the paramiko probe allows
    ok = False
    try:
        opts = transport.get_security_options()
        available = set(opts.ciphers)
        preferred = [c for c in tuning.ciphers if c in available]
        opts.ciphers = tuple(preferred + [c for c in opts.ciphers if c not in preferred])
        transport.use_compression(tuning.compression)
        # Like OpenSSH: ask first for the host-key types already trusted for this address, so a
        # server with several keys is not mistaken for a changed one.
        known_types = [k.get_name() for k in known.known_keys(target.hostname, target.port)]
        if known_types:
            wanted: list[str] = []
            for kt in known_types:
                wanted += ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"] if kt == "ssh-rsa" else [kt]
            keys = tuple(opts.key_types)
            first = [k for k in dict.fromkeys(wanted) if k in keys]
            opts.key_types = tuple(first + [k for k in keys if k not in first])
        try:
            transport.start_client(timeout=tuning.connect_timeout)
        except (paramiko.SSHException, EOFError, OSError) as exc:
            raise _unreachable(target, f"SSH handshake failed: {exc}") from None
        key = transport.get_remote_server_key()
        fp = verify_host_key(
            known,
            host=target.name,
            hostname=target.hostname,
            port=target.port,
            key=key,
            accept=accept,
            expected=tuple(expected),
        )
        authenticate(transport, target, tuning)
        transport.set_keepalive(tuning.keepalive_s)
        ok = True
        return transport, fp
    finally:
        if not ok:
            transport.close()
