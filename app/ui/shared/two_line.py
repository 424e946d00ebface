"""Record tables with two lines per row, so a 1024 px window shows ids, IPs and numbers whole.

A cell shows its text (line 1) over its :data:`SECOND_LINE` (muted), drawn by :class:`TwoLineDelegate`.
:func:`fit` sizes the columns with :func:`app.ui.shared.fit_columns.fit_widths`: every column keeps
its widest line while the table is wide enough; when it is not, only the ``elided`` columns (free
text: names, types, zones, badges) give up width, down to their header — or, for a column in
``first_line_whole``, down to its widest first line (an instance id, a host's name, an address over
free text). Ids, IPs, fingerprints and numbers are never elided; the full text of an elided cell
belongs in its tooltip. Used by the instances table (:mod:`app.ui.cloud.instances_table`) and the
Hosts page.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QModelIndex, QObject, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QHeaderView, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QTableView, QWidget

from app.ui import theme
from app.ui.shared.fit_columns import cell_margin, fit_widths

SECOND_LINE = Qt.ItemDataRole.UserRole + 1  # the role of a cell's second line
ROW_PAD = 8  # pixels above and below a row's two lines


class TwoLineDelegate(QStyledItemDelegate):
    """A cell's text (line 1, in the item's colour) over its SECOND_LINE (muted); a line too wide for
    the column is elided on its own (the table's sizes keep ids, IPs and numbers whole). The columns
    in ``right_aligned`` (numbers) are drawn flush right."""

    def __init__(self, parent: QWidget | None = None, right_aligned: Sequence[int] = ()) -> None:
        super().__init__(parent)
        self.right_aligned = tuple(right_aligned)

    def lines(self, index: QModelIndex | QPersistentModelIndex) -> tuple[str, str]:
        return str(index.data() or ""), str(index.data(SECOND_LINE) or "")

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        fm = option.fontMetrics
        widget = option.widget
        margin = cell_margin(widget) if isinstance(widget, QTableView) else 8
        width = max(fm.horizontalAdvance(t) for t in self.lines(index)) + margin
        return QSize(width, 2 * fm.lineSpacing() + ROW_PAD)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem,
              index: QModelIndex | QPersistentModelIndex) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        first, second = self.lines(index)
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is None:
            return
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect: QRect = style.subElementRect(QStyle.SubElement.SE_ItemViewItemText, opt, widget)
        m = style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, widget) + 1
        rect = rect.adjusted(m, 0, -m, 0)
        fm = opt.fontMetrics
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        pal: QPalette = opt.palette
        fg = index.data(Qt.ItemDataRole.ForegroundRole)
        if selected:
            main = pal.color(QPalette.ColorRole.HighlightedText)
        elif fg is not None:
            main = fg.color() if hasattr(fg, "color") else QColor(fg)
        else:
            main = pal.color(QPalette.ColorRole.Text)
        muted = pal.color(QPalette.ColorRole.HighlightedText) if selected else QColor(theme.css("muted"))
        align = (Qt.AlignmentFlag.AlignRight if index.column() in self.right_aligned
                 else Qt.AlignmentFlag.AlignLeft)
        h = fm.lineSpacing()
        top = rect.top() + (rect.height() - 2 * h) // 2 if second else rect.top() + (rect.height() - h) // 2
        painter.save()
        painter.setFont(opt.font)
        for n, (text, colour) in enumerate(((first, main), (second, muted))):
            if not text:
                continue
            line = QRect(rect.left(), top + n * h, rect.width(), h)
            painter.setPen(colour)
            painter.drawText(line, int(align | Qt.AlignmentFlag.AlignVCenter),
                             fm.elidedText(text, Qt.TextElideMode.ElideRight, rect.width()))
        painter.restore()


def row_height(table: QTableView) -> int:
    """The height of a row of two lines."""
    return 2 * table.fontMetrics().lineSpacing() + ROW_PAD


def column_widths(table: QTableView, elided: Sequence[int],
                  first_line_whole: Sequence[int] = ()) -> tuple[list[int], list[int]]:
    """(need, floor) of each column: its widest line (or header); what it may shrink to — the header of
    a free-text column, the widest first line of a ``first_line_whole`` column (ids, never elided), and
    all it needs for any other (numbers, IPs)."""
    model = table.model()
    if model is None:
        return [], []
    header = table.horizontalHeader()
    fm = table.fontMetrics()
    margin = cell_margin(table)
    need, floor = [], []
    least = header.minimumSectionSize()  # Qt never makes a section narrower (a short CJK header is)
    rows = model.rowCount()
    for c in range(model.columnCount()):
        head = max(header.sectionSizeFromContents(c).width(), least)
        firsts, seconds = [], []
        for r in range(rows):
            index = model.index(r, c)
            firsts.append(str(model.data(index) or ""))
            seconds.append(str(model.data(index, SECOND_LINE) or ""))
        widest_first = max((fm.horizontalAdvance(t) for t in firsts), default=0) + margin
        widest = max([widest_first] + [fm.horizontalAdvance(t) + margin for t in seconds])
        need.append(max(head, widest))
        if c in first_line_whole:
            floor.append(max(head, widest_first))
        else:
            floor.append(head if c in elided else need[-1])
    return need, floor


def fit(table: QTableView, elided: Sequence[int], first_line_whole: Sequence[int] = ()) -> None:
    """Size the columns to what they now show (after a fill or a tick): the free text gives up width
    first; ids, IPs and numbers keep theirs."""
    need, floor = column_widths(table, elided, first_line_whole)
    widths = fit_widths(need, floor, [c for c in elided if c < len(need)], table.viewport().width())
    header = table.horizontalHeader()
    for c, w in enumerate(widths):
        if header.sectionSize(c) != w:
            header.resizeSection(c, w)  # the last one is its least width: it stretches over what is left


class _Refit(QObject):
    def __init__(self, table: QTableView, elided: Sequence[int], first_line_whole: Sequence[int]) -> None:
        super().__init__(table)
        self.table = table
        self.elided = tuple(elided)
        self.first_line_whole = tuple(first_line_whole)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize:
            fit(self.table, self.elided, self.first_line_whole)
        return False


def two_line_table(table: QTableView, elided: Sequence[int], first_line_whole: Sequence[int] = (),
                   right_aligned: Sequence[int] = ()) -> None:
    """Make ``table`` a two-line record table: the delegate, rows of two lines, columns fitted by
    :func:`fit` again whenever the table is resized (call :func:`fit` after filling it); the last
    column stretches."""
    table.setItemDelegate(TwoLineDelegate(table, right_aligned))
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    table.setWordWrap(False)
    table.verticalHeader().setDefaultSectionSize(row_height(table))
    table.viewport().installEventFilter(_Refit(table, elided, first_line_whole))
