"""Progress counters with a throttled callback, and the shared bandwidth limit."""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from app.core.syncmodel import SyncProgress

from .errors import cancelled_error
from .tuning import PROGRESS_INTERVAL

log = logging.getLogger(__name__)


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
