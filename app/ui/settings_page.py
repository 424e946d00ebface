"""Settings: language, display currency and rate, spot bid default, where files live."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.ui import i18n, theme
from app.ui.context import AppContext
from app.ui.shared.limits import apply_limits, setting_limits, show_value, spin_optional, spin_value
from app.ui.shared.plain import PlainLabel

FIELD_MIN_WIDTH = 200
FIELD_MAX_WIDTH = 340  # fields of the forms: wide enough for their longest choice, no wider

class SettingsPage(QWidget):
    page_id = "settings"

    @staticmethod
    def nav_title() -> str:
        return QCoreApplication.translate("SettingsPage", "Settings")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        s = ctx.settings
        # The groups scroll when the window is shorter than they are (1024×640): never squeezed below their size.
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        body = QWidget(scroll)
        scroll.setWidget(body)
        page = QVBoxLayout(self)
        page.setContentsMargins(0, 0, 0, 0)
        page.addWidget(scroll)
        outer = QVBoxLayout(body)
        outer.setContentsMargins(24, 12, 24, 12)  # 1280×800 in Chinese fits without scrolling
        title = PlainLabel(self.tr("Settings"))
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
        apply_limits(self.rate_spin, setting_limits("usd_cny_rate_override"), none_text=self.tr("bundled default"))
        show_value(self.rate_spin, setting_limits("usd_cny_rate_override"), s.usd_cny_rate_override)
        self.rate_spin.setToolTip(self.tr("Your own USD→CNY rate for display. 0 uses the bundled rate."))
        self.rate_spin.editingFinished.connect(self._on_rate_spin_edited)
        form.addRow(self.tr("USD→CNY &rate:"), self.rate_spin)

        self.bid_spin = QDoubleSpinBox(general)
        apply_limits(self.bid_spin, setting_limits("spot_bid_fraction"))
        show_value(self.bid_spin, setting_limits("spot_bid_fraction"), s.spot_bid_fraction)
        self.bid_spin.setToolTip(self.tr("Default spot price cap, as a share of the on-demand price."))
        self.bid_spin.editingFinished.connect(self._on_bid_spin_edited)
        form.addRow(self.tr("Spot &bid cap:"), self.bid_spin)
        self.welcome_button = QPushButton(self.tr("Show the welcome tour again"), general)
        self.welcome_button.setObjectName("showWelcome")
        self.welcome_button.setToolTip(self.tr("The language, a cloud account (optional) and a tour of the pages"))
        self.welcome_button.clicked.connect(self._on_welcome_button_clicked)
        welcome_row = QHBoxLayout()
        welcome_row.addWidget(self.welcome_button)
        welcome_row.addStretch(1)
        form.addRow("", welcome_row)
        for w in (self.language_combo, self.currency_combo, self.rate_spin, self.bid_spin):
            w.setMinimumWidth(FIELD_MIN_WIDTH)
            w.setMaximumWidth(FIELD_MAX_WIDTH)  # not ~930 px wide on a large window
        from app.ui.remote.logins_settings import LoginsSection  # Settings → SSH logins, beside General

        top = QHBoxLayout()
        top.addWidget(general, 1)
        top.addWidget(LoginsSection(ctx, self), 1)
        outer.addLayout(top)
        self._build_guards_and_tray(outer)
        from app.ui.notify.section import NotifySection  # Settings → Notifications (its own catalog)

        outer.addWidget(NotifySection(ctx, self))

        files = QGroupBox(self.tr("Files"), self)
        fform = QFormLayout(files)
        p = ctx.paths
        for label, path in ((self.tr("Settings:"), p.config_dir), (self.tr("Data:"), p.data_dir),
                            (self.tr("Logs:"), p.log_dir)):
            row = QHBoxLayout()
            text = PlainLabel(str(path))
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            row.addWidget(text, 1)
            button = QPushButton(self.tr("Open"))
            button.clicked.connect(lambda _=False, path=path: QDesktopServices.openUrl(QUrl.fromLocalFile(str(path))))
            row.addWidget(button)
            fform.addRow(label, row)
        outer.addWidget(files)
        self.saved_label = PlainLabel("")
        self.saved_label.setStyleSheet("color: palette(mid);")
        outer.addWidget(self.saved_label)
        outer.addStretch(1)

    def _build_guards_and_tray(self, outer: QVBoxLayout) -> None:
        s = self.ctx.settings
        box = QGroupBox(self.tr("Guards and tray"), self)
        form = QFormLayout(box)
        idle = QHBoxLayout()
        self.idle_pct_spin = QDoubleSpinBox(box)
        self.idle_pct_spin.setObjectName("guardIdlePct")
        apply_limits(self.idle_pct_spin, setting_limits("guard_idle_below_pct"))
        self.idle_pct_spin.setValue(float(s.guard_idle_below_pct))
        self.idle_min_spin = QDoubleSpinBox(box)
        self.idle_min_spin.setObjectName("guardIdleMinutes")
        apply_limits(self.idle_min_spin, setting_limits("guard_idle_minutes"), suffix=self.tr(" min"))
        self.idle_min_spin.setValue(float(s.guard_idle_minutes))
        self.on_idle_combo = QComboBox(box)
        self.on_idle_combo.setObjectName("guardOnIdle")
        self.on_idle_combo.addItem(self.tr("notify me"), "notify")
        self.on_idle_combo.addItem(self.tr("pull checkpoints, then stop it"), "stop")
        self.on_idle_combo.setCurrentIndex(max(0, self.on_idle_combo.findData(s.guard_on_idle)))
        idle.addWidget(PlainLabel(self.tr("every GPU below"), box))
        idle.addWidget(self.idle_pct_spin)
        idle.addWidget(PlainLabel(self.tr("for"), box))
        idle.addWidget(self.idle_min_spin)
        idle.addWidget(PlainLabel("→", box))
        self.on_idle_combo.setMaximumWidth(FIELD_MAX_WIDTH)
        idle.addWidget(self.on_idle_combo)
        idle.addStretch(1)
        form.addRow(self.tr("New guards, idle:"), idle)
        for w in (self.idle_pct_spin, self.idle_min_spin):
            w.editingFinished.connect(self._on_guard_defaults_edited)
        self.on_idle_combo.currentIndexChanged.connect(self._on_guard_defaults_edited)
        note = PlainLabel(self.tr("Servers of the Hosts page have no cloud API: their guards only notify."), box)
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(mid);")
        form.addRow("", note)
        self.keep_tray_check = QCheckBox(self.tr("Keep LabGPU in the tray when the window is closed while "
                                                 "instances run"), box)
        self.keep_tray_check.setObjectName("keepTray")
        self.keep_tray_check.setChecked(bool(s.keep_tray_when_closed))
        self.keep_tray_check.toggled.connect(self._on_keep_tray_toggled)
        form.addRow("", self.keep_tray_check)
        self.login_check = QCheckBox(self.tr("Start LabGPU in the tray at login"), box)
        self.login_check.setObjectName("startAtLogin")
        self.login_check.setChecked(bool(s.start_at_login))
        self.login_check.toggled.connect(self._on_login_check_toggled)
        form.addRow("", self.login_check)
        self.login_label = PlainLabel(box)
        self.login_label.setObjectName("startAtLoginNote")
        self.login_label.setWordWrap(True)
        self.login_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.login_label.setStyleSheet("color: palette(mid);")
        form.addRow("", self.login_label)
        form.setRowVisible(self.login_label, False)  # an empty line until there is something to say
        self.login_form = form
        outer.addWidget(box)

    @Slot()
    def _on_guard_defaults_edited(self, *_args: object) -> None:
        s = self.ctx.settings
        s.guard_idle_below_pct = self.idle_pct_spin.value()
        s.guard_idle_minutes = self.idle_min_spin.value()
        s.guard_on_idle = str(self.on_idle_combo.currentData())
        self._saved()

    @Slot(bool)
    def _on_keep_tray_toggled(self, on: bool) -> None:
        self.ctx.settings.keep_tray_when_closed = on
        self._saved()

    @Slot(bool)
    def _on_login_check_toggled(self, on: bool) -> None:
        from app.core import autostart
        from app.core.errors import LabGpuError

        try:
            where = autostart.set_enabled(on)
        except LabGpuError as exc:
            self.login_label.setStyleSheet(f"color: {theme.css('error')};")
            self.login_label.setText(f"{exc.text()} {exc.hint()}".strip())
            self.login_form.setRowVisible(self.login_label, True)
            self.login_check.blockSignals(True)
            self.login_check.setChecked(not on)
            self.login_check.blockSignals(False)
            return
        self.ctx.settings.start_at_login = on
        self._saved()
        self.login_label.setStyleSheet("color: palette(mid);")
        self.login_label.setText(self.tr("Written: {where}").format(where=where) if on
                                 else self.tr("Removed: {where}").format(where=where))
        self.login_form.setRowVisible(self.login_label, True)

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

    @Slot()
    def _on_welcome_button_clicked(self) -> None:
        from app.ui import first_run

        first_run.show_welcome(self.ctx, self.window())  # over the window: a language switch rebuilds this page

    @Slot(int)
    def _on_currency_combo_changed(self, _index: int) -> None:
        self.ctx.settings.display_currency = self.currency_combo.currentData()
        self._saved()

    @Slot()
    def _on_rate_spin_edited(self) -> None:
        self.ctx.settings.usd_cny_rate_override = spin_optional(self.rate_spin, setting_limits("usd_cny_rate_override"))
        self._saved()

    @Slot()
    def _on_bid_spin_edited(self) -> None:
        self.ctx.settings.spot_bid_fraction = spin_value(self.bid_spin, setting_limits("spot_bid_fraction"))
        self._saved()
