"""The sync engine: fast, resumable, safe transfers between a local folder and a remote one.

Why it is built like this (measured, see tests/benchmarks/bench_sync.py):

* Listing: the remote side is listed with ONE ``find -printf … \\0`` over an exec channel (sizes,
  mtimes, kinds, raw bytes names — paramiko's ``listdir_attr`` dies on a non-UTF-8 name, #546),
  the local side with ``os.scandir``. A re-sync with nothing changed costs one round trip.
  Without GNU find it falls back to a bytes-level SFTP READDIR walk.
* Transfers speak SFTP directly through paramiko's request layer with many requests in flight
  per file (our own pipelining: paramiko's plain ``SFTPFile.read/write`` wait for every reply) and
  many files in flight per channel, on several SFTP channels (one worker thread each) over one
  Transport. Small files cost no round trip each: opens, writes, mtime and closes of a batch are
  pipelined; renames follow once every write of the batch is confirmed. Many small files going
  up are streamed through the server's ``tar -x`` instead (one exec per few thousand files, each
  written under its temporary name, renamed only after tar exited 0); without a usable tar the
  SFTP batches are used.
* Request sizes: 255 KiB reads (sftp-server's maximum), 252 KiB writes, 32 MiB channel window,
  256 KiB max packet — on loopback many smaller requests in flight were several times slower.
* Atomicity: data goes to ``.NAME.labgpu-part`` next to the target, mtime/mode are set on it and
  only then it is renamed (``posix-rename@openssh.com``/``os.replace``): no reader ever sees a
  partial file under the final name, whatever is cut. An interrupted transfer resumes from the
  temporary file after its prefix was verified by sha256 on both sides.
* Safety: remote names are never trusted (``app.core.syncplan`` refuses ``..``, ``/``, ``\\``,
  NUL); every local path is resolved and must stay below the local root; symlinks are not
  followed; free space is checked first (remote ``df -Pk``, local ``shutil.disk_usage``) and a
  failed write removes its temporary file and says which side is full.
* Reconnects: the engine gets a ``connect()`` callable; when the connection drops it reports the
  state ``waiting`` and calls it again with backoff (a VPN host's connect brings the tunnel up),
  re-lists and continues where it stopped.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import logging
import os
import queue
import secrets
import shlex
import shutil
import socket
import stat as statmod
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import paramiko
from paramiko.sftp import (
    CMD_ATTRS,
    CMD_CLOSE,
    CMD_DATA,
    CMD_EXTENDED,
    CMD_EXTENDED_REPLY,
    CMD_FSETSTAT,
    CMD_HANDLE,
    CMD_MKDIR,
    CMD_NAME,
    CMD_OPEN,
    CMD_OPENDIR,
    CMD_READ,
    CMD_READDIR,
    CMD_REMOVE,
    CMD_RMDIR,
    CMD_STAT,
    CMD_STATUS,
    CMD_WRITE,
    SFTP_EOF,
    SFTP_FLAG_CREATE,
    SFTP_FLAG_READ,
    SFTP_FLAG_TRUNC,
    SFTP_FLAG_WRITE,
    SFTP_OK,
    int64,
)
from paramiko.sftp_attr import SFTPAttributes

from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import Paths
from app.core.syncmodel import (
    DEFAULT_CHANNELS,  # noqa: F401 - re-exported
    DOWN,
    STEP_TIMEOUT,
    UP,
    SyncOptions,
    SyncProgress,
    SyncResult,
    display_name,
)
from app.core.syncpairs import SyncPair, SyncRun, SyncStore  # noqa: F401 - re-exported
from app.core.syncplan import (
    DIR,
    FILE,
    LINK,
    OTHER,
    REASONS,
    Entry,
    IgnoreRules,
    PlanItem,
    SyncPlan,
    build_plan,
    checksum_mismatches,
    decode_name,
    default_rules,
    encode_name,
    part_name,
    remote_join,
    remote_target,
    unsafe_path,
)
from app.core.units import human_bytes

from . import fastssh
from .sync_caps import (
    NO_SHELL,
    PROBE,
    ProbeListing,
    ServerCaps,
    frame,
    new_nonce,
    parse_probe,
    parse_probe_list,
    probe_list_command,
    unframe,
)
from .sync_sftp import parse_statvfs, read_only_request, sftp_mkdirs, sftp_sha256

log = logging.getLogger(__name__)
fastssh.install()

# Tuned on loopback against OpenSSH's internal-sftp (bench_sync.py): 64 KiB requests keep
# sftp-server and paramiko's packetizer busy without big copies; 48 requests in flight hide the
# round trip; 4 channels for many small files. See the report in the benchmark for numbers.
REQUEST_SIZE = 255 * 1024  # OpenSSH sftp-server's largest READ (SFTP_MAX_READ_LENGTH)
WRITE_SIZE = 252 * 1024  # a WRITE message must stay under its 256 KiB message limit
IN_FLIGHT = 32  # reads in flight per file (more, smaller requests were slower here)
WRITES_IN_FLIGHT = 64
SMALL_FILE = 256 * 1024
BATCH_FILES = 64  # small files per pipelined SFTP batch
BATCH_BYTES = 4 * 1024 * 1024
TAR_MIN_FILES = 65  # from this many small files on, uploads stream them through remote tar
TAR_BATCH_FILES = 6000  # at most this many small files per tar stream (upload)
TAR_STREAMS = 2
TAR_BATCH_BYTES = 64 * 1024 * 1024
SPLIT_MIN = 64 * 1024 * 1024  # a download this big is fetched as SPLIT_PARTS byte ranges in parallel
SPLIT_PARTS = 2  # 2 ranges beat 4 on 2 cores once the client path was lean (fewer sftp-server processes)
CHANNEL_WINDOW = 32 * 1024 * 1024  # our receive window per channel (downloads)
CHANNEL_MAX_PACKET = 256 * 1024  # lets sshd send big packets: fewer per-packet costs in paramiko
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0)
PROBE_TIMEOUT = 20.0  # the capability probe: a server that does not answer it gets pure SFTP
PROGRESS_INTERVAL = 0.1


# ---------------------------------------------------------------------------------------------
# errors


class SyncError(LabGpuError):
    """A sync could not finish; the message says why and what to do."""


class DiskFullError(SyncError):
    pass


class ConnectionLostError(SyncError):
    pass


class SyncCancelledError(SyncError):
    pass


class RemoteTimeoutError(SyncError):
    """A remote step did not answer within its timeout (not retried: the server is there but
    something on it hangs)."""


class DryRunWriteError(SyncError):
    """A dry run reached a writing call: refused (a bug, never a change)."""


def _step_timeout(what: str, seconds: float) -> RemoteTimeoutError:
    return RemoteTimeoutError(
        QT_TRANSLATE_NOOP(
            "LabGPU", "The server did not answer for {seconds:.0f} s while LabGPU was waiting for {what}."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Run the sync again: finished files are kept and an interrupted one continues where it "
            "stopped. If it repeats, something on the server hangs (check it, or its load).",
        ),
        code="RemoteTimeout",
        what=what,
        seconds=seconds,
    )


def _dry_run_write(what: str) -> DryRunWriteError:
    return DryRunWriteError(
        QT_TRANSLATE_NOOP("LabGPU", "A dry run tried to change something ({what}); refused."),
        QT_TRANSLATE_NOOP("LabGPU", "Nothing was changed. Please report this as a bug."),
        code="DryRunWrite",
        what=what,
    )


def _untrusted_output(what: str, sample: bytes) -> SyncError:
    return SyncError(
        QT_TRANSLATE_NOOP(
            "LabGPU", "The server's answer to {what} could not be trusted (it was cut or not framed): {sample}"
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Nothing was changed by this step. Run the sync again; if it repeats, the login shell on "
            "the server may print text or exit early (check ~/.bashrc there).",
        ),
        code="UntrustedOutput",
        what=what,
        sample=sample.decode("utf-8", "replace").strip()[:200],
    )


def _connection_lost(why: str) -> ConnectionLostError:
    return ConnectionLostError(
        QT_TRANSLATE_NOOP("LabGPU", "The connection was lost during the sync ({why})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Run the sync again: finished files are kept and the interrupted one continues where it stopped.",
        ),
        code="ConnectionLost",
        why=why,
    )


def _cancelled() -> SyncCancelledError:
    return SyncCancelledError(
        QT_TRANSLATE_NOOP("LabGPU", "The sync was cancelled."),
        QT_TRANSLATE_NOOP("LabGPU", "Files already finished are kept; run it again to continue."),
        code="Cancelled",
    )


# Inside channel/exec wrappers any OSError is the network (no local file I/O happens there).
_CONN_ERRORS: tuple[type[BaseException], ...] = (
    EOFError,
    socket.error,
    paramiko.SSHException,
    ConnectionError,
)
# Around a whole attempt: only errors that cannot be a local file problem.
_OUTER_NET_ERRORS: tuple[type[BaseException], ...] = (
    EOFError,
    paramiko.SSHException,
    ConnectionError,
    socket.timeout,
)



# ---------------------------------------------------------------------------------------------
# helpers: bandwidth, rate


class TokenBucket:
    """Shared bandwidth limit (bytes/s) across all worker threads; waits wake on cancel."""

    def __init__(self, rate: float, cancel: threading.Event) -> None:
        self.rate = rate
        self.cancel = cancel
        self.allowance = 0.0
        self.last = time.monotonic()
        self.lock = threading.Lock()

    def consume(self, n: int) -> None:
        while True:
            with self.lock:
                now = time.monotonic()
                self.allowance = min(self.allowance + (now - self.last) * self.rate, self.rate * 0.25 + n)
                self.last = now
                if self.allowance >= n:
                    self.allowance -= n
                    return
                wait = (n - self.allowance) / self.rate
            if self.cancel.wait(min(wait, 0.2)):
                raise _cancelled()


class _Progress:
    """Thread-safe counters and a throttled callback."""

    def __init__(self, callback: Callable[[SyncProgress], None] | None) -> None:
        self.cb = callback
        self.p = SyncProgress()
        self.lock = threading.Lock()
        self.last_emit = 0.0
        self.samples: deque[tuple[float, int]] = deque()

    def state(self, state: str, **kw: Any) -> None:
        with self.lock:
            self.p.state = state
            for k, v in kw.items():
                setattr(self.p, k, v)
        self.emit(force=True)

    def add(self, nbytes: int = 0, files: int = 0, current: str | None = None) -> None:
        with self.lock:
            self.p.bytes_done += nbytes
            self.p.files_done += files
            if current is not None:
                self.p.current = current
        self.emit()

    def emit(self, force: bool = False) -> None:
        if self.cb is None:
            return
        now = time.monotonic()
        with self.lock:
            if not force and now - self.last_emit < PROGRESS_INTERVAL:
                return
            self.last_emit = now
            self.samples.append((now, self.p.bytes_done))
            while len(self.samples) > 2 and now - self.samples[0][0] > 5.0:
                self.samples.popleft()
            t0, b0 = self.samples[0]
            if now - t0 > 0.2:
                self.p.rate = (self.p.bytes_done - b0) / (now - t0)
            left = max(0, self.p.bytes_total - self.p.bytes_done)
            self.p.eta = left / self.p.rate if self.p.rate > 1 else None
            snap = SyncProgress(**asdict(self.p))
        try:
            self.cb(snap)
        except Exception:  # noqa: BLE001 - a broken progress consumer must not break the sync
            log.exception("progress callback failed")


# ---------------------------------------------------------------------------------------------
# remote side: exec, listing, hashing, df


def _transport_of(conn: Any) -> paramiko.Transport:
    t = getattr(conn, "transport", conn)
    if t is None or not t.is_active():
        raise _connection_lost("not connected")
    return t


def _no_delay(t: paramiko.Transport) -> None:
    """TCP_NODELAY on the connection: without it every small request/reply exchange (the remote
    listing, df, mkdirs, renames) can stall 40 ms on Nagle + delayed ACK (measured: the listing
    took 48 ms instead of 4). ``app.remote.ssh`` sets it on what it dials; a ``connect()``
    handed to the engine may not have."""
    sock = getattr(t, "sock", None)
    if isinstance(sock, socket.socket) and sock.family in (socket.AF_INET, socket.AF_INET6):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


def remote_root_path(remote: str) -> str:
    """The remote folder as handed to every remote command (see ``syncplan.remote_target``:
    absolute or ``./``-prefixed, never able to become an option)."""
    return remote_target(remote)


class ReadCmd(bytes):
    """A remote command that only reads (listing, checksums, free space, the probe). A dry run's
    shell runs nothing else: a writing command is plain ``bytes`` and is refused there."""


class RemoteShell:
    """Exec on its own channel with raw bytes in and out (names need not be UTF-8).

    Every command is framed (:mod:`app.remote.sync_caps`): what a login shell prints around it
    is dropped, and an answer without its frame raises instead of being parsed. Silence longer
    than ``timeout`` fails the step with what it was waiting for. ``read_only`` (dry runs) runs
    only :class:`ReadCmd` commands."""

    def __init__(
        self, transport: paramiko.Transport, *, read_only: bool = False, timeout: float = STEP_TIMEOUT
    ) -> None:
        self.t = transport
        self.read_only = read_only
        self.timeout = timeout

    def open(
        self, command: bytes, what: str, timeout: float | None = None, *, wait: bool = True
    ) -> paramiko.Channel:
        """An exec channel running ``command`` as given (callers frame it). ``wait=False`` does
        not wait for the server's answer to the exec request (one round trip less; only once the
        probe showed that exec works here: a refused one then shows as a missing frame)."""
        if self.read_only and not isinstance(command, ReadCmd):
            raise _dry_run_write(what)
        try:
            chan = self.t.open_session(timeout=15)
            chan.settimeout(timeout or self.timeout)
            if wait:
                chan.exec_command(command)
            else:
                m = paramiko.Message()
                m.add_byte(bytes([98]))  # MSG_CHANNEL_REQUEST
                m.add_int(chan.remote_chanid)
                m.add_string("exec")
                m.add_boolean(False)
                m.add_string(command)
                self.t._send_user_message(m)
        except TimeoutError:
            raise _step_timeout(what, timeout or self.timeout) from None
        except _CONN_ERRORS as exc:
            raise _connection_lost(str(exc) or type(exc).__name__) from None
        return chan

    def run_raw(
        self, command: bytes, *, timeout: float | None = None, stdin: bytes | None = None, what: str = ""
    ) -> tuple[int, bytes, bytes]:
        """Run ``command`` unframed; (exit status or -1, stdout, stderr)."""
        limit = timeout or self.timeout
        what = what or _what_of(command)
        chan = self.open(command, what, limit)
        out, err = bytearray(), bytearray()
        try:
            if stdin:
                fastssh.sendall(chan, stdin)
            chan.shutdown_write()
            while True:
                data = chan.recv(1 << 20)
                if not data:
                    break
                out += data
                while chan.recv_stderr_ready():
                    err += chan.recv_stderr(65536)
            if not chan.status_event.wait(limit):
                raise TimeoutError()
            rc = chan.recv_exit_status()
            while chan.recv_stderr_ready():
                err += chan.recv_stderr(65536)
        except TimeoutError:
            raise _step_timeout(what, limit) from None
        except _CONN_ERRORS as exc:
            raise _connection_lost(str(exc) or type(exc).__name__) from None
        finally:
            chan.close()
        return rc, bytes(out), bytes(err)

    def run(
        self, command: bytes, *, timeout: float | None = None, stdin: bytes | None = None, what: str = ""
    ) -> tuple[int, bytes, bytes]:
        """Run ``command`` framed: (its exit status, its stdout, its stderr) — nothing else."""
        what = what or _what_of(command)
        nonce = new_nonce()
        wire = frame(command, nonce)
        if isinstance(command, ReadCmd):
            wire = ReadCmd(wire)
        rc, out, err = self.run_raw(wire, timeout=timeout, stdin=stdin, what=what)
        got = unframe(out, err, nonce)
        if got is None:
            if rc == -1:
                raise _connection_lost("the command channel closed")
            raise _untrusted_output(what, out[-200:] or err[-200:])
        return got

    def probe(self, timeout: float = PROBE_TIMEOUT, root_q: bytes | None = None) -> ProbeListing:
        """What this server offers (once per connection; see :mod:`app.remote.sync_caps`); with
        ``root_q`` also that folder's state, free space and (GNU find) listing in the same exec."""
        nonce = new_nonce()
        command = PROBE if root_q is None else probe_list_command(root_q)
        try:
            rc, out, err = self.run_raw(
                ReadCmd(frame(command, nonce)), timeout=min(timeout, self.timeout), what="the capability probe"
            )
        except RemoteTimeoutError:
            waited = min(timeout, self.timeout)
            return ProbeListing(
                ServerCaps(note=f"the shell did not answer the probe within {waited:.0f} s: SFTP only")
            )
        except ConnectionLostError:
            if not self.t.is_active():
                raise
            return ProbeListing(ServerCaps(note="the server refused exec requests: SFTP only"))
        framed = unframe(out, err, nonce)
        if root_q is None:
            return ProbeListing(parse_probe(framed, out, err))
        return parse_probe_list(framed, out, err)


