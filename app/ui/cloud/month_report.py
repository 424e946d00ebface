"""The monthly cost report: what each instance cost in a calendar month (UTC), by account.

Numbers come from the ledger through ``app.core.monthreport.month_report`` (the same as
``labgpu cost --month``): a bar per instance, coloured by account, a table with each account's
subtotal, and a CSV export. Amounts are shown in their own currency and, for totals, in the
display currency.
"""

from __future__ import annotations

import csv
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.ui.cloud import error_sentence, money
from app.ui.shared.plain import PlainLabel
from app.ui.widgets import configure_record_table

if TYPE_CHECKING:
    from app.ui.context import AppContext

ACCOUNT_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")


def recent_months(now: datetime, count: int = 13) -> list[str]:
    y, m = now.year, now.month
    out = []
    for _ in range(count):
        out.append(f"{y:04d}-{m:02d}")
        m -= 1
        if m == 0:
            y, m = y - 1, 12
    return out


def load_report(store: Any, month: str) -> list[Any]:
    from app.core.monthreport import month_report

    return month_report(store, month)


def load_report_and_runs(store: Any, month: str, rate: Any) -> tuple[list[Any], list[Any]]:
    """The month's lines and its runs (a reclaimed spot instance and its relaunch), each with its total."""
    from app.core.monthreport import month_runs

    lines = load_report(store, month)
    return lines, month_runs(store, lines, rate)


def write_csv(path: Path, month: str, lines: list[Any]) -> int:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["month", "account", "provider", "instance", "type", "spot", "hours", "price_per_hour",
                    "cost", "currency", "run"])
        for ln in lines:
            w.writerow([month, ln.account, ln.provider, ln.id, ln.instance_type, "yes" if ln.spot else "no",
                        f"{ln.hours:.4f}", "" if ln.price_per_hour is None else f"{ln.price_per_hour:g}",
                        "" if ln.cost is None else f"{ln.cost:.4f}", ln.currency, ln.run_id])
    return len(lines)


