"""The spot price history of the selected offer, in the offers page's details pane.

Shown for offers whose provider declares ``spot_price_history`` (app.core.providers.Capabilities).
Reading it asks the cloud with one of the user's accounts, so it starts only when the user clicks
"Show spot price history"; it runs on ctx.runner, with a progress text, and an error says what
happened and what to do. The plot is a stepped line of the price (each price held until the next
change) over the last 7 days, with the offer's on-demand price as a dashed reference line, and a
sentence: how often the price moved, between which prices, and what share of on-demand that is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from app.core import providers
from app.core.currency import format_money
from app.core.models import Offer
from app.core.spothistory import (
    SpotHistorySummary,
    by_zone,
    choose_zone,
    in_window,
    steps,
    summarize,
)
from app.ui import theme
from app.ui.shared.plain import PlainLabel

if TYPE_CHECKING:
    from app.ui.context import AppContext

log = logging.getLogger(__name__)

DAYS = 7


def fetch_history(ctx: AppContext, offer: Offer, days: int = DAYS) -> Any:
    """On a pool thread: the offer's spot history through the app's CloudService."""
    from app.cloud.spot_history import load_spot_history
    from app.ui.shared.services import cloud_service

    return load_spot_history(cloud_service(ctx), offer.provider, offer.region, offer.instance_type,
                             zone=offer.zone, days=days)


class SpotHistoryWidget(QWidget):
    """`set_offer(offer)` shows the button for offers that have a readable history (hidden otherwise)."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("spotHistory")
        self.ctx = ctx
        self.offer: Offer | None = None
        self._loading_key: tuple[str, str, str, str] | None = None
        self.clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)
        self.summary: SpotHistorySummary | None = None
        self.plot: Any = None  # pyqtgraph PlotWidget, made on the first result (pyqtgraph loads lazily)
        self.on_demand_line: Any = None

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        row = QHBoxLayout()
        self.title = PlainLabel(self.tr("Spot price history"), self)
        self.title.setStyleSheet("font-weight: 600;")
        row.addWidget(self.title)
        row.addStretch(1)
        self.show_button = QPushButton(self.tr("Show the last 7 days"), self)
        self.show_button.setObjectName("spotHistoryButton")
        self.show_button.setToolTip(self.tr("Ask the cloud, with your account, how this type's spot price moved."))
        self.show_button.clicked.connect(self._on_show_button_clicked)
        row.addWidget(self.show_button)
        layout.addLayout(row)
        self.status = PlainLabel(self)
        self.status.setObjectName("spotHistoryStatus")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status)
        self.accounts_button = QPushButton(self.tr("Open the Accounts page"), self)
        self.accounts_button.setObjectName("spotHistoryAccounts")
        self.accounts_button.clicked.connect(self._on_accounts_button_clicked)
        self.accounts_button.hide()
        layout.addWidget(self.accounts_button, 0, Qt.AlignmentFlag.AlignLeft)
        self._layout = layout
        self.hide()

    @staticmethod
    def applies(offer: Offer | None) -> bool:
        return offer is not None and offer.spot_available and providers.has(offer.provider, "spot_price_history")

    def set_offer(self, offer: Offer | None) -> None:
        self.offer = offer
        self.setVisible(self.applies(offer))
        self.status.clear()
        self.accounts_button.hide()
        self.show_button.setEnabled(True)
        if self.plot is not None:
            self.plot.hide()

    @staticmethod
    def _key(offer: Offer) -> tuple[str, str, str, str]:
        return (offer.provider, offer.region, offer.instance_type, offer.zone)

    @Slot()
    def _on_show_button_clicked(self) -> None:
        offer = self.offer
        if offer is None or not self.applies(offer):
            return
        self._loading_key = self._key(offer)
        self.show_button.setEnabled(False)
        self.accounts_button.hide()
        self.status.setText(self.tr("Reading the spot price history of {type} in {region}…").format(
            type=offer.instance_type, region=offer.region))
        self.ctx.runner.run(self, fetch_history, self.ctx, offer, name="offers.spot_history",
                            on_done=self._on_history_loaded, on_error=self._on_history_failed)

    @Slot()
    def _on_accounts_button_clicked(self) -> None:
        self.ctx.navigate("accounts")

    def _current(self, key: tuple[str, str, str, str] | None) -> bool:
        """The answer is for the offer still shown (the user may have picked another meanwhile)."""
        return self.offer is not None and key == self._key(self.offer)

    @Slot(object)
    def _on_history_loaded(self, result: Any) -> None:
        key, self._loading_key = self._loading_key, None
        if not self._current(key):
            return
        assert self.offer is not None
        self.show_button.setEnabled(True)
        start_end = self._window()
        zones = {z: in_window(pts, *start_end) for z, pts in by_zone(result.points).items()}
        zones = {z: pts for z, pts in zones.items() if pts}
        zone = choose_zone(zones, self.offer.zone)
        if not zones:
            self.summary = None
            self.status.setText(self.tr("{account} reports no spot price for {type} in {region} in the last "
                                        "7 days: it may not be offered as spot there. Try another region.").format(
                account=result.account, type=self.offer.instance_type, region=result.region))
            return
        on_demand = self.offer.price_on_demand if self._same_currency(zones[zone]) else None
        self.summary = summarize(zones[zone], *start_end, on_demand=on_demand)
        self._draw(zones[zone], on_demand, start_end[1])
        self.status.setText(self._sentence(self.summary, len(zones)))

    def _same_currency(self, pts: list[Any]) -> bool:
        return bool(pts) and self.offer is not None and pts[0].currency == self.offer.currency

    def _window(self) -> tuple[datetime, datetime]:
        from app.core.spothistory import window

        return window(DAYS, self.clock())

    @Slot(object)
    def _on_history_failed(self, exc: BaseException) -> None:
        key, self._loading_key = self._loading_key, None
        if not self._current(key):
            return
        self.show_button.setEnabled(True)
        text = getattr(exc, "text", None)
        hint = getattr(exc, "hint", None)
        what = text() if callable(text) else str(exc)
        step = hint() if callable(hint) else ""
        self.status.setText(self.tr("The spot price history could not be read: {error}").format(error=what)
                            + (" " + step if step else ""))
        self.accounts_button.setVisible(getattr(exc, "code", "") == "NoAccount")
        if getattr(exc, "code", "") not in ("NoAccount", "NotSupported"):
            log.info("spot price history failed: %s", what)

    # -- drawing ---------------------------------------------------------------------------------
    def _ensure_plot(self) -> Any:
        if self.plot is None:
            import pyqtgraph as pg

            self.plot = pg.PlotWidget(self, background="w", axisItems={"bottom": pg.DateAxisItem(orientation="bottom")})
            self.plot.setObjectName("spotHistoryPlot")
            self.plot.setMinimumHeight(180)
            self.plot.setMenuEnabled(False)
            self.plot.setMouseEnabled(x=True, y=False)
            self.plot.hideButtons()
            self.plot.getAxis("left").enableAutoSIPrefix(False)
            self._layout.insertWidget(1, self.plot)
        return self.plot

    def _draw(self, pts: list[Any], on_demand: float | None, end: datetime) -> None:
        import pyqtgraph as pg

        plot = self._ensure_plot()
        plot.clear()
        xs, ys = steps(pts, end)
        currency = pts[0].currency
        plot.setLabel("left", self.tr("Spot price ({currency}/h)").format(currency=currency))
        plot.plot(xs, ys, stepMode="right", pen=pg.mkPen(theme.css('info'), width=2), name="spot")
        top = max(ys)
        if on_demand:
            line = pg.InfiniteLine(pos=on_demand, angle=0, movable=False,
                                   pen=pg.mkPen(theme.css('error'), width=1, style=Qt.PenStyle.DashLine),
                                   label=self.tr("on-demand {price}").format(price=format_money(on_demand, currency)),
                                   labelOpts={"position": 0.05, "color": theme.css('error')})
            plot.addItem(line)
            top = max(top, on_demand)
        self.on_demand_line = line if on_demand else None
        plot.setYRange(0, top * 1.1 if top > 0 else 1, padding=0)
        plot.setXRange(xs[0], xs[-1], padding=0.01)
        plot.show()

    def _sentence(self, s: SpotHistorySummary | None, zone_count: int) -> str:
        if s is None:
            return ""
        low, high = format_money(s.low, s.currency), format_money(s.high, s.currency)
        where = self.tr("In zone {zone}").format(zone=s.zone) if s.zone else self.tr("Here")
        if s.moves == 0:
            text = self.tr("{where} the spot price did not move in {days} days: {low}").format(
                where=where, days=round(s.days), low=low)
            if s.low_pct is not None:
                text += self.tr(" ({pct} % of on-demand)").format(pct=f"{s.low_pct:.0f}")
        else:
            text = self.tr("{where} the spot price moved {n} time(s) in {days} days, between {low} and {high}").format(
                where=where, n=s.moves, days=round(s.days), low=low, high=high)
            if s.low_pct is not None and s.high_pct is not None:
                text += self.tr(" ({low_pct}–{high_pct} % of on-demand)").format(
                    low_pct=f"{s.low_pct:.0f}", high_pct=f"{s.high_pct:.0f}")
        text += "."
        if zone_count > 1:
            text += " " + self.tr("{n} other zone(s) have their own prices.").format(n=zone_count - 1)
        return text