def _what_of(command: bytes) -> str:
    word = bytes(command).split(b" ", 1)[0].decode("ascii", "replace")[:20]
    return f"the remote command {word!r}"


def _q(path: str) -> bytes:
    """A remote PATH argument, shell-quoted, that can never be read as an option."""
    if not (path.startswith("/") or path.startswith("./") or path == "."):
        raise ValueError(f"remote path argument not anchored: {path!r}")
    return encode_name(shlex.quote(path))


def _arg_batches(paths: Sequence[str], limit: int = 64 * 1024) -> Iterable[list[str]]:
    batch: list[str] = []
    size = 0
    for p in paths:
        n = len(encode_name(p)) + 3
        if batch and size + n > limit:
            yield batch
            batch, size = [], 0
        batch.append(p)
        size += n
    if batch:
        yield batch


def parse_find_output(data: bytes) -> dict[str, Entry]:
    """Records ``TYPE SIZE MTIME MODE PATH\\0`` from ``find -printf '%y %s %T@ %m %P\\0'``."""
    out: dict[str, Entry] = {}
    for rec in data.split(b"\x00"):
        if not rec:
            continue
        parts = rec.split(b" ", 4)
        if len(parts) != 5 or not parts[4]:
            continue
        kind_b, size_b, mtime_b, mode_b, raw = parts
        kind = {b"f": FILE, b"d": DIR, b"l": LINK}.get(kind_b, OTHER)
        try:
            size, mtime, mode = int(size_b), float(mtime_b), int(mode_b, 8)
        except ValueError:
            continue
        path = decode_name(raw)
        out[path] = Entry(path, kind, size if kind == FILE else 0, mtime, mode)
    return out


def _send_all(chan: paramiko.Channel, data: bytes | bytearray) -> None:
    """``Channel.sendall`` through the lean packet path (:mod:`app.remote.fastssh`)."""
    fastssh.sendall(chan, data)


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
            raise _step_timeout("the SFTP subsystem to start", timeout) from None
        except _CONN_ERRORS as exc:
            raise _connection_lost(str(exc) or type(exc).__name__) from None
        self.replies = _Replies()
        # paramiko reassembles each reply with ``bytes += piece`` (quadratic for 255 KiB replies
        # arriving in 32 KiB packets) and copies it again to drop the type byte: read it once.
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
            return _step_timeout(self.doing, self.timeout)
        return _connection_lost(str(exc) or type(exc).__name__)

    def _guard(self, t: int, args: tuple[Any, ...]) -> None:
        if self.read_only and not read_only_request(t, args):
            raise _dry_run_write(f"SFTP request {t}")

    def send(self, t: int, *args: Any) -> int:
        self._guard(t, args)
        try:
            return int(self.sftp._async_request(self.replies, t, *args))
        except _CONN_ERRORS as exc:
            raise self._net(exc) from None

    def send_many(self, requests: Sequence[tuple[Any, ...]]) -> list[int]:
        """Many requests in ONE channel write: thousands of renames or mkdirs cost a few SSH
        packets instead of one each (paramiko's per-packet cost dominates small requests)."""
        sftp = self.sftp
        parts: list[bytes] = []
        nums: list[int] = []
        pack_i, pack_q = struct.Struct(">I").pack, struct.Struct(">Q").pack
        for t, *args in requests:
            self._guard(t, tuple(args))
        with sftp._lock:
            for t, *args in requests:
                num = sftp.request_number
                # encoded like paramiko's Message (add_int64/add_int/attrs/add_string), directly
                fields: list[bytes] = [pack_i(num)]
                for item in args:
                    if isinstance(item, int64):
                        fields.append(pack_q(item))
                    elif isinstance(item, int):
                        fields.append(pack_i(item))
                    elif isinstance(item, SFTPAttributes):
                        m = paramiko.Message()
                        item._pack(m)
                        fields.append(m.asbytes())
                    else:
                        b = item.encode("utf-8") if isinstance(item, str) else bytes(item)
                        fields.append(pack_i(len(b)))
                        fields.append(b)
                body = b"".join(fields)
                parts.append(struct.pack(">IB", len(body) + 1, t) + body)
                nums.append(num)
                sftp._expecting[num] = self.replies
                sftp.request_number = num + 1
        try:
            for k in range(0, len(parts), 2048):
                _send_all(sftp.sock, b"".join(parts[k : k + 2048]))
        except _CONN_ERRORS as exc:
            raise self._net(exc) from None
        return nums

    def send_write(self, handle: bytes, offset: int, data: bytes) -> int:
        """A WRITE request built and sent without paramiko's copies of the payload (its message
        building and ``_write_all`` re-slicing copied each 252 KiB block several times)."""
        if self.read_only:
            raise _dry_run_write("SFTP write")
        sftp = self.sftp
        with sftp._lock:
            num = int(sftp.request_number)
            sftp._expecting[num] = self.replies
            sftp.request_number += 1
        head = struct.pack(">IBII", 1 + 4 + 4 + len(handle) + 8 + 4 + len(data), CMD_WRITE, num, len(handle))
        buf = bytearray(head)
        buf += handle
        buf += struct.pack(">QI", offset, len(data))
        buf += data
        try:
            _send_all(sftp.sock, buf)
        except _CONN_ERRORS as exc:
            raise self._net(exc) from None
        return num

    def _pump(self) -> None:
        """Read one reply and file it by request id: paramiko's ``_read_response`` without a
        Message and lock round per reply (thousands of rename/status replies per batch)."""
        kind, body = self._read_packet()
        if len(body) < 4:
            raise paramiko.SFTPError("Garbage packet received")
        num = int.from_bytes(body[:4], "big")
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
        except _CONN_ERRORS as exc:
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
            mode = SFTPAttributes._from_msg(msg).st_mode or 0
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
                    attr = SFTPAttributes._from_msg(msg)
                    if name not in (b".", b".."):
                        out.append((name, attr))
        finally:
            self.status(self.send(CMD_CLOSE, h))
        return out


