"""The watcher reads the SSH logins of the hosts it watches (app/usecases/logins.py), every
``LoginSettings.check_minutes`` (5) per host, so an unusual login or a burst of failed ones reaches the
tray, the notification channels and the audit log while the student is away.

Which hosts: those with a guard, the running instances LabGPU launched, and every host whose logins were
read once (the Hosts page's "Recent logins" or ``labgpu logins``). The watcher's loop calls :func:`poll`
once per pass; it never blocks: a due host's check runs on a daemon thread of its own, one at a time per
host; a host that cannot be reached is tried again at its next turn (said in the log, not as an alert).
Each alert is a watcher event (``login-unusual`` / ``login-failures``) published through ``emit`` once.
"""

from __future__ import annotations

import logging
import threading
import weakref
from datetime import datetime, timezone
from typing import Any

from app.core.guards import GuardEvent

log = logging.getLogger(__name__)

POLL_S = 15.0  # how often the due hosts are looked for (each host's own turn is check_minutes)


class LoginDriver:
    def __init__(self, watcher: Any) -> None:
        self.watcher = watcher
        self._flight: set[str] = set()
        self._due: dict[str, float] = {}  # host → the watcher-clock time of its next check
        self._cond = threading.Condition()
        self._last = -1e18
        self.checks = 0  # finished checks (tests wait on it, never sleep)
        self.failures: dict[str, str] = {}  # host → why its last check failed ("" = it worked)

    def hosts(self) -> list[str]:
        from app.core.hosts import instance_hosts
        from app.core.loginstore import LoginStore

        w = self.watcher
        names = set(w.guards.all())
        names.update(h.name for h in instance_hosts(w.paths, w.store))
        names.update(LoginStore(w.store).hosts())
        return sorted(names)

    def poll(self) -> list[str]:
        """Start a check for each host whose turn it is and that is not being checked (their names)."""
        w = self.watcher
        now = w.clock()
        if now - self._last < POLL_S:
            return []
        self._last = now
        from app.usecases.logins import settings_of

        settings = settings_of(w.paths)
        if not settings.watch:
            return []
        period = settings.check_minutes * 60.0
        started = []
        with self._cond:
            for host in self.hosts():
                if host in self._flight or self._due.get(host, -1e18) > now:
                    continue
                self._due[host] = now + period
                self._flight.add(host)
                started.append(host)
        for host in started:
            th = threading.Thread(target=self._check, args=(host, settings), name=f"logins-{host}", daemon=True)
            with w._mutex:
                w._sync_threads[:] = [x for x in w._sync_threads if x.is_alive()]
                w._sync_threads.append(th)  # close() waits for it
            th.start()
        return started

    def _alert(self, kind: str, host: str, params: dict[str, Any], message: str) -> None:
        t = datetime.fromtimestamp(self.watcher.clock(), timezone.utc)
        self.watcher.emit(GuardEvent(t, host, kind, message, dict(params)))

    def _check(self, host: str, settings: Any) -> None:
        from app.core.errors import LabGpuError
        from app.core.store import Store
        from app.usecases.logins import check_host

        w = self.watcher
        store = Store(paths=w.paths)  # this thread's own connection to the database
        try:
            check_host(w.paths, store, host, alert=self._alert, settings=settings, now=w.clock())
            self.failures[host] = ""
        except LabGpuError as exc:
            self.failures[host] = exc.one_line()
            log.info("logins of %s not read: %s", host, exc.one_line())
        except Exception as exc:  # noqa: BLE001 - one host's trouble never stops the guards; said in the log
            self.failures[host] = type(exc).__name__
            log.exception("logins of %s: check failed", host)
        finally:
            store.close()
            with self._cond:
                self._flight.discard(host)
                self.checks += 1
                self._cond.notify_all()

    def wait_checks(self, count: int, timeout: float = 60.0) -> bool:
        """Until ``count`` checks have finished (tests; an upper bound, not a delay)."""
        with self._cond:
            return self._cond.wait_for(lambda: self.checks >= count and not self._flight, timeout)


_drivers: weakref.WeakKeyDictionary[Any, LoginDriver] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def driver_of(watcher: Any) -> LoginDriver:
    with _lock:
        d = _drivers.get(watcher)
        if d is None:
            d = _drivers[watcher] = LoginDriver(watcher)
        return d


def poll(watcher: Any) -> None:
    """Called once per pass of the watcher's loop: due hosts get their logins checked in the background."""
    try:
        driver_of(watcher).poll()
    except Exception:  # noqa: BLE001 - the guards go on whatever happens here
        log.exception("logins not polled")
