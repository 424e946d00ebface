"""Lean bulk data paths for paramiko channels: the ONE module that reaches into paramiko internals.

Why: on a 2-core machine the sync engine's big transfers were bound by Python work per 32 KiB
SSH packet in paramiko (a Message built and copied several times, a Condition and two locks, a
``socket.send`` per packet, a ``recv`` of 16 bytes then of the rest for every packet received).
OpenSSH's server accepts at most 32 KiB of data per packet, so the packet count cannot shrink;
the cost per packet can.

What it does (both only for AES-GCM, the cipher the engine negotiates first; anything else takes
paramiko's stock paths unchanged):

* :func:`sendall` — channel data out: takes as much send window as is open (up to a burst),
  builds the SSH packets for it directly (header struct + data + padding, encrypted with the
  transport's own ``AESGCM`` engine, IV counter and sequence number advanced exactly as paramiko
  does) and writes them with ONE ``sendmsg`` under the same locks paramiko uses (the transport's
  ``clear_to_send`` gate, so nothing is sent during a key exchange, and the packetizer's write
  lock). Byte and packet counters are kept, so rekeying triggers as before.
* :func:`install` — gives ONE transport's packetizer (its instance, never paramiko's class) a
  ``read_all`` that reads the socket in large chunks into a buffer (one ``recv_into`` per
  ~256 KiB instead of two ``recv`` per packet; the timeout, keepalive, rekey and EOF handling are
  the original's) and a ``read_message`` that decrypts AES-GCM packets straight from that buffer
  and cuts the message body out once (paramiko copies every packet five times); other ciphers go
  to the stock ``read_message``. :mod:`app.remote.ssh.dial` calls it for every transport it opens.
* :class:`LeanPipe` / :func:`recv_exact` — a receive buffer for channels read by one thread
  (the engine's SFTP channels) that wakes the reader once per SFTP reply, not per packet.

Safety: no security check is touched — host keys, authentication, ciphers, MACs and the GCM tag
check are paramiko's/cryptography's. Every fast path runs only on a transport that
:func:`install` enabled, and it enables one only when :func:`app.remote.paramiko_probe.check`
says this paramiko is a tested version whose internals are as expected; anything else uses the
stock paths (and the log says why once). Importing this module changes nothing in paramiko.
``tests/remote/test_fastssh.py`` asserts that the fast paths are on with the pinned paramiko,
that data sent through them arrives byte-exact at a real sshd, and that an unknown paramiko
takes the stock paths.
"""

from __future__ import annotations

import errno
import logging
import os
import struct
import threading
import time
import types
import weakref
from collections import deque
from io import BytesIO
from typing import Any

import paramiko
from paramiko.buffered_pipe import BufferedPipe, PipeTimeout
from paramiko.message import Message
from paramiko.packet import NeedRekeyException, Packetizer

from app.remote import paramiko_probe
from app.remote.paramiko_probe import ProbeResult

log = logging.getLogger(__name__)

_P = paramiko_probe.PACKETIZER_PREFIX

BURST = 1 << 20  # at most this much channel data per socket write
READ_CHUNK = 256 * 1024  # socket reads for incoming packets
MSG_CHANNEL_DATA = 94
MSG_CHANNEL_WINDOW_ADJUST = 93

_stock_read_message = Packetizer.read_message  # paramiko's own (the class is never changed)
_install_lock = threading.Lock()
_enabled: weakref.WeakSet[Any] = weakref.WeakSet()  # transports whose fast paths install() turned on


