"""VPN page: OpenVPN profiles with their live state, import, credentials, connect/disconnect, log.

The tunnels themselves are run by ``app.remote.vpn`` (Qt-free); :class:`VpnService`
(``ctx.services.vpn``) watches each profile in its own thread and reconnects by itself unless
the user disconnected. Everything that touches the keyring, files or processes goes through
``ctx.runner``; the page only shows and asks.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    Qt,
    Slot,
)
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import LabGpuError
from app.core.vpnprofiles import UnsafeProfileError, load_ovpn, shown_line
from app.remote.vpn import (
    DISCONNECTED,
    FAILED,
    NEEDS_CREDENTIALS,
    TRANSITIONAL,
    StoredProfile,
    VpnError,
    VpnStatus,
    find_openvpn,
    privilege_plan,
)
from app.ui import theme
from app.ui.context import AppContext
from app.ui.remote.vpn_dialogs import VpnCredentialsDialog
from app.ui.remote.vpn_log import StateLog
from app.ui.remote.vpn_model import VpnProfilesModel, state_text
from app.ui.remote.vpn_watcher import VpnService, vpn_service
from app.ui.shared.plain import PlainLabel, esc, plain_box, rich_label
from app.ui.widgets import remember_splitter


class VpnPage(QWidget):
    page_id = "vpn"

    @staticmethod
    def nav_title() -> str:
        return QCoreApplication.translate("VpnPage", "VPN")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.service: VpnService = vpn_service(ctx)
        self.import_dialog: VpnCredentialsDialog | None = None
        self.credentials_dialog: VpnCredentialsDialog | None = None
        self._connect_requested: set[str] = set()
        self._log_lines: list[str] = []
        self._pending_select = ""
        self.state_log = StateLog(ctx.paths.data_dir)
        self._build()
        for line in self.state_log.load():  # the state changes of earlier runs
            self.log_view.appendPlainText(line)
        self.service.status_changed.connect(self._on_service_status_changed)
        self.service.profiles_changed.connect(self.refresh)
        self.refresh()

    # -- layout -----------------------------------------------------------------------------------
    def _build(self) -> None:
        lay = QVBoxLayout(self)
        lay.setContentsMargins(16, 16, 16, 12)
        title = PlainLabel(self.tr("VPN tunnels"), self)
        title.setStyleSheet("font-size: 18px; font-weight: 600;")
        lay.addWidget(title)
        sub = PlainLabel(
            self.tr(
                "Reach lab and cloud servers on their private network. LabGPU runs OpenVPN for "
                "you, keeps passwords in the keyring and reconnects by itself unless you "
                "disconnect."
            ),
            self,
        )
        sub.setWordWrap(True)
        lay.addWidget(sub)

        bar = QHBoxLayout()
        self.import_button = QPushButton(self.tr("Import .ovpn…"), self)
        self.import_button.setShortcut(QKeySequence("Ctrl+O"))
        self.import_button.setToolTip(self.tr("Import an OpenVPN profile (Ctrl+O)"))
        self.connect_button = QPushButton(self.tr("Connect"), self)
        self.connect_button.setShortcut(QKeySequence("Ctrl+Return"))
        self.connect_button.setToolTip(self.tr("Bring the selected tunnel up (Ctrl+Enter)"))
        self.disconnect_button = QPushButton(self.tr("Disconnect"), self)
        self.disconnect_button.setShortcut(QKeySequence("Ctrl+Shift+D"))
        self.disconnect_button.setToolTip(self.tr("Take the tunnel down; it stays down (Ctrl+Shift+D)"))
        self.credentials_button = QPushButton(self.tr("Credentials…"), self)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setToolTip(self.tr("Remove the profile and its stored passwords (Delete)"))
        for b in (self.import_button, self.connect_button, self.disconnect_button, self.credentials_button):
            bar.addWidget(b)
        bar.addStretch(1)
        bar.addWidget(self.remove_button)
        lay.addLayout(bar)
        self.import_button.clicked.connect(self._on_import_clicked)
        self.connect_button.clicked.connect(self._on_connect_clicked)
        self.disconnect_button.clicked.connect(self._on_disconnect_clicked)
        self.credentials_button.clicked.connect(self._on_credentials_clicked)
        self.remove_button.clicked.connect(self._on_remove_clicked)

        split = QSplitter(Qt.Orientation.Vertical, self)
        self.table_stack = QStackedWidget(split)
        self.model = VpnProfilesModel(self.service, self)
        self.table = QTableView(self.table_stack)
        self.table.setObjectName("vpnProfilesTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        hh = self.table.horizontalHeader()
        hh.setMinimumSectionSize(110)
        hh.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        hh.setSectionResizeMode(self.model.COLUMNS.index("server"), QHeaderView.ResizeMode.Stretch)
        self.table.selectionModel().selectionChanged.connect(self._on_table_selection_changed)
        self.table.doubleClicked.connect(self._on_table_double_clicked)
        self.empty_label = PlainLabel(
            self.tr(
                "No VPN profiles yet.\nImport the .ovpn file your lab or VPN provider gave you (Ctrl+O)."
            ),
            self.table_stack,
        )
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setStyleSheet("color: palette(mid); font-size: 14px;")
        self.table_stack.addWidget(self.table)
        self.table_stack.addWidget(self.empty_label)

        bottom = QWidget(split)
        bl = QVBoxLayout(bottom)
        bl.setContentsMargins(0, 6, 0, 0)
        self.details = rich_label(parent=bottom)  # markup the UI composes; names, messages escaped
        self.details.setObjectName("vpnDetails")
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        bl.addWidget(self.details)
        log_title = PlainLabel(self.tr("State changes"), bottom)
        log_title.setStyleSheet("font-weight: 600;")
        bl.addWidget(log_title)
        self.log_view = QPlainTextEdit(bottom)
        self.log_view.setObjectName("vpnLog")
        self.log_view.setReadOnly(True)
        self.log_view.setMaximumBlockCount(2000)
        bl.addWidget(self.log_view, 1)
        split.addWidget(self.table_stack)
        split.addWidget(bottom)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        remember_splitter(split, self.ctx.settings, "vpn")
        lay.addWidget(split, 1)
        self.privilege_label = PlainLabel(self)
        self.privilege_label.setObjectName("vpnPrivilege")
        self.privilege_label.setWordWrap(True)
        self.privilege_label.setStyleSheet("color: palette(mid);")
        lay.addWidget(self.privilege_label)
        self._update_buttons()

    # -- data -------------------------------------------------------------------------------------
    def selected(self) -> str:
        idx = self.table.selectionModel().selectedRows()
        return str(idx[0].data(Qt.ItemDataRole.UserRole)) if idx else ""

    def select(self, name: str) -> None:
        row = self.model.row_of(name)
        if row >= 0:
            self.table.selectRow(row)

    def refresh(self) -> None:
        """Reload profiles, credential state and the privilege check (off the GUI thread)."""
        service = self.service

        def load() -> tuple[list[StoredProfile], dict[str, list[str]], str]:
            service.sync_profiles()
            profs = service.manager.profiles()
            missing: dict[str, list[str]] = {}
            for p in profs:
                try:
                    missing[p.name] = service.manager.missing_credentials(p.name)
                except LabGpuError:
                    missing[p.name] = ["keyring"]
            return profs, missing, _privilege_note()

        self.ctx.runner.run(self, load, name="vpn-load", on_done=self._on_load_done, on_error=self.ctx.errors.report)

    @Slot(object)
    def _on_load_done(self, result: tuple[list[StoredProfile], dict[str, list[str]], str]) -> None:
        keep = self.selected()
        profs, missing, note = result
        self.model.set_rows(profs, missing)
        self.table_stack.setCurrentWidget(self.table if profs else self.empty_label)
        self.privilege_label.setText(note)
        if profs:
            want = self._pending_select or keep
            self._pending_select = ""
            self.select(want if self.model.row_of(want) >= 0 else profs[0].name)
        self._update_buttons()
        self._update_details()

    # -- live state -------------------------------------------------------------------------------
    @Slot(str, object)
    def _on_service_status_changed(self, name: str, st: VpnStatus) -> None:
        self.model.status_changed(name)
        text = state_text(st.state)
        extra = ""
        if st.is_up:
            extra = self.tr(" — address {ip}, server {server}").format(
                ip=st.local_ip, server=st.remote or "-"
            )
        elif st.message and st.state in (FAILED, NEEDS_CREDENTIALS, "RECONNECTING", DISCONNECTED):
            extra = f" — {st.message}"
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')}  {name}: {text}{extra}"
        self._log_lines.append(line)
        self.log_view.appendPlainText(line)
        self.state_log.append(line)
        self.ctx.status_message.emit(self.tr("VPN {name}: {state}").format(name=name, state=text))
        if st.state == NEEDS_CREDENTIALS and name in self._connect_requested:
            self._connect_requested.discard(name)
            self._open_credentials(name, then_connect=True)
        if st.state == FAILED and name in self._connect_requested:
            # The user is waiting for this one: say why, with the next step, in a dialog too.
            self.ctx.errors.report(LabGpuError(st.message or text, code="VpnFailed"))
        if st.is_up or st.state == FAILED:
            self._connect_requested.discard(name)
        if name == self.selected():
            self._update_buttons()
            self._update_details()

    def _update_buttons(self) -> None:
        name = self.selected()
        st = self.service.status(name) if name else VpnStatus(DISCONNECTED)
        active = st.is_up or st.state in TRANSITIONAL
        self.connect_button.setEnabled(bool(name) and not active)
        self.disconnect_button.setEnabled(bool(name) and (active or st.state == NEEDS_CREDENTIALS))
        self.credentials_button.setEnabled(bool(name))
        self.remove_button.setEnabled(bool(name))

    def _update_details(self) -> None:
        name = self.selected()
        if not name:
            self.details.setText("")
            return
        row = self.model.row_of(name)
        prof = self.model.rows[row] if row >= 0 else None
        st = self.service.status(name)
        parts = [self.tr("<b>{name}</b>: {state}").format(name=esc(name), state=esc(state_text(st.state)))]
        if st.is_up and st.since:
            parts.append(
                self.tr("since {time}").format(time=time.strftime("%H:%M:%S", time.localtime(st.since)))
            )
        if st.message and not st.is_up:
            parts.append(_html(st.message))
        if prof is not None:
            needs = []
            if prof.needs_auth:
                needs.append(self.tr("username and password"))
            if prof.needs_key_passphrase:
                needs.append(self.tr("key passphrase"))
            if needs:
                parts.append(self.tr("connects with {what}").format(what=self.tr(", ").join(needs)))
            if prof.allow_scripts:
                parts.append(self.tr("<span style='color:#b26a00'>runs scripts (you allowed it)</span>")
                             .replace("#b26a00", theme.css("warning")))
        parts.append(self.tr("log: {path}").format(path=_html(str(self.service.manager.log_path(name)))))
        self.details.setText(" · ".join(parts))

    @Slot()
    def _on_table_selection_changed(self, *_a: object) -> None:
        self._update_buttons()
        self._update_details()

    @Slot(QModelIndex)
    def _on_table_double_clicked(self, _index: QModelIndex) -> None:
        name = self.selected()
        if name and not self.service.status(name).is_up:
            self._on_connect_clicked()

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        if event.key() == Qt.Key.Key_Delete and self.selected():
            self._on_remove_clicked()
            return
        super().keyPressEvent(event)

    # -- import -----------------------------------------------------------------------------------
    @Slot()
    def _on_import_clicked(self) -> None:
        path, _f = QFileDialog.getOpenFileName(
            self,
            self.tr("Import OpenVPN profile"),
            str(Path.home()),
            self.tr("OpenVPN profiles (*.ovpn *.conf);;All files (*)"),
        )
        if path:
            self.start_import(path)

    def start_import(self, path: str, allow_scripts: bool = False) -> None:
        """Check the file, then ask for a name and credentials (the dialog is ``self.import_dialog``)."""

        def check() -> Any:
            return load_ovpn(Path(path), allow_scripts=allow_scripts)

        self.ctx.runner.run(
            self, check,
            name="vpn-check",
            on_done=lambda prof: self._on_import_checked(path, prof, allow_scripts),
            on_error=lambda exc: self._on_import_check_failed(path, exc),
        )

    def _on_import_check_failed(self, path: str, exc: BaseException) -> None:
        if isinstance(exc, UnsafeProfileError):
            box = QMessageBox(
                QMessageBox.Icon.Warning,
                self.tr("This profile runs programs"),
                self.tr(
                    "{file} has lines that run programs, load libraries or write files as administrator "
                    "when it connects, or that LabGPU does not know to be safe:\n\n{lines}\n\n"
                    "Import it only if you trust who made it."
                ).format(
                    file=os.path.basename(path),
                    lines="\n".join(shown_line(ln) for ln in exc.lines),
                ),
                QMessageBox.StandardButton.Cancel,
                self,
            )
            yes = box.addButton(self.tr("Import anyway"), QMessageBox.ButtonRole.AcceptRole)
            box.setDefaultButton(QMessageBox.StandardButton.Cancel)
            box.setObjectName("vpnUnsafeBox")
            box.buttonClicked.connect(lambda b: self.start_import(path, True) if b is yes else None)
            plain_box(box).open()  # the profile's lines are data
            return
        self.ctx.errors.report(exc)

    def _on_import_checked(self, path: str, prof: Any, allow_scripts: bool) -> None:
        stem = "".join(c if c.isalnum() or c in "._-" else "-" for c in Path(path).stem).strip("-._") or "vpn"
        taken = {p.name for p in self.model.rows}
        name, i = stem[:40], 2
        while name in taken:
            name, i = f"{stem[:40]}-{i}", i + 1
        dlg = VpnCredentialsDialog(
            self,
            profile=name,
            needs_auth=prof.needs_auth,
            needs_key=prof.needs_key_passphrase,
            importing=True,
            source=path,
            remotes=[f"{r.host}:{r.port}/{r.proto}" for r in prof.remotes],
            taken_names=taken,
        )
        self.import_dialog = dlg
        dlg.accepted.connect(lambda: self._on_import_dialog_accepted(dlg, path, allow_scripts))
        dlg.finished.connect(lambda _r: setattr(self, "import_dialog", None))
        dlg.open()

    def _on_import_dialog_accepted(self, dlg: VpnCredentialsDialog, path: str, allow_scripts: bool) -> None:
        name, values = dlg.profile_name(), dlg.values()
        manager = self.service.manager

        def add() -> str:
            manager.add_profile(name, path, allow_scripts=allow_scripts, **values)
            return name

        self.ctx.runner.run(self, add, name="vpn-import", on_done=self._on_imported, on_error=self.ctx.errors.report)

    @Slot(object)
    def _on_imported(self, name: str) -> None:
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')}  " + self.tr("{name}: profile imported").format(name=name)
        self.log_view.appendPlainText(line)
        self.state_log.append(line)
        self._pending_select = name
        self.refresh()

    # -- credentials ------------------------------------------------------------------------------
    @Slot()
    def _on_credentials_clicked(self) -> None:
        name = self.selected()
        if name:
            self._open_credentials(name)

    def _open_credentials(self, name: str, then_connect: bool = False) -> None:
        row = self.model.row_of(name)
        if row < 0 or self.credentials_dialog is not None:
            return
        prof = self.model.rows[row]
        manager = self.service.manager

        def current_user() -> str:
            from app.core import secrets
            from app.core.vpnprofiles import secret_key

            return secrets.get_secret(secret_key(name, "username")) or ""

        def show(user: str) -> None:
            dlg = VpnCredentialsDialog(
                self,
                profile=name,
                needs_auth=prof.needs_auth,
                needs_key=prof.needs_key_passphrase,
                username=user,
            )
            self.credentials_dialog = dlg
            dlg.accepted.connect(lambda: save(dlg.values()))
            dlg.finished.connect(lambda _r: setattr(self, "credentials_dialog", None))
            dlg.open()

        def save(values: dict[str, str | None]) -> None:
            def store() -> None:
                manager.set_credentials(name, **values)

            def stored(_r: object) -> None:
                self.service.credentials_changed(name)
                self.refresh()
                if then_connect:
                    self._connect(name)

            self.ctx.runner.run(self, store, name="vpn-credentials", on_done=stored, on_error=self.ctx.errors.report)

        self.ctx.runner.run(self, current_user, name="vpn-user", on_done=show, on_error=self.ctx.errors.report)

    # -- connect / disconnect / remove ------------------------------------------------------------
    @Slot()
    def _on_connect_clicked(self) -> None:
        name = self.selected()
        if not name:
            return
        if self.model.missing.get(name):
            self._open_credentials(name, then_connect=True)
            return
        self._connect(name)

    def _connect(self, name: str) -> None:
        self._connect_requested.add(name)
        self.service.connect_profile(name)
        self._update_buttons()

    @Slot()
    def _on_disconnect_clicked(self) -> None:
        name = self.selected()
        if not name:
            return
        self._connect_requested.discard(name)
        self.ctx.runner.run(
            self, self.service.disconnect_profile, name, name="vpn-disconnect", on_error=self.ctx.errors.report
        )

    @Slot()
    def _on_remove_clicked(self) -> None:
        name = self.selected()
        if not name:
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Remove VPN profile"),
            self.tr(
                "Remove {name}? Its tunnel is disconnected and its stored passwords are deleted "
                "from the keyring."
            ).format(name=name),
            QMessageBox.StandardButton.Cancel,
            self,
        )
        rm = box.addButton(self.tr("Remove"), QMessageBox.ButtonRole.DestructiveRole)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setObjectName("vpnRemoveBox")
        box.buttonClicked.connect(lambda b: self._remove(name) if b is rm else None)
        plain_box(box).open()

    def _remove(self, name: str) -> None:
        self.ctx.runner.run(self, self.service.remove_profile, name, name="vpn-remove", on_error=self.ctx.errors.report)

    def activate(self, payload: object) -> None:
        """``ctx.navigate("vpn", "PROFILE")`` selects that profile."""
        if isinstance(payload, str):
            self.select(payload)

    def shutdown(self) -> None:
        """The page goes (language switch, exit); the service and its tunnels stay with ctx."""
        try:
            self.service.status_changed.disconnect(self._on_service_status_changed)
            self.service.profiles_changed.disconnect(self.refresh)
        except (RuntimeError, TypeError):
            pass


def _html(text: str) -> str:
    return esc(text)


def _privilege_note() -> str:
    """How openvpn will get its rights here, in words (or what the user must do)."""
    try:
        binary = find_openvpn()
        plan = privilege_plan(binary, netns=os.environ.get("LABGPU_VPN_NETNS") or None)
    except VpnError as exc:
        return exc.text() + " " + exc.hint()
    if plan.method == "root":
        return QCoreApplication.translate(
            "VpnPage", "OpenVPN ({path}) runs with administrator rights."
        ).format(path=binary)
    if plan.method == "capability":
        return QCoreApplication.translate(
            "VpnPage", "OpenVPN ({path}) has the network capability it needs."
        ).format(path=binary)
    if plan.method == "pkexec":
        return QCoreApplication.translate(
            "VpnPage", "Connecting asks for your password (pkexec) to start OpenVPN ({path})."
        ).format(path=binary)
    return QCoreApplication.translate(
        "VpnPage", "OpenVPN runs in network namespace {ns} (test mode)."
    ).format(ns=plan.prefix[-1])
