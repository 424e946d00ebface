"""What every page gets: paths, settings, the database, the task runner and the error reporter.

Passed explicitly to each page (no module-level singletons). Pages talk to each other through its
signals, not through references to one another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.core.paths import Paths
from app.core.settings import Settings, SettingsStore
from app.ui.errors import ErrorReporter
from app.ui.shared.services import Services
from app.ui.tasks import TaskRunner
from app.usecases.changes import Changes

if TYPE_CHECKING:
    from app.core.store import Store


class AppContext(QObject):
    settings_changed = Signal()
    language_changed = Signal(str)
    navigate_requested = Signal(str, object)  # page id, payload for the page's `activate(payload)`
    status_message = Signal(str)
    changed = Signal(object)  # frozenset[Change]: what a use case changed, delivered on the GUI thread

    def __init__(self, paths: Paths, language: str) -> None:
        super().__init__()
        self.paths = paths.ensure()
        self.settings_store = SettingsStore(paths)
        self.settings: Settings = self.settings_store.load()
        self._store: Store | None = None
        self.runner = TaskRunner(parent=self)
        self.errors = ErrorReporter()
        self.language = language
        self.services = Services()  # long-lived per-feature objects (VPN watcher, monitors), typed slots
        # Use cases emit on this bus from any thread; `changed` re-emits on the GUI thread (queued).
        self.changes = Changes()
        self.changes.subscribe(self.changed.emit)

    @property
    def store(self) -> Store:
        if self._store is None:
            from app.core.store import Store  # sqlite3 is imported when first needed, not at start-up

            self._store = Store(paths=self.paths)
        self._store.migrate()
        return self._store

    def save_settings(self) -> None:
        self.settings_store.save(self.settings)
        self.settings_changed.emit()

    def navigate(self, page_id: str, payload: object = None) -> None:
        self.navigate_requested.emit(page_id, payload)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        self.services.close_all()
        self.runner.shutdown(timeout_ms)