class _ChannelPool:
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


def _tar_octal(value: int, width: int) -> bytes:
    return b"%0*o\0" % (width - 1, value)


def _tar_block(name: bytes, size: int, mtime: int, mode: int, typeflag: bytes) -> bytes:
    head = (
        name.ljust(100, b"\0")
        + _tar_octal(mode, 8)
        + _tar_octal(0, 8)
        + _tar_octal(0, 8)
        + _tar_octal(size, 12)
        + _tar_octal(mtime, 12)
        + b" " * 8
        + typeflag
        + b"\0" * 100
        + b"ustar  \0"
        + b"\0" * 32
        + b"\0" * 32
        + b"\0" * 16
        + b"\0" * 155
        + b"\0" * 12
    )
    chk = b"%06o\0 " % sum(head)
    return head[:148] + chk + head[156:]


_TAR_IDS = b"0000000\0" * 2  # uid, gid
_TAR_TAIL = b"0" + b"\0" * 100 + b"ustar  \0" + b"\0" * 247  # typeflag … end of block
_TAR_CONST_SUM = sum(_TAR_IDS) + sum(_TAR_TAIL)
_OCT11 = 8**11


def _tar_file_block(name: bytes, size: int, mtime: int, mode: int) -> bytes:
    """``_tar_block(…, b"0")`` for a short name in one join: the checksum is summed over the
    variable fields only (10,000 headers: 37 ms → ~12 ms)."""
    name_f = name.ljust(100, b"\0")
    mode_f = b"%07o\0" % mode
    size_f = b"%011o\0" % size
    mtime_f = b"%011o\0" % mtime
    chk = _TAR_CONST_SUM + 256 + sum(name) + sum(mode_f) + sum(size_f) + sum(mtime_f)  # 256: 8 spaces
    return b"".join((name_f, mode_f, _TAR_IDS, size_f, mtime_f, b"%06o\0 " % chk, _TAR_TAIL))


def tar_header(name: bytes, size: int, mtime: int, mode: int, typeflag: bytes = b"0") -> bytes:
    """A GNU tar header for one regular file, or a folder with ``typeflag=b"5"`` (a
    ``././@LongLink`` entry first for long names).

    Written by hand: ``tarfile`` costs ~100 µs per member, which dominated 10,000-file uploads."""
    if len(name) < 100:
        if typeflag == b"0" and 0 <= size < _OCT11 and 0 <= mtime < _OCT11 and 0 <= mode < 8**7:
            return _tar_file_block(name, size, mtime, mode)
        return _tar_block(name, size, mtime, mode, typeflag)
    long_name = name + b"\0"
    pad = -len(long_name) % 512
    return (
        _tar_block(b"././@LongLink", len(long_name), 0, 0o644, b"L")
        + long_name
        + b"\0" * pad
        + _tar_block(name[:99], size, mtime, mode, typeflag)
    )


