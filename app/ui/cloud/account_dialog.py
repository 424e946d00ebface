"""Add or edit a cloud account: name, provider, region, endpoint and the two secrets.

The secrets go to the OS keyring through AccountBook (off the GUI thread); where no keyring exists
the dialog says what to install and stores nothing. On edit, empty secret fields keep the stored
secrets, so the user never sees them again.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.ui.cloud import cloud_service, error_sentence

REGIONS = {
    "aws": [
        "us-east-1",
        "us-east-2",
        "us-west-2",
        "eu-west-1",
        "eu-central-1",
        "ap-northeast-1",
        "ap-southeast-1",
    ],
    "tencent": [
        "ap-guangzhou",
        "ap-shanghai",
        "ap-beijing",
        "ap-nanjing",
        "ap-chengdu",
        "ap-chongqing",
        "ap-hongkong",
        "ap-singapore",
        "ap-tokyo",
        "na-siliconvalley",
        "eu-frankfurt",
    ],
}
TENCENT_INTL = "cvm.intl.tencentcloudapi.com"


class AccountDialog(QDialog):
    """Modal-less dialog; emits ``saved(name)`` once the account is in the keyring and the Store."""

    saved = Signal(str)

    def __init__(self, ctx: Any, parent: QWidget | None = None, *, edit: Any = None) -> None:
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
        self.provider_combo.addItem(self.tr("Tencent Cloud"), "tencent")
        self.provider_combo.addItem(self.tr("AWS"), "aws")
        self.provider_combo.currentIndexChanged.connect(self._on_provider_changed)
        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText(self.tr("e.g. lab-tencent"))
        self.region_combo = QComboBox(self)
        self.region_combo.setEditable(True)
        self.key_label = QLabel(self)
        self.key_edit = QLineEdit(self)
        self.secret_label = QLabel(self)
        self.secret_edit = QLineEdit(self)
        self.secret_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.show_secret = QCheckBox(self.tr("Show"), self)
        self.show_secret.toggled.connect(
            lambda on: self.secret_edit.setEchoMode(
                QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password
            )
        )
        self.token_label = QLabel(self.tr("Session token (optional)"), self)
        self.token_edit = QLineEdit(self)
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.intl_check = QCheckBox(
            self.tr("International site (cvm.intl.tencentcloudapi.com, prices in USD)"), self
        )
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
        self.note_label = QLabel(
            self.tr("Secrets are kept only in the system keyring; LabGPU's files keep the account's name."),
            self,
        )
        self.note_label.setWordWrap(True)
        self.note_label.setStyleSheet("color: #555555;")
        layout.addWidget(self.note_label)
        self.error_label = QLabel(self)
        self.error_label.setObjectName("errorLabel")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.setStyleSheet("color: #b00020;")
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
        if acc.endpoint == TENCENT_INTL or acc.endpoint == "https://" + TENCENT_INTL:
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
        self.region_combo.addItems(REGIONS[provider])
        if region and self._edit is not None:
            self.region_combo.setCurrentText(region)
        tencent = provider == "tencent"
        self.key_label.setText(self.tr("SecretId") if tencent else self.tr("Access key ID"))
        self.secret_label.setText(self.tr("SecretKey") if tencent else self.tr("Secret access key"))
        self.token_label.setVisible(not tencent)
        self.token_edit.setVisible(not tencent)
        self.intl_check.setVisible(tencent)
        self.endpoint_edit.setPlaceholderText(
            self.tr("optional: host or URL, e.g. http://127.0.0.1:9000")
            if tencent
            else self.tr("optional: endpoint_url, e.g. http://127.0.0.1:5000")
        )

    @Slot(bool)
    def _on_intl_check_toggled(self, on: bool) -> None:
        self.endpoint_edit.setEnabled(not on)

    def provider(self) -> str:
        return str(self.provider_combo.currentData() or "tencent")

    def endpoint(self) -> str:
        if self.provider() == "tencent" and self.intl_check.isChecked():
            return TENCENT_INTL
        return self.endpoint_edit.text().strip()

    def show_error(self, message: str, hint: str = "") -> None:
        self.error_label.setText(message + (f"\n{hint}" if hint else ""))
        self.error_label.show()

    @Slot()
    def _on_buttons_accepted(self) -> None:
        from app.core.accounts import Account, Credentials

        name = self.name_edit.text().strip()
        key_id, secret = self.key_edit.text().strip(), self.secret_edit.text().strip()
        token = self.token_edit.text().strip() if self.provider() == "aws" else ""
        region = self.region_combo.currentText().strip()
        account = Account(name, self.provider(), region, self.endpoint())
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
                svc.accounts.edit(name, region=region, endpoint=account.endpoint, credentials=creds)
            else:
                svc.accounts.add(account, creds)
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
