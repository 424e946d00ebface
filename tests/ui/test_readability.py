"""Text a student can read: helper text contrast, toolbars that wrap instead of cutting labels."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel, QPushButton, QWidget


def test_helper_text_reaches_the_contrast_body_text_needs(app_window, qtbot):
    """Helper lines are styled `color: palette(mid)`; Fusion's own Mid is 1.9:1 on the window."""
    from PySide6.QtGui import QPalette

    from app.ui.theme import contrast_ratio

    _ctx, window = app_window
    window.show_page("hosts")
    page = window.pages["hosts"]
    hints = [w for w in page.findChildren(QLabel) if "palette(mid)" in w.styleSheet()]
    assert hints, "the hosts page has helper text"
    for label in hints:
        label.ensurePolished()
        pal = label.palette()
        ratio = contrast_ratio(pal.color(QPalette.ColorRole.WindowText), pal.color(QPalette.ColorRole.Window))
        assert ratio >= 4.5, (label.text(), round(ratio, 2))


def test_a_dark_scheme_gets_readable_helper_text_too(qtbot):
    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication

    from app.ui.theme import apply_hint_color, contrast_ratio

    app = QApplication.instance()
    saved = QPalette(app.palette())
    try:
        dark = QPalette(saved)
        dark.setColor(QPalette.ColorRole.Window, QColor("#202124"))
        dark.setColor(QPalette.ColorRole.WindowText, QColor("#e8eaed"))
        app.setPalette(dark)
        apply_hint_color(app)
        pal = app.palette()
        assert contrast_ratio(pal.color(QPalette.ColorRole.Mid), pal.color(QPalette.ColorRole.Window)) >= 4.5
    finally:
        app.setPalette(saved)
        apply_hint_color(app)


def test_a_toolbar_wraps_to_a_second_row_rather_than_cutting_a_label(qtbot):
    from app.ui.widgets import FlowLayout

    box = QWidget()
    qtbot.addWidget(box)
    bar = FlowLayout(box)
    labels = ["从 SSH 命令添加(A)…", "Connect", "Disconnect", "Open TensorBoard", "Open Jupyter",
              "Copy SSH command", "Forget host key", "Remove"]
    buttons = [QPushButton(t, box) for t in labels]
    for b in buttons:
        bar.addWidget(b)
    box.resize(420, bar.heightForWidth(420))
    box.show()
    qtbot.waitExposed(box)
    assert all(b.width() >= b.sizeHint().width() for b in buttons)  # no label cut
    rows = {b.y() for b in buttons}
    assert len(rows) >= 2  # it wrapped
    assert all(b.geometry().right() <= 420 for b in buttons)  # and stays inside the window


def test_the_hosts_and_instances_toolbars_are_wrapping_rows(app_window):
    from app.ui.widgets import FlowLayout

    _ctx, window = app_window
    for page_id, button in (("hosts", "add_button"), ("instances", "launch_button")):
        window.show_page(page_id)
        page = window.pages[page_id]
        first = getattr(page, button)
        layout = first.parentWidget().layout()
        bars = [layout.itemAt(i).layout() for i in range(layout.count()) if layout.itemAt(i).layout()]
        assert any(isinstance(b, FlowLayout) and b.indexOf(first) >= 0 for b in bars), page_id


def test_fit_widths_shrinks_only_free_text_columns_and_never_below_their_header():
    from app.ui.shared.fit_columns import fit_widths

    assert fit_widths([100, 50, 60], [40, 40, 40], [0], 300) == [100, 50, 60]  # fits: contents widths
    widths = fit_widths([200, 150, 60, 80], [40, 50, 40, 60], [0, 1], 300)
    assert widths[2:] == [60, 80] and sum(widths) <= 300
    assert widths[0] >= 40 and widths[1] >= 50
    assert fit_widths([200, 150], [180, 140], [0, 1], 100) == [180, 140]  # cannot fit: headers win, it scrolls


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_instances_table_headers_are_all_readable_in_a_1024_window(qtbot, language):
    """Long ids, account names and a guard badge naming every guard no longer push the cost
    columns out of a 1024×640 window, in either language (CJK text is measured in its own font)."""
    from types import SimpleNamespace

    from PySide6.QtWidgets import QApplication

    from app.core.guards import GuardConfig
    from app.ui import i18n
    from app.ui.cloud.instances_table import COL_GUARDS, ELIDED, SECOND_LINE, fill_rows, fit, make_table
    from app.ui.shared.guards_ui import badge

    i18n.install(QApplication.instance(), language)  # English is put back after every test
    host = QWidget()
    qtbot.addWidget(host)
    table = make_table(host)
    table.resize(822, 400)  # the table's width in the 1024×640 main window
    host.show()
    qtbot.waitExposed(host)
    e = SimpleNamespace(id="ins-7k2q9xw1", name="llama-finetune-run-3", account="lab-shanghai-research-group",
                        provider="tencent", instance_type="GN10Xp.2XLARGE40", zone="ap-shanghai-5", state="running",
                        raw_state="RUNNING", spot=True, public_ip="101.34.122.218", price_per_hour=8.62,
                        currency="CNY")
    every_guard = badge(GuardConfig(on_idle="stop", budget=300, max_hours=12,
                                    stop_on_process_exit="train.py", watchdog=True), True)
    # the longest state titles too: a stop that still bills, an instance the cloud isolated
    billing_stop = SimpleNamespace(**{**vars(e), "state": "stopped_billing", "raw_state": "STOPPED/KEEP_CHARGING"})
    isolated = SimpleNamespace(**{**vars(e), "state": "isolated", "raw_state": "SHUTDOWN"})
    fill_rows(table, [e, e, billing_stop, isolated], set(), lambda _e: every_guard, "")
    fit(table)
    header = table.horizontalHeader()
    widths = [header.sectionSize(c) for c in range(table.columnCount())]
    assert sum(widths) <= table.viewport().width(), widths
    for c in range(table.columnCount()):
        assert widths[c] >= header.sectionSizeFromContents(c).width(), (c, widths)
    assert not table.horizontalScrollBar().isVisible()
    for c in ELIDED:  # the elided text in full: both lines of the cell
        item = table.item(0, c)
        assert item.toolTip() == "\n".join(t for t in (item.text(), item.data(SECOND_LINE)) if t)
    assert table.item(0, COL_GUARDS).text() == every_guard and COL_GUARDS in ELIDED
