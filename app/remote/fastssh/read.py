"""The receive side: a packetizer ``read_all`` that reads the socket in large chunks into one
buffer, and a ``read_message`` that decrypts AES-GCM packets straight from it (other ciphers: the
stock ``read_message``). Bound to one transport's packetizer by :func:`.gate.install`."""

from __future__ import annotations

import errno
import struct
from io import BytesIO

import paramiko
from paramiko.message import Message
from paramiko.packet import NeedRekeyException, Packetizer

READ_CHUNK = 256 * 1024  # socket reads for incoming packets
MSG_CHANNEL_DATA = 94

_stock_read_message = Packetizer.read_message  # paramiko's own (the class is never changed)


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


def fast_read_all(self: Packetizer, n: int, check_rekey: bool = False) -> bytes:
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


def fast_read_message(self: Packetizer) -> tuple[int, Message]:
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