class _Split:
    """One big download fetched as byte ranges by several workers into the same temporary file."""

    def __init__(self, item: PlanItem, tmp: str, parts: int) -> None:
        self.item = item
        self.tmp = tmp
        self.lock = threading.Lock()
        step = -(-item.size // parts)
        bounds = [(k * step, min(item.size, (k + 1) * step)) for k in range(parts)]
        self.parts = [_SplitPart(self, a, b) for a, b in bounds if a < b]
        self.left = len(self.parts)
        self.complete = False

    def keep_prefix(self) -> None:
        """After a failure: cut the temporary file to its contiguous complete prefix, the part a
        later run can verify and resume from (ranges beyond a gap would only fail the check)."""
        if self.complete:
            return
        prefix = 0
        for p in self.parts:
            prefix = p.upto
            if p.upto < p.end:
                break
        with contextlib.suppress(OSError):
            os.truncate(self.tmp, prefix)


class _SplitPart:
    def __init__(self, split: _Split, start: int, end: int) -> None:
        self.split, self.start, self.end, self.upto = split, start, end, start
        self.last = False  # set when this range was the last of its file to finish

    @property
    def item(self) -> PlanItem:
        return self.split.item

    def finish(self) -> bool:
        """Mark this range done; True for the last one (which then finishes the file)."""
        with self.split.lock:
            self.split.left -= 1
            last = self.split.left == 0
            if last:
                self.split.complete = True
            return last


class _ChannelWriter:
    """File-like sink for ``tarfile`` that sends into an exec channel (bandwidth limit, cancel,
    and a timeout when the server stops reading)."""

    def __init__(self, chan: paramiko.Channel, engine: SyncEngine, what: str, timeout: float) -> None:
        self.chan = chan
        self.engine = engine
        self.what = what
        self.timeout = timeout

    def write(self, data: bytes) -> int:
        self.engine._take(len(data))
        try:
            fastssh.sendall(self.chan, data)
        except TimeoutError:
            raise _step_timeout(self.what, self.timeout) from None
        except _CONN_ERRORS as exc:
            raise _connection_lost(str(exc) or type(exc).__name__) from None
        return len(data)


def _attrs(mtime: float | None = None, mode: int | None = None) -> SFTPAttributes:
    a = SFTPAttributes()
    if mtime is not None:
        a.st_atime = int(mtime)
        a.st_mtime = int(mtime)
    if mode is not None:
        a.st_mode = mode & 0o7777
    return a


# ---------------------------------------------------------------------------------------------
# local side


def list_local(
    root: Path, errors: list[str] | None = None, reasons: dict[str, str] | None = None
) -> dict[str, Entry]:
    """Walk without following symlinks; names as ``str`` (surrogateescape for non-UTF-8).
    Folders that cannot be read are appended to ``errors`` (and why, to ``reasons``)."""
    out: dict[str, Entry] = {}
    if not root.exists():
        return out
    stack = [("", str(root))]
    while stack:
        rel, full = stack.pop()
        try:
            it = os.scandir(full)
        except OSError as exc:
            log.warning("cannot list %s: %s", full, exc)
            if errors is not None:
                errors.append(rel or ".")
            if reasons is not None:
                reasons[rel or "."] = exc.strerror or str(exc)
            continue
        with it:
            for de in it:
                path = f"{rel}/{de.name}" if rel else de.name
                try:
                    st = de.stat(follow_symlinks=False)
                except OSError:
                    continue
                if statmod.S_ISLNK(st.st_mode):
                    kind = LINK
                elif statmod.S_ISDIR(st.st_mode):
                    kind = DIR
                    stack.append((path, de.path))
                elif statmod.S_ISREG(st.st_mode):
                    kind = FILE
                else:
                    kind = OTHER
                out[path] = Entry(
                    path, kind, st.st_size if kind == FILE else 0, st.st_mtime, statmod.S_IMODE(st.st_mode)
                )
    return out


class LocalRoot:
    """Maps a planned relative path to a local path that is guaranteed to stay below the root."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.real = os.path.realpath(root)
        self._ok_dirs: set[str] = set()

    def path(self, rel: str) -> str:
        if unsafe_path(rel):
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "Refused the unsafe file name {name!r}."),
                "",
                code="UnsafeName",
                name=rel,
            )
        full = os.path.join(self.real, *rel.split("/"))
        parent = os.path.dirname(full)
        if parent not in self._ok_dirs:
            real_parent = os.path.realpath(parent)
            if real_parent != self.real and not real_parent.startswith(self.real + os.sep):
                raise SyncError(
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Refused to write {name!r}: it would land outside the destination folder."
                    ),
                    "",
                    code="OutsideRoot",
                    name=rel,
                )
            self._ok_dirs.add(parent)
        return full


def sha256_file(path: str, limit: int | None = None) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        left = limit
        while True:
            n = 1 << 20 if left is None else min(1 << 20, left)
            if n == 0:
                break
            chunk = fh.read(n)
            if not chunk:
                break
            h.update(chunk)
            if left is not None:
                left -= len(chunk)
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------
# the engine


class SyncEngine:
    """One sync between ``local`` and ``remote`` over connections made by ``connect()``.

    ``connect()`` returns an object with ``.transport`` (a logged-in paramiko Transport) and
    ``.close()`` — an ``app.remote.ssh.Connection`` or anything alike. Use ``cancel()`` from any
    thread. ``run()`` blocks and returns a SyncResult, or raises a SyncError.
    """

    def __init__(
        self,
        connect: Callable[[], Any],
        local: str | Path,
        remote: str,
        options: SyncOptions | None = None,
        progress: Callable[[SyncProgress], None] | None = None,
        cancel_event: threading.Event | None = None,
    ) -> None:
        self.connect = connect
        self.local = Path(local).expanduser()
        self.remote = remote_root_path(remote)  # "./x" or "/x": never an option to any command
        self.remote_text = remote
        self.opts = options or SyncOptions()
        self.cancel_event = cancel_event or threading.Event()
        self.progress = _Progress(progress)
        self.bucket = (
            TokenBucket(self.opts.bwlimit_kbps * 1024, self.cancel_event) if self.opts.bwlimit_kbps else None
        )
        self.result = SyncResult(self.opts.direction, dry_run=self.opts.dry_run)
        self._conn: Any = None
        self._lock = threading.Lock()
        self._stop = threading.Event()  # set by a failing worker to stop its siblings
        self._incomplete: dict[str, str] = {}  # side → why its listing is incomplete
        self._offsets: dict[str, int] = {}  # where each transfer really started (verified resume)
        self._temps: dict[str, str] = {}  # path → this attempt's temporary file
        self._tar_ok: bool | None = None  # remote tar usable for small-file streams (None: untried)
        self.caps: ServerCaps = NO_SHELL  # what this connection's server offers (probed per connection)
        self._read_only = self.opts.dry_run  # a dry run's channels and shell cannot write
        self._free_hint: int | None = None  # remote free bytes from this attempt's probe
        self._pool: _ChannelPool | None = None  # SFTP channels opened ahead of the transfer
        self._tar_dirs: list[str] = []  # folders the first tar stream creates (see _apply)
        self._tar_make_root = False  # … and whether it creates the remote root first

    def _channel(self, t: paramiko.Transport) -> Channel:
        return Channel(t, read_only=self._read_only, timeout=self.opts.step_timeout)

    def _writable(self, what: str) -> None:
        """Every writing step starts here: a dry run cannot pass."""
        if self._read_only:
            raise _dry_run_write(what)

    # public -----------------------------------------------------------------------------------
    def cancel(self) -> None:
        self.cancel_event.set()
        conn = self._conn
        # closing the transport wakes workers blocked on the network at once
        if conn is not None:
            with contextlib.suppress(Exception):
                _transport_of(conn).close()

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    def run(self) -> SyncResult:
        start = time.monotonic()
        attempt = 0
        while True:
            attempt += 1
            self.result.attempts = attempt
            self._stop.clear()
            try:
                self._check_cancel()
                try:
                    self._conn = self.connect()
                except _OUTER_NET_ERRORS as exc:
                    raise _connection_lost(str(exc) or type(exc).__name__) from None
                try:
                    self._run_once()
                except _OUTER_NET_ERRORS as exc:
                    raise _connection_lost(str(exc) or type(exc).__name__) from None
                finally:
                    conn, self._conn = self._conn, None
                    with contextlib.suppress(Exception):
                        conn.close()
                break
            except ConnectionLostError as exc:
                if self.cancelled:
                    raise _cancelled() from None
                if not self.opts.reconnect or attempt >= self.opts.max_attempts or self.opts.dry_run:
                    raise
                delay = BACKOFF[min(attempt - 1, len(BACKOFF) - 1)]
                log.info("sync connection lost (%s); reconnecting in %.1fs", exc.one_line(), delay)
                self.progress.state("waiting", attempt=attempt, message=exc.text())
                if self.cancel_event.wait(delay):
                    raise _cancelled() from None
            except LabGpuError as exc:
                if self.cancelled and not isinstance(exc, SyncCancelledError):
                    raise _cancelled() from None
                if attempt < self.opts.max_attempts and self.opts.reconnect and _is_connect_failure(exc):
                    delay = BACKOFF[min(attempt - 1, len(BACKOFF) - 1)]
                    self.progress.state("waiting", attempt=attempt, message=exc.text())
                    if self.cancel_event.wait(delay):
                        raise _cancelled() from None
                    continue
                raise
        self.result.seconds = time.monotonic() - start
        self.progress.state("done")
        return self.result

    # one attempt ------------------------------------------------------------------------------
    def _check_cancel(self) -> None:
        if self.cancelled or self._stop.is_set():
            raise _cancelled()

    def _run_once(self) -> None:
        self._incomplete.clear()
        t = _transport_of(self._conn)
        _no_delay(t)
        shell = RemoteShell(t, read_only=self._read_only, timeout=self.opts.step_timeout)
        up = self.opts.direction == UP
        self.progress.state("listing")
        if up and not self.local.is_dir():
            if self.local.exists():
                raise SyncError(
                    QT_TRANSLATE_NOOP("LabGPU", "The local path {path} is a file, not a folder."),
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Give the folder that contains it (sync works on folders)."
                    ),
                    code="LocalNotFolder",
                    path=str(self.local),
                )
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "The local folder {path} does not exist."),
                QT_TRANSLATE_NOOP("LabGPU", "Check the path, or create the folder first."),
                code="LocalMissing",
                path=str(self.local),
            )
        if not up and self.local.exists() and not self.local.is_dir():
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "The local path {path} is a file, not a folder."),
                QT_TRANSLATE_NOOP("LabGPU", "Download into a folder: give a folder path."),
                code="LocalNotFolder",
                path=str(self.local),
            )
        pre = self._probe(shell)
        self.caps = pre.caps
        self.result.server = self.caps.summary()
        if not self.caps.gnu_tar:
            self._tar_ok = False
        # the local scan (syscalls, Python) overlaps the remote listing (mostly waiting on it)
        local_errors: list[str] = []
        local_reasons: dict[str, str] = {}
        scanned: dict[str, Any] = {}

        def scan() -> None:
            try:
                scanned["listing"] = list_local(self.local, local_errors, local_reasons)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the engine's thread
                scanned["error"] = exc

        scanner = threading.Thread(target=scan, name="labgpu-sync-scan", daemon=True)
        scanner.start()
        try:
            remote_listing, remote_exists = self._list_remote(shell, t, pre)
        finally:
            scanner.join()
        if "error" in scanned:
            raise scanned["error"]
        local_listing: dict[str, Entry] = scanned["listing"]
        if not up and not remote_exists:
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "The remote folder {path} does not exist."),
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Check the remote path (relative paths start in the login folder)."
                ),
                code="RemoteMissing",
                path=self.remote_text,
            )
        if local_errors:
            self._incomplete["local"] = local_errors[0]
        source, dest = (local_listing, remote_listing) if up else (remote_listing, local_listing)
        rules = default_rules(self.opts.excludes, defaults=self.opts.default_excludes)
        if self.opts.gitignore:
            self._add_gitignores(rules, source, t)
        self.progress.state("planning")
        plan = build_plan(
            source,
            dest,
            rules,
            delete=self.opts.delete,
            force=self.opts.force,
            windows_dest=(os.name == "nt" and not up),
            strict_source_names=not up,
        )
        src_side = "local" if up else "remote"
        if plan.deletions and src_side in self._incomplete:
            # a folder we could not read looks empty: mirroring would delete its copy
            raise SyncError(
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Refusing to delete: part of the source could not be listed ({why})."
                ),
                QT_TRANSLATE_NOOP("LabGPU", "Fix the permissions there, or sync without deleting."),
                code="ListingIncomplete",
                why=self._incomplete[src_side],
            )
        if self.opts.verify and plan.checksum_candidates:
            self.progress.state("verifying", message="checksums")
            src_sums, dst_sums = self._sums(shell, plan.checksum_candidates, up)
            extra = checksum_mismatches(plan, src_sums, dst_sums, source)
            if extra:
                bad = {i.path for i in extra}
                plan.checksum_candidates = [p for p in plan.checksum_candidates if p not in bad]
                plan.unchanged -= len(extra)
                plan.transfers.extend(extra)
        res = self.result
        res.plan = plan
        res.skipped = plan.unchanged
        res.conflicts = len(plan.conflicts)
        res.conflict_paths = [c.path for c in plan.conflicts]
        res.refused = len(plan.refused)
        res.refused_paths = [r.path for r in plan.refused]
        res.excluded = plan.excluded
        missing: list[dict[str, str]] = []
        if up:
            for rel in local_errors:
                why = local_reasons.get(rel, "error")
                missing.append({"path": rel, "why": f"folder could not be read ({why})"})
        elif "remote" in self._incomplete:
            why = self._incomplete["remote"]
            missing.append({"path": ".", "why": f"part of the remote folder could not be listed ({why})"})
        missing.extend({"path": i.path, "why": REASONS.get(i.reason, i.reason)} for i in plan.refused)
        res.not_transferred = missing
        if self.opts.dry_run:
            res.files = len(plan.transfers)
            res.bytes = plan.bytes_to_transfer
            res.deleted = len(plan.deletions)
            res.mkdirs = len(plan.mkdirs)
            return
        self._apply(t, shell, plan, up, remote_exists)

    def _probe(self, shell: RemoteShell) -> ProbeListing:
        """The capability probe, in the same exec as the root's state, free space and listing."""
        if self.opts.force_mode == "sftp":
            return ProbeListing(ServerCaps(note="pure SFTP (forced)"))
        pre = shell.probe(PROBE_TIMEOUT, _q(self.remote))
        log.info("sync server capabilities: %s (%s)", pre.caps.mode, pre.caps.note)
        self._free_hint = pre.free
        return pre

    def _apply(
        self, t: paramiko.Transport, shell: RemoteShell, plan: SyncPlan, up: bool, remote_exists: bool
    ) -> None:
        """Everything that writes (never reached by a dry run; each step checks it again)."""
        self._writable("apply the plan")
        res = self.result
        with self.progress.lock:
            p = self.progress.p
            p.files_total = p.files_done + len(plan.transfers)
            p.bytes_total = p.bytes_done + plan.bytes_to_transfer
        if plan.is_empty and not plan.stale_parts:
            return
        if self.opts.check_space:
            self._check_space(shell, plan, up)
        self._check_cancel()
        self._pool = _ChannelPool(lambda: self._channel(t), self._workers_needed(plan, up))
        try:
            if up and self._all_by_tar(plan):
                # one round trip less per step across a slow link: the tar stream makes the
                # folders (and the root) itself; SFTP is needed only for the final renames
                self._tar_dirs, self._tar_make_root = list(plan.mkdirs), not remote_exists
            elif up:
                self._remote_prepare(t, shell, plan, remote_exists)
            else:
                self._local_prepare(plan)
            self.progress.state("transferring")
            self._transfer_all(t, shell, plan, up)
        finally:
            pool, self._pool = self._pool, None
            pool.close()
        if plan.deletions:
            self.progress.state("deleting")
            self._delete(t, plan, up)
            res.deleted += len(plan.deletions)

    def _all_by_tar(self, plan: SyncPlan) -> bool:
        return (
            self.caps.gnu_tar
            and self._tar_ok is not False
            and not plan.stale_parts
            and len(plan.transfers) >= TAR_MIN_FILES
            and all(i.size <= SMALL_FILE and not i.resume_from for i in plan.transfers)
        )

    def _workers_needed(self, plan: SyncPlan, up: bool) -> int:
        """How many SFTP channels the transfer will use (as ``_transfer_all`` splits the work)."""
        small = sum(1 for i in plan.transfers if i.size <= SMALL_FILE and not i.resume_from)
        big = len(plan.transfers) - small
        if up and self._tar_ok is not False and small >= TAR_MIN_FILES:
            small_jobs = min(TAR_STREAMS, self.opts.channels)
        else:
            small_jobs = -(-small // BATCH_FILES)
        return max(1, min(self.opts.channels, big + small_jobs))

    def _take_channel(self, t: paramiko.Transport) -> Channel:
        pool = self._pool
        ch = pool.get() if pool is not None else None
        return ch if ch is not None else self._channel(t)

    # listing ------------------------------------------------------------------------------------
    def _list_remote(
        self, shell: RemoteShell, t: paramiko.Transport, pre: ProbeListing | None = None
    ) -> tuple[dict[str, Entry], bool]:
        """(listing, the root exists). GNU find over a framed exec when the server has it (done
        inside the probe's exec: one round trip), else a bytes-level SFTP walk; never output a
        banner could have touched."""
        if pre is None and self.caps is NO_SHELL:
            pre = self._probe(shell)
            self.caps = pre.caps
        if pre is not None and pre.caps.posix_shell and pre.state:
            if pre.state == "N":
                return {}, False
            if pre.state == "F":
                raise self._not_a_folder()
            if pre.listing is None:
                return self._list_remote_sftp(t), True
            return self._find_result(t, pre.rc, pre.listing, pre.err), True
        ch = self._channel(t)
        try:
            ch.doing = "the remote folder's status"
            kind = ch.stat_kind(encode_name(self.remote))
        except SftpError as exc:
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "Could not look at the remote folder {path}: {why}"),
                QT_TRANSLATE_NOOP("LabGPU", "Check the path and your permissions there."),
                code="RemoteStat",
                path=self.remote_text,
                why=exc.text,
            ) from None
        finally:
            ch.close()
        if kind is None:
            return {}, False
        if kind != DIR:
            raise self._not_a_folder()
        if not self.caps.find_printf:
            return self._list_remote_sftp(t), True
        cmd = ReadCmd(b"find -H " + _q(self.remote) + b" -mindepth 1 -printf '%y %s %T@ %m %P\\0'")
        rc, out, err = shell.run(cmd, what="the remote file listing (find)")
        return self._find_result(t, rc, out, err), True

    def _not_a_folder(self) -> SyncError:
        return SyncError(
            QT_TRANSLATE_NOOP("LabGPU", "The remote path {path} is not a folder."),
            QT_TRANSLATE_NOOP("LabGPU", "Give the folder that contains it (sync works on folders)."),
            code="RemoteNotFolder",
            path=self.remote_text,
        )

    def _find_result(self, t: paramiko.Transport, rc: int, out: bytes, err: bytes) -> dict[str, Entry]:
        if rc == 0:
            return parse_find_output(out)
        if out and b"printf" not in err and b"unknown" not in err.lower():
            # partial listing (e.g. an unreadable sub-folder): use what could be read
            why = err.decode("utf-8", "replace").strip()
            log.warning("remote listing incomplete: %s", why[:300])
            self._incomplete["remote"] = why.splitlines()[0] if why else "find failed"
            return parse_find_output(out)
        return self._list_remote_sftp(t)

    def _list_remote_sftp(self, t: paramiko.Transport) -> dict[str, Entry]:
        ch = self._channel(t)
        ch.doing = "the remote file listing (SFTP)"
        out: dict[str, Entry] = {}
        try:
            stack = [""]
            root = encode_name(self.remote)
            while stack:
                rel = stack.pop()
                path = root + (b"/" + encode_name(rel) if rel else b"")
                try:
                    items = ch.listdir_bytes(path)
                except SftpError as exc:
                    log.warning("cannot list %r: %s", path, exc)
                    self._incomplete.setdefault("remote", f"{decode_name(path)}: {exc.text}")
                    continue
                for raw, a in items:
                    name = decode_name(raw)
                    p = f"{rel}/{name}" if rel else name
                    mode = a.st_mode or 0
                    kind = (
                        LINK
                        if statmod.S_ISLNK(mode)
                        else DIR
                        if statmod.S_ISDIR(mode)
                        else FILE
                        if statmod.S_ISREG(mode)
                        else OTHER
                    )
                    out[p] = Entry(
                        p,
                        kind,
                        (a.st_size or 0) if kind == FILE else 0,
                        float(a.st_mtime or 0),
                        statmod.S_IMODE(mode),
                    )
                    if kind == DIR and "/" not in name and "\\" not in name and name not in (".", ".."):
                        stack.append(p)
        finally:
            ch.close()
        return out

    def _add_gitignores(self, rules: IgnoreRules, source: dict[str, Entry], t: paramiko.Transport) -> None:
        names = sorted(
            (
                p
                for p, e in source.items()
                if e.kind == FILE and (p == ".gitignore" or p.endswith("/.gitignore"))
            ),
            key=lambda p: p.count("/"),
        )
        ch = self._channel(t) if self.opts.direction == DOWN and names else None
        try:
            for p in names:
                base = p.rpartition("/")[0]
                if base and rules.excluded(base, True):
                    continue
                try:
                    if ch is None:
                        text = (self.local / p).read_text(encoding="utf-8", errors="replace")
                    else:
                        text = self._read_small_remote(ch, p, source[p].size).decode("utf-8", "replace")
                except (OSError, SftpError) as exc:
                    log.warning("cannot read %s: %s", p, exc)
                    continue
                rules.add_gitignore(text, base)
        finally:
            if ch is not None:
                ch.close()

    def _read_small_remote(self, ch: Channel, rel: str, size: int) -> bytes:
        h = ch.handle(ch.send(CMD_OPEN, self._rpath(rel), SFTP_FLAG_READ, SFTPAttributes()))
        try:
            nums = [
                ch.send(CMD_READ, h, int64(off), min(REQUEST_SIZE, size - off))
                for off in range(0, min(size, 1 << 20), REQUEST_SIZE)
            ]
            data = bytearray()
            for n in nums:
                t, msg = ch.wait(n)
                if t == CMD_DATA:
                    data += msg.get_string()
            return bytes(data)
        finally:
            ch.status(ch.send(CMD_CLOSE, h))

    def _rpath(self, rel: str) -> bytes:
        return encode_name(remote_join(self.remote, rel))

    # checksums ----------------------------------------------------------------------------------
    def remote_sha256(
        self, shell: RemoteShell, rels: Sequence[str], sizes: dict[str, int] | None = None
    ) -> dict[str, str]:
        """sha256 of remote files (relative to the remote root): batched ``sha256sum`` over a
        framed exec, or (no shell) read back over SFTP."""
        sums: dict[str, str] = {}
        if not self.caps.sha256 and self.caps is not NO_SHELL:
            ch = self._channel(shell.t)
            try:
                for p in rels:
                    ch.doing = f"the checksum of {p} (SFTP read)"
                    size = (sizes or {}).get(p)
                    if size is None:
                        t, msg = ch.wait(ch.send(CMD_STAT, self._rpath(p)))
                        if t != CMD_ATTRS:
                            continue
                        size = SFTPAttributes._from_msg(msg).st_size or 0
                    dig = sftp_sha256(ch, self._rpath(p), size)
                    if dig is not None:
                        sums[p] = dig
            finally:
                ch.close()
            return sums
        for batch in _arg_batches(list(rels)):
            # "./name": a name starting with "-" is never an option, even to a sha256sum without "--"
            cmd = ReadCmd(
                b"cd "
                + _q(self.remote)
                + b" && sha256sum -z -- "
                + b" ".join(_q(remote_join(".", p)) for p in batch)
            )
            total = sum((sizes or {}).get(p, 0) for p in batch)
            rc, out, err = shell.run(
                cmd,
                what="remote checksums (sha256sum)",
                timeout=self.opts.step_timeout + total / (50 * 1024 * 1024),
            )
            for rec in out.split(b"\x00"):
                if len(rec) > 68 and rec[64:68] == b"  ./":
                    sums[decode_name(rec[68:])] = rec[:64].decode()
            if rc != 0 and not out:
                log.warning("sha256sum failed: %s", err.decode("utf-8", "replace")[:300])
        return sums

    def _sums(
        self, shell: RemoteShell, rels: Sequence[str], up: bool
    ) -> tuple[dict[str, str], dict[str, str]]:
        remote = self.remote_sha256(shell, rels)
        lr = LocalRoot(self.local)
        local: dict[str, str] = {}
        for p in rels:
            self._check_cancel()
            with contextlib.suppress(OSError):
                local[p] = sha256_file(lr.path(p))
        return (local, remote) if up else (remote, local)

    # free space -------------------------------------------------------------------------------
    @staticmethod
    def _needed(plan: SyncPlan) -> int:
        return plan.bytes_to_transfer + 4096 * len(plan.transfers) + 4096 * len(plan.mkdirs)

    def _remote_free(self, shell: RemoteShell) -> int | None:
        path = self.remote
        if not self.caps.df:
            ch = self._channel(shell.t)
            ch.doing = "the remote free space (statvfs)"
            try:
                for _ in range(40):
                    with contextlib.suppress(SftpError):
                        free = ch.statvfs_free(encode_name(path))
                        return free
                    parent = os.path.dirname(path.rstrip("/")) or "."
                    if parent == path:
                        return None
                    path = parent
            finally:
                ch.close()
            return None
        for _ in range(40):
            rc, out, _err = shell.run(ReadCmd(b"df -Pk -- " + _q(path)), what="the remote free space (df)")
            if rc == 0:
                try:
                    return int(out.splitlines()[-1].split()[3]) * 1024
                except (IndexError, ValueError):
                    return None
            parent = os.path.dirname(path.rstrip("/"))
            if parent in ("", path):
                parent = "." if not path.startswith("/") else "/"
                if parent == path:
                    return None
            path = parent
        return None

    def _local_free(self) -> int:
        p = self.local
        while not p.exists() and p != p.parent:
            p = p.parent
        return shutil.disk_usage(p).free

    def _check_space(self, shell: RemoteShell, plan: SyncPlan, up: bool) -> None:
        need = self._needed(plan)
        hint, self._free_hint = self._free_hint, None  # measured by the probe a moment ago
        free = (hint if hint is not None else self._remote_free(shell)) if up else self._local_free()
        if free is not None and need > free:
            raise _disk_full(up, need, free, self.remote if up else str(self.local))

    # preparing folders --------------------------------------------------------------------------
    def _remote_prepare(
        self, t: paramiko.Transport, shell: RemoteShell, plan: SyncPlan, exists: bool
    ) -> None:
        self._writable("create remote folders")
        if not exists:
            # mkdir -p over SFTP (works without a shell): every prefix, in flight at once
            parts = self.remote.split("/")
            prefixes = ["/".join(parts[: k + 1]) for k in range(len(parts))]
            prefixes = [p for p in prefixes if p not in ("", ".")]
            ch = self._take_channel(t)
            ch.doing = "the remote folder to be created"
            try:
                sftp_mkdirs(ch, [encode_name(p) for p in prefixes])
                kind = ch.stat_kind(encode_name(self.remote))
            except SftpError as exc:
                kind, why = None, exc.text
            else:
                why = "not created" if kind is None else "a file of that name exists"
            finally:
                if self._pool is not None:
                    self._pool.put(ch)
                else:
                    ch.close()
            if kind != DIR:
                raise SyncError(
                    QT_TRANSLATE_NOOP("LabGPU", "Could not create the remote folder {path}: {why}"),
                    QT_TRANSLATE_NOOP("LabGPU", "Check the path and your permissions there."),
                    code="RemoteMkdir",
                    path=self.remote_text,
                    why=why,
                )
        if not plan.mkdirs and not plan.stale_parts:
            return
        ch = self._take_channel(t)
        ch.doing = "remote folders to be created"
        ok = False
        try:
            # all mkdirs in flight at once, parents first (the server handles requests in order)
            nums = list(
                zip(
                    plan.mkdirs,
                    ch.send_many([(CMD_MKDIR, self._rpath(d), SFTPAttributes()) for d in plan.mkdirs]),
                    strict=True,
                )
            )
            for d, n in nums:
                try:
                    ch.status(n)
                    self.result.mkdirs += 1
                except SftpError as exc:
                    if exc.code != 4:  # generic failure = exists already (race); others are real
                        raise SyncError(
                            QT_TRANSLATE_NOOP("LabGPU", "Could not create the remote folder {path}: {why}"),
                            "",
                            code="RemoteMkdir",
                            path=d,
                            why=exc.text,
                        ) from None
            stale = ch.send_many([(CMD_REMOVE, self._rpath(p)) for p in plan.stale_parts])
            for n in stale:
                with contextlib.suppress(SftpError):
                    ch.status(n)
            ok = True
        finally:
            if ok and self._pool is not None:
                self._pool.put(ch)  # the first transfer worker continues on it
            else:
                ch.close()

    def _local_prepare(self, plan: SyncPlan) -> None:
        self._writable("create local folders")
        lr = LocalRoot(self.local)
        self.local.mkdir(parents=True, exist_ok=True)
        lr.real = os.path.realpath(self.local)
        for d in plan.mkdirs:
            path = lr.path(d)
            try:
                os.mkdir(path)
                self.result.mkdirs += 1
            except FileExistsError:
                pass
            except OSError as exc:
                raise _local_error(exc, path) from None
        for p in plan.stale_parts:
            with contextlib.suppress(OSError, SyncError):
                os.unlink(lr.path(p))

    # transfers ----------------------------------------------------------------------------------
    def _transfer_all(self, t: paramiko.Transport, shell: RemoteShell, plan: SyncPlan, up: bool) -> None:
        self._writable("transfer files")
        items = list(plan.transfers)
        if not items:
            return
        small = [i for i in items if i.size <= SMALL_FILE and not i.resume_from]
        big = sorted((i for i in items if i.size > SMALL_FILE or i.resume_from), key=lambda i: -i.size)
        jobs: deque[list[PlanItem]] = deque()
        tar_jobs: set[int] = set()  # id() of the jobs that go as one tar stream
        split_jobs: dict[int, _SplitPart] = {}  # id() of a job → the byte range it downloads
        splits: list[_Split] = []
        lr = LocalRoot(self.local)
        for i in big:
            if not up and i.size >= SPLIT_MIN and not i.resume_from and self.opts.channels > 1:
                # one big download goes faster as byte ranges over several channels (measured)
                self._temp_for(i)
                self._offsets[i.path] = 0
                tmp = lr.path(self._temps[i.path])
                try:
                    os.close(
                        os.open(
                            tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), 0o600
                        )
                    )
                except OSError as exc:
                    raise _local_error(exc, tmp, i.size) from None
                sp = _Split(i, tmp, max(2, min(SPLIT_PARTS, self.opts.channels)))
                splits.append(sp)
                for rng in sp.parts:
                    job = [i]
                    split_jobs[id(job)] = rng
                    jobs.append(job)
            else:
                jobs.append([i])
        use_tar = up and self._tar_ok is not False and len(small) >= TAR_MIN_FILES
        max_files, max_bytes = (TAR_BATCH_FILES, TAR_BATCH_BYTES) if use_tar else (BATCH_FILES, BATCH_BYTES)
        if use_tar:  # two streams: more only fought over the GIL and the server's CPU (measured)
            per = -(-len(small) // max(1, min(TAR_STREAMS, self.opts.channels)))
            max_files = max(BATCH_FILES, min(max_files, per))
        batch: list[PlanItem] = []
        size = 0
        for i in small:
            batch.append(i)
            size += i.size
            if len(batch) >= max_files or size >= max_bytes:
                jobs.append(batch)
                batch, size = [], 0
        if batch:
            jobs.append(batch)
        if use_tar:
            tar_jobs = {id(j) for j in jobs if len(j) > 1 or j[0].size <= SMALL_FILE}
        # verified before rename: the temp is checked (sha256 both sides) and only then renamed
        verified_pending: list[tuple[PlanItem, str]] = []
        errors: list[BaseException] = []
        jobs_lock = threading.Lock()
        n_workers = max(1, min(self.opts.channels, len(jobs)))
        self._stop.clear()

        def worker() -> None:
            ch: Channel | None = None

            def get_ch() -> Channel:  # taken when first needed: a tar stream starts without it
                nonlocal ch
                if ch is None:
                    ch = self._take_channel(t)
                return ch

            try:
                while not errors:
                    with jobs_lock:
                        if not jobs:
                            return
                        job = jobs.popleft()
                    self._check_cancel()
                    if up:
                        done = None
                        if id(job) in tar_jobs and self._tar_ok is not False:
                            done = self._upload_tar(t, get_ch, lr, job, shell)
                        if done is None:
                            self._make_deferred_dirs(get_ch())
                            done = self._upload_batch(get_ch(), lr, job, shell)
                    elif id(job) in split_jobs:
                        done = self._download_part(get_ch(), lr, split_jobs[id(job)])
                    else:
                        done = self._download_batch(get_ch(), lr, job, shell)
                    if self.opts.verify:
                        with jobs_lock:
                            verified_pending.extend(done)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                errors.append(exc)
                self._stop.set()  # stop the other workers: this attempt cannot finish
            finally:
                if ch is not None:
                    ch.close()

        threads = [
            threading.Thread(target=worker, name=f"labgpu-sync-{k}", daemon=True) for k in range(n_workers)
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        if errors:
            for sp in splits:
                sp.keep_prefix()  # so the next run resumes from what is complete
            raise _pick_error(errors)
        if self.opts.verify and verified_pending:
            self._verify_and_commit(t, shell, lr, verified_pending, up)

    def _take(self, n: int) -> None:
        if self.bucket is not None:
            self.bucket.consume(n)
        if self.cancelled or self._stop.is_set():
            raise _cancelled()

    def _temp_for(self, item: PlanItem) -> str:
        """This attempt's own temporary name for ``item`` (see ``part_name`` for why per attempt)."""
        tmp = part_name(item.path, secrets.token_hex(4))
        with self._lock:
            self._temps[item.path] = tmp
        return tmp

    def _resume_upload(self, shell: RemoteShell, lr: LocalRoot, item: PlanItem, tmp: str) -> int:
        """Copy the verified prefix of an earlier attempt's temporary file into this attempt's own
        (a new file no late request of a cut session can reach), drop the old one, and check the
        copy by sha256 against the local source. Returns the offset to continue from (0: restart)."""
        n = item.resume_from
        if n <= 0 or not item.resume_part:
            return 0
        if not self.caps.sha256:
            # no shell to copy and hash the prefix on the server: start over (same result)
            log.info("resume upload %s: server has no sha256sum/head, restarting", item.path)
            return 0
        old = _q(remote_join(self.remote, item.resume_part))
        new = _q(remote_join(self.remote, tmp))
        cmd = (
            b"head -c "
            + str(n).encode()
            + b" -- "
            + old
            + b" > "
            + new
            + b"; rc=$?; rm -f -- "
            + old
            + b"; [ $rc = 0 ] && sha256sum < "
            + new
        )
        rc, out, _e = shell.run(
            cmd, what="the check of the interrupted upload", timeout=self.opts.step_timeout + n / (50 << 20)
        )
        ok = rc == 0 and out[:64].decode("ascii", "replace") == sha256_file(lr.path(item.path), n)
        log.info("resume upload %s from %d: prefix %s", item.path, n, "verified" if ok else "differs")
        return n if ok else 0

    def _resume_download(self, shell: RemoteShell, lr: LocalRoot, item: PlanItem) -> tuple[str, int]:
        """Reuse a local temporary file whose prefix matches the remote source (sha256 both sides)."""
        n = item.resume_from
        if n <= 0 or not item.resume_part:
            return self._temp_for(item), 0
        if not self.caps.sha256:
            log.info("resume download %s: server has no sha256sum/head, restarting", item.path)
            return self._temp_for(item), 0
        with self._lock:
            self._temps[item.path] = item.resume_part
        rc, out, _e = shell.run(
            ReadCmd(
                b"head -c " + str(n).encode() + b" -- " + _q(remote_join(self.remote, item.path)) + b" | sha256sum"
            ),
            what="the check of the interrupted download",
            timeout=self.opts.step_timeout + n / (50 << 20),
        )
        ok = rc == 0 and out[:64].decode("ascii", "replace") == sha256_file(lr.path(item.resume_part), n)
        log.info("resume download %s from %d: prefix %s", item.path, n, "verified" if ok else "differs")
        return item.resume_part, (n if ok else 0)

    def _upload_batch(
        self, ch: Channel, lr: LocalRoot, job: list[PlanItem], shell: RemoteShell
    ) -> list[tuple[PlanItem, str]]:
        """Pipelined: open all → writes, mtime, close for all → renames after everything is confirmed."""
        verify = self.opts.verify
        opened: list[tuple[PlanItem, int, int, Any]] = []
        for item in job:
            tmp = self._temp_for(item)
            offset = self._resume_upload(shell, lr, item, tmp) if item.resume_from else 0
            self._offsets[item.path] = offset
            try:
                fh = open(lr.path(item.path), "rb")  # noqa: SIM115 - closed below
            except OSError as exc:
                for _i, _n, _o, f in opened:
                    f.close()
                raise _local_error(exc, item.path) from None
            flags = SFTP_FLAG_WRITE | SFTP_FLAG_CREATE | (0 if offset else SFTP_FLAG_TRUNC)
            num = ch.send(CMD_OPEN, self._rpath(tmp), flags, SFTPAttributes())
            opened.append((item, num, offset, fh))
        pending: list[tuple[PlanItem, str]] = []
        outstanding: deque[tuple[int, PlanItem]] = deque()
        try:
            for item, num, offset, fh in opened:
                try:
                    handle = ch.handle(num)
                except SftpError as exc:
                    raise self._remote_write_error(shell, exc, item) from None
                h = hashlib.sha256() if verify else None
                if offset:
                    fh.seek(0)
                    if h is not None:
                        h.update(fh.read(offset))
                    fh.seek(offset)
                pos = offset
                self.progress.add(0, current=item.path)
                while True:
                    data = fh.read(WRITE_SIZE)
                    if not data:
                        break
                    self._take(len(data))
                    if h is not None:
                        h.update(data)
                    outstanding.append((ch.send_write(handle, pos, data), item))
                    pos += len(data)
                    self.progress.add(len(data))
                    while len(outstanding) > WRITES_IN_FLIGHT:
                        self._check_write(ch, *outstanding.popleft(), shell)
                if pos != item.size:
                    raise _source_changed(item.path)
                attrs = _attrs(item.mtime, item.mode if self.opts.preserve_mode else None)
                outstanding.append((ch.send(CMD_FSETSTAT, handle, attrs), item))
                outstanding.append((ch.send(CMD_CLOSE, handle), item))
                pending.append((item, h.hexdigest() if h is not None else ""))
            while outstanding:
                self._check_write(ch, *outstanding.popleft(), shell)
        finally:
            for _i, _n, _o, fh in opened:
                fh.close()
        if verify:
            return pending
        self._commit_remote(ch, [item for item, _d in pending])
        return []

    def _commit_remote(self, ch: Channel, items: Sequence[PlanItem]) -> None:
        """Rename finished temporary files to their final names, all requests in flight at once."""
        renames = list(
            zip(
                items,
                ch.send_many(
                    [
                        (
                            CMD_EXTENDED,
                            "posix-rename@openssh.com",
                            self._rpath(self._temps[i.path]),
                            self._rpath(i.path),
                        )
                        for i in items
                    ]
                ),
                strict=True,
            )
        )
        for item, n in renames:
            try:
                ch.status(n)
            except SftpError as exc:
                raise SyncError(
                    QT_TRANSLATE_NOOP("LabGPU", "Could not finish {path} on the server: {why}"),
                    "",
                    code="RenameFailed",
                    path=item.path,
                    why=exc.text,
                ) from None
            self.progress.add(0, files=1)
            with self._lock:
                self.result.files += 1
                self.result.bytes += item.size - self._offsets.get(item.path, 0)

    def _upload_tar(
        self,
        t: paramiko.Transport,
        get_ch: Callable[[], Channel],
        lr: LocalRoot,
        job: list[PlanItem],
        shell: RemoteShell,
    ) -> list[tuple[PlanItem, str]] | None:
        """Many small files as ONE tar stream into the remote ``tar -x`` (no round trip per file),
        each written under its temporary name; renames follow, pipelined, once tar succeeded.
        Returns None (caller falls back to SFTP) when the server has no usable tar."""
        verify = self.opts.verify
        token = secrets.token_hex(4)  # one per stream: unique for this attempt, no syscall per file
        temps = {item.path: part_name(item.path, token) for item in job}
        with self._lock:
            self._temps.update(temps)
            for item in job:
                self._offsets[item.path] = 0
        self._writable("a tar stream")
        with self._lock:  # the first stream carries the folders; each creates the root if needed
            dirs, self._tar_dirs = self._tar_dirs, []
            make_root = self._tar_make_root
        nonce = new_nonce()
        what = "the remote tar to unpack the small files"
        cmd = b"tar -x --no-same-owner -f - -C " + _q(self.remote)
        if make_root:
            cmd = b"mkdir -p -- " + _q(self.remote) + b" && " + cmd
        chan = shell.open(frame(cmd, nonce), what, wait=False)
        writer = _ChannelWriter(chan, self, what, self.opts.step_timeout)
        digests: dict[str, str] = {}
        buf: list[bytes] = [
            tar_header(encode_name(d) + b"/", 0, int(time.time()), 0o755, b"5") for d in dirs
        ]
        buffered = payload = 0
        try:
            for item in job:
                try:
                    fd = os.open(lr.path(item.path), os.O_RDONLY | getattr(os, "O_BINARY", 0))
                    try:
                        data = os.read(fd, item.size + 1) if item.size else b""
                    finally:
                        os.close(fd)
                except OSError as exc:
                    raise _local_error(exc, item.path) from None
                if len(data) != item.size:
                    raise _source_changed(item.path)
                if verify:
                    digests[item.path] = hashlib.sha256(data).hexdigest()
                mode = item.mode & 0o777 if self.opts.preserve_mode else 0o644
                header = tar_header(encode_name(temps[item.path]), len(data), int(item.mtime), mode)
                pad = -len(data) % 512
                buf += (header, data, b"\0" * pad) if pad else (header, data)
                buffered += len(header) + len(data) + pad
                payload += len(data)
                if buffered >= 1 << 20:
                    writer.write(b"".join(buf))
                    self.progress.add(payload, current=item.path)
                    buf, buffered, payload = [], 0, 0
            buf.append(b"\0" * 1024)  # end of archive
            writer.write(b"".join(buf))
            self.progress.add(payload)
            out, err = bytearray(), bytearray()
            try:
                chan.shutdown_write()
                while True:
                    data = chan.recv(65536)
                    if not data:
                        break
                    out += data
                if not chan.status_event.wait(self.opts.step_timeout):
                    raise TimeoutError()
                while chan.recv_stderr_ready():
                    err += chan.recv_stderr(65536)
            except TimeoutError:
                raise _step_timeout(what, self.opts.step_timeout) from None
            except _CONN_ERRORS as exc:
                raise _connection_lost(str(exc) or type(exc).__name__) from None
        finally:
            chan.close()
        framed = unframe(bytes(out), bytes(err), nonce)
        if framed is None:
            raise _connection_lost("the tar stream closed")
        rc, _o, err_b = framed
        err = bytearray(err_b)
        if rc != 0:
            text = bytes(err).decode("utf-8", "replace").strip()
            # leave nothing behind: remove whatever tar managed to write
            ch = get_ch()
            nums = ch.send_many([(CMD_REMOVE, self._rpath(tmp)) for tmp in temps.values()])
            for n in nums:
                with contextlib.suppress(SftpError):
                    ch.status(n)
            if rc == 127 or "not found" in text or "invalid option" in text or "unrecognized" in text:
                log.info("remote tar not usable (%s): small files go over SFTP", text[:200])
                self._tar_ok = False
                with self._lock:
                    self._tar_dirs, self._tar_make_root = dirs, make_root  # SFTP makes them now
                return None
            free = None
            with contextlib.suppress(SyncError):
                free = self._remote_free(shell)
            if "No space" in text or (free is not None and free < (1 << 20)):
                raise _disk_full(True, sum(i.size for i in job), free or 0, self.remote)
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "The server could not write {path}: {why}"),
                QT_TRANSLATE_NOOP("LabGPU", "Check free space and permissions on the server."),
                code="RemoteWriteFailed",
                path=job[0].path,
                why=text[:300] or f"tar exit {rc}",
            )
        self._tar_ok = True
        with self._lock:
            self.result.mkdirs += len(dirs)
        if verify:
            return [(item, digests[item.path]) for item in job]
        self._commit_remote(get_ch(), job)
        return []

    def _make_deferred_dirs(self, ch: Channel) -> None:
        """Folders left for a tar stream that then could not run: made over SFTP."""
        with self._lock:
            dirs, self._tar_dirs = self._tar_dirs, []
            make_root, self._tar_make_root = self._tar_make_root, False
        if make_root:
            parts = self.remote.split("/")
            prefixes = ["/".join(parts[: k + 1]) for k in range(len(parts))]
            sftp_mkdirs(ch, [encode_name(p) for p in prefixes if p not in ("", ".")])
        if dirs:
            sftp_mkdirs(ch, [self._rpath(d) for d in dirs])
            with self._lock:
                self.result.mkdirs += len(dirs)

    def _check_write(self, ch: Channel, num: int, item: PlanItem, shell: RemoteShell) -> None:
        try:
            ch.status(num)
        except SftpError as exc:
            raise self._remote_write_error(shell, exc, item, ch) from None

    def _remote_write_error(
        self, shell: RemoteShell, exc: SftpError, item: PlanItem, ch: Channel | None = None
    ) -> SyncError:
        """Classify a failed remote write; remove the temporary file when the disk is full."""
        part = self._rpath(self._temps.get(item.path, part_name(item.path)))
        free = None
        with contextlib.suppress(SyncError):
            free = self._remote_free(shell)
        if exc.code == 4 and free is not None and free < max(REQUEST_SIZE * 4, 1 << 20):
            if ch is not None:
                with contextlib.suppress(SyncError, SftpError):
                    ch.status(ch.send(CMD_REMOVE, part))
            return _disk_full(True, item.size, free, self.remote_text)
        if exc.code == 3:
            return SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "Permission denied writing {path} on the server."),
                QT_TRANSLATE_NOOP("LabGPU", "Choose a remote folder you can write to."),
                code="PermissionDenied",
                path=item.path,
            )
        return SyncError(
            QT_TRANSLATE_NOOP("LabGPU", "The server could not write {path}: {why}"),
            QT_TRANSLATE_NOOP("LabGPU", "Check free space and permissions on the server."),
            code="RemoteWriteFailed",
            path=item.path,
            why=exc.text or "failure",
        )

    def _download_batch(
        self, ch: Channel, lr: LocalRoot, job: list[PlanItem], shell: RemoteShell
    ) -> list[tuple[PlanItem, str]]:
        opened: list[tuple[PlanItem, int, int]] = []
        for item in job:
            _tmp, offset = self._resume_download(shell, lr, item)
            self._offsets[item.path] = offset
            opened.append(
                (item, ch.send(CMD_OPEN, self._rpath(item.path), SFTP_FLAG_READ, SFTPAttributes()), offset)
            )
        handles: list[tuple[PlanItem, bytes | None, int]] = []
        for item, num, offset in opened:
            try:
                handles.append((item, ch.handle(num), offset))
            except SftpError as exc:
                handles.append((item, None, offset))
                log.warning("cannot open remote %s: %s", item.path, exc)
        done: list[tuple[PlanItem, str]] = []
        failed: list[str] = []
        for item, handle, offset in handles:
            if handle is None:
                failed.append(item.path)
                continue
            try:
                dig = self._download_one(ch, lr, item, handle, offset)
            finally:
                with contextlib.suppress(SftpError):
                    ch.status(ch.send(CMD_CLOSE, handle))
            if self.opts.verify:
                done.append((item, dig))
                continue
            self._commit_local(lr, item)
        if failed:
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "Could not read {path} on the server."),
                QT_TRANSLATE_NOOP("LabGPU", "It may have been removed or be unreadable; run the sync again."),
                code="RemoteReadFailed",
                path=failed[0],
            )
        return done

    def _download_one(
        self,
        ch: Channel,
        lr: LocalRoot,
        item: PlanItem,
        handle: bytes,
        offset: int,
        part: _SplitPart | None = None,
    ) -> str:
        """Pipelined READs into the temporary file; ``part`` = one byte range of a split file."""
        tmp = lr.path(self._temps[item.path])
        whole = part is None
        flags = (
            os.O_WRONLY
            | os.O_CREAT
            | (0 if (offset or not whole) else os.O_TRUNC)
            | getattr(os, "O_BINARY", 0)
        )
        try:
            fd = os.open(tmp, flags, 0o600)
        except OSError as exc:
            raise _local_error(exc, tmp, item.size) from None
        try:
            if offset and whole:
                os.ftruncate(fd, offset)
            self.progress.add(0, current=item.path)
            want: deque[tuple[int, int, int]] = deque()  # (request id, offset, length)
            next_off = offset
            size = item.size if part is None else part.end
            while next_off < size or want:
                while next_off < size and len(want) < IN_FLIGHT:
                    n = min(REQUEST_SIZE, size - next_off)
                    self._take(n)
                    want.append((ch.send(CMD_READ, handle, int64(next_off), n), next_off, n))
                    next_off += n
                num, off, length = want.popleft()
                t, msg, view = ch.wait_data(num)
                if t == CMD_STATUS:
                    code = msg.get_int()
                    if code == SFTP_EOF:
                        raise _source_changed(item.path)
                    raise SyncError(
                        QT_TRANSLATE_NOOP("LabGPU", "Could not read {path} on the server: {why}"),
                        "",
                        code="RemoteReadFailed",
                        path=item.path,
                        why=msg.get_text(),
                    )
                data = view if view is not None else msg.get_string()
                if not data:
                    raise _source_changed(item.path)
                try:
                    os.pwrite(fd, data, off)
                except OSError as exc:
                    raise _local_error(exc, tmp, item.size) from None
                if part is not None:
                    part.upto = off + len(data)  # replies come in order: this is contiguous
                if len(data) < length:  # short read: ask for the rest right away
                    rest = off + len(data)
                    want.appendleft(
                        (ch.send(CMD_READ, handle, int64(rest), length - len(data)), rest, length - len(data))
                    )
                self.progress.add(len(data))
            if part is not None:
                part.last = part.finish()
                if not part.last:
                    return ""  # another range of this file is still running; its worker finishes the file
            if self.opts.preserve_mode and hasattr(os, "fchmod"):
                with contextlib.suppress(OSError):
                    os.fchmod(fd, item.mode & 0o777)
        finally:
            os.close(fd)
        os.utime(tmp, (item.mtime, item.mtime))
        return sha256_file(tmp) if self.opts.verify else ""

    def _download_part(self, ch: Channel, lr: LocalRoot, part: _SplitPart) -> list[tuple[PlanItem, str]]:
        item = part.item
        try:
            handle = ch.handle(ch.send(CMD_OPEN, self._rpath(item.path), SFTP_FLAG_READ, SFTPAttributes()))
        except SftpError:
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "Could not read {path} on the server."),
                QT_TRANSLATE_NOOP("LabGPU", "It may have been removed or be unreadable; run the sync again."),
                code="RemoteReadFailed",
                path=item.path,
            ) from None
        try:
            dig = self._download_one(ch, lr, item, handle, part.start, part)
        finally:
            with contextlib.suppress(SftpError):
                ch.status(ch.send(CMD_CLOSE, handle))
        if not part.last:
            return []
        if self.opts.verify:
            return [(item, dig)]
        self._commit_local(lr, item)
        return []

    def _commit_local(self, lr: LocalRoot, item: PlanItem) -> None:
        self._writable("rename a downloaded file")
        tmp, final = lr.path(self._temps[item.path]), lr.path(item.path)
        st = os.stat(tmp)
        if st.st_size != item.size:
            raise _source_changed(item.path)
        os.replace(tmp, final)
        self.progress.add(0, files=1)
        with self._lock:
            self.result.files += 1
            self.result.bytes += item.size - self._offsets.get(item.path, 0)

    def _verify_and_commit(
        self,
        t: paramiko.Transport,
        shell: RemoteShell,
        lr: LocalRoot,
        pending: list[tuple[PlanItem, str]],
        up: bool,
    ) -> None:
        self.progress.state("verifying", message="sha256")
        if up:
            remote = self.remote_sha256(
                shell, [self._temps[i.path] for i, _d in pending], {self._temps[i.path]: i.size for i, _d in pending}
            )
            ok = [(i, d) for i, d in pending if remote.get(self._temps[i.path]) == d]
        else:
            remote = self.remote_sha256(shell, [i.path for i, _d in pending], {i.path: i.size for i, _d in pending})
            ok = [(i, d) for i, d in pending if remote.get(i.path) == d]
        ok_paths = {i.path for i, _d in ok}
        bad = [i for i, _d in pending if i.path not in ok_paths]
        self._writable("commit verified files")
        if up:
            ch = self._channel(t)
            try:
                for n in ch.send_many([(CMD_REMOVE, self._rpath(self._temps[i.path])) for i in bad]):
                    with contextlib.suppress(SftpError):
                        ch.status(n)
                self._commit_remote(ch, [i for i, _d in ok])
            finally:
                ch.close()
        else:
            for item in bad:
                with contextlib.suppress(OSError):
                    os.unlink(lr.path(self._temps[item.path]))
            for item, _d in ok:
                self._commit_local(lr, item)
        self.result.verified += len(ok)
        if bad:
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "{n} file(s) failed sha256 verification, e.g. {path}."),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "They were not put in place; run the sync again. If it "
                    "repeats, the source is changing or a disk is faulty.",
                ),
                code="VerifyFailed",
                n=len(bad),
                path=bad[0].path,
            )

    # deletions ----------------------------------------------------------------------------------
    def _delete(self, t: paramiko.Transport, plan: SyncPlan, up: bool) -> None:
        self._writable("delete files")
        if up:
            ch = self._channel(t)
            try:
                reqs = [
                    (CMD_RMDIR if i.kind == DIR else CMD_REMOVE, self._rpath(i.path)) for i in plan.deletions
                ]
                for item, n in zip(plan.deletions, ch.send_many(reqs), strict=True):
                    try:
                        ch.status(n)
                    except SftpError as exc:
                        raise SyncError(
                            QT_TRANSLATE_NOOP("LabGPU", "Could not delete {path} on the server: {why}"),
                            "",
                            code="DeleteFailed",
                            path=item.path,
                            why=exc.text,
                        ) from None
            finally:
                ch.close()
        else:
            lr = LocalRoot(self.local)
            for item in plan.deletions:
                path = lr.path(item.path)
                try:
                    if os.path.isdir(path) and not os.path.islink(path):
                        os.rmdir(path)
                    else:
                        os.unlink(path)
                except FileNotFoundError:
                    pass
                except OSError as exc:
                    raise _local_error(exc, path) from None


