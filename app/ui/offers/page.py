"""The offers page: every GPU offer across eight clouds, filterable, sortable, in CNY or USD.

The catalog loads off the GUI thread (ctx.runner) so the window shows at once. Filters and the
display currency live in settings and survive restarts. The advisor hands a Ranking via
``activate(payload)``; the ranked offers then come first with Rank and Why columns, and a banner
says what was recommended and what was excluded and why.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QItemSelection,
    QObject,
    QSignalBlocker,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import QFont, QFontMetrics, QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.catalog import CatalogLoad, load_catalog
from app.core.currency import convert, effective_rate, source_text
from app.core.models import Offer, Ranking
from app.core.offerquery import OfferFilter
from app.ui import theme
from app.ui.offers.details import OfferDetailsPanel
from app.ui.offers.filter_bar import OffersFilterBar
from app.ui.offers.model import ELIDED_KEYS, PRIORITY, OfferFilterProxyModel, OffersTableModel
from app.ui.offers.price_refresh import PriceRefresh
from app.ui.offers.ranking_banner import RankingBanner
from app.ui.offers.table_view import OffersTableView
from app.ui.shared.fit_columns import cell_margin, plan_columns
from app.ui.shared.plain import PlainLabel, esc, plain_box, plain_tooltip, rich_label
from app.ui.widgets import remember_splitter

if TYPE_CHECKING:
    from app.ui.context import AppContext

log = logging.getLogger(__name__)

TABLE_MIN_HEIGHT = 140  # header and about four rows
DETAILS_MIN_HEIGHT = 250  # the offer's title, launch button and the estimator's inputs
TEXT_FLOOR_CHARS = 13  # a free-text column keeps about this many characters before other columns are hidden
SIZE_ROWS = 5000  # the rows measured for the columns' widths (the bundled catalog has well under 100)
DETAILS_SHARE = 0.55  # of the splitter's height, the first time (later: the height the user dragged)


class OffersPage(QWidget):
    page_id = "offers"
    catalog_loaded = Signal()  # after each (re)load of the catalog reached the table

    @staticmethod
    def nav_title() -> str:
        return QCoreApplication.translate("OffersPage", "GPU offers")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.load: CatalogLoad | None = None
        self._pending_ranking: Ranking | None = None
        self._rerank_after_load = False  # a language switch: rank again once the catalog is here
        self._filters_before_ranking: OfferFilter | None = None
        self._loading = False
        self.last_live_message = ""
        self._restoring = True  # no settings writes while the saved state is being shown

        outer = QVBoxLayout(self)
        outer.setContentsMargins(16, 12, 16, 12)
        outer.setSpacing(8)

        head = QHBoxLayout()
        title = PlainLabel(self.tr("GPU offers"), self)
        title.setStyleSheet("font-size: 20px; font-weight: 600;")
        head.addWidget(title)
        self.count_label = PlainLabel(self)
        self.count_label.setObjectName("offersCount")
        self.count_label.setStyleSheet("color: palette(mid);")
        head.addWidget(self.count_label)
        head.addStretch(1)
        self.rate_label = PlainLabel(self)
        self.rate_label.setObjectName("offersRate")
        self.rate_label.setStyleSheet("color: palette(mid);")
        self.rate_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # shown in the status row at the bottom: in the header it was cut off at 1024 px ("2026-0")
        self.live_button = QPushButton(self.tr("Refresh &live prices"), self)
        self.live_button.setObjectName("offersLiveButton")
        self.live_button.setToolTip(self.tr("Ask every cloud account you added for today's prices, spot prices "
                                            "and sold-out types (Ctrl+R)"))
        self.live_button.setShortcut(QKeySequence("Ctrl+R"))
        self.prices = PriceRefresh(self)  # the two price buttons' background jobs
        self.live_button.clicked.connect(self.prices.fetch_live)
        head.addWidget(self.live_button)
        self.public_button = QPushButton(self.tr("Refresh publi&c prices"), self)
        self.public_button.setObjectName("offersPublicButton")
        self.public_button.setToolTip(self.tr("Fetch Azure's public price list (no account needed) and mark each "
                                              "price with the time it was fetched. The other clouds publish no "
                                              "price list that can be read without an account."))
        self.public_button.clicked.connect(self.prices.fetch_public)
        head.addWidget(self.public_button)
        self.cny_button = QToolButton(self)
        self.cny_button.setText(self.tr("CNY ¥"))
        self.usd_button = QToolButton(self)
        self.usd_button.setText(self.tr("USD $"))
        self.currency_group = QButtonGroup(self)
        self.currency_group.setExclusive(True)
        for b, cur in ((self.cny_button, "CNY"), (self.usd_button, "USD")):
            b.setCheckable(True)
            b.setProperty("currency", cur)
            b.setToolTip(self.tr("Show prices in {currency} (display only; you are billed in the provider's "
                                 "currency)").format(currency=cur))
            self.currency_group.addButton(b)
            head.addWidget(b)
        self.currency_group.buttonToggled.connect(self._on_currency_group_toggled)
        outer.addLayout(head)

        self.filter_bar = OffersFilterBar(self)
        self.filter_bar.filter_changed.connect(self._on_filter_bar_changed)
        outer.addWidget(self.filter_bar)

        self.banner = RankingBanner(self)
        self.banner_label = self.banner.label
        self.banner_label.linkActivated.connect(self._on_banner_label_link_activated)
        self.clear_ranking_button = self.banner.clear_button
        self.clear_ranking_button.clicked.connect(self.clear_ranking)
        outer.addWidget(self.banner)

        self.problem_label = rich_label(parent=self)  # a link the UI composes; text escaped
        self.problem_label.setObjectName("offersProblems")
        self.problem_label.setWordWrap(True)
        self.problem_label.setStyleSheet(f"color: {theme.css('warning')};")
        self.problem_label.linkActivated.connect(self._on_problem_label_link_activated)
        self.problem_label.hide()
        outer.addWidget(self.problem_label)

        self.model = OffersTableModel(self)
        self.proxy = OfferFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)

        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.table = OffersTableView(self.proxy, self.splitter)
        self._column_need: tuple[list[int], list[int], list[int]] | None = None  # need, floor, least per column
        self.table.viewport().installEventFilter(self)  # fit the columns again on every width change
        self.table.horizontalHeader().sectionClicked.connect(self._on_header_section_clicked)
        self.table.selectionModel().selectionChanged.connect(self._on_table_selection_changed)

        self.details = OfferDetailsPanel(ctx, self.splitter)
        self.details.clock = self.model.now  # a bound method: no reference cycle through the page
        self.splitter.addWidget(self.table)
        self.splitter.addWidget(self.details)
        self.splitter.setChildrenCollapsible(False)
        # The table scrolls and can be short; the details and estimator below need room to be read.
        self.table.setMinimumHeight(TABLE_MIN_HEIGHT)
        self.details.setMinimumHeight(DETAILS_MIN_HEIGHT)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        self._splitter_sized = bool(ctx.settings.splitter_states.get("offers"))
        remember_splitter(self.splitter, ctx.settings, "offers")
        self.splitter.splitterMoved.connect(self._on_splitter_moved)
        outer.addWidget(self.splitter, 1)

        status_row = QHBoxLayout()
        self.status_label = PlainLabel(self.tr("Loading the offer catalog…"), self)
        self.status_label.setObjectName("offersStatus")
        self.status_label.setStyleSheet("color: palette(mid);")
        self.status_label.setWordWrap(True)
        status_row.addWidget(self.status_label, 1)
        status_row.addWidget(self.rate_label, 0, Qt.AlignmentFlag.AlignTop)
        self.public_progress = QProgressBar(self)
        self.public_progress.setObjectName("offersPublicProgress")
        self.public_progress.setMaximumWidth(220)
        self.public_progress.hide()
        status_row.addWidget(self.public_progress)
        outer.addLayout(status_row)

        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(800)
        self._save_timer.timeout.connect(self._save_settings)

        QShortcut(QKeySequence.StandardKey.Find, self, self.focus_search,
                  context=Qt.ShortcutContext.WidgetWithChildrenShortcut)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self._on_escape,
                  context=Qt.ShortcutContext.WidgetWithChildrenShortcut)

        ctx.settings_changed.connect(self._on_ctx_settings_changed)
        self._apply_currency(ctx.settings.display_currency, save=False)
        saved = OfferFilter.from_dict(ctx.settings.offers_filters)
        if saved.max_price is not None and saved.currency != self.model.currency:
            saved = replace(saved, max_price=round(convert(saved.max_price, saved.currency,
                                                           self.model.currency, self.model.rate) or 0, 2))
        self.filter_bar.set_filter(replace(saved, currency=self.model.currency))
        self._restoring = False
        self._sync_sort_indicator()
        self.start_loading()

    # -- loading ------------------------------------------------------------------------------

    def start_loading(self) -> None:
        """Load (or reload, F5) the catalog in the background; the table fills when it is done."""
        if self._loading:
            return
        self._loading = True
        self.status_label.setText(self.tr("Loading the offer catalog…"))
        self.ctx.runner.run(self, load_catalog, self.ctx.paths, name="offers.load_catalog",
                            on_done=self._on_catalog_loaded, on_error=self._on_catalog_failed)

    def refresh(self) -> None:
        self.start_loading()

    @Slot(object)
    def _on_catalog_loaded(self, load: CatalogLoad) -> None:
        self._loading = False
        self.set_catalog(load)

    @Slot(object)
    def _on_catalog_failed(self, exc: BaseException) -> None:
        self._loading = False
        self.status_label.setText(self.tr("The offer catalog could not be loaded. Reinstall LabGPU "
                                          "or press F5 to try again."))
        self.ctx.errors.report(exc)

    def set_catalog(self, load: CatalogLoad) -> None:
        """Show `load` (used by the background load, and directly by tests and benchmarks)."""
        self.load = load
        selected = self.current_offer()
        self.model.set_offers(load.offers, load.gpus)
        self.filter_bar.set_regions(load.offers)
        self.details.set_context(load.gpus, self.model.currency, self.model.rate)
        if self._rerank_after_load:
            self._rerank_after_load = False
            self._pending_ranking = self._ranking_in_this_language(load.offers)
        if self._pending_ranking is not None:
            ranking, self._pending_ranking = self._pending_ranking, None
            self.show_ranking(ranking)
        self._show_problems(load.problems)
        self._sync_sort_indicator()
        self._update_counts()
        reselected = selected is not None and self.select_offer(selected.key)
        if not reselected and self.proxy.rowCount() and self.model.ranking is None:
            self.table.selectRow(0)  # the best offer by the default order, with its details
        self.catalog_loaded.emit()

    def _show_problems(self, problems: list[str]) -> None:
        if not problems:
            self.problem_label.hide()
            return
        n = len(problems)
        text = (self.tr("1 catalog row could not be read and is not shown.") if n == 1 else
                self.tr("{count} catalog rows could not be read and are not shown.").format(count=str(n)))
        self.problem_label.setText(esc(text) + " <a href=\"problems\">" + esc(self.tr("Details")) + "</a>")
        self.problem_label.show()

    @Slot(str)
    def _on_problem_label_link_activated(self, _link: str) -> None:
        if self.load is None:
            return
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Catalog problems"),
                          self.tr("These rows were skipped; the rest of the catalog loaded."),
                          QMessageBox.StandardButton.Close, self)
        box.setDetailedText("\n".join(self.load.problems))
        plain_box(box).open()

    # -- currency -----------------------------------------------------------------------------

    def _apply_currency(self, currency: str, save: bool = True) -> None:
        currency = currency if currency in ("CNY", "USD") else "CNY"
        rate = effective_rate(self.ctx.settings)
        blocker = QSignalBlocker(self.currency_group)
        (self.cny_button if currency == "CNY" else self.usd_button).setChecked(True)
        del blocker
        old, old_rate = self.model.currency, self.model.rate
        self.model.set_display(currency, rate)
        if (old, old_rate) != (currency, rate):
            self._autosize_columns()  # ¥1,234.56 and $171.00 are not as wide
        if rate != old_rate:
            self.proxy.refilter()
        self.details.set_context(self.model.gpus, currency, rate)
        self.filter_bar.set_currency(currency)
        if old != currency and self.filter_bar.price_spin.value() > 0:
            # keep the same budget when switching: convert the typed maximum too
            value = convert(self.filter_bar.price_spin.value(), old, currency, rate) or 0.0
            self.filter_bar.price_spin.setValue(round(value, 2))
        else:
            self.filter_bar.flush()
            self._on_filter_bar_changed(self.filter_bar.current_filter())
        day = rate.as_of.isoformat() if rate.as_of else self.tr("undated")
        self.rate_label.setText(self.tr("1 USD = {rate} CNY · {source} · {day} · display only").format(
            rate=f"{rate.usd_cny:.4f}", source=self._source_text(rate), day=day))
        self.rate_label.setToolTip(plain_tooltip(rate.describe() + (f"\n{rate.url}" if rate.url else "")))
        if save and self.ctx.settings.display_currency != currency:
            self.ctx.settings.display_currency = currency
            self._save_timer.start()

    def _source_text(self, rate: Any) -> str:
        return source_text(rate)

    @Slot(object, bool)
    def _on_currency_group_toggled(self, button: QToolButton, checked: bool) -> None:
        if checked:
            self._apply_currency(str(button.property("currency")))

    @Slot()
    def _on_ctx_settings_changed(self) -> None:
        s = self.ctx.settings
        rate = effective_rate(s)
        if s.display_currency != self.model.currency or rate != self.model.rate:
            self._apply_currency(s.display_currency, save=False)

    def set_currency(self, currency: str) -> None:
        (self.cny_button if currency == "CNY" else self.usd_button).click()

    # -- filters and sorting ------------------------------------------------------------------

    @Slot(object)
    def _on_filter_bar_changed(self, flt: OfferFilter) -> None:
        self.proxy.set_filter(flt)
        self._update_counts()
        if not self._restoring:
            doc = flt.to_dict()
            if self.ctx.settings.offers_filters != doc:
                self.ctx.settings.offers_filters = doc
                self._save_timer.start()
        current = self.current_offer()
        if current is not None and not self._is_visible(current):
            self.table.clearSelection()

    def _is_visible(self, offer: Offer) -> bool:
        return any(o is offer for o in self.proxy.visible_offers())

    @Slot(int)
    def _on_header_section_clicked(self, section: int) -> None:
        cols = self.model.columns()
        if not 0 <= section < len(cols):
            return
        key = cols[section].key
        descending = (not self.model.sort_descending) if key == self.model.sort_key else False
        self.sort_by(key, descending)

    def _sync_sort_indicator(self, autosize: bool = True) -> None:
        col = self.model.column_of(self.model.sort_key)
        order = Qt.SortOrder.DescendingOrder if self.model.sort_descending else Qt.SortOrder.AscendingOrder
        header = self.table.horizontalHeader()
        blocker = QSignalBlocker(header)
        header.setSortIndicator(col, order)
        del blocker
        if autosize:
            self._autosize_columns()

    def _autosize_columns(self) -> None:
        """Measure what each column needs (its header; its widest cell over the offers, not only those
        the filters show, so the widths stay put while filtering), then fit them to the width."""
        header = self.table.horizontalHeader()
        model = self.model
        n = model.columnCount()
        fm = self.table.fontMetrics()
        italic = QFont(self.table.font())
        italic.setItalic(True)
        fm_italic = QFontMetrics(italic)
        bold = QFont(self.table.font())
        bold.setBold(True)
        fm_bold = QFontMetrics(bold)
        margin = cell_margin(self.table)
        rows = min(model.rowCount(), SIZE_ROWS)
        need, floor, least = [], [], []
        for c in range(n):
            head = header.sectionSizeFromContents(c).width()
            texts = {str(model.data(model.index(r, c)) or "") for r in range(rows)}
            longest = max((len(t) for t in texts), default=0)
            widest = max((max(fm.horizontalAdvance(t), fm_italic.horizontalAdvance(t), fm_bold.horizontalAdvance(t))
                          for t in texts if len(t) >= longest - 2), default=0)  # digits are all one width
            need.append(max(head, widest + margin))
            # free text elides, but not to a stub while a column of lesser use could be hidden instead
            floor.append(max(head, min(need[-1], TEXT_FLOOR_CHARS * fm.averageCharWidth())))
            least.append(head)
        self._column_need = (need, floor, least)
        self._fit_columns()

    def _fit_columns(self) -> None:
        """Show the columns that fit the table's width, most important first (and the sorted one): numbers
        whole, free text elided; the others are hidden (the details below show every field)."""
        if self._column_need is None:
            return
        need, floor, least = self._column_need
        cols = self.model.columns()
        if len(need) != len(cols):
            return
        keys = [c.key for c in cols]
        elide = [i for i, k in enumerate(keys) if k in ELIDED_KEYS]
        first = [self.model.sort_key] if self.model.sort_key in keys else []
        order = [keys.index(k) for k in dict.fromkeys([*first, *PRIORITY]) if k in keys]
        order += [i for i in range(len(keys)) if i not in order]
        widths, hidden = plan_columns(need, floor, elide, order, self.table.viewport().width(), least)
        header = self.table.horizontalHeader()
        for c, w in enumerate(widths):
            header.setSectionHidden(c, c in hidden)
            if c not in hidden and header.sectionSize(c) != w:
                header.resizeSection(c, w)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.table.viewport() and event.type() == QEvent.Type.Resize:
            self._fit_columns()
        return False

    def sort_by(self, key: str, descending: bool = False) -> None:
        if self.model.column_of(key) < 0:
            return
        self.model.sort_by(key, descending)
        self._sync_sort_indicator(autosize=False)
        self._fit_columns()  # the sorted column is kept when the width hides others
        current = self.current_offer()
        if current is not None:
            self.table.scrollTo(self.table.selectionModel().selectedRows()[0])

    def _update_counts(self) -> None:
        total = self.model.rowCount()
        shown = self.proxy.rowCount()
        self.count_label.setText(self.tr("{shown} of {total} offers").format(shown=str(shown), total=str(total)))
        if self.load is None:
            return
        if total and not shown:
            self.status_label.setText(self.tr("No offer matches these filters. Press Esc or "
                                              "“Reset filters” to see all offers."))
        else:
            live = self.load.live_count
            self.status_label.setText(
                self.tr("Prices are per hour unless marked. Unknown prices come from providers that "
                        "publish none: connect an account to fetch them.")
                + (" " + self.tr("Live prices from your accounts: {live}.").format(live=str(live))
                   if live else "")
                + (" " + self.last_live_message if self.last_live_message else ""))

    @Slot()
    def focus_search(self) -> None:
        self.filter_bar.search_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.filter_bar.search_edit.selectAll()

    @Slot()
    def _on_escape(self) -> None:
        if self.filter_bar.search_edit.text():
            self.filter_bar.search_edit.clear()
            self.filter_bar.flush()
        else:
            self.filter_bar.reset()

    # -- selection and details ----------------------------------------------------------------

    def current_offer(self) -> Offer | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows:
            return None
        return self.proxy.offer_at(rows[0].row())

    def select_offer(self, key: tuple[str, str, str]) -> bool:
        for r in range(self.proxy.rowCount()):
            o = self.proxy.offer_at(r)
            if o is not None and o.key == key:
                self.table.selectRow(r)
                self.table.scrollTo(self.proxy.index(r, 0))
                return True
        return False

    @Slot(QItemSelection, QItemSelection)
    def _on_table_selection_changed(self, _selected: QItemSelection, _deselected: QItemSelection) -> None:
        self.details.set_offer(self.current_offer())

    # -- advisor ranking ----------------------------------------------------------------------

    def language_state(self) -> object:
        """What a language switch must keep (the window rebuilds its pages): the advisor's ranking."""
        if self.model.ranking is None:
            return None
        return {"ranked": True, "filters_before": self._filters_before_ranking}

    def restore_language_state(self, state: object) -> None:
        if isinstance(state, dict) and state.get("ranked"):
            # The ranking's words are in the old language: rank again, from the advisor's saved answers.
            self._filters_before_ranking = state.get("filters_before")
            if self.load is None:
                self._rerank_after_load = True
            else:
                self.show_ranking(self._ranking_in_this_language(self.load.offers))

    def _ranking_in_this_language(self, offers: Any) -> Ranking:
        from app.core.advisor import AdvisorAnswers, advise
        from app.core.settings import read_section
        from app.ui.shared.estimator import SETTINGS_KEY

        answers = read_section(self.ctx.settings, (SETTINGS_KEY, "answers"), AdvisorAnswers)  # the advisor's
        return advise(list(offers), answers, effective_rate(self.ctx.settings)).ranking

    def activate(self, payload: object) -> None:
        if isinstance(payload, Ranking):
            if self.load is None:
                self._pending_ranking = payload
            else:
                self.show_ranking(payload)

    def show_ranking(self, ranking: Ranking) -> None:
        self.model.set_ranking(ranking)
        # The ranked offers must be visible even if the user's filters would hide them; the
        # filters come back with "Clear ranking".
        if not self.filter_bar.is_default():
            if self._filters_before_ranking is None:
                self._filters_before_ranking = self.filter_bar.current_filter()
            self.filter_bar.reset()
        n_rec = sum(1 for r in ranking.items if any(o.key == r.key for o in self.model.offers))
        self.banner.show_ranking(ranking, n_rec)
        self._sync_sort_indicator()
        self._update_counts()
        self.table.scrollToTop()
        if ranking.items and n_rec:
            self.select_offer(ranking.items[0].key)

    @Slot()
    def clear_ranking(self) -> None:
        self.model.set_ranking(None)
        self.banner.hide()
        saved, self._filters_before_ranking = self._filters_before_ranking, None
        if saved is not None:
            self.filter_bar.set_filter(replace(saved, currency=self.model.currency, max_price=None)
                                       if saved.currency != self.model.currency else saved)
        self._sync_sort_indicator()
        self._update_counts()

    def exclusions_text(self) -> str:
        return self.banner.exclusions_text(self.model.ranking)

    @Slot(str)
    def _on_banner_label_link_activated(self, _link: str) -> None:
        if self.model.ranking is not None:
            self.banner.show_exclusions(self.model.ranking, self)

    # -- persistence --------------------------------------------------------------------------

    @Slot(int, int)
    def _on_splitter_moved(self, _pos: int, _index: int) -> None:
        self._splitter_sized = True  # the user's own split from now on

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if not self._splitter_sized and self.splitter.height() > TABLE_MIN_HEIGHT + DETAILS_MIN_HEIGHT:
            # The first time (nothing remembered): the details get DETAILS_SHARE of the height.
            self._splitter_sized = True
            total = self.splitter.height() - self.splitter.handleWidth()
            lower = max(DETAILS_MIN_HEIGHT, min(total - TABLE_MIN_HEIGHT, round(total * DETAILS_SHARE)))
            self.splitter.setSizes([total - lower, lower])

    @Slot()
    def _save_settings(self) -> None:
        try:
            self.ctx.save_settings()
        except OSError as exc:
            log.warning("could not save offers settings: %s", exc)

    def shutdown(self) -> None:
        self.filter_bar.flush()
        if self._save_timer.isActive():
            self._save_timer.stop()
            self._save_settings()
