"""What a student notices on day one (issue 26, item 1), in the real main window at 1280×800 and 1024×640, in
English and Chinese, with realistic data:

- the offers table (the bundled catalog) never cuts or elides a price: every price cell's text fits its
  column, the columns shown end inside the table (no sideways scrolling), and the prices stand next to the GPU;
- the instances table never elides an instance id or a public IP (real-looking ids and IPs, a long account
  name, the longest state titles and a guard badge naming every guard);
- the English launch dialog has no sideways scroll bar and its Browse… button shows its whole text;
- the advisor's result lists the few best offers, each with its reasons;
- the monitor's value axes label fewer values when the plots are short.

The screenshots go to a temporary folder unless LABGPU_SHOTS_DIR names one (then <dir>/<name>-<lang>-<W>x<H>.png):

    LABGPU_SHOTS_DIR=/work/shots26/tables .venv/bin/pytest -q tests/ui/test_day_one_tables.py
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from PySide6.QtGui import QFont, QFontMetrics

SIZES = ((1280, 800), (1024, 640))
LANGUAGES = ("en", "zh_CN")


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return Path(os.environ.get("LABGPU_SHOTS_DIR", "") or tmp_path_factory.mktemp("shots"))


def _shot(shots: Path, widget, name: str, lang: str, size: tuple[int, int]) -> Path:
    shots.mkdir(parents=True, exist_ok=True)
    path = shots / f"{name}-{lang}-{size[0]}x{size[1]}.png"
    assert widget.grab().save(str(path)), path
    return path


def _settle(qtbot, ctx, window):
    qtbot.waitUntil(ctx.runner.settled, timeout=60_000)
    for _ in range(3):
        qtbot.wait(20)
    window.repaint()


def _fits(table, row: int, col: int, text: str, font: QFont | None = None) -> bool:
    """The text as drawn in the cell is the whole text: its width and the cell's margins fit the column."""
    from app.ui.shared.fit_columns import cell_margin

    fm = QFontMetrics(font) if font is not None else table.fontMetrics()
    return fm.horizontalAdvance(text) + cell_margin(table) <= table.columnWidth(col)


def _hidden(page) -> list[str]:
    """The offer columns the window's width leaves out (their fields are in the details pane)."""
    header = page.table.horizontalHeader()
    return [c.key for i, c in enumerate(page.model.columns()) if header.isSectionHidden(i)]


def _inside(table, col: int) -> bool:
    header = table.horizontalHeader()
    x = header.sectionViewportPosition(col)
    return x >= 0 and x + header.sectionSize(col) <= table.viewport().width()


# -- offers ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x640"])
def test_offer_prices_are_whole_and_next_to_the_gpu(shots, qtbot, window_in, language, size):
    from PySide6.QtCore import Qt

    from app.ui.offers.model import ELIDED_KEYS, MONEY_KEYS

    ctx, window = window_in(language, size)
    window.show_page("offers")
    page = window.pages["offers"]
    qtbot.waitUntil(lambda: page.load is not None and page.proxy.rowCount() > 40, timeout=20_000)
    _settle(qtbot, ctx, window)
    table, model, header = page.table, page.model, page.table.horizontalHeader()
    keys = [c.key for c in model.columns()]
    _shot(shots, window, "offers", language, size)

    assert not table.horizontalScrollBar().isVisible()  # nothing is cut at the table's right edge
    shown = [k for i, k in enumerate(keys) if not header.isSectionHidden(i)]
    for key in ("gpu", "count", "on_demand", "spot", "per_tflop"):  # the prices a student compares
        assert key in shown, (key, shown)
    by_place = sorted(shown, key=lambda k: header.visualIndex(keys.index(k)))
    assert by_place.index("on_demand") == by_place.index("gpu") + 2  # GPU, GPUs, then the prices
    problems = []
    for key in shown:
        col = keys.index(key)
        if not _inside(table, col):
            problems.append(f"column {key} ends outside the table")
        if key in ELIDED_KEYS:
            continue
        for row in range(page.proxy.rowCount()):
            index = page.proxy.index(row, col)
            text = str(index.data() or "")
            if not _fits(table, row, col, text, index.data(Qt.ItemDataRole.FontRole)):
                problems.append(f"row {row} {key}: {text!r} is cut in a {table.columnWidth(col)} px column")
    assert not problems, "\n".join(problems[:20])
    # every price of the catalog is a number with its currency, or says it is unknown — none reads "¥30.1"
    on_demand = keys.index("on_demand")
    texts = {str(page.proxy.index(r, on_demand).data()) for r in range(page.proxy.rowCount())}
    assert any(t.startswith("¥") and t[-3] == "." for t in texts), texts
    # a free-text cell narrowed by the window keeps its whole text in the tooltip
    for key in ELIDED_KEYS & set(shown):
        index = page.proxy.index(0, keys.index(key))
        assert index.data(Qt.ItemDataRole.ToolTipRole).startswith(str(index.data())), key
    assert set(keys) >= MONEY_KEYS
    # a column the width leaves out is one of lesser use, never a price a student compares first
    assert not {"on_demand", "spot", "per_tflop"} & set(_hidden(page))


