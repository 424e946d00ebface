"""The Sync page's history table: one row per run of the selected pair, newest first.

Its strings keep the "SyncPage" translation context they had as part of the page.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtWidgets import QTableWidget, QTableWidgetItem, QWidget

from app.core.syncmodel import UP
from app.core.syncpairs import SyncRun
from app.core.units import human_bytes
from app.ui import theme
from app.ui.shared.fit_columns import fit_widths
from app.ui.shared.plain import plain_tooltip

MIN_COLUMN_WIDTH = 96  # a column never narrower than this once rows arrive (nor when there are none)
# the history's short columns (a count, a size, seconds) are as wide as their header and numbers, no wider,
# so its details ("209 unchanged, 0 deleted, 0 conflicts") are whole in a 1024-pixel window too
HISTORY_MIN_WIDTH = 48
MAX_COLUMN_WIDTH = 360  # long paths: the tooltip has the rest
_CODE_PREFIX = re.compile(r"^\[[A-Za-z]+\]\s*")  # "[LocalMissing] " from LabGpuError.one_line()


def fit_columns(table: QTableWidget, least: int = MIN_COLUMN_WIDTH) -> None:
    """Columns as wide as their contents and header, within [least, MAX_COLUMN_WIDTH]; the last stretches."""
    table.resizeColumnsToContents()
    for c in range(table.columnCount() - 1):
        table.setColumnWidth(c, max(least, min(MAX_COLUMN_WIDTH, table.columnWidth(c))))


def fit_elided(table: QTableWidget, elide: Sequence[int]) -> None:
    """As :func:`fit_columns`, and when that runs wider than the table, the ``elide`` columns (paths,
    names) give up width down to their header (or MIN_COLUMN_WIDTH), elided in the middle with the
    whole text in the tooltip, so every header stays readable in a 1024-pixel window."""
    fit_columns(table)
    header = table.horizontalHeader()
    n = table.columnCount()
    need = [table.columnWidth(c) for c in range(n)]
    if n:  # the last column is stretched: what it needs is its contents, not its width
        need[-1] = max(table.sizeHintForColumn(n - 1), header.sectionSizeFromContents(n - 1).width())
    floor = [max(MIN_COLUMN_WIDTH, header.sectionSizeFromContents(c).width()) for c in range(n)]
    widths = fit_widths(need, floor, [c for c in elide if c < n - 1], table.viewport().width())
    for c in range(n - 1):
        table.setColumnWidth(c, widths[c])


class _FitOnResize(QObject):
    def __init__(self, table: QTableWidget, elide: Sequence[int]) -> None:
        super().__init__(table)
        self.table, self.elide = table, tuple(elide)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize:
            fit_elided(self.table, self.elide)
        return False


def keep_fitted(table: QTableWidget, elide: Sequence[int]) -> None:
    """Fit ``table``'s columns again whenever it is resized (see :func:`fit_elided`)."""
    table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
    table.setWordWrap(False)
    table.viewport().installEventFilter(_FitOnResize(table, elide))


def shown_message(message: str) -> str:
    """A run's message without the error code in brackets (the code is for the CLI and the log)."""
    return _CODE_PREFIX.sub("", message)


class SyncHistoryTable(QTableWidget):
    """When, direction, files, data, time, result and details of each run. One line a row: the details
    take what the other columns leave; an error too long for them is elided, whole in its tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 7, parent)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setHorizontalHeaderLabels(
            [
                QCoreApplication.translate("SyncPage", "When"),
                QCoreApplication.translate("SyncPage", "Direction"),
                QCoreApplication.translate("SyncPage", "Files"),
                QCoreApplication.translate("SyncPage", "Data"),
                QCoreApplication.translate("SyncPage", "Time"),
                QCoreApplication.translate("SyncPage", "Result"),
                QCoreApplication.translate("SyncPage", "Details"),
            ]
        )

    def show_runs(self, runs: Sequence[SyncRun]) -> None:
        self.setRowCount(len(runs))
        results = {
            "ok": QCoreApplication.translate("SyncPage", "OK"),
            "incomplete": QCoreApplication.translate("SyncPage", "Incomplete"),
            "dry-run": QCoreApplication.translate("SyncPage", "Preview"),
            "error": QCoreApplication.translate("SyncPage", "Failed"),
            "cancelled": QCoreApplication.translate("SyncPage", "Cancelled"),
        }
        for row, r in enumerate(runs):
            cells = [
                time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(r.started_at)),
                QCoreApplication.translate("SyncPage", "Upload ↑") if r.direction == UP
                else QCoreApplication.translate("SyncPage", "Download ↓"),
                str(r.files),
                human_bytes(r.bytes),
                f"{r.seconds:.1f} s",
                results.get(r.result, r.result),
                shown_message(r.message)
                or (
                    QCoreApplication.translate(
                        "SyncPage", "{skipped} unchanged, {deleted} deleted, {conflicts} conflicts").format(
                        skipped=str(r.skipped), deleted=str(r.deleted), conflicts=str(r.conflicts))
                ),
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(plain_tooltip(text))
                if col == 5 and r.result == "error":
                    item.setForeground(theme.color("error"))
                self.setItem(row, col, item)
        fit_columns(self, HISTORY_MIN_WIDTH)
