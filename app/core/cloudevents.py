"""A cloud's history of API calls on an account (AWS CloudTrail, Tencent CloudAudit, Alibaba Cloud
ActionTrail), compared with LabGPU's own audit log: which calls on LabGPU's instances, security groups
and key pairs LabGPU did not make, and which console logins happened.

Pure Python: the plugins read the events (``app/cloud/<name>/events.py``, the spec's
``EventSourceDecl``) and build ``CloudEvent``s with :func:`make_event`, which makes every text from the
cloud plain (control and bidi characters out) and caps it; the readers stop at ``MAX_PAGES`` pages and
``MAX_EVENTS`` events. :func:`classify` says for each event whether LabGPU made it and whether it is
foreign. ``AlertedEvents`` (table ``cloud_event_alerts``) remembers which foreign events were alerted.

Contract:
    ev = make_event(time=…, name="StopInstances", source="ec2.amazonaws.com", actor="arn:…", …)
    verdicts = judge(events, own_entries, own_resources, own_tokens)   # every event, with why
    foreign = classify(events, own_entries, own_resources)             # the foreign ones only
    AlertedEvents(store).first_time(account, key)  → True once per key
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

from .audit import AuditEntry
from .i18n import QT_TRANSLATE_NOOP
from .store import Store, register_schema

MAX_TEXT = 256  # one field (a name, an actor, an address)
MAX_RAW = 2000  # the event's summary kept for display
MAX_RESOURCES = 32  # resource ids kept per event
PAGE_LIMIT = 50  # events asked per page (CloudTrail, CloudAudit and ActionTrail all answer at most 50)
MAX_PAGES = 40  # pages read per region and request window
MAX_EVENTS = 2000  # events kept per check, all regions together

# Console sign-in events, foreign whatever they touch: AWS "ConsoleLogin" (CloudTrail's sign-in events,
# https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-aws-console-sign-in-events.html),
# Alibaba "ConsoleSignin" (alibabacloud_actiontrail20200706 LookupEventsRequestLookupAttribute's own example),
# Tencent "ConsoleLogin" (CloudAudit's console login event name).
CONSOLE_LOGINS = frozenset({"ConsoleLogin", "ConsoleSignin"})

WHY_CONSOLE = QT_TRANSLATE_NOOP("LabGPU", "a console login")
WHY_FOREIGN = QT_TRANSLATE_NOOP("LabGPU", "a change to a resource LabGPU manages that LabGPU did not make")
WHY_OWN = QT_TRANSLATE_NOOP("LabGPU", "made by LabGPU")
WHY_OTHER = QT_TRANSLATE_NOOP("LabGPU", "not on a resource LabGPU manages")
WHY_READ = QT_TRANSLATE_NOOP("LabGPU", "read-only")
# The keys may not read the event history (app/cloud/eventkit.py no_permission): the permission is named.
NO_PERMISSION = QT_TRANSLATE_NOOP(
    "LabGPU", "The keys of account '{account}' may not read {service} ({error_code}), so LabGPU cannot check "
              "which calls it did not make.")
NO_PERMISSION_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "In the cloud console, grant {permission} to the user of these keys, then run the check again.")


def plain(text: object, limit: int = MAX_TEXT) -> str:
    """Text from a cloud made plain: control, format (bidi overrides, zero-width) and separator characters
    become spaces, runs of spaces one, capped at ``limit`` characters (an ellipsis marks a cut)."""
    raw = str(text if text is not None else "")[: limit * 4]
    out: list[str] = []
    for ch in raw:
        cat = unicodedata.category(ch)
        out.append(" " if cat[0] in "CZ" else ch)
    cleaned = " ".join("".join(out).split())
    return cleaned if len(cleaned) <= limit else cleaned[: limit - 1] + "…"


@dataclass(frozen=True)
class CloudEvent:
    time: datetime  # UTC
    name: str  # "StopInstances", "ConsoleLogin"
    source: str  # the service: "ec2.amazonaws.com", "cvm.tencentcloudapi.com", "Ecs"
    actor: str  # the user: an ARN, a sub-account name, a principal id
    source_ip: str
    request_id: str
    resources: tuple[str, ...]
    read_only: bool
    client_token: str = ""
    event_id: str = ""
    region: str = ""
    raw: str = ""  # a capped, plain summary of the cloud's own record

    @property
    def key(self) -> str:
        """What identifies this event across reads (alerted once)."""
        return self.event_id or self.request_id or f"{self.time.isoformat()}|{self.name}|{self.actor}"


def _utc(when: datetime) -> datetime:
    return when.replace(tzinfo=timezone.utc) if when.tzinfo is None else when.astimezone(timezone.utc)


def make_event(*, time: datetime, name: object, source: object = "", actor: object = "", source_ip: object = "",
               request_id: object = "", resources: Iterable[object] = (), read_only: bool = False,
               client_token: object = "", event_id: object = "", region: object = "",
               raw: object = "") -> CloudEvent:
    """A CloudEvent from untrusted cloud text: every field plain and capped, at most MAX_RESOURCES ids."""
    ids: list[str] = []
    for item in resources:
        rid = plain(item, MAX_TEXT)
        if rid and rid not in ids:
            ids.append(rid)
        if len(ids) >= MAX_RESOURCES:
            break
    return CloudEvent(
        time=_utc(time), name=plain(name, 128), source=plain(source, 128), actor=plain(actor),
        source_ip=plain(source_ip, 64), request_id=plain(request_id, 128), resources=tuple(ids),
        read_only=bool(read_only), client_token=plain(client_token, 128), event_id=plain(event_id, 128),
        region=plain(region, 64), raw=plain(raw, MAX_RAW),
    )


@dataclass(frozen=True)
class Verdict:
    event: CloudEvent
    by_labgpu: bool
    foreign: bool
    why: str  # a QT_TRANSLATE_NOOP template (WHY_*)
    resource: str = ""  # the resource of LabGPU's it touched ("" for a console login)


ForeignCall = Verdict  # a Verdict with foreign=True


def own_request_ids(entries: Sequence[AuditEntry]) -> set[str]:
    return {e.request_id for e in entries if e.request_id}


def token_matches(token: str, own_tokens: Iterable[str]) -> bool:
    """A client token LabGPU sent: a launch's token, or one of its zone attempts (``token~N``)."""
    if not token:
        return False
    base = token.split("~", 1)[0]
    return any(t and (token == t or base == t) for t in own_tokens)


