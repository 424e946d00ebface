"""The bucket browser: an account's buckets, then a bucket's folders and objects one level at a time.

Opened by the sync pair dialog's Browse… for a bucket destination. Every call to the service
(the keyring read, ListBuckets, one ListObjectsV2 level, the size of the shown folder) runs through
``ctx.runner`` off the GUI thread; a busy bar shows while one runs, and an error is shown once,
in plain text under the list, with its next step. Object keys and service messages are data:
shown as plain text with control characters replaced, elided in the middle, whole in the tooltip.
``chosen()`` is the location picked (a folder of a bucket, or a bucket's top).
"""

from __future__ import annotations

import time
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt, Slot
from PySide6.QtGui import QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QProgressBar,
    QPushButton,
    QStyle,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.buckets import BucketUrl, key_problem
from app.core.errors import LabGpuError
from app.core.i18n import translate
from app.core.units import human_bytes
from app.ui import theme
from app.ui.context import AppContext
from app.ui.errors import describe
from app.ui.shared.plain import PlainLabel, cap, plain_tooltip

MAX_NAME = 300  # a shown name is cut here (a key may have 1,024 bytes); the tooltip has up to 2,000


def shown(text: object, limit: int = MAX_NAME) -> str:
    """Remote text for a cell or a label: control characters as U+FFFD, capped."""
    s = "" if text is None else str(text)
    s = "".join("\ufffd" if unicodedata.category(c) == "Cc" else c for c in s)
    return cap(s.encode("utf-8", "surrogateescape").decode("utf-8", "replace"), limit)


def scheme_of(provider: str) -> str:
    """The bucket URL scheme of a LabGPU provider id ("tencent" → "cos"), or ""."""
    from app.core.buckets import SCHEMES

    return next((s for s, p in SCHEMES.items() if p == provider), "")


@dataclass(frozen=True)
class Row:
    kind: str  # "bucket" | "folder" | "object"
    name: str  # the last component (a bucket's name for buckets)
    size: int | None = None
    mtime: Any = None
    problem: str = ""  # why this folder cannot be opened (a name that is not a safe key)


def _mtime_text(value: Any) -> str:
    if isinstance(value, datetime):
        return value.astimezone().strftime("%Y-%m-%d %H:%M")
    if isinstance(value, int | float) and value > 0:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(value))
    return ""


def _folder_name(url: BucketUrl, folder: str) -> str:
    """The last component of a CommonPrefixes entry (a full key prefix ending in '/', or a bare name)."""
    f = folder[len(url.list_prefix):] if url.list_prefix and folder.startswith(url.list_prefix) else folder
    return f.rstrip("/").rsplit("/", 1)[-1] if f.rstrip("/") else f