def _is_connect_failure(exc: LabGpuError) -> bool:
    """Errors from ``connect()`` worth retrying with backoff (host unreachable, VPN tunnel down or
    still coming back) — never host-key, login, credential or privilege errors."""
    return type(exc).__name__ in ("HostUnreachableError", "ConnectionLostError") or exc.code in _RETRY_CODES


_RETRY_CODES = frozenset(
    {
        "HostUnreachable",
        "ConnectionClosed",
        "NotConnected",
        "ConnectionLost",
        "JumpFailed",
        "VpnDown",
        "VpnTimeout",
        "VpnExited",
        "VpnBusy",
    }
)


def _pick_error(errors: list[BaseException]) -> BaseException:
    for kind in (DiskFullError, SyncError):
        for e in errors:
            if isinstance(e, kind) and not isinstance(e, (SyncCancelledError, ConnectionLostError)):
                return e
    for e in errors:
        if isinstance(e, ConnectionLostError):
            return e
    return errors[0]


def _disk_full(up: bool, need: int, free: int, where: str) -> DiskFullError:
    if up:
        return DiskFullError(
            QT_TRANSLATE_NOOP(
                "LabGPU", "Not enough space on the server in {path}: {need} needed, {free} free."
            ),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Free space on the server or sync into a larger disk; nothing partial was left behind.",
            ),
            code="RemoteDiskFull",
            path=where,
            need=human_bytes(need),
            free=human_bytes(free),
        )
    return DiskFullError(
        QT_TRANSLATE_NOOP(
            "LabGPU", "Not enough space on this computer in {path}: {need} needed, {free} free."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Free some space or choose another local folder; nothing partial was left behind."
        ),
        code="LocalDiskFull",
        path=where,
        need=human_bytes(need),
        free=human_bytes(free),
    )


