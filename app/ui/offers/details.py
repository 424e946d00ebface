"""The panel under the offers table: every field of the selected offer, its sources, and the
cost estimator for it (app.ui.shared.estimator, imported lazily so start-up stays fast)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Slot
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QWidget,
)

from app.core import providers
from app.core.catalog import UNKNOWN_PRICE
from app.core.currency import ExchangeRate, convert, format_money
from app.core.i18n import join_names, translate
from app.core.models import GpuSpec, Offer
from app.core.offerprices import AGE_NO_PRICE, price_age, price_per_gpu_hour, price_per_tflop_hour
from app.ui.offers.spot_history import SpotHistoryWidget
from app.ui.shared.plain import PlainLabel
from app.ui.widgets import remember_splitter

if TYPE_CHECKING:
    from app.ui.context import AppContext

log = logging.getLogger(__name__)

# Providers whose instances LabGPU can launch itself (app.cloud providers).


class OfferDetailsPanel(QWidget):
    """Shows one offer; `set_offer(None)` shows a hint to pick one."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._offer: Offer | None = None
        self._gpus: dict[str, GpuSpec] = {}
        self._currency = "CNY"
        self._rate: ExchangeRate | None = None
        self.estimator: QWidget | None = None
        self.clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)  # the page shares its model's

        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.stack = QStackedWidget(self)
        layout.addWidget(self.stack)

        self.placeholder = PlainLabel(self.tr("Select an offer to see all its details, where each figure "
                                          "comes from, and what a run would cost."), self)
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.placeholder.setStyleSheet("color: palette(mid); font-size: 14px;")
        self.stack.addWidget(self.placeholder)

        # The offer's fields and the estimator side by side; the estimator (its cost table) gets the
        # wider part, and the split is remembered.
        content = QSplitter(Qt.Orientation.Horizontal, self)
        content.setChildrenCollapsible(False)
        self.columns = content
        scroll = QScrollArea(content)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        form_host = QWidget(scroll)
        self.form = QFormLayout(form_host)
        self.form.setLabelAlignment(Qt.AlignmentFlag.AlignRight)
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setContentsMargins(4, 4, 4, 4)
        self.title = PlainLabel(form_host)
        self.title.setObjectName("offerDetailsTitle")
        self.title.setStyleSheet("font-size: 15px; font-weight: 600;")
        self.title.setWordWrap(True)
        self.form.addRow(self.title)
        self.launch_button = QPushButton(self.tr("Launch an instance of this offer…"), form_host)
        self.launch_button.setObjectName("offerLaunchButton")
        self.launch_button.setShortcut(QKeySequence("Ctrl+Shift+L"))
        self.launch_button.clicked.connect(self._on_launch_button_clicked)
        self.launch_note = PlainLabel(form_host)
        self.launch_note.setWordWrap(True)
        self.launch_note.setStyleSheet("color: palette(mid);")
        self.form.addRow(self.launch_button)
        self.form.addRow(self.launch_note)
        self.fields: dict[str, QLabel] = {}
        for key, label in self._field_labels():
            value = PlainLabel(form_host)
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            value.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
            self.fields[key] = value
            self.form.addRow(label, value)
        self.spot_history = SpotHistoryWidget(ctx, form_host)
        self.form.addRow(self.spot_history)
        scroll.setWidget(form_host)
        scroll.setMinimumWidth(220)
        content.addWidget(scroll)

        # The estimator scrolls on its own so a short window never squeezes it into overlapping.
        self.estimator_scroll = QScrollArea(content)
        self.estimator_scroll.setWidgetResizable(True)
        self.estimator_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.estimator_scroll.hide()
        self.estimator_scroll.setMinimumWidth(300)
        content.addWidget(self.estimator_scroll)
        content.setStretchFactor(0, 2)
        content.setStretchFactor(1, 3)
        content.setSizes([400, 600])
        remember_splitter(content, ctx.settings, "offers_details")
        self.stack.addWidget(content)
        self.stack.setCurrentIndex(0)

    def _field_labels(self) -> list[tuple[str, str]]:
        return [
            ("provider", self.tr("Provider:")),
            ("region", self.tr("Region:")),
            ("gpu", self.tr("GPU:")),
            ("vram", self.tr("VRAM:")),
            ("tflops", self.tr("FP16 tensor (dense):")),
            ("fp32", self.tr("FP32:")),
            ("bandwidth", self.tr("Memory bandwidth:")),
            ("cpu", self.tr("vCPU / RAM:")),
            ("network", self.tr("Network:")),
            ("interconnect", self.tr("Interconnect:")),
            ("dedicated", self.tr("Whole server:")),
            ("on_demand", self.tr("On-demand:")),
            ("spot", self.tr("Spot:")),
            ("prepaid", self.tr("Prepaid:")),
            ("per_gpu", self.tr("Per GPU-hour:")),
            ("per_tflop", self.tr("Per FP16-TFLOP-hour:")),
            ("age", self.tr("Price date:")),
            ("source", self.tr("Price source:")),
            ("gpu_source", self.tr("GPU spec source:")),
            ("notes", self.tr("Notes:")),
        ]

    @property
    def offer(self) -> Offer | None:
        return self._offer

    def set_context(self, gpus: dict[str, GpuSpec], currency: str, rate: ExchangeRate) -> None:
        self._gpus, self._currency, self._rate = gpus, currency, rate
        if self._offer is not None:
            self._fill(self._offer)

    def set_offer(self, offer: Offer | None) -> None:
        self._offer = offer
        if offer is None:
            self.stack.setCurrentIndex(0)
            return
        self._fill(offer)
        self._update_launch(offer)
        self.spot_history.set_offer(offer)
        self.stack.setCurrentIndex(1)
        est = self._ensure_estimator()
        if est is not None:
            try:
                est.set_offer(offer)  # type: ignore[attr-defined]
            except Exception as exc:  # an estimator bug must not break browsing offers
                log.exception("estimator.set_offer failed")
                self.ctx.errors.report(exc)

    def _update_launch(self, offer: Offer) -> None:
        can = providers.has(offer.provider, "launch")
        self.launch_button.setEnabled(can)
        self.launch_note.setVisible(not can)
        if not can:
            self.launch_note.setText(self.tr(
                "LabGPU launches instances on {launchable}. For {provider}, rent it on their site, "
                "then add the server on the Hosts page from the SSH command they show.").format(
                    launchable=join_names([providers.display_name(p) for p in providers.launchable_ids()]),
                    provider=providers.display_name(offer.provider)))

    @Slot()
    def _on_launch_button_clicked(self) -> None:
        if self._offer is None or not providers.has(self._offer.provider, "launch"):
            return
        # The Instances page owns launching (and lists the new instance once it is up).
        self.ctx.navigate("instances", {"launch": self._offer})

    def _ensure_estimator(self) -> QWidget | None:
        if self.estimator is not None:
            return self.estimator
        from app.ui.shared.estimator import EstimatorWidget  # imported when first shown: start-up stays fast

        self.estimator = EstimatorWidget(self.ctx, self.estimator_scroll)
        self.estimator.setObjectName("offerEstimator")
        self.estimator_scroll.setWidget(self.estimator)
        self.estimator_scroll.show()
        return self.estimator

    def _money_pair(self, amount: float | None, offer: Offer, suffix: str) -> str:
        """Native price first (what you are billed), the converted figure after it."""
        if amount is None:
            return translate(UNKNOWN_PRICE)
        native = format_money(amount, offer.currency) + suffix
        if offer.currency == self._currency or self._rate is None:
            return native
        other = format_money(convert(amount, offer.currency, self._currency, self._rate), self._currency)
        return self.tr("{native} (≈ {other}{suffix} at the display rate)").format(
            native=native, other=other, suffix=suffix)

    def _fill(self, o: Offer) -> None:
        spec = self._gpus.get(o.gpu_model)
        f = self.fields
        self.title.setText(f"{providers.display_name(o.provider)} · {o.instance_type}")
        f["provider"].setText(providers.display_name(o.provider))
        region = self.tr("all regions") if o.region == "all regions" else o.region
        f["region"].setText(region + (f" / {o.zone}" if o.zone else ""))
        gpu_name = spec.name if spec else o.gpu_model
        f["gpu"].setText(f"{o.gpu_count:g} × {gpu_name}")
        f["vram"].setText(self.tr("{per_gpu} GB per GPU, {total} GB in all").format(
            per_gpu=f"{o.vram_gb:g}", total=f"{o.total_vram_gb:g}"))
        if o.fp16_tflops is None:
            f["tflops"].setText(self.tr("unknown (no official figure)"))
        else:
            f["tflops"].setText(self.tr("{per_gpu} TFLOPS per GPU, {total} in all").format(
                per_gpu=f"{o.fp16_tflops:g}", total=f"{o.total_fp16_tflops:g}"))
        f["fp32"].setText(f"{spec.fp32_tflops:g} TFLOPS" if spec and spec.fp32_tflops is not None
                          else self.tr("unknown"))
        bw = spec.mem_bandwidth_gbs if spec else None
        f["bandwidth"].setText(f"{bw:g} GB/s" if bw is not None else self.tr("unknown"))
        cpu = str(o.vcpu) if o.vcpu is not None else "?"
        ram = f"{o.ram_gb:g} GB" if o.ram_gb is not None else "?"
        f["cpu"].setText(f"{cpu} vCPU / {ram}")
        f["network"].setText(f"{o.network_gbps:g} Gbps" if o.network_gbps is not None
                             else self.tr("not stated"))
        f["interconnect"].setText(o.interconnect or self.tr("none stated"))
        f["dedicated"].setText(self.tr("yes: all GPUs of one server (no other tenant on them)") if o.dedicated
                               else self.tr("no"))
        f["on_demand"].setText(self._money_pair(o.price_on_demand, o, self.tr("/h")))
        if o.spot_available:
            f["spot"].setText(self._money_pair(o.price_spot, o, self.tr("/h")))
        else:
            f["spot"].setText(self.tr("no spot market"))
        f["prepaid"].setText(self._money_pair(o.price_prepaid_month, o, self.tr("/month")))
        f["per_gpu"].setText(self._money_pair(price_per_gpu_hour(o), o, self.tr("/h")))
        per_tflop = price_per_tflop_hour(o)
        f["per_tflop"].setText(self._money_pair(per_tflop, o, self.tr("/h")) if per_tflop is not None
                               else self.tr("unknown"))
        age = price_age(o, self.clock())
        if o.live and o.fetched_at:
            fetched = o.fetched_at.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            where = (self.tr("public price list, no account") if o.origin == "public"
                     else self.tr("with your account"))
            f["age"].setText(self.tr("{age} ({fetched}, {where})").format(age=age.text(), fetched=fetched, where=where))
        elif age.template == AGE_NO_PRICE:
            f["age"].setText(age.text())
        elif o.price_date:
            f["age"].setText(self.tr("{age} ({days} days old)").format(age=age.text(), days=str(age.days)))
        else:
            f["age"].setText(self.tr("undated snapshot: the source does not say when it was true"))
        f["source"].setText(o.price_source or self.tr("none"))
        f["gpu_source"].setText(spec.source if spec and spec.source else self.tr("none"))
        f["notes"].setText(o.notes or "—")
