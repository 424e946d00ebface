"""The cost estimator for one offer: type a plan, see on-demand, spot, prepaid and break-even.

Numbers are typed into plain line edits so that anything can be typed; a wrong value gets a red
message beside its field and the results say why they are empty. Nothing here raises on bad
input and nothing opens a dialog. The arithmetic is ``app.core.costs.estimate``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core import costs, providers
from app.core.currency import effective_rate, format_money
from app.core.currency import source_text as currency_source_text
from app.core.i18n import translate
from app.core.models import Offer
from app.core.settings import read_section, write_section
from app.ui import theme
from app.ui.context import AppContext
from app.ui.shared.plain import PlainLabel, esc, plain_tooltip, rich_label

log = logging.getLogger(__name__)

FIELDS = ("hours", "epochs", "minutes_per_epoch", "count", "spot_overhead_pct", "months")
SETTINGS_KEY = "advisor"
INPUTS_PATH = (SETTINGS_KEY, "estimator")  # extra["advisor"]["estimator"]: the inputs typed last


def _error_color() -> str:
    """The estimator's error red, for the scheme in force."""
    return str(theme.pick("#c62828", "#f2b8b5").name())


@dataclass
class EstimatorInputs:
    """The estimator's inputs as typed (text, so a half-typed value survives); None = not saved yet."""

    hours: str | None = None
    epochs: str | None = None
    minutes_per_epoch: str | None = None
    count: str | None = None
    spot_overhead_pct: str | None = None
    months: str | None = None
    mode: str | None = None
    count_unit: str | None = None


