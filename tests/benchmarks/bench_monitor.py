"""The GPU monitor page under load: 4 hosts × 8 GPUs with 24 h of 1 Hz history, live at 1 Hz.

Run:  QT_QPA_PLATFORM=offscreen .venv/bin/python tests/benchmarks/bench_monitor.py
Options: --hosts N (4), --gpus N (8), --history-s S (86400), --updates N (120), --day-s S (86400),
--redraw-every S (60, during the simulated day), --size WxH (1600x1000).

What is measured, on the real page (app.ui.monitor.page.MonitorPage) in a 1600×1000 window,
fed through its real path (GpuHistory ring buffers, the queued sample signal, the 1 s redraw):
- paint_p95_ms: for each live update (one sample per host, then the redraw), the CPU time the GUI
  thread spends laying out and painting what changed (the event processing after ``redraw()``),
  95th percentile. CPU time, not wall-clock: on a shared, loaded machine the wall-clock time
  mostly measures waiting for a core (it is printed too, with the load average);
- cpu_pct: process CPU time (user + system) spent over ``--updates`` updates, including the
  history appends, the sample signal, the table updates, setData and painting, as a share of
  the updates' 1-second period (what the app costs one core while monitoring);
- mem_growth_mb: RSS after a simulated day (``--day-s`` seconds of samples on a fake clock,
  every host at 1 Hz, the queued samples handled and the graphs redrawn every ``--redraw-every``
  simulated seconds, the window hidden so nothing is painted) minus RSS before it. The history
  rings are full from the start, so a leak shows as growth.
The LAST line is ``monitor: paint_p95_ms=… cpu_pct=… mem_growth_mb=…`` (goals: < 16, < 5, < 50).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import resource
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LABGPU_HOME", tempfile.mkdtemp(prefix="labgpu-bench-monitor-"))

T0 = 1_790_000_000.0


def rss_mb() -> float:
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def cpu_s() -> float:
    t = os.times()
    return t.user + t.system


def templates(host: str, gpus: int, n: int = 97) -> list:
    """n different samples of one host (values vary as a training run's do); times set later."""
    from tests.ui.monitor_data import sample

    return [sample(host, T0 + k * 37.0, gpus) for k in range(n)]


def at(tpl: list, k: int, t: float):  # noqa: ANN201
    return dataclasses.replace(tpl[k % len(tpl)], time=datetime.fromtimestamp(t, timezone.utc))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hosts", type=int, default=4)
    ap.add_argument("--gpus", type=int, default=8)
    ap.add_argument("--history-s", type=int, default=86_400)
    ap.add_argument("--updates", type=int, default=120)
    ap.add_argument("--day-s", type=int, default=86_400)
    ap.add_argument("--redraw-every", type=int, default=60)
    ap.add_argument("--size", default="1600x1000")
    args = ap.parse_args()

    from PySide6.QtWidgets import QApplication

    app = QApplication([sys.argv[0]])
    from app.core.paths import default_paths
    from app.ui.context import AppContext
    from app.ui.monitor.page import MonitorPage
    from tests.ui.monitor_data import FeedSource

    hosts = [f"gpu-host-{i}" for i in range(args.hosts)]
    tpls = {h: templates(h, args.gpus) for h in hosts}
    clock = {"t": T0}
    src = FeedSource(capacity_s=86_400)
    t_load = time.perf_counter()
    for h in hosts:
        for k in range(args.history_s):
            src.history.append(at(tpls[h], k, T0 - args.history_s + 1 + k))
    print(f"history: {args.hosts} hosts × {args.gpus} GPUs × {args.history_s} s loaded in "
          f"{time.perf_counter() - t_load:.1f} s", flush=True)

    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    page = MonitorPage(ctx, hub=src, clock=lambda: clock["t"], autostart=False)
    w, h = (int(v) for v in args.size.split("x"))
    page.resize(w, h)
    page.show()
    app.processEvents()
    t_build = time.perf_counter()
    for host in hosts:
        page.watch(host, remember=False)
    page.range_combo.setCurrentIndex(page.range_combo.findData(3_600))
    page.rebuild()
    app.processEvents()
    print(f"page: {len(hosts)} host columns with {sum(len(p.plots.curves) for p in page.panels.values())} "
          f"curves built in {time.perf_counter() - t_build:.2f} s", flush=True)

    def one_update(k: int, redraw: bool = True, events: bool = True) -> tuple[float, float]:
        clock["t"] += 1.0
        for host in hosts:
            src.feed(at(tpls[host], k, clock["t"]))
        if events:
            app.processEvents()  # the queued sample signals: tables and feeds
        if not redraw:
            return 0.0, 0.0
        page.redraw()
        c, t = time.thread_time(), time.perf_counter()
        app.processEvents()  # layout + paint of what the redraw changed
        return time.thread_time() - c, time.perf_counter() - t

    for k in range(10):  # warm-up (first paints, caches)
        one_update(k)
    paints, walls = [], []
    c0, w0 = cpu_s(), time.perf_counter()
    for k in range(args.updates):
        cpu_paint, wall_paint = one_update(k)
        paints.append(cpu_paint * 1000)
        walls.append(wall_paint * 1000)
    cpu_used = cpu_s() - c0
    wall = time.perf_counter() - w0
    p95 = pct(paints, 0.95)
    cpu_pct = 100.0 * cpu_used / args.updates  # CPU seconds per 1-second update, as % of one core
    print(f"live: {args.updates} updates; paint (CPU time of the GUI thread) median "
          f"{statistics.median(paints):.1f} ms, p95 {p95:.1f} ms, max {max(paints):.1f} ms; paint wall-clock "
          f"p95 {pct(walls, 0.95):.1f} ms (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs); "
          f"process CPU {cpu_used * 1000 / args.updates:.1f} ms per update (wall {wall * 1000 / args.updates:.1f} ms)",
          flush=True)

    # The simulated day: every data path runs (history, queued signal, feeds, tables, setData); the
    # window is hidden so Qt skips painting, and queued samples are handled at each redraw.
    page.hide()
    app.processEvents()
    rss0 = rss_mb()
    t_day = time.perf_counter()
    for k in range(args.day_s):
        one_update(k, redraw=(k % args.redraw_every == 0), events=(k % args.redraw_every == 0))
        if k % 21_600 == 0 and k:
            print(f"  day: {k // 3600} h simulated, RSS {rss_mb():.1f} MB", flush=True)
    page.redraw()
    app.processEvents()
    growth = rss_mb() - rss0
    print(f"day: {args.day_s} s simulated in {time.perf_counter() - t_day:.0f} s; RSS {rss0:.1f} → "
          f"{rss_mb():.1f} MB", flush=True)
    page.shutdown()
    ctx.shutdown(3000)
    print(f"monitor: paint_p95_ms={p95:.1f} cpu_pct={cpu_pct:.1f} mem_growth_mb={growth:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
