"""Start-up and filter benchmarks (a script, not collected by pytest).

    .venv/bin/python tests/benchmarks/bench_startup.py [--runs N] [--offers N]
    .venv/bin/python tests/benchmarks/bench_startup.py --frozen [dist/LabGPU/labgpu] [--runs N]

1. Process start → first window shown, LabGPU vs a bare PySide6 QMainWindow, measured the same
   way: wall clock before spawning the process, and the epoch the process prints right after its
   window is shown (LabGPU: env LABGPU_STARTUP_PROBE=1 prints "LABGPU_SHOWN <epoch>" and quits).
   Median of N runs each, after one warm-up run each (so both read the same disk cache, and Python's
   bytecode cache is written as an installed copy has it, even where PYTHONDONTWRITEBYTECODE is set).
2. Filter + sort over synthetic offers through the real OffersTableModel/OfferFilterProxyModel:
   ms per filter change and per sort change (goal < 50 ms).

   With --frozen: the frozen app (packaging/build.py's dist/LabGPU/labgpu, or the path given)
   instead of `python -m app`, against the same bare PySide6 window run from source — the ratio
   a student's installed copy has. The filter benchmark is skipped (it runs in-process).

3. Resident memory of the tray after a minute (``--tray-seconds``, default 60): ``python -m app --tray``
   (the tray alone, as autostart runs it; without a tray host it runs its cost monitor without the
   icon, which is what it does on this offscreen platform) and a bare PySide6 window kept open,
   started together with their own empty LABGPU_HOME; VmRSS of each process read from
   /proc/PID/status after that many seconds (Linux only; both are then stopped by their pid).
   The tray has by then done its first refresh cycles (its first cost and guard checks).

The last line is ``ratios: startup=<labgpu/bare> tray_rss=<tray/bare> filter_ms=<x>``
(``frozen_startup=<x>`` with --frozen).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BARE = r"""
import sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication(sys.argv)
w = QMainWindow()
w.setWindowTitle("bare")
w.resize(1280, 800)
w.show()
QTimer.singleShot(0, lambda: (print(f"LABGPU_SHOWN {time.time():.6f}", flush=True), app.quit()))
app.exec()
"""


def _time_once(cmd: list[str], env: dict[str, str], ready: list[float] | None = None) -> float:
    """Seconds from process start to the window shown; appends the time to "ready" (first page built,
    its catalog loaded) to `ready` when the program reports it."""
    t0 = time.time()
    out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    shown = None
    for line in out.stdout.splitlines():
        if line.startswith("LABGPU_SHOWN "):
            shown = float(line.split()[1]) - t0
        elif line.startswith("LABGPU_READY ") and ready is not None:
            ready.append(float(line.split()[1]) - t0)
    if shown is not None:
        return shown
    raise RuntimeError(f"{cmd[:3]} printed no LABGPU_SHOWN line (rc {out.returncode}):\n{out.stderr[-2000:]}")


def bench_startup(runs: int, app_cmd: list[str] | None = None) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="labgpu-bench-") as home:
        env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               "LABGPU_STARTUP_PROBE": "1", "LABGPU_HOME": home, "LANG": "C.UTF-8"}
        # An installed copy starts from compiled bytecode (pip writes it, the frozen app ships it): with
        # PYTHONDONTWRITEBYTECODE set (some sandboxes and CI images), every run would compile all of
        # LabGPU's modules again, which no student's start does. The warm-up run writes the cache.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        app_cmd = app_cmd or [sys.executable, "-m", "app", "--lang", "en"]
        bare_cmd = [sys.executable, "-c", BARE]
        _time_once(app_cmd, env)  # warm-up: first run writes settings, fills caches
        _time_once(bare_cmd, env)
        app_t, bare_t, ready_t = [], [], []
        for _ in range(runs):  # interleaved so load changes on the machine hit both alike
            app_t.append(_time_once(app_cmd, env, ready_t))
            bare_t.append(_time_once(bare_cmd, env))
    a, b = statistics.median(app_t), statistics.median(bare_t)
    print(f"startup LabGPU: median {a * 1000:.0f} ms  (runs: {', '.join(f'{t * 1000:.0f}' for t in app_t)})")
    print(f"startup bare  : median {b * 1000:.0f} ms  (runs: {', '.join(f'{t * 1000:.0f}' for t in bare_t)})")
    if ready_t:
        r = statistics.median(ready_t)
        print(f"LabGPU ready (offers table filled): median {r * 1000:.0f} ms = {r / b:.2f} x bare window shown")
    return a, b


BARE_STAY = "\n".join(ln for ln in BARE.splitlines() if "app.quit" not in ln)  # stays open


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def bench_tray_rss(seconds: float) -> float:
    """RSS of ``python -m app --tray`` / RSS of a bare PySide6 window, both after ``seconds``."""
    assert "app.quit" not in BARE_STAY
    with tempfile.TemporaryDirectory(prefix="labgpu-bench-tray-") as home:
        env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen"),
               "LABGPU_HOME": home, "LANG": "C.UTF-8"}
        env.pop("LABGPU_STARTUP_PROBE", None)
        procs = [
            subprocess.Popen([sys.executable, "-m", "app", "--tray", "--lang", "en"], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
            subprocess.Popen([sys.executable, "-c", BARE_STAY], cwd=ROOT, env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
        ]
        try:
            time.sleep(seconds)
            dead = [p.args for p in procs if p.poll() is not None]
            if dead:
                raise RuntimeError(f"exited before {seconds:.0f} s: {dead}")
            tray, bare = (_rss_kib(p.pid) for p in procs)
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
    print(f"tray after {seconds:.0f} s: RSS {tray / 1024:.1f} MiB; bare PySide6 window: {bare / 1024:.1f} MiB "
          f"= {tray / bare:.2f} x")
    return tray / bare


def synthetic_offers(n: int) -> tuple[list, dict]:
    from app.core.catalog import load_catalog

    load = load_catalog(include_live=False)
    rnd = random.Random(42)
    base = load.offers
    out = []
    for i in range(n):
        o = base[i % len(base)]
        factor = rnd.uniform(0.6, 1.6)
        unknown = o.price_on_demand is None or rnd.random() < 0.1
        out.append(replace(
            o, region=f"{o.region}-{i // len(base)}", instance_type=f"{o.instance_type}#{i}",
            price_on_demand=None if unknown else o.price_on_demand * factor,
            price_spot=None if o.price_spot is None else o.price_spot * factor,
        ))
    return out, load.gpus


def bench_filter(n: int) -> tuple[float, float, float]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication, QTableView

    from app.core.offerquery import OfferFilter
    from app.ui.offers.model import OfferFilterProxyModel, OffersTableModel

    app = QApplication.instance() or QApplication([])
    offers, gpus = synthetic_offers(n)
    model = OffersTableModel()
    t0 = time.perf_counter()
    model.set_offers(offers, gpus)
    load_ms = (time.perf_counter() - t0) * 1000
    proxy = OfferFilterProxyModel()
    proxy.setSourceModel(model)
    view = QTableView()  # a real view attached, as on the page
    view.setModel(proxy)
    view.resize(1100, 500)
    view.show()
    app.processEvents()
    filters = [
        OfferFilter(gpu_models=("A100",)),
        OfferFilter(gpu_models=("A100",), providers=("aws", "azure", "gcp")),
        OfferFilter(min_vram=40),
        OfferFilter(max_price=20.0, currency="CNY"),
        OfferFilter(spot_only=True, max_price=5.0, currency="USD"),
        OfferFilter(region="us-east"),
        OfferFilter(text="h100"),
        OfferFilter(gpu_count=8, min_vram=80),
        OfferFilter(),
    ]
    filter_times = []
    for _ in range(3):
        for f in filters:
            t = time.perf_counter()
            proxy.set_filter(f)
            app.processEvents()
            filter_times.append((time.perf_counter() - t) * 1000)
    sort_times = []
    for key, desc in (("on_demand", False), ("on_demand", True), ("per_tflop", False), ("vram", True),
                      ("provider", False), ("age", False), ("per_tflop", False)):
        t = time.perf_counter()
        model.sort_by(key, desc)
        app.processEvents()
        sort_times.append((time.perf_counter() - t) * 1000)
    view.close()
    f_med, f_max = statistics.median(filter_times), max(filter_times)
    s_med = statistics.median(sort_times)
    print(f"offers: {n}; model load {load_ms:.0f} ms")
    print(f"filter change: median {f_med:.1f} ms, max {f_max:.1f} ms over {len(filter_times)} changes")
    print(f"sort change  : median {s_med:.1f} ms, max {max(sort_times):.1f} ms over {len(sort_times)} sorts")
    return f_med, f_max, s_med


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--offers", type=int, default=10_000)
    ap.add_argument("--tray-seconds", type=float, default=60.0, help="tray memory sampled after this (0: skip)")
    ap.add_argument("--frozen", nargs="?", const=str(ROOT / "dist" / "LabGPU" / "labgpu"), default=None,
                    metavar="EXE", help="time the frozen app (default dist/LabGPU/labgpu)")
    args = ap.parse_args()
    if args.frozen:
        exe = Path(args.frozen)
        if not exe.is_file():
            print(f"{exe} does not exist: build it with python3 packaging/build.py --bundle-only", file=sys.stderr)
            return 2
        a, b = bench_startup(args.runs, [str(exe), "--lang", "en"])
        print(f"goal: frozen startup ratio <= 1.5 ({'met' if a / b <= 1.5 else 'NOT met'})")
        print(f"ratios: frozen_startup={a / b:.2f}")
        return 0
    a, b = bench_startup(args.runs)
    tray = bench_tray_rss(args.tray_seconds) if args.tray_seconds > 0 else None
    f_med, f_max, s_med = bench_filter(args.offers)
    print(f"goal: startup ratio <= 1.5 ({'met' if a / b <= 1.5 else 'NOT met'}); "
          f"filter < 50 ms per change ({'met' if f_med < 50 else 'NOT met'}; max {f_max:.1f} ms)"
          + ("" if tray is None else f"; tray memory ratio <= 1.5 ({'met' if tray <= 1.5 else 'NOT met'})"))
    tray_txt = "" if tray is None else f" tray_rss={tray:.2f}"
    print(f"ratios: startup={a / b:.2f}{tray_txt} filter_ms={f_med:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
