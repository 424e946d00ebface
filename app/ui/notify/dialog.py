"""Add or edit one notification channel: its kind's fields, the events it carries, Send a test."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import LabGpuError
from app.notify.config import (
    EMAIL,
    KIND_TITLES,
    KINDS,
    NTFY,
    PUSHPLUS,
    SECRET_FIELDS,
    SERVERCHAN,
    ChannelConfig,
    check_channel,
    check_secrets,
)
from app.notify.events import TOPIC_TITLES, TOPICS
from app.ui.shared.plain import PlainLabel

if TYPE_CHECKING:
    from app.notify.dispatch import Result
    from app.ui.context import AppContext

FIELD_WIDTH = 320


def tr_notify(text: str) -> str:
    """A template of app.notify (context "Notify") in the window's language."""
    return QCoreApplication.translate("Notify", text)


class ChannelDialog(QDialog):
    """``existing``: the channel being edited (its secrets stay in the keyring unless a field is filled)."""

    def __init__(self, ctx: AppContext, existing: ChannelConfig | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.existing = existing
        self.saved: ChannelConfig | None = None
        self.setWindowTitle(self.tr("Edit notification channel") if existing else self.tr("Add notification channel"))
        outer = QVBoxLayout(self)
        self.form = QFormLayout()
        outer.addLayout(self.form)

        self.name_edit = QLineEdit(self)
        self.name_edit.setObjectName("channelName")
        self.name_edit.setPlaceholderText(self.tr("e.g. phone, lab-feishu"))
        self.kind_combo = QComboBox(self)
        self.kind_combo.setObjectName("channelKind")
        for kind in KINDS:
            self.kind_combo.addItem(tr_notify(KIND_TITLES[kind]), kind)
        self.form.addRow(self.tr("&Name:"), self.name_edit)
        self.form.addRow(self.tr("&Kind:"), self.kind_combo)

        # email
        self.host_edit = QLineEdit(self)
        self.host_edit.setPlaceholderText("smtp.qq.com")
        self.port_spin = QSpinBox(self)
        self.port_spin.setRange(1, 65535)
        self.port_spin.setValue(465)
        self.security_combo = QComboBox(self)
        self.security_combo.addItem(self.tr("SSL/TLS (port 465)"), "ssl")
        self.security_combo.addItem(self.tr("STARTTLS (port 587)"), "starttls")
        self.security_combo.currentIndexChanged.connect(self._on_security_combo_changed)
        self.user_edit = QLineEdit(self)
        self.sender_edit = QLineEdit(self)
        self.sender_edit.setPlaceholderText(self.tr("the login, if empty"))
        self.to_edit = QLineEdit(self)
        self.to_edit.setPlaceholderText(self.tr("you@example.com, another@example.com"))
        self.priority_combo = QComboBox(self)
        self.priority_combo.addItem(self.tr("the server's default"), 0)
        for p in range(1, 6):
            self.priority_combo.addItem(str(p), p)
        self.endpoint_edit = QLineEdit(self)
        self.endpoint_edit.setPlaceholderText(self.tr("the service's own address"))
        self.ca_edit = QLineEdit(self)
        self.ca_edit.setPlaceholderText(self.tr("the system's certificates"))
        self._rows: dict[str, tuple[QWidget, tuple[str, ...]]] = {}
        for key, label, widget, kinds in (
                ("host", self.tr("Mail &server:"), self.host_edit, (EMAIL,)),
                ("port", self.tr("&Port:"), self.port_spin, (EMAIL,)),
                ("security", self.tr("S&ecurity:"), self.security_combo, (EMAIL,)),
                ("username", self.tr("&Login:"), self.user_edit, (EMAIL,)),
                ("sender", self.tr("&From:"), self.sender_edit, (EMAIL,)),
                ("to", self.tr("T&o:"), self.to_edit, (EMAIL,)),
                ("priority", self.tr("P&riority:"), self.priority_combo, (NTFY,)),
                ("endpoint", self.tr("Service address:"), self.endpoint_edit, (SERVERCHAN, PUSHPLUS))):
            self.form.addRow(label, widget)
            self._rows[key] = (widget, kinds)
        self.secret_edits: dict[str, QLineEdit] = {}
        for kind in KINDS:
            for f in SECRET_FIELDS[kind]:
                if f.name in self.secret_edits:
                    continue
                edit = QLineEdit(self)
                edit.setObjectName(f"secret_{f.name}")
                edit.setEchoMode(QLineEdit.EchoMode.Password)
                self.secret_edits[f.name] = edit
                self.form.addRow(tr_notify(f.label) + ":", edit)
        self.form.addRow(self.tr("CA file:"), self.ca_edit)
        for w in (self.name_edit, self.host_edit, self.user_edit, self.sender_edit, self.to_edit, self.endpoint_edit,
                  self.ca_edit, *self.secret_edits.values()):
            w.setMinimumWidth(FIELD_WIDTH)

        events = QGroupBox(self.tr("Send these events"), self)
        grid = QGridLayout(events)
        self.event_checks: dict[str, QCheckBox] = {}
        for i, topic in enumerate(TOPICS):
            check = QCheckBox(tr_notify(TOPIC_TITLES[topic]), events)
            check.setObjectName(f"event_{topic}")
            check.setChecked(True)
            self.event_checks[topic] = check
            grid.addWidget(check, i // 2, i % 2)
        outer.addWidget(events)
        self.enabled_check = QCheckBox(self.tr("Enabled"), self)
        self.enabled_check.setChecked(True)
        outer.addWidget(self.enabled_check)

        note = PlainLabel(self.tr("Tokens, passwords, signing secrets and webhook addresses are kept in the "
                                  "system keyring, never in a file. Addresses must use https."), self)
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(mid);")
        outer.addWidget(note)
        test_row = QHBoxLayout()
        self.test_button = QPushButton(self.tr("Send a &test"), self)
        self.test_button.setObjectName("dialogSendTest")
        self.test_button.clicked.connect(self._on_test_button_clicked)
        test_row.addWidget(self.test_button)
        self.result_label = PlainLabel("", self)
        self.result_label.setObjectName("dialogResult")
        self.result_label.setWordWrap(True)
        test_row.addWidget(self.result_label, 1)
        outer.addLayout(test_row)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        self.buttons.accepted.connect(self._on_buttons_accepted)
        self.buttons.rejected.connect(self.reject)
        outer.addWidget(self.buttons)

        self.kind_combo.currentIndexChanged.connect(self._on_kind_combo_changed)
        if existing is not None:
            self._fill(existing)
        self._on_kind_combo_changed(self.kind_combo.currentIndex())

    def _fill(self, c: ChannelConfig) -> None:
        self.name_edit.setText(c.name)
        self.name_edit.setReadOnly(True)
        self.kind_combo.setCurrentIndex(max(0, self.kind_combo.findData(c.kind)))
        self.host_edit.setText(c.host)
        self.port_spin.setValue(c.port)
        self.security_combo.blockSignals(True)
        self.security_combo.setCurrentIndex(max(0, self.security_combo.findData(c.security)))
        self.security_combo.blockSignals(False)
        self.user_edit.setText(c.username)
        self.sender_edit.setText(c.sender)
        self.to_edit.setText(", ".join(c.recipients))
        self.priority_combo.setCurrentIndex(max(0, self.priority_combo.findData(c.priority)))
        self.endpoint_edit.setText(c.endpoint)
        self.ca_edit.setText(c.ca_file)
        self.enabled_check.setChecked(c.enabled)
        for topic, check in self.event_checks.items():
            check.setChecked(topic in c.events)

    @property
    def kind(self) -> str:
        return str(self.kind_combo.currentData())

    @Slot(int)
    def _on_kind_combo_changed(self, _index: int) -> None:
        kind = self.kind
        for widget, kinds in self._rows.values():
            self.form.setRowVisible(widget, kind in kinds)
        names = {f.name: f for f in SECRET_FIELDS[kind]}
        stored = {k.rsplit(":", 1)[-1] for k in self.existing.secret_keys} \
            if self.existing is not None and self.existing.kind == kind else set()
        for name, edit in self.secret_edits.items():
            f = names.get(name)
            self.form.setRowVisible(edit, f is not None)
            if f is None:
                continue
            label = self.form.labelForField(edit)
            if isinstance(label, QLabel):  # the form's own label (a fixed string): the field's name per kind
                label.setText(tr_notify(f.label) + ":")
            if name in stored:
                edit.setPlaceholderText(self.tr("kept in the keyring; type to replace"))
            elif f.required:
                edit.setPlaceholderText(self.tr("required"))
            else:
                edit.setPlaceholderText(self.tr("optional"))
        self.adjustSize()

    @Slot(int)
    def _on_security_combo_changed(self, _index: int) -> None:
        if self.port_spin.value() in (465, 587):
            self.port_spin.setValue(587 if self.security_combo.currentData() == "starttls" else 465)

    def config(self) -> ChannelConfig:
        base = dataclasses.replace(self.existing) if self.existing is not None else ChannelConfig()
        return dataclasses.replace(
            base, name=self.name_edit.text().strip(), kind=self.kind, enabled=self.enabled_check.isChecked(),
            events=[t for t, c in self.event_checks.items() if c.isChecked()], host=self.host_edit.text().strip(),
            port=self.port_spin.value(), security=str(self.security_combo.currentData()),
            username=self.user_edit.text().strip(), sender=self.sender_edit.text().strip(),
            recipients=[r.strip() for r in self.to_edit.text().replace(";", ",").split(",") if r.strip()],
            priority=int(self.priority_combo.currentData()), endpoint=self.endpoint_edit.text().strip(),
            ca_file=self.ca_edit.text().strip())

    def secret_values(self) -> dict[str, str]:
        return {f.name: self.secret_edits[f.name].text() for f in SECRET_FIELDS[self.kind]}

    def _checked(self) -> tuple[ChannelConfig, dict[str, str]] | None:
        cfg = self.config()
        stored = set()
        if self.existing is not None and self.existing.kind == cfg.kind:
            stored = {k.rsplit(":", 1)[-1] for k in self.existing.secret_keys}
        try:
            check_channel(cfg)
            values = check_secrets(cfg.kind, self.secret_values(), have=stored)
        except LabGpuError as exc:
            self._show(False, f"{exc.text()} {exc.hint()}".strip())
            return None
        return cfg, values

    def _show(self, ok: bool, text: str) -> None:
        from app.ui import theme

        self.result_label.setStyleSheet("" if ok else f"color: {theme.css('error')};")
        self.result_label.setText(text)

    # -- Send a test (what is typed, not saved yet) ----------------------------------------------------
    @Slot()
    def _on_test_button_clicked(self) -> None:
        checked = self._checked()
        if checked is None:
            return
        cfg, values = checked
        self.test_button.setEnabled(False)
        self._show(True, self.tr("Sending…"))
        self.ctx.runner.run(self, _test_unsaved, self.ctx.paths, self.ctx.settings.language, cfg, values,
                            self.existing, name="notify-test", on_done=self._on_test_done,
                            on_error=self._on_test_error)

    def _on_test_done(self, result: Result) -> None:
        self.test_button.setEnabled(True)
        self._show(result.ok, self.tr("Sent: {what}").format(what=result.text()) if result.ok
                   else self.tr("Failed: {why}").format(why=result.text()))

    def _on_test_error(self, exc: BaseException) -> None:
        self.test_button.setEnabled(True)
        text = f"{exc.text()} {exc.hint()}".strip() if isinstance(exc, LabGpuError) else str(exc)
        self._show(False, self.tr("Failed: {why}").format(why=text))

    # -- Save ------------------------------------------------------------------------------------------
    @Slot()
    def _on_buttons_accepted(self) -> None:
        checked = self._checked()
        if checked is None:
            return
        cfg, values = checked
        self.buttons.setEnabled(False)
        from app.notify.manage import write_secrets

        self.ctx.runner.run(self, write_secrets, cfg, values, self.existing, name="notify-save",
                            on_done=self._on_saved, on_error=self._on_save_error)

    def _on_saved(self, cfg: ChannelConfig) -> None:
        from app.notify.config import put_channel

        put_channel(self.ctx.settings, cfg)
        self.ctx.save_settings()
        self.saved = cfg
        self.accept()

    def _on_save_error(self, exc: BaseException) -> None:
        self.buttons.setEnabled(True)
        text = f"{exc.text()} {exc.hint()}".strip() if isinstance(exc, LabGpuError) else str(exc)
        self._show(False, text)


def _test_unsaved(paths: Any, language: str, cfg: ChannelConfig, values: dict[str, str],
                  existing: ChannelConfig | None) -> Result:
    """A worker: the typed secrets, the stored ones for fields left empty, then one test notice."""
    from app.core.settings import Settings
    from app.notify.dispatch import Notifier, read_secrets

    merged = read_secrets(existing) if existing is not None and existing.kind == cfg.kind else {}
    merged.update({k: v for k, v in values.items() if v})
    return Notifier.from_paths(paths).send_test(cfg.name, settings=Settings(language=language), channel_cfg=cfg,
                                                secret_values=merged)