class _Pad:
    """Random padding bytes, drawn from the OS in blocks (paramiko calls os.urandom per packet)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pool = os.urandom(1 << 16)
        self.pos = 0

    def take(self, n: int) -> bytes:
        with self.lock:
            if self.pos + n > len(self.pool):
                self.pool = os.urandom(1 << 16)
                self.pos = 0
            out = self.pool[self.pos : self.pos + n]
            self.pos += n
            return out


_pad = _Pad()


class _ReadBuffer:
    """A fixed receive buffer: ``recv_into`` it, hand out copies (no big allocation per read)."""

    __slots__ = ("buf", "view", "start", "end")

    def __init__(self, size: int) -> None:
        self.buf = bytearray(size)
        self.view = memoryview(self.buf)
        self.start = self.end = 0

    def make_room(self, n: int) -> None:
        """Ensure ``n`` bytes fit from ``start`` on (moving the unread tail to the front)."""
        if self.start + n > len(self.buf):
            have = self.end - self.start
            if n > len(self.buf):
                new = bytearray(max(n, 2 * len(self.buf)))
                new[:have] = self.view[self.start : self.end]
                self.view.release()
                self.buf = new
                self.view = memoryview(self.buf)
            else:
                self.buf[:have] = self.view[self.start : self.end]
            self.start, self.end = 0, have


def _fill(self: Packetizer, n: int, check_rekey: bool) -> _ReadBuffer:
    """Make ``n`` bytes available in the packetizer's read buffer, reading the socket in large
    chunks; the timeout, EOF, closed, keepalive and rekey handling are paramiko's ``read_all``."""
    rb: _ReadBuffer | None = self.__dict__.get("_lg_rb")
    if rb is None:
        rb = self.__dict__["_lg_rb"] = _ReadBuffer(READ_CHUNK * 4)
    rem = self._Packetizer__remainder  # type: ignore[attr-defined]
    if rem:  # left over from reading the banner line
        rb.make_room(rb.end - rb.start + len(rem))
        rb.buf[rb.end : rb.end + len(rem)] = rem
        rb.end += len(rem)
        self._Packetizer__remainder = b""  # type: ignore[attr-defined]
    if rb.end - rb.start >= n:
        return rb
    rb.make_room(max(n, READ_CHUNK))
    sock = self._Packetizer__socket  # type: ignore[attr-defined]
    recv_into = getattr(sock, "recv_into", None)
    while rb.end - rb.start < n:
        got_timeout = False
        if self.handshake_timed_out():
            raise EOFError()
        try:
            room = len(rb.buf) - rb.end
            if recv_into is not None:
                k = recv_into(rb.view[rb.end :], room)
            else:  # e.g. a paramiko Channel as sock= (ProxyJump)
                x = sock.recv(room)
                k = len(x)
                rb.buf[rb.end : rb.end + k] = x
            if k == 0:
                raise EOFError()
            rb.end += k
        except TimeoutError:
            got_timeout = True
        except OSError as e:
            arg = e.args[0] if e.args else None
            if arg == errno.EAGAIN:
                got_timeout = True
            elif self._Packetizer__closed:  # type: ignore[attr-defined]
                raise EOFError() from None
            else:
                raise
        if got_timeout:
            if self._Packetizer__closed:  # type: ignore[attr-defined]
                raise EOFError()
            if check_rekey and rb.end == rb.start and self._Packetizer__need_rekey:  # type: ignore[attr-defined]
                raise NeedRekeyException()
            self._check_keepalive()
    return rb


def _consume(rb: _ReadBuffer, n: int) -> None:
    rb.start += n
    if rb.start == rb.end:
        rb.start = rb.end = 0


def _fast_read_all(self: Packetizer, n: int, check_rekey: bool = False) -> bytes:
    """``Packetizer.read_all`` on top of the read buffer."""
    rb = _fill(self, n, check_rekey)
    out = bytes(rb.view[rb.start : rb.start + n])
    _consume(rb, n)
    return out


