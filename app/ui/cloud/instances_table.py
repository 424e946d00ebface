"""The instances table: its columns and headers, one row per ledger entry, the state titles.

The page (:mod:`app.ui.cloud.instances_page`) owns the data and the ticking cost cells; this module
only knows how an entry is shown. Every header stays readable in a 1024 px window in English and
Chinese: the free-text columns (instance, account, type, zone, IP, guards) are elided first, their full
text in the cell's tooltip (see :mod:`app.ui.shared.fit_columns`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QTableWidget, QTableWidgetItem, QWidget

from app.ui.cloud import money, provider_name
from app.ui.shared.fit_columns import fit_columns, refit
from app.ui.shared.plain import plain_tooltip
from app.ui.widgets import configure_record_table

COLUMNS = ("id", "account", "type", "zone", "state", "billing", "ip", "uptime", "price", "cost",
           "projected", "guards", "run")
COL_STATE, COL_UPTIME, COL_PRICE, COL_COST, COL_PROJECTED, COL_GUARDS, COL_RUN = 4, 7, 8, 9, 10, 11, 12
# free text: shrinks first when the window is narrow (a guard badge can name four guards)
ELIDED = (0, 1, 2, 3, 6, COL_GUARDS)
RIGHT_ALIGNED = (COL_UPTIME, COL_PRICE, COL_COST, COL_PROJECTED)
STATE_COLORS = {
    "running": Qt.GlobalColor.darkGreen,
    "stopped": Qt.GlobalColor.darkGray,
    "stopped_billing": Qt.GlobalColor.darkYellow,
    "isolated": Qt.GlobalColor.darkGray,
    "terminated": Qt.GlobalColor.gray,
    "failed": Qt.GlobalColor.red,
}


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
    return [
        QCoreApplication.translate("InstancesPage", "Instance"),
        QCoreApplication.translate("InstancesPage", "Account"),
        QCoreApplication.translate("InstancesPage", "Type"),
        QCoreApplication.translate("InstancesPage", "Zone"),
        QCoreApplication.translate("InstancesPage", "State"),
        QCoreApplication.translate("InstancesPage", "Billing"),
        QCoreApplication.translate("InstancesPage", "Public IP"),
        QCoreApplication.translate("InstancesPage", "Uptime"),
        QCoreApplication.translate("InstancesPage", "Price/h"),
        QCoreApplication.translate("InstancesPage", "Cost so far"),
        QCoreApplication.translate("InstancesPage", "Projected"),
        QCoreApplication.translate("InstancesPage", "Guards"),
        QCoreApplication.translate("InstancesPage", "Run total"),
    ]


def make_table(parent: QWidget) -> QTableWidget:
    table = QTableWidget(0, len(COLUMNS), parent)
    table.setObjectName("instancesTable")
    labels = header_labels()
    table.setHorizontalHeaderLabels(labels)
    for c, label in enumerate(labels):
        item = table.horizontalHeaderItem(c)
        if item is not None:
            item.setToolTip(plain_tooltip(label))
    configure_record_table(table)
    fit_columns(table, ELIDED)
    return table


def row_values(e: Any, busy: bool, guard_text: str) -> list[str]:
    """The cells of one entry; uptime, cost and projection are filled in by the page's tick."""
    billing = (QCoreApplication.translate("InstancesPage", "spot") if e.spot
               else QCoreApplication.translate("InstancesPage", "on demand"))
    return [
        e.id + (f"  ({e.name})" if e.name else ""),
        f"{e.account} · {provider_name(e.provider)}",
        e.instance_type,
        e.zone,
        state_title(e.state) + (" ⋯" if busy else ""),
        billing,
        e.public_ip or "—",
        "",
        money(e.price_per_hour, e.currency, 4),
        "",
        "",
        guard_text,
        "",  # the run and its total (app.core.runs), filled in by the page's tick
    ]


def fill_rows(
    table: QTableWidget, rows: Iterable[Any], busy: set[str], guard_text: Callable[[Any], str], selected: str
) -> None:
    """Show ``rows`` (ledger entries), keeping the row of instance ``selected`` selected."""
    rows = list(rows)
    table.setRowCount(len(rows))
    for r, e in enumerate(rows):
        for c, value in enumerate(row_values(e, e.id in busy, guard_text(e))):
            item = QTableWidgetItem(value)
            item.setData(Qt.ItemDataRole.UserRole, e.id)
            if c == COL_STATE:
                color = STATE_COLORS.get(e.state)
                if color is not None:
                    item.setForeground(color)
                item.setToolTip(plain_tooltip(e.raw_state))
            elif c in ELIDED:
                item.setToolTip(plain_tooltip(value))
            if c in RIGHT_ALIGNED:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
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


def fit(table: QTableWidget) -> None:
    """Size the columns to what they now show (after a fill or a tick)."""
    refit(table, ELIDED)


def fit_if_cut(table: QTableWidget) -> None:
    """After a tick: size the columns again only if a ticking cell no longer fits its column."""
    header = table.horizontalHeader()
    if any(table.sizeHintForColumn(c) > header.sectionSize(c) for c in RIGHT_ALIGNED):
        fit(table)
