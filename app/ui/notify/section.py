"""Settings → Notifications: the channels, each one's last result, Add / Edit / Remove / Send a test."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import LabGpuError
from app.notify.config import KIND_TITLES, ChannelConfig, channel, drop_channel, notify_settings
from app.notify.events import TOPICS
from app.ui import theme
from app.ui.notify.dialog import ChannelDialog, tr_notify
from app.ui.shared.plain import PlainLabel, ask, cap, plain_tooltip

if TYPE_CHECKING:
    from app.notify.dispatch import Result
    from app.ui.context import AppContext


class NotifySection(QGroupBox):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTitle(self.tr("Notifications"))
        self.setObjectName("notifySection")
        self.ctx = ctx
        box = QVBoxLayout(self)
        intro = PlainLabel(self.tr("Notices that reach you away from the laptop — by mail, WeChat (ServerChan, "
                                   "PushPlus), Feishu, DingTalk, ntfy or a webhook: guard stops, a stop that "
                                   "failed, spot notices, jobs that end or stall, budgets, VPN drops."), self)
        intro.setWordWrap(True)
        intro.setStyleSheet("color: palette(mid);")
        box.addWidget(intro)
        self.table = QTableWidget(0, 4, self)
        self.table.setObjectName("notifyChannels")
        self.table.setHorizontalHeaderLabels([self.tr("Name"), self.tr("Kind"), self.tr("Events"),
                                              self.tr("Last result")])
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        # three compact rows always shown (a longer list scrolls): the page has no scroll area of its own
        row_h = self.table.fontMetrics().height() + 8
        self.table.verticalHeader().setDefaultSectionSize(row_h)
        self.table.setMinimumHeight(self.table.horizontalHeader().sizeHint().height() + 3 * row_h + 4)
        # no taller than its rows ask for (Qt's default is about eight): the Settings page then fits a
        # 1280×800 window in Chinese without scrolling
        self.table.setSizeAdjustPolicy(QAbstractScrollArea.SizeAdjustPolicy.AdjustToContents)
        self.table.itemSelectionChanged.connect(self._on_table_selection_changed)
        self.table.itemDoubleClicked.connect(self._on_table_double_clicked)
        row = QHBoxLayout()
        row.addWidget(self.table, 1)
        buttons = QVBoxLayout()  # beside the list, so the section stays short
        self.add_button = QPushButton(self.tr("&Add…"), self)
        self.add_button.setObjectName("notifyAdd")
        self.edit_button = QPushButton(self.tr("&Edit…"), self)
        self.remove_button = QPushButton(self.tr("Re&move"), self)
        self.test_button = QPushButton(self.tr("Send a &test"), self)
        self.test_button.setObjectName("notifySendTest")
        for b in (self.add_button, self.edit_button, self.remove_button, self.test_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        row.addLayout(buttons)
        box.addLayout(row)
        self.result_label = PlainLabel("", self)
        self.result_label.setObjectName("notifyResult")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.result_label.setVisible(False)  # shown with the first result (the page is tall already)
        box.addWidget(self.result_label)
        self.add_button.clicked.connect(self._on_add_button_clicked)
        self.edit_button.clicked.connect(self._on_edit_button_clicked)
        self.remove_button.clicked.connect(self._on_remove_button_clicked)
        self.test_button.clicked.connect(self._on_test_button_clicked)
        self.reload()

    # -- the list --------------------------------------------------------------------------------------
    def channels(self) -> list[ChannelConfig]:
        return notify_settings(self.ctx.settings).channels

    def reload(self, select: str = "") -> None:
        from app.notify.dispatch import Notifier

        current = select or self.selected()
        last = Notifier.from_paths(self.ctx.paths).last_results()
        chans = self.channels()
        self.table.setRowCount(len(chans))
        for i, c in enumerate(chans):
            events = self.tr("all") if set(c.events) >= set(TOPICS) else \
                self.tr("{n} of {total}").format(n=len(c.events), total=len(TOPICS))
            r = last.get(c.name)
            result = self.tr("not tried yet") if r is None else \
                f"{r.at[11:16]} " + (self.tr("ok") if r.ok else r.text())
            name = c.name if c.enabled else self.tr("{name} (off)").format(name=c.name)
            for col, text in enumerate((name, tr_notify(KIND_TITLES.get(c.kind, c.kind)), events, result)):
                item = QTableWidgetItem(cap(text, 300))
                item.setData(Qt.ItemDataRole.UserRole, c.name)
                if col == 3:
                    item.setToolTip(plain_tooltip(text))  # the whole answer when the column cuts it
                    if r is not None and not r.ok:
                        item.setForeground(theme.color("error"))
                self.table.setItem(i, col, item)
            if c.name == current:
                self.table.selectRow(i)
        if current and self.selected() != current:
            self.table.clearSelection()
        self._on_table_selection_changed()

    def selected(self) -> str:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        if not rows:
            return ""
        item = self.table.item(rows[0].row(), 0)
        return str(item.data(Qt.ItemDataRole.UserRole)) if item is not None else ""

    def select(self, name: str) -> None:
        for i in range(self.table.rowCount()):
            item = self.table.item(i, 0)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == name:
                self.table.selectRow(i)

    @Slot()
    def _on_table_selection_changed(self) -> None:
        has = bool(self.selected())
        for b in (self.edit_button, self.remove_button, self.test_button):
            b.setEnabled(has)

    @Slot(QTableWidgetItem)
    def _on_table_double_clicked(self, _item: QTableWidgetItem) -> None:
        self._on_edit_button_clicked()

    # -- add / edit / remove ---------------------------------------------------------------------------
    def open_dialog(self, existing: ChannelConfig | None = None) -> ChannelDialog:
        """The channel dialog, shown (not modal to the caller's code: tests drive it)."""
        dialog = ChannelDialog(self.ctx, existing, self.window())
        dialog.accepted.connect(lambda: self.reload(select=dialog.saved.name if dialog.saved else ""))
        dialog.open()
        return dialog

    @Slot()
    def _on_add_button_clicked(self) -> None:
        self.open_dialog()

    @Slot()
    def _on_edit_button_clicked(self) -> None:
        c = channel(self.ctx.settings, self.selected())
        if c is not None:
            self.open_dialog(c)

    @Slot()
    def _on_remove_button_clicked(self) -> None:
        name = self.selected()
        c = channel(self.ctx.settings, name)
        if c is None:
            return
        question = self.tr("Remove the channel {name} and its secrets from the keyring?").format(name=name)
        if ask(self, self.tr("Remove channel"), question) != QMessageBox.StandardButton.Yes:
            return
        drop_channel(self.ctx.settings, name)
        self.ctx.save_settings()
        self.ctx.runner.run(self, _forget, self.ctx.paths, c, name="notify-remove", on_error=self._on_error)
        self.reload()
        self._show(True, self.tr("Removed {name}.").format(name=name))

    # -- Send a test -----------------------------------------------------------------------------------
    @Slot()
    def _on_test_button_clicked(self) -> None:
        name = self.selected()
        if not name:
            return
        from app.notify.dispatch import Notifier

        self.test_button.setEnabled(False)
        self._show(True, self.tr("Sending a test notice on {name}…").format(name=name))
        notifier = Notifier.from_paths(self.ctx.paths)
        settings = copy.deepcopy(self.ctx.settings)  # a snapshot for the worker
        self.ctx.runner.run(self, notifier.send_test, name, settings=settings, name="notify-test",
                            on_done=self._on_test_done, on_error=self._on_error)

    def _on_test_done(self, result: Result) -> None:
        self.test_button.setEnabled(bool(self.selected()))
        if result.ok:
            self._show(True, self.tr("Sent a test notice on {name}: {what}").format(name=result.channel,
                                                                                     what=result.text()))
        else:
            self._show(False, self.tr("The test notice on {name} failed: {why}").format(name=result.channel,
                                                                                        why=result.text()))
        self.reload()

    def _on_error(self, exc: BaseException) -> None:
        self.test_button.setEnabled(bool(self.selected()))
        text = f"{exc.text()} {exc.hint()}".strip() if isinstance(exc, LabGpuError) else str(exc)
        self._show(False, text)

    def _show(self, ok: bool, text: str) -> None:
        self.result_label.setStyleSheet("" if ok else f"color: {theme.css('error')};")
        self.result_label.setText(text)
        self.result_label.setVisible(True)


def _forget(paths: object, cfg: ChannelConfig) -> None:
    """A worker: the removed channel's keyring entries and last result go."""
    from app.core.paths import Paths
    from app.notify.dispatch import Notifier
    from app.notify.manage import delete_secrets

    delete_secrets(cfg)
    if isinstance(paths, Paths):
        Notifier.from_paths(paths).forget(cfg.name)
