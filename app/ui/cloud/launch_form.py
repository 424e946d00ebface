"""The launch dialog's widgets, built once (app/ui/cloud/launch_dialog.py keeps the behaviour).

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

from app.ui import theme
from app.ui.cloud import cloud_settings
from app.ui.shared.plain import PlainLabel

if TYPE_CHECKING:
    from app.ui.cloud.launch_dialog import LaunchDialog


def build_launch_form(dlg: LaunchDialog) -> None:
    """The dialog's two pages (the form, the launch's steps) and its buttons; widgets become its
    attributes and signals go to its slots."""
    state = cloud_settings(dlg.ctx)
    layout = QVBoxLayout(dlg)
    dlg.stack = QStackedWidget(dlg)
    layout.addWidget(dlg.stack, 1)
    form_page = QWidget(dlg.stack)
    form = QFormLayout(form_page)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
    dlg.account_combo = QComboBox(form_page)
    dlg.account_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    dlg.account_combo.currentIndexChanged.connect(dlg._on_account_combo_changed)
    dlg.account_note = PlainLabel(form_page)
    dlg.account_note.setWordWrap(True)
    dlg.account_note.setStyleSheet(f"color: {theme.css('warning')};")
    dlg.account_note.hide()
    dlg.accounts_button = QPushButton(QCoreApplication.translate("LaunchDialog", "Open the Accounts page"), form_page)
    dlg.accounts_button.clicked.connect(dlg._on_accounts_button_clicked)
    dlg.accounts_button.hide()
    dlg.type_edit = QLineEdit(form_page)
    dlg.type_edit.setPlaceholderText(QCoreApplication.translate("LaunchDialog", "e.g. GN7.2XLARGE32 or g5.xlarge"))
    if dlg.offer is not None:
        dlg.type_edit.setText(dlg.offer.instance_type)
    dlg.type_edit.editingFinished.connect(dlg._on_type_edit_finished)
    dlg.zone_combo = QComboBox(form_page)
    dlg.zone_combo.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
    dlg.zone_combo.addItem(QCoreApplication.translate("LaunchDialog", "Any zone (tries each on capacity errors)"), "")
    dlg.image_edit = QLineEdit(form_page)
    dlg.image_edit.setPlaceholderText(
        QCoreApplication.translate("LaunchDialog", "automatic: a GPU image with CUDA/PyTorch, else Ubuntu"))
    dlg.disk_spin = QSpinBox(form_page)
    dlg.disk_spin.setRange(20, 4096)
    dlg.disk_spin.setSuffix(" GB")
    dlg.disk_spin.setValue(state.disk_gb)
    key_row = QWidget(form_page)
    key_layout = QVBoxLayout(key_row)
    key_layout.setContentsMargins(0, 0, 0, 0)
    key_file_row = QHBoxLayout()
    dlg.key_new_radio = QRadioButton(
        QCoreApplication.translate("LaunchDialog", "LabGPU key (created once, passphrase in the keyring)"), key_row
    )
    dlg.key_file_radio = QRadioButton(QCoreApplication.translate("LaunchDialog", "Existing key:"), key_row)
    dlg.key_group = QButtonGroup(dlg)
    dlg.key_group.addButton(dlg.key_new_radio)
    dlg.key_group.addButton(dlg.key_file_radio)
    dlg.key_path_edit = QLineEdit(key_row)
    dlg.key_path_edit.setPlaceholderText("~/.ssh/id_ed25519")
    dlg.key_path_edit.setText(state.ssh_key_path)
    dlg.key_browse = QPushButton(QCoreApplication.translate("LaunchDialog", "Browse…"), key_row)
    dlg.key_browse.clicked.connect(dlg._on_key_browse_clicked)
    key_layout.addWidget(dlg.key_new_radio)
    key_file_row.addWidget(dlg.key_file_radio)
    key_file_row.addWidget(dlg.key_path_edit, 1)
    key_file_row.addWidget(dlg.key_browse)
    key_layout.addLayout(key_file_row)
    # Which key goes to which cloud: its type, and whether this cloud's key import takes it.
    dlg.key_note = PlainLabel(key_row)
    dlg.key_note.setObjectName("launchKeyNote")
    dlg.key_note.setWordWrap(True)
    dlg.key_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    dlg.key_note.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    key_layout.addWidget(dlg.key_note)
    (dlg.key_file_radio if state.ssh_key_path else dlg.key_new_radio).setChecked(True)
    dlg.key_path_edit.textChanged.connect(dlg._update_key_note)
    dlg.key_file_radio.toggled.connect(dlg._update_key_note)
    dlg.cidr_edit = QLineEdit(form_page)
    dlg.cidr_edit.setPlaceholderText(QCoreApplication.translate("LaunchDialog", "detecting your public address…"))
    dlg.cidr_note = PlainLabel(form_page)
    dlg.cidr_note.setWordWrap(True)
    dlg.cidr_note.setStyleSheet(f"color: {theme.css('muted')};")
    spot_row = QWidget(form_page)
    spot_layout = QHBoxLayout(spot_row)
    spot_layout.setContentsMargins(0, 0, 0, 0)
    dlg.spot_check = QCheckBox(QCoreApplication.translate("LaunchDialog", "Spot (cheaper, may be reclaimed)"), spot_row)
    dlg.spot_check.setChecked(
        bool(dlg.offer is not None and dlg.offer.spot_available and state.spot)
    )
    dlg.spot_check.toggled.connect(dlg._on_spot_check_toggled)
    dlg.max_price_spin = QDoubleSpinBox(spot_row)
    dlg.max_price_spin.setDecimals(4)
    dlg.max_price_spin.setRange(0.0, 100000.0)
    dlg.max_price_spin.setSpecialValueText(QCoreApplication.translate("LaunchDialog", "default"))
    dlg.max_price_spin.setSuffix(QCoreApplication.translate("LaunchDialog", " /h"))
    spot_layout.addWidget(dlg.spot_check)
    spot_layout.addWidget(PlainLabel(QCoreApplication.translate("LaunchDialog", "Maximum price:"), spot_row))
    spot_layout.addWidget(dlg.max_price_spin, 1)
    dlg.price_note = PlainLabel(form_page)
    dlg.price_note.setWordWrap(True)
    for note in (dlg.account_note, dlg.cidr_note, dlg.price_note):
        note.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
    form.addRow(QCoreApplication.translate("LaunchDialog", "Account"), dlg.account_combo)
    form.addRow("", dlg.account_note)
    form.addRow("", dlg.accounts_button)
    form.addRow(QCoreApplication.translate("LaunchDialog", "Instance type"), dlg.type_edit)
    form.addRow(QCoreApplication.translate("LaunchDialog", "Zone"), dlg.zone_combo)
    form.addRow(QCoreApplication.translate("LaunchDialog", "Image"), dlg.image_edit)
    form.addRow(QCoreApplication.translate("LaunchDialog", "System disk"), dlg.disk_spin)
    form.addRow(QCoreApplication.translate("LaunchDialog", "SSH key"), key_row)
    form.addRow(QCoreApplication.translate("LaunchDialog", "SSH allowed from"), dlg.cidr_edit)
    form.addRow("", dlg.cidr_note)
    form.addRow(QCoreApplication.translate("LaunchDialog", "Billing"), spot_row)
    form.addRow("", dlg.price_note)
    from app.ui.shared.guards_ui import GuardEditor, defaults_from_settings

    # Guards (idle, budget, maximum runtime…), saved for the new instance once it runs.
    dlg.guard_editor = GuardEditor(defaults_from_settings(dlg.ctx.settings), True, form_page)
    form.addRow(dlg.guard_editor)
    scroll = QScrollArea(dlg.stack)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QScrollArea.Shape.NoFrame)
    scroll.setWidget(form_page)
    dlg.stack.addWidget(scroll)

    progress_page = QWidget(dlg.stack)
    pv = QVBoxLayout(progress_page)
    dlg.progress_title = PlainLabel(progress_page)
    dlg.progress_title.setStyleSheet("font-size: 15px; font-weight: 600;")
    pv.addWidget(dlg.progress_title)
    dlg.steps_list = QListWidget(progress_page)
    dlg.steps_list.setObjectName("launchSteps")
    pv.addWidget(dlg.steps_list, 1)
    dlg.outcome_label = PlainLabel(progress_page)
    dlg.outcome_label.setObjectName("launchOutcome")
    dlg.outcome_label.setWordWrap(True)
    dlg.outcome_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    pv.addWidget(dlg.outcome_label)
    dlg.stack.addWidget(progress_page)

    buttons = QHBoxLayout()
    dlg.copy_ssh_button = QPushButton(QCoreApplication.translate("LaunchDialog", "Copy SSH command"), dlg)
    dlg.copy_ssh_button.clicked.connect(dlg._on_copy_ssh_button_clicked)
    dlg.copy_ssh_button.hide()
    dlg.back_button = QPushButton(QCoreApplication.translate("LaunchDialog", "Change settings"), dlg)
    dlg.back_button.clicked.connect(dlg._on_back_button_clicked)
    dlg.back_button.hide()
    dlg.launch_button = QPushButton(QCoreApplication.translate("LaunchDialog", "Launch"), dlg)
    dlg.launch_button.setDefault(True)
    dlg.launch_button.clicked.connect(dlg._on_launch_button_clicked)
    dlg.close_button = QPushButton(QCoreApplication.translate("LaunchDialog", "Cancel"), dlg)
    dlg.close_button.clicked.connect(dlg._on_close_button_clicked)
    buttons.addWidget(dlg.copy_ssh_button)
    buttons.addWidget(dlg.back_button)
    buttons.addStretch(1)
    buttons.addWidget(dlg.launch_button)
    buttons.addWidget(dlg.close_button)
    layout.addLayout(buttons)
    dlg._on_spot_check_toggled(dlg.spot_check.isChecked())
