"""First contact with a server: show its SHA256 host-key fingerprint; the user accepts or refuses."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QVBoxLayout, QWidget

from app.remote.hostkeys import HostKeyPrompt
from app.ui.shared.plain import PlainLabel, esc, rich_label


class HostKeyDialog(QDialog):
    """Refuse is the default button: pressing Enter without reading never trusts a key."""

    def __init__(self, name: str, prompt: HostKeyPrompt, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self.prompt = prompt
        self.setWindowTitle(self.tr("New host key"))
        self.setMinimumWidth(560)
        layout = QVBoxLayout(self)
        head = rich_label(  # markup the UI composes; the host's name escaped
            self.tr(
                "LabGPU has not connected to <b>{host}</b> before. Check that this fingerprint "
                "matches the one your provider shows (console, web page or e-mail) before "
                "you accept it."
            ).format(host=_esc(prompt.display)),
            self,
        )
        head.setWordWrap(True)
        layout.addWidget(head)
        form = QFormLayout()
        form.addRow(self.tr("Address:"), PlainLabel(f"{prompt.hostname}:{prompt.port}", self))
        form.addRow(self.tr("Key type:"), PlainLabel(prompt.key_type, self))
        self.fingerprint_label = PlainLabel(prompt.fingerprint, self)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        mono.setPointSize(mono.pointSize() + 1)
        self.fingerprint_label.setFont(mono)
        self.fingerprint_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.tr("Fingerprint:"), self.fingerprint_label)
        layout.addLayout(form)
        note = PlainLabel(self.tr("If they differ, refuse: someone may be pretending to be your server."), self)
        note.setWordWrap(True)
        layout.addWidget(note)
        self.buttons = QDialogButtonBox(self)
        self.accept_button = self.buttons.addButton(
            self.tr("&Accept and connect"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.refuse_button = self.buttons.addButton(
            self.tr("&Refuse"), QDialogButtonBox.ButtonRole.RejectRole
        )
        self.refuse_button.setDefault(True)
        self.refuse_button.setAutoDefault(True)
        self.accept_button.setAutoDefault(False)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)


def _esc(text: str) -> str:
    return esc(text)
