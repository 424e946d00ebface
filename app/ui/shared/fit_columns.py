"""Fit a record table's columns into its width so that every header stays readable.

``configure_record_table`` sizes each column to its contents; with long cells (ids, account names)
a table then runs wider than a 1024 px window and the right-hand headers are cut off. After
:func:`fit_columns` the table keeps contents widths while they fit; when they do not, the
columns named ``elide`` (free text such as names and ids) give up width down to their header's
width and their cells are elided (the full text stays in the cell's tooltip), so the other
columns and every header are shown whole. Only when even that does not fit does it scroll.

:func:`plan_columns` goes one step further for a table with more columns than a narrow window holds
(the offers): it never scrolls sideways. Columns are taken in order of importance while they fit
(numbers at their whole width, free text at its header's width), the rest are hidden (a details
pane shows them), and the free-text columns shown then grow towards their contents. So no number is
ever elided or cut at the window's edge.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QHeaderView, QStyle, QTableView


def fit_widths(need: Sequence[int], floor: Sequence[int], elide: Sequence[int], avail: int) -> list[int]:
    """Column widths: ``need`` (contents) if they fit in ``avail``; else the ``elide`` columns shrink
    towards ``floor`` (their header), each in proportion to what it could give up."""
    widths = list(need)
    over = sum(widths) - avail
    if over <= 0:
        return widths
    give = {c: max(0, need[c] - floor[c]) for c in elide}
    can = sum(give.values())
    if can <= 0:
        return widths
    take = min(over, can)
    for c, g in give.items():
        widths[c] = need[c] - (g * take + can - 1) // can  # round the share up: never over avail
    return widths


def cell_margin(table: QTableView) -> int:
    """What a cell adds to its text's width: the style's text margin on both sides and the grid line."""
    m = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
    return 2 * m + 1 + (1 if table.showGrid() else 0)


def plan_columns(need: Sequence[int], floor: Sequence[int], elide: Sequence[int], order: Sequence[int],
                 avail: int, least: Sequence[int] | None = None) -> tuple[list[int], set[int]]:
    """(widths, hidden): the columns of ``order`` (most important first) are shown while they fit in
    ``avail`` — an ``elide`` column at its ``floor`` (or, when only that fits, its ``least``: the
    header), any other at its ``need`` — and hidden when they do not; the ``elide`` columns shown then
    share what is left, up to their ``need``."""
    least = floor if least is None else least
    used = 0
    shown: list[int] = []
    floor = list(floor)
    for c in order:
        w = floor[c] if c in elide else need[c]
        if c in elide and used + w > avail and used + least[c] <= avail:
            w = floor[c] = least[c]
        if used + w > avail:
            break  # the less important ones stay hidden too: no gap in what is shown
        shown.append(c)
        used += w
    shown.sort()
    sub = fit_widths([need[c] for c in shown], [floor[c] for c in shown],
                     [i for i, c in enumerate(shown) if c in elide], avail)
    widths = list(need)
    for i, c in enumerate(shown):
        widths[c] = sub[i]
    return widths, set(range(len(need))) - set(shown)


class _Refit(QObject):
    def __init__(self, table: QTableView, elide: Sequence[int]) -> None:
        super().__init__(table)
        self.table = table
        self.elide = tuple(elide)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize:
            refit(self.table, self.elide)
        return False


def refit(table: QTableView, elide: Sequence[int]) -> None:
    """Size the columns again (after the rows or the width changed)."""
    model = table.model()
    if model is None:
        return
    header = table.horizontalHeader()
    n = model.columnCount()
    need, floor = [], []
    least = header.minimumSectionSize()  # Qt never makes a section narrower (a short CJK header is)
    for c in range(n):
        head = max(header.sectionSizeFromContents(c).width(), least)
        need.append(max(head, table.sizeHintForColumn(c)))
        floor.append(head)
    avail = table.viewport().width()
    widths = fit_widths(need, floor, [c for c in elide if c < n], avail)
    for c, w in enumerate(widths):
        header.resizeSection(c, w)  # the last one is its least width: it stretches over what is left


def fit_columns(table: QTableView, elide: Sequence[int]) -> None:
    """Let ``table`` keep every header readable: columns are sized by :func:`refit` (call it after
    filling the table), again whenever the table is resized; the last column stretches."""
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)
    table.setWordWrap(False)  # one line per cell: a narrowed cell is elided, not wrapped and cut
    table.viewport().installEventFilter(_Refit(table, elide))
