"""Tables never cut a number, an id or an IP (issue 26, item 1), in the real main window at 1024×640 (and
1280×800 where that is the case that went wrong), in English and Chinese, with realistic data:

- the GPU monitor's readings (utilization, memory, temperature, power) are whole and inside the table with two
  hosts side by side; the GPU's model, free text, may be elided and is whole in its tooltip;
- the Hosts page shows an Alibaba instance id, an address and a host key (SHA256) whole;
- the Jobs page shows the host (an instance id) whole; the job's name and last line give up width instead;
- the Sync page's history shows a run's details ("209 unchanged, 0 deleted, 0 conflicts") whole;
- the advisor's reasons are never cut at the bottom of their cell after the window is made narrower;
- the Settings page fits a 1280×800 window in Chinese without a scroll bar.
"""

from __future__ import annotations

import base64
import hashlib
import time

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics

NARROW = (1024, 640)
WIDE = (1280, 800)
LANGUAGES = ("en", "zh_CN")
INSTANCE_ID = "i-bp902ba3cda188380159"  # an Alibaba Cloud instance id, as long as they come
FINGERPRINT = "SHA256:" + base64.b64encode(hashlib.sha256(b"a lab server's host key").digest()).decode().rstrip("=")


def _settle(qtbot, ctx):
    qtbot.waitUntil(ctx.runner.settled, timeout=60_000)
    for _ in range(3):
        qtbot.wait(20)


def _whole(table, col: int, text: str) -> bool:
    """The text fits the room Qt draws it in (the column less the style's text margins and the grid line):
    it is drawn whole, not elided."""
    from PySide6.QtWidgets import QStyle

    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
    room = table.columnWidth(col) - 2 * margin - (1 if table.showGrid() else 0)
    return QFontMetrics(table.font()).horizontalAdvance(text) <= room


def _inside(table, col: int) -> bool:
    """The column ends inside the table's visible width: nothing of it lies past the edge."""
    header = table.horizontalHeader()
    x = header.sectionViewportPosition(col)
    return x >= 0 and x + header.sectionSize(col) <= table.viewport().width()


# -- GPU monitor ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_gpu_readings_are_whole_with_two_hosts_in_a_1024_window(qtbot, window_in, language):
    from tests.ui.monitor_data import NAMES, FeedSource

    ctx, window = window_in(language, NARROW)
    src = FeedSource()
    now = time.time()
    src.load("lab-a100", now, 600, gpus=4)
    src.load("ins-33e798a0", now, 600, gpus=1)
    ctx.services.monitor = src
    window.show_page("monitor", {"watch": "lab-a100"})
    window.show_page("monitor", {"watch": "ins-33e798a0"})
    page = window.pages["monitor"]
    page.redraw()
    _settle(qtbot, ctx)
    for host in ("lab-a100", "ins-33e798a0"):
        table = page.panels[host].gpu_table
        assert table.rowCount() >= 1
        for col in range(1, 5):  # utilization, memory, temperature, power
            assert _inside(table, col), (host, col, table.columnWidth(col))
            for row in range(table.rowCount()):
                text = table.item(row, col).text()
                assert any(ch.isdigit() for ch in text), text
                assert _whole(table, col, text), (host, text, table.columnWidth(col))
        assert NAMES in table.item(0, 0).toolTip()  # the model, if elided, is whole in the tooltip


# -- Hosts ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_hosts_page_shows_ids_addresses_and_host_keys_whole(qtbot, window_in, language, monkeypatch):
    from app.core.hosts import HostRecord

    ctx, window = window_in(language, NARROW)
    window.show_page("hosts")
    page = window.pages["hosts"]
    hosts = [
        (HostRecord(name="lab-a100", hostname="gpu.cs.example.edu", user="student", port=2222,
                    via_vpn="campus-vpn"), "saved"),
        (HostRecord(name=INSTANCE_ID, hostname="47.98.0.96", user="root", instance_id=INSTANCE_ID,
                    provider="alibaba"), "instance"),
        (HostRecord(name="ins-33e798a0", hostname="203.0.113.155", user="ubuntu", instance_id="ins-33e798a0",
                    provider="tencent"), "instance"),
    ]
    monkeypatch.setattr(page.service, "hosts", lambda: hosts)
    monkeypatch.setattr(page.service, "known_fingerprint", lambda rec: FINGERPRINT if rec.name == "lab-a100" else "")
    page.refresh()
    _settle(qtbot, ctx)
    table, model = page.table, page.model
    assert model.rowCount() == 3
    assert not table.horizontalScrollBar().isVisible()
    cols = {key: model.COLUMNS.index(key) for key in ("name", "address", "fingerprint")}
    for col in cols.values():
        assert _inside(table, col), col
    for row in range(model.rowCount()):
        for key, col in cols.items():
            text = model.index(row, col).data()
            assert _whole(table, col, text), (key, text, table.columnWidth(col))
    row = model.row_of(INSTANCE_ID)
    assert model.index(row, cols["name"]).data() == INSTANCE_ID
    assert model.index(model.row_of("lab-a100"), cols["fingerprint"]).data() == FINGERPRINT
    assert model.index(model.row_of("lab-a100"), cols["address"]).data() == "gpu.cs.example.edu:2222"
    # the user and the VPN, free text under the name and the address, are whole in the tooltips
    assert "student" in model.index(model.row_of("lab-a100"), cols["name"]).data(Qt.ItemDataRole.ToolTipRole)
    assert "campus-vpn" in model.index(model.row_of("lab-a100"), cols["address"]).data(Qt.ItemDataRole.ToolTipRole)