class MonthReportDialog(QDialog):
    loaded = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, now: datetime | None = None) -> None:
        super().__init__(parent)
        import pyqtgraph as pg

        self.ctx = ctx
        self.lines: list[Any] = []
        self.runs: list[Any] = []  # app.core.monthreport.RunMonth: each run's total in the month
        self.setObjectName("monthReport")
        self.setWindowTitle(self.tr("Monthly cost report"))
        self.resize(900, 640)
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(PlainLabel(self.tr("Month (UTC):"), self))
        self.month_combo = QComboBox(self)
        for m in recent_months(now or datetime.now(timezone.utc)):
            self.month_combo.addItem(m, m)
        self.month_combo.currentIndexChanged.connect(self._on_month_combo_changed)
        top.addWidget(self.month_combo)
        top.addStretch(1)
        self.total_label = PlainLabel(self)
        self.total_label.setObjectName("reportTotal")
        self.total_label.setStyleSheet("font-weight: 600;")
        top.addWidget(self.total_label)
        layout.addLayout(top)
        self.plot = pg.PlotWidget(self, background="w")
        self.plot.setObjectName("reportPlot")
        self.plot.setMinimumHeight(220)
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.setLabel("left", self.tr("Cost ({currency})").format(currency=self.currency()))
        layout.addWidget(self.plot, 2)
        self.table = QTableWidget(0, 6, self)
        self.table.setObjectName("reportTable")
        self.table.setHorizontalHeaderLabels([self.tr("Account"), self.tr("Instance"), self.tr("Type"),
                                              self.tr("Hours"), self.tr("Cost"), self.tr("In {currency}").format(
                                                  currency=self.currency())])
        configure_record_table(self.table)
        layout.addWidget(self.table, 3)
        self.status_label = PlainLabel(self)
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.csv_button = self.buttons.addButton(self.tr("Export CSV…"), QDialogButtonBox.ButtonRole.ActionRole)
        self.csv_button.clicked.connect(lambda: self.export_csv())
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.load()

    def currency(self) -> str:
        return str(getattr(self.ctx.settings, "display_currency", "CNY") or "CNY")

    def month(self) -> str:
        return str(self.month_combo.currentData())

    @Slot(int)
    def _on_month_combo_changed(self, _i: int) -> None:
        self.load()

    def load(self) -> Any:
        self.status_label.setText(self.tr("Reading the ledger…"))
        from app.core.currency import effective_rate

        return self.ctx.runner.run(self, load_report_and_runs, self.ctx.store, self.month(),
                                   effective_rate(self.ctx.settings), name="month-report",
                                   on_done=self._on_loaded, on_error=self._on_failed)

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        message, hint = error_sentence(exc)  # type: ignore[arg-type]
        self.status_label.setText(self.tr("The report could not be made: {message} {hint}").format(
            message=message, hint=hint))
        self.loaded.emit()

    @Slot(object)
    def _on_loaded(self, loaded: object) -> None:
        import pyqtgraph as pg

        from app.core.currency import convert, effective_rate

        pair: tuple[list[Any], list[Any]] = loaded  # type: ignore[assignment]
        self.lines, self.runs = list(pair[0]), list(pair[1])
        rate = effective_rate(self.ctx.settings)
        cur = self.currency()
        accounts = sorted({ln.account for ln in self.lines})
        colors = {a: ACCOUNT_COLORS[i % len(ACCOUNT_COLORS)] for i, a in enumerate(accounts)}
        rows: list[tuple[str, str, str, str, str, str, bool]] = []
        total: float | None = 0.0
        unknown = 0
        xs: list[int] = []
        heights: list[float] = []
        brushes: list[Any] = []  # pyqtgraph brushes
        ticks: list[tuple[int, str]] = []
        for a in accounts:
            sub: float | None = 0.0
            for ln in (x for x in self.lines if x.account == a):
                conv = convert(ln.cost, ln.currency, cur, rate) if ln.cost is not None else None
                rows.append((a, ln.id, ln.instance_type, f"{ln.hours:.1f}", money(ln.cost, ln.currency, 2),
                             money(conv, cur, 2), False))
                if conv is None:
                    unknown += 1
                else:
                    sub = (sub or 0.0) + conv
                    xs.append(len(xs))
                    heights.append(conv)
                    brushes.append(pg.mkBrush(colors[a]))
                    ticks.append((len(xs) - 1, ln.id[-8:]))
            rows.append((a, self.tr("account total"), "", "", "", money(sub, cur, 2), True))
            total = None if total is None or sub is None else total + sub
        for run in self.runs:  # one run across instances: both lines above, and here the run's sum
            said = money(run.cost_usd if cur.upper() == "USD" else run.cost_cny, cur, 2)
            rows.append(("", self.tr("run {run}: {instances}").format(run=run.run.id,
                                                                      instances=" → ".join(run.run.instance_ids)),
                         "", f"{run.hours:.1f}", "", said + (" + ?" if run.unknown else ""), True))
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, text in enumerate(row[:6]):
                item = QTableWidgetItem(text)
                if row[6]:
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                if c >= 3:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self.plot.clear()
        if xs:
            self.plot.addItem(pg.BarGraphItem(x=xs, height=heights, width=0.7, brushes=brushes))
            self.plot.getAxis("bottom").setTicks([ticks])
        self.total_label.setText(self.tr("Total {month}: {total}").format(
            month=self.month(), total=money(total, cur, 2)))
        if not self.lines:
            self.status_label.setText(self.tr("No instance ran in {month}.").format(month=self.month()))
        elif unknown:
            self.status_label.setText(self.tr("{n} instance(s) have no known price; their cost is not in the "
                                              "total.").format(n=unknown))
        else:
            self.status_label.setText(self.tr("{n} instance(s) in {accounts} account(s).").format(
                n=len(self.lines), accounts=len(accounts)))
        self.loaded.emit()

    def export_csv(self, path: str | None = None) -> int | None:
        if path is None:
            path, _f = QFileDialog.getSaveFileName(self, self.tr("Export the report"),
                                                   str(Path.home() / f"labgpu-cost-{self.month()}.csv"),
                                                   self.tr("CSV files (*.csv)"))
            if not path:
                return None
        try:
            n = write_csv(Path(path), self.month(), self.lines)
        except OSError as exc:
            self.status_label.setText(self.tr("Could not write {path}: {error}. Choose another folder.").format(
                path=path, error=exc.strerror or exc))
            return None
        self.status_label.setText(self.tr("{n} rows written to {path}.").format(n=n, path=path))
        return n
