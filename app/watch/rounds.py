"""Checks the watcher runs per key (a host, an account) on a period of its own, in the background.

The watcher's loop calls :meth:`KeyedRounds.poll` once per pass; it never blocks: each key whose turn has come
(on the watcher's clock, so tests use a fake one) gets a check on a daemon thread of its own, one at a time
per key, registered with the watcher so ``close()`` waits for it. A failing check is said in the log and
kept in ``failures``; the key's next turn tries again. Subclasses say which keys, how often and what a check
does (app/watch/loginwatch.py: SSH logins per host; app/watch/cloudauditwatch.py: API calls per account).
"""

from __future__ import annotations

import logging
import threading
import weakref
from typing import Any, TypeVar

log = logging.getLogger(__name__)

R = TypeVar("R", bound="KeyedRounds")


class KeyedRounds:
    POLL_S = 15.0  # how often the due keys are looked for
    NAME = "rounds"

    def __init__(self, watcher: Any) -> None:
        self.watcher = watcher
        self._flight: set[str] = set()
        self._due: dict[str, float] = {}  # key → the watcher-clock time of its next check
        self._cond = threading.Condition()
        self._last = -1e18
        self.checks = 0  # finished checks (tests wait on it, never sleep)
        self.failures: dict[str, str] = {}  # key → why its last check failed ("" = it worked)

    # what a subclass says ------------------------------------------------------------------------------
    def keys(self) -> list[str]:
        raise NotImplementedError

    def period_s(self) -> float | None:
        """Seconds between two checks of one key; None: not now (switched off)."""
        raise NotImplementedError

    def check(self, key: str) -> None:
        raise NotImplementedError

    # the rounds ----------------------------------------------------------------------------------------
    def poll(self) -> list[str]:
        """Start a check for each key whose turn it is and that is not being checked (the keys started)."""
        w = self.watcher
        now = w.clock()
        if now - self._last < self.POLL_S:
            return []
        self._last = now
        period = self.period_s()
        if period is None:
            return []
        started = []
        with self._cond:
            for key in self.keys():
                if key in self._flight or self._due.get(key, -1e18) > now:
                    continue
                self._due[key] = now + period
                self._flight.add(key)
                started.append(key)
        for key in started:
            th = threading.Thread(target=self._run, args=(key,), name=f"{self.NAME}-{key}", daemon=True)
            with w._mutex:
                w._sync_threads[:] = [x for x in w._sync_threads if x.is_alive()]
                w._sync_threads.append(th)  # close() waits for it
            th.start()
        return started

    def _run(self, key: str) -> None:
        from app.core.errors import LabGpuError

        try:
            self.check(key)
            self.failures[key] = ""
        except LabGpuError as exc:
            self.failures[key] = exc.one_line()
            log.info("%s of %s: %s", self.NAME, key, exc.one_line())
        except Exception as exc:  # noqa: BLE001 - one key's trouble never stops the guards; said in the log
            self.failures[key] = type(exc).__name__
            log.exception("%s of %s: check failed", self.NAME, key)
        finally:
            with self._cond:
                self._flight.discard(key)
                self.checks += 1
                self._cond.notify_all()

    def wait_checks(self, count: int, timeout: float = 60.0) -> bool:
        """Until ``count`` checks have finished (tests; an upper bound, not a delay)."""
        with self._cond:
            return self._cond.wait_for(lambda: self.checks >= count and not self._flight, timeout)


_drivers: weakref.WeakKeyDictionary[Any, dict[type, KeyedRounds]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def driver_of(watcher: Any, cls: type[R]) -> R:
    with _lock:
        mine = _drivers.setdefault(watcher, {})
        d = mine.get(cls)
        if d is None:
            d = mine[cls] = cls(watcher)
        assert isinstance(d, cls)
        return d


def poll(watcher: Any, cls: type[KeyedRounds]) -> None:
    """Called once per pass of the watcher's loop."""
    try:
        driver_of(watcher, cls).poll()
    except Exception:  # noqa: BLE001 - the guards go on whatever happens here
        log.exception("%s not polled", cls.NAME)
