"""Add a host from the SSH command a provider shows, with an optional password and VPN.

The dialog stays open until the host answered and was saved: "Add and connect" asks the page to add
it (``add_requested``); a failure comes back with :meth:`AddHostDialog.show_failure` and is shown
inside the dialog, in plain text with its next step, beside everything that was typed."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import LabGpuError
from app.core.hosts import HostRecord, record_from_command, validate_name
from app.ui import theme
from app.ui.shared.plain import PlainLabel, cap, plain_tooltip


class AddHostDialog(QDialog):
    """Parses the command as the user types; OK only when it is usable and the name is free. OK does
    not close it: it emits ``add_requested`` (record, password, passphrase) and waits for
    :meth:`added` (then it closes) or :meth:`show_failure` (it stays, with the error inline)."""

    add_requested = Signal(object, str, str)

    def __init__(
        self, existing_names: set[str], vpn_profiles: list[str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Add host from SSH command"))
        self.setMinimumWidth(560)
        self.existing = existing_names
        self._name_edited = False
        self.record: HostRecord | None = None
        self.busy = False  # an add is under way: the fields wait for its outcome

        layout = QVBoxLayout(self)
        intro = PlainLabel(
            self.tr(
                "Paste the SSH command your provider shows. The password (if any) is kept "
                "in the system keyring, never in a file."
            ),
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)

        form = QFormLayout()
        self.command_edit = QLineEdit(self)
        self.command_edit.setPlaceholderText("ssh -p 12345 root@region-1.example.com")
        self.command_edit.setObjectName("command_edit")
        self.command_edit.textChanged.connect(self._on_command_edit_changed)
        form.addRow(self.tr("SSH &command:"), self.command_edit)

        self.parsed_label = PlainLabel(self)
        self.parsed_label.setWordWrap(True)
        self.parsed_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow("", self.parsed_label)

        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText(self.tr("e.g. lab-4090"))
        self.name_edit.textEdited.connect(self._on_name_edit_edited)
        self.name_edit.textChanged.connect(self._validate)
        form.addRow(self.tr("&Name:"), self.name_edit)

        self.password_edit = QLineEdit(self)
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.password_edit.setPlaceholderText(self.tr("optional: leave empty for key or agent login"))
        self.password_label = PlainLabel(self.tr("&Password:"), self)
        self.password_label.setBuddy(self.password_edit)
        form.addRow(self.password_label, self.password_edit)

        self.vpn_combo = QComboBox(self)
        self.vpn_combo.addItem(self.tr("Direct (no VPN)"), "")
        for name in vpn_profiles:
            self.vpn_combo.addItem(self.tr("Via VPN {name}").format(name=name), name)
        self.vpn_combo.setToolTip(
            self.tr(
                "A host behind a VPN: LabGPU brings the VPN up first and connects "
                "to the address in the command (its private address)."
            )
        )
        form.addRow(self.tr("&Reach it:"), self.vpn_combo)
        layout.addLayout(form)

        # why the last "Add and connect" failed, with the next step: plain text (a host's words may
        # be in it), kept until the command or the name changes
        self.error_label = PlainLabel(self)
        self.error_label.setObjectName("error_label")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.setStyleSheet(f"color: {theme.css('error')};")
        self.error_label.hide()
        layout.addWidget(self.error_label)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText(self.tr("Add and connect"))
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self._validate()

    @Slot(str)
    def _on_name_edit_edited(self, _text: str) -> None:
        self._name_edited = True
        self.error_label.hide()

    @Slot(str)
    def _on_command_edit_changed(self, _text: str) -> None:
        self.error_label.hide()
        if not self._name_edited:
            self.name_edit.setText(self._suggest_name())
        self._validate()

    def _suggest_name(self) -> str:
        try:
            rec = record_from_command("x", self.command_edit.text())
        except LabGpuError:
            return ""
        base = re.sub(r"[^A-Za-z0-9_.-]", "-", rec.hostname.split(".")[0])[:40].strip("-") or "host"
        if rec.port and rec.port != 22:
            base = f"{base}-{rec.port}"
        name, i = base, 2
        while name in self.existing:
            name, i = f"{base}-{i}", i + 1
        return name

    def _validate(self) -> None:
        self.record = None
        text = self.command_edit.text().strip()
        if not text:
            self.parsed_label.setText(
                self.tr("Accepted: -p PORT, -i KEY, -J JUMP, user@host, or a ~/.ssh/config alias.")
            )
            self.parsed_label.setStyleSheet("color: palette(mid);")
            self.ok_button.setEnabled(False)
            return
        try:
            rec = record_from_command(
                self.name_edit.text().strip() or "x", text, via_vpn=self.vpn_combo.currentData() or ""
            )
        except LabGpuError as exc:
            # a password pasted with the command: say where it goes instead (never repeated)
            self.parsed_label.setText(f"{exc.text()}\n{exc.hint()}" if exc.hint() else exc.text())  # what to do
            self.parsed_label.setStyleSheet(f"color: {theme.css('error')};")
            self.ok_button.setEnabled(False)
            return
        parts = [
            self.tr("User: {user}").format(user=rec.user or self.tr("(default)")),
            self.tr("Host: {host}").format(host=rec.hostname),
            self.tr("Port: {port}").format(port=str(rec.effective_port)),
        ]
        if rec.key_path:
            parts.append(self.tr("Key: {key}").format(key=rec.key_path))
            self.password_label.setText(self.tr("Key &passphrase:"))
            self.password_edit.setPlaceholderText(self.tr("only if the key file is encrypted"))
        else:
            self.password_label.setText(self.tr("&Password:"))
            self.password_edit.setPlaceholderText(self.tr("optional: leave empty for key or agent login"))
        if rec.jump:
            parts.append(self.tr("Jump: {jump}").format(jump=rec.jump))
        self.parsed_label.setText("  ·  ".join(parts))
        self.parsed_label.setStyleSheet(f"color: {theme.css('ok')};")
        name = self.name_edit.text().strip()
        problem = ""
        try:
            validate_name(name)
        except LabGpuError as exc:
            problem = exc.text()
        if name in self.existing:
            problem = self.tr("A host with this name exists already.")
        self.name_edit.setToolTip(plain_tooltip(problem))
        self.name_edit.setStyleSheet(f"border: 1px solid {theme.css('error')};" if problem and name else "")
        self.ok_button.setEnabled(not problem and not self.busy)
        if not problem:
            self.record = rec

    def password(self) -> str:
        """The login password (empty when the command names a key file)."""
        return "" if self.record is None or self.record.key_path else self.password_edit.text()

    def passphrase(self) -> str:
        """The passphrase of the ``-i`` key file, if one was typed."""
        return self.password_edit.text() if self.record is not None and self.record.key_path else ""

    @Slot()
    def _on_buttons_accepted(self) -> None:
        self._validate()
        if self.record is None:
            return
        rec = record_from_command(
            self.name_edit.text().strip(),
            self.command_edit.text(),
            via_vpn=self.vpn_combo.currentData() or "",
            auth="password" if self.password_edit.text() and not self.record.key_path else "auto",
        )
        self.record = rec
        self.error_label.hide()
        self._set_busy(True)
        self.add_requested.emit(rec, self.password(), self.passphrase())

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        for w in (self.command_edit, self.name_edit, self.password_edit, self.vpn_combo):
            w.setEnabled(not busy)
        self.ok_button.setText(self.tr("Connecting…") if busy else self.tr("Add and connect"))
        self.ok_button.setEnabled(not busy and self.record is not None)

    def pending_name(self) -> str:
        """The name of the host being added ("" when none is under way)."""
        return self.record.name if self.busy and self.record is not None else ""

    def show_failure(self, message: str, hint: str = "") -> None:
        """The add failed: say why and what to do, keep everything typed, let the user try again."""
        self._set_busy(False)
        self._validate()
        self.error_label.setText(cap(f"{message}\n{hint}" if hint else message))
        self.error_label.show()
        self.command_edit.setFocus()

    def added(self) -> None:
        """The host answered and was saved: close."""
        self._set_busy(False)
        self.accept()
