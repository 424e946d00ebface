"""Helpers for the sync tests: a direct paramiko connection to the test sshd, tree makers, hashes.

The connection checks the server's key against the fixture's fingerprint (never auto-adds).
"""

from __future__ import annotations

import base64
import hashlib
import os
import socket
from pathlib import Path

import paramiko

from app.remote import fastssh


class PlainConnection:
    """What the engine needs from a connection: ``.transport`` and ``.close()``."""

    def __init__(self, transport: paramiko.Transport) -> None:
        self.transport = transport

    def close(self) -> None:
        self.transport.close()


def fingerprint(key: paramiko.PKey) -> str:
    return "SHA256:" + base64.b64encode(hashlib.sha256(key.asbytes()).digest()).decode().rstrip("=")


def plain_connect(sshd, host: str | None = None, port: int | None = None):
    """A ``connect()`` callable for SyncEngine, optionally through a relay at host:port."""
    key = paramiko.Ed25519Key.from_private_key_file(str(sshd.client_key))

    def connect() -> PlainConnection:
        sock = socket.create_connection((host or sshd.host, port or sshd.port), timeout=10)
        t = paramiko.Transport(sock)
        fastssh.install(t)  # as app.remote.ssh does for every transport it opens
        t.get_security_options().ciphers = ("aes128-gcm@openssh.com", "aes128-ctr")
        try:
            t.start_client(timeout=10)
            if fingerprint(t.get_remote_server_key()) != sshd.host_key_fingerprint:
                raise paramiko.SSHException("host key mismatch")
            t.auth_publickey(sshd.user, key)
        except BaseException:
            t.close()
            raise
        return PlainConnection(t)

    return connect


def write_tree(root: Path, files: dict[str, bytes], mtime: float | None = None) -> None:
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
        if mtime is not None:
            os.utime(p, (mtime, mtime))


def tree_hashes(root: Path, skip_parts: bool = False) -> dict[str, str]:
    out = {}
    for p in sorted(root.rglob("*")):
        if skip_parts and any(part.endswith(".labgpu-part") for part in p.relative_to(root).parts):
            continue  # a temporary file, or a file in a staging folder (a new folder being unpacked)
        if p.is_file() and not p.is_symlink():
            out[p.relative_to(root).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


def part_files(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*.labgpu-part"))
