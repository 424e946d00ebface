"""Table model and sort/filter proxy for GPU offers.

The model keeps prices in their native currency and converts only for display. Sorting is done
by the source model in Python with precomputed keys (one ``sorted`` call instead of n·log n
``lessThan`` callbacks from C++), and the proxy filters from a precomputed accept mask, so a
filter change over 10,000 offers stays well under 50 ms. Unknown values always sort last,
whichever direction the user sorts in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, cast

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QFont, QFontMetrics, QPalette
from PySide6.QtWidgets import QApplication

from app.core import providers
from app.core.catalog import UNKNOWN_PRICE
from app.core.currency import ExchangeRate, convert, default_rate, format_money
from app.core.i18n import translate
from app.core.models import GpuSpec, Offer, RankedOffer, Ranking
from app.core.offerprices import price_age, price_per_gpu_hour, price_per_tflop_hour
from app.core.offerquery import OfferFilter, filter_mask, sort_order, sort_value
from app.ui import theme

OFFER_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2

_DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
_ALIGN = int(Qt.ItemDataRole.TextAlignmentRole.value)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole.value)
_FONT = int(Qt.ItemDataRole.FontRole.value)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole.value)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole.value)
_RIGHT = int((Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter).value)
_LEFT = int((Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter).value)
_FONTS: dict[str, QFont] = {}


def _font(kind: str) -> QFont:
    """Shared italic/bold fonts (made on first use: a QFont needs the application to exist)."""
    f = _FONTS.get(kind)
    if f is None:
        f = QFont()
        f.setItalic(kind == "italic")
        f.setBold(kind == "bold")
        _FONTS[kind] = f
    return f

_INDEX = (QModelIndex, QPersistentModelIndex)


@dataclass(frozen=True)
class Column:
    key: str
    title: str  # English source; translated at display time
    numeric: bool = True


# The prices stand next to the GPU, so a narrow window shows them whole (app.ui.offers.page fits the
# columns to the width: the free-text ones elide first, numbers never; what does not fit is hidden and
# shown in the details below the table).
COLUMNS: tuple[Column, ...] = (
    Column("provider", "Provider", False),
    Column("region", "Region", False),
    Column("instance_type", "Instance type", False),
    Column("gpu", "GPU", False),
    Column("count", "GPUs"),
    Column("on_demand", "On-demand/h"),
    Column("spot", "Spot/h"),
    Column("per_tflop", "Per FP16-TFLOP-hour"),  # the default sort
    Column("per_gpu", "Per GPU-hour"),
    Column("prepaid", "Prepaid/month"),
    Column("vram", "VRAM/GPU"),
    Column("tflops", "FP16 TFLOPS"),
    Column("age", "Price age"),
    Column("vcpu", "vCPU"),
    Column("ram", "RAM"),
    Column("network", "Network"),
    Column("source", "Source", False),
)
RANK_COLUMNS: tuple[Column, ...] = (Column("rank", "Rank"), Column("why", "Why", False))
# Free text: elided (whole in the cell's tooltip) before any column is hidden; every other column is shown
# whole or not at all.
ELIDED_KEYS = frozenset({"provider", "region", "instance_type", "source", "why"})
# Which columns a narrow window keeps, most important first (the sorted column goes first).
PRIORITY = ("rank", "gpu", "on_demand", "count", "provider", "instance_type", "spot", "per_tflop", "why",
            "region", "per_gpu", "vram", "prepaid", "tflops", "age", "vcpu", "ram", "network", "source")
MONEY_KEYS = frozenset({"on_demand", "spot", "prepaid", "per_gpu", "per_tflop"})

# lupdate needs literal strings; these mirror COLUMNS' titles.
_TITLES = (
    QCoreApplication.translate("OffersTableModel", "Provider"),
    QCoreApplication.translate("OffersTableModel", "Region"),
    QCoreApplication.translate("OffersTableModel", "Instance type"),
    QCoreApplication.translate("OffersTableModel", "GPU"),
    QCoreApplication.translate("OffersTableModel", "GPUs"),
    QCoreApplication.translate("OffersTableModel", "VRAM/GPU"),
    QCoreApplication.translate("OffersTableModel", "FP16 TFLOPS"),
    QCoreApplication.translate("OffersTableModel", "vCPU"),
    QCoreApplication.translate("OffersTableModel", "RAM"),
    QCoreApplication.translate("OffersTableModel", "Network"),
    QCoreApplication.translate("OffersTableModel", "On-demand/h"),
    QCoreApplication.translate("OffersTableModel", "Spot/h"),
    QCoreApplication.translate("OffersTableModel", "Prepaid/month"),
    QCoreApplication.translate("OffersTableModel", "Per GPU-hour"),
    QCoreApplication.translate("OffersTableModel", "Per FP16-TFLOP-hour"),
    QCoreApplication.translate("OffersTableModel", "Price age"),
    QCoreApplication.translate("OffersTableModel", "Source"),
    QCoreApplication.translate("OffersTableModel", "Rank"),
    QCoreApplication.translate("OffersTableModel", "Why"),
)


def two_lines(title: str, width: Callable[[str], int]) -> str:
    """A header on two lines when that makes it narrower: broken at a space, or after a hyphen with at
    least four characters either side, where the wider line is narrowest."""
    best, best_w = title, width(title)
    for i, ch in enumerate(title):
        if ch == " ":
            a, b = title[:i], title[i + 1:]
        elif ch == "-" and i >= 4 and len(title) - i - 1 >= 4:
            a, b = title[:i + 1], title[i + 1:]
        else:
            continue
        w = max(width(a), width(b))
        if a and b and w < best_w:
            best, best_w = f"{a}\n{b}", w
    return best


def _num_text(v: float | None, digits: int = 1) -> str:
    if v is None:
        return ""
    if float(v).is_integer():
        return f"{int(v)}"
    return f"{v:.{digits}f}".rstrip("0").rstrip(".")


class OffersTableModel(QAbstractTableModel):
    """Offers as rows; columns per COLUMNS (plus Rank and Why while an advisor ranking is shown)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._offers: list[Offer] = []
        self._gpus: dict[str, GpuSpec] = {}
        self._currency = "CNY"
        self._rate: ExchangeRate = default_rate()
        self._ranking: Ranking | None = None
        self._ranks: dict[tuple[str, str, str], RankedOffer] = {}
        self._columns: tuple[Column, ...] = COLUMNS
        self.clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)  # tests set a fixed one
        self._now = self.clock()
        self._sort_key: str = "per_tflop"
        self._sort_desc = False
        self._sort_cache: dict[str, list[Any]] = {}
        self._text_cache: dict[tuple[int, str], str] = {}  # (row, column key) → display text
        self._header_cache: dict[tuple[str, str], str] = {}  # (title, font) → the title on its lines

    # -- data in ------------------------------------------------------------------------------

    def set_offers(self, offers: Sequence[Offer], gpus: dict[str, GpuSpec] | None = None) -> None:
        self.beginResetModel()
        self._offers = list(offers)
        if gpus is not None:
            self._gpus = dict(gpus)
        self._now = self.clock()
        self._sort_cache.clear()
        self._apply_sort()
        self.endResetModel()

    def set_display(self, currency: str, rate: ExchangeRate) -> None:
        """Change the display currency/rate; rows and order stay (sorting is currency-neutral)."""
        changed_rate = rate != self._rate
        self._currency, self._rate = currency, rate
        self._text_cache.clear()
        if changed_rate:
            self._sort_cache.clear()
        if self._offers:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._offers) - 1, self.columnCount() - 1))
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, self.columnCount() - 1)

    def set_ranking(self, ranking: Ranking | None) -> None:
        self.beginResetModel()
        self._ranking = ranking
        self._ranks = {r.key: r for r in ranking.items} if ranking else {}
        self._columns = (RANK_COLUMNS + COLUMNS) if ranking else COLUMNS
        self._sort_cache.pop("rank", None)
        if ranking:
            self._sort_key, self._sort_desc = "rank", False
        elif self._sort_key in ("rank", "why"):
            self._sort_key, self._sort_desc = "per_tflop", False
        self._apply_sort()
        self.endResetModel()

    def now(self) -> datetime:
        """The model's clock (``self.clock``, replaced by tests with a fixed one)."""
        return self.clock()

    # -- data out -----------------------------------------------------------------------------

    @property
    def offers(self) -> list[Offer]:
        return self._offers

    @property
    def gpus(self) -> dict[str, GpuSpec]:
        return self._gpus

    @property
    def ranking(self) -> Ranking | None:
        return self._ranking

    @property
    def currency(self) -> str:
        return self._currency

    @property
    def rate(self) -> ExchangeRate:
        return self._rate

    def columns(self) -> tuple[Column, ...]:
        return self._columns

    def column_of(self, key: str) -> int:
        for i, c in enumerate(self._columns):
            if c.key == key:
                return i
        return -1

    def offer_at(self, row: int) -> Offer | None:
        return self._offers[row] if 0 <= row < len(self._offers) else None

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008,N802
        return 0 if parent.isValid() else len(self._offers)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008,N802
        return 0 if parent.isValid() else len(self._columns)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt override
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._columns):
            return None
        col = self._columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            title = self.tr(col.title)
            if col.key in MONEY_KEYS:
                title += " (¥)" if self._currency == "CNY" else " ($)"
            # two lines where that is narrower: the numbers below decide the column's width
            font = QApplication.font()
            ck = (title, font.key())
            text = self._header_cache.get(ck)
            if text is None:
                text = self._header_cache[ck] = two_lines(title, QFontMetrics(font).horizontalAdvance)
            return text
        if role == Qt.ItemDataRole.ToolTipRole:
            tips = {
                "tflops": self.tr("FP16 dense tensor TFLOPS of all GPUs of the instance"),
                "per_tflop": self.tr("On-demand price per hour divided by the instance's total "
                                 "FP16 dense TFLOPS"),
                "per_gpu": self.tr("On-demand price per hour divided by the number of GPUs"),
                "age": self.tr("How old the price is: fetched N minutes ago (live with your account, or from "
                               "a public price list), bundled with its date (flagged when over a year old), or "
                               "an undated snapshot"),
                "network": self.tr("Network bandwidth in Gbps"),
            }
            return tips.get(col.key)
        return None

    def _money(self, amount: float | None, offer: Offer) -> str:
        return format_money(convert(amount, offer.currency, self._currency, self._rate), self._currency)

    def _display(self, offer: Offer, key: str) -> str:
        if key == "provider":
            return providers.display_name(offer.provider)
        if key == "region":
            region = self.tr("all regions") if offer.region == "all regions" else offer.region
            return region + (f" / {offer.zone}" if offer.zone else "")
        if key == "instance_type":
            return offer.instance_type + (" ⛔" if offer.sold_out else "")
        if key == "gpu":
            return offer.gpu_model
        if key == "count":
            return _num_text(offer.gpu_count, 2)
        if key == "vram":
            return f"{_num_text(offer.vram_gb)} GB"
        if key == "tflops":
            total = offer.total_fp16_tflops
            return _num_text(total, 0) if total is not None else self.tr("unknown")
        if key == "vcpu":
            return "" if offer.vcpu is None else str(offer.vcpu)
        if key == "ram":
            return "" if offer.ram_gb is None else f"{_num_text(offer.ram_gb)} GB"
        if key == "network":
            return "" if offer.network_gbps is None else f"{_num_text(offer.network_gbps)} Gbps"
        if key == "on_demand":
            if offer.price_on_demand is None:
                return self.tr("unknown")  # the tooltip and the details say how to get it
            return self._money(offer.price_on_demand, offer)
        if key == "spot":
            if not offer.spot_available:
                return self.tr("no spot")
            return self._money(offer.price_spot, offer) or self.tr("unknown")
        if key == "prepaid":
            return self._money(offer.price_prepaid_month, offer) or self.tr("unknown")
        if key == "per_gpu":
            return self._money(price_per_gpu_hour(offer), offer) or self.tr("unknown")
        if key == "per_tflop":
            v = convert(price_per_tflop_hour(offer), offer.currency, self._currency, self._rate)
            return format_money(v, self._currency, 4) or self.tr("unknown")
        if key == "age":
            return price_age(offer, self._now).text()
        if key == "source":
            return offer.price_source
        if key == "rank":
            r = self._ranks.get(offer.key)
            return str(r.rank) if r else ""
        if key == "why":
            r = self._ranks.get(offer.key)
            return "; ".join(r.reasons) if r else ""
        return ""

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = _DISPLAY) -> Any:
        # Hot path (every painted cell asks several roles): int role constants, cached text.
        row = index.row()
        if not 0 <= row < len(self._offers) or not index.isValid():
            return None
        role = int(role)
        offer = self._offers[row]
        col = self._columns[index.column()]
        key = col.key
        if role == _DISPLAY:
            ck = (row, key)
            text = self._text_cache.get(ck)
            if text is None:
                text = self._display(offer, key)
                self._text_cache[ck] = text
            return text
        if role == _ALIGN:
            return _RIGHT if col.numeric else _LEFT
        if role == _FOREGROUND:
            if self._is_unknown(offer, key):
                return QBrush(QApplication.palette().color(QPalette.ColorGroup.Disabled,
                                                           QPalette.ColorRole.Text))
            if key == "age" and price_age(offer, self._now).stale:
                return QBrush(theme.pick("#a15c00", "#ffcc80"))
            if key == "age" and offer.live:
                return QBrush(theme.pick("#1b7f3b", "#81c995"))
            return None
        if role == _FONT:
            if self._is_unknown(offer, key):
                return _font("italic")
            if key == "rank" and offer.key in self._ranks:
                return _font("bold")
            return None
        if role == _BACKGROUND:
            if offer.key not in self._ranks:
                return None
            c = QApplication.palette().color(QPalette.ColorRole.Highlight)
            c.setAlpha(28)
            return QBrush(c)
        if role == OFFER_ROLE:
            return offer
        if role == SORT_ROLE:
            return self._sort_value(offer, key)
        if role == _TOOLTIP:
            money = key in ("on_demand", "spot", "prepaid", "per_gpu", "per_tflop")
            if money and self._is_unknown(offer, key):
                return translate(UNKNOWN_PRICE)
            if money and offer.currency != self._currency:
                return self.tr("Billed in {cur}; converted for display at {rate}").format(
                    cur=offer.currency, rate=self._rate.describe())
            if key == "age":
                age = price_age(offer, self._now)
                if age.stale:
                    return self.tr("This price is over a year old: check the provider's site before you rely "
                                   "on it.")
                if age.undated:
                    return self.tr("The source does not say when this price was true.")
                return None
            if key in ELIDED_KEYS:
                notes = f"\n{offer.notes}" if key == "instance_type" and offer.notes else ""
                return self._display(offer, key) + notes
            return None
        return None

    def _is_unknown(self, offer: Offer, key: str) -> bool:
        if key == "on_demand":
            return offer.price_on_demand is None
        if key == "spot":
            return offer.spot_available and offer.price_spot is None
        if key == "prepaid":
            return offer.price_prepaid_month is None
        if key == "per_gpu":
            return price_per_gpu_hour(offer) is None
        if key == "per_tflop":
            return price_per_tflop_hour(offer) is None
        if key == "tflops":
            return offer.fp16_tflops is None
        if key == "age":
            return offer.price_date is None and not offer.live
        return False

    # -- sorting ------------------------------------------------------------------------------

    def _sort_value(self, offer: Offer, key: str) -> Any:
        """Number (or lower-case text) to sort by; None = unknown. The advisor's rank and reasons are
        the table's own; every other key sorts as `labgpu offers --sort` does (core.catalog)."""
        if key == "rank":
            r = self._ranks.get(offer.key)
            return r.rank if r else None
        if key == "why":
            r = self._ranks.get(offer.key)
            return "; ".join(r.reasons).lower() if r else None
        try:
            return sort_value(offer, key, self._rate, self._now)
        except ValueError:
            return None

    def _order(self, key: str, descending: bool) -> list[int]:
        values = self._sort_cache.get(key)
        if values is None or len(values) != len(self._offers):
            values = [self._sort_value(o, key) for o in self._offers]
            self._sort_cache[key] = values
        tie = self._sort_cache.get("__tie__")
        if tie is None or len(tie) != len(self._offers):
            tie = [self._sort_value(o, "per_tflop") for o in self._offers]
            self._sort_cache["__tie__"] = tie
        return sort_order(values, tie, [o.key for o in self._offers], descending)

    def _apply_sort(self) -> None:
        self._text_cache.clear()
        if not self._offers:
            return
        order = self._order(self._sort_key, self._sort_desc)
        self._offers = [self._offers[i] for i in order]
        for k, vals in list(self._sort_cache.items()):
            self._sort_cache[k] = [vals[i] for i in order]

    def sort_by(self, key: str, descending: bool = False) -> None:
        """Reorder rows by column `key`, keeping selections (persistent indexes) on their offers."""
        if self.column_of(key) < 0:
            return
        self._sort_key, self._sort_desc = key, descending
        self.layoutAboutToBeChanged.emit()
        old_offers = self._offers
        self._apply_sort()
        new_row = {id(o): r for r, o in enumerate(self._offers)}
        old_list = self.persistentIndexList()
        new_list = []
        for idx in old_list:
            r = new_row.get(id(old_offers[idx.row()])) if 0 <= idx.row() < len(old_offers) else None
            new_list.append(self.index(r, idx.column()) if r is not None else QModelIndex())
        self.changePersistentIndexList(old_list, new_list)
        self.layoutChanged.emit()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if 0 <= column < len(self._columns):
            self.sort_by(self._columns[column].key, order == Qt.SortOrder.DescendingOrder)

    @property
    def sort_key(self) -> str:
        return self._sort_key

    @property
    def sort_descending(self) -> bool:
        return self._sort_desc