def test_a_wider_window_shows_more_offer_columns_and_usd_prices_stay_whole(qtbot, window_in):
    ctx, window = window_in("en", (1024, 640))
    window.show_page("offers")
    page = window.pages["offers"]
    qtbot.waitUntil(lambda: page.load is not None and page.proxy.rowCount() > 40, timeout=20_000)
    _settle(qtbot, ctx, window)
    narrow = _hidden(page)
    window.resize(1600, 900)
    qtbot.waitUntil(lambda: len(_hidden(page)) < len(narrow), timeout=10_000)
    page.set_currency("USD")
    _settle(qtbot, ctx, window)
    keys = [c.key for c in page.model.columns()]
    for key in ("on_demand", "spot", "per_gpu", "per_tflop"):
        col = keys.index(key)
        for row in range(page.proxy.rowCount()):
            text = str(page.proxy.index(row, col).data() or "")
            assert _fits(page.table, row, col, text), (key, text)
    assert not page.table.horizontalScrollBar().isVisible()


# -- instances ------------------------------------------------------------------------------------------------
def _seed_instances(ctx) -> list[str]:
    from app.core.guards import GuardConfig, GuardStore
    from app.core.instances import Ledger
    from app.core.models import Instance

    now = datetime.now(timezone.utc)
    rows = [
        Instance("ins-0a1b2c3d", "lab-shanghai-research-group", "tencent", "ap-shanghai", "ap-shanghai-5",
                 "GN10Xp.2XLARGE40", "running", True, "203.0.113.254", "10.0.12.34", 8.62, "CNY",
                 now - timedelta(hours=27, minutes=14), name="llama-finetune-run-3"),
        Instance("i-0123456789abcdef0", "lab-aws", "aws", "us-east-1", "us-east-1a", "g5.xlarge", "running", False,
                 "198.51.100.123", "172.31.45.201", 1.006, "USD", now - timedelta(minutes=42)),
        Instance("i-bp1g6zv0ce8oh2l4xmqv", "lab-ali", "alibaba", "cn-hangzhou", "cn-hangzhou-i",
                 "ecs.gn7i-c8g1.2xlarge", "stopped_billing", False, "203.0.113.101", "172.16.8.9", 11.5, "CNY",
                 now - timedelta(days=3), raw_state="Stopped/KeepCharging"),
    ]
    ledger = Ledger(ctx.store)
    for inst in rows:
        ledger.observe(inst)
    GuardStore(ctx.store).set("ins-0a1b2c3d", GuardConfig(on_idle="stop", budget=300, max_hours=12,
                                                          stop_on_process_exit="train.py", watchdog=True))
    return [r.id for r in rows]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x640"])
def test_instance_ids_ips_and_costs_are_never_elided(shots, qtbot, window_in, language, size):
    from app.ui.cloud.instances_table import COL_INSTANCE, COL_IP, FIELDS
    from tests.ui.instance_cells import cell_texts

    ctx, window = window_in(language, size)
    ids = _seed_instances(ctx)
    window.show_page("instances")
    page = window.pages["instances"]
    page.load_ledger()
    qtbot.waitUntil(lambda: page.table.rowCount() == len(ids), timeout=20_000)
    qtbot.waitUntil(lambda: all(cell_texts(page.table, r)["cost"] for r in range(page.table.rowCount())),
                    timeout=10_000)
    _settle(qtbot, ctx, window)
    _shot(shots, window, "instances", language, size)
    table = page.table
    assert not table.horizontalScrollBar().isVisible()
    for c in range(table.columnCount()):
        assert _inside(table, c), c
    seen = set()
    for row in range(table.rowCount()):
        cells = cell_texts(table, row)
        seen.add(cells["id"])
        assert cells["ip"].count(".") == 3
        for field in ("id", "ip", "private_ip", "state", "uptime", "price", "billing", "cost", "projected", "run"):
            col, _line = FIELDS[field]
            assert _fits(table, row, col, cells[field]), (field, cells[field], table.columnWidth(col))
        assert table.item(row, COL_INSTANCE).text() == cells["id"]
        assert table.item(row, COL_IP).text() == cells["ip"]
    assert seen == set(ids)
    # the free text a narrow window elides (the guard badge naming every guard) is whole in its tooltip
    guarded = next(r for r in range(table.rowCount()) if cell_texts(table, r)["id"] == "ins-0a1b2c3d")
    badge = cell_texts(table, guarded)["guards"]
    assert badge and table.item(guarded, FIELDS["guards"][0]).toolTip() == badge


