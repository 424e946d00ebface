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
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
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
        # a secret that is a whole document (a service-account JSON key): pasted or read from its file
        self.secret_doc = QPlainTextEdit(self)
        self.secret_doc.setObjectName("secretDocument")
        self.secret_doc.setTabChangesFocus(True)
        self.secret_doc.setFixedHeight(self.fontMetrics().lineSpacing() * 5 + 12)
        self.secret_file_button = QPushButton(self.tr("&Open key file…"), self)
        self.secret_file_button.clicked.connect(self._on_secret_file_clicked)
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
        self.secret_doc_box = QWidget(secret_row)  # shown instead of the one-line field for a key document
        doc_column = QVBoxLayout(self.secret_doc_box)
        doc_column.setContentsMargins(0, 0, 0, 0)
        doc_column.addWidget(self.secret_doc)
        doc_column.addWidget(self.secret_file_button, 0, Qt.AlignmentFlag.AlignLeft)
        row.addWidget(self.secret_doc_box, 1)
        form.addRow(self.secret_label, secret_row)
        form.addRow(self.token_label, self.token_edit)
        self._form = form
        self._settings_at = form.rowCount()  # the account fields' rows go here (after the credentials)
        self._setting_rows: list[tuple[PlainLabel, QLineEdit]] = []
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
        self.key_label.setVisible(key is not None or not spec.credentials)
        self.key_edit.setVisible(key is not None or not spec.credentials)
        document = secret is not None and secret.multiline
        self.secret_edit.setVisible(not document)
        self.show_secret.setVisible(not document)
        self.secret_doc_box.setVisible(document)
        self._build_settings(spec)
        self.token_label.setText(translate(token.label) if token else "")
        self.token_label.setVisible(token is not None)
        self.token_edit.setVisible(token is not None)
        self.intl_check.setText(translate(spec.alt_endpoint_label) if spec.alt_endpoint else "")
        self.intl_check.setVisible(bool(spec.alt_endpoint))
        self.endpoint_edit.setPlaceholderText(translate(spec.endpoint_hint) if spec.endpoint_hint else "")

    def _build_settings(self, spec: providers.ProviderSpec) -> None:
        """One row per account field of the cloud (providers.AccountField), after the credentials."""
        for _label, edit in self._setting_rows:
            self._form.removeRow(edit)
        self._setting_rows = []
        current = self._edit.account.extra if self._edit is not None else {}
        at = self._settings_at
        for i, setting in enumerate(spec.account_fields):
            label = PlainLabel(translate(setting.label) + ("" if setting.optional else " *"), self)
            edit = QLineEdit(self)
            edit.setObjectName(f"setting_{setting.key}")
            edit.setPlaceholderText(translate(setting.hint) if setting.hint else
                                    (self.tr("optional") if setting.optional else ""))
            edit.setText(current.get(setting.key, ""))
            self._form.insertRow(at + i, label, edit)
            self._setting_rows.append((label, edit))

    def settings(self) -> dict[str, str]:
        """The account fields as typed (empty ones left out)."""
        spec = self.spec()
        values = {f.key: edit.text().strip() for f, (_l, edit) in zip(spec.account_fields, self._setting_rows,
                                                                               strict=True)}
        return {k: v for k, v in values.items() if v}

    def secret_text(self) -> str:
        secret = self.spec().credential("secret")
        if secret is not None and secret.multiline:
            return self.secret_doc.toPlainText().strip()
        return self.secret_edit.text().strip()

    @Slot()
    def _on_secret_file_clicked(self) -> None:
        """Read a key file into the field (kept in memory and then in the keyring; LabGPU keeps no copy)."""
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Open key file"), "",
                                              self.tr("Key files (*.json);;All files (*)"))
        if not path:
            return
        try:
            with open(path, encoding="utf-8") as fh:
                text = fh.read(65536)
        except (OSError, UnicodeDecodeError) as exc:
            self.show_error(self.tr("LabGPU could not read {path}: {reason}").format(path=path, reason=exc),
                            self.tr("Choose the key file you downloaded from the cloud console."))
            return
        self.secret_doc.setPlainText(text)

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
        key_id, secret = self.key_edit.text().strip(), self.secret_text()
        token = self.token_edit.text().strip() if self.spec().credential("session_token") else ""
        region = self.region_combo.currentText().strip()
        settings = self.settings()
        account = new_account(name, self.provider(), region, self.endpoint(), extra=settings)
        creds = Credentials(key_id, secret, token) if (key_id or secret or not self._edit) else None
        asks_key = self.key_edit.isVisibleTo(self)
        if self._edit is not None and creds is not None and not ((key_id or not asks_key) and secret):
            self.show_error(
                self.tr("To change the keys, enter both the key id and the secret."),
                self.tr("Leave both empty to keep the stored ones."),
            )
            return
        svc = cloud_service(self.ctx)
        editing = self._edit is not None
        fields = {f.key for f in self.spec().account_fields}
        old = self._edit.account.extra if editing else {}
        # on edit: the other settings (a protocol) kept, the account fields as the form has them now
        merged_settings = {**{k: v for k, v in old.items() if k not in fields}, **settings}

        def save() -> str:
            if editing:
                edit_account(svc, name, region=region, endpoint=account.endpoint, credentials=creds,
                             extra=merged_settings)
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
        self.secret_doc.clear()
        self.token_edit.clear()
        self.saved.emit(str(name))
        self.accept()

    @Slot(object)
    def _on_save_failed(self, exc: object) -> None:
        self.buttons.setEnabled(True)
        message, hint = error_sentence(exc)  # type: ignore[arg-type]
        self.show_error(message, hint)
