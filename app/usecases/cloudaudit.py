"""Cloud API calls LabGPU did not make: one account's event history (its spec's ``event_source``: CloudTrail,
CloudAudit, ActionTrail) read for every region it has instances in (the ledger) and its default region,
compared with LabGPU's audit log and the resources LabGPU manages; the foreign calls are alerted once.

    report = check_account(svc, "lab", since=now - timedelta(days=1))
    report.verdicts        # every event read, newest first, with by_labgpu / foreign / why
    report.foreign         # the foreign ones
    sent = alert_new(svc, report, notifier)   # notice + audit row for each foreign event not alerted before

The CLI (``labgpu audit --cloud``) and the audit dialog's "Cloud events" tab call these.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Protocol

from app.cloud.base import CloudEventReader, NotSupportedError
from app.cloud.launch import CloudService
from app.core import providers
from app.core.cloudevents import MAX_EVENTS, AlertedEvents, CloudEvent, ForeignCall, Verdict, classify, judge
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.providers import EventSourceDecl
from app.core.vocab import GuardEventKind

log = logging.getLogger(__name__)

NO_SOURCE = QT_TRANSLATE_NOOP("LabGPU", "{cloud} has no API call history LabGPU can read.")
NO_SOURCE_HINT = QT_TRANSLATE_NOOP("LabGPU", "Look at the account's operation log in the cloud console.")
ALERT_ACTION = "cloud-foreign-call"  # the audit log's action word for an alert sent


class Notifier(Protocol):
    def notify(self, kind: str, params: dict[str, Any], *, target: str, message: str = "") -> None: ...


@dataclass(frozen=True)
class CloudAuditReport:
    account: str
    provider: str
    source: EventSourceDecl
    since: datetime
    until: datetime
    regions: tuple[str, ...]
    verdicts: list[Verdict] = field(default_factory=list)  # every event read, newest first
    foreign: list[ForeignCall] = field(default_factory=list)  # the ones LabGPU did not make, and console logins
    truncated: bool = False  # MAX_EVENTS reached: older events were not read


def own_resources(svc: CloudService, account: str) -> tuple[set[str], set[str]]:
    """(resource ids, client tokens) LabGPU knows for ``account``: the ledger's instances and key pairs, and
    every resource its audit log names (the security groups and key pairs its launches made)."""
    ids: set[str] = set()
    tokens: set[str] = set()
    for entry in svc.ledger.list(account=account):
        ids.add(entry.id)
        if entry.key_name:
            ids.add(entry.key_name)
        if entry.client_token:
            tokens.add(entry.client_token)
    for row in svc.audit.list(limit=100_000, account=account):
        if row.action == "launch" and row.resource.startswith("lg-"):
            tokens.add(row.resource)
        ids.update(r.strip() for r in row.resource.split(",") if r.strip())
    return ids, tokens


def check_account(svc: CloudService, account_name: str, since: datetime, until: datetime | None = None,
                  progress: Callable[[str], None] | None = None) -> CloudAuditReport:
    """Read ``account_name``'s event history from ``since`` to ``until`` (now) in each region in use and
    judge every event. Raises the plugin's CloudErrors (a missing permission names the one to grant)."""
    account = svc.accounts.get(account_name)
    spec = providers.spec(account.provider)
    provider = svc.provider(account.provider)
    if spec.event_source is None or not isinstance(provider, CloudEventReader):
        raise NotSupportedError(NO_SOURCE, NO_SOURCE_HINT, code="NotSupported", provider=account.provider,
                                cloud=spec.name)
    source = spec.event_source
    end = (until or datetime.now(timezone.utc)).astimezone(timezone.utc)
    start = max(since.astimezone(timezone.utc), end - timedelta(days=source.max_days))
    regions = [account.region] + sorted({e.region for e in svc.ledger.list(account=account_name)} - {account.region})
    regions = [r for r in regions if r]
    creds = svc.accounts.credentials(account_name)
    events: list[CloudEvent] = []
    seen: set[str] = set()
    for region in regions:
        if progress is not None:
            progress(region)
        left = MAX_EVENTS - len(events)
        if left <= 0:
            break
        for ev in provider.lookup_events(account, creds, region, start, end, left):
            if ev.key not in seen:  # a global event (a console login) can come back in several regions
                seen.add(ev.key)
                events.append(ev)
    events.sort(key=lambda e: e.time, reverse=True)
    ids, tokens = own_resources(svc, account_name)
    entries = svc.audit.list(limit=100_000, account=account_name)
    return CloudAuditReport(account_name, account.provider, source, start, end, tuple(regions),
                            judge(events, entries, ids, tokens), classify(events, entries, ids, tokens),
                            truncated=len(events) >= MAX_EVENTS)


def notice_params(v: Verdict) -> dict[str, str]:
    """The CLOUD_FOREIGN notice's template fields (app/notify/events.py)."""
    ev = v.event
    return {"event": ev.name, "resource": v.resource or ", ".join(ev.resources[:3]) or "-",
            "time": ev.time.strftime("%Y-%m-%d %H:%M UTC"), "actor": ev.actor or "-", "source": ev.source_ip or "-"}


def alert_new(svc: CloudService, report: CloudAuditReport, notifier: Notifier | None) -> list[Verdict]:
    """Send a notice (kind cloud-foreign-call, target = the account) and write an audit row for each foreign
    event not alerted before; returns those alerted now."""
    book = AlertedEvents(svc.store)
    sent: list[Verdict] = []
    for v in reversed(report.foreign):  # oldest first
        if not book.first_time(report.account, v.event):
            continue
        params = notice_params(v)
        if notifier is not None:
            notifier.notify(str(GuardEventKind.CLOUD_FOREIGN), dict(params), target=report.account,
                            message=translate(v.why))
        svc.audit.record(account=report.account, provider=report.provider, action=ALERT_ACTION,
                         resource=params["resource"][:200], result="ok",
                         detail=f"{v.event.name} by {params['actor']} from {params['source']} at {params['time']}"
                                f" (request {v.event.request_id or '-'})")
        sent.append(v)
    return sent
