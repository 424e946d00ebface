"""The watcher reads the SSH logins of the hosts it watches (app/usecases/logins.py), every
``LoginSettings.check_minutes`` (5) per host, so an unusual login or a burst of failed ones reaches the
tray, the notification channels and the audit log while the student is away.

Which hosts: those with a guard, the running instances LabGPU launched, and every host whose logins were
read once (the Hosts page's "Recent logins" or ``labgpu logins``). Each host's check runs in the background
(app/watch/rounds.py); a host that cannot be reached is tried again at its next turn (said in the log, not
as an alert). Each alert is a watcher event (``login-unusual`` / ``login-failures``) published through
``emit`` once.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from app.core.guards import GuardEvent

from .rounds import KeyedRounds
from .rounds import driver_of as _driver_of
from .rounds import poll as _poll


class LoginDriver(KeyedRounds):
    NAME = "logins"
    _settings: Any = None  # the LoginSettings read by the last period_s()

    def keys(self) -> list[str]:
        from app.core.hosts import instance_hosts
        from app.core.loginstore import LoginStore

        w = self.watcher
        names = set(w.guards.all())
        names.update(h.name for h in instance_hosts(w.paths, w.store))
        names.update(LoginStore(w.store).hosts())
        return sorted(names)

    def period_s(self) -> float | None:
        from app.usecases.logins import settings_of

        self._settings = settings_of(self.watcher.paths)
        return self._settings.check_minutes * 60.0 if self._settings.watch else None

    def _alert(self, kind: str, host: str, params: dict[str, Any], message: str) -> None:
        t = datetime.fromtimestamp(self.watcher.clock(), timezone.utc)
        self.watcher.emit(GuardEvent(t, host, kind, message, dict(params)))

    def check(self, key: str) -> None:
        from app.core.store import Store
        from app.usecases.logins import check_host

        w = self.watcher
        store = Store(paths=w.paths)  # this thread's own connection to the database
        try:
            check_host(w.paths, store, key, alert=self._alert, settings=self._settings, now=w.clock())
        finally:
            store.close()


def driver_of(watcher: Any) -> LoginDriver:
    return _driver_of(watcher, LoginDriver)


def poll(watcher: Any) -> None:
    """Called once per pass of the watcher's loop: due hosts get their logins checked in the background."""
    _poll(watcher, LoginDriver)
