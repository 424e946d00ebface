"""Progress of a bucket sync: thread-safe counters, a throttled callback (the same ``SyncProgress``
the SSH engine reports, so the Sync page and the CLI show both alike), the shared bandwidth limit,
and the request body that counts, throttles and stops on cancel as it is sent."""

from __future__ import annotations

import io
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from app.core.syncmodel import SyncProgress

from .errors import cancelled_error

log = logging.getLogger(__name__)

PROGRESS_INTERVAL = 0.1  # s between two callbacks (state changes always report at once)


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
                raise cancelled_error()


class ProgressTracker:
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

    def totals(self, files: int, nbytes: int) -> None:
        with self.lock:
            self.p.files_total = self.p.files_done + files
            self.p.bytes_total = self.p.bytes_done + nbytes

    def skip(self, nbytes: int) -> None:
        """Bytes planned but not sent (already in place: a resumed upload's parts)."""
        with self.lock:
            self.p.bytes_total = max(self.p.bytes_done, self.p.bytes_total - nbytes)

    def add(self, nbytes: int = 0, files: int = 0, current: str | None = None) -> None:
        with self.lock:
            self.p.bytes_done += nbytes
            self.p.files_done += files
            if current is not None:
                self.p.current = current
        self.emit(force=files > 0)

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


class Flow:
    """What every transfer worker shares: the cancel flag, the stop flag (another worker failed),
    the bandwidth limit and the progress."""

    def __init__(self, progress: ProgressTracker, cancel: threading.Event, bwlimit_kbps: float | None) -> None:
        self.progress = progress
        self.cancel = cancel
        self.stop = threading.Event()
        self.bucket = TokenBucket(bwlimit_kbps * 1024, cancel) if bwlimit_kbps else None

    def check(self) -> None:
        if self.cancel.is_set() or self.stop.is_set():
            raise cancelled_error()

    def moved(self, n: int) -> None:
        """``n`` bytes went over the wire (throttled first when a limit is set)."""
        if self.bucket is not None and n:
            self.bucket.consume(n)
        self.progress.add(n)


class SendBody(io.BytesIO):
    """A part or small object as boto3 sends it: read in blocks that count progress, respect the
    bandwidth limit and stop the request at once on cancel; a retry (``seek(0)``) takes back what
    the failed try counted."""

    def __init__(self, data: bytes, flow: Flow) -> None:
        super().__init__(data)
        self._counted = 0
        self._flow = flow

    def seek(self, pos: int, whence: int = 0) -> int:
        at = super().seek(pos, whence)
        if at == 0 and self._counted:
            self._flow.progress.add(-self._counted)
            self._counted = 0
        return at

    def read(self, size: int | None = -1) -> bytes:
        self._flow.check()
        chunk = super().read(size)
        if chunk:
            self._counted += len(chunk)
            self._flow.moved(len(chunk))
        return chunk
