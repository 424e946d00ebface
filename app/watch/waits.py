"""The watcher drives the stored waits for a GPU (蹲卡, app/usecases/waitlaunch.py) that no other process
drives: a wait the launch dialog left to it, or one whose ``labgpu launch --wait`` was stopped or died, or
any wait still pending when the app, the tray or ``labgpu watch`` starts again.

The watcher's loop calls :func:`poll` once per pass (app/watch/watcher.py ``run()``); it never blocks:
each due wait takes one round on its own daemon thread (a launch can take minutes to come up), and a wait
already in a round is not started again. Exactly one watcher acts (the watch lock), and a wait held by a
foreground ``labgpu launch --wait`` is left to it (the wait's lease, app.core.launchwaits). The end of a
wait (landed, gave up) is published as a watcher event (``wait-landed`` / ``wait-gave-up``): the audit
log, the tray, and the notices away from the laptop, once.
"""

from __future__ import annotations

import logging
import threading
import weakref
from datetime import datetime, timezone
from typing import Any

from app.core.guards import GuardEvent

log = logging.getLogger(__name__)

POLL_S = 5.0  # how often the stored waits are looked at (a round itself is due on the wait's backoff)


class WaitDriver:
    def __init__(self, watcher: Any) -> None:
        self.watcher = watcher
        self._flight: set[str] = set()
        self._cond = threading.Condition()
        self._last = -1e18
        self._launcher: Any = None
        self.rounds = 0  # finished rounds (tests wait on it, never sleep)

    def launcher(self) -> Any:
        """One WaitLauncher per watcher (one lease owner), on the watcher's clock and store."""
        if self._launcher is None:
            from app.cloud.launch import CloudService
            from app.core.settings import SettingsStore
            from app.usecases.waitlaunch import WaitLauncher

            w = self.watcher
            self._launcher = WaitLauncher(CloudService(w.paths, w.store), SettingsStore(w.paths).load(),
                                          clock=w.clock, announce=self._announce)
        return self._launcher

    def _announce(self, kind: str, wid: str, text: str, params: dict[str, Any]) -> None:
        t = datetime.fromtimestamp(self.watcher.clock(), timezone.utc)
        self.watcher.emit(GuardEvent(t, wid, kind, text, dict(params)))

    def poll(self) -> list[str]:
        """Start a round for each wait that is due and not in a round here (returns their ids)."""
        now = self.watcher.clock()
        if now - self._last < POLL_S:
            return []
        self._last = now
        from app.core.launchwaits import LaunchWaits

        launcher = self.launcher()
        due = [w.id for w in LaunchWaits(self.watcher.store).waiting()
               if w.next_try <= now or w.deadline <= now]
        started = []
        with self._cond:
            for wid in due:
                if wid not in self._flight:
                    self._flight.add(wid)
                    started.append(wid)
        for wid in started:
            threading.Thread(target=self._round, args=(launcher, wid), name=f"wait-{wid}", daemon=True).start()
        return started

    def _round(self, launcher: Any, wid: str) -> None:
        try:
            out = launcher.step(wid)
            if out.acted:
                log.info("wait %s: %s", wid, out.wait.state)
        except Exception:  # noqa: BLE001 - one wait's trouble never stops the guards; said in the log
            log.exception("wait %s: round failed", wid)
        finally:
            with self._cond:
                self._flight.discard(wid)
                self.rounds += 1
                self._cond.notify_all()

    def wait_rounds(self, count: int, timeout: float = 60.0) -> bool:
        """Until ``count`` rounds have finished (tests; an upper bound, not a delay)."""
        with self._cond:
            return self._cond.wait_for(lambda: self.rounds >= count and not self._flight, timeout)


_drivers: weakref.WeakKeyDictionary[Any, WaitDriver] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def driver_of(watcher: Any) -> WaitDriver:
    with _lock:
        d = _drivers.get(watcher)
        if d is None:
            d = _drivers[watcher] = WaitDriver(watcher)
        return d


def poll(watcher: Any) -> None:
    """Called once per pass of the watcher's loop: due waits take a round in the background."""
    try:
        driver_of(watcher).poll()
    except Exception:  # noqa: BLE001 - the guards go on whatever happens here
        log.exception("waits not polled")
