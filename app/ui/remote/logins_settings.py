"""Settings → Logins: what makes an SSH login unusual, and how loud failed logins are (issue 27).

The fields of :class:`app.core.loginstore.LoginSettings` kept at ``Settings.extra["logins"]``: whether the
watcher reads the logins of the hosts it watches, the unusual hours (from == to: off), the trusted
networks (CIDR, comma-separated; one that is not a network is named under the field and not kept) and the
number of failed logins that makes one summary. Each change is saved at once.
"""

from __future__ import annotations

import ipaddress
from dataclasses import replace

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from app.core.loginstore import LoginSettings
from app.core.settings import read_section, write_section
from app.ui import theme
from app.ui.context import AppContext
from app.ui.shared.plain import PlainLabel, cap

SECTION = ("logins",)
MAX_NETWORKS = 64  # as LoginSettings.validate keeps


def split_networks(text: str) -> tuple[list[str], list[str]]:
    """(networks, not networks) of a comma- or space-separated list, each network in its canonical form."""
    good: list[str] = []
    bad: list[str] = []
    for part in text.replace(";", ",").replace(" ", ",").split(","):
        word = part.strip()
        if not word:
            continue
        try:
            net = str(ipaddress.ip_network(word, strict=False))
        except ValueError:
            bad.append(word)
            continue
        if net not in good:
            good.append(net)
    return good[:MAX_NETWORKS], bad


class LoginsSection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("loginsSection")
        self.setTitle(QCoreApplication.translate("Logins", "SSH logins"))
        s = self.current()
        form = QFormLayout(self)
        self.watch_check = QCheckBox(QCoreApplication.translate("Logins", "Watch the SSH logins of watched hosts"),
                                     self)
        self.watch_check.setObjectName("loginsWatch")
        self.watch_check.setToolTip(QCoreApplication.translate(
            "Logins", "While LabGPU watches a host, it reads the host's login records and tells you about an "
                      "unusual login."))
        self.watch_check.setChecked(bool(s.watch))
        self.watch_check.toggled.connect(self._save)
        form.addRow("", self.watch_check)

        hours = QHBoxLayout()
        self.from_spin = self._hour_spin("loginsHoursFrom", s.unusual_from)
        self.to_spin = self._hour_spin("loginsHoursTo", s.unusual_to)
        hours.addWidget(self.from_spin)
        hours.addWidget(PlainLabel(QCoreApplication.translate("Logins", "to"), self))
        hours.addWidget(self.to_spin)
        hours.addStretch(1)
        form.addRow(QCoreApplication.translate("Logins", "Unusual hours:"), hours)
        self.hours_note = PlainLabel(self)
        self.hours_note.setObjectName("loginsHoursNote")
        self.hours_note.setStyleSheet("color: palette(mid);")
        form.addRow("", self.hours_note)

        self.networks_edit = QLineEdit(self)
        self.networks_edit.setObjectName("loginsNetworks")
        self.networks_edit.setMaxLength(4000)
        self.networks_edit.setPlaceholderText(QCoreApplication.translate("Logins", "e.g. 10.8.0.0/24, 202.120.0.0/16"))
        self.networks_edit.setToolTip(QCoreApplication.translate(
            "Logins", "Your lab's, campus' or VPN's networks (CIDR, comma-separated): a login from them is not "
                      "unusual for its address."))
        self.networks_edit.setText(", ".join(s.trusted_networks))
        self.networks_edit.editingFinished.connect(self._save)
        form.addRow(QCoreApplication.translate("Logins", "Trusted net&works:"), self.networks_edit)
        self.networks_error = PlainLabel(self)
        self.networks_error.setObjectName("loginsNetworksError")
        self.networks_error.setWordWrap(True)
        self.networks_error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.networks_error.setStyleSheet(f"color: {theme.css('error')};")
        form.addRow("", self.networks_error)
        form.setRowVisible(self.networks_error, False)

        self.threshold_spin = QSpinBox(self)
        self.threshold_spin.setObjectName("loginsFailedThreshold")
        self.threshold_spin.setRange(1, 1_000_000)
        self.threshold_spin.setValue(int(s.failed_threshold))
        self.threshold_spin.setSuffix(QCoreApplication.translate("Logins", " failed logins"))
        self.threshold_spin.setToolTip(QCoreApplication.translate(
            "Logins", "Failed logins are noise on a public address: one summary after this many, at most one per "
                      "host every {hours} hours.").format(hours=f"{s.failed_quiet_hours:g}"))
        self.threshold_spin.setMaximumWidth(220)
        self.threshold_spin.editingFinished.connect(self._save)
        form.addRow(QCoreApplication.translate("Logins", "&Failed-login summary after:"), self.threshold_spin)
        self.form = form
        self._hours_note()

    def _hour_spin(self, name: str, value: int) -> QSpinBox:
        spin = QSpinBox(self)
        spin.setObjectName(name)
        spin.setRange(0, 23)
        spin.setSuffix(":00")
        spin.setValue(int(value))
        spin.setToolTip(QCoreApplication.translate(
            "Logins", "A login accepted from this hour up to (not including) that one, in your time zone, is "
                      "unusual. The same hour twice: off."))
        spin.valueChanged.connect(self._save)
        return spin

    def current(self) -> LoginSettings:
        return read_section(self.ctx.settings, SECTION, LoginSettings)

    def _hours_note(self) -> None:
        a, b = self.from_spin.value(), self.to_spin.value()
        self.hours_note.setText(
            QCoreApplication.translate("Logins", "Off: no hour is unusual.") if a == b else
            QCoreApplication.translate("Logins", "Logins from {start}:00 to {end}:00 are unusual.").format(
                start=f"{a:02d}", end=f"{b:02d}"))

    @Slot()
    def _save(self, *_args: object) -> None:
        good, bad = split_networks(self.networks_edit.text())
        self.networks_error.setText(cap(QCoreApplication.translate(
            "Logins", "Not a network, not kept: {names}. Write a network as 10.8.0.0/24 or an address as "
                      "203.0.113.7.").format(names=", ".join(bad)), 600) if bad else "")
        self.form.setRowVisible(self.networks_error, bool(bad))
        value = replace(self.current(), watch=self.watch_check.isChecked(), unusual_from=self.from_spin.value(),
                        unusual_to=self.to_spin.value(), trusted_networks=good,
                        failed_threshold=self.threshold_spin.value())
        write_section(self.ctx.settings, SECTION, value)
        self.ctx.save_settings()
        self._hours_note()
