"""One run across instances: a spot instance reclaimed and relaunched is still one piece of work.

A *run* links instances in order: the first one launched, then each instance that was launched to go
on after the one before it was reclaimed (``reason``: :data:`REASON_RELAUNCHED`). Its cost is the sum
of its instances' costs under the one billing rule (each instance's ``InstanceCost.so_far``, i.e. the
ledger's billed segments, minimums applied: :mod:`app.usecases.costs`), summed in CNY and USD with the
shown rate by :func:`app.core.costs.totals`; an instance whose price is unknown is named, never summed as
0. An instance belongs to one run at most. Runs are kept in the store (feature ``runs``).

Contract (spot recovery links, ``labgpu cost``, the monthly report and the instances page read):
    runs = RunStore(store)
    run = runs.link(old_provider, old_id, new_provider, new_id)  # → Run (idempotent)
    runs.run_of(instance_id) / runs.get(run_id) / runs.all() / runs.by_instance()
    run_cost(run, costs)  # costs: InstanceCost of (at least) its members → RunCost
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .costs import CostTotals, InstanceCost, totals
from .currency import ExchangeRate
from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP, translate
from .ledgerdb import iso, utc
from .store import Store, register_schema

register_schema(
    "runs",
    [
        """
    CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL
    );
    CREATE TABLE run_members (
        run_id TEXT NOT NULL,
        provider TEXT NOT NULL,
        instance_id TEXT NOT NULL,
        position INTEGER NOT NULL,
        reason TEXT NOT NULL DEFAULT '',
        linked_at TEXT NOT NULL,
        PRIMARY KEY (provider, instance_id)
    );
    CREATE INDEX run_members_run ON run_members(run_id, position);
    """,
    ],
)

REASON_FIRST = "launched"  # the run's first instance
REASON_RELAUNCHED = "relaunched"  # launched after the one before it was reclaimed
MAX_ID = 64  # characters of a cloud's id stored and shown

_REASONS = {
    REASON_FIRST: QT_TRANSLATE_NOOP("LabGPU", "launched"),
    REASON_RELAUNCHED: QT_TRANSLATE_NOOP("LabGPU", "reclaimed → relaunched"),
}
MSG_RUN_LINE = QT_TRANSLATE_NOOP("LabGPU", "Run {run}: {instances}")
MSG_IN_OTHER_RUN = QT_TRANSLATE_NOOP("LabGPU", "{id} is already part of run {run}.")
HINT_IN_OTHER_RUN = QT_TRANSLATE_NOOP("LabGPU", "An instance belongs to one run only; see `labgpu cost`.")
MSG_SAME_INSTANCE = QT_TRANSLATE_NOOP("LabGPU", "An instance cannot follow itself in a run ({id}).")
HINT_SAME_INSTANCE = QT_TRANSLATE_NOOP("LabGPU", "Link the reclaimed instance to the new one.")


def reason_text(reason: str) -> str:
    """A member's reason in the user's language ('reclaimed → relaunched')."""
    src = _REASONS.get(reason)
    return translate(src) if src else reason[:MAX_ID]


@dataclass(frozen=True)
class RunMember:
    provider: str
    instance_id: str
    position: int  # 0: the first instance
    reason: str  # REASON_FIRST or REASON_RELAUNCHED
    linked_at: datetime


@dataclass(frozen=True)
class Run:
    id: str
    created_at: datetime
    members: tuple[RunMember, ...]  # in order: the first instance, then each relaunch

    @property
    def instance_ids(self) -> tuple[str, ...]:
        return tuple(m.instance_id for m in self.members)

    @property
    def latest(self) -> RunMember:
        return self.members[-1]

    def text(self) -> str:
        """'Run run-1a2b3c4d: ins-old → ins-new' in the user's language."""
        return translate(MSG_RUN_LINE).format(run=self.id, instances=" → ".join(self.instance_ids))

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "created_at": iso(self.created_at),
                "instances": [{"id": m.instance_id, "provider": m.provider, "position": m.position,
                               "reason": m.reason, "linked_at": iso(m.linked_at)} for m in self.members]}


@dataclass(frozen=True)
class RunCost:
    """What a run cost: its members' costs (in the run's order; a member the costs did not hold is
    ``missing``) and their totals (CNY and USD; ``totals.unknown``: members whose price is unknown)."""

    run: Run
    members: tuple[InstanceCost, ...]
    missing: tuple[str, ...]  # members with no cost given (not in the ledger): named, not summed
    totals: CostTotals

    @property
    def unknown(self) -> tuple[str, ...]:
        return self.totals.unknown + self.missing

    def so_far(self, currency: str) -> float:
        return self.totals.so_far_usd if currency.upper() == "USD" else self.totals.so_far_cny

    def to_json(self) -> dict[str, Any]:
        return {**self.run.to_json(), "so_far_cny": round(self.totals.so_far_cny, 6),
                "so_far_usd": round(self.totals.so_far_usd, 6), "unknown": list(self.unknown),
                "member_costs": [{"id": c.id, "currency": c.currency, "so_far": c.so_far,
                                  "so_far_cny": c.so_far_cny, "so_far_usd": c.so_far_usd} for c in self.members]}


