"""The watcher's half of spot recovery (app/usecases/spotrecovery.py): a reclaim notice of an instance
with a recovery policy starts its recovery on a thread of its own (one per instance); a watcher that
starts finds the recoveries a previous one left unfinished (stored after every step) and goes on with
them. Only the watcher that holds the watch lock acts (the window, the tray and `labgpu watch` share
one lock), and each recovery is claimed once in the database, so no notice is recovered twice."""

from __future__ import annotations

import logging
import threading
from datetime import datetime
from typing import Any

from .lock import WatchLock
from .parts import WatcherBase

log = logging.getLogger("app.watch.watcher")


class RecoveryWatch(WatcherBase):
    """A mixin of Watcher: it uses the Watcher's store, lock, clock and events."""

    lock: WatchLock
    _closed: threading.Event

    def init_recovery(self) -> None:
        self._recovering: dict[str, threading.Thread] = {}
        self._recoveries_resumed = False

    def recovery(self) -> Any:
        """The journey's context, with this watcher's events, clock and SSH."""
        from app.core.settings import SettingsStore
        from app.usecases.guards import connect_target
        from app.usecases.spotrecovery import Recovery

        def say(target: str, kind: str, template: str, params: dict[str, Any]) -> None:
            self._event(self.clock(), target, kind, template, params)

        return Recovery(self.paths, self.store, say, lambda target: connect_target(self.paths, target)(),
                        settings=SettingsStore(self.paths).load(), clock=self.clock, sleep=self.sleep,
                        stopping=self._closed.is_set)

    def _acting(self) -> bool:
        if self.lock.acquire():
            return True
        log.info("spot recovery left to the watcher that holds the watch lock")
        return False

    def _start(self, key: str, work: Any) -> threading.Thread | None:
        with self._mutex:
            running = self._recovering.get(key)
            if running is not None and running.is_alive():
                log.info("recovery of %s still runs; not started twice", key)
                return None

            def guarded() -> None:
                try:
                    work()
                except Exception:  # noqa: BLE001 - a recovery's bug must not end the watcher; it stays stored
                    log.exception("recovery of %s failed", key)

            t = threading.Thread(target=guarded, name=f"labgpu-recovery-{key}", daemon=True)
            self._recovering[key] = t
            self._sync_threads.append(t)  # close() waits for it
            t.start()
            return t

    def start_recovery(self, target_id: str, notice_time: datetime, wait: bool = False) -> threading.Thread | None:
        """A reclaim notice: the recovery of ``target_id`` (when a policy applies) on its own thread."""
        if not self._acting():
            return None
        t = self._start(target_id, lambda: self.recovery().on_notice(target_id, notice_time))
        if wait and t is not None:
            t.join()
        return t

    def resume_recoveries(self, wait: bool = False) -> list[threading.Thread]:
        """Once per watcher: go on with the recoveries a previous watcher left unfinished."""
        if self._recoveries_resumed or not self._acting():
            return []
        self._recoveries_resumed = True
        from app.core.recoverypolicy import RecoveryProgressStore

        started = []
        for rec in RecoveryProgressStore(self.store).unfinished():
            log.info("recovery of %s goes on from %s", rec.instance_id, rec.step)
            t = self._start(rec.instance_id, lambda r=rec: self.recovery().run(r))
            if t is not None:
                started.append(t)
        if wait:
            for t in started:
                t.join()
        return started
