"""The remote shell side: framed exec commands, quoting of remote paths, the ``find`` listing."""

from __future__ import annotations

import contextlib
import shlex
import socket
from collections.abc import Iterable, Sequence
from typing import Any

import paramiko

from app.core.syncplan import DIR, FILE, LINK, OTHER, Entry, decode_name, encode_name, remote_target
from app.remote import fastssh

from .caps import (
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
from .errors import (
    CONN_ERRORS,
    ConnectionLostError,
    RemoteTimeoutError,
    bad_remote_time_error,
    connection_lost_error,
    dry_run_write_error,
    step_timeout_error,
    untrusted_output_error,
)
from .tuning import PROBE_TIMEOUT, STEP_TIMEOUT


def transport_of(conn: Any) -> paramiko.Transport:
    t = getattr(conn, "transport", conn)
    if t is None or not t.is_active():
        raise connection_lost_error("not connected")
    return t


def no_delay(t: paramiko.Transport) -> None:
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

    Every command is framed (:mod:`app.remote.sync.caps`): what a login shell prints around it
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
            raise dry_run_write_error(what)
        try:
            chan = self.t.open_session(timeout=15)
            chan.settimeout(timeout or self.timeout)
            if wait or not fastssh.enabled(self.t):  # the request below is paramiko-internal
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
            raise step_timeout_error(what, timeout or self.timeout) from None
        except CONN_ERRORS as exc:
            raise connection_lost_error(str(exc) or type(exc).__name__) from None
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
            fastssh.shutdown_write(chan)  # never after the CLOSE of a command that ended at once
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
            raise step_timeout_error(what, limit) from None
        except CONN_ERRORS as exc:
            raise connection_lost_error(str(exc) or type(exc).__name__) from None
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
                raise connection_lost_error("the command channel closed")
            raise untrusted_output_error(what, out[-200:] or err[-200:])
        return got

    def probe(self, timeout: float = PROBE_TIMEOUT, root_q: bytes | None = None) -> ProbeListing:
        """What this server offers (once per connection; see :mod:`app.remote.sync.caps`); with
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
        if framed is None and not self.t.is_active():
            # the link dropped before the answer was complete: a lost connection (the engine
            # reconnects and probes again), never "this server has no shell"
            raise connection_lost_error("the connection closed during the capability probe")
        if root_q is None:
            return ProbeListing(parse_probe(framed, out, err))
        return parse_probe_list(framed, out, err)


def _what_of(command: bytes) -> str:
    word = bytes(command).split(b" ", 1)[0].decode("ascii", "replace")[:20]
    return f"the remote command {word!r}"


def quote_path(path: str) -> bytes:
    """A remote PATH argument, shell-quoted, that can never be read as an option."""
    if not (path.startswith("/") or path.startswith("./") or path == "."):
        raise ValueError(f"remote path argument not anchored: {path!r}")
    return encode_name(shlex.quote(path))


def arg_batches(paths: Sequence[str], limit: int = 64 * 1024) -> Iterable[list[str]]:
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


# A modification time a file can really have: from 1901 (the oldest 32-bit time_t) to the end of
# year 9999 (the last one Python's datetime shows). NaN, ±inf or 1e300 from a replaced ``find``
# would otherwise reach ``os.utime`` as a ValueError/OverflowError traceback.
MTIME_MIN = -(2**31)
MTIME_MAX = 253_402_300_799


def parse_find_output(data: bytes) -> dict[str, Entry]:
    """Records ``TYPE SIZE MTIME MODE PATH\\0`` from ``find -printf '%y %s %T@ %m %P\\0'``;
    a record with an impossible time (NaN, infinite, outside MTIME_MIN..MTIME_MAX) is refused
    with a SyncError (BadRemoteTime): nothing is copied from a listing that lies."""
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
        if not (MTIME_MIN <= mtime <= MTIME_MAX):  # also False for NaN
            raise bad_remote_time_error(path, mtime_b.decode("ascii", "replace"))
        out[path] = Entry(path, kind, size if kind == FILE else 0, mtime, mode)
    return out
