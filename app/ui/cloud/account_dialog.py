"""Add or edit a cloud account: name, provider, region, endpoint and the credentials its spec asks for.

The secrets go to the OS keyring through AccountBook (off the GUI thread); where no keyring exists
the dialog says what to install and stores nothing. On edit, empty secret fields keep the stored
secrets, so the user never sees them again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.core import providers
from app.core.i18n import translate
from app.ui import theme
from app.ui.cloud import cloud_service, error_sentence
from app.ui.shared.plain import PlainLabel

if TYPE_CHECKING:
    from app.ui.context import AppContext


class AccountDialog(QDialog):
    """Modal-less dialog; emits ``saved(name)`` once the account is in the keyring and the Store."""

    saved = Signal(str)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, *, edit: Any = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._edit = edit  # AccountInfo when editing
        self._task: Any = None
        self.setObjectName("accountDialog")
        self.setWindowTitle(self.tr("Edit cloud account") if edit else self.tr("Add cloud account"))
        self.setMinimumWidth(520)
        self._build()
        if edit is not None:
            self._load(edit)
        self._on_provider_changed()

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.provider_combo = QComboBox(self)
        for spec in providers.specs():  # every provider LabGPU can launch on, from its plugin
            if spec.capabilities.launch:
                self.provider_combo.addItem(spec.display_name(), spec.id)
        for spec in providers.specs():  # then clouds whose buckets alone LabGPU uses (Huawei Cloud's OBS)
            if spec.capabilities.storage and not spec.capabilities.launch:
                self.provider_combo.addItem(
                    self.tr("{cloud} (buckets only)").format(cloud=spec.display_name()), spec.id)
        self.provider_combo.currentIndexChanged.connect(self._on_provider_changed)
        self.name_edit = QLineEdit(self)
        self.region_combo = QComboBox(self)
        self.region_combo.setEditable(True)
        self.key_label = PlainLabel(self)
        self.key_edit = QLineEdit(self)
        self.secret_label = PlainLabel(self)
        self.secret_edit = QLineEdit(self)
        self.secret_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.show_secret = QCheckBox(self.tr("Show"), self)
        self.show_secret.toggled.connect(
            lambda on: self.secret_edit.setEchoMode(
                QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password
            )
        )
        self.token_label = PlainLabel(self)
        self.token_edit = QLineEdit(self)
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.intl_check = QCheckBox(self)  # the provider's alternative site (spec.alt_endpoint)
        self.intl_check.toggled.connect(self._on_intl_check_toggled)
        self.endpoint_edit = QLineEdit(self)
        form.addRow(self.tr("Provider"), self.provider_combo)
        form.addRow(self.tr("Name"), self.name_edit)
        form.addRow(self.tr("Region"), self.region_combo)
        form.addRow(self.key_label, self.key_edit)
        secret_row = QWidget(self)
        row = QHBoxLayout(secret_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.secret_edit, 1)
        row.addWidget(self.show_secret)
        form.addRow(self.secret_label, secret_row)
        form.addRow(self.token_label, self.token_edit)
        form.addRow("", self.intl_check)
        form.addRow(self.tr("Custom endpoint"), self.endpoint_edit)
        layout.addLayout(form)
        self.note_label = PlainLabel(
            self.tr("Secrets are kept only in the system keyring; LabGPU's files keep the account's name."),
            self,
        )
        self.note_label.setWordWrap(True)
        self.note_label.setStyleSheet(f"color: {theme.css('muted')};")
        layout.addWidget(self.note_label)
        self.error_label = PlainLabel(self)
        self.error_label.setObjectName("errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.setStyleSheet(f"color: {theme.css('error')};")
        self.error_label.hide()
        layout.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def _load(self, info: Any) -> None:
        acc = info.account
        self.provider_combo.setCurrentIndex(max(0, self.provider_combo.findData(acc.provider)))
        self.provider_combo.setEnabled(False)
        self.name_edit.setText(acc.name)
        self.name_edit.setReadOnly(True)
        self._on_provider_changed()
        self.region_combo.setCurrentText(acc.region)
        alt = self.spec().alt_endpoint
        if alt and acc.endpoint in (alt, "https://" + alt):
            self.intl_check.setChecked(True)
        else:
            self.endpoint_edit.setText(acc.endpoint)
        self.key_edit.setPlaceholderText(self.tr("unchanged ({key})").format(key=info.key_id_masked))
        self.secret_edit.setPlaceholderText(self.tr("unchanged"))

    # -- slots -----------------------------------------------------------------------------------
    @Slot()
    def _on_provider_changed(self, _index: int = 0) -> None:
        provider = self.provider()
        region = self.region_combo.currentText()
        self.region_combo.clear()
        spec = providers.spec(provider)
        self.region_combo.addItems(list(spec.regions))
        if region and self._edit is not None:
            self.region_combo.setCurrentText(region)
        if spec.account_hint:
            self.name_edit.setPlaceholderText(self.tr("e.g. {name}").format(name=spec.account_hint))
        key, secret, token = (spec.credential(k) for k in ("key_id", "secret", "session_token"))
        self.key_label.setText(translate(key.label) if key else self.tr("Key ID"))
        self.secret_label.setText(translate(secret.label) if secret else self.tr("Secret"))
        self.token_label.setText(translate(token.label) if token else "")
        self.token_label.setVisible(token is not None)
        self.token_edit.setVisible(token is not None)
        self.intl_check.setText(translate(spec.alt_endpoint_label) if spec.alt_endpoint else "")
        self.intl_check.setVisible(bool(spec.alt_endpoint))
        self.endpoint_edit.setPlaceholderText(translate(spec.endpoint_hint) if spec.endpoint_hint else "")

    @Slot(bool)
    def _on_intl_check_toggled(self, on: bool) -> None:
        self.endpoint_edit.setEnabled(not on)

    def provider(self) -> str:
        return str(self.provider_combo.currentData() or self.provider_combo.itemData(0))

    def spec(self) -> providers.ProviderSpec:
        return providers.spec(self.provider())

    def endpoint(self) -> str:
        alt = self.spec().alt_endpoint
        if alt and self.intl_check.isChecked():
            return alt
        return self.endpoint_edit.text().strip()

    def show_error(self, message: str, hint: str = "") -> None:
        self.error_label.setText(message + (f"\n{hint}" if hint else ""))
        self.error_label.show()

    @Slot()
    def _on_buttons_accepted(self) -> None:
        from app.core.accounts import Credentials
        from app.usecases.accounts import add_account, edit_account, new_account

        name = self.name_edit.text().strip()
        key_id, secret = self.key_edit.text().strip(), self.secret_edit.text().strip()
        token = self.token_edit.text().strip() if self.spec().credential("session_token") else ""
        region = self.region_combo.currentText().strip()
        account = new_account(name, self.provider(), region, self.endpoint())
        creds = Credentials(key_id, secret, token) if (key_id or secret or not self._edit) else None
        if self._edit is not None and creds is not None and not (key_id and secret):
            self.show_error(
                self.tr("To change the keys, enter both the key id and the secret."),
                self.tr("Leave both empty to keep the stored ones."),
            )
            return
        svc = cloud_service(self.ctx)
        editing = self._edit is not None

        def save() -> str:
            if editing:
                edit_account(svc, name, region=region, endpoint=account.endpoint, credentials=creds)
            elif creds is not None:  # always, for a new account
                add_account(svc, account, creds)
            return name

        self.buttons.setEnabled(False)
        self.error_label.hide()
        self._task = self.ctx.runner.run(
            self, save, name="save-account", on_done=self._on_save_done, on_error=self._on_save_failed
        )

    @Slot(object)
    def _on_save_done(self, name: object) -> None:
        self.buttons.setEnabled(True)
        self.key_edit.clear()
        self.secret_edit.clear()
        self.token_edit.clear()
        self.saved.emit(str(name))
        self.accept()

    @Slot(object)
    def _on_save_failed(self, exc: object) -> None:
        self.buttons.setEnabled(True)
        message, hint = error_sentence(exc)  # type: ignore[arg-type]
        self.show_error(message, hint)
