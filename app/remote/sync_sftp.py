"""Pure-SFTP pieces of the sync engine, for servers without a usable shell (SFTP-only accounts,
chrooted storage boxes, Windows OpenSSH) and for dry runs.

* :data:`READ_ONLY_REQUESTS` — the SFTP requests a dry run's channel may send (reading, listing,
  stat, statvfs); every other request (open for writing, mkdir, remove, rename, setstat, …) is
  refused before it leaves the client.
* :func:`sftp_sha256` — a remote file's sha256 by reading it back (checksums without
  ``sha256sum``), many reads in flight.
* :func:`parse_statvfs` — free space from ``statvfs@openssh.com`` (no ``df`` needed).
* :func:`sftp_mkdirs` — ``mkdir -p`` as pipelined SFTP MKDIRs.
"""

from __future__ import annotations

import hashlib
import struct
from typing import Any

from paramiko.sftp import (
    CMD_CLOSE,
    CMD_DATA,
    CMD_EXTENDED,
    CMD_FSTAT,
    CMD_LSTAT,
    CMD_MKDIR,
    CMD_OPEN,
    CMD_OPENDIR,
    CMD_READ,
    CMD_READDIR,
    CMD_REALPATH,
    CMD_STAT,
    CMD_STATUS,
    SFTP_EOF,
    SFTP_FLAG_READ,
    int64,
)
from paramiko.sftp_attr import SFTPAttributes

READ_ONLY_REQUESTS = frozenset(
    {CMD_OPEN, CMD_READ, CMD_CLOSE, CMD_OPENDIR, CMD_READDIR, CMD_STAT, CMD_LSTAT, CMD_FSTAT, CMD_REALPATH}
)
READ_ONLY_EXTENDED = frozenset({"statvfs@openssh.com"})


def read_only_request(t: int, args: tuple[Any, ...]) -> bool:
    """True if the SFTP request ``t`` with ``args`` cannot change anything on the server."""
    if t == CMD_EXTENDED:
        name = args[0] if args else ""
        return (name.decode() if isinstance(name, bytes) else name) in READ_ONLY_EXTENDED
    if t not in READ_ONLY_REQUESTS:
        return False
    if t == CMD_OPEN:
        flags = args[1] if len(args) > 1 else -1
        return isinstance(flags, int) and flags == SFTP_FLAG_READ
    return True


def parse_statvfs(body: bytes) -> int | None:
    """Free bytes for an unprivileged user from a statvfs@openssh.com reply body (after the id)."""
    if len(body) < 11 * 8:
        return None
    _bsize, frsize, _blocks, _bfree, bavail = struct.unpack_from(">5Q", body, 0)
    return int(bavail * frsize)


def sftp_sha256(ch: Any, path: bytes, size: int, request: int = 255 * 1024, in_flight: int = 16) -> str | None:
    """sha256 of the remote file ``path`` read over SFTP (None if it cannot be read)."""
    from app.remote.sync import SftpError  # the channel's own error type

    try:
        h = ch.handle(ch.send(CMD_OPEN, path, SFTP_FLAG_READ, SFTPAttributes()))
    except SftpError:
        return None
    digest = hashlib.sha256()
    ok = True
    try:
        pending: list[tuple[int, int, int]] = []
        off = 0
        while off < size or pending:
            while off < size and len(pending) < in_flight:
                n = min(request, size - off)
                pending.append((ch.send(CMD_READ, h, int64(off), n), off, n))
                off += n
            num, at, n = pending.pop(0)
            t, msg = ch.wait(num)
            if t == CMD_STATUS:
                code = msg.get_int()
                ok = False if code != SFTP_EOF else ok
                if code == SFTP_EOF:
                    ok = False  # shorter than listed: changed meanwhile
                continue
            if t != CMD_DATA:
                ok = False
                continue
            data = msg.get_string()
            if len(data) < n:  # short read: ask for the rest before anything later is hashed
                digest.update(data)
                rest = at + len(data)
                pending.insert(0, (ch.send(CMD_READ, h, int64(rest), n - len(data)), rest, n - len(data)))
                continue
            digest.update(data)
    finally:
        try:
            ch.status(ch.send(CMD_CLOSE, h))
        except SftpError:
            pass
    return digest.hexdigest() if ok else None


def sftp_mkdirs(ch: Any, paths: list[bytes]) -> None:
    """MKDIR every path in order (parents first), all in flight; failures are left to a stat."""
    from app.remote.sync import SftpError

    for n in ch.send_many([(CMD_MKDIR, p, SFTPAttributes()) for p in paths]):
        try:
            ch.status(n)
        except SftpError:
            pass