class _ChannelDataMessage(Message):
    """A received CHANNEL_DATA message read in place from the decrypted packet: the transport
    takes the channel id (``get_int``) and ``Channel._feed`` the data (``get_binary``) with one
    copy instead of two. Any other use materialises paramiko's own ``BytesIO`` body."""

    def __init__(self, plain: bytes, end: int) -> None:  # noqa: D107 - no super(): body is lazy
        self._plain, self._end, self._pos = plain, end, 2
        self._bio: BytesIO | None = None

    @property  # type: ignore[override]
    def packet(self) -> BytesIO:
        if self._bio is None:
            self._bio = BytesIO(self._plain[2 : self._end])
            self._bio.seek(self._pos - 2)
        return self._bio

    @packet.setter
    def packet(self, value: BytesIO) -> None:
        self._bio = value

    def get_int(self) -> int:
        if self._bio is None and self._pos + 4 <= self._end:
            v = int.from_bytes(self._plain[self._pos : self._pos + 4], "big")
            self._pos += 4
            return v
        return int(super().get_int())

    def get_binary(self) -> bytes:
        if self._bio is None and self._pos + 4 <= self._end:
            n = self.get_int()
            start = self._pos
            stop = min(start + n, self._end)
            self._pos = stop
            data = self._plain[start:stop]
            if len(data) < n < (1 << 20):  # paramiko's get_bytes pads a short read with zeros
                data += b"\0" * (n - len(data))
            return data
        return bytes(super().get_binary())


MAX_PACKET = 1 << 20  # far above any packet a peer may send us (our max packet is 256 KiB)


def _fast_read_message(self: Packetizer) -> tuple[int, Message]:
    """``Packetizer.read_message`` for AES-GCM without its copies of every packet: the encrypted
    packet is decrypted straight from the read buffer (cryptography checks the GCM tag and raises
    on any mismatch, as in paramiko) and the message body is cut out once. Sequence number,
    IV counter and the rekey accounting are paramiko's. Other ciphers: the stock method."""
    if (
        not self._Packetizer__aead_in  # type: ignore[attr-defined]
        or self._Packetizer__compress_engine_in is not None  # type: ignore[attr-defined]
        or self._Packetizer__dump_packets  # type: ignore[attr-defined]
    ):
        return _stock_read_message(self)  # type: ignore[no-any-return]
    rb = _fill(self, 4, True)
    aad = bytes(rb.view[rb.start : rb.start + 4])
    packet_size = struct.unpack(">I", aad)[0]
    if packet_size > MAX_PACKET or packet_size < 16:
        raise paramiko.SSHException("Invalid packet size")
    mac_size = self._Packetizer__mac_size_in  # type: ignore[attr-defined]
    total = 4 + packet_size + mac_size
    rb = _fill(self, total, False)
    body = rb.view[rb.start + 4 : rb.start + total]
    iv = self._Packetizer__iv_in  # type: ignore[attr-defined]
    try:
        plain = self._Packetizer__block_engine_in.decrypt(iv, body, aad)  # type: ignore[attr-defined]
    finally:
        body.release()
    _consume(rb, total)
    self._Packetizer__iv_in = self._inc_iv_counter(iv)  # type: ignore[attr-defined]
    padding = plain[0]
    end = packet_size - padding
    if end < 2:
        raise paramiko.SSHException("Invalid packet padding")
    cmd = plain[1]
    msg = _ChannelDataMessage(plain, end) if cmd == MSG_CHANNEL_DATA else Message(plain[2:end])
    seq = self._Packetizer__sequence_number_in  # type: ignore[attr-defined]
    msg.seqno = seq
    next_seq = (seq + 1) & 0xFFFFFFFF
    if next_seq == 0 and not self._initial_kex_done:  # type: ignore[attr-defined]
        raise paramiko.SSHException("Sequence number rolled over during initial kex!")
    self._Packetizer__sequence_number_in = next_seq  # type: ignore[attr-defined]
    raw_packet_size = packet_size + mac_size + 4
    self._Packetizer__received_bytes += raw_packet_size  # type: ignore[attr-defined]
    self._Packetizer__received_packets += 1  # type: ignore[attr-defined]
    if self._Packetizer__need_rekey:  # type: ignore[attr-defined]
        self._Packetizer__received_bytes_overflow += raw_packet_size  # type: ignore[attr-defined]
        self._Packetizer__received_packets_overflow += 1  # type: ignore[attr-defined]
        if (
            self._Packetizer__received_packets_overflow >= self.REKEY_PACKETS_OVERFLOW_MAX  # type: ignore[attr-defined]
            or self._Packetizer__received_bytes_overflow >= self.REKEY_BYTES_OVERFLOW_MAX  # type: ignore[attr-defined]
        ):
            raise paramiko.SSHException("Remote transport is ignoring rekey requests")
    elif (
        self._Packetizer__received_packets >= self.REKEY_PACKETS  # type: ignore[attr-defined]
        or self._Packetizer__received_bytes >= self.REKEY_BYTES  # type: ignore[attr-defined]
    ):
        self._Packetizer__received_bytes_overflow = 0  # type: ignore[attr-defined]
        self._Packetizer__received_packets_overflow = 0  # type: ignore[attr-defined]
        self._trigger_rekey()
    return cmd, msg