def _fmt_number(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class EstimatorWidget(QWidget):
    """Estimate for the offer given to ``set_offer``; also embedded in the offers details panel."""

    estimate_changed = Signal(object)  # costs.EstimateResult after every recalculation

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._offer: Offer | None = None
        self.result: costs.EstimateResult | None = None
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(600)
        self._save_timer.timeout.connect(self._save_inputs)
        self._build()
        self._restore_inputs()
        ctx.settings_changed.connect(self._on_ctx_settings_changed)
        self._recalculate()

    # --- layout -------------------------------------------------------------------------------

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.title_label = PlainLabel(self.tr("Cost estimate"), self)
        self.title_label.setStyleSheet("font-weight: 600; font-size: 14px;")
        self.title_label.setWordWrap(True)
        outer.addWidget(self.title_label)

        grid = QGridLayout()
        grid.setHorizontalSpacing(8)
        grid.setVerticalSpacing(4)
        self.edits: dict[str, QLineEdit] = {}
        self.error_labels: dict[str, QLabel] = {}
        self.field_labels: dict[str, QLabel] = {}
        self._tips: dict[str, str] = {}

        self.mode_combo = QComboBox(self)
        self.mode_combo.addItem(self.tr("Hours"), costs.MODE_HOURS)
        self.mode_combo.addItem(self.tr("Epochs × minutes per epoch"), costs.MODE_EPOCHS)
        mode_label = PlainLabel(self.tr("&Plan by:"), self)
        mode_label.setBuddy(self.mode_combo)
        grid.addWidget(mode_label, 0, 0)
        grid.addWidget(self.mode_combo, 0, 1, 1, 2)
        self.mode_error = PlainLabel(self)
        self.mode_error.setStyleSheet(f"color: {_error_color()};")

        labels = {
            "hours": self.tr("Hours of &work:"),
            "epochs": self.tr("&Epochs:"),
            "minutes_per_epoch": self.tr("&Minutes per epoch:"),
            "count": self.tr("&How many:"),
            "spot_overhead_pct": self.tr("Spot overhea&d (%):"),
            "months": self.tr("Prepaid &term (months):"),
        }
        tips = {
            "hours": self.tr("Wall-clock hours each instance runs."),
            "spot_overhead_pct": self.tr("Extra time on spot for restarts and work lost since the last "
                                         "checkpoint."),
            "months": self.tr("Months you would rent on a monthly prepaid plan."),
        }
        row = 1
        for name in FIELDS:
            edit = QLineEdit(self)
            edit.setObjectName(f"estimator_{name}")
            edit.setClearButtonEnabled(False)
            edit.setMaximumWidth(120)
            edit.setToolTip(tips.get(name, ""))
            self._tips[name] = tips.get(name, "")
            label = PlainLabel(labels[name], self)
            label.setBuddy(edit)
            err = PlainLabel(self)
            err.setObjectName(f"estimator_{name}_error")
            err.setStyleSheet(f"color: {_error_color()};")
            err.setWordWrap(True)
            err.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
            self.edits[name], self.error_labels[name], self.field_labels[name] = edit, err, label
            grid.addWidget(label, row, 0)
            grid.addWidget(edit, row, 1)
            if name == "count":
                self.count_unit_combo = QComboBox(self)
                self.count_unit_combo.addItem(self.tr("instances"), costs.COUNT_INSTANCES)
                self.count_unit_combo.addItem(self.tr("GPUs"), costs.COUNT_GPUS)
                grid.addWidget(self.count_unit_combo, row, 2)
            grid.addWidget(err, row, 3)
            edit.textChanged.connect(self._on_input_changed)
            row += 1
        grid.addWidget(self.mode_error, row, 1, 1, 3)
        grid.setColumnStretch(3, 1)
        outer.addLayout(grid)
        self.mode_combo.currentIndexChanged.connect(self._on_mode_combo_changed)
        self.count_unit_combo.currentIndexChanged.connect(self._on_input_changed)

        self.table = QTableWidget(4, 3, self)
        self.table.setObjectName("estimatorResults")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setSizeAdjustPolicy(QAbstractItemView.SizeAdjustPolicy.AdjustToContents)
        outer.addWidget(self.table)

        self.break_even_label = PlainLabel(self)
        self.break_even_label.setWordWrap(True)
        self.break_even_label.setObjectName("estimatorBreakEven")
        self.rule_label = rich_label(parent=self)  # a link the UI composes; values escaped
        self.rule_label.setWordWrap(True)
        self.rule_label.setObjectName("estimatorRule")
        self.rule_label.setOpenExternalLinks(True)
        self.notes_label = PlainLabel(self)
        self.notes_label.setWordWrap(True)
        self.notes_label.setStyleSheet("color: palette(mid);")
        self.rate_label = PlainLabel(self)
        self.rate_label.setWordWrap(True)
        self.rate_label.setObjectName("estimatorRate")
        self.rate_label.setStyleSheet("color: palette(mid);")
        for w in (self.break_even_label, self.rule_label, self.notes_label, self.rate_label):
            w.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                      | Qt.TextInteractionFlag.LinksAccessibleByMouse)
            outer.addWidget(w)
        outer.addStretch(1)

    # --- state ---------------------------------------------------------------------------------

    def _restore_inputs(self) -> None:
        saved = read_section(self.ctx.settings, INPUTS_PATH, EstimatorInputs)
        defaults = costs.EstimateInput()
        fallback = {
            "hours": _fmt_number(defaults.hours),
            "epochs": "10",
            "minutes_per_epoch": "30",
            "count": "1",
            "spot_overhead_pct": _fmt_number(defaults.spot_overhead_pct),
            "months": "1",
        }
        values = {name: v if (v := getattr(saved, name)) is not None else fallback[name] for name in fallback}
        for name, edit in self.edits.items():
            edit.blockSignals(True)
            edit.setText(str(values[name]))
            edit.blockSignals(False)
        for combo, key in ((self.mode_combo, "mode"), (self.count_unit_combo, "count_unit")):
            idx = combo.findData(getattr(saved, key))
            combo.blockSignals(True)
            combo.setCurrentIndex(max(0, idx))
            combo.blockSignals(False)
        self._apply_mode_visibility()

    @Slot()
    def _save_inputs(self) -> None:
        prefs = EstimatorInputs(**{name: edit.text() for name, edit in self.edits.items()})
        prefs.mode = self.mode_combo.currentData()
        prefs.count_unit = self.count_unit_combo.currentData()
        write_section(self.ctx.settings, INPUTS_PATH, prefs)
        try:
            self.ctx.settings_store.save(self.ctx.settings)  # no settings_changed: nothing else cares
        except OSError as exc:
            log.warning("could not save estimator inputs: %s", exc)

    def inputs(self) -> costs.EstimateInput:
        t = {name: edit.text() for name, edit in self.edits.items()}
        return costs.EstimateInput(
            mode=str(self.mode_combo.currentData()), hours=t["hours"], epochs=t["epochs"],
            minutes_per_epoch=t["minutes_per_epoch"], count=t["count"],
            count_unit=str(self.count_unit_combo.currentData()), spot_overhead_pct=t["spot_overhead_pct"],
            months=t["months"])

    def set_offer(self, offer: Offer | None) -> None:
        self._offer = offer
        self._recalculate()

    def offer(self) -> Offer | None:
        return self._offer

    # --- slots ---------------------------------------------------------------------------------

    @Slot()
    def _on_input_changed(self, *_args: object) -> None:
        self._recalculate()
        self._save_timer.start()

    @Slot(int)
    def _on_mode_combo_changed(self, _index: int) -> None:
        self._apply_mode_visibility()
        self._on_input_changed()

    @Slot()
    def _on_ctx_settings_changed(self) -> None:
        self._recalculate()

    def _apply_mode_visibility(self) -> None:
        epochs = self.mode_combo.currentData() == costs.MODE_EPOCHS
        for name, visible in (("hours", not epochs), ("epochs", epochs), ("minutes_per_epoch", epochs)):
            self.edits[name].setVisible(visible)
            self.field_labels[name].setVisible(visible)
            self.error_labels[name].setVisible(visible)

    # --- calculation and display ---------------------------------------------------------------

    def _recalculate(self) -> None:
        offer = self._offer
        rate = effective_rate(self.ctx.settings)
        day = rate.as_of.isoformat() if rate.as_of else self.tr("undated")
        self.rate_label.setText(self.tr("Converted at 1 USD = {usd_cny} CNY ({source}, {day}); conversions are for "
                                        "comparison only, you are billed in {currency}.").format(
                                            usd_cny=f"{rate.usd_cny:.4f}", source=currency_source_text(rate), day=day,
                                            currency=offer.currency if offer else self.tr("the offer's currency")))
        if offer is None:
            self.title_label.setText(self.tr("Cost estimate: choose an offer"))
            self.result = costs.estimate(_PLACEHOLDER, self.inputs(), rate)
        else:
            region = self.tr("all regions") if offer.region == "all regions" else offer.region
            self.title_label.setText(
                self.tr("Cost estimate: {provider} {instance_type} ({region}), {gpu_count} × {gpu_model}").format(
                    provider=providers.display_name(offer.provider), instance_type=offer.instance_type,
                    region=region, gpu_count=f"{offer.gpu_count:g}", gpu_model=offer.gpu_model))
            self.result = costs.estimate(offer, self.inputs(), rate)
        self._show_errors(self.result.errors)
        self._show_result(self.result if offer is not None else None)
        self.estimate_changed.emit(self.result)

    def _show_errors(self, errors: Any) -> None:
        for name, edit in self.edits.items():
            msg = errors.get(name, "")
            self.error_labels[name].setText(msg)
            edit.setStyleSheet(f"border: 1px solid {_error_color()};" if msg else "")
            edit.setToolTip(plain_tooltip(msg or self._tips.get(name, "")))
        self.mode_error.setText(errors.get("mode", ""))
        self.mode_error.setVisible(bool(errors.get("mode")))

    def _show_result(self, result: costs.EstimateResult | None) -> None:
        est = result.estimate if result is not None else None
        currency = est.currency if est else (self._offer.currency if self._offer else "USD")
        self.table.setHorizontalHeaderLabels([self.tr("Billed in {currency}").format(currency=currency),
                                              self.tr("CNY"), self.tr("USD")])
        months = est.prepaid_months if est else 1
        years = est.prepaid_years if est else 1
        row_labels = [self.tr("On-demand"), self.tr("Spot"),
                      (self.tr("Prepaid, 1 month") if months == 1
                       else self.tr("Prepaid, {months} months").format(months=str(months))),
                      (self.tr("Prepaid, 1 year") if years == 1
                       else self.tr("Prepaid, {years} years").format(years=str(years)))]
        self.table.setVerticalHeaderLabels(row_labels)
        amounts = [est.on_demand, est.spot, est.prepaid_month, est.prepaid_year] if est else [None] * 4
        empty = self.tr("fix the inputs above") if result is not None and result.errors else "—"
        for r, m in enumerate(amounts):
            cells: list[tuple[str, str]]
            if m is None:
                cells = [(empty, "")] * 3
            elif not m.known:
                if r == 1 and m.note == translate(costs.NOTE_NO_SPOT):
                    text = self.tr("no spot offer")
                elif r >= 2 and m.note == translate(costs.NOTE_NO_PREPAID):
                    text = self.tr("not listed")
                else:
                    text = self.tr("unknown")
                cells = [(text, m.note)] * 3
            else:
                cells = [(format_money(m.native, m.currency), m.note),
                         (format_money(m.cny, "CNY"), m.note), (format_money(m.usd, "USD"), m.note)]
            for c, (text, tip) in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if tip:
                    item.setToolTip(tip)
                self.table.setItem(r, c, item)
        self.table.resizeRowsToContents()
        height = self.table.horizontalHeader().height() + sum(
            self.table.rowHeight(i) for i in range(self.table.rowCount())) + 2 * self.table.frameWidth()
        self.table.setFixedHeight(height)

        if est is None:
            self.break_even_label.setText("")
            self.rule_label.setText(costs.billing_rule(self._offer.provider).text() if self._offer else "")
            self.notes_label.setText("")
            return
        if not est.prepaid_month.known:
            self.break_even_label.setText(self.tr("Break-even: no prepaid price for this offer, so no "
                                                  "break-even hours."))
        else:
            spot_text = (costs.describe_break_even(est.break_even_spot_h) if est.spot.known
                         else self.tr("no spot price"))
            od_text = (costs.describe_break_even(est.break_even_on_demand_h) if est.on_demand.known
                       else self.tr("no on-demand price"))
            self.break_even_label.setText(
                self.tr("Prepaid beats on-demand above: {on_demand}\nPrepaid beats spot above: {spot}").format(
                    on_demand=od_text, spot=spot_text))
        rule = est.rule
        text = esc(self.tr("Billing rule: {rule}").format(rule=rule.text()))
        if rule.source:
            link = self.tr("source")
            text += f' <a href="{esc(rule.source)}">{esc(link)}</a>'
        self.rule_label.setText(text)
        notes = list(est.notes)
        if est.prepaid_year.known and est.prepaid_year.note:
            notes.append(est.prepaid_year.note)
        self.notes_label.setText("\n".join(f"• {n}" for n in notes))
        self.notes_label.setVisible(bool(notes))


# An offer with no prices, used only to validate inputs before an offer is chosen.
_PLACEHOLDER = Offer(provider="", region="", instance_type="", gpu_model="", gpu_count=1, vram_gb=0,
                     vcpu=None, ram_gb=None, network_gbps=None, price_on_demand=None, price_spot=None,
                     price_prepaid_month=None, currency="USD", price_source="", price_date=None)
