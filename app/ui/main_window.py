"""The main window: a navigation list on the left, one page at a time on the right.

Pages are listed in PAGES by id, module and class; a module that is not there (a feature not
built) is simply not shown, and a page is imported and built only when it is first shown. A page
class has ``page_id``, ``nav_title()`` and ``__init__(ctx, parent)``, and may have
``activate(payload)``, ``refresh()`` and ``shutdown()``.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, QCoreApplication, QSize, QTimer, Slot
from PySide6.QtGui import QGuiApplication, QIcon, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QApplication,
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
from app.ui.tasks import retire

if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent, QShowEvent

log = logging.getLogger(__name__)

# (page id, module, class, English navigation title). The title is translated in the page class's own
# context (it must equal the class's nav_title() in English; a test checks), so the window can list
# every page without importing any: a page's module is imported when the page is first shown.
PAGES: list[tuple[str, str, str, str]] = [
    ("offers", "app.ui.offers.page", "OffersPage", "GPU offers"),
    ("advisor", "app.ui.advisor.page", "AdvisorPage", "Advisor"),
    ("instances", "app.ui.cloud.instances_page", "InstancesPage", "Instances"),
    ("accounts", "app.ui.cloud.accounts_page", "AccountsPage", "Accounts"),
    ("hosts", "app.ui.remote.hosts_page", "HostsPage", "Hosts"),
    ("sync", "app.ui.remote.sync_page", "SyncPage", "Sync"),
    ("jobs", "app.ui.jobs.page", "JobsPage", "Jobs"),
    ("monitor", "app.ui.monitor.page", "MonitorPage", "GPU monitor"),
    ("vpn", "app.ui.remote.vpn_page", "VpnPage", "VPN"),
    ("settings", "app.ui.settings_page", "SettingsPage", "Settings"),
]


# Qt.ItemDataRole.UserRole as a plain int: touching PySide6's Qt namespace costs ~15 ms at start-up,
# before the window is shown; pages pay it afterwards.
_PAGE_ID_ROLE = 0x0100

# Pages that watch something billing or live (instances reconcile with the clouds, the VPN watcher):
# built shortly after start-up even if the user never opens them.
BACKGROUND_PAGES = ("instances", "vpn")
BACKGROUND_DELAY_MS = 400


def available_pages() -> list[tuple[str, str, str, str]]:
    """The pages whose module exists (found without importing it)."""
    out = []
    for spec in PAGES:
        try:
            found = importlib.util.find_spec(spec[1])
        except ModuleNotFoundError:
            found = None
        if found is not None:
            out.append(spec)
    return out


class LazyPages(Mapping[str, Any]):
    """page id → page widget, built on first access and put in its slot of the stack."""

    def __init__(self, window: MainWindow, specs: list[tuple[str, str, str, str]]) -> None:
        self._window = window
        self._specs = {s[0]: s for s in specs}
        self._built: dict[str, Any] = {}

    def __getitem__(self, page_id: str) -> Any:
        if page_id not in self._built:
            if page_id not in self._specs:
                raise KeyError(page_id)
            self._built[page_id] = self._window._build_page(self._specs[page_id])
        return self._built[page_id]

    def __contains__(self, page_id: object) -> bool:
        return page_id in self._specs

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs)

    def __len__(self) -> int:
        return len(self._specs)

    def built(self) -> list[Any]:
        return list(self._built.values())

    def is_built(self, page_id: str) -> bool:
        return page_id in self._built


class MainWindow(QMainWindow):
    def __init__(self, ctx: AppContext, defer_first_page: bool = False) -> None:
        super().__init__()
        self.ctx = ctx
        # With defer_first_page the window appears with its navigation at once and the first page is
        # built by finish_startup() right after (run_gui queues it behind window.show()).
        self._deferred = defer_first_page
        self.setWindowTitle(f"{APP_NAME} {__version__}")
        icon = resource_path("icons", "labgpu.svg")
        if icon.exists():
            self.setWindowIcon(QIcon(str(icon)))
        self.setMinimumSize(QSize(960, 600))
        self.pages = LazyPages(self, [])
        # Set by the tray (app.ui.tray.TrayShell): close_hook(event) -> False keeps the app running
        # in the tray; quit_hook() asks before quitting while instances bill.
        self.close_hook: Any = None
        self.quit_hook: Any = None
        self._build()
        ctx.navigate_requested.connect(self._on_ctx_navigate_requested)
        ctx.language_changed.connect(self._on_ctx_language_changed)
        app = QApplication.instance()
        if isinstance(app, QGuiApplication) and hasattr(app.styleHints(), "colorSchemeChanged"):
            # the pages are built again so that every colour of theme.ROLES is asked for again
            app.styleHints().colorSchemeChanged.connect(self._on_color_scheme_changed)
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
            "QListWidget#navigation { border: none; background: palette(window); font-size: 14px; outline: 0; }"
            "QListWidget#navigation::item { padding: 10px 12px; }"
            "QListWidget#navigation::item:selected { background: palette(highlight);"
            " color: palette(highlighted-text); }")
        self.stack = QStackedWidget(central)
        layout.addWidget(self.nav)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)
        specs = available_pages()
        self.pages = LazyPages(self, specs)
        self._slots: dict[str, QWidget] = {}
        self._slot_layouts: dict[str, QHBoxLayout] = {}
        for page_id, _module, class_name, title in specs:
            slot = QWidget(self.stack)
            slot_layout = QHBoxLayout(slot)
            slot_layout.setContentsMargins(0, 0, 0, 0)
            self._slots[page_id] = slot
            self._slot_layouts[page_id] = slot_layout
            self.stack.addWidget(slot)
            item = QListWidgetItem(QCoreApplication.translate(class_name, title))
            item.setData(_PAGE_ID_ROLE, page_id)
            item.setSizeHint(QSize(160, 40))
            self.nav.addItem(item)
        self.nav.currentRowChanged.connect(self._on_nav_row_changed)
        start = self.ctx.settings.last_page if self.ctx.settings.last_page in self.pages else None
        self.show_page(start or next(iter(self.pages), ""))

    def _build_page(self, spec: tuple[str, str, str, str]) -> Any:
        page_id, module_name, class_name, _title = spec
        cls = getattr(importlib.import_module(module_name), class_name)
        slot = self._slots[page_id]
        page = cls(self.ctx, slot)
        self._slot_layouts[page_id].addWidget(page)
        return page

    def finish_startup(self) -> None:
        if self._deferred:
            self._deferred = False
            page_id = self.current_page_id()
            if page_id:
                self.pages[page_id]
        QTimer.singleShot(BACKGROUND_DELAY_MS, self._build_background_pages)

    def _build_background_pages(self) -> None:
        for page_id in BACKGROUND_PAGES:
            if page_id in self.pages:
                self.pages[page_id]

    def page_ids(self) -> list[str]:
        return list(self.pages)

    def current_page_id(self) -> str:
        item = self.nav.currentItem()
        return str(item.data(_PAGE_ID_ROLE)) if item else ""

    def show_page(self, page_id: str, payload: object = None) -> bool:
        if page_id not in self.pages:
            return False
        row = list(self.pages).index(page_id)
        self.nav.setCurrentRow(row)
        if payload is None and self._deferred:
            return True
        page = self.pages[page_id]
        if payload is not None and hasattr(page, "activate"):
            page.activate(payload)
        return True

    @Slot(int)
    def _on_nav_row_changed(self, row: int) -> None:
        if row < 0:
            return
        page_id = list(self.pages)[row]
        if not self._deferred:
            self.pages[page_id]  # build it on first show
        self.stack.setCurrentIndex(row)
        if self.ctx.settings.last_page != page_id:
            self.ctx.settings.last_page = page_id

    @Slot(str, object)
    def _on_ctx_navigate_requested(self, page_id: str, payload: object) -> None:
        self.show_page(page_id, payload)

    @Slot(object)
    def _on_color_scheme_changed(self, _scheme: object = None) -> None:
        if self.isVisible():
            self.rebuild_pages()
        else:  # hidden in the tray (or closed): built again when shown
            self._scheme_changed_while_hidden = True

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if getattr(self, "_scheme_changed_while_hidden", False):
            self._scheme_changed_while_hidden = False
            QTimer.singleShot(0, self.rebuild_pages)

    @Slot(str)
    def _on_ctx_language_changed(self, _language: str) -> None:
        self.rebuild_pages()

    def rebuild_pages(self) -> None:
        """Build every page again (a new language or colour scheme), keeping what pages say to keep."""
        current = self.current_page_id()
        # What each page keeps across the rebuild (the advisor's step, the offers' ranking).
        kept = {page_id: self.pages[page_id].language_state() for page_id in self.pages
                if self.pages.is_built(page_id) and hasattr(self.pages[page_id], "language_state")}
        for page in self.pages.built():
            if hasattr(page, "shutdown"):
                page.shutdown()
        old = self.centralWidget()
        if old is not None:
            retire(old)  # late task results for the old pages are dropped from here on
        self._build()
        if old is not None:
            old.deleteLater()
        self.show_page(current)
        for page_id, state in kept.items():
            if state is not None and page_id in self.pages:
                page = self.pages[page_id]
                if hasattr(page, "restore_language_state"):
                    page.restore_language_state(state)

    def _install_shortcuts(self) -> None:
        for i in range(9):
            sc = QShortcut(QKeySequence(f"Ctrl+{i + 1}"), self)
            sc.activated.connect(lambda i=i: self.nav.setCurrentRow(i) if i < self.nav.count() else None)
        QShortcut(QKeySequence(QKeySequence.StandardKey.Quit), self,
                  lambda: self.quit_hook() if self.quit_hook is not None else self.close())
        QShortcut(QKeySequence("Ctrl+,"), self, lambda: self.show_page("settings"))
        QShortcut(QKeySequence(QKeySequence.StandardKey.Refresh), self, self._refresh_current)

    def _refresh_current(self) -> None:
        page_id = self.current_page_id()
        page = self.pages[page_id] if page_id else None
        if page is not None and hasattr(page, "refresh"):
            page.refresh()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if self.close_hook is not None and not self.close_hook(event):
            return
        self.ctx.settings.window_geometry = bytes(self.saveGeometry().toBase64().data()).decode()
        try:
            self.ctx.save_settings()
        except OSError as exc:
            log.warning("could not save settings: %s", exc)
        for page in self.pages.built():
            if hasattr(page, "shutdown"):
                page.shutdown()
        super().closeEvent(event)
