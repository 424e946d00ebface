"""GPU history: 24 h at 1 Hz in memory (numpy ring buffers) and 1-minute means for 30 days in SQLite.

``GpuHistory`` keeps, per host, one ring of sample times and, per GPU (keyed by uuid), one float32
ring per metric aligned with it. A sample that failed (host error) or lacks a GPU stores NaN, so
plots draw a gap (pyqtgraph ``connect='finite'``) instead of a line through missing data.
``MinuteArchive`` folds samples into 1-minute means (unknown values excluded; a minute without
any known value stays NULL) and keeps them ``ARCHIVE_DAYS``. ``export_csv`` writes a chosen range,
the archive's minutes where the ring no longer reaches and the 1 Hz samples after.
"""

from __future__ import annotations

import csv
import logging
import math
import os
import sqlite3
import tempfile
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from .gpumon import MAX_GPU_INDEX, MAX_GPUS_PER_HOST, MAX_NAME_CHARS, MAX_UUID_CHARS, METRICS, GpuReading, HostSample
from .store import Store, register_schema

if TYPE_CHECKING:  # numpy is imported by the functions that make or read rings: a process that never
    import numpy as np  # samples a GPU (the tray with no guarded host) does not load it

log = logging.getLogger(__name__)

DAY_S = 86_400
ARCHIVE_DAYS = 30
# A ring is 6 metrics × 86,400 float32 = 2 MiB per GPU. At most MAX_GPUS_PER_HOST rings per host; the
# ring of a uuid unseen for RELEASE_AFTER_S is released (its history goes; the archive keeps minutes).
RELEASE_AFTER_S = 600.0

register_schema(
    "gpuhistory",
    [
        """
    CREATE TABLE gpu_minutes (
        host TEXT NOT NULL,
        uuid TEXT NOT NULL,
        minute INTEGER NOT NULL,
        gpu_index INTEGER,
        name TEXT,
        utilization_gpu REAL,
        memory_used_mib REAL,
        memory_total_mib REAL,
        temperature_c REAL,
        power_w REAL,
        power_limit_w REAL,
        samples INTEGER NOT NULL,
        PRIMARY KEY (host, uuid, minute)
    );
    CREATE INDEX gpu_minutes_minute ON gpu_minutes(minute);
    """
    ],
)


def _check_metric(metric: str) -> int:
    try:
        return METRICS.index(metric)
    except ValueError:
        raise ValueError(f"unknown metric {metric!r}; one of {', '.join(METRICS)}") from None


@dataclass
class _HostRing:
    capacity: int
    times: np.ndarray
    head: int = 0  # next slot to write
    count: int = 0
    gpus: dict[str, np.ndarray] = field(default_factory=dict)  # uuid → (len(METRICS), capacity) float32
    latest: dict[str, GpuReading] = field(default_factory=dict)
    last_sample: HostSample | None = None
    last_seen: dict[str, float] = field(default_factory=dict)  # uuid → sample time it last reported
    dropped: int = 0  # readings refused: the host had MAX_GPUS_PER_HOST rings in use

    def order(self) -> np.ndarray:
        """Slot indices oldest → newest."""
        import numpy as np

        if self.count < self.capacity:
            return np.arange(self.count)
        return (np.arange(self.capacity) + self.head) % self.capacity


