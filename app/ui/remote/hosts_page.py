"""Hosts page: saved SSH hosts and launched instances; connect, trust host keys, open notebooks.

Connections live in :class:`HostConnectionService` (``ctx.services.hosts``) so they survive
the page being rebuilt; every blocking step goes through ``ctx.runner``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QUrl,
    Slot,
)
from PySide6.QtGui import QDesktopServices, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QMessageBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.core.hosts import HostRecord
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.settings import read_section, write_section
from app.remote.hostkeys import HostKeyChangedError, HostKeyPrompt
from app.remote.tunnels import SERVICES
from app.ui import theme
from app.ui.context import AppContext
from app.ui.remote.hosts_add_dialog import AddHostDialog
from app.ui.remote.hosts_key_dialog import HostKeyDialog
from app.ui.remote.hosts_service import (
    CONNECTED,
    CONNECTING,
    DISCONNECTED,
    ERROR,
    RECONNECTING,
    HostConnectionService,
)
from app.ui.remote.logins_dialog import open_logins
from app.ui.shared.plain import PlainLabel, ask, plain_box, plain_tooltip
from app.ui.shared.two_line import SECOND_LINE, fit, two_line_table
from app.ui.widgets import FlowLayout, RowsTableModel, toolbar_button
from app.usecases.changes import Change

_ROLE_NAME = Qt.ItemDataRole.UserRole


@dataclass
class HostsUiSettings:
    """What the Hosts page remembers (``extra["hosts"]``)."""

    selected: str = ""  # the host selected last


def hosts_settings(ctx: AppContext) -> HostsUiSettings:
    return read_section(ctx.settings, ("hosts",), HostsUiSettings)


def remember_selected(ctx: AppContext, name: str) -> None:
    """Only in ctx.settings: the file is written when the window closes."""
    write_section(ctx.settings, ("hosts",), replace(hosts_settings(ctx), selected=name))


class HostsModel(RowsTableModel):
    """One host a row, two lines a cell (:mod:`app.ui.shared.two_line`): the name over the user, the
    address over the VPN it is reached through, the state, the host key. A name (a launched instance's
    is its id), an address and a key are never elided; the user, the VPN and the state are."""

    COLUMNS = ("name", "address", "state", "fingerprint")
    ELIDED = (0, 1, 2)  # of the name and the address only their second line (user, VPN)
    FIRST_LINE_WHOLE = (0, 1)

    def __init__(self, service: HostConnectionService, parent: Any = None) -> None:
        super().__init__(parent)
        self.service = service
        self.rows: list[tuple[HostRecord, str, str]] = []  # record, source, known fingerprint

    def headers(self) -> list[str]:
        def word(text: str) -> str:  # (not named tr: lupdate would read its calls as strings of no context)
            return QCoreApplication.translate("HostsModel", text)

        return [
            word("Name") + "\n" + word("User"),
            word("Address") + "\n" + word("VPN"),
            QCoreApplication.translate("HostsModel", "State"),
            QCoreApplication.translate("HostsModel", "Host key (SHA256)"),
        ]

    # lupdate needs literal strings; these are the two-line headers' words
    _WORDS = (QT_TRANSLATE_NOOP("HostsModel", "Name"), QT_TRANSLATE_NOOP("HostsModel", "User"),
              QT_TRANSLATE_NOOP("HostsModel", "Address"), QT_TRANSLATE_NOOP("HostsModel", "VPN"))

    def reload(self) -> None:
        self.beginResetModel()
        self.rows = [(rec, src, self.service.known_fingerprint(rec)) for rec, src in self.service.hosts()]
        self.endResetModel()

    def row_of(self, name: str) -> int:
        for i, (rec, _s, _f) in enumerate(self.rows):
            if rec.name == name:
                return i
        return -1

    def state_changed(self, name: str) -> None:
        row = self.row_of(name)
        if row < 0:
            return
        rec, src, _fp = self.rows[row]
        self.rows[row] = (rec, src, self.service.known_fingerprint(rec))
        self.row_changed(row)

    @staticmethod
    def state_text(state: str) -> str:
        return {
            CONNECTED: QCoreApplication.translate("HostsModel", "Connected"),
            CONNECTING: QCoreApplication.translate("HostsModel", "Connecting…"),
            RECONNECTING: QCoreApplication.translate("HostsModel", "Reconnecting…"),
            ERROR: QCoreApplication.translate("HostsModel", "Error"),
            DISCONNECTED: QCoreApplication.translate("HostsModel", "Disconnected"),
        }.get(state, state)

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if not index.isValid():
            return None
        rec, src, fp = self.rows[index.row()]
        st = self.service.state(rec.name)
        col = self.COLUMNS[index.column()]
        if role == _ROLE_NAME:
            return rec.name
        if role == Qt.ItemDataRole.DisplayRole:
            if col == "name":
                return rec.name
            if col == "address":
                port = rec.effective_port
                return rec.connect_address + (f":{port}" if port != 22 else "")
            if col == "state":
                return self.state_text(st.state)
            if col == "fingerprint":
                return st.fingerprint or fp or QCoreApplication.translate("HostsModel", "not known yet")
        if role == SECOND_LINE:
            if col == "name":
                return rec.user or "-"
            if col == "address":
                return rec.via_vpn or ""
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == "state":  # the connection's error: a host's words, shown as typed
                return plain_tooltip(st.message or self.state_text(st.state))
            if col == "name" and src == "instance":
                return plain_tooltip(  # the id and the login user come from the cloud: plain text
                    QCoreApplication.translate("HostsModel", "Launched instance {instance_id} ({provider})").format(
                        instance_id=rec.instance_id, provider=rec.provider)
                    + "\n" + (rec.user or "-")
                )
            if col in ("name", "address"):  # the second line (user, VPN) may be elided: whole here
                return plain_tooltip("\n".join(t for t in (self.data(index), self.data(index, SECOND_LINE)) if t))
            if col == "fingerprint":
                return QCoreApplication.translate(
                    "HostsModel", "The server's identity. A change is refused until you forget the old key."
                )
        if role == Qt.ItemDataRole.ForegroundRole and col == "state":
            return {CONNECTED: theme.color("ok"), ERROR: theme.color("error")}.get(st.state)
        if role == Qt.ItemDataRole.ForegroundRole and col == "fingerprint" and not (st.fingerprint or fp):
            return theme.color("muted")
        return None


class HostsPage(QWidget):
    page_id = "hosts"

    @staticmethod
    def nav_title() -> str:
        return QCoreApplication.translate("HostsPage", "Hosts")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.service = HostConnectionService.of(ctx)
        self.open_url: Callable[[QUrl], object] = QDesktopServices.openUrl  # tests replace it
        self.add_dialog: AddHostDialog | None = None
        self.key_dialog: HostKeyDialog | None = None
        self.changed_box: QMessageBox | None = None

        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 20, 24, 16)
        title = PlainLabel(self.tr("Hosts"), self)
        title.setStyleSheet("font-size: 20px; font-weight: 600;")
        outer.addWidget(title)
        sub = PlainLabel(
            self.tr("Servers you log in to over SSH: rented machines and your launched instances."), self
        )
        sub.setStyleSheet("color: palette(mid);")
        outer.addWidget(sub)

        bar = FlowLayout()  # wraps to a second row rather than cutting labels in a narrow window
        self.add_button = toolbar_button(self,
            self.tr("&Add from SSH command…"),
            self._on_add_button_clicked,
            bar,
            self.tr('Paste e.g. "ssh -p 12345 root@region-1.example.com" (Ctrl+N)'),
        )
        self.connect_button = toolbar_button(self, self.tr("&Connect"), self._on_connect_button_clicked, bar)
        self.disconnect_button = toolbar_button(self, self.tr("&Disconnect"), self._on_disconnect_button_clicked, bar)
        self.tensorboard_button = toolbar_button(self,
            self.tr("Open &TensorBoard"),
            self._on_tensorboard_button_clicked,
            bar,
            self.tr("Tunnel to port 6006 on the host and open it in the browser (Ctrl+T)"),
        )
        self.jupyter_button = toolbar_button(self,
            self.tr("Open &Jupyter"),
            self._on_jupyter_button_clicked,
            bar,
            self.tr("Tunnel to port 8888 on the host and open it in the browser (Ctrl+J)"),
        )
        self.copy_button = toolbar_button(self,
            self.tr("Copy SSH co&mmand"),
            self._on_copy_button_clicked,
            bar,
            self.tr("Copy the ssh command for a terminal (Ctrl+Shift+C)"),
        )
        self.logins_button = toolbar_button(self, self.tr("Recent &logins…"), self._on_logins_button_clicked, bar,
                                            self.tr("Who logged in over SSH, and which logins were unusual (Ctrl+L)"))
        self.forget_button = toolbar_button(self,
            self.tr("&Forget host key"),
            self._on_forget_button_clicked,
            bar,
            self.tr("Only after your provider confirms the server was rebuilt"),
        )
        self.remove_button = toolbar_button(self,
            self.tr("&Remove"),
            self._on_remove_button_clicked,
            bar,
            self.tr("Remove the host and its stored password (Delete)"),
        )
        outer.addLayout(bar)

        self.model = HostsModel(self.service, self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        two_line_table(self.table, HostsModel.ELIDED, HostsModel.FIRST_LINE_WHOLE)
        self.table.doubleClicked.connect(self._on_table_double_clicked)
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)
        outer.addWidget(self.table, 1)

        self.empty_label = PlainLabel(
            self.tr(
                'No hosts yet. Click "Add from SSH command…" and paste the '
                "command "
                "your provider shows, e.g. ssh -p 12345 root@region-1.example.com."
            ),
            self,
        )
        self.empty_label.setWordWrap(True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignHCenter)
        self.empty_label.setStyleSheet("color: palette(mid); padding: 48px;")
        outer.addWidget(self.empty_label, 1)

        self.status_label = PlainLabel("", self)
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.status_label)

        for seq, slot in (
            ("Ctrl+N", self._on_add_button_clicked),
            ("Ctrl+T", self._on_tensorboard_button_clicked),
            ("Ctrl+J", self._on_jupyter_button_clicked),
            ("Ctrl+Shift+C", self._on_copy_button_clicked),
            ("Ctrl+L", self._on_logins_button_clicked),
            (QKeySequence.StandardKey.Delete, self._on_remove_button_clicked),
        ):
            sc = QShortcut(QKeySequence(seq), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(slot)

        self.service.state_changed.connect(self._on_service_state_changed)
        self.service.hosts_changed.connect(self.refresh)
        self.service.host_key_prompted.connect(self._on_service_host_key_prompted)
        self.service.add_key_prompted.connect(self._on_service_add_key_prompted)
        self.service.add_failed.connect(self._on_service_add_failed)
        self.service.add_done.connect(self._on_service_add_done)
        self.service.host_key_changed.connect(self._on_service_host_key_changed)
        self.service.forward_opened.connect(self._on_service_forward_opened)
        self.service.forward_failed.connect(self._on_service_forward_failed)
        ctx.changed.connect(self._on_changed)
        self.refresh()

    # -- state ------------------------------------------------------------------------------------
    @Slot(object)
    def _on_changed(self, kinds: frozenset[Change]) -> None:
        """The host list changed (a key trusted, a host added or removed) or the ledger did (an instance
        launched or stopped is listed or dropped): show it again."""
        if Change.HOSTS in kinds or Change.LEDGER in kinds:
            self.refresh()

    def refresh(self) -> None:
        selected = self.selected_name()
        self.model.reload()
        self.empty_label.setVisible(not self.model.rows)
        self.table.setVisible(bool(self.model.rows))
        self.fit_columns()
        wanted = selected or hosts_settings(self.ctx).selected
        self.select(wanted)
        self._update_buttons()

    def fit_columns(self) -> None:
        """Size the columns to the rows: names, addresses and host keys whole, free text elided first."""
        fit(self.table, HostsModel.ELIDED, HostsModel.FIRST_LINE_WHOLE)

    def select(self, name: str) -> None:
        row = self.model.row_of(name) if name else -1
        if row < 0 and self.model.rows:
            row = 0
        if row >= 0:
            self.table.selectionModel().select(
                self.model.index(row, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
            self.table.setCurrentIndex(self.model.index(row, 0))

    def selected_name(self) -> str:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return str(rows[0].data(_ROLE_NAME)) if rows else ""

    def _selected(self) -> tuple[HostRecord, str] | None:
        name = self.selected_name()
        for rec, src, _fp in self.model.rows:
            if rec.name == name:
                return rec, src
        return None

    def _update_buttons(self) -> None:
        sel = self._selected()
        state = self.service.state(sel[0].name).state if sel else ""
        connected = state == CONNECTED
        self.connect_button.setEnabled(bool(sel) and state in (DISCONNECTED, ERROR))
        self.disconnect_button.setEnabled(bool(sel) and state in (CONNECTED, CONNECTING, RECONNECTING))
        self.tensorboard_button.setEnabled(connected)
        self.jupyter_button.setEnabled(connected)
        self.copy_button.setEnabled(bool(sel))
        self.forget_button.setEnabled(bool(sel))
        self.logins_button.setEnabled(bool(sel))
        self.remove_button.setEnabled(sel is not None and sel[1] == "saved")

    def _status(self, text: str) -> None:
        self.status_label.setText(text)
        self.ctx.status_message.emit(text)

    @Slot()
    def _on_selection_changed(self, *_a: object) -> None:
        name = self.selected_name()
        if name:
            remember_selected(self.ctx, name)
        self._update_buttons()

    @Slot(str)
    def _on_service_state_changed(self, name: str) -> None:
        self.model.state_changed(name)
        self.fit_columns()  # a host key learnt, a longer state: still whole
        st = self.service.state(name)
        if st.state == CONNECTED:
            self._status(self.tr("Connected to {name}.").format(name=name))
        elif st.state == ERROR and st.message:
            self._status(st.message)
        self._update_buttons()

    # -- add ----------------------------------------------------------------------------------------
    def _vpn_profiles(self) -> list[str]:
        try:
            from app.remote.vpn import VpnManager

            return [p.name for p in VpnManager(self.ctx.paths).profiles()]
        except Exception:  # noqa: BLE001 - no VPN feature / unreadable profiles: offer direct only
            return []

    @Slot()
    def _on_add_button_clicked(self) -> None:
        if self.add_dialog is not None and self.add_dialog.isVisible():
            self.add_dialog.raise_()  # one at a time: what was typed in it stays
            self.add_dialog.activateWindow()
            return
        dlg = AddHostDialog({r.name for r, _s, _f in self.model.rows}, self._vpn_profiles(), self)
        dlg.add_requested.connect(self._on_add_dialog_add_requested)
        self.add_dialog = dlg
        dlg.open()

    @Slot(object, str, str)
    def _on_add_dialog_add_requested(self, rec: HostRecord, password: str, passphrase: str) -> None:
        """The dialog stays open while the host is reached: it closes once the host is saved, and shows
        why not otherwise (see _on_service_add_failed)."""
        self._status(self.tr("Adding {name} and connecting…").format(name=rec.name))
        remember_selected(self.ctx, rec.name)
        self.service.add_host(rec, password=password, passphrase=passphrase)

    def _adding(self, name: str) -> AddHostDialog | None:
        """The open Add dialog waiting for host ``name``, if any."""
        dlg = self.add_dialog
        if dlg is not None and dlg.isVisible() and dlg.pending_name() == name:
            return dlg
        return None

    @Slot(str)
    def _on_service_add_done(self, name: str) -> None:
        dlg = self._adding(name)
        if dlg is not None:
            dlg.added()

    # -- connect ------------------------------------------------------------------------------------
    @Slot()
    def _on_connect_button_clicked(self) -> None:
        sel = self._selected()
        if sel:
            self._status(self.tr("Connecting to {name}…").format(name=sel[0].name))
            self.service.connect_host(sel[0].name)

    @Slot()
    def _on_table_double_clicked(self, *_a: object) -> None:
        sel = self._selected()
        if sel and self.service.state(sel[0].name).state in (DISCONNECTED, ERROR):
            self._on_connect_button_clicked()

    @Slot()
    def _on_disconnect_button_clicked(self) -> None:
        sel = self._selected()
        if sel:
            self.service.disconnect_host(sel[0].name)
            self._status(self.tr("Disconnected from {name}.").format(name=sel[0].name))

    @Slot(object, object)
    def _on_service_add_key_prompted(self, pending: Any, prompt: HostKeyPrompt) -> None:
        """A new host answered with a key nobody has trusted yet: compare, then add (or not)."""
        name = pending.record.name
        adding = self._adding(name)
        dlg = HostKeyDialog(name, prompt, adding or self)  # over the Add dialog, which stays open

        def add() -> None:
            self._status(self.tr("Adding {name} and connecting…").format(name=name))
            self.service.add_host(
                pending.record, pending.password, pending.passphrase, pending.connect, accepted=prompt
            )

        dlg.accepted.connect(add)
        dlg.rejected.connect(lambda: self._on_add_key_refused(name))
        self.key_dialog = dlg
        dlg.open()

    def _on_add_key_refused(self, name: str) -> None:
        text = self.tr("Host key of {name} refused; {name} was not added.").format(name=name)
        self._status(text)
        adding = self._adding(name)
        if adding is not None:
            adding.show_failure(text, self.tr(
                "Compare the fingerprint with the one your provider shows, then press Add and connect again."))

    @Slot(str, str, str)
    def _on_service_add_failed(self, name: str, message: str, hint: str) -> None:
        self._status(self.tr("{name} was not added: {message}").format(name=name, message=message))
        adding = self._adding(name)
        if adding is not None:
            adding.show_failure(message, hint)

    @Slot(str, object)
    def _on_service_host_key_prompted(self, name: str, prompt: HostKeyPrompt) -> None:
        dlg = HostKeyDialog(name, prompt, self)
        dlg.accepted.connect(lambda: self.service.accept_host_key(name, prompt))
        dlg.rejected.connect(
            lambda: self._status(self.tr("Host key of {name} refused; not connected.").format(name=name))
        )
        self.key_dialog = dlg
        dlg.open()

    @Slot(str, object)
    def _on_service_host_key_changed(self, name: str, exc: HostKeyChangedError) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            self.tr("Host key changed"),
            exc.text(),
            QMessageBox.StandardButton.NoButton,
            self,
        )
        box.setInformativeText(exc.hint())
        forget = box.addButton(self.tr("Forget this host key"), QMessageBox.ButtonRole.DestructiveRole)
        box.forget_button = forget  # type: ignore[attr-defined]  # the page's users reach the button via the box
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        box.buttonClicked.connect(lambda b: self._on_changed_box_clicked(name, forget, b))
        self.changed_box = plain_box(box)  # the error's words name the host: data
        self._status(exc.text())
        box.open()

    def _on_changed_box_clicked(self, name: str, forget: QAbstractButton, button: object) -> None:
        if button is forget:
            self._status(self.tr("Forgot the host key of {name}; check the new fingerprint.").format(name=name))
            self.service.forget_host_key(name, reconnect=True)

    @Slot()
    def _on_forget_button_clicked(self) -> None:
        sel = self._selected()
        if not sel:
            return
        answer = ask(
            self,
            self.tr("Forget host key"),
            self.tr(
                "Forget the trusted key of {name}? The next connection will show its fingerprint for you to "
                "check again."
            ).format(name=sel[0].name),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.service.forget_host_key(sel[0].name, reconnect=False)

    # -- forwards / misc ------------------------------------------------------------------------------
    def _forward(self, service: str) -> None:
        sel = self._selected()
        if sel and self.service.state(sel[0].name).state == CONNECTED:
            self._status(
                self.tr("Opening a tunnel to port {port} on {name}…").format(
                    port=str(SERVICES[service]), name=sel[0].name)
            )
            self.service.open_forward(sel[0].name, SERVICES[service])

    @Slot()
    def _on_tensorboard_button_clicked(self) -> None:
        self._forward("tensorboard")

    @Slot()
    def _on_jupyter_button_clicked(self) -> None:
        self._forward("jupyter")

    @Slot(str, int, str)
    def _on_service_forward_opened(self, name: str, port: int, url: str) -> None:
        self._status(
            self.tr("Port {port} on {name} is open at {url}").format(port=str(port), name=name, url=url)
        )
        self.open_url(QUrl(url))

    @Slot(str, int, str)
    def _on_service_forward_failed(self, name: str, port: int, message: str) -> None:
        self._status(self.tr("No tunnel to port {port} on {name}: {message}").format(
            port=str(port), name=name, message=message))

    @Slot()
    def _on_copy_button_clicked(self) -> None:
        sel = self._selected()
        if sel:
            QGuiApplication.clipboard().setText(sel[0].ssh_command())
            self._status(self.tr("Copied: {command}").format(command=sel[0].ssh_command()))

    def _on_logins_button_clicked(self) -> None:
        if (sel := self._selected()) is not None:
            open_logins(self.ctx, sel[0].name, self)

    @Slot()
    def _on_remove_button_clicked(self) -> None:
        sel = self._selected()
        if not sel or sel[1] != "saved":
            return
        answer = ask(
            self,
            self.tr("Remove host"),
            self.tr("Remove {name} and its stored password?").format(name=sel[0].name),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.service.remove_host(sel[0].name)

    def shutdown(self) -> None:
        """Connections belong to the service (closed at app exit), not to this page."""
        for sig, slot in (
            (self.service.state_changed, self._on_service_state_changed),
            (self.service.hosts_changed, self.refresh),
            (self.service.host_key_prompted, self._on_service_host_key_prompted),
            (self.service.add_key_prompted, self._on_service_add_key_prompted),
            (self.service.add_failed, self._on_service_add_failed),
            (self.service.host_key_changed, self._on_service_host_key_changed),
            (self.service.forward_opened, self._on_service_forward_opened),
            (self.service.forward_failed, self._on_service_forward_failed),
            (self.ctx.changed, self._on_changed),
        ):
            try:
                sig.disconnect(slot)
            except (RuntimeError, TypeError):
                pass
