"""The GPU monitor page, fed from a real GpuHistory/MinuteArchive and synthetic nvidia-smi samples.

Samples are delivered from a worker thread as the MonitorHub does; the page must marshal them
onto the GUI thread. No sleeps: waitSignal/waitUntil on what the user would see.
"""

from __future__ import annotations

import csv
import math
import threading
import time
from datetime import datetime, timezone

import numpy as np
import pytest

from app.core.gpumon import GpuReading, HostSample
from tests.ui.monitor_data import FeedSource, sample

T_NOW = 1_790_000_000.0  # a fixed "now" (fake clock)


class Clock:
    def __init__(self, t: float = T_NOW) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def ctx(qtbot, labgpu_home):
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


@pytest.fixture
def archive(ctx):
    from app.core.gpuhistory import MinuteArchive

    return MinuteArchive(ctx.store)


def _page(qtbot, ctx, src, clock, hosts=("lab-a",)):
    from app.ui.monitor.page import MonitorPage

    page = MonitorPage(ctx, hub=src, clock=clock, autostart=False)
    qtbot.addWidget(page)
    page.resize(1400, 900)
    page.show()
    for h in hosts:
        page.watch(h, remember=False)
    page.rebuild()
    return page


def _deliver_from_thread(src: FeedSource, samples: list[HostSample]) -> None:
    t = threading.Thread(target=lambda: [src.feed(s) for s in samples], name="fake-hub")
    t.start()
    t.join(10)


def _shown(page, table, row, col, text):
    """Redraw (as the page's 1 s timer does) and say whether the cell reads `text`."""
    page.redraw()
    return _cells(table, row)[col] == text


def _cells(table, row):
    return [table.item(row, c).text() if table.item(row, c) else "" for c in range(table.columnCount())]


def test_history_and_live_samples_reach_the_plots_from_a_worker_thread(qtbot, ctx):
    clock = Clock()
    src = FeedSource()
    src.load("lab-a", T_NOW, 3600)
    page = _page(qtbot, ctx, src, clock)
    panel = page.panels["lab-a"]
    assert panel.gpu_table.rowCount() == 8
    assert len(panel.plots.curves) == 8 * 4
    x, y = panel.plots.curves[("GPU-lab-a-00", "utilization_gpu")].getData()
    # 1 h of history, peak-binned: far fewer points than samples, both ends covered
    assert 0 < len(x) < 3600
    # the x range is the live window: an hour ending at most 1/20 of it after now
    x0, x1 = page.view_range()
    assert T_NOW <= x1 <= T_NOW + 180 and x1 - x0 == pytest.approx(3600, abs=1)
    bin_s = panel.plots.feeds[("GPU-lab-a-00", "utilization_gpu")].bin_s
    assert x[0] <= x0 + bin_s and x[-1] >= T_NOW - bin_s
    assert np.nanmax(y) <= 100 and np.nanmin(y) >= 0

    clock.t += 1
    spike = sample("lab-a", clock.t, util=100.0)
    _deliver_from_thread(src, [spike])
    qtbot.waitUntil(lambda: _shown(page, panel.gpu_table, 0, 1, "100 %"), timeout=5000)
    with qtbot.waitSignal(page.redrawn, timeout=5000):
        page.redraw()
    x, y = panel.plots.curves[("GPU-lab-a-00", "utilization_gpu")].getData()
    assert x[-1] >= clock.t - 200 and y[-1] == 100.0  # the newest bin's peak is the spike
    assert page.redraws >= 1


def test_unknown_values_read_na_never_zero_and_gaps_are_nan(qtbot, ctx):
    clock = Clock()
    src = FeedSource()
    src.load("lab-a", T_NOW, 600, gpus=2)
    page = _page(qtbot, ctx, src, clock)
    panel = page.panels["lab-a"]
    when = datetime.fromtimestamp(T_NOW + 1, timezone.utc)
    mig = GpuReading(uuid="GPU-lab-a-00", index=0, name="NVIDIA A100 (MIG)", utilization_gpu=None,
                     memory_used_mib=None, memory_total_mib=81920, temperature_c=None, power_w=None,
                     power_limit_w=None, status="ok")
    lost = GpuReading(uuid="GPU-lab-a-01", index=1, name=None, utilization_gpu=None, memory_used_mib=None,
                      memory_total_mib=None, temperature_c=None, power_w=None, power_limit_w=None,
                      status="GPU is lost")
    clock.t += 1
    _deliver_from_thread(src, [HostSample("lab-a", when, None, (mig, lost), ())])
    qtbot.waitUntil(lambda: _shown(page, panel.gpu_table, 1, 5, "GPU is lost"), timeout=5000)
    row0, row1 = _cells(panel.gpu_table, 0), _cells(panel.gpu_table, 1)
    assert row0[1] == "N/A" and row0[3] == "N/A" and row0[4] == "N/A"
    assert row0[2] == "N/A / 80.0"
    assert row1[1:5] == ["N/A"] * 4
    assert not any(c.strip() in ("0", "0 %", "0.0") for c in row0 + row1)
    # a host error: its values are no longer true
    clock.t += 1
    _deliver_from_thread(src, [sample("lab-a", clock.t, error="No devices were found — check the instance type")])
    qtbot.waitUntil(lambda: panel.error_label.isVisible(), timeout=5000)
    assert _cells(panel.gpu_table, 0)[1] == "N/A"
    assert _cells(panel.gpu_table, 0)[5] == "no data"
    page.redraw()
    _x, y = panel.plots.curves[("GPU-lab-a-00", "utilization_gpu")].getData()
    assert math.isnan(y[-1]) and not math.isnan(y[-2])  # one NaN ends the line: a gap (connect="finite")