def judge(events: Iterable[CloudEvent], own_entries: Sequence[AuditEntry], own_resources: set[str],
          own_tokens: Iterable[str] = ()) -> list[Verdict]:
    """Each event with its verdict: a console login is foreign always; a write call LabGPU's audit log has
    (by request id, or by the client token it sent) is LabGPU's; any other write call on one of LabGPU's
    resources is foreign; read-only events and calls on other resources are neither."""
    rids = own_request_ids(own_entries)
    tokens = tuple(own_tokens)
    out: list[Verdict] = []
    for ev in events:
        if ev.name in CONSOLE_LOGINS:
            out.append(Verdict(ev, False, True, WHY_CONSOLE))
            continue
        if ev.read_only:
            out.append(Verdict(ev, False, False, WHY_READ))
            continue
        hit = next((r for r in ev.resources if r in own_resources), "")
        if (ev.request_id and ev.request_id in rids) or token_matches(ev.client_token, tokens):
            out.append(Verdict(ev, True, False, WHY_OWN, hit))
        elif hit:
            out.append(Verdict(ev, False, True, WHY_FOREIGN, hit))
        else:
            out.append(Verdict(ev, False, False, WHY_OTHER))
    return out


def classify(events: Iterable[CloudEvent], own_entries: Sequence[AuditEntry], own_resources: set[str],
             own_tokens: Iterable[str] = ()) -> list[ForeignCall]:
    """The foreign calls among ``events`` (see :func:`judge`)."""
    return [v for v in judge(events, own_entries, own_resources, own_tokens) if v.foreign]


register_schema(
    "cloudevents",
    [
        """
    CREATE TABLE cloud_event_alerts (
        account TEXT NOT NULL,
        event_key TEXT NOT NULL,
        event_time TEXT NOT NULL,
        alerted_at TEXT NOT NULL,
        PRIMARY KEY (account, event_key)
    );
    """,
    ],
)


class AlertedEvents:
    """Which foreign events were already alerted, per account: each is alerted once."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def first_time(self, account: str, event: CloudEvent, now: datetime | None = None) -> bool:
        """Record ``event`` as alerted; True only the first time."""
        cur = self.store.execute(
            "INSERT OR IGNORE INTO cloud_event_alerts(account, event_key, event_time, alerted_at)"
            " VALUES(?,?,?,?)",
            (account, event.key[:300], event.time.isoformat(),
             (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")),
        )
        return bool(cur.rowcount)
