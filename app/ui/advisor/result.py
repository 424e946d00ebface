"""The advisor's result step: the summary, the ranked offers with their reasons, and below them the cost
of the selected offer and the offers left out with the reason for each.

Its strings keep the "AdvisorPage" translation context they had as part of the page.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHeaderView,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.core import providers
from app.core.advisor import AdvisorResult
from app.core.currency import convert, format_money
from app.core.models import Offer
from app.ui.context import AppContext
from app.ui.shared.estimator import EstimatorWidget
from app.ui.shared.plain import PlainLabel, plain_tooltip
from app.ui.widgets import remember_splitter

OfferKey = tuple[str, str, str]
TOP = 5  # the offers the result step lists, each with its reasons; the offers table shows every one that fits


class AdvisorResultPanel(QWidget):
    """Shows one AdvisorResult; `offer_of` finds the catalog offer behind a ranked key."""

    def __init__(self, ctx: AppContext, offer_of: Callable[[OfferKey], Offer | None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.offer_of = offer_of
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.summary_label = PlainLabel(self)
        self.summary_label.setObjectName("advisorSummary")
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.summary_label)
        split = QSplitter(Qt.Orientation.Vertical, self)
        self.ranked_table = QTableWidget(0, 5, split)
        self.ranked_table.setObjectName("rankedTable")
        self.ranked_table.setHorizontalHeaderLabels([
            QCoreApplication.translate("AdvisorPage", "#"), QCoreApplication.translate("AdvisorPage", "Offer"),
            QCoreApplication.translate("AdvisorPage", "GPUs"),
            QCoreApplication.translate("AdvisorPage", "On-demand / h"),
            QCoreApplication.translate("AdvisorPage", "Why")])
        self._setup_table(self.ranked_table)
        self.ranked_table.itemSelectionChanged.connect(self._on_ranked_table_selection_changed)
        # the reasons wrap: when a column's width changes (the window, the language, the offers' names)
        # each row's height follows, so no reason is cut off at the bottom of its cell
        self._rows_fit_due = False
        self.ranked_table.horizontalHeader().sectionResized.connect(self._on_ranked_column_resized)
        self.result_tabs = QTabWidget(split)
        self.result_tabs.setObjectName("resultTabs")
        est_scroll = QScrollArea(self.result_tabs)
        est_scroll.setWidgetResizable(True)
        est_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.estimator = EstimatorWidget(self.ctx, est_scroll)
        self.estimator.setObjectName("advisorEstimator")
        est_scroll.setWidget(self.estimator)
        self.result_tabs.addTab(est_scroll, QCoreApplication.translate("AdvisorPage", "Cost of the selected offer"))
        self.excluded_table = QTableWidget(0, 2, self.result_tabs)
        self.excluded_table.setObjectName("excludedTable")
        self.excluded_table.setHorizontalHeaderLabels([QCoreApplication.translate("AdvisorPage", "Offer"),
                                                       QCoreApplication.translate("AdvisorPage", "Reason")])
        self._setup_table(self.excluded_table)
        self.excluded_table.setWordWrap(False)
        self.result_tabs.addTab(self.excluded_table, QCoreApplication.translate("AdvisorPage", "Left out, and why"))
        split.addWidget(self.ranked_table)
        split.addWidget(self.result_tabs)
        split.setChildrenCollapsible(False)
        # The cost table below needs its rows; the ranked table scrolls.
        self.ranked_table.setMinimumHeight(120)
        self.result_tabs.setMinimumHeight(220)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setSizes([360, 260])  # the few best offers and their reasons first
        self.splitter = split
        remember_splitter(split, ctx.settings, "advisor_result")
        lay.addWidget(split, 1)

    @staticmethod
    def _setup_table(table: QTableWidget) -> None:
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.verticalHeader().setVisible(False)
        table.setWordWrap(True)
        table.setAlternatingRowColors(True)
        header = table.horizontalHeader()
        for c in range(table.columnCount() - 1):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(table.columnCount() - 1, QHeaderView.ResizeMode.Stretch)

    def clear(self) -> None:
        self.ranked_table.setRowCount(0)
        self.excluded_table.setRowCount(0)

    def set_summary(self, result: AdvisorResult) -> None:
        self.summary_label.setText("\n".join(result.summary))

    def show_result(self, result: AdvisorResult, rate: Any) -> None:
        """Fill both tables and select the best offer (its cost shows below)."""
        r = result.ranking
        top = r.items[:TOP]
        self.ranked_table.setRowCount(len(top))
        for row, item in enumerate(top):
            offer = self.offer_of(item.key)
            cells = [str(item.rank), self._offer_label(item.key), self._gpu_text(offer),
                     self._price_text(offer, rate), "\n".join(f"• {s}" for s in item.reasons)]
            for col, text in enumerate(cells):
                cell = QTableWidgetItem(text)
                cell.setData(Qt.ItemDataRole.UserRole, item.key)
                if col == 4:
                    cell.setToolTip(plain_tooltip(text))
                self.ranked_table.setItem(row, col, cell)
        self.ranked_table.resizeRowsToContents()
        self.excluded_table.setRowCount(len(r.excluded))
        for row, (key, reason) in enumerate(r.excluded):
            self.excluded_table.setItem(row, 0, QTableWidgetItem(self._offer_label(key, one_line=True)))
            cell = QTableWidgetItem(reason)
            cell.setToolTip(plain_tooltip(reason))
            self.excluded_table.setItem(row, 1, cell)
        self.result_tabs.setTabText(1, QCoreApplication.translate("AdvisorPage", "Left out, and why ({count})").format(
            count=str(len(r.excluded))))

    def select_best(self, result: AdvisorResult) -> None:
        if result.ranking.items:
            self.ranked_table.selectRow(0)
            self.result_tabs.setCurrentIndex(0)
        else:
            self.estimator.set_offer(None)
            self.result_tabs.setCurrentIndex(1)  # the reasons, not an empty cost table
            self.summary_label.setText(self.summary_label.text() + "\n\n" + QCoreApplication.translate(
                "AdvisorPage", "No offer fits every answer. The tab “Left out, and why” below says "
                "why each was left out; change an answer with Back."))

    @staticmethod
    def _offer_label(key: OfferKey, one_line: bool = False) -> str:
        provider, region, instance = key
        return f"{providers.display_name(provider)} {instance}{' · ' if one_line else chr(10)}{region}"

    @staticmethod
    def _gpu_text(offer: Offer | None) -> str:
        if offer is None:
            return ""
        return f"{offer.gpu_count:g} × {offer.gpu_model}\n{offer.vram_gb:g} GB"

    @staticmethod
    def _price_text(offer: Offer | None, rate: Any) -> str:
        if offer is None or offer.price_on_demand is None:
            return QCoreApplication.translate("AdvisorPage", "unknown")
        native = format_money(offer.price_on_demand, offer.currency)
        if offer.currency == "CNY":
            return native
        cny = convert(offer.price_on_demand, offer.currency, "CNY", rate)
        return f"{native}\n≈ {format_money(cny, 'CNY')}"

    @Slot(int, int, int)
    def _on_ranked_column_resized(self, _column: int, _old: int, _new: int) -> None:
        if not self._rows_fit_due:  # once per event-loop turn, however many sections moved
            self._rows_fit_due = True
            QTimer.singleShot(0, self, self._fit_ranked_rows)

    @Slot()
    def _fit_ranked_rows(self) -> None:
        self._rows_fit_due = False
        self.ranked_table.resizeRowsToContents()

    @Slot()
    def _on_ranked_table_selection_changed(self) -> None:
        rows = self.ranked_table.selectionModel().selectedRows()
        if not rows:
            return
        cell = self.ranked_table.item(rows[0].row(), 0)
        if cell is None:
            return
        key = cell.data(Qt.ItemDataRole.UserRole)
        self.estimator.set_offer(self.offer_of(tuple(key)))