# -- launch dialog --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x640"])
def test_the_english_launch_dialog_fits_without_a_sideways_scroll_bar(shots, qtbot, window_in, secret_service, size):
    from PySide6.QtWidgets import QScrollArea

    from app.core.accounts import Account, AccountBook, Credentials

    ctx, window = window_in("en", size)
    AccountBook(ctx.store).add(Account("lab-aws", "aws", "us-east-1", "http://127.0.0.1:9"),
                               Credentials("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"))
    window.show_page("offers")
    offers = window.pages["offers"]
    qtbot.waitUntil(lambda: offers.load is not None, timeout=20_000)
    offer = next(o for o in offers.model.offers if o.provider == "aws" and o.spot_available)
    window.show_page("instances")
    dialog = window.pages["instances"].open_launch(offer)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 1, timeout=10_000)
    form = dialog.form
    form.key_file_radio.setChecked(True)  # a long path of a key that is not there: the note names it twice
    form.key_path_edit.setText("/home/student/.ssh/keys-for-the-thesis-cluster/id_ed25519_gpu_lab_2026")
    form.spot_check.setChecked(True)
    form.recovery_editor.setChecked(True)
    _settle(qtbot, ctx, dialog)
    scroll = dialog.findChild(QScrollArea, "launchFormScroll")
    _shot(shots, dialog, "launch", "en", size)
    assert not scroll.horizontalScrollBar().isVisible()
    assert scroll.widget().width() <= scroll.viewport().width()
    browse = form.key_browse
    assert browse.isVisible()
    assert browse.fontMetrics().horizontalAdvance(browse.text()) + 8 <= browse.width()
    note = form.key_note
    assert "keys-for-the-thesis-cluster" in note.text()
    assert note.height() >= note.heightForWidth(note.width())  # every wrapped line of the note is shown


# -- advisor --------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x640"])
def test_the_advisor_lists_the_best_few_offers_with_reasons(shots, qtbot, window_in, language, size):
    from app.ui.advisor.page import RESULT_INDEX
    from app.ui.advisor.result import TOP

    ctx, window = window_in(language, size)
    window.show_page("advisor")
    page = window.pages["advisor"]
    qtbot.waitUntil(lambda: page.offers is not None, timeout=20_000)
    page.go_to(RESULT_INDEX)
    _settle(qtbot, ctx, window)
    _shot(shots, window, "advisor", language, size)
    fit = len(page.result.ranking.items)
    assert fit > TOP  # the bundled catalog: most offers fit a 340M-parameter model
    assert 3 <= page.ranked_table.rowCount() <= TOP <= 5
    for row in range(page.ranked_table.rowCount()):
        why = page.ranked_table.item(row, 4).text()
        assert why.count("•") >= 2, why  # reasons, not a bare number
    status = page.status_label.text()
    assert str(TOP) in status and str(fit) in status
    assert "recommended" not in status
    # "Show in offers table" still hands every offer that fits to the offers table
    page.show_in_offers_button.click()
    offers = window.pages["offers"]
    qtbot.waitUntil(lambda: offers.model.ranking is not None, timeout=10_000)
    assert len(offers.model.ranking.items) == fit


# -- monitor --------------------------------------------------------------------------------------------------
def _labels(axis) -> list:
    """The value labels the axis draws now (pyqtgraph's own drawing specs)."""
    from PySide6.QtGui import QImage, QPainter

    image = QImage(64, 64, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [] if specs is None else [rect for rect, _flags, _text in specs[2]]


def test_short_plots_label_fewer_values(qtbot):
    from app.ui.monitor.plots import LABEL_PX, HostPlots, ValueAxis

    plots = HostPlots()
    qtbot.addWidget(plots)
    plots.resize(700, 1000)
    plots.show()
    qtbot.waitExposed(plots)
    axis = plots.plots["utilization_gpu"].getAxis("left")
    assert isinstance(axis, ValueAxis)
    qtbot.waitUntil(lambda: axis.geometry().height() > 180, timeout=5000)
    tall = len(_labels(axis))
    plots.resize(700, 300)  # four plots of about 60 px
    qtbot.waitUntil(lambda: axis.geometry().height() < 80, timeout=5000)
    short = _labels(axis)
    assert 2 <= len(short) < tall
    height = axis.geometry().height()
    assert len(short) <= max(2, height // LABEL_PX)
    tops = sorted(r.top() for r in short)
    assert all(b - a >= r.height() for a, b, r in zip(tops, tops[1:], short, strict=False))  # no two overlap


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=["1280x800", "1024x640"])
def test_monitor_screenshots_with_two_hosts(shots, qtbot, window_in, language, size):
    from tests.ui.monitor_data import FeedSource

    ctx, window = window_in(language, size)
    src = FeedSource()
    now = time.time()
    src.load("lab-a100", now, 600, gpus=4)
    src.load("lab-4090", now, 600, gpus=2)
    ctx.services.monitor = src
    window.show_page("monitor", {"watch": "lab-a100"})
    window.show_page("monitor", {"watch": "lab-4090"})
    page = window.pages["monitor"]
    assert {"lab-a100", "lab-4090"} <= set(page.panels)
    page.redraw()
    _settle(qtbot, ctx, window)
    _shot(shots, window, "monitor", language, size)
    from app.ui.monitor.plots import LABEL_PX

    for panel in page.panels.values():
        plots = getattr(panel, "plots", None)
        if plots is None or not plots.isVisible():
            continue
        for plot in plots.plots.values():
            axis = plot.getAxis("left")
            labels = _labels(axis)
            assert len(labels) <= max(2, axis.geometry().height() // LABEL_PX + 1)
