"""The VPN page's profile table model and the words and colours of a tunnel's state.

The state words keep the "VpnPage" translation context they had as part of the page; the model's
strings keep "VpnProfilesModel".
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from app.remote.vpn import CONNECTED, DISCONNECTED, FAILED, NEEDS_CREDENTIALS, TRANSITIONAL, StoredProfile
from app.ui import theme
from app.ui.remote.vpn_watcher import VpnService
from app.ui.shared.plain import plain_tooltip
from app.ui.widgets import RowsTableModel


def state_text(state: str) -> str:
    return {
        CONNECTED: QCoreApplication.translate("VpnPage", "Connected"),
        DISCONNECTED: QCoreApplication.translate("VpnPage", "Disconnected"),
        "STARTING": QCoreApplication.translate("VpnPage", "Starting…"),
        "CONNECTING": QCoreApplication.translate("VpnPage", "Connecting…"),
        "RESOLVE": QCoreApplication.translate("VpnPage", "Resolving server…"),
        "TCP_CONNECT": QCoreApplication.translate("VpnPage", "Connecting…"),
        "WAIT": QCoreApplication.translate("VpnPage", "Waiting for the server…"),
        "AUTH": QCoreApplication.translate("VpnPage", "Authenticating…"),
        "AUTH_PENDING": QCoreApplication.translate("VpnPage", "Waiting for approval…"),
        "GET_CONFIG": QCoreApplication.translate("VpnPage", "Getting configuration…"),
        "ASSIGN_IP": QCoreApplication.translate("VpnPage", "Assigning address…"),
        "ADD_ROUTES": QCoreApplication.translate("VpnPage", "Adding routes…"),
        "RECONNECTING": QCoreApplication.translate("VpnPage", "Reconnecting…"),
        "EXITING": QCoreApplication.translate("VpnPage", "Disconnecting…"),
        NEEDS_CREDENTIALS: QCoreApplication.translate("VpnPage", "Needs credentials"),
        FAILED: QCoreApplication.translate("VpnPage", "Failed"),
    }.get(state, state)


def state_color(state: str) -> QColor:
    if state == CONNECTED:
        return theme.pick("#2e7d32", "#81c995")
    if state in TRANSITIONAL or state == "EXITING":
        return theme.pick("#b26a00", "#ffcc80")
    if state in (FAILED, NEEDS_CREDENTIALS):
        return theme.pick("#c62828", "#f2b8b5")
    return theme.pick("#757575", "#b0b0b0")


class VpnProfilesModel(RowsTableModel):
    COLUMNS = ("name", "state", "address", "server", "credentials")

    def __init__(self, service: VpnService, parent: Any = None) -> None:
        super().__init__(parent)
        self.service = service
        self.rows: list[StoredProfile] = []
        self.missing: dict[str, list[str]] = {}

    def set_rows(self, rows: list[StoredProfile], missing: dict[str, list[str]]) -> None:
        self.beginResetModel()
        self.rows, self.missing = rows, missing
        self.endResetModel()

    def row_of(self, name: str) -> int:
        return next((i for i, p in enumerate(self.rows) if p.name == name), -1)

    def status_changed(self, name: str) -> None:
        row = self.row_of(name)
        if row >= 0:
            self.row_changed(row)

    def headers(self) -> list[str]:
        return [
                QCoreApplication.translate("VpnProfilesModel", "Profile"),
                QCoreApplication.translate("VpnProfilesModel", "State"),
                QCoreApplication.translate("VpnProfilesModel", "Tunnel address"),
                QCoreApplication.translate("VpnProfilesModel", "Server"),
                QCoreApplication.translate("VpnProfilesModel", "Credentials"),
        ]

    def credentials_text(self, prof: StoredProfile) -> str:
        missing = self.missing.get(prof.name)
        if not prof.needs_auth and not prof.needs_key_passphrase:
            return QCoreApplication.translate("VpnProfilesModel", "certificate only")
        if missing is None:
            return "…"
        if missing:
            return QCoreApplication.translate("VpnProfilesModel", "missing")
        return QCoreApplication.translate("VpnProfilesModel", "stored in keyring")

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        prof = self.rows[index.row()]
        st = self.service.status(prof.name)
        col = self.COLUMNS[index.column()]
        if role == Qt.ItemDataRole.UserRole:
            return prof.name
        if role == Qt.ItemDataRole.DisplayRole:
            if col == "name":
                return prof.name
            if col == "state":
                return state_text(st.state)
            if col == "address":
                return st.local_ip if st.is_up else "-"
            if col == "server":
                return st.remote if st.is_up and st.remote else ", ".join(prof.remotes)
            if col == "credentials":
                return self.credentials_text(prof)
        if role == Qt.ItemDataRole.ForegroundRole:
            if col == "state":
                return state_color(st.state)
            if col == "credentials" and self.missing.get(prof.name):
                return state_color(FAILED)
        if role == Qt.ItemDataRole.DecorationRole and col == "state":
            return state_color(st.state)
        if role == Qt.ItemDataRole.FontRole and col == "state" and st.is_up:
            f = QFont()
            f.setBold(True)
            return f
        if role == Qt.ItemDataRole.ToolTipRole and col == "state" and st.message:
            return plain_tooltip(st.message)  # OpenVPN's words, shown as typed
        return None
