"""GpuHistory ring buffers, the SQLite minute archive and CSV export."""

from __future__ import annotations

import csv
import math
from datetime import datetime, timedelta, timezone

import numpy as np

from app.core.gpuhistory import GpuHistory, MinuteArchive, export_csv
from app.core.gpumon import GpuReading, HostSample
from app.core.store import Store

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def reading(uuid: str, util: float | None, index: int = 0, mem: float | None = 1000.0) -> GpuReading:
    return GpuReading(uuid=uuid, index=index, name="A100", utilization_gpu=util, memory_used_mib=mem,
                      memory_total_mib=81920.0, temperature_c=50.0, power_w=None, power_limit_w=400.0)


def sample(t: datetime, *gpus: GpuReading, error: str | None = None, host: str = "h") -> HostSample:
    return HostSample(host=host, time=t, error=error, gpus=tuple(gpus))


def test_ring_keeps_the_last_capacity_samples_in_order_with_nan_gaps():
    h = GpuHistory(capacity_s=5)
    for i in range(8):
        t = T0 + timedelta(seconds=i)
        if i == 6:
            h.append(sample(t, error="driver gone"))  # a failed sample is a gap, not a zero
        else:
            h.append(sample(t, reading("GPU-a", float(i))))
    t, v = h.series("h", "GPU-a", "utilization_gpu")
    assert list(t - T0.timestamp()) == [3, 4, 5, 6, 7]
    assert list(v[:3]) == [3.0, 4.0, 5.0] and math.isnan(v[3]) and v[4] == 7.0
    t2, v2 = h.series("h", "GPU-a", "utilization_gpu", t0=T0.timestamp() + 4, t1=T0.timestamp() + 5)
    assert list(v2) == [4.0, 5.0] and len(t2) == 2
    _, p = h.series("h", "GPU-a", "power_w")
    assert np.isnan(p).all()  # unknown power stays unknown
    assert [g.uuid for g in h.gpus("h")] == ["GPU-a"]


def test_a_gpu_that_appears_later_is_nan_before():
    h = GpuHistory(capacity_s=10)
    h.append(sample(T0, reading("GPU-a", 10)))
    h.append(sample(T0 + timedelta(seconds=1), reading("GPU-a", 11), reading("GPU-b", 50, index=1)))
    _, v = h.series("h", "GPU-b", "utilization_gpu")
    assert math.isnan(v[0]) and v[1] == 50.0
    assert [g.index for g in h.gpus("h")] == [0, 1]


def test_minute_archive_means_survive_a_restart_and_prune(tmp_path):
    db = tmp_path / "db.sqlite3"
    arch = MinuteArchive(Store(db))
    for s in range(120):  # two minutes; the second one has an unknown stretch
        util = float(s % 60) if s < 60 else (None if s < 90 else 100.0)
        arch.add(sample(T0 + timedelta(seconds=s), reading("GPU-a", util)))
    arch.flush()
    again = MinuteArchive(Store(db))  # a new process reads what the old one wrote
    t, v = again.series("h", "GPU-a", "utilization_gpu")
    assert list(t - T0.timestamp()) == [30.0, 90.0]
    assert v[0] == sum(range(60)) / 60 and v[1] == 100.0  # unknown samples are not averaged as 0
    assert again.prune(T0 + timedelta(days=31)) == 2
    assert len(again.series("h", "GPU-a", "utilization_gpu")[0]) == 0


def test_export_csv_uses_minutes_before_the_ring_and_seconds_after(tmp_path):
    arch = MinuteArchive(Store(tmp_path / "db.sqlite3"))
    hist = GpuHistory(capacity_s=30)
    for s in range(180):
        smp = sample(T0 + timedelta(seconds=s), reading("GPU-a", 40.0 if s != 170 else None))
        hist.append(smp)
        arch.add(smp)
    out = tmp_path / "export.csv"
    n = export_csv(out, hist, arch, "h", T0.timestamp(), (T0 + timedelta(seconds=179)).timestamp())
    rows = list(csv.reader(out.open()))
    assert rows[0][:4] == ["time", "resolution", "host", "gpu_uuid"]
    body = rows[1:]
    assert n == len(body)
    assert [r[1] for r in body].count("1s") == 30
    assert [r[1] for r in body].count("1min") == 2  # minutes 0 and 1; minute 2 is covered by the ring
    util_col = rows[0].index("utilization_gpu")
    assert any(r[util_col] == "" for r in body)  # the unknown second is an empty cell, not 0
    assert all(r[util_col] in ("", "40") for r in body)


def test_samples_from_history_feed_the_tuning_hints():
    from app.core.guards import tuning_hints

    h = GpuHistory(capacity_s=3600)
    for i in range(0, 900):
        h.append(sample(T0 + timedelta(seconds=i), reading("GPU-a", 45.0, mem=79000.0)))
    got = h.samples("h", T0.timestamp() + 100, T0.timestamp() + 899)
    assert len(got) == 800 and got[0].gpus[0].utilization_gpu == 45.0 and got[0].gpus[0].power_w is None
    assert [x.id for x in tuning_hints(got)] == ["low-utilization", "memory-full"]  # 79000 of 81920 MiB
    h.append(sample(T0 + timedelta(seconds=900), error="driver"))
    assert h.samples("h")[-1].error is not None


def test_hub_archives_samples_and_prunes_old_minutes(tmp_path):
    from app.watch import MonitorHub

    store = Store(tmp_path / "db.sqlite3")
    old = MinuteArchive(store)
    old.add(sample(T0 - timedelta(days=40), reading("GPU-a", 1.0)))
    old.flush()
    now = [T0.timestamp()]
    hub = MonitorHub(store=store, clock=lambda: now[0])
    got = []
    hub.subscribe(got.append)
    try:
        for i in range(70):
            hub._on_sample(sample(T0 + timedelta(seconds=i), reading("GPU-a", 50.0)))  # as a stream delivers
    finally:
        hub.close()
    assert len(got) == 70
    t, v = MinuteArchive(store).series("h", "GPU-a", "utilization_gpu")
    assert list(v) == [50.0, 50.0]  # the 40-day-old minute is gone, today's two minutes are kept
    assert len(hub.history.series("h", "GPU-a", "utilization_gpu")[0]) == 70
