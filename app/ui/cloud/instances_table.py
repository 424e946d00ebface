"""The instances table: its columns and headers, one row per ledger entry, the state titles.

The page (:mod:`app.ui.cloud.instances_page`) owns the data and the ticking cost cells; this module
only knows how an entry is shown. Each row has two lines (:mod:`app.ui.shared.two_line`), so eight
columns hold the thirteen fields a 1024 px window could not show side by side: the instance id over
its name and type, the account over its cloud and zone, the state over the uptime, the public IP over
the private one, the price over the billing, the cost so far over the projection. An instance id, an
IP and every number are never elided: the columns are sized to them; only free text (the name and
type, the account, the zone, the guards) is elided when the window is narrow, its full text in the
cell's tooltip.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import QTableWidget, QTableWidgetItem, QWidget

from app.ui.cloud import money, provider_name
from app.ui.shared import two_line
from app.ui.shared.plain import plain_tooltip
from app.ui.shared.two_line import SECOND_LINE
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
    two_line.two_line_table(table, ELIDED, FIRST_LINE_WHOLE, RIGHT_ALIGNED)
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


def column_widths(table: QTableWidget) -> tuple[list[int], list[int]]:
    """(need, floor) of each column: its widest line (or header); what it may shrink to — the header of
    a free-text column, and the instance column's ids, which are never elided."""
    return two_line.column_widths(table, ELIDED, FIRST_LINE_WHOLE)


def fit(table: QTableWidget) -> None:
    """Size the columns to what they now show (after a fill or a tick): the free text gives up width
    first; ids, IPs and numbers keep theirs."""
    two_line.fit(table, ELIDED, FIRST_LINE_WHOLE)


def fit_if_cut(table: QTableWidget) -> None:
    """After a tick: size the columns again only if a ticking cell no longer fits its column."""
    header = table.horizontalHeader()
    need, _floor = column_widths(table)
    if any(need[c] > header.sectionSize(c) for c in (COL_STATE, COL_PRICE, COL_COST, COL_RUN)):
        fit(table)
