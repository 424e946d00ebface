"""The instances table: its columns and headers, one row per ledger entry, the state titles.

The page (:mod:`app.ui.cloud.instances_page`) owns the data and the ticking cost cells; this module
only knows how an entry is shown. Each row has two lines, so eight columns hold the thirteen fields
a 1024 px window could not show side by side: the instance id over its name and type, the account
over its cloud and zone, the state over the uptime, the public IP over the private one, the price over the
billing, the cost so far over the projection. An instance id, an IP and every number are never
elided: the columns are sized to them; only free text (the name and type, the account, the zone, the
guards) is elided when the window is narrow, its full text in the cell's tooltip.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, QObject, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from app.ui import theme
from app.ui.cloud import money, provider_name
from app.ui.shared.fit_columns import cell_margin, fit_widths
from app.ui.shared.plain import plain_tooltip
from app.ui.widgets import configure_record_table

COLUMNS = ("instance", "account", "state", "ip", "price", "cost", "guards", "run")
COL_INSTANCE, COL_ACCOUNT, COL_STATE, COL_IP, COL_PRICE, COL_COST, COL_GUARDS, COL_RUN = range(8)
# (column, line) of each field a row shows; line 2 is the role SECOND_LINE
FIELDS: dict[str, tuple[int, int]] = {
    "id": (COL_INSTANCE, 1), "name_type": (COL_INSTANCE, 2), "account": (COL_ACCOUNT, 1), "zone": (COL_ACCOUNT, 2),
    "state": (COL_STATE, 1), "uptime": (COL_STATE, 2), "ip": (COL_IP, 1), "private_ip": (COL_IP, 2),
    "price": (COL_PRICE, 1), "billing": (COL_PRICE, 2), "cost": (COL_COST, 1), "projected": (COL_COST, 2),
    "guards": (COL_GUARDS, 1), "run": (COL_RUN, 1),
}
SECOND_LINE = Qt.ItemDataRole.UserRole + 1
# free text: shrinks first when the window is narrow (a guard badge can name four guards); of the
# instance column only the second line (name, type) is elided, never the id
ELIDED = (COL_INSTANCE, COL_ACCOUNT, COL_GUARDS)
FIRST_LINE_WHOLE = (COL_INSTANCE,)
RIGHT_ALIGNED = (COL_PRICE, COL_COST, COL_RUN)
STATE_COLORS = {
    "running": Qt.GlobalColor.darkGreen,
    "stopped": Qt.GlobalColor.darkGray,
    "stopped_billing": Qt.GlobalColor.darkYellow,
    "isolated": Qt.GlobalColor.darkGray,
    "terminated": Qt.GlobalColor.gray,
    "failed": Qt.GlobalColor.red,
}
ROW_PAD = 8  # pixels above and below a row's two lines


class TwoLineDelegate(QStyledItemDelegate):
    """A cell's text (line 1, in the item's colour) over its SECOND_LINE (muted); a line too wide for
    the column is elided on its own (the table's sizes keep ids, IPs and numbers whole)."""

    def lines(self, index: QModelIndex | QPersistentModelIndex) -> tuple[str, str]:
        return str(index.data() or ""), str(index.data(SECOND_LINE) or "")

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        fm = option.fontMetrics
        widget = option.widget
        margin = cell_margin(widget) if isinstance(widget, QTableWidget) else 8
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
        align = Qt.AlignmentFlag.AlignRight if index.column() in RIGHT_ALIGNED else Qt.AlignmentFlag.AlignLeft
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


def state_title(state: str) -> str:
    titles = {
        "pending": QCoreApplication.translate("InstancesPage", "pending"),
        "running": QCoreApplication.translate("InstancesPage", "running"),
        "stopping": QCoreApplication.translate("InstancesPage", "stopping"),
        "stopped": QCoreApplication.translate("InstancesPage", "stopped"),
        "stopped_billing": QCoreApplication.translate("InstancesPage", "stopped, still billing"),
        "isolated": QCoreApplication.translate("InstancesPage", "isolated (restorable)"),
        "starting": QCoreApplication.translate("InstancesPage", "starting"),
        "terminating": QCoreApplication.translate("InstancesPage", "terminating"),
        "terminated": QCoreApplication.translate("InstancesPage", "terminated"),
        "failed": QCoreApplication.translate("InstancesPage", "failed"),
    }
    return titles.get(state, state)


def header_labels() -> list[str]:
    """The headers, each naming its cells' two lines."""
    def word(text: str) -> str:  # (not named tr: lupdate would read its calls as strings of no context)
        return QCoreApplication.translate("InstancesPage", text)

    return [
        word("Instance") + "\n" + word("Name, type"),
        word("Account") + "\n" + word("Cloud, zone"),
        word("State") + "\n" + word("Uptime"),
        word("Public IP") + "\n" + word("Private IP"),
        word("Price/h") + "\n" + word("Billing"),
        word("Cost so far") + "\n" + word("Projected"),
        word("Guards"),
        word("Run total"),
    ]


# lupdate needs literal strings; these are header_labels' words.
_WORDS = (
    QCoreApplication.translate("InstancesPage", "Instance"), QCoreApplication.translate("InstancesPage", "Name, type"),
    QCoreApplication.translate("InstancesPage", "Account"), QCoreApplication.translate("InstancesPage", "Cloud, zone"),
    QCoreApplication.translate("InstancesPage", "State"), QCoreApplication.translate("InstancesPage", "Uptime"),
    QCoreApplication.translate("InstancesPage", "Public IP"), QCoreApplication.translate("InstancesPage", "Private IP"),
    QCoreApplication.translate("InstancesPage", "Price/h"), QCoreApplication.translate("InstancesPage", "Billing"),
    QCoreApplication.translate("InstancesPage", "Cost so far"),
    QCoreApplication.translate("InstancesPage", "Projected"),
    QCoreApplication.translate("InstancesPage", "Guards"), QCoreApplication.translate("InstancesPage", "Run total"),
)


def make_table(parent: QWidget) -> QTableWidget:
    table = QTableWidget(0, len(COLUMNS), parent)
    table.setObjectName("instancesTable")
    labels = header_labels()
    table.setHorizontalHeaderLabels(labels)
    for c, label in enumerate(labels):
        item = table.horizontalHeaderItem(c)
        if item is not None:
            item.setToolTip(plain_tooltip(label.replace("\n", " / ")))
    configure_record_table(table)
    table.setItemDelegate(TwoLineDelegate(table))
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    table.setWordWrap(False)
    table.verticalHeader().setDefaultSectionSize(2 * table.fontMetrics().lineSpacing() + ROW_PAD)
    table.viewport().installEventFilter(_Refit(table))
    return table


def row_values(e: Any, busy: bool, guard_text: str) -> list[tuple[str, str]]:
    """The cells of one entry, (line 1, line 2); uptime, cost and projection are filled in by the page's tick."""
    billing = (QCoreApplication.translate("InstancesPage", "spot") if e.spot
               else QCoreApplication.translate("InstancesPage", "on demand"))
    name = getattr(e, "name", "") or ""
    return [
        (e.id, f"{name} · {e.instance_type}" if name else e.instance_type),
        (e.account, f"{provider_name(e.provider)} · {e.zone}" if e.zone else provider_name(e.provider)),
        (state_title(e.state) + (" ⋯" if busy else ""), ""),
        (e.public_ip or "—", getattr(e, "private_ip", "") or ""),
        (money(e.price_per_hour, e.currency, 4), billing),
        ("", ""),
        (guard_text, ""),
        ("", ""),  # the run and its total (app.core.runs), filled in by the page's tick
    ]


def set_line(table: QTableWidget, row: int, field: str, text: str) -> None:
    """Show ``text`` as ``field`` of row ``row`` (the page's tick: uptime, price, cost, projection, run)."""
    col, line = FIELDS[field]
    item = table.item(row, col)
    if item is None:
        return
    if line == 1:
        if item.text() != text:
            item.setText(text)
    elif item.data(SECOND_LINE) != text:
        item.setData(SECOND_LINE, text)


def fill_rows(
    table: QTableWidget, rows: Iterable[Any], busy: set[str], guard_text: Callable[[Any], str], selected: str
) -> None:
    """Show ``rows`` (ledger entries), keeping the row of instance ``selected`` selected."""
    rows = list(rows)
    table.setRowCount(len(rows))
    for r, e in enumerate(rows):
        for c, (first, second) in enumerate(row_values(e, e.id in busy, guard_text(e))):
            item = QTableWidgetItem(first)
            item.setData(SECOND_LINE, second)
            item.setData(Qt.ItemDataRole.UserRole, e.id)
            if c == COL_STATE:
                color = STATE_COLORS.get(e.state)
                if color is not None:
                    item.setForeground(color)
                item.setToolTip(plain_tooltip(e.raw_state))
            elif c in ELIDED:
                item.setToolTip(plain_tooltip("\n".join(t for t in (first, second) if t)))
            table.setItem(r, c, item)
        if e.id == selected:
            table.selectRow(r)


def run_texts(run: Any, instance_id: str, total: str) -> tuple[str, str]:
    """(cell, tooltip) of an instance that is part of a run (a reclaimed spot instance and its relaunch):
    its place and the run's total, '2/2 · ¥38.00' (short: it is never elided), and in the tooltip the run's
    id (as `labgpu cost` names it) and its instances in order with why each joined."""
    from app.core.runs import reason_text

    ids = run.instance_ids
    place = ids.index(instance_id) + 1 if instance_id in ids else 0
    cell = QCoreApplication.translate("InstancesPage", "{n}/{count} · {total}").format(
        n=place, count=len(ids), total=total)
    lines = [QCoreApplication.translate("InstancesPage", "Run {run}: one piece of work across its instances; "
                                        "its cost is theirs summed.").format(run=run.id)]
    lines += [f"{m.position + 1}. {m.instance_id} — {reason_text(m.reason)}" for m in run.members]
    return cell, plain_tooltip("\n".join(lines))


class _Refit(QObject):
    def __init__(self, table: QTableWidget) -> None:
        super().__init__(table)
        self.table = table

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize:
            fit(self.table)
        return False


def column_widths(table: QTableWidget) -> tuple[list[int], list[int]]:
    """(need, floor) of each column: its widest line (or header); what it may shrink to — the header of
    a free-text column, and the instance column's ids, which are never elided."""
    header = table.horizontalHeader()
    fm = table.fontMetrics()
    margin = cell_margin(table)
    need, floor = [], []
    least = header.minimumSectionSize()
    for c in range(table.columnCount()):
        head = max(header.sectionSizeFromContents(c).width(), least)
        texts = [(it.text(), str(it.data(SECOND_LINE) or "")) for r in range(table.rowCount())
                 if (it := table.item(r, c)) is not None]
        widest = max((fm.horizontalAdvance(t) for pair in texts for t in pair), default=0) + margin
        need.append(max(head, widest))
        if c in FIRST_LINE_WHOLE:
            floor.append(max(head, max((fm.horizontalAdvance(a) for a, _b in texts), default=0) + margin))
        else:
            floor.append(head if c in ELIDED else need[-1])
    return need, floor


def fit(table: QTableWidget) -> None:
    """Size the columns to what they now show (after a fill or a tick): the free text gives up width
    first; ids, IPs and numbers keep theirs."""
    need, floor = column_widths(table)
    widths = fit_widths(need, floor, list(ELIDED), table.viewport().width())
    header = table.horizontalHeader()
    for c, w in enumerate(widths):
        if header.sectionSize(c) != w:
            header.resizeSection(c, w)  # the last one is its least width: it stretches over what is left


def fit_if_cut(table: QTableWidget) -> None:
    """After a tick: size the columns again only if a ticking cell no longer fits its column."""
    header = table.horizontalHeader()
    need, _floor = column_widths(table)
    if any(need[c] > header.sectionSize(c) for c in (COL_STATE, COL_PRICE, COL_COST, COL_RUN)):
        fit(table)
