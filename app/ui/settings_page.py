"""Settings: language, display currency and rate, spot bid default, where files live."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui import i18n
from app.ui.context import AppContext


class SettingsPage(QWidget):
    page_id = "settings"

    @staticmethod
    def nav_title() -> str:
        return QCoreApplication.translate("SettingsPage", "Settings")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        s = ctx.settings
        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 20, 24, 20)
        title = QLabel(self.tr("Settings"))
        title.setStyleSheet("font-size: 20px; font-weight: 600;")
        outer.addWidget(title)

        general = QGroupBox(self.tr("General"), self)
        form = QFormLayout(general)
        self.language_combo = QComboBox(general)
        self.language_combo.addItem(self.tr("Follow the system"), "system")
        self.language_combo.addItem("English", "en")
        self.language_combo.addItem("简体中文", "zh_CN")
        self.language_combo.setCurrentIndex(max(0, self.language_combo.findData(s.language)))
        self.language_combo.currentIndexChanged.connect(self._on_language_combo_changed)
        form.addRow(self.tr("&Language:"), self.language_combo)

        self.currency_combo = QComboBox(general)
        self.currency_combo.addItem(self.tr("CNY (¥)"), "CNY")
        self.currency_combo.addItem(self.tr("USD ($)"), "USD")
        self.currency_combo.setCurrentIndex(max(0, self.currency_combo.findData(s.display_currency)))
        self.currency_combo.currentIndexChanged.connect(self._on_currency_combo_changed)
        form.addRow(self.tr("Display &currency:"), self.currency_combo)

        self.rate_spin = QDoubleSpinBox(general)
        self.rate_spin.setRange(0.0, 50.0)
        self.rate_spin.setDecimals(4)
        self.rate_spin.setSingleStep(0.01)
        self.rate_spin.setSpecialValueText(self.tr("bundled default"))
        self.rate_spin.setValue(s.usd_cny_rate_override or 0.0)
        self.rate_spin.setToolTip(self.tr("Your own USD→CNY rate for display. 0 uses the bundled rate."))
        self.rate_spin.editingFinished.connect(self._on_rate_spin_edited)
        form.addRow(self.tr("USD→CNY &rate:"), self.rate_spin)

        self.bid_spin = QDoubleSpinBox(general)
        self.bid_spin.setRange(5, 100)
        self.bid_spin.setSuffix(" %")
        self.bid_spin.setDecimals(0)
        self.bid_spin.setValue(round(s.spot_bid_fraction * 100))
        self.bid_spin.setToolTip(self.tr("Default spot price cap, as a share of the on-demand price."))
        self.bid_spin.editingFinished.connect(self._on_bid_spin_edited)
        form.addRow(self.tr("Spot &bid cap:"), self.bid_spin)
        outer.addWidget(general)

        files = QGroupBox(self.tr("Files"), self)
        fform = QFormLayout(files)
        p = ctx.paths
        for label, path in ((self.tr("Settings:"), p.config_dir), (self.tr("Data:"), p.data_dir),
                            (self.tr("Logs:"), p.log_dir)):
            row = QHBoxLayout()
            text = QLabel(str(path))
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            row.addWidget(text, 1)
            button = QPushButton(self.tr("Open"))
            button.clicked.connect(lambda _=False, path=path: QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))))
            row.addWidget(button)
            fform.addRow(label, row)
        outer.addWidget(files)
        self.saved_label = QLabel("")
        self.saved_label.setStyleSheet("color: palette(mid);")
        outer.addWidget(self.saved_label)
        outer.addStretch(1)

    def _saved(self) -> None:
        self.ctx.save_settings()
        self.saved_label.setText(self.tr("Saved."))

    @Slot(int)
    def _on_language_combo_changed(self, _index: int) -> None:
        value = self.language_combo.currentData()
        self.ctx.settings.language = value
        self._saved()
        app = QCoreApplication.instance()
        if app is not None:
            self.ctx.language = i18n.install(app, i18n.resolve_language(value))
        self.ctx.language_changed.emit(self.ctx.language)

    @Slot(int)
    def _on_currency_combo_changed(self, _index: int) -> None:
        self.ctx.settings.display_currency = self.currency_combo.currentData()
        self._saved()

    @Slot()
    def _on_rate_spin_edited(self) -> None:
        v = self.rate_spin.value()
        self.ctx.settings.usd_cny_rate_override = v if v > 0.5 else None
        self._saved()

    @Slot()
    def _on_bid_spin_edited(self) -> None:
        self.ctx.settings.spot_bid_fraction = self.bid_spin.value() / 100.0
        self._saved()