def run_cost(run: Run, costs: Iterable[InstanceCost] | Mapping[str, InstanceCost],
             rate: ExchangeRate | None = None) -> RunCost:
    """The run's cost: the sum of its members' costs (the one billing rule's ``InstanceCost``)."""
    by_id = dict(costs) if isinstance(costs, Mapping) else {c.id: c for c in costs}
    found = [by_id[i] for i in run.instance_ids if i in by_id]
    missing = tuple(i for i in run.instance_ids if i not in by_id)
    return RunCost(run, tuple(found), missing, totals(found, rate))


class RunStore:
    def __init__(self, store: Store) -> None:
        self.store = store
        store.migrate()  # this module may be imported after the store was opened (cheap when done)

    def _read(self, run_id: str | None = None) -> list[Run]:
        rows = self.store.query(
            "SELECT r.run_id, r.created_at, m.provider, m.instance_id, m.position, m.reason, m.linked_at"
            " FROM runs r JOIN run_members m ON m.run_id = r.run_id WHERE ? IS NULL OR r.run_id = ?"
            " ORDER BY r.created_at, r.run_id, m.position", (run_id, run_id))
        runs: dict[str, tuple[datetime, list[RunMember]]] = {}
        for r in rows:
            created = utc(datetime.fromisoformat(r["created_at"]))
            members = runs.setdefault(str(r["run_id"]), (created, []))[1]
            members.append(RunMember(str(r["provider"]), str(r["instance_id"]), int(r["position"]),
                                     str(r["reason"]), utc(datetime.fromisoformat(r["linked_at"]))))
        return [Run(rid, created, tuple(members)) for rid, (created, members) in runs.items()]

    def all(self) -> list[Run]:
        """Every run, oldest first (a run has two or more instances)."""
        return self._read()

    def get(self, run_id: str) -> Run | None:
        found = self._read(run_id)
        return found[0] if found else None

    def run_of(self, instance_id: str, provider: str | None = None) -> Run | None:
        sql, params = "SELECT run_id FROM run_members WHERE instance_id=?", [instance_id]
        if provider:
            sql += " AND provider=?"
            params.append(provider)
        rows = self.store.query(sql, params)
        return self.get(str(rows[0]["run_id"])) if rows else None

    def by_instance(self) -> dict[str, Run]:
        """instance id → its run, for every instance in a run."""
        return {m.instance_id: run for run in self.all() for m in run.members}

    def link(self, old_provider: str, old_id: str, new_provider: str, new_id: str,
             reason: str = REASON_RELAUNCHED, now: datetime | None = None) -> Run:
        """The instance ``new_id`` goes on where ``old_id`` (reclaimed) stopped: appended to the old
        one's run (a run is made when the old one has none). Linking the same pair again changes
        nothing; a new instance already in another run is refused (InputError)."""
        old_id, new_id = old_id[:MAX_ID], new_id[:MAX_ID]
        if (old_provider, old_id) == (new_provider, new_id):
            raise InputError(MSG_SAME_INSTANCE, HINT_SAME_INSTANCE, code="RunSelfLink", id=new_id)
        when = iso(utc(now))
        with self.store.transaction() as conn:
            def run_id_of(provider: str, iid: str) -> str | None:
                row = conn.execute("SELECT run_id FROM run_members WHERE provider=? AND instance_id=?",
                                   (provider, iid)).fetchone()
                return None if row is None else str(row[0])

            run_id = run_id_of(old_provider, old_id)
            taken = run_id_of(new_provider, new_id)
            if taken is not None and taken != run_id:
                raise InputError(MSG_IN_OTHER_RUN, HINT_IN_OTHER_RUN, code="InstanceInOtherRun", id=new_id,
                                 run=taken)
            if run_id is None:
                run_id = f"run-{uuid.uuid4().hex[:8]}"
                conn.execute("INSERT INTO runs(run_id, created_at) VALUES(?,?)", (run_id, when))
                conn.execute("INSERT INTO run_members(run_id, provider, instance_id, position, reason, linked_at)"
                             " VALUES(?,?,?,0,?,?)", (run_id, old_provider, old_id, REASON_FIRST, when))
            if taken is None:
                last = conn.execute("SELECT MAX(position) FROM run_members WHERE run_id=?", (run_id,)).fetchone()[0]
                conn.execute("INSERT INTO run_members(run_id, provider, instance_id, position, reason, linked_at)"
                             " VALUES(?,?,?,?,?,?)", (run_id, new_provider, new_id, int(last) + 1, reason, when))
        run = self.get(run_id)
        assert run is not None
        return run


__all__ = ["REASON_FIRST", "REASON_RELAUNCHED", "Run", "RunCost", "RunMember", "RunStore", "reason_text",
           "run_cost"]
