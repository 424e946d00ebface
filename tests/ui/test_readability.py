"""Text a student can read: helper text contrast, toolbars that wrap instead of cutting labels."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton, QWidget


def test_helper_text_reaches_the_contrast_body_text_needs(app_window, qtbot):
    """Helper lines are styled `color: palette(mid)`; Fusion's own Mid is 1.9:1 on the window."""
    from PySide6.QtGui import QPalette

    from app.ui.widgets import contrast_ratio

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

    from app.ui.widgets import apply_hint_color, contrast_ratio

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