def test_a_failing_host_shows_nvidia_smis_message_while_the_other_keeps_updating(qtbot, ctx):
    clock = Clock()
    src = FeedSource()
    for h in ("lab-a", "lab-b"):
        src.load(h, T_NOW, 300)
    page = _page(qtbot, ctx, src, clock, hosts=("lab-a", "lab-b"))
    message = ("NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
               "that the latest NVIDIA driver is installed and running. — reboot the instance")
    for k in range(3):
        clock.t += 1
        _deliver_from_thread(src, [sample("lab-a", clock.t, error=message),
                                   sample("lab-b", clock.t, util=float(50 + k))])
    a, b = page.panels["lab-a"], page.panels["lab-b"]
    qtbot.waitUntil(lambda: _shown(page, b.gpu_table, 0, 1, "52 %"), timeout=5000)
    assert a.error_label.isVisible()
    assert "couldn't communicate with the NVIDIA driver" in a.error_label.text()
    assert "reboot the instance" in a.error_label.text()
    assert not b.error_label.isVisible()
    src.state["lab-b"] = "streaming"
    page.redraw()
    assert "error" in a.title.text() and "live" in b.title.text()
    # the host recovers: the banner goes
    clock.t += 1
    _deliver_from_thread(src, [sample("lab-a", clock.t)])
    qtbot.waitUntil(lambda: (page.redraw(), not a.error_label.isVisible())[1], timeout=5000)


def test_a_broken_sample_is_logged_not_raised(qtbot, ctx, caplog):
    clock = Clock()
    src = FeedSource()
    src.load("lab-a", T_NOW, 60)
    page = _page(qtbot, ctx, src, clock)

    class Broken:
        host = "lab-a"
        error = None
        gpus = property(lambda self: 1 / 0)

    page.bridge.deliver(Broken())
    qtbot.waitUntil(lambda: "could not show a sample" in caplog.text, timeout=5000)
    clock.t += 1
    _deliver_from_thread(src, [sample("lab-a", clock.t, util=77.0)])
    qtbot.waitUntil(lambda: _shown(page, page.panels["lab-a"].gpu_table, 0, 1, "77 %"), timeout=5000)


def test_zoom_leaves_live_pause_freezes_and_back_to_live_follows(qtbot, ctx):
    clock = Clock()
    src = FeedSource()
    src.load("lab-a", T_NOW, 3600, gpus=1)
    page = _page(qtbot, ctx, src, clock)
    plots = page.panels["lab-a"].plots
    key = ("GPU-lab-a-00", "utilization_gpu")
    # the user zooms into ten minutes half an hour ago (as a mouse drag does)
    plots.main_plot().setXRange(T_NOW - 1800, T_NOW - 1200, padding=0)
    assert not page.following and page.live_button.isVisible()
    with qtbot.waitSignal(page.rebuild_timer.timeout, timeout=5000):
        pass
    x, _y = plots.curves[key].getData()
    f = plots.feeds[key]
    assert f.bin_s <= 3  # finer bins for the narrower range
    assert x[0] >= T_NOW - 1800 - f.bin_s
    # live updates do not move the chosen range
    clock.t += 60
    _deliver_from_thread(src, [sample("lab-a", clock.t, gpus=1)])
    qtbot.waitUntil(lambda: bool(page.dirty), timeout=5000)
    page.redraw()
    assert page.view_range() == pytest.approx((T_NOW - 1800, T_NOW - 1200), abs=1)
    page.live_button.click()
    assert page.following and not page.live_button.isVisible()
    assert page.view_range()[1] >= clock.t

    page.pause_button.click()
    assert page.paused and page.pause_button.text() == "Resume"
    before = plots.curves[key].getData()[1].copy()
    clock.t += 1
    _deliver_from_thread(src, [sample("lab-a", clock.t, gpus=1, util=100.0)])
    qtbot.waitUntil(lambda: bool(page.dirty), timeout=5000)
    page.redraw()
    assert np.array_equal(plots.curves[key].getData()[1], before, equal_nan=True)  # frozen
    page.pause_button.click()
    assert not page.paused
    assert plots.curves[key].getData()[1][-1] == 100.0