def install(transport: paramiko.Transport) -> ProbeResult:
    """Turn the fast paths on for this ``transport`` (best before ``start_client``) if the probe
    allows it; returns the probe's answer. Only this transport's packetizer instance gains the
    fast ``read_all``/``read_message``; paramiko's classes stay as they are."""
    result = paramiko_probe.check(transport)
    if not result.enabled:
        return result
    with _install_lock:
        if transport not in _enabled:
            pk = transport.packetizer
            pk.read_all = types.MethodType(_fast_read_all, pk)
            pk.read_message = types.MethodType(_fast_read_message, pk)
            _enabled.add(transport)
    return result


def enabled(transport: Any) -> bool:
    """True if :func:`install` turned the fast paths on for ``transport`` (and the probe, which
    a test may have changed since, still agrees)."""
    try:
        on = transport in _enabled
    except TypeError:
        return False
    return on and paramiko_probe.check(transport).enabled


def _usable(chan: Any) -> bool:
    t = getattr(chan, "transport", None)
    if t is None or not enabled(t):
        return False
    pk = t.packetizer
    return bool(
        getattr(pk, _P + "aead_out", False)
        and getattr(pk, _P + "block_engine_out", None) is not None
        and getattr(pk, _P + "compress_engine_out", 1) is None
        and not getattr(pk, _P + "dump_packets", True)
    )


def _take_window(chan: Any, want: int) -> int:
    """Reserve up to ``want`` bytes of the channel's send window (blocking like paramiko when
    none is open). Returns 0 when the channel is at EOF; raises when it is closed."""
    with chan.lock:
        if chan.closed:
            raise OSError("Socket is closed")
        first = chan._wait_for_send_window(min(want, chan.out_max_packet_size - 64))
        if first == 0:
            return 0
        extra = min(chan.out_window_size, want - first)
        if extra > 0:
            chan.out_window_size -= extra
            return int(first + extra)
        return int(first)


def _send_packets(chan: Any, view: memoryview) -> None:
    """Send ``view`` (window already reserved) as CHANNEL_DATA packets in one socket write."""
    t = chan.transport
    start = time.time()
    while True:  # the gate of Transport._send_user_message: never send during a key exchange
        t.clear_to_send.wait(0.1)
        if not t.active:
            raise EOFError("connection closed")
        t.clear_to_send_lock.acquire()
        if t.clear_to_send.is_set():
            break
        t.clear_to_send_lock.release()
        if time.time() > start + t.clear_to_send_timeout:
            raise paramiko.SSHException("Key-exchange timed out waiting for key negotiation")
    try:
        pk = t.packetizer
        with getattr(pk, _P + "write_lock"):
            if not getattr(pk, _P + "aead_out"):  # a rekey changed the cipher: stock path
                _send_stock(chan, view)
                return
            engine = getattr(pk, _P + "block_engine_out")
            bsize = getattr(pk, _P + "block_size_out")
            iv = getattr(pk, _P + "iv_out")
            fixed, counter = iv[:4], int.from_bytes(iv[4:], "big")
            seq = getattr(pk, _P + "sequence_number_out")
            sent_b = getattr(pk, _P + "sent_bytes")
            sent_p = getattr(pk, _P + "sent_packets")
            per = chan.out_max_packet_size - 64
            rchan = chan.remote_chanid
            parts: list[bytes] = []
            total = 0
            trigger = False
            for off in range(0, len(view), per):
                chunk = view[off : off + per]
                n = len(chunk)
                payload_len = 9 + n
                padding = 3 + bsize - ((payload_len + 4) % bsize)
                length = struct.pack(">I", payload_len + padding + 1)
                plain = b"".join((struct.pack(">BBII", padding, MSG_CHANNEL_DATA, rchan, n), chunk, _pad.take(padding)))
                ct = engine.encrypt(fixed + counter.to_bytes(8, "big"), plain, length)
                counter = (counter + 1) & 0xFFFFFFFFFFFFFFFF
                seq = (seq + 1) & 0xFFFFFFFF
                parts.append(length)
                parts.append(ct)
                total += 4 + len(ct)
                sent_b += 4 + len(ct)
                sent_p += 1
                if sent_p >= pk.REKEY_PACKETS or sent_b >= pk.REKEY_BYTES:
                    trigger = True
            setattr(pk, _P + "iv_out", fixed + counter.to_bytes(8, "big"))
            setattr(pk, _P + "sequence_number_out", seq)
            setattr(pk, _P + "sent_bytes", sent_b)
            setattr(pk, _P + "sent_packets", sent_p)
            if trigger and not getattr(pk, _P + "need_rekey"):
                setattr(pk, _P + "received_bytes_overflow", 0)
                setattr(pk, _P + "received_packets_overflow", 0)
                pk._trigger_rekey()
            _write_parts(pk, parts, total)
    finally:
        t.clear_to_send_lock.release()