# -- Jobs -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_jobs_page_shows_the_host_whole_and_elides_the_name_instead(qtbot, window_in, language):
    from app.core.jobs import JobRecord, JobStore
    from app.core.vocab import JobState

    ctx, window = window_in(language, NARROW)
    name = "resnet50-imagenet-baseline-lr3e-4-bs256-cosine"
    JobStore(ctx.store).save(JobRecord(
        id="00000000000000cc", host=INSTANCE_ID, name=name, state=JobState.EXITED, exit_code=0, runtime_s=7260,
        step=40_000, total=40_000, steps_per_s=1.78,
        last_line="epoch 40/40  step 40000/40000  loss 1.042  lr 3.2e-04  val_acc 0.7612  val_loss 1.018"))
    window.show_page("jobs")
    page = window.pages["jobs"]
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=10_000)
    _settle(qtbot, ctx)
    table = page.table
    assert table.item(0, 1).text() == INSTANCE_ID
    assert _inside(table, 1) and _whole(table, 1, INSTANCE_ID), table.columnWidth(1)
    for col in range(2, 8):  # state, runtime, step, steps/s, ETA, cost: numbers whole too
        assert _whole(table, col, table.item(0, col).text()), (col, table.item(0, col).text())
    assert not _whole(table, 0, name)  # the free text gave up the width
    assert table.item(0, 0).toolTip() == name


# -- Sync history ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sync_history_shows_a_run_s_details_whole(qtbot, window_in, language):
    from app.core.syncmodel import UP
    from app.core.syncpairs import SyncRun

    ctx, window = window_in(language, NARROW)
    window.show_page("sync")
    page = window.pages["sync"]
    _settle(qtbot, ctx)
    now = time.time()
    runs = [SyncRun(id=i, pair_id=1, host="lab-a100", local_path="~/thesis/code", remote_path="~/code/thesis",
                    direction=UP, started_at=now - 3600 * i, seconds=12.4, files=1234, bytes=98_304_000 * i,
                    skipped=209_315, deleted=12, conflicts=0, result="ok", message="") for i in range(1, 4)]
    page.history_table.show_runs(runs)
    qtbot.wait(20)
    table = page.history_table
    for col in range(table.columnCount()):
        assert _inside(table, col), col
        for row in range(table.rowCount()):
            text = table.item(row, col).text()
            assert _whole(table, col, text), (col, text, table.columnWidth(col))
    assert "209315" in table.item(0, 6).text()


# -- Advisor --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_advisor_s_reasons_are_not_cut_after_the_window_narrows(qtbot, window_in, language):
    from app.ui.advisor.page import RESULT_INDEX

    ctx, window = window_in(language, WIDE)
    window.show_page("advisor")
    page = window.pages["advisor"]
    qtbot.waitUntil(lambda: page.offers is not None, timeout=20_000)
    page.go_to(RESULT_INDEX)
    _settle(qtbot, ctx)
    table = page.ranked_table
    wide = table.columnWidth(4)
    window.resize(*NARROW)
    qtbot.waitUntil(lambda: table.columnWidth(4) < wide, timeout=5000)
    _settle(qtbot, ctx)
    fm = QFontMetrics(table.font())
    room = table.columnWidth(4) - 6
    for row in range(table.rowCount()):
        why = table.item(row, 4).text()
        need = fm.boundingRect(QRect(0, 0, room, 100_000), int(Qt.TextFlag.TextWordWrap), why)
        assert need.height() <= table.rowHeight(row) + 2, (row, need.height(), table.rowHeight(row), why)


# -- Settings -------------------------------------------------------------------------------------------------
def test_the_chinese_settings_page_fits_1280x800_without_scrolling(qtbot, window_in):
    from PySide6.QtWidgets import QScrollArea

    ctx, window = window_in("zh_CN", WIDE)
    window.show_page("settings")
    page = window.pages["settings"]
    _settle(qtbot, ctx)
    scroll = page.findChild(QScrollArea)
    assert scroll is not None
    assert not scroll.verticalScrollBar().isVisible(), scroll.verticalScrollBar().maximum()