def test_older_history_comes_from_the_minute_archive(qtbot, ctx, archive):
    clock = Clock()
    src = FeedSource(archive=archive, capacity_s=600)  # the ring holds only 10 minutes
    t_old = T_NOW - 3 * 86_400
    for k in range(0, 3600, 1):  # an hour three days ago, archived as minute means
        archive.add(sample("lab-a", t_old + k, gpus=1, util=40.0))
    archive.flush()
    src.load("lab-a", T_NOW, 600, gpus=1)
    page = _page(qtbot, ctx, src, clock)
    page.range_combo.setCurrentIndex(page.range_combo.findData(7 * 86_400))
    x, y = page.panels["lab-a"].plots.curves[("GPU-lab-a-00", "utilization_gpu")].getData()
    old = (x >= t_old) & (x <= t_old + 3600)
    assert old.any() and np.nanmax(y[old]) == pytest.approx(40.0)
    recent = x >= T_NOW - 600
    assert recent.any()


def test_csv_export_of_a_chosen_range(qtbot, ctx, tmp_path):
    clock = Clock()
    src = FeedSource()
    src.load("lab-a", T_NOW, 600, gpus=2)
    page = _page(qtbot, ctx, src, clock)
    dialog = page.open_export()
    qtbot.addWidget(dialog)
    from PySide6.QtCore import QDateTime, QTimeZone

    dialog.from_edit.setDateTime(QDateTime.fromSecsSinceEpoch(int(T_NOW - 99), QTimeZone.systemTimeZone()))
    dialog.to_edit.setDateTime(QDateTime.fromSecsSinceEpoch(int(T_NOW), QTimeZone.systemTimeZone()))
    out = tmp_path / "gpus.csv"
    dialog.path_edit.setText(str(out))
    with qtbot.waitSignal(dialog.exported, timeout=10000) as blocker:
        dialog.export_button.click()
    assert blocker.args == [str(out), 200]  # 100 seconds × 2 GPUs
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert len(rows) == 200
    assert {r["gpu_uuid"] for r in rows} == {"GPU-lab-a-00", "GPU-lab-a-01"}
    times = sorted({r["time"] for r in rows})
    assert times[0] == datetime.fromtimestamp(T_NOW - 99, timezone.utc).isoformat()
    assert "200 rows written" in dialog.result_label.text()
    # a range that ends before it starts is refused with a sentence
    dialog.to_edit.setDateTime(QDateTime.fromSecsSinceEpoch(int(T_NOW - 500), QTimeZone.systemTimeZone()))
    dialog.export_button.click()
    assert "end must be after the start" in dialog.result_label.text()


def test_tuning_hint_shown_once_per_run_and_dismissible(qtbot, ctx):
    from app.ui.monitor import hints as page_mod

    page_mod.shown_hints.clear()
    clock = Clock()
    src = FeedSource()
    page = _page(qtbot, ctx, src, clock)
    samples = [sample("lab-a", T_NOW + k, gpus=2, util=35.0) for k in range(0, 900)]
    _deliver_from_thread(src, samples)
    qtbot.waitUntil(lambda: len(page.recent.get("lab-a", ())) == 900, timeout=10000)
    clock.t = T_NOW + 900
    with qtbot.waitSignal(page.hints_changed, timeout=5000):
        page.redraw()
    assert page.hints_box.isVisible()
    assert [h.id for _host, h in page.hints] == ["low-utilization"]
    row = page.hints_box.findChild(object, "hint:lab-a:low-utilization")
    from PySide6.QtWidgets import QLabel

    assert "batch" in row.findChildren(QLabel)[0].text()
    from PySide6.QtWidgets import QPushButton

    row.findChild(QPushButton, "dismissHint").click()
    assert page.hints == [] and not page.hints_box.isVisible()
    clock.t += 120
    page.redraw()  # checked again: the same hint is not shown twice in one run
    assert page.hints == []


def test_monitor_page_is_in_the_window_and_remembers_hosts(qtbot, app_window):
    ctx, window = app_window
    assert "monitor" in window.page_ids()
    src = FeedSource()
    src.load("lab-a", time.time(), 30, gpus=1)
    ctx.services.monitor = src
    window.show_page("monitor", {"watch": "lab-a"})
    page = window.pages["monitor"]
    assert "lab-a" in page.panels
    assert ctx.settings.extra["monitorui"]["hosts"] == ["lab-a"]
    assert "lab-a" in src.watching
