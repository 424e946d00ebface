"""A channel receive buffer for one reading thread (:class:`LeanPipe`) and :func:`recv_exact`."""

from __future__ import annotations

import threading
import time
from collections import deque

import paramiko
from paramiko.buffered_pipe import BufferedPipe, PipeTimeout

from .gate import enabled

MSG_CHANNEL_WINDOW_ADJUST = 93


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
