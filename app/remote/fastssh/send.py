"""The send side: :func:`sendall` builds and encrypts CHANNEL_DATA packets itself and writes a
burst of them with one ``sendmsg`` (stock ``Channel.send`` where the fast paths are off).

Never a message after the channel's CLOSE: OpenSSH drops the WHOLE connection (every channel,
every transfer, every tunnel on it) when data or EOF arrives for a channel it has freed ("ieof
packet referred to nonexistent channel"). Stock paramiko checks ``closed`` under the channel's lock
but sends after releasing it, so the transport thread can answer the server's CLOSE in between —
seen on a loaded machine when a quick command (a hash, a ``true``) closed its channel while our
thread was sending its EOF. Here the check and the send happen under the transport's
``clear_to_send_lock``, the lock every message (our CLOSE too) is sent under: a channel still open
at the check has its data or EOF on the wire before any CLOSE of ours."""

from __future__ import annotations

import os
import struct
import threading
import time
from typing import Any

import paramiko

from app.remote import paramiko_probe

from .gate import enabled
from .read import MSG_CHANNEL_DATA

_P = paramiko_probe.PACKETIZER_PREFIX

BURST = 1 << 20  # at most this much channel data per socket write


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


def fast_send_usable(chan: Any) -> bool:
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


def _hold_clear_to_send(t: Any) -> None:
    """Take the transport's ``clear_to_send_lock`` once no key exchange runs (the gate of
    ``Transport._send_user_message``); the caller sends, then releases it."""
    start = time.time()
    while True:
        t.clear_to_send.wait(0.1)
        if not t.active:
            raise EOFError("connection closed")
        t.clear_to_send_lock.acquire()
        if t.clear_to_send.is_set():
            return
        t.clear_to_send_lock.release()
        if time.time() > start + t.clear_to_send_timeout:
            raise paramiko.SSHException("Key-exchange timed out waiting for key negotiation")


def shutdown_write(chan: paramiko.Channel) -> None:
    """Send EOF on ``chan`` (like ``Channel.shutdown_write``) unless its CLOSE is already on its
    way: then nothing is sent (see the module docstring)."""
    t = getattr(chan, "transport", None)
    if t is None or not enabled(t):
        chan.shutdown_write()
        return
    _hold_clear_to_send(t)
    try:
        with chan.lock:
            if chan.closed:
                return
            m = chan._send_eof()
        if m is not None:
            t._send_message(m)
    finally:
        t.clear_to_send_lock.release()


def _send_packets(chan: Any, view: memoryview, fast: bool = True) -> None:
    """Send ``view`` (window already reserved) as CHANNEL_DATA packets in one socket write
    (``fast``), or one paramiko message per packet; never after the channel's CLOSE."""
    t = chan.transport
    _hold_clear_to_send(t)
    try:
        if chan.closed:  # our CLOSE was sent or waits for this lock: data now would kill the connection
            raise OSError("Socket is closed")
        pk = t.packetizer
        with getattr(pk, _P + "write_lock"):
            if not fast or not getattr(pk, _P + "aead_out"):  # another cipher, or a rekey changed it
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
    t = getattr(chan, "transport", None)
    if t is None or not enabled(t):  # an untested paramiko: its own send only
        while view:
            n = chan.send(view)
            if n <= 0:
                raise EOFError("channel closed")
            view = view[n:]
        return
    fast = fast_send_usable(chan)
    while view:
        n = _take_window(chan, min(len(view), BURST))
        if n <= 0:
            raise EOFError("channel closed")
        _send_packets(chan, view[:n], fast)
        view = view[n:]