class OfferFilterProxyModel(QSortFilterProxyModel):
    """Filters with the core OfferFilter rules and delegates sorting to the source model.

    The verdicts are computed in one pass (catalog.filter_mask) when the filter or the offers
    change and kept as a list aligned with the source rows; when the source only reorders rows
    (a sort) the list is permuted, not recomputed. Our slots are connected before the base
    class's, so the list is right by the time the base class asks filterAcceptsRow, which is then
    a list lookup (it runs once per row from C++, the hot path of every filter change).
    """

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._filter = OfferFilter()
        self._mask: list[bool] = []
        self._model: OffersTableModel | None = None
        self._before_layout: dict[int, bool] | None = None
        self.setDynamicSortFilter(False)

    def setSourceModel(self, source_model: QAbstractItemModel) -> None:  # noqa: N802 - Qt override
        model = cast(OffersTableModel, source_model)  # the proxy only ever wraps an OffersTableModel
        self._model = model
        model.modelReset.connect(self._on_source_reset)
        model.layoutAboutToBeChanged.connect(self._on_source_layout_about_to_change)
        model.layoutChanged.connect(self._on_source_layout_changed)
        super().setSourceModel(model)
        self._compute()

    def source(self) -> OffersTableModel:
        return self._model  # type: ignore[return-value]

    def set_filter(self, flt: OfferFilter) -> None:
        if flt == self._filter:
            return
        self._filter = flt
        self.refilter()

    def refilter(self) -> None:
        """Apply the filter again (also when the exchange rate behind a maximum price changed)."""
        self.beginFilterChange()
        self._compute()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def _compute(self) -> None:
        model = self._model
        self._mask = filter_mask(model.offers, self._filter, model.rate, model.gpus) if model else []

    def _on_source_reset(self) -> None:
        self._compute()

    def _on_source_layout_about_to_change(self) -> None:
        if self._model is not None:
            self._before_layout = {id(o): ok for o, ok in zip(self._model.offers, self._mask, strict=False)}

    def _on_source_layout_changed(self) -> None:
        before, self._before_layout = self._before_layout, None
        offers = self._model.offers if self._model is not None else []
        if before is None or len(before) != len(offers):
            self._compute()
            return
        get = before.get
        self._mask = [get(id(o), True) for o in offers]

    def filterAcceptsRow(self, source_row: int,  # noqa: N802 - Qt override
                         source_parent: QModelIndex | QPersistentModelIndex) -> bool:
        try:
            return self._mask[source_row]
        except IndexError:
            return True

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        # The source sorts (fast, unknowns last); the proxy keeps source order (sort column -1).
        model = self.source()
        if model is not None and column >= 0:
            model.sort(column, order)

    def offer_at(self, row: int) -> Offer | None:
        idx = self.index(row, 0)
        if not idx.isValid():
            return None
        return self.source().offer_at(self.mapToSource(idx).row())

    def visible_offers(self) -> list[Offer]:
        return [o for o, ok in zip(self.source().offers, self._mask, strict=False) if ok]
