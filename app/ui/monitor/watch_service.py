"""The guards in the desktop app: one Watcher thread (window or tray), its events as Qt signals.

Exactly one watcher acts per user (a lock file): when ``labgpu watch`` or another LabGPU already
holds it, this one stays passive and says so (``active`` False, ``holder`` the other pid).
Every guarded target is watched by the monitor hub so the idle rule gets its samples.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from PySide6.QtCore import QObject, Signal

log = logging.getLogger(__name__)


class WatchService(QObject):
    event = Signal(object)  # GuardEvent, on the GUI thread (queued)

    def __init__(self, ctx: Any, hub: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        from app.watch.watcher import Watcher

        self.ctx = ctx
        self.hub = hub
        self.watcher = Watcher(ctx.paths, notify=self._notify)
        self.active = False
        self.holder: int | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    def start(self) -> bool:
        """Take the lock and run the guards in a thread; False when another process applies them."""
        try:
            self.active = self.watcher.acquire()
        except Exception as exc:  # noqa: BLE001 - no guards is reported, never a crash
            log.warning("watch lock unavailable: %s", exc)
            self.active = False
        if not self.active:
            self.holder = self.watcher.lock.holder()
            return False
        try:
            for target in sorted(self.watcher.guards.all()):
                self.hub.watch(target)
        except Exception as exc:  # noqa: BLE001
            log.warning("could not watch the guarded hosts: %s", exc)
        self._thread = threading.Thread(target=self._run, name="labgpu-guards", daemon=True)
        self._thread.start()
        return True

    def _run(self) -> None:
        try:
            self.watcher.run(self.hub, period_s=1.0, until=self._stop)
        except Exception:  # noqa: BLE001 - the guards stop; the app goes on and says so in the log
            log.exception("the guard watcher stopped")

    def _notify(self, ev: Any) -> None:
        if not self._closed:
            try:
                self.event.emit(ev)
            except RuntimeError:
                pass

    def guard_changed(self, target: str) -> None:
        """A guard was set: watch its host so the idle rule gets samples."""
        if self.active:
            try:
                self.hub.watch(target)
            except Exception as exc:  # noqa: BLE001
                log.warning("could not watch %s: %s", target, exc)

    def close(self) -> None:
        self._closed = True
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        try:
            self.watcher.close()
        except Exception:  # noqa: BLE001
            log.exception("closing the watcher failed")


def watch_service(ctx: Any) -> WatchService:
    svc = ctx.services.watch
    if not isinstance(svc, WatchService):
        from app.ui.monitor.hub_link import monitor_hub

        svc = WatchService(ctx, monitor_hub(ctx))
        ctx.services.watch = svc
    return svc
