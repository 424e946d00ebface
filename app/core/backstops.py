"""The cloud-enforced backstop of a maximum runtime: what a launch asked the cloud for and what the cloud
holds (read back after the launch), kept per instance so the guard badge says "enforced by the cloud"
only when the cloud accepted it.

A guard's ``max_hours`` set at launch is also handed to the cloud where its API allows (the plugins of
app/cloud say how: Tencent ``RunInstances.ActionTimer`` terminates at a time, Alibaba ``AutoReleaseTime``
releases at a time, AWS ``InstanceInitiatedShutdownBehavior`` with a shutdown scheduled at boot by the
user data), so the bill ends even when the laptop, the watcher and the on-instance watchdog are gone.
Pure Python; the table is a small SQLite one of its own (``cloud_backstops``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from . import providers
from .i18n import QT_TRANSLATE_NOOP, translate
from .store import Store, register_schema

# What the cloud does at the deadline (stored as this text).
TERMINATE = "terminate"  # Tencent's TerminateInstances timer, AWS on-demand: the OS shutdown terminates
RELEASE = "release"  # Alibaba's AutoReleaseTime
STOP = "stop"  # AWS spot (a persistent request): the OS shutdown stops it, its compute stops billing
ACTIONS = (TERMINATE, RELEASE, STOP)

register_schema(
    "backstops",
    [
        """
    CREATE TABLE cloud_backstops (
        instance_id TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        action TEXT NOT NULL,
        deadline TEXT NOT NULL DEFAULT '',
        accepted INTEGER NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        params TEXT NOT NULL DEFAULT '{}',
        hours REAL,
        checked_at TEXT NOT NULL
    );
    """,
    ],
)

MSG_NO_API = QT_TRANSLATE_NOOP("LabGPU", "{cloud} has no maximum runtime LabGPU can hand to it")
MSG_TOO_SOON = QT_TRANSLATE_NOOP(
    "LabGPU", "{cloud} takes a time at least {minutes} minutes ahead; {hours} h is sooner")
MSG_TOO_LATE = QT_TRANSLATE_NOOP("LabGPU", "{cloud} takes a time at most {years} years ahead")
MSG_REFUSED = QT_TRANSLATE_NOOP("LabGPU", "{cloud} refused it ({code}): {detail}")
MSG_NOT_HELD = QT_TRANSLATE_NOOP("LabGPU", "{cloud} does not hold it after the launch")
MSG_NOT_READ = QT_TRANSLATE_NOOP("LabGPU", "it could not be read back from {cloud}: {detail}")
MSG_ACTION = {
    TERMINATE: QT_TRANSLATE_NOOP("LabGPU", "terminate at {time}"),
    RELEASE: QT_TRANSLATE_NOOP("LabGPU", "release at {time}"),
    STOP: QT_TRANSLATE_NOOP("LabGPU", "stop at {time}"),
}
MSG_ENFORCED = QT_TRANSLATE_NOOP("LabGPU", "Maximum runtime enforced by the cloud: {what}.")
MSG_NOT_ENFORCED = QT_TRANSLATE_NOOP("LabGPU", "Maximum runtime not enforced by the cloud: {why}.")


@dataclass(frozen=True)
class BackstopPlan:
    """What a launch hands the cloud: at most ``hours`` of runtime, ending at ``deadline`` (UTC, in the
    cloud's clock frame, whole seconds)."""

    hours: float
    deadline: datetime

    @property
    def minutes(self) -> int:
        """Whole minutes of runtime (at least 1), for a shutdown scheduled on the instance."""
        return max(1, math.ceil(self.hours * 60 - 1e-9))


def plan_backstop(hours: float | None, now: datetime) -> BackstopPlan | None:
    """The backstop for a maximum runtime of ``hours`` from ``now`` (the cloud's time); None without one."""
    if hours is None or not math.isfinite(float(hours)) or float(hours) <= 0:
        return None
    start = now.astimezone(timezone.utc).replace(microsecond=0)
    return BackstopPlan(float(hours), start + timedelta(seconds=math.ceil(float(hours) * 3600)))


def iso_z(moment: datetime, *, whole_minute: bool = False) -> str:
    """``yyyy-MM-ddTHH:mm:ssZ`` in UTC; ``whole_minute`` rounds a time with seconds up to the next minute
    (seconds 00), for a cloud that rounds seconds down."""
    t = moment.astimezone(timezone.utc).replace(microsecond=0)
    if whole_minute and t.second:
        t = t.replace(second=0) + timedelta(minutes=1)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_utc(text: str) -> datetime | None:
    """A cloud's UTC time: ``2026-01-01T00:00:00Z``, ``…T00:00Z`` or ISO with an offset; None otherwise."""
    text = (text or "").strip()
    if not text:
        return None
    for fmt in ("%Y-%m-%dT%H:%M:%SZ", "%Y-%m-%dT%H:%MZ"):
        try:
            return datetime.strptime(text, fmt).replace(tzinfo=timezone.utc)
        except ValueError:
            pass
    try:
        got = datetime.fromisoformat(text)
    except ValueError:
        return None
    return got.astimezone(timezone.utc) if got.tzinfo is not None else None


@dataclass(frozen=True)
class BackstopReading:
    """What the cloud holds for an instance, as a plugin read it back (or why it holds nothing)."""

    accepted: bool
    action: str = TERMINATE  # one of ACTIONS
    deadline: datetime | None = None
    reason: str = ""  # a translation template when not accepted
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BackstopRecord:
    instance_id: str
    provider: str
    action: str
    deadline: datetime | None
    accepted: bool
    reason: str = ""  # a translation template (filled from params) when not accepted
    params: dict[str, Any] = field(default_factory=dict)
    hours: float | None = None
    checked_at: str = ""

    def to_json(self) -> dict[str, Any]:
        """For `labgpu launch --json`: enforced (the cloud accepted it), what it does and when, or why not."""
        return {"enforced_by_cloud": self.accepted, "action": self.action,
                "at": self.deadline.astimezone(timezone.utc).isoformat() if self.deadline else None,
                "reason": self.why(), "hours": self.hours}

    def what(self) -> str:
        """"terminate at 2026-12-05 14:00 UTC" (translated), or "" without a time."""
        if self.deadline is None:
            return ""
        when = self.deadline.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        return translate(MSG_ACTION.get(self.action, MSG_ACTION[TERMINATE])).format(time=when)

    def why(self) -> str:
        """Why it is not enforced (translated), "" when it is."""
        if self.accepted:
            return ""
        params = dict(self.params)
        if "cloud" in params:  # the cloud's name in the language shown now, not the one recorded
            params["cloud"] = providers.display_name(self.provider)
        try:
            return translate(self.reason).format(**params)
        except (KeyError, IndexError, ValueError):
            return translate(self.reason)

    def text(self) -> str:
        """One sentence: "Maximum runtime enforced by the cloud: terminate at …." or why it is not."""
        if self.accepted:
            return translate(MSG_ENFORCED).format(what=self.what())
        return translate(MSG_NOT_ENFORCED).format(why=self.why())


def record_of(instance_id: str, provider: str, hours: float | None, reading: BackstopReading,
              checked_at: datetime) -> BackstopRecord:
    return BackstopRecord(instance_id, provider, reading.action if reading.action in ACTIONS else TERMINATE,
                          reading.deadline, reading.accepted, "" if reading.accepted else reading.reason,
                          dict(reading.params), hours, checked_at.astimezone(timezone.utc).isoformat())


class BackstopStore:
    """Per instance: the backstop the cloud accepted (or why not), as last read back."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.migrate()  # cheap when done: a reader (the instances page) may come before any launch

    def save(self, rec: BackstopRecord) -> None:
        deadline = rec.deadline.astimezone(timezone.utc).isoformat() if rec.deadline else ""
        self.store.execute(
            "INSERT INTO cloud_backstops(instance_id, provider, action, deadline, accepted, reason, params, hours, "
            "checked_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(instance_id) DO UPDATE SET "
            "provider=excluded.provider, action=excluded.action, deadline=excluded.deadline, "
            "accepted=excluded.accepted, reason=excluded.reason, params=excluded.params, hours=excluded.hours, "
            "checked_at=excluded.checked_at",
            (rec.instance_id, rec.provider, rec.action, deadline, 1 if rec.accepted else 0, rec.reason,
             json.dumps({k: str(v) for k, v in rec.params.items()}, sort_keys=True), rec.hours, rec.checked_at),
        )

    def get(self, instance_id: str) -> BackstopRecord | None:
        rows = self.store.query("SELECT * FROM cloud_backstops WHERE instance_id=?", (instance_id,))
        return _row(rows[0]) if rows else None

    def all(self) -> dict[str, BackstopRecord]:
        out: dict[str, BackstopRecord] = {}
        for r in self.store.query("SELECT * FROM cloud_backstops ORDER BY instance_id"):
            rec = _row(r)
            if rec is not None:
                out[rec.instance_id] = rec
        return out

    def remove(self, instance_id: str) -> bool:
        return self.store.execute("DELETE FROM cloud_backstops WHERE instance_id=?", (instance_id,)).rowcount > 0


def _row(r: Any) -> BackstopRecord | None:
    try:
        params = json.loads(r["params"] or "{}")
        if not isinstance(params, dict):
            params = {}
        deadline = parse_utc(str(r["deadline"] or ""))
        return BackstopRecord(str(r["instance_id"]), str(r["provider"]), str(r["action"]), deadline,
                              bool(r["accepted"]), str(r["reason"] or ""), params,
                              None if r["hours"] is None else float(r["hours"]), str(r["checked_at"]))
    except (ValueError, TypeError, KeyError):
        return None  # a damaged row reads as no record: the badge then claims nothing