def _local_error(exc: OSError, path: str, need: int = 0) -> SyncError:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        with contextlib.suppress(OSError):
            if path.endswith(".labgpu-part"):
                os.unlink(path)
        free = 0
        with contextlib.suppress(OSError):
            free = shutil.disk_usage(os.path.dirname(path)).free
        return _disk_full(False, need, free, os.path.dirname(path))
    return SyncError(
        QT_TRANSLATE_NOOP("LabGPU", "Local file error on {path}: {why}"),
        QT_TRANSLATE_NOOP("LabGPU", "Check the folder and its permissions."),
        code="LocalIO",
        path=path,
        why=exc.strerror or str(exc),
    )


def _source_changed(path: str) -> SyncError:
    return SyncError(
        QT_TRANSLATE_NOOP("LabGPU", "{path} changed while it was being copied."),
        QT_TRANSLATE_NOOP("LabGPU", "Run the sync again when the file is no longer being written."),
        code="SourceChanged",
        path=path,
    )


def host_connector(host: str, paths: Paths | None = None, accept: Any = None) -> Callable[[], Any]:
    """A ``connect()`` for SyncEngine to a saved host (``labgpu hosts add``); VPN hosts bring
    their tunnel up inside ``open_connection``, so reconnects after a tunnel drop work too."""
    from app.remote.ssh import open_connection

    def connect() -> Any:
        return open_connection(host, paths, accept)

    return connect


