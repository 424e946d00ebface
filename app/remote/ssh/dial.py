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
from .errors import HostUnreachableError
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
        try:
            sock = socket.create_connection((target.hostname, target.port), timeout=tuning.connect_timeout)
        except socket.gaierror as exc:
            raise _unreachable(target, f"name not found: {exc.strerror or exc}") from None
        except TimeoutError:
            raise _unreachable(target, "timed out") from None
        except OSError as exc:
            raise _unreachable(target, exc.strerror or type(exc).__name__) from None
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
