"""Hosts page → "Recent logins…": who logged in to a host over SSH, and which logins were unusual (issue 27).

The dialog shows at once what was read of the host before (``usecases.logins.recent``, no connection), then
reads what is new (``usecases.logins.check_host``) on ``ctx.runner`` with a busy indicator; Refresh (F5)
reads again. A row is a login, newest first: its time (local), user, method, source address, result and a
note — "LabGPU" for LabGPU's own sessions, "Unusual: " and the short reasons (in the warning colours and
in words, never by colour alone) with the whole sentences in the row's tooltip. Failed logins are noise:
hidden unless asked for, and summed up in one line above the table. What could not be read is said in a
note, an error (the host unreachable) in the error style with its next step; the window stays open.

Everything the host wrote (user names, addresses, the notes' paths) is plain text, capped; addresses and
times are never elided (the user, method and note columns give up width first).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtGui import QFont, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import LabGpuError
from app.core.loginrules import Verdict, why_texts
from app.core.logins import LoginEvent
from app.core.loginstore import LoginStore, StoredLogin
from app.ui import theme
from app.ui.context import AppContext
from app.ui.shared.fit_columns import fit_columns, refit
from app.ui.shared.plain import PlainLabel, cap, plain_tooltip
from app.ui.tasks import Task
from app.usecases import logins as usecase

WINDOW_DAYS = 7  # what the dialog lists: the logins of the last week
MAX_ROWS = 500  # rows in the table at most (the store keeps more)
CELL_CHARS = 200  # a cell of the host's text at most
COLUMNS = 6  # time, user, method, source, result, note
ELIDE = (1, 2, 5)  # free text gives up width first: the user, the method, the note (whole in the tooltip)
LOG_PATH_CHARS = 400

Check = Callable[[], usecase.LoginReport]


def _t(text: str) -> str:
    """A string already marked in the Logins context (SHORT_WHY, WHY_TEXT), translated now."""
    return QCoreApplication.translate("Logins", text)


def visible(text: object, limit: int = CELL_CHARS) -> str:
    """A host's text for a cell: control, format and bidi characters as "?", capped."""
    s = "" if text is None else str(text)
    return cap("".join(c if c.isprintable() else "?" for c in s), limit)


def when(x: StoredLogin) -> str:
    if x.time is None:
        return QCoreApplication.translate("Logins", "unknown")
    return x.time.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def note_of(x: StoredLogin) -> str:
    if x.own:
        return QCoreApplication.translate("Logins", "LabGPU")
    if x.unusual:
        comma = QCoreApplication.translate("Logins", ", ", "between the short reasons of an unusual login")
        reasons = comma.join(_t(usecase.SHORT_WHY.get(w, w)) for w in x.why)
        return QCoreApplication.translate("Logins", "Unusual: ") + reasons
    return ""


def failed_line(failed: dict[str, object]) -> str:
    """"N failed logins from M addresses; most from A (n), B (n)" (or that there were none)."""
    count = int(str(failed.get("count") or 0))
    if not count:
        return QCoreApplication.translate("Logins", "No failed logins in the last {days} days.").format(
            days=WINDOW_DAYS)
    top_list = failed.get("top_sources")
    top = ", ".join(f"{visible(s, 64)} ({n})" for s, n in (top_list if isinstance(top_list, list) else [])[:3])
    return QCoreApplication.translate("Logins", "{count} failed logins from {sources} addresses; most from "
                                                "{top}").format(count=count, sources=failed.get("sources", 0),
                                                                top=top or "?")


