"""SFTP at the request level: one channel with many requests in flight and replies by id, channels
opened ahead of use, and the pure-SFTP pieces for servers without a usable shell (SFTP-only
accounts, chrooted storage boxes, Windows OpenSSH) and for dry runs.

* :class:`Channel` — requests sent without waiting (thousands in one write with
  :meth:`Channel.send_many`), replies read once and filed by id; ``read_only`` refuses anything
  that could change the server before it is sent.
* :data:`READ_ONLY_REQUESTS` — the SFTP requests a dry run's channel may send (reading, listing,
  stat, statvfs); every other request (open for writing, mkdir, remove, rename, setstat, …) is
  refused before it leaves the client.
* :func:`sftp_sha256` — a remote file's sha256 by reading it back (checksums without
  ``sha256sum``), many reads in flight.
* :func:`parse_statvfs` — free space from ``statvfs@openssh.com`` (no ``df`` needed).
* :func:`sftp_mkdirs` — ``mkdir -p`` as pipelined SFTP MKDIRs.

paramiko's internals (its request numbering and reply routing, its attribute codec) are used only
where :func:`app.remote.paramiko_probe.check` allows; otherwise a :class:`Channel` numbers and
routes its requests itself and encodes attributes with paramiko's public ``Message`` only.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import queue
import stat as statmod
import struct
import threading
from collections.abc import Callable, Sequence
from typing import Any

import paramiko
from paramiko.sftp import (
    CMD_ATTRS,
    CMD_CLOSE,
    CMD_DATA,
    CMD_EXTENDED,
    CMD_EXTENDED_REPLY,
    CMD_FSTAT,
    CMD_HANDLE,
    CMD_LSTAT,
    CMD_MKDIR,
    CMD_NAME,
    CMD_OPEN,
    CMD_OPENDIR,
    CMD_READ,
    CMD_READDIR,
    CMD_REALPATH,
    CMD_STAT,
    CMD_STATUS,
    CMD_WRITE,
    SFTP_EOF,
    SFTP_FLAG_READ,
    SFTP_OK,
    int64,
)
from paramiko.sftp_attr import SFTPAttributes

from app.core.syncplan import DIR, FILE, OTHER
from app.remote import fastssh, paramiko_probe

from .errors import CONN_ERRORS, SyncError, connection_lost_error, dry_run_write_error, step_timeout_error
from .tuning import CHANNEL_MAX_PACKET, CHANNEL_WINDOW, STEP_TIMEOUT


def _send_all(chan: paramiko.Channel, data: bytes | bytearray) -> None:
    """``Channel.sendall`` through the lean packet path (:mod:`app.remote.fastssh`)."""
    fastssh.sendall(chan, data)


def attrs_from_msg(msg: paramiko.Message) -> SFTPAttributes:
    """An ATTRS structure read from ``msg`` (paramiko's decoder where the probe allows)."""
    if paramiko_probe.check().enabled:
        return SFTPAttributes._from_msg(msg)
    a = SFTPAttributes()
    flags = msg.get_int()
    if flags & SFTPAttributes.FLAG_SIZE:
        a.st_size = msg.get_int64()
    if flags & SFTPAttributes.FLAG_UIDGID:
        a.st_uid = msg.get_int()
        a.st_gid = msg.get_int()
    if flags & SFTPAttributes.FLAG_PERMISSIONS:
        a.st_mode = msg.get_int()
    if flags & SFTPAttributes.FLAG_AMTIME:
        a.st_atime = msg.get_int()
        a.st_mtime = msg.get_int()
    if flags & SFTPAttributes.FLAG_EXTENDED:
        for _ in range(msg.get_int()):
            a.attr[msg.get_string()] = msg.get_string()
    return a


def attrs_bytes(a: SFTPAttributes) -> bytes:
    """``a`` encoded as an SFTP ATTRS structure (paramiko's encoder where the probe allows)."""
    m = paramiko.Message()
    if paramiko_probe.check().enabled:
        a._pack(m)
        return bytes(m.asbytes())
    size_ok = a.st_size is not None
    ids_ok = a.st_uid is not None and a.st_gid is not None
    mode_ok = a.st_mode is not None
    times_ok = a.st_atime is not None and a.st_mtime is not None
    flags = (
        (SFTPAttributes.FLAG_SIZE if size_ok else 0)
        | (SFTPAttributes.FLAG_UIDGID if ids_ok else 0)
        | (SFTPAttributes.FLAG_PERMISSIONS if mode_ok else 0)
        | (SFTPAttributes.FLAG_AMTIME if times_ok else 0)
        | (SFTPAttributes.FLAG_EXTENDED if a.attr else 0)
    )
    m.add_int(flags)
    if size_ok:
        m.add_int64(a.st_size)
    if ids_ok:
        m.add_int(a.st_uid)
        m.add_int(a.st_gid)
    if mode_ok:
        m.add_int(a.st_mode)
    if times_ok:
        m.add_int(int(a.st_atime))
        m.add_int(int(a.st_mtime))
    if a.attr:
        m.add_int(len(a.attr))
        for key, val in a.attr.items():
            m.add_string(key)
            m.add_string(val)
    return bytes(m.asbytes())


class _Replies:
    """SFTP replies by request id, kept as raw ``(type, body)`` (body starts with the id)."""

    def __init__(self) -> None:
        self.got: dict[int, tuple[int, bytes]] = {}

    def _async_response(self, t: int, msg: paramiko.Message, num: int) -> None:
        # only if paramiko's own _read_response dispatched to us (Channel.wait does not use it)
        self.got[num] = (t, struct.pack(">I", num) + msg.get_remainder())


class SftpError(OSError):
    def __init__(self, code: int, text: str) -> None:
        super().__init__(errno.ENOENT if code == 2 else errno.EACCES if code == 3 else errno.EIO, text)
        self.code = code
        self.text = text


class Channel:
    """One SFTP channel driven at the request level: many requests in flight, replies by id.

    ``read_only`` (dry runs): every request that could change the server (open for writing,
    mkdir, remove, rename, setstat, …) is refused before it is sent. ``timeout``: silence from
    the server for that long fails the step (``doing`` names what was being done)."""

    def __init__(
        self, transport: paramiko.Transport, *, read_only: bool = False, timeout: float = STEP_TIMEOUT
    ) -> None:
        self.read_only = read_only
        self.timeout = timeout
        self.doing = "an SFTP reply"
        try:
            chan = transport.open_session(
                window_size=CHANNEL_WINDOW, max_packet_size=CHANNEL_MAX_PACKET, timeout=15
            )
            fastssh.use_lean_pipe(chan)  # one worker thread reads this channel
            chan.settimeout(timeout)
            chan.invoke_subsystem("sftp")
            self.sftp = paramiko.SFTPClient(chan)
        except TimeoutError:
            raise step_timeout_error("the SFTP subsystem to start", timeout) from None
        except CONN_ERRORS as exc:
            raise connection_lost_error(str(exc) or type(exc).__name__) from None
        self.replies = _Replies()
        # fast: requests numbered and routed through the SFTPClient's own bookkeeping (paramiko
        # internals, where the probe allows); stock: this channel numbers its requests itself
        # (nothing else sends on it) and never calls into paramiko's private methods.
        self.fast = paramiko_probe.check(self.sftp).enabled
        self._lock = threading.Lock()
        self._next = 1  # the stock path's next request id (SFTPClient starts at 1 too)
        if self.fast:
            # paramiko reassembles each reply with ``bytes += piece`` (quadratic for 255 KiB
            # replies arriving in 32 KiB packets) and copies it again to drop the type byte: read
            # it once.
            self.sftp._read_packet = self._read_packet  # type: ignore[method-assign]

    def _read_packet(self) -> tuple[int, bytes]:
        chan = self.sftp.sock
        head = fastssh.recv_exact(chan, 5)
        size, kind = struct.unpack(">IB", head)
        if size > (1 << 24) or size == 0:
            raise paramiko.SFTPError("Garbage packet received")
        return kind, fastssh.recv_exact(chan, size - 1) if size > 1 else b""

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.sftp.close()

    def _net(self, exc: BaseException) -> SyncError:
        if isinstance(exc, TimeoutError):
            return step_timeout_error(self.doing, self.timeout)
        return connection_lost_error(str(exc) or type(exc).__name__)

    def _guard(self, t: int, args: tuple[Any, ...]) -> None:
        if self.read_only and not read_only_request(t, args):
            raise dry_run_write_error(f"SFTP request {t}")

    def send(self, t: int, *args: Any) -> int:
        self._guard(t, args)
        if not self.fast:
            return self.send_many([(t, *args)])[0]
        try:
            return int(self.sftp._async_request(self.replies, t, *args))
        except CONN_ERRORS as exc:
            raise self._net(exc) from None

    def _numbers(self, k: int) -> int:
        """Reserve ``k`` consecutive request ids whose replies come to this channel; the first."""
        if not self.fast:
            with self._lock:
                first = self._next
                self._next += k
            return first
        sftp = self.sftp
        with sftp._lock:
            first = int(sftp.request_number)
            for num in range(first, first + k):
                sftp._expecting[num] = self.replies
            sftp.request_number = first + k
        return first

    def send_many(self, requests: Sequence[tuple[Any, ...]]) -> list[int]:
        """Many requests in ONE channel write: thousands of renames or mkdirs cost a few SSH
        packets instead of one each (paramiko's per-packet cost dominates small requests)."""
        sftp = self.sftp
        parts: list[bytes] = []
        nums: list[int] = []
        pack_i, pack_q = struct.Struct(">I").pack, struct.Struct(">Q").pack
        for t, *args in requests:
            self._guard(t, tuple(args))
        if requests:
            first = self._numbers(len(requests))
            for num, (t, *args) in enumerate(requests, first):
                # encoded like paramiko's Message (add_int64/add_int/attrs/add_string), directly
                fields: list[bytes] = [pack_i(num)]
                for item in args:
                    if isinstance(item, int64):
                        fields.append(pack_q(item))
                    elif isinstance(item, int):
                        fields.append(pack_i(item))
                    elif isinstance(item, SFTPAttributes):
                        fields.append(attrs_bytes(item))
                    else:
                        b = item.encode("utf-8") if isinstance(item, str) else bytes(item)
                        fields.append(pack_i(len(b)))
                        fields.append(b)
                body = b"".join(fields)
                parts.append(struct.pack(">IB", len(body) + 1, t) + body)
                nums.append(num)
        try:
            for k in range(0, len(parts), 2048):
                _send_all(sftp.sock, b"".join(parts[k : k + 2048]))
        except CONN_ERRORS as exc:
            raise self._net(exc) from None
        return nums

    def send_write(self, handle: bytes, offset: int, data: bytes) -> int:
        """A WRITE request built and sent without paramiko's copies of the payload (its message
        building and ``_write_all`` re-slicing copied each 252 KiB block several times)."""
        if self.read_only:
            raise dry_run_write_error("SFTP write")
        sftp = self.sftp
        num = self._numbers(1)
        head = struct.pack(">IBII", 1 + 4 + 4 + len(handle) + 8 + 4 + len(data), CMD_WRITE, num, len(handle))
        buf = bytearray(head)
        buf += handle
        buf += struct.pack(">QI", offset, len(data))
        buf += data
        try:
            _send_all(sftp.sock, buf)
        except CONN_ERRORS as exc:
            raise self._net(exc) from None
        return num

    def _pump(self) -> None:
        """Read one reply and file it by request id: paramiko's ``_read_response`` without a
        Message and lock round per reply (thousands of rename/status replies per batch)."""
        kind, body = self._read_packet()
        if len(body) < 4:
            raise paramiko.SFTPError("Garbage packet received")
        num = int.from_bytes(body[:4], "big")
        if not self.fast:  # every request on this channel is ours
            self.replies.got[num] = (kind, body)
            return
        sftp = self.sftp
        with sftp._lock:
            owner = sftp._expecting.pop(num, None)
        if owner is self.replies:
            self.replies.got[num] = (kind, body)
        elif owner is not None and owner is not type(None):
            msg = paramiko.Message(body)
            msg.get_int()
            owner._async_response(kind, msg, num)
        # else: a reply to a request nobody waits for any more (paramiko drops it too)

    def _raw(self, num: int) -> tuple[int, bytes]:
        got = self.replies.got
        try:
            while num not in got:
                self._pump()
        except CONN_ERRORS as exc:
            raise self._net(exc) from None
        return got.pop(num)

    def wait(self, num: int) -> tuple[int, paramiko.Message]:
        """The reply to request ``num`` as (type, message positioned after the id)."""
        t, body = self._raw(num)
        msg = paramiko.Message(body)
        msg.get_int()
        return t, msg

    def wait_data(self, num: int) -> tuple[int, paramiko.Message, memoryview | None]:
        """Like :meth:`wait`; for a DATA reply also its payload as a view (no copy)."""
        t, body = self._raw(num)
        view = None
        if t == CMD_DATA and len(body) >= 8:
            n = struct.unpack_from(">I", body, 4)[0]
            if 8 + n == len(body):
                view = memoryview(body)[8:]
        msg = paramiko.Message(body)
        msg.get_int()
        return t, msg, view

    def status(self, num: int) -> None:
        """Wait for a STATUS reply and raise SftpError unless OK."""
        t, body = self._raw(num)
        if t != CMD_STATUS:
            raise SftpError(-1, f"unexpected reply {t}")
        code = struct.unpack_from(">I", body, 4)[0] if len(body) >= 8 else -1
        if code != SFTP_OK:
            msg = paramiko.Message(body[8:])
            raise SftpError(code, msg.get_text() if len(body) > 8 else "")

    def handle(self, num: int) -> bytes:
        t, msg = self.wait(num)
        if t == CMD_HANDLE:
            return bytes(msg.get_binary())
        if t == CMD_STATUS:
            code = msg.get_int()
            raise SftpError(code, msg.get_text())
        raise SftpError(-1, f"unexpected reply {t}")

    def stat_kind(self, path: bytes) -> str | None:
        """DIR/FILE/OTHER for ``path`` (symlinks followed), None if it does not exist."""
        t, msg = self.wait(self.send(CMD_STAT, path))
        if t == CMD_ATTRS:
            mode = attrs_from_msg(msg).st_mode or 0
            return DIR if statmod.S_ISDIR(mode) else FILE if statmod.S_ISREG(mode) else OTHER
        if t == CMD_STATUS:
            code = msg.get_int()
            if code == 2:  # SSH_FX_NO_SUCH_FILE
                return None
            raise SftpError(code, msg.get_text())
        raise SftpError(-1, f"unexpected reply {t}")

    def statvfs_free(self, path: bytes) -> int | None:
        """Free bytes at ``path`` from ``statvfs@openssh.com`` (None if the server lacks it)."""
        if "statvfs@openssh.com" not in getattr(self.sftp, "_labgpu_ext", {"statvfs@openssh.com"}):
            return None
        t, body = self._raw(self.send(CMD_EXTENDED, "statvfs@openssh.com", path))
        if t != CMD_EXTENDED_REPLY:
            return None
        return parse_statvfs(body[4:])

    def rename(self, old: bytes, new: bytes) -> int:
        return self.send(CMD_EXTENDED, "posix-rename@openssh.com", old, new)

    def listdir_bytes(self, path: bytes) -> list[tuple[bytes, SFTPAttributes]]:
        """READDIR keeping names as bytes (paramiko's listdir decodes strictly and aborts)."""
        h = self.handle(self.send(CMD_OPENDIR, path))
        out: list[tuple[bytes, SFTPAttributes]] = []
        try:
            while True:
                t, msg = self.wait(self.send(CMD_READDIR, h))
                if t == CMD_STATUS:
                    code = msg.get_int()
                    if code == SFTP_EOF:
                        break
                    raise SftpError(code, msg.get_text())
                if t != CMD_NAME:
                    raise SftpError(-1, "unexpected reply")
                for _ in range(msg.get_int()):
                    name = bytes(msg.get_string())
                    msg.get_string()  # longname
                    attr = attrs_from_msg(msg)
                    if name not in (b".", b".."):
                        out.append((name, attr))
        finally:
            self.status(self.send(CMD_CLOSE, h))
        return out


class ChannelPool:
    """SFTP channels opened in parallel, ahead of use: each costs three round trips (open,
    subsystem, version), which across 200 ms of RTT is worth overlapping with each other and
    with the folder preparation."""

    def __init__(self, make: Callable[[], Channel], n: int) -> None:
        self._q: queue.Queue[Channel | BaseException] = queue.Queue()
        self._threads = [threading.Thread(target=self._open, args=(make,), daemon=True) for _ in range(n)]
        self._left = n
        self._lock = threading.Lock()
        for th in self._threads:
            th.start()

    def _open(self, make: Callable[[], Channel]) -> None:
        try:
            self._q.put(make())
        except BaseException as exc:  # noqa: BLE001 - handed to whoever takes this slot
            self._q.put(exc)

    def get(self) -> Channel | None:
        """A ready channel, or None when none is left (the caller opens its own)."""
        with self._lock:
            if self._left == 0:
                return None
            self._left -= 1
        got = self._q.get()
        if isinstance(got, BaseException):
            raise got
        return got

    def put(self, ch: Channel) -> None:
        with self._lock:
            self._left += 1
        self._q.put(ch)

    def close(self) -> None:
        for th in self._threads:
            th.join()
        while True:
            try:
                got = self._q.get_nowait()
            except queue.Empty:
                return
            if isinstance(got, Channel):
                got.close()


def sftp_attrs(mtime: float | None = None, mode: int | None = None) -> SFTPAttributes:
    a = SFTPAttributes()
    if mtime is not None:
        a.st_atime = int(mtime)
        a.st_mtime = int(mtime)
    if mode is not None:
        a.st_mode = mode & 0o7777
    return a


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
    for n in ch.send_many([(CMD_MKDIR, p, SFTPAttributes()) for p in paths]):
        try:
            ch.status(n)
        except SftpError:
            pass