def _write_parts(pk: Any, parts: list[bytes], total: int) -> None:
    setattr(pk, _P + "keepalive_last", time.time())
    sock = getattr(pk, _P + "socket")
    sent = 0
    try:
        sent = sock.sendmsg(parts)
    except (TimeoutError, BlockingIOError, InterruptedError):
        sent = 0
    except (AttributeError, NotImplementedError):  # a sock= that is not a real socket
        sent = 0
    except OSError:
        raise EOFError("connection closed") from None
    if sent < total:
        pk.write_all(memoryview(b"".join(parts))[sent:])


def _send_stock(chan: Any, view: memoryview) -> None:
    """Window is reserved already: send the packets through paramiko's own packetizer."""
    t = chan.transport
    per = chan.out_max_packet_size - 64
    for off in range(0, len(view), per):
        m = paramiko.Message()
        m.add_byte(bytes([MSG_CHANNEL_DATA]))
        m.add_int(chan.remote_chanid)
        m.add_string(bytes(view[off : off + per]))
        t._send_message(m)


def sendall(chan: paramiko.Channel, data: bytes | bytearray | memoryview) -> None:
    """Send all of ``data`` on ``chan`` (like ``Channel.sendall``) with few Python ops per packet.

    Raises EOFError/OSError/SSHException when the channel or connection is gone."""
    view = memoryview(data).cast("B")
    if not _usable(chan):
        while view:
            n = chan.send(view)
            if n <= 0:
                raise EOFError("channel closed")
            view = view[n:]
        return
    while view:
        n = _take_window(chan, min(len(view), BURST))
        if n <= 0:
            raise EOFError("channel closed")
        _send_packets(chan, view[:n])
        view = view[n:]


