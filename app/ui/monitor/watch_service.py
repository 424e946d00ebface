"""The guards in the desktop app: one Watcher thread (window or tray), its events as Qt signals.

Exactly one watcher acts per user (a lock file). When ``labgpu watch`` or another LabGPU already
holds it, this one waits (``active`` False, ``holder`` the other's pid and kind) and takes over as
soon as that one exits or dies — the lock is polled every ``poll_s`` (0.5 s) — so closing the
other watcher never leaves the guards unwatched while this LabGPU runs. ``state_changed`` says
when it took over. Every guarded target is watched by the monitor hub so the idle rule gets its
samples.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from app.ui.context import AppContext

log = logging.getLogger(__name__)


class WatchService(QObject):
    # GuardEvent, on the GUI thread (queued). The name hides QObject.event(), which this class never
    # needs: Qt's event dispatch still reaches the C++ QObject::event.
    event = Signal(object)  # type: ignore[assignment]
    state_changed = Signal()  # took over the guards (``active`` is now True)

    def __init__(self, ctx: AppContext, hub: Any, parent: QObject | None = None, kind: str = "window",
                 poll_s: float | None = None, watcher: Any = None) -> None:
        super().__init__(parent)
        from app.watch.lock import WAIT_POLL_S
        from app.watch.watcher import Watcher

        self.ctx = ctx
        self.hub = hub
        self.kind = kind
        self.poll_s = WAIT_POLL_S if poll_s is None else poll_s
        if watcher is None:
            from app.usecases.guards import watcher_pull

            watcher = Watcher(ctx.paths, notify=self._notify, kind=kind,
                              pull=watcher_pull(ctx.paths, ctx.store, ctx.changes))
        else:
            watcher.notify = self._notify
        self.watcher = watcher
        self.active = False
        self.holder: int | None = None
        self.holder_kind = ""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._closed = False

    def start(self) -> bool:
        """Run the guards in a thread: at once when the lock is free (True), else after the holder
        is gone (False now; ``holder`` says who holds it; ``state_changed`` when this one takes over)."""
        try:
            self.active = self.watcher.acquire()
        except Exception as exc:  # noqa: BLE001 - no guards is reported, never a crash
            log.warning("watch lock unavailable: %s", exc)
            self.active = False
            return False
        if not self.active:
            info = self.watcher.lock.holder_info()
            self.holder = info.pid if info is not None else None
            self.holder_kind = info.kind if info is not None else ""
            log.info("guards applied by process %s (%s); waiting to take over", self.holder, self.holder_kind)
        else:
            self._watch_targets()
        self._thread = threading.Thread(target=self._run, name="labgpu-guards", daemon=True)
        self._thread.start()
        return self.active

    def _watch_targets(self) -> None:
        try:
            for target in sorted(self.watcher.guards.all()):
                self.hub.watch(target)
        except Exception as exc:  # noqa: BLE001
            log.warning("could not watch the guarded hosts: %s", exc)

    def _run(self) -> None:
        try:
            if not self.active:
                if not self.watcher.wait_acquire(self._stop, self.poll_s):
                    return  # closed while waiting
                self.active, self.holder, self.holder_kind = True, None, ""
                log.info("took over the guards")
                self._watch_targets()
                if not self._closed:
                    try:
                        self.state_changed.emit()
                    except RuntimeError:
                        pass
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


def watch_service(ctx: AppContext, kind: str = "window") -> WatchService:
    svc = ctx.services.watch
    if not isinstance(svc, WatchService):
        from app.ui.monitor.hub_link import monitor_hub

        svc = WatchService(ctx, monitor_hub(ctx), kind=kind)
        ctx.services.watch = svc
    return svc