def run_sync(
    host: str,
    local: str | Path,
    remote: str,
    options: SyncOptions,
    *,
    paths: Paths | None = None,
    store: SyncStore | None = None,
    pair_id: int | None = None,
    connect: Callable[[], Any] | None = None,
    progress: Callable[[SyncProgress], None] | None = None,
    cancel_event: threading.Event | None = None,
    engine_ready: Callable[[SyncEngine], None] | None = None,
) -> SyncResult:
    """Run one sync and record it in the history (the CLI and the Sync page both use this)."""
    engine = SyncEngine(
        connect or host_connector(host, paths), local, remote, options, progress, cancel_event
    )
    if engine_ready is not None:
        engine_ready(engine)
    started = time.time()
    try:
        result = engine.run()
    except SyncCancelledError as exc:
        if store is not None:
            store.record_run(
                host=host,
                local_path=str(local),
                remote_path=remote,
                direction=options.direction,
                started_at=started,
                result="cancelled",
                outcome=engine.result,
                message=exc.text(),
                pair_id=pair_id,
            )
        raise
    except LabGpuError as exc:
        if store is not None:
            store.record_run(
                host=host,
                local_path=str(local),
                remote_path=remote,
                direction=options.direction,
                started_at=started,
                result="error",
                outcome=engine.result,
                message=exc.one_line(),
                pair_id=pair_id,
            )
        raise
    if store is not None:
        store.record_run(
            host=host,
            local_path=str(local),
            remote_path=remote,
            direction=options.direction,
            started_at=started,
            result="dry-run" if options.dry_run else ("ok" if result.complete else "incomplete"),
            outcome=result,
            message=(
                ""
                if result.complete
                else "; ".join(f"{display_name(x['path'])}: {x['why']}" for x in result.not_transferred[:20])
            ),
            pair_id=pair_id,
        )
    return result
