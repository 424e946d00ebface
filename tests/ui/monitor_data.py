"""Synthetic GPU samples and a hub-shaped source for the monitor page's tests, benchmark and screenshots.

`FeedSource` has the MonitorHub interface the page uses (history, archive, subscribe, watch,
unwatch, states) over a real GpuHistory and MinuteArchive; `feed()` delivers a sample the way the
hub does: into the history first, then to every subscriber — from any thread.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from datetime import datetime, timezone

from app.core.gpuhistory import GpuHistory, MinuteArchive
from app.core.gpumon import GpuProcess, GpuReading, HostSample

NAMES = "NVIDIA A100-SXM4-80GB"


def reading(host: str, i: int, t: float, *, util: float | None = None, status: str = "ok") -> GpuReading:
    phase = (t / 600.0 + i * 0.7)
    u = util if util is not None else max(0.0, min(100.0, 62 + 30 * math.sin(phase) + (i * 3) % 7))
    return GpuReading(
        uuid=f"GPU-{host}-{i:02d}", index=i, name=NAMES, utilization_gpu=u,
        memory_used_mib=20_000 + 40_000 * (0.5 + 0.5 * math.sin(phase / 3)), memory_total_mib=81_920,
        temperature_c=45 + u * 0.3, power_w=90 + u * 2.8, power_limit_w=400, status=status)


def sample(host: str, t: float, gpus: int = 8, *, error: str | None = None,
           util: float | None = None, processes: bool = True) -> HostSample:
    when = datetime.fromtimestamp(t, timezone.utc)
    if error:
        return HostSample(host=host, time=when, error=error, gpus=(), processes=())
    gs = tuple(reading(host, i, t, util=util) for i in range(gpus))
    procs = tuple(GpuProcess(g.uuid, 4000 + g.index, "python train.py", 18_000.0) for g in gs) if processes else ()
    return HostSample(host=host, time=when, error=None, gpus=gs, processes=procs)


class FeedSource:
    def __init__(self, archive: MinuteArchive | None = None, capacity_s: int = 86_400) -> None:
        self.history = GpuHistory(capacity_s)
        self.archive = archive
        self._subs: list[Callable[[HostSample], None]] = []
        self._lock = threading.Lock()
        self.watching: set[str] = set()
        self.state: dict[str, str] = {}

    def subscribe(self, cb: Callable[[HostSample], None]) -> Callable[[], None]:
        with self._lock:
            self._subs.append(cb)
        return lambda: self._subs.remove(cb) if cb in self._subs else None

    def watch(self, host: str) -> None:
        self.watching.add(host)
        self.state.setdefault(host, "connecting")

    def unwatch(self, host: str) -> None:
        self.watching.discard(host)

    def connection(self, host: str) -> None:
        """The hub's SSH connection to a host (spot watches, watchdog checks): this feed has none."""
        raise ConnectionError(f"the test feed has no SSH connection to {host}")

    def states(self) -> dict[str, str]:
        return {h: self.state.get(h, "idle") for h in self.watching}

    def load(self, host: str, t_end: float, seconds: int, gpus: int = 8) -> None:
        """`seconds` of 1 Hz history ending at t_end, straight into the history (no subscribers)."""
        for k in range(seconds):
            self.history.append(sample(host, t_end - seconds + 1 + k, gpus, processes=False))

    def feed(self, s: HostSample) -> None:
        self.history.append(s)
        if self.archive is not None:
            self.archive.add(s)
        self.state[s.host] = "error" if s.error else "streaming"
        with self._lock:
            subs = list(self._subs)
        for cb in subs:
            cb(s)
