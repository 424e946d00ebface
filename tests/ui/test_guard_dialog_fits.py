"""The Edit guards dialog shows every wrapped sentence whole: the idle note when it opens, and a long
refusal reason (a watchdog the host did not take) when it appears — nothing cut off under the frame."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect

from tests.ui import test_monitor_page as monitor_tests

ctx = monitor_tests.ctx  # an English app context in a fresh LABGPU_HOME

REASON = ("The guard is saved, but the watchdog is not installed on ins-x: it could not shut the machine down: "
          "a password is required for sudo. Allow the user to run shutdown without a password (NOPASSWD in "
          "sudoers), then check the box again.")


def _whole(label, dialog) -> bool:
    """The label is tall enough for its lines and lies wholly inside the editor's frame and above the buttons."""
    editor = dialog.editor
    top_left = label.mapTo(dialog, QPoint(0, 0))
    rect = QRect(top_left, label.size())
    frame = QRect(editor.mapTo(dialog, editor.contentsRect().topLeft()), editor.contentsRect().size())
    return (label.height() >= label.heightForWidth(label.width()) and frame.contains(rect)
            and rect.bottom() < dialog.buttons.mapTo(dialog, QPoint(0, 0)).y())


@pytest.mark.parametrize("width", [620, 900])
def test_wrapped_note_and_a_long_reason_show_whole(qtbot, ctx, width):
    from app.ui.shared.guards_ui import EditGuardsDialog

    dialog = EditGuardsDialog(ctx, "ins-x", None, True)
    qtbot.addWidget(dialog)
    dialog.resize(width, 100)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.waitUntil(lambda: _whole(dialog.editor.idle_note, dialog), timeout=5000)
    dialog.editor.show_error(REASON)
    qtbot.waitUntil(lambda: _whole(dialog.editor.error_label, dialog), timeout=5000)
    assert _whole(dialog.editor.idle_note, dialog)
