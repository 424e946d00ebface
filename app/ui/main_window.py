"""The main window: a navigation list on the left, one page at a time on the right.

Pages are listed in PAGES by module and class; a module that is not there (a feature not built)
is simply not shown. A page class has ``page_id``, ``nav_title()`` and ``__init__(ctx, parent)``,
and may have ``activate(payload)``, ``refresh()`` and ``shutdown()``.
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from PySide6.QtCore import QByteArray, QSize, Qt, Slot
from PySide6.QtGui import QCloseEvent, QIcon, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QStackedWidget,
    QWidget,
)

from app import APP_NAME, __version__
from app.core.resources import resource_path
from app.ui.context import AppContext

log = logging.getLogger(__name__)

PAGES: list[tuple[str, str]] = [
    ("app.ui.offers.page", "OffersPage"),
    ("app.ui.advisor.page", "AdvisorPage"),
    ("app.ui.cloud.instances_page", "InstancesPage"),
    ("app.ui.cloud.accounts_page", "AccountsPage"),
    ("app.ui.remote.hosts_page", "HostsPage"),
    ("app.ui.remote.sync_page", "SyncPage"),
    ("app.ui.remote.vpn_page", "VpnPage"),
    ("app.ui.settings_page", "SettingsPage"),
]


def available_page_classes() -> list[type]:
    classes = []
    for module_name, class_name in PAGES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue
            raise
        classes.append(getattr(module, class_name))
    return classes


class MainWindow(QMainWindow):
    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.setWindowTitle(f"{APP_NAME} {__version__}")
        icon = resource_path("icons", "labgpu.svg")
        if icon.exists():
            self.setWindowIcon(QIcon(str(icon)))
        self.setMinimumSize(QSize(960, 600))
        self.pages: dict[str, Any] = {}
        self._build()
        ctx.navigate_requested.connect(self._on_ctx_navigate_requested)
        ctx.language_changed.connect(self._on_ctx_language_changed)
        ctx.errors.parent_widget = self
        self._install_shortcuts()
        geometry = ctx.settings.window_geometry
        if geometry:
            self.restoreGeometry(QByteArray.fromBase64(geometry.encode()))
        else:
            self.resize(1280, 800)

    def _build(self) -> None:
        central = QWidget(self)
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.nav = QListWidget(central)
        self.nav.setObjectName("navigation")
        self.nav.setFixedWidth(168)
        self.nav.setIconSize(QSize(20, 20))
        self.nav.setStyleSheet(
            "QListWidget#navigation { border: none; background: palette(window); font-size: 14px; }"
            "QListWidget#navigation::item { padding: 10px 12px; }"
            "QListWidget#navigation::item:selected { background: palette(highlight);"
            " color: palette(highlighted-text); }")
        self.stack = QStackedWidget(central)
        layout.addWidget(self.nav)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        self.pages.clear()
        for cls in available_page_classes():
            page = cls(self.ctx, self.stack)
            self.pages[cls.page_id] = page
            self.stack.addWidget(page)
            item = QListWidgetItem(cls.nav_title())
            item.setData(Qt.ItemDataRole.UserRole, cls.page_id)
            item.setSizeHint(QSize(160, 40))
            self.nav.addItem(item)
        self.nav.currentRowChanged.connect(self._on_nav_row_changed)
        start = self.ctx.settings.last_page if self.ctx.settings.last_page in self.pages else None
        self.show_page(start or next(iter(self.pages), ""))

    def page_ids(self) -> list[str]:
        return list(self.pages)

    def current_page_id(self) -> str:
        item = self.nav.currentItem()
        return str(item.data(Qt.ItemDataRole.UserRole)) if item else ""

    def show_page(self, page_id: str, payload: object = None) -> bool:
        if page_id not in self.pages:
            return False
        row = list(self.pages).index(page_id)
        self.nav.setCurrentRow(row)
        page = self.pages[page_id]
        if payload is not None and hasattr(page, "activate"):
            page.activate(payload)
        return True

    @Slot(int)
    def _on_nav_row_changed(self, row: int) -> None:
        if row < 0:
            return
        self.stack.setCurrentIndex(row)
        page_id = list(self.pages)[row]
        if self.ctx.settings.last_page != page_id:
            self.ctx.settings.last_page = page_id

    @Slot(str, object)
    def _on_ctx_navigate_requested(self, page_id: str, payload: object) -> None:
        self.show_page(page_id, payload)

    @Slot(str)
    def _on_ctx_language_changed(self, _language: str) -> None:
        current = self.current_page_id()
        for page in self.pages.values():
            if hasattr(page, "shutdown"):
                page.shutdown()
        old = self.centralWidget()
        self._build()
        if old is not None:
            old.deleteLater()
        self.show_page(current)

    def _install_shortcuts(self) -> None:
        for i in range(9):
            sc = QShortcut(QKeySequence(f"Ctrl+{i + 1}"), self)
            sc.activated.connect(lambda i=i: self.nav.setCurrentRow(i) if i < self.nav.count() else None)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Quit), self, activated=self.close)
        QShortcut(QKeySequence("Ctrl+,"), self, activated=lambda: self.show_page("settings"))
        QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), self, activated=self._refresh_current)

    def _refresh_current(self) -> None:
        page = self.pages.get(self.current_page_id())
        if page is not None and hasattr(page, "refresh"):
            page.refresh()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        self.ctx.settings.window_geometry = bytes(self.saveGeometry().toBase64().data()).decode()
        try:
            self.ctx.save_settings()
        except OSError as exc:
            log.warning("could not save settings: %s", exc)
        for page in self.pages.values():
            if hasattr(page, "shutdown"):
                page.shutdown()
        super().closeEvent(event)
