"""The row of filter controls above the offers table; emits an OfferFilter whenever one changes."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLineEdit,
    QMenu,
    QPushButton,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core.models import PROVIDERS, Offer
from app.core.offerquery import OfferFilter
from app.core.providers import display_name
from app.ui.shared.plain import PlainLabel

GPU_FAMILIES = ("H100", "H200", "A100", "A800", "H800", "L40S", "L4", "A10", "A10G", "V100", "T4",
                "RTX4090", "RTX3090")


class OffersFilterBar(QWidget):
    """Search, provider, GPU, VRAM, GPU count, maximum price, spot and region filters."""

    filter_changed = Signal(object)  # OfferFilter

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._currency = "CNY"
        self._blocked = False
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(6)
        row1 = QHBoxLayout()
        row2 = QHBoxLayout()
        for r in (row1, row2):
            r.setSpacing(8)
        outer.addLayout(row1)
        outer.addLayout(row2)

        self.search_edit = QLineEdit(self)
        self.search_edit.setObjectName("offersSearch")
        self.search_edit.setPlaceholderText(self.tr("Search instance, GPU, region… (Ctrl+F)"))
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setMinimumWidth(260)
        self.search_edit.textChanged.connect(self._on_any_changed_debounced)
        row1.addWidget(self.search_edit, 2)

        self.provider_button = QToolButton(self)
        self.provider_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.provider_menu = QMenu(self.provider_button)
        self.provider_actions: dict[str, QAction] = {}
        for pid in PROVIDERS:
            act = QAction(display_name(pid), self.provider_menu)
            act.setCheckable(True)
            act.setData(pid)
            act.toggled.connect(self._on_provider_action_toggled)
            self.provider_menu.addAction(act)
            self.provider_actions[pid] = act
        self.provider_menu.addSeparator()
        self.provider_menu.addAction(self.tr("All providers"), self._on_provider_all_triggered)
        self.provider_button.setMenu(self.provider_menu)
        self.provider_button.setMinimumWidth(120)
        self.provider_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        row1.addWidget(PlainLabel(self.tr("Provider:"), self))
        row1.addWidget(self.provider_button)

        self.gpu_combo = QComboBox(self)
        self.gpu_combo.setEditable(True)
        self.gpu_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.gpu_combo.addItem(self.tr("any"), "")
        for fam in GPU_FAMILIES:
            self.gpu_combo.addItem(fam, fam)
        gpu_edit = self.gpu_combo.lineEdit()
        assert gpu_edit is not None  # the combo is editable
        gpu_edit.setPlaceholderText(self.tr("any"))
        self.gpu_combo.setToolTip(self.tr("GPU model; A100 matches A100-40GB and A100-80GB"))
        self.gpu_combo.setMinimumContentsLength(8)
        self.gpu_combo.currentTextChanged.connect(self._on_any_changed_debounced)
        gpu_label = PlainLabel(self.tr("&GPU:"), self)
        gpu_label.setBuddy(self.gpu_combo)
        row1.addWidget(gpu_label)
        row1.addWidget(self.gpu_combo)

        self.region_combo = QComboBox(self)
        self.region_combo.setEditable(True)
        self.region_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.region_combo.addItem(self.tr("any"), "")
        region_edit = self.region_combo.lineEdit()
        assert region_edit is not None  # the combo is editable
        region_edit.setPlaceholderText(self.tr("any"))
        self.region_combo.setMinimumContentsLength(10)
        self.region_combo.currentTextChanged.connect(self._on_any_changed_debounced)
        region_label = PlainLabel(self.tr("&Region:"), self)
        region_label.setBuddy(self.region_combo)
        row1.addWidget(region_label)
        row1.addWidget(self.region_combo)

        self.vram_spin = QSpinBox(self)
        self.vram_spin.setRange(0, 200)
        self.vram_spin.setSingleStep(8)
        self.vram_spin.setSuffix(" GB")
        self.vram_spin.setSpecialValueText(self.tr("any"))
        self.vram_spin.valueChanged.connect(self._on_any_changed)
        vram_label = PlainLabel(self.tr("Min &VRAM/GPU:"), self)
        vram_label.setBuddy(self.vram_spin)
        row2.addWidget(vram_label)
        row2.addWidget(self.vram_spin)

        self.count_combo = QComboBox(self)
        self.count_combo.addItem(self.tr("any"), None)
        for n in (1, 2, 4, 8):
            self.count_combo.addItem(str(n), float(n))
        self.count_combo.currentIndexChanged.connect(self._on_any_changed)
        count_label = PlainLabel(self.tr("GP&Us:"), self)
        count_label.setBuddy(self.count_combo)
        row2.addWidget(count_label)
        row2.addWidget(self.count_combo)

        self.price_spin = QDoubleSpinBox(self)
        self.price_spin.setRange(0.0, 100000.0)
        self.price_spin.setDecimals(2)
        self.price_spin.setSingleStep(1.0)
        self.price_spin.setSpecialValueText(self.tr("any"))
        self.price_spin.setToolTip(self.tr("Maximum on-demand price per hour (spot price when "
                                           "'Spot available' is ticked). Unknown prices are hidden."))
        self.price_spin.valueChanged.connect(self._on_any_changed_debounced)
        price_label = PlainLabel(self.tr("&Max price/h:"), self)
        price_label.setBuddy(self.price_spin)
        row2.addWidget(price_label)
        row2.addWidget(self.price_spin)

        self.spot_check = QCheckBox(self.tr("&Spot available"), self)
        self.spot_check.toggled.connect(self._on_any_changed)
        row2.addWidget(self.spot_check)
        row2.addStretch(1)

        self.reset_button = QPushButton(self.tr("Reset filters"), self)
        self.reset_button.setToolTip(self.tr("Show every offer (Esc)"))
        self.reset_button.clicked.connect(self.reset)
        row2.addWidget(self.reset_button)

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(150)
        self._debounce.timeout.connect(self._emit)
        self.set_currency("CNY")
        self._update_provider_button()

    # -- public -------------------------------------------------------------------------------

    def set_regions(self, offers: Sequence[Offer]) -> None:
        current = self.region_combo.currentText()
        self._blocked = True
        try:
            self.region_combo.clear()
            self.region_combo.addItem(self.tr("any"), "")
            for region in sorted({o.region for o in offers}):
                self.region_combo.addItem(region, region)
            self._set_combo_text(self.region_combo, current)
        finally:
            self._blocked = False

    def set_currency(self, currency: str) -> None:
        """The maximum price is typed in the display currency."""
        self._currency = currency
        self.price_spin.setPrefix("¥" if currency == "CNY" else "$")

    def current_filter(self) -> OfferFilter:
        providers = tuple(pid for pid, a in self.provider_actions.items() if a.isChecked())
        gpu = self._combo_value(self.gpu_combo)
        count = self.count_combo.currentData()
        return OfferFilter(
            providers=providers,
            gpu_models=(gpu,) if gpu else (),
            min_vram=float(self.vram_spin.value()) or None,
            gpu_count=float(count) if count else None,
            max_price=self.price_spin.value() or None,
            currency=self._currency,
            spot_only=self.spot_check.isChecked(),
            region=self._combo_value(self.region_combo),
            text=self.search_edit.text().strip(),
        )

    def set_filter(self, flt: OfferFilter) -> None:
        """Show `flt` in the controls without emitting per control; emits once at the end."""
        self._blocked = True
        try:
            for pid, act in self.provider_actions.items():
                act.setChecked(pid in flt.providers)
            self._set_combo_text(self.gpu_combo, flt.gpu_models[0] if flt.gpu_models else "")
            self._set_combo_text(self.region_combo, flt.region)
            self.vram_spin.setValue(int(flt.min_vram or 0))
            count = flt.gpu_count
            idx = self.count_combo.findData(float(count)) if count else 0
            if idx < 0 and count:
                self.count_combo.addItem(f"{count:g}", float(count))
                idx = self.count_combo.count() - 1
            self.count_combo.setCurrentIndex(idx)
            self.price_spin.setValue(flt.max_price or 0.0)
            self.spot_check.setChecked(flt.spot_only)
            self.search_edit.setText(flt.text)
        finally:
            self._blocked = False
        self._update_provider_button()
        self._emit()

    @Slot()
    def reset(self) -> None:
        self.set_filter(OfferFilter(currency=self._currency))

    def is_default(self) -> bool:
        f = self.current_filter()
        return f == OfferFilter(currency=f.currency)

    # -- internals ----------------------------------------------------------------------------

    @staticmethod
    def _combo_value(combo: QComboBox) -> str:
        text = combo.currentText().strip()
        idx = combo.findText(text, Qt.MatchFlag.MatchFixedString)
        if idx == 0 or not text:  # "any"
            return ""
        if idx > 0 and combo.itemData(idx):
            return str(combo.itemData(idx))
        return text

    @staticmethod
    def _set_combo_text(combo: QComboBox, value: str) -> None:
        if not value:
            combo.setCurrentIndex(0)
            return
        idx = combo.findData(value)
        if idx >= 0:
            combo.setCurrentIndex(idx)
        else:
            combo.setEditText(value)

    def _update_provider_button(self) -> None:
        chosen = [a.text() for a in self.provider_actions.values() if a.isChecked()]
        if not chosen:
            self.provider_button.setText(self.tr("All"))
        elif len(chosen) <= 2:
            self.provider_button.setText(", ".join(chosen))
        else:
            self.provider_button.setText(self.tr("{count} providers").format(count=str(len(chosen))))

    @Slot(bool)
    def _on_provider_action_toggled(self, _checked: bool) -> None:
        self._update_provider_button()
        self._on_any_changed()

    @Slot()
    def _on_provider_all_triggered(self) -> None:
        self._blocked = True
        try:
            for a in self.provider_actions.values():
                a.setChecked(False)
        finally:
            self._blocked = False
        self._update_provider_button()
        self._emit()

    @Slot()
    def _on_any_changed(self, *_args: object) -> None:
        if not self._blocked:
            self._debounce.stop()
            self._emit()

    @Slot()
    def _on_any_changed_debounced(self, *_args: object) -> None:
        if not self._blocked:
            self._debounce.start()

    @Slot()
    def _emit(self) -> None:
        self._debounce.stop()
        self.filter_changed.emit(self.current_filter())

    def flush(self) -> None:
        """Emit now if a typed change is still waiting (tests, page shutdown)."""
        if self._debounce.isActive():
            self._emit()