class BucketBrowser(QDialog):
    """Pick a bucket location of ``account`` (a name from the Accounts page)."""

    def __init__(self, ctx: AppContext, account: str, start: BucketUrl | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.store = ctx.store  # one connection per thread: each worker gets its own
        self.account_name = account
        self.account: Any = None  # Account, once read
        self.creds: Any = None  # Credentials from the keyring, once read (kept in memory only)
        self.url: BucketUrl | None = start  # None: the account's bucket list
        self.rows: list[Row] = []
        self.truncated = False
        self.task: Any = None
        self.usage_task: Any = None
        self.error_key = ""
        self._chosen: BucketUrl | None = None
        self.setWindowTitle(self.tr("Browse buckets"))
        self.resize(760, 520)
        self.setMinimumSize(560, 380)

        lay = QVBoxLayout(self)
        self.account_label = PlainLabel(self.tr("Account: {name}").format(name=shown(account)), self)
        self.account_label.setStyleSheet("color: palette(mid);")
        lay.addWidget(self.account_label)

        bar = QHBoxLayout()
        style = self.style()
        self.up_button = QPushButton(style.standardIcon(QStyle.StandardPixmap.SP_FileDialogToParent),
                                     self.tr("&Up"), self)
        self.up_button.setToolTip(self.tr("One level up (Backspace)"))
        self.up_button.clicked.connect(self._on_up_clicked)
        self.up_button.setAutoDefault(False)
        self.location_label = PlainLabel("", self)
        self.location_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.location_label.setMinimumWidth(120)
        self.refresh_button = QPushButton(self.tr("&Refresh"), self)
        self.refresh_button.setToolTip(self.tr("List this level again (F5)"))
        self.refresh_button.clicked.connect(self.load)
        self.refresh_button.setAutoDefault(False)
        bar.addWidget(self.up_button)
        bar.addWidget(self.location_label, 1)
        bar.addWidget(self.refresh_button)
        lay.addLayout(bar)

        self.table = QTableWidget(0, 3, self)
        self.table.setHorizontalHeaderLabels([self.tr("Name"), self.tr("Size"), self.tr("Modified")])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.table.doubleClicked.connect(self._on_table_double_clicked)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        lay.addWidget(self.table, 1)

        status = QHBoxLayout()
        self.busy = QProgressBar(self)
        self.busy.setRange(0, 0)  # busy, no amount
        self.busy.setTextVisible(False)
        self.busy.setMaximumWidth(120)
        self.busy.setVisible(False)
        self.status_label = PlainLabel("", self)
        self.status_label.setWordWrap(True)
        status.addWidget(self.busy)
        status.addWidget(self.status_label, 1)
        lay.addLayout(status)
        self.error_label = PlainLabel("", self)
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {theme.css('error')};")
        self.error_label.setVisible(False)
        lay.addWidget(self.error_label)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, Qt.Orientation.Horizontal, self)
        self.choose_button = buttons.addButton(self.tr("&Choose this folder"),
                                               QDialogButtonBox.ButtonRole.AcceptRole)
        self.choose_button.setDefault(True)
        buttons.accepted.connect(self._on_choose_clicked)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

        QShortcut(QKeySequence(Qt.Key.Key_Backspace), self, self._on_up_clicked)
        QShortcut(QKeySequence("Alt+Up"), self, self._on_up_clicked)
        QShortcut(QKeySequence.StandardKey.Refresh, self, self.load)
        self.setTabOrder(self.table, self.choose_button)
        self.table.setFocus()
        self.load()

    # navigation -------------------------------------------------------------------------------------
    def location_text(self) -> str:
        return str(self.url) if self.url is not None else self.tr("Buckets of {account}").format(
            account=shown(self.account_name))

    def selected_row(self) -> Row | None:
        items = self.table.selectionModel().selectedRows()
        if not items:
            return None
        r = items[0].row()
        return self.rows[r] if 0 <= r < len(self.rows) else None

    def _target_of(self, row: Row) -> BucketUrl | None:
        """Where opening (or choosing) ``row`` leads: a bucket's top or a folder; None for an object."""
        if row.kind == "bucket":
            return BucketUrl(scheme_of(self.account.provider), row.name, "") if self.account is not None else None
        if row.kind == "folder" and self.url is not None and not row.problem:
            return self.url.child(row.name)
        return None

    def open_row(self, row: Row) -> None:
        if row.problem:
            self._show_error_text(self.tr("The folder {name} cannot be opened: {why}.").format(
                name=shown(row.name), why=translate(row.problem)))
            return
        target = self._target_of(row)
        if target is not None:
            self.url = target
            self.load()

    @Slot()
    def _on_table_double_clicked(self) -> None:
        row = self.selected_row()
        if row is not None:
            self.open_row(row)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        # Return on a bucket or folder row opens it; elsewhere it is the dialog's default button
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.table.hasFocus():
            row = self.selected_row()
            if row is not None and row.kind in ("bucket", "folder"):
                self.open_row(row)
                event.accept()
                return
        super().keyPressEvent(event)

    @Slot()
    def _on_up_clicked(self) -> None:
        if self.url is None:
            return
        if self.url.prefix:
            parent = self.url.prefix.rsplit("/", 1)[0] if "/" in self.url.prefix else ""
            self.url = BucketUrl(self.url.scheme, self.url.bucket, parent)
        else:
            self.url = None
        self.load()

    @Slot()
    def _on_choose_clicked(self) -> None:
        row = self.selected_row()
        target = self._target_of(row) if row is not None else None
        self._chosen = target or self.url
        if self._chosen is not None:
            self.accept()

    def chosen(self) -> BucketUrl | None:
        return self._chosen

    def _update_buttons(self) -> None:
        busy = self.task is not None
        row = self.selected_row()
        can = self.url is not None or (row is not None and row.kind == "bucket")
        self.choose_button.setEnabled(can and not busy)
        target = self._target_of(row) if row is not None else None
        name = shown(row.name, 30) + ("/" if row.kind == "folder" else "") if row is not None else ""
        self.choose_button.setText(self.tr("&Choose {name}").format(name=name) if target is not None
                                   else self.tr("&Choose this folder"))
        self.up_button.setEnabled(self.url is not None and not busy)
        self.refresh_button.setEnabled(not busy)
        self.busy.setVisible(busy or self.usage_task is not None)

    # background work ----------------------------------------------------------------------------------
    def _credentials(self) -> tuple[Any, Any]:
        """(Account, Credentials): the keyring read; runs on the worker."""
        from app.core.accounts import AccountBook

        if self.account is not None and self.creds is not None:
            return self.account, self.creds
        book = AccountBook(self.store)
        return book.get(self.account_name), book.credentials(self.account_name)

    def _list(self, url: BucketUrl | None) -> tuple[Any, Any, list[Row], bool, int]:
        """One level, on the worker: the account's buckets, or the folders and objects at ``url``."""
        from app.cloud.storage.browse import list_buckets, list_level
        from app.cloud.storage.client import target_for

        account, creds = self._credentials()
        if url is None:
            buckets = list_buckets(account, creds)
            return account, creds, [Row("bucket", b.name, None, b.created) for b in buckets], False, 0
        level = list_level(target_for(account, url), creds)
        rows = []
        for f in level.folders:
            name = _folder_name(url, f)
            rows.append(Row("folder", name, problem=key_problem(name) or ""))
        for o in level.objects:
            name = str(o.rel or o.key).rsplit("/", 1)[-1]
            rows.append(Row("object", name, int(o.size), o.mtime))
        return account, creds, rows, bool(level.truncated), int(getattr(level, "hidden", 0))

    def load(self) -> None:
        """List the current level (cancels a listing or a size count still running)."""
        for t in (self.task, self.usage_task):
            if t is not None:
                t.cancel()
        self.usage_task = None
        self.location_label.setText(shown(self.location_text(), 2000))
        self.location_label.setToolTip(plain_tooltip(self.location_text()))
        self.status_label.setText(self.tr("Listing…"))
        self.error_label.setVisible(False)
        url = self.url
        self.task = self.ctx.runner.run(self, self._list, url, name="bucket-list",
                                        on_done=self._on_listed, on_error=self._on_failed)
        self._update_buttons()

    def _on_listed(self, result: tuple[Any, Any, list[Row], bool, int]) -> None:
        self.account, self.creds, rows, self.truncated, hidden = result
        self.task = None
        self.rows = rows
        self._fill()
        if self.url is None:
            text = self.tr("Buckets: {count}. Open one to see its folders.").format(count=str(len(rows)))
            if not rows:
                text = self.tr("This account has no buckets yet. Create one in the cloud's console, "
                               "then press Refresh.")
        else:
            folders = sum(1 for r in rows if r.kind == "folder")
            objects = len(rows) - folders
            text = self.tr("Here: folders {folders}, files {objects}.").format(
                folders=str(folders), objects=str(objects))
            if self.truncated:
                text += " " + self.tr("Only the first {count} entries are shown.").format(count=str(len(rows)))
            if hidden:
                text += " " + self.tr("{count} names that cannot be a file or folder name here are not shown "
                                      "(a sync skips them and says so).").format(count=str(hidden))
            self._count_size(self.url)
        self.status_label.setText(text)
        self._update_buttons()

    def _fill(self) -> None:
        style = self.style()
        icons = {
            "bucket": style.standardIcon(QStyle.StandardPixmap.SP_DriveNetIcon),
            "folder": style.standardIcon(QStyle.StandardPixmap.SP_DirIcon),
            "object": style.standardIcon(QStyle.StandardPixmap.SP_FileIcon),
        }
        self.table.setRowCount(len(self.rows))
        for r, row in enumerate(self.rows):
            name = shown(row.name) + ("/" if row.kind == "folder" else "")
            item = QTableWidgetItem(icons[row.kind], name)
            tip = shown(row.name, 2000)
            if row.problem:
                tip += "\n" + translate(row.problem)
                item.setForeground(theme.color("warning"))
            item.setToolTip(plain_tooltip(tip))
            size = QTableWidgetItem(human_bytes(row.size) if row.size is not None else "")
            size.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(r, 0, item)
            self.table.setItem(r, 1, size)
            self.table.setItem(r, 2, QTableWidgetItem(_mtime_text(row.mtime)))
        self.table.clearSelection()  # Choose takes the level shown until a row is picked
        if self.rows:
            self.table.setCurrentCell(0, 0, QItemSelectionModel.SelectionFlag.NoUpdate)

    def _count_size(self, url: BucketUrl | None) -> None:
        from app.cloud.storage.browse import usage
        from app.cloud.storage.client import target_for

        if url is None or self.account is None:
            return
        target = target_for(self.account, url)
        creds = self.creds

        def count(task: Any = None) -> Any:
            return usage(target, creds, cancel=task.cancel_event if task is not None else None)

        self.usage_task = self.ctx.runner.run(self, count, name="bucket-usage",
                                              on_done=self._on_counted, on_error=self._on_count_failed)
        self._update_buttons()

    def _on_counted(self, u: Any) -> None:
        self.usage_task = None
        text = self.tr("Everything below here: {size} (objects: {objects}).").format(
            size=human_bytes(int(u.bytes)), objects=str(int(u.objects)))
        if not u.complete:
            text = self.tr("Below here at least {size} (objects: {objects}; counting stopped early).").format(
                size=human_bytes(int(u.bytes)), objects=str(int(u.objects)))
        self.status_label.setText(f"{self.status_label.text()} {text}")
        self._update_buttons()

    def _on_count_failed(self, exc: BaseException) -> None:
        self.usage_task = None
        self._update_buttons()
        self._show_error(exc)

    def _on_failed(self, exc: BaseException) -> None:
        self.task = None
        self.rows = []
        self.table.setRowCount(0)
        self.status_label.setText("")
        self._update_buttons()
        self._show_error(exc)

    def _show_error(self, exc: BaseException) -> None:
        if getattr(exc, "code", "") == "Cancelled":
            return
        if not isinstance(exc, LabGpuError):
            self.ctx.errors.report(exc)  # a bug: logged with its traceback, shown once by the app
        message, hint = describe(exc)
        self._show_error_text(f"{message} {hint}".strip())

    def _show_error_text(self, text: str) -> None:
        self.error_label.setText(shown(text, 2000))
        self.error_label.setVisible(True)

    def done(self, result: int) -> None:
        for t in (self.task, self.usage_task):
            if t is not None:
                t.cancel()
        self.task = self.usage_task = None
        super().done(result)

