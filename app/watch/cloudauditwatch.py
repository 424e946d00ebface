"""The watcher reads each cloud account's API call history (app/usecases/cloudaudit.py: CloudTrail,
CloudAudit, ActionTrail) every CHECK_S (15 minutes), so a call LabGPU did not make on its instances,
security groups or key pairs — or a console login — reaches the tray, the notification channels and the
audit log while the student is away.

Which accounts: those whose cloud declares an event source and that have an instance in the ledger that is
not terminated (an account with nothing running has nothing of LabGPU's to touch; ``labgpu audit --cloud``
and the audit dialog read any account on demand). The first check of an account in a watcher reads the
last LOOKBACK_S; later ones from the previous check less OVERLAP_S (the clouds deliver events minutes
late: CloudTrail "typically within 5 minutes", ActionTrail and CloudAudit similar). A window ends SETTLE_S
before the check: the watcher itself makes calls (a guard's stop, a job's terminate) that the cloud logs
before LabGPU's audit row, with the call's request id, is written on the answer — read in that moment, LabGPU's
own call looked foreign (seen in the suite); the next check's window, overlapping by OVERLAP_S, judges those
minutes. Each foreign event is alerted once (the use case's alerted-events table), as a watcher event through
``emit``.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

from app.core.guards import GuardEvent

from .rounds import KeyedRounds
from .rounds import driver_of as _driver_of
from .rounds import poll as _poll

CHECK_S = 15 * 60.0
LOOKBACK_S = 24 * 3600.0
OVERLAP_S = 30 * 60.0
SETTLE_S = 120.0  # a call in flight: logged by the cloud, its audit row not written yet (far more than a call takes)


class CloudAuditDriver(KeyedRounds):
    NAME = "cloud-audit"

    def __init__(self, watcher: Any) -> None:
        super().__init__(watcher)
        self._read_until: dict[str, float] = {}  # account → the end of its last window read

    def keys(self) -> list[str]:
        from app.core import providers
        from app.core.accounts import AccountBook
        from app.core.vocab import TERMINAL_STATES

        w = self.watcher
        active = {e.account for e in w.ledger.list(include_terminated=False) if e.state not in TERMINAL_STATES}
        out = []
        for acc in AccountBook(w.store).list():
            try:
                spec = providers.spec(acc.provider)
            except KeyError:
                continue
            if acc.name in active and spec.event_source is not None:
                out.append(acc.name)
        return sorted(out)

    def period_s(self) -> float | None:
        return CHECK_S

    def check(self, key: str) -> None:
        from app.cloud.launch import CloudService
        from app.core.store import Store
        from app.usecases.cloudaudit import alert_new, check_account

        w = self.watcher
        until = w.clock() - SETTLE_S
        since = self._read_until.get(key, until - LOOKBACK_S + OVERLAP_S) - OVERLAP_S
        store = Store(paths=w.paths)  # this thread's own connection to the database
        try:
            svc = CloudService(w.paths, store)
            report = check_account(svc, key, datetime.fromtimestamp(since, timezone.utc),
                                   datetime.fromtimestamp(until, timezone.utc))
            alert_new(svc, report, _Emit(self.watcher))
            self._read_until[key] = until
        finally:
            store.close()


class _Emit:
    """alert_new's notifier: each alert as a watcher event (tray, channels); the use case writes its audit row."""

    def __init__(self, watcher: Any) -> None:
        self.watcher = watcher

    def notify(self, kind: str, params: dict[str, Any], *, target: str, message: str = "") -> None:
        t = datetime.fromtimestamp(self.watcher.clock(), timezone.utc)
        self.watcher.emit(GuardEvent(t, target, kind, message, dict(params)), audit=False)


def driver_of(watcher: Any) -> CloudAuditDriver:
    return _driver_of(watcher, CloudAuditDriver)


def poll(watcher: Any) -> None:
    """Called once per pass of the watcher's loop: due accounts get their API call history read."""
    _poll(watcher, CloudAuditDriver)
