"""The launch dialog's widgets, built once (app/ui/cloud/launch_dialog.py keeps the behaviour and connects
their signals).

Strings keep the dialog's translation context, "LaunchDialog".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QListWidget,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from app.core.models import Offer
from app.ui import theme
from app.ui.cloud import cloud_settings
from app.ui.shared.plain import PlainLabel

if TYPE_CHECKING:
    from app.ui.context import AppContext


class LaunchForm(QWidget):
    """The dialog's two pages (the form, the launch's steps) and its buttons, as typed attributes."""

    def __init__(self, ctx: AppContext, offer: Offer | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        state = cloud_settings(ctx)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.stack = QStackedWidget(self)
        layout.addWidget(self.stack, 1)
        form_page = QWidget(self.stack)
        form = QFormLayout(form_page)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.account_combo = QComboBox(form_page)
        self.account_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.account_note = PlainLabel(form_page)
        self.account_note.setWordWrap(True)
        self.account_note.setStyleSheet(f"color: {theme.css('warning')};")
        self.account_note.hide()
        self.accounts_button = QPushButton(
            QCoreApplication.translate("LaunchDialog", "Open the Accounts page"), form_page)
        self.accounts_button.hide()
        self.type_edit = QLineEdit(form_page)
        self.type_edit.setPlaceholderText(QCoreApplication.translate("LaunchDialog", "e.g. GN7.2XLARGE32 or g5.xlarge"))
        if offer is not None:
            self.type_edit.setText(offer.instance_type)
        self.zone_combo = QComboBox(form_page)
        self.zone_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.zone_combo.addItem(
            QCoreApplication.translate("LaunchDialog", "Any zone (tries each on capacity errors)"), "")
        self.image_edit = QLineEdit(form_page)
        self.image_edit.setPlaceholderText(
            QCoreApplication.translate("LaunchDialog", "automatic: a GPU image with CUDA/PyTorch, else Ubuntu"))
        self.disk_spin = QSpinBox(form_page)
        self.disk_spin.setRange(20, 4096)
        self.disk_spin.setSuffix(" GB")
        self.disk_spin.setValue(state.disk_gb)
        key_row = QWidget(form_page)
        key_layout = QVBoxLayout(key_row)
        key_layout.setContentsMargins(0, 0, 0, 0)
        key_file_row = QHBoxLayout()
        self.key_new_radio = QRadioButton(
            QCoreApplication.translate("LaunchDialog", "LabGPU key (created once, passphrase in the keyring)"), key_row
        )
        self.key_file_radio = QRadioButton(QCoreApplication.translate("LaunchDialog", "Existing key:"), key_row)
        self.key_group = QButtonGroup(self)
        self.key_group.addButton(self.key_new_radio)
        self.key_group.addButton(self.key_file_radio)
        self.key_path_edit = QLineEdit(key_row)
        self.key_path_edit.setPlaceholderText("~/.ssh/id_ed25519")
        self.key_path_edit.setText(state.ssh_key_path)
        self.key_browse = QPushButton(QCoreApplication.translate("LaunchDialog", "Browse…"), key_row)
        key_layout.addWidget(self.key_new_radio)
        key_file_row.addWidget(self.key_file_radio)
        key_file_row.addWidget(self.key_path_edit, 1)
        key_file_row.addWidget(self.key_browse)
        self.key_browse.setMinimumWidth(self.key_browse.sizeHint().width())  # never squeezed to "B"
        key_layout.addLayout(key_file_row)
        # Which key goes to which cloud: its type, and whether this cloud's key import takes it.
        self.key_note = PlainLabel(form_page)
        self.key_note.setObjectName("launchKeyNote")
        self.key_note.setWordWrap(True)
        self.key_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.key_note.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        (self.key_file_radio if state.ssh_key_path else self.key_new_radio).setChecked(True)
        self.cidr_edit = QLineEdit(form_page)
        self.cidr_edit.setPlaceholderText(QCoreApplication.translate("LaunchDialog", "detecting your public address…"))
        self.cidr_note = PlainLabel(form_page)
        self.cidr_note.setWordWrap(True)
        self.cidr_note.setStyleSheet(f"color: {theme.css('muted')};")
        spot_row = QWidget(form_page)
        spot_layout = QHBoxLayout(spot_row)
        spot_layout.setContentsMargins(0, 0, 0, 0)
        self.spot_check = QCheckBox(
            QCoreApplication.translate("LaunchDialog", "Spot (cheaper, may be reclaimed)"), spot_row)
        self.spot_check.setChecked(
            bool(offer is not None and offer.spot_available and state.spot)
        )
        self.max_price_spin = QDoubleSpinBox(spot_row)
        self.max_price_spin.setDecimals(4)
        self.max_price_spin.setRange(0.0, 100000.0)
        self.max_price_spin.setSpecialValueText(QCoreApplication.translate("LaunchDialog", "default"))
        self.max_price_spin.setSuffix(QCoreApplication.translate("LaunchDialog", " /h"))
        spot_layout.addWidget(self.spot_check)
        spot_layout.addWidget(PlainLabel(QCoreApplication.translate("LaunchDialog", "Maximum price:"), spot_row))
        spot_layout.addWidget(self.max_price_spin, 1)
        self.price_note = PlainLabel(form_page)
        self.price_note.setWordWrap(True)
        # Waiting for a GPU (蹲卡): while the type is sold out, the launch keeps trying until the chosen time.
        wait_row = QWidget(form_page)
        wait_layout = QHBoxLayout(wait_row)
        wait_layout.setContentsMargins(0, 0, 0, 0)
        self.keep_trying_check = QCheckBox(
            QCoreApplication.translate("LaunchDialog", "Keep trying while it is sold out, for"), wait_row)
        self.keep_trying_combo = QComboBox(wait_row)
        for label, until in ((QCoreApplication.translate("LaunchDialog", "30 minutes"), "30m"),
                             (QCoreApplication.translate("LaunchDialog", "1 hour"), "1h"),
                             (QCoreApplication.translate("LaunchDialog", "3 hours"), "3h"),
                             (QCoreApplication.translate("LaunchDialog", "6 hours"), "6h"),
                             (QCoreApplication.translate("LaunchDialog", "12 hours"), "12h"),
                             (QCoreApplication.translate("LaunchDialog", "1 day"), "1d")):
            self.keep_trying_combo.addItem(label, until)
        self.keep_trying_combo.setCurrentIndex(3)
        self.keep_trying_combo.setEnabled(False)
        self.keep_trying_check.toggled.connect(self.keep_trying_combo.setEnabled)
        wait_layout.addWidget(self.keep_trying_check)
        wait_layout.addWidget(self.keep_trying_combo)
        wait_layout.addStretch(1)
        self.keep_trying_note = PlainLabel(QCoreApplication.translate(
            "LaunchDialog", "LabGPU retries every few minutes across the zones and notifies you when it lands. "
                            "A spot launch never bids more than its maximum price."), form_page)
        self.keep_trying_note.setWordWrap(True)
        self.keep_trying_note.setStyleSheet(f"color: {theme.css('muted')};")
        self.keep_trying_note.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        for note in (self.account_note, self.cidr_note, self.price_note):
            note.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        form.addRow(QCoreApplication.translate("LaunchDialog", "Account"), self.account_combo)
        form.addRow("", self.account_note)
        form.addRow("", self.accounts_button)
        form.addRow(QCoreApplication.translate("LaunchDialog", "Instance type"), self.type_edit)
        form.addRow(QCoreApplication.translate("LaunchDialog", "Zone"), self.zone_combo)
        form.addRow(QCoreApplication.translate("LaunchDialog", "Image"), self.image_edit)
        form.addRow(QCoreApplication.translate("LaunchDialog", "System disk"), self.disk_spin)
        form.addRow(QCoreApplication.translate("LaunchDialog", "SSH key"), key_row)
        form.addRow("", self.key_note)  # its own row: a long path wraps to every line it needs
        form.addRow(QCoreApplication.translate("LaunchDialog", "SSH allowed from"), self.cidr_edit)
        form.addRow("", self.cidr_note)
        form.addRow(QCoreApplication.translate("LaunchDialog", "Billing"), spot_row)
        form.addRow("", self.price_note)
        form.addRow(QCoreApplication.translate("LaunchDialog", "If sold out"), wait_row)
        form.addRow(self.keep_trying_note)  # the whole width: a wrapped sentence never clipped in the field column
        from app.ui.shared.guards_ui import GuardEditor, defaults_from_settings

        # Guards (idle, budget, maximum runtime…), saved for the new instance once it runs.
        self.guard_editor = GuardEditor(defaults_from_settings(ctx.settings), True, form_page)
        form.addRow(self.guard_editor)
        from app.ui.shared.recovery_ui import RecoveryEditor

        # Spot recovery (shown for a spot launch): saved for the new instance once it runs.
        self.recovery_editor = RecoveryEditor(form_page)
        form.addRow(self.recovery_editor)
        scroll = QScrollArea(self.stack)
        scroll.setObjectName("launchFormScroll")
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(form_page)
        self.stack.addWidget(scroll)

        progress_page = QWidget(self.stack)
        pv = QVBoxLayout(progress_page)
        self.progress_title = PlainLabel(progress_page)
        self.progress_title.setStyleSheet("font-size: 15px; font-weight: 600;")
        pv.addWidget(self.progress_title)
        self.steps_list = QListWidget(progress_page)
        self.steps_list.setObjectName("launchSteps")
        pv.addWidget(self.steps_list, 1)
        self.outcome_label = PlainLabel(progress_page)
        self.outcome_label.setObjectName("launchOutcome")
        self.outcome_label.setWordWrap(True)
        self.outcome_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        pv.addWidget(self.outcome_label)
        self.stack.addWidget(progress_page)

        buttons = QHBoxLayout()
        self.copy_ssh_button = QPushButton(QCoreApplication.translate("LaunchDialog", "Copy SSH command"), self)
        self.copy_ssh_button.hide()
        self.back_button = QPushButton(QCoreApplication.translate("LaunchDialog", "Change settings"), self)
        self.back_button.hide()
        self.stop_wait_button = QPushButton(QCoreApplication.translate("LaunchDialog", "Stop waiting"), self)
        self.stop_wait_button.hide()
        self.launch_button = QPushButton(QCoreApplication.translate("LaunchDialog", "Launch"), self)
        self.launch_button.setDefault(True)
        self.close_button = QPushButton(QCoreApplication.translate("LaunchDialog", "Cancel"), self)
        buttons.addWidget(self.copy_ssh_button)
        buttons.addWidget(self.back_button)
        buttons.addStretch(1)
        buttons.addWidget(self.stop_wait_button)
        buttons.addWidget(self.launch_button)
        buttons.addWidget(self.close_button)
        layout.addLayout(buttons)
