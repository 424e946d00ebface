"""A job's log as a terminal would show it, in a plain-text view with a bounded number of lines.

The log arrives in chunks (app.usecases.jobs.follow: only new bytes). A progress bar rewrites its line
with carriage returns: within a line only the text after the last ``\\r`` is kept, and the line still
being written (no newline yet) is shown as the last one and replaced as it grows, so a tqdm bar stays one
line. Control characters other than tab are dropped, each line is capped, and the view keeps at most
``MAX_LINES`` lines (Qt drops the oldest), so a log of gigabytes or binary output stays small here.
"""

from __future__ import annotations

import re

from PySide6.QtGui import QFontDatabase, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QWidget

MAX_LINES = 5000
MAX_LINE_CHARS = 2000
_CTRL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


def screen_line(raw: str) -> str:
    """What a terminal leaves of one line: the text after its last carriage return (a bar redrawn),
    colour codes and other control characters dropped, capped."""
    parts = [p for p in raw.split("\r") if p]
    text = parts[-1] if parts else ""
    text = _CTRL.sub("", _ANSI.sub("", text))
    return text if len(text) <= MAX_LINE_CHARS else text[: MAX_LINE_CHARS - 1] + "…"


class LogView(QPlainTextEdit):
    """Read-only, monospaced; ``feed(text)`` appends a chunk, ``reset()`` empties it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("jobLog")
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.setMaximumBlockCount(MAX_LINES)
        self.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._partial = ""  # the line still being written (raw, capped)
        self._shown_partial = False  # whether the view's last block is that line (after the first chunk: always)

    def reset(self) -> None:
        self.clear()
        self._partial = ""
        self._shown_partial = False

    def feed(self, chunk: str) -> None:
        if not chunk:
            return
        bar = self.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 2
        lines = (self._partial + chunk).split("\n")
        self._partial = lines.pop()[-4 * MAX_LINE_CHARS:]  # a bar redrawn forever stays bounded
        done = [screen_line(x) for x in lines[-MAX_LINES:]]
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        if self._shown_partial:  # the unfinished line is replaced by what it became
            cursor.movePosition(QTextCursor.MoveOperation.StartOfBlock, QTextCursor.MoveMode.KeepAnchor)
            cursor.removeSelectedText()
        cursor.insertText("\n".join(done + [screen_line(self._partial)]))  # the last block: the unfinished line
        self._shown_partial = True
        if at_end:
            bar.setValue(bar.maximum())

    def lines(self) -> list[str]:
        """The lines shown (tests)."""
        return self.toPlainText().split("\n") if not self.document().isEmpty() else []
