"""Dialogs of the VPN page: import a profile (name + credentials) and edit stored credentials.

Values typed here go to the keyring only (through VpnManager in a runner task); the dialog keeps
nothing after it closes.
"""

from __future__ import annotations

from PySide6.QtCore import QRegularExpression, Qt, Slot
from PySide6.QtGui import QRegularExpressionValidator
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.core.vpnprofiles import PROFILE_NAME_RE
from app.ui import theme
from app.ui.shared.plain import PlainLabel


class VpnCredentialsDialog(QDialog):
    """Name (when importing), username/password and key passphrase, as the profile needs them.

    Empty secret fields mean "keep what is stored" when editing; when importing they stay unset."""

    def __init__(
        self,
        parent: QWidget | None,
        *,
        profile: str,
        needs_auth: bool,
        needs_key: bool,
        importing: bool = False,
        source: str = "",
        remotes: list[str] | None = None,
        username: str = "",
        taken_names: set[str] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("vpnCredentialsDialog")
        self.importing = importing
        self.taken = taken_names or set()
        self.setWindowTitle(self.tr("Import VPN profile") if importing else self.tr("VPN credentials"))
        self.setMinimumWidth(460)
        lay = QVBoxLayout(self)
        intro = PlainLabel(self)
        intro.setWordWrap(True)
        server = ", ".join(remotes or [])
        if importing:
            intro.setText(
                self.tr("Importing {file}\nServer: {server}").format(file=source, server=server or "-")
            )
        else:
            intro.setText(
                self.tr(
                    "Credentials of VPN profile {name}. Leave a field empty to keep the stored value."
                ).format(name=profile)
            )
        lay.addWidget(intro)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        self.name_edit = QLineEdit(profile, self)
        self.name_edit.setObjectName("vpnNameEdit")
        self.name_edit.setValidator(
            QRegularExpressionValidator(QRegularExpression(PROFILE_NAME_RE.pattern), self)
        )
        self.name_edit.setEnabled(importing)
        form.addRow(self.tr("Profile name:"), self.name_edit)
        self.user_edit = QLineEdit(username, self)
        self.user_edit.setObjectName("vpnUserEdit")
        self.pass_edit = QLineEdit(self)
        self.pass_edit.setObjectName("vpnPasswordEdit")
        self.pass_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.key_edit = QLineEdit(self)
        self.key_edit.setObjectName("vpnKeyPassphraseEdit")
        self.key_edit.setEchoMode(QLineEdit.EchoMode.Password)
        if needs_auth:
            form.addRow(self.tr("Username:"), self.user_edit)
            form.addRow(self.tr("Password:"), self.pass_edit)
        else:
            self.user_edit.hide()
            self.pass_edit.hide()
        if needs_key:
            form.addRow(self.tr("Private key passphrase:"), self.key_edit)
        else:
            self.key_edit.hide()
        lay.addLayout(form)
        note = PlainLabel(
            self.tr("Passwords are stored in your system keyring, never in a file.")
            if (needs_auth or needs_key)
            else self.tr("This profile needs no password: it uses its certificate only."),
            self,
        )
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(mid);")
        lay.addWidget(note)
        self.error_label = PlainLabel(self)
        self.error_label.setObjectName("vpnDialogError")
        self.error_label.setStyleSheet(f"color: {theme.css('error')};")
        self.error_label.setWordWrap(True)
        self.error_label.hide()
        lay.addWidget(self.error_label)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
            Qt.Orientation.Horizontal,
            self,
        )
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setText(self.tr("Import") if importing else self.tr("Save"))
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        self.needs_auth, self.needs_key = needs_auth, needs_key
        (self.name_edit if importing else (self.user_edit if needs_auth else self.key_edit)).setFocus()

    def profile_name(self) -> str:
        return self.name_edit.text().strip()

    def values(self) -> dict[str, str | None]:
        """username/password/key_passphrase to store; None = leave as it is."""
        user = self.user_edit.text().strip() if self.needs_auth else ""
        pw = self.pass_edit.text() if self.needs_auth else ""
        key = self.key_edit.text() if self.needs_key else ""
        return {"username": user or None, "password": pw or None, "key_passphrase": key or None}

    def _fail(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.show()

    @Slot()
    def _on_buttons_accepted(self) -> None:
        name = self.profile_name()
        if not PROFILE_NAME_RE.match(name):
            self._fail(self.tr("Use 1–48 letters, digits, '.', '_' or '-' for the name."))
            return
        if self.importing and name in self.taken:
            self._fail(
                self.tr("A profile named {name} exists already; choose another name.").format(name=name)
            )
            return
        v = self.values()
        if self.needs_auth and (v["username"] is None) != (v["password"] is None) and self.importing:
            self._fail(self.tr("Enter both the username and the password (or neither, to enter them later)."))
            return
        self.accept()