class LeanPipe(BufferedPipe):
    """A channel's receive buffer for ONE reading thread (our SFTP channels): received packets are
    kept as a list of ``bytes`` (no copy into an ``array`` and out again) and a waiting reader is
    woken only once what it waits for has arrived — not for every 32 KiB packet (each wake-up is
    a GIL hand-over between the transport thread and the worker)."""

    def __init__(self) -> None:
        super().__init__()
        self._chunks: deque[bytes] = deque()
        self._off = 0  # consumed bytes of _chunks[0]
        self._size = 0
        self._want = 1  # what the waiting reader needs
        self._waiting = False

    def feed(self, data: bytes) -> None:
        with self._lock:
            if self._event is not None:
                self._event.set()
            if data:
                self._chunks.append(bytes(data))
                self._size += len(data)
            if self._waiting and self._size >= self._want:
                self._cv.notify_all()

    def read_ready(self) -> bool:
        with self._lock:
            return self._size > 0

    def __len__(self) -> int:
        with self._lock:
            return self._size

    def set_event(self, event: threading.Event) -> None:
        with self._lock:
            self._event = event
            if self._closed or self._size > 0:
                event.set()
            else:
                event.clear()

    def _take(self, n: int) -> bytes:
        """``n`` (≤ buffered) bytes off the front; the lock is held."""
        chunks = self._chunks
        c, off = chunks[0], self._off
        first = len(c) - off
        self._size -= n
        if first > n:
            self._off = off + n
            return c[off : off + n]
        chunks.popleft()
        self._off = 0
        if first == n:
            return c[off:] if off else c
        parts: list[bytes | memoryview] = [memoryview(c)[off:]]
        need = n - first
        while need:
            c = chunks[0]
            if len(c) <= need:
                parts.append(c)
                chunks.popleft()
                need -= len(c)
            else:
                parts.append(memoryview(c)[:need])
                self._off = need
                need = 0
        return b"".join(parts)

    def _wait(self, n: int, timeout: float | None) -> None:
        self._want, self._waiting = n, True
        try:
            while self._size < n and not self._closed:
                then = time.time()
                self._cv.wait(timeout)
                if timeout is not None:
                    timeout -= time.time() - then
                    if timeout <= 0.0 and self._size < n:
                        raise PipeTimeout()
        finally:
            self._want, self._waiting = 1, False

    def _done_reading(self) -> None:
        if self._size == 0 and self._event is not None and not self._closed:
            self._event.clear()

    def read(self, nbytes: int, timeout: float | None = None) -> bytes:
        with self._lock:
            if self._size == 0:
                if self._closed:
                    return b""
                if timeout == 0.0:
                    raise PipeTimeout()
                self._wait(1, timeout)
                if self._size == 0:
                    return b""
            out = self._take(min(nbytes, self._size))
            self._done_reading()
            return out

    def read_exact(self, n: int, timeout: float | None = None) -> bytes:
        """``n`` bytes, waiting for all of them; fewer only when the channel closed."""
        with self._lock:
            if self._size < n:
                if timeout == 0.0 and not self._closed:
                    raise PipeTimeout()
                self._wait(n, timeout)
            out = self._take(min(n, self._size)) if self._size else b""
            self._done_reading()
            return out

    def empty(self) -> bytes:
        with self._lock:
            out = self._take(self._size) if self._size else b""
            self._done_reading()
            return out

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._cv.notify_all()
            if self._event is not None:
                self._event.set()


def use_lean_pipe(chan: paramiko.Channel) -> None:
    """Give a freshly opened channel (no data received yet) a :class:`LeanPipe`; only for a
    channel read by one thread. No-op when the fast paths are off for its transport."""
    if not enabled(getattr(chan, "transport", None)):
        return
    if isinstance(getattr(chan, "in_buffer", None), BufferedPipe) and len(chan.in_buffer) == 0:
        chan.in_buffer = LeanPipe()  # type: ignore[assignment]


def recv_exact(chan: paramiko.Channel, n: int) -> bytes:
    """Exactly ``n`` bytes from ``chan`` (EOFError if it closes first), with the window
    accounting of ``Channel.recv``."""
    pipe = chan.in_buffer
    if not isinstance(pipe, LeanPipe):
        buf = bytearray()
        while len(buf) < n:
            x = chan.recv(n - len(buf))
            if not x:
                raise EOFError()
            buf += x
        return bytes(buf)
    # never wait for more than half the receive window at once: the peer cannot send more
    # until we acknowledge what we took (window adjust below)
    half = int(getattr(chan, "in_window_size", 0) or 0) // 2
    step = half if half > 0 else n
    pieces: list[bytes] = []
    left = n
    while left:
        k = min(left, step)
        try:
            out = pipe.read_exact(k, chan.timeout)
        except PipeTimeout:
            raise TimeoutError() from None
        if len(out) < k:
            raise EOFError()
        pieces.append(out)
        left -= k
        ack = chan._check_add_window(k)
        if ack > 0:
            m = paramiko.Message()
            m.add_byte(bytes([MSG_CHANNEL_WINDOW_ADJUST]))
            m.add_int(chan.remote_chanid)
            m.add_int(ack)
            chan.transport._send_user_message(m)
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)
