"""The send side: :func:`sendall` builds and encrypts CHANNEL_DATA packets itself and writes a
burst of them with one ``sendmsg`` (stock ``Channel.send`` where the fast paths are off)."""

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