class LoginsDialog(QDialog):
    """Recent logins of one host. ``check`` replaces the connection (the screenshots' sample world)."""

    def __init__(self, ctx: AppContext, host: str, parent: QWidget | None = None,
                 check: Check | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.host = host
        self.check = check
        self.logins: list[StoredLogin] = []
        self.failed: dict[str, object] = {}
        self.task: Task | None = None
        self.setObjectName("loginsDialog")
        self.setWindowTitle(QCoreApplication.translate("Logins", "Recent logins — {host}").format(
            host=visible(host, 100)))
        self.setMinimumSize(820, 480)
        self.resize(980, 560)
        layout = QVBoxLayout(self)

        top = QHBoxLayout()
        self.status_label = PlainLabel(self)
        self.status_label.setObjectName("loginsStatus")
        self.status_label.setStyleSheet("color: palette(mid);")
        top.addWidget(self.status_label, 1)
        self.busy = QProgressBar(self)
        self.busy.setObjectName("loginsBusy")
        self.busy.setRange(0, 0)  # an indicator that moves while the host is read
        self.busy.setTextVisible(False)
        self.busy.setMaximumWidth(90)
        self.busy.hide()
        top.addWidget(self.busy)
        self.refresh_button = QPushButton(QCoreApplication.translate("Logins", "&Refresh"), self)
        self.refresh_button.setObjectName("loginsRefresh")
        self.refresh_button.setToolTip(QCoreApplication.translate("Logins", "Read the host's new logins (F5)"))
        self.refresh_button.clicked.connect(self.refresh)
        top.addWidget(self.refresh_button)
        layout.addLayout(top)

        self.error_label = self._box_label("loginsError", "error", "error_bg", "error_border")
        layout.addWidget(self.error_label)
        self.notes_label = self._box_label("loginsNotes", "", "note_bg", "note_border")
        layout.addWidget(self.notes_label)

        row = QHBoxLayout()
        self.filter_combo = QComboBox(self)
        self.filter_combo.setObjectName("loginsFilter")
        self.filter_combo.addItem(QCoreApplication.translate("Logins", "Accepted logins only"), "accepted")
        self.filter_combo.addItem(QCoreApplication.translate("Logins", "All logins, failed ones too"), "all")
        self.filter_combo.currentIndexChanged.connect(self._on_filter_changed)
        row.addWidget(self.filter_combo)
        self.summary_label = PlainLabel(self)
        self.summary_label.setObjectName("loginsFailed")
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row.addWidget(self.summary_label, 1)
        layout.addLayout(row)
        self.advice_label = self._box_label("loginsAdvice", "warning", "", "")
        layout.addWidget(self.advice_label)

        self.table = QTableWidget(0, COLUMNS, self)
        self.table.setObjectName("loginsTable")
        self.table.setHorizontalHeaderLabels([
            QCoreApplication.translate("Logins", "Time"), QCoreApplication.translate("Logins", "User"),
            QCoreApplication.translate("Logins", "Method"), QCoreApplication.translate("Logins", "Source"),
            QCoreApplication.translate("Logins", "Result"), QCoreApplication.translate("Logins", "Note")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        fit_columns(self.table, ELIDE)
        layout.addWidget(self.table, 1)
        self.empty_label = PlainLabel(self)
        self.empty_label.setObjectName("loginsEmpty")
        self.empty_label.setStyleSheet("color: palette(mid);")
        self.empty_label.setWordWrap(True)
        layout.addWidget(self.empty_label)

        path_row = QHBoxLayout()
        path_row.addWidget(PlainLabel(QCoreApplication.translate("Logins", "Log file on the host:"), self))
        self.path_edit = QLineEdit(self)
        self.path_edit.setObjectName("loginsLogPath")
        self.path_edit.setMaxLength(LOG_PATH_CHARS)
        self.path_edit.setPlaceholderText(QCoreApplication.translate(
            "Logins", "empty: the system's journal or log; or e.g. /var/log/sshd.log"))
        self.path_edit.setToolTip(QCoreApplication.translate(
            "Logins", "Only for a server whose sshd writes its own log with -E FILE: that file's absolute path."))
        self.path_edit.setText(LoginStore(ctx.store).state(host).user_path)
        self.path_edit.returnPressed.connect(self._on_path_button_clicked)
        path_row.addWidget(self.path_edit, 1)
        self.path_button = QPushButton(QCoreApplication.translate("Logins", "Use this log &file…"), self)
        self.path_button.setObjectName("loginsUseLogPath")
        self.path_button.clicked.connect(self._on_path_button_clicked)
        path_row.addWidget(self.path_button)
        layout.addLayout(path_row)
        self.path_error = self._box_label("loginsLogPathError", "error", "", "")
        layout.addWidget(self.path_error)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        refresh = QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), self)
        refresh.activated.connect(self.refresh)
        if QKeySequence(QKeySequence.StandardKey.Refresh).toString() != "F5":
            QShortcut(QKeySequence("F5"), self).activated.connect(self.refresh)

        self.show_stored()

    def _box_label(self, name: str, fg: str, bg: str, border: str) -> PlainLabel:
        label = PlainLabel(self)
        label.setObjectName(name)
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        style = f"color: {theme.css(fg)};" if fg else ""
        if bg:
            style += (f" background: {theme.css(bg)}; border: 1px solid {theme.css(border)};"
                      " border-radius: 3px; padding: 4px;")
        label.setStyleSheet(style)
        label.hide()
        return label

    # -- what is shown ----------------------------------------------------------------------------
    def since(self) -> datetime:
        return datetime.now(timezone.utc) - timedelta(days=WINDOW_DAYS)

    def show_stored(self) -> None:
        """What was read before, at once (no connection)."""
        logins = usecase.recent(self.ctx.paths, self.ctx.store, self.host, self.since())
        st = LoginStore(self.ctx.store).state(self.host)
        self._notes(list(st.notes))
        self.show_logins(logins, usecase.summary([x for x in logins if not x.accepted]))
        if st.last_read:
            read = datetime.fromtimestamp(st.last_read).strftime("%Y-%m-%d %H:%M:%S")
            self.status_label.setText(QCoreApplication.translate("Logins", "Last read {time}.").format(time=read))

    def show_logins(self, logins: list[StoredLogin], failed: dict[str, object]) -> None:
        self.logins = logins[: MAX_ROWS * 4]
        self.failed = failed
        self.summary_label.setText(failed_line(failed))
        unusual = sum(1 for x in self.logins if x.unusual and not x.own)
        self.advice_label.setText(QCoreApplication.translate(
            "Logins", "Unusual logins: {n}. If one was not you, stop the instance and change its keys.").format(
            n=unusual))
        self.advice_label.setVisible(bool(unusual))
        self._fill()

    def shown(self) -> list[StoredLogin]:
        everything = self.filter_combo.currentData() == "all"
        return [x for x in self.logins if everything or x.accepted][:MAX_ROWS]

    def _fill(self) -> None:
        rows = self.shown()
        policy = usecase.policy_for(self.ctx.paths, self.ctx.store, self.host, usecase.settings_of(self.ctx.paths),
                                    LoginStore(self.ctx.store), datetime.now().timestamp())
        self.table.setRowCount(len(rows))
        bold = QFont(self.table.font())
        bold.setBold(True)
        for r, x in enumerate(rows):
            result = (QCoreApplication.translate("Logins", "accepted") if x.accepted
                      else QCoreApplication.translate("Logins", "failed"))
            cells = [when(x), visible(x.user, 64) or "—", visible(x.method, 32) or "—",
                     visible(x.source, 64) or "—", result, note_of(x)]
            ev = LoginEvent(x.time, x.user, x.method, x.source, x.port, x.accepted, x.invalid_user, x.key_type,
                            x.key_fp, x.origin, x.line)
            why = why_texts(Verdict(x.own, x.unusual, x.why), ev, policy, _t) if x.unusual and not x.own else []
            tip = self._tooltip(x, why)
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                if x.unusual and not x.own:
                    item.setForeground(theme.color("error"))
                    item.setBackground(theme.color("error_bg"))
                    if c == 5:
                        item.setFont(bold)
                elif x.own and c == 5:
                    item.setForeground(theme.color("ok"))
                elif not x.accepted:
                    item.setForeground(theme.color("muted"))
                self.table.setItem(r, c, item)
        self.table.setVisible(bool(rows))
        self.empty_label.setVisible(not rows)
        if not rows:
            self.empty_label.setText(QCoreApplication.translate(
                "Logins", "No accepted SSH login of {host} in the last {days} days.").format(
                host=visible(self.host, 100), days=WINDOW_DAYS) if self.filter_combo.currentData() == "accepted"
                else QCoreApplication.translate("Logins", "No SSH login of {host} in the last {days} days.").format(
                host=visible(self.host, 100), days=WINDOW_DAYS))
        refit(self.table, ELIDE)

    def _tooltip(self, x: StoredLogin, why: list[str]) -> str:
        lines = [f"{visible(x.user, 64) or '—'} ← {visible(x.source, 64) or '—'}"
                 + (f" port {x.port}" if x.port else "") + f" · {visible(x.method, 32) or '—'}"]
        if x.time is None:  # e.g. sshd's own -E log holds no times: read before the first check
            lines.append(_t(usecase.TIME_UNKNOWN).format(
                first=datetime.fromtimestamp(x.seen).strftime("%Y-%m-%d %H:%M")))
        if x.key_fp:
            lines.append(visible(f"{x.key_type} {x.key_fp}".strip(), 200))
        if x.own:
            lines.append(QCoreApplication.translate("Logins", "One of LabGPU's own sessions."))
        if why:
            lines.append(QCoreApplication.translate("Logins", "Unusual: ") + "; ".join(why))
        return plain_tooltip("\n".join(lines))

    def _notes(self, notes: list[str]) -> None:
        text = "\n".join(visible(n, 600) for n in notes[:16])
        self.notes_label.setText(text)
        self.notes_label.setVisible(bool(text))

    @Slot(int)
    def _on_filter_changed(self, _index: int) -> None:
        self._fill()

    # -- reading the host -------------------------------------------------------------------------
    @Slot()
    def refresh(self) -> None:
        if self.task is not None and not self.task.is_done:
            return
        self.busy.show()
        self.refresh_button.setEnabled(False)
        self.error_label.hide()
        self.status_label.setText(QCoreApplication.translate("Logins", "Reading the logins of {host}…").format(
            host=visible(self.host, 100)))
        paths, store, host, since, check = self.ctx.paths, self.ctx.store, self.host, self.since(), self.check

        def run() -> usecase.LoginReport:
            if check is not None:
                return check()
            return usecase.check_host(paths, store, host, since=since, alert=usecase.notify_alert(paths, store))

        self.task = self.ctx.runner.run(self, run, name="logins-check", on_done=self._on_checked,
                                        on_error=self._on_check_failed)

    def _idle(self) -> None:
        self.busy.hide()
        self.refresh_button.setEnabled(True)

    def _on_checked(self, report: usecase.LoginReport) -> None:
        self._idle()
        self._notes(report.notes)
        self.show_logins(report.logins, report.failed)
        self.status_label.setText(QCoreApplication.translate("Logins", "Read {time}.").format(
            time=datetime.now().strftime("%Y-%m-%d %H:%M:%S")))

    def _on_check_failed(self, exc: BaseException) -> None:
        self._idle()
        if isinstance(exc, LabGpuError):
            message, hint = exc.text(), exc.hint()
        else:
            message, hint = str(exc) or type(exc).__name__, ""
        hint = hint or QCoreApplication.translate(
            "Logins", "Check that the host is on and reachable (Hosts page → Connect), then press Refresh (F5).")
        self.error_label.setText(cap(f"{message}\n{hint}"))
        self.error_label.show()
        self.status_label.setText(QCoreApplication.translate(
            "Logins", "Not read: the list shows what was read before."))

    @Slot()
    def _on_path_button_clicked(self) -> None:
        path = self.path_edit.text().strip()
        if path and (not path.startswith("/") or any(not c.isprintable() for c in path)):
            self.path_error.setText(QCoreApplication.translate(
                "Logins", "The log path must be an absolute path on the host, e.g. /var/log/sshd.log: {path}").format(
                path=visible(path, 100)))
            self.path_error.show()
            return
        self.path_error.hide()
        usecase.set_log_path(self.ctx.store, self.host, path)
        self.refresh()


def open_logins(ctx: AppContext, host: str, parent: QWidget) -> LoginsDialog:
    """The host's dialog (one per host: an open one comes to the front), reading the host at once."""
    for dlg in parent.findChildren(LoginsDialog):
        if dlg.host == host and dlg.isVisible():
            dlg.raise_()
            dlg.activateWindow()
            return dlg
    dlg = LoginsDialog(ctx, host, parent)
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dlg.show()
    dlg.refresh()
    return dlg