class GpuHistory:
    """In-memory 1 Hz history per host and GPU. Thread-safe: appends and reads take a lock."""

    def __init__(self, capacity_s: int = DAY_S, *, max_gpus: int = MAX_GPUS_PER_HOST,
                 release_after_s: float = RELEASE_AFTER_S) -> None:
        self.capacity = int(capacity_s)
        self.max_gpus = int(max_gpus)
        self.release_after_s = float(release_after_s)
        self._hosts: dict[str, _HostRing] = {}
        self._lock = threading.Lock()

    def _ring_for(self, ring: _HostRing, uuid: str, now: float) -> np.ndarray | None:
        """The uuid's ring; a new one only while the host has fewer than ``max_gpus`` (rings of
        uuids unseen for ``release_after_s`` are released first). None: refused."""
        import numpy as np

        buf = ring.gpus.get(uuid)
        if buf is not None:
            return buf
        if len(ring.gpus) >= self.max_gpus:
            cutoff = now - self.release_after_s
            for old in [u for u, t in ring.last_seen.items() if t < cutoff]:
                ring.gpus.pop(old, None)
                ring.latest.pop(old, None)
                ring.last_seen.pop(old, None)
        if len(ring.gpus) >= self.max_gpus:
            return None
        buf = np.full((len(METRICS), self.capacity), np.nan, dtype=np.float32)
        ring.gpus[uuid] = buf
        return buf

    def dropped(self, host: str) -> int:
        """Readings of `host` refused because it already had ``max_gpus`` GPUs' rings in use."""
        with self._lock:
            ring = self._hosts.get(host)
            return 0 if ring is None else ring.dropped

    def append(self, sample: HostSample) -> None:
        import numpy as np

        with self._lock:
            ring = self._hosts.get(sample.host)
            if ring is None:
                ring = _HostRing(self.capacity, np.full(self.capacity, np.nan, dtype=np.float64))
                self._hosts[sample.host] = ring
            slot = ring.head
            now = sample.time.timestamp()
            ring.times[slot] = now
            seen = set()
            for g in sample.gpus[: self.max_gpus * 2]:
                if g.uuid in seen:
                    continue
                buf = self._ring_for(ring, g.uuid, now)
                if buf is None:
                    ring.dropped += 1
                    continue
                for i, m in enumerate(METRICS):
                    buf[i, slot] = _stored(getattr(g, m))
                ring.latest[g.uuid] = g
                ring.last_seen[g.uuid] = now
                seen.add(g.uuid)
            for uuid, buf in ring.gpus.items():
                if uuid not in seen:
                    buf[:, slot] = np.nan
            ring.head = (slot + 1) % self.capacity
            ring.count = min(ring.count + 1, self.capacity)
            ring.last_sample = sample

    def hosts(self) -> list[str]:
        with self._lock:
            return sorted(self._hosts)

    def gpus(self, host: str) -> list[GpuReading]:
        """The latest reading of each GPU the host has reported, by index then uuid."""
        with self._lock:
            ring = self._hosts.get(host)
            if ring is None:
                return []
            return sorted(ring.latest.values(), key=lambda g: (g.index is None, g.index or 0, g.uuid))

    def last_sample(self, host: str) -> HostSample | None:
        with self._lock:
            ring = self._hosts.get(host)
            return None if ring is None else ring.last_sample

    def series(self, host: str, uuid: str, metric: str, t0: float | None = None,
               t1: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(epoch seconds float64, values float64 with NaN for unknown/missing), oldest first."""
        import numpy as np

        mi = _check_metric(metric)
        with self._lock:
            ring = self._hosts.get(host)
            if ring is None:
                return np.empty(0), np.empty(0)
            order = ring.order()
            t = ring.times[order]
            buf = ring.gpus.get(uuid)
            v = (np.full(len(order), np.nan) if buf is None else buf[mi, order].astype(np.float64))
        mask = np.ones(len(t), dtype=bool)
        if t0 is not None:
            mask &= t >= t0
        if t1 is not None:
            mask &= t <= t1
        return t[mask], v[mask]

    def earliest(self, host: str) -> float | None:
        with self._lock:
            ring = self._hosts.get(host)
            if ring is None or ring.count == 0:
                return None
            return float(ring.times[ring.order()[0]])

    def samples(self, host: str, t0: float | None = None, t1: float | None = None) -> list[HostSample]:
        """The stored samples of `host` in [t0, t1] rebuilt as HostSamples (oldest first), e.g. for
        ``app.core.guards.tuning_hints``. A slot where every value of a GPU is NaN has no reading
        for it; a slot without any GPU is an error sample (the host could not be read)."""
        import numpy as np

        out: list[HostSample] = []
        with self._lock:
            ring = self._hosts.get(host)
            if ring is None:
                return out
            order = ring.order()
            latest = dict(ring.latest)
            for slot in order:
                t = float(ring.times[slot])
                if (t0 is not None and t < t0) or (t1 is not None and t > t1):
                    continue
                gpus = []
                for uuid, buf in ring.gpus.items():
                    col = buf[:, slot]
                    if np.isnan(col).all():
                        continue
                    v = [None if math.isnan(float(x)) else float(x) for x in col]
                    ref = latest.get(uuid)
                    gpus.append(GpuReading(uuid=uuid, index=ref.index if ref else None,
                                           name=ref.name if ref else None, utilization_gpu=v[0],
                                           memory_used_mib=v[1], memory_total_mib=v[2], temperature_c=v[3],
                                           power_w=v[4], power_limit_w=v[5]))
                when = datetime.fromtimestamp(t, timezone.utc)
                out.append(HostSample(host, when, None if gpus else "no reading", tuple(gpus)))
        return out

    def samples_between(self, host: str, t0: float, t1: float) -> list[tuple[float, dict[str, list[float | None]]]]:
        """Rows for export: (time, {uuid: [metric values]}) with None for NaN."""
        with self._lock:
            ring = self._hosts.get(host)
            if ring is None:
                return []
            order = ring.order()
            t = ring.times[order]
            sel = order[(t >= t0) & (t <= t1)]
            out = []
            for slot in sel:
                vals = {}
                for uuid, buf in ring.gpus.items():
                    col = buf[:, slot]
                    vals[uuid] = [None if math.isnan(x) else float(x) for x in col]
                out.append((float(ring.times[slot]), vals))
            return out


def _mean(total: float, count: int) -> float | None:
    if not count:
        return None
    m = total / count
    return m if math.isfinite(m) else None


def _index(index: int | None) -> int | None:
    """A GPU index the archive keeps (0..MAX_GPU_INDEX); anything else is unknown."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= MAX_GPU_INDEX:
        return None
    return index


def _stored(v: float | None) -> float:
    """A value as the float32 ring keeps it: unknown, non-finite or beyond float32 → NaN (a gap)."""
    if v is None:
        return math.nan
    f = float(v)
    return f if math.isfinite(f) and abs(f) < 3.0e38 else math.nan


@dataclass
class _MinuteAcc:
    index: int | None
    name: str | None
    sums: list[float]
    counts: list[int]
    samples: int = 0


class MinuteArchive:
    """1-minute means per host and GPU, kept ARCHIVE_DAYS in SQLite. Call flush() before reading
    the current minute; a minute is written when the next one starts and on flush()/close()."""

    def __init__(self, store: Store, days: int = ARCHIVE_DAYS, *, max_gpus: int = MAX_GPUS_PER_HOST) -> None:
        self.store = store
        self.days = days
        self.max_gpus = int(max_gpus)  # rows per host per minute
        self._acc: dict[tuple[str, str, int], _MinuteAcc] = {}
        self._per_host: dict[tuple[str, int], int] = {}  # (host, minute) → rows being accumulated
        self._lock = threading.Lock()
        self.dropped = 0  # readings over the per-host-per-minute cap
        self.failed_rows = 0  # rows a write refused (logged; other hosts' rows still written)

    def add(self, sample: HostSample) -> None:
        minute = int(sample.time.timestamp() // 60)
        done: list[tuple[tuple[str, str, int], _MinuteAcc]] = []
        with self._lock:
            for key in list(self._acc):
                if key[0] == sample.host and key[2] != minute:
                    done.append((key, self._acc.pop(key)))
            for hk in [k for k in self._per_host if k[0] == sample.host and k[1] != minute]:
                del self._per_host[hk]
            for g in sample.gpus:
                key = (sample.host, g.uuid, minute)
                acc = self._acc.get(key)
                if acc is None:
                    n = self._per_host.get((sample.host, minute), 0)
                    if n >= self.max_gpus:
                        self.dropped += 1
                        continue
                    self._per_host[(sample.host, minute)] = n + 1
                    acc = _MinuteAcc(g.index, g.name, [0.0] * len(METRICS), [0] * len(METRICS))
                    self._acc[key] = acc
                acc.samples += 1
                acc.index, acc.name = g.index, g.name
                for i, m in enumerate(METRICS):
                    v = getattr(g, m)
                    if v is not None:
                        acc.sums[i] += float(v)
                        acc.counts[i] += 1
        if done:
            self._write(done)

    def _write(self, items: list[tuple[tuple[str, str, int], _MinuteAcc]]) -> None:
        """Write finished minutes, each host in its own transaction: one host's row that the
        database refuses loses that host's minute (logged), never another host's."""
        by_host: dict[str, list[tuple[object, ...]]] = {}
        for (host, uuid, minute), acc in items:
            means = [_mean(acc.sums[i], acc.counts[i]) for i in range(len(METRICS))]
            by_host.setdefault(host, []).append(
                (host, uuid[:MAX_UUID_CHARS], minute, _index(acc.index),
                 None if acc.name is None else str(acc.name)[:MAX_NAME_CHARS], *means, acc.samples))
        cols = ", ".join(METRICS)
        sql = (f"INSERT INTO gpu_minutes(host, uuid, minute, gpu_index, name, {cols}, samples) "
               f"VALUES(?, ?, ?, ?, ?, {', '.join('?' * len(METRICS))}, ?) "
               f"ON CONFLICT(host, uuid, minute) DO UPDATE SET "
               + ", ".join(f"{m}=excluded.{m}" for m in METRICS) + ", samples=excluded.samples")
        for host, rows in by_host.items():
            try:
                with self.store.transaction() as conn:
                    conn.executemany(sql, rows)
            except (sqlite3.Error, OverflowError, ValueError, TypeError) as exc:
                self.failed_rows += len(rows)
                log.warning("GPU archive: %d minute rows of %s not written: %s", len(rows), host, exc)

    def flush(self) -> None:
        with self._lock:
            items = list(self._acc.items())
            self._acc.clear()
            self._per_host.clear()
        if items:
            self._write(items)

    def series(self, host: str, uuid: str, metric: str, t0: float | None = None,
               t1: float | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(minute midpoints in epoch seconds, means with NaN where unknown), oldest first."""
        import numpy as np

        _check_metric(metric)
        lo = -1 if t0 is None else int(t0 // 60)
        hi = 2**62 if t1 is None else int(t1 // 60)
        rows = self.store.query(
            f"SELECT minute, {metric} AS v FROM gpu_minutes "  # noqa: S608 - metric checked against METRICS
            "WHERE host=? AND uuid=? AND minute BETWEEN ? AND ? ORDER BY minute", (host, uuid, lo, hi))
        t = np.array([r["minute"] * 60.0 + 30.0 for r in rows], dtype=np.float64)
        v = np.array([np.nan if r["v"] is None else r["v"] for r in rows], dtype=np.float64)
        return t, v

    def rows(self, host: str, t0: float, t1: float) -> list[tuple[float, str, list[float | None]]]:
        rows = self.store.query(
            f"SELECT minute, uuid, {', '.join(METRICS)} FROM gpu_minutes "  # noqa: S608 - constant columns
            "WHERE host=? AND minute BETWEEN ? AND ? ORDER BY minute, gpu_index, uuid",
            (host, int(t0 // 60), int(t1 // 60)))
        return [(r["minute"] * 60.0, r["uuid"], [r[m] for m in METRICS]) for r in rows]

    def prune(self, now: datetime | float) -> int:
        t = now.timestamp() if isinstance(now, datetime) else float(now)
        cutoff = int(t // 60) - self.days * 24 * 60
        return self.store.execute("DELETE FROM gpu_minutes WHERE minute < ?", (cutoff,)).rowcount

    def close(self) -> None:
        self.flush()


CSV_HEADER = ["time", "resolution", "host", "gpu_uuid", *METRICS]


def export_csv(path: Path | str, history: GpuHistory | None, archive: MinuteArchive | None, host: str,
               t0: float, t1: float) -> int:
    """Write [t0, t1] of `host` to `path` (atomically); returns the number of data rows.

    Minutes from the archive cover the time before the in-memory history starts; 1 Hz samples
    after. Unknown values are empty cells, never 0.
    """
    rows: list[list[str]] = []
    start_1hz = history.earliest(host) if history is not None else None
    if archive is not None:
        archive.flush()
        end = t1 if start_1hz is None else min(t1, start_1hz - 1e-9)
        if end >= t0:
            for t, uuid, vals in archive.rows(host, t0, end):
                if start_1hz is not None and t + 60 > start_1hz:
                    continue
                rows.append([_iso(t), "1min", _text_cell(host), _text_cell(uuid), *(_cell(v) for v in vals)])
    if history is not None:
        for t, per_gpu in history.samples_between(host, t0, t1):
            for uuid in sorted(per_gpu):
                rows.append([_iso(t), "1s", _text_cell(host), _text_cell(uuid), *(_cell(v) for v in per_gpu[uuid])])
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".export-", suffix=".csv", dir=str(target.parent))
    try:
        with os.fdopen(fd, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(CSV_HEADER)
            w.writerows(rows)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return len(rows)


def _iso(t: float) -> str:
    return datetime.fromtimestamp(t, timezone.utc).isoformat()


# A cell a spreadsheet would read as a formula (OWASP "CSV Injection": = + - @, and tab / carriage
# return, which some spreadsheets strip before looking) gets a leading apostrophe, so a GPU uuid
# or host name never runs as a formula. https://owasp.org/www-community/attacks/CSV_Injection
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _text_cell(text: str) -> str:
    return "'" + text if text.startswith(_FORMULA_START) else text


def _cell(v: float | None) -> str:
    return "" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:g}"
