"""The instances ledger: every LabGPU instance on every account, as last seen, with what it costs.

Nothing billing may be unknown to the app, so the ledger is written *before* and *after* each
launch (see ``PendingLaunches``) and reconciled with each cloud at start and periodically. An
instance the cloud no longer lists is marked terminated ("gone"), never silently dropped. Each
stretch of time an instance spent running is a billing segment; cost so far is the sum of
``app.core.costs.running_cost`` over the segments (AWS: 60 s minimum per start).

Time: every time is kept in the cloud's frame (``app.core.ledgerdb.CLOCK``: the clouds'
``Date`` headers run forward on a monotonic clock). A run starts at the cloud's own start time where
the cloud says it (AWS ``LaunchTime``, Alibaba ``StartTime``, Tencent ``CreatedTime`` of a never
restarted instance), else at the cloud's time of the answer that first showed it running; it ends at
the cloud's time of the answer (or LabGPU's stop call) that showed it stopped. ``now`` arguments are
the laptop's times (what ``time.time()`` says, maybe off) and are moved into the cloud's frame; the
datetimes of a ``LedgerEntry`` are moved back into the laptop's frame, so ``uptime_s`` and
``cost_so_far`` are the cloud's while ``started_at`` still compares with the app's other times.

Contract (used by app.cloud.launch, the CLI and the instances page):
    ledger = Ledger(store)
    ledger.observe(instance, price_per_hour=0.526, currency="USD", client_token="…")  # → LedgerEntry
    ledger.mark_state(provider, instance_id, InstanceState.STOPPED)
    ledger.get(instance_id) / ledger.list(include_terminated=True)
    ledger.reconcile(accounts, list_fn, price_fn=None)  # → ReconcileResult(entries, errors)
    PendingLaunches(store).begin(...) / .finish(token, instance_id) / .fail(token, reason) / .open()
``instance`` is any object with the attributes of ``app.cloud.base.Instance`` (core does not import it).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from . import vocab
from .ledgerdb import CLOCK, CloudClock, from_iso, iso, segment_cost, utc
from .models import Instance
from .monthreport import MonthLine, month_bounds, month_report
from .pendinglaunches import PendingLaunch, PendingLaunches
from .store import Store

log = logging.getLogger(__name__)

TERMINAL_STATES = vocab.TERMINAL_STATES
IDLE_STATES = vocab.IDLE_STATES  # stopped (without charging), or isolated by the cloud (restorable)
RUNNING_STATES = vocab.RUNNING_STATES  # billed compute time; a stop that keeps charging bills as if it ran
GONE_GRACE_S = 120.0  # a just-launched instance may not be listed yet (eventual consistency)


# What the ledger records: a cloud's view of one instance (providers return it).
InstanceLike = Instance


@dataclass(frozen=True)
class LedgerEntry:
    id: str
    account: str
    provider: str
    region: str
    zone: str
    instance_type: str
    state: str
    raw_state: str
    spot: bool
    public_ip: str
    private_ip: str
    price_per_hour: float | None
    currency: str
    price_source: str
    launched_at: datetime | None
    first_seen: datetime
    last_seen: datetime
    ended_at: datetime | None
    name: str
    image_id: str
    key_name: str
    client_token: str
    tags: dict[str, str] = field(default_factory=dict)
    started_at: datetime | None = None  # start of the current (or last) running stretch
    cost_so_far: float | None = None  # in `currency`, billing minimums applied; None = price unknown
    uptime_s: float = 0.0  # running time of the current stretch (0 when not running)

    @property
    def billing(self) -> bool:
        return self.state not in TERMINAL_STATES and self.state not in IDLE_STATES

    def to_json(self) -> dict[str, Any]:
        """What `labgpu ls --json` prints and scripts rely on."""
        return {
            "id": self.id,
            "account": self.account,
            "provider": self.provider,
            "region": self.region,
            "instance_type": self.instance_type,
            "zone": self.zone,
            "state": self.state,
            "raw_state": self.raw_state,
            "spot": self.spot,
            "public_ip": self.public_ip or None,
            "private_ip": self.private_ip or None,
            "price_per_hour": self.price_per_hour,
            "currency": self.currency,
            "price_source": self.price_source,
            "started_at": iso(self.started_at),
            "launched_at": iso(self.launched_at),
            "uptime_s": round(self.uptime_s, 1),
            "cost_so_far": None if self.cost_so_far is None else round(self.cost_so_far, 6),
            "first_seen": iso(self.first_seen),
            "last_seen": iso(self.last_seen),
            "ended_at": iso(self.ended_at),
            "name": self.name,
            "image_id": self.image_id,
            "key_name": self.key_name,
            "client_token": self.client_token,
        }


@dataclass(frozen=True)
class ReconcileResult:
    entries: list[LedgerEntry]
    errors: dict[str, Exception]  # account name → why its cloud could not be asked (ledger kept as is)
    gone: list[str] = field(default_factory=list)  # ids the cloud no longer lists (now marked terminated)
    accounts: int = -1  # how many accounts were asked (-1: not said); 0 = nothing was checked


class Ledger:
    def __init__(self, store: Store, clock: CloudClock | None = None) -> None:
        self.store = store
        self.clock = clock or CLOCK
        self.clock.load(store)  # offsets another LabGPU process measured, for clouds not asked here yet

    def _cloud_now(self, provider: str, now: datetime | None) -> datetime:
        """A laptop time (None: now) in this provider's cloud frame, the frame the ledger stores."""
        return self.clock.to_cloud(provider, now)

    # -- reading ---------------------------------------------------------------------------------
    def _entry(self, row: Any, at: datetime | None) -> LedgerEntry:
        now = self._cloud_now(row["provider"], at)
        provider = str(row["provider"])

        def local(d: datetime | None) -> datetime | None:  # a stored (cloud-frame) time on the laptop's clock
            return self.clock.to_local(provider, d)

        segs = self.store.query(
            "SELECT started_at, ended_at FROM instance_segments WHERE provider=? AND id=?"
            " ORDER BY started_at",
            (row["provider"], row["id"]),
        )
        price = row["price_per_hour"]
        cost: float | None = 0.0 if price is not None else None
        started_at: datetime | None = None
        uptime = 0.0
        for seg in segs:
            start = from_iso(seg["started_at"])
            end = from_iso(seg["ended_at"])
            assert start is not None
            started_at = start
            if end is None:
                uptime = max(0.0, (now - start).total_seconds())
            if cost is not None:
                part = segment_cost(row["provider"], price, start, end or now)
                cost = None if part is None else cost + part
        if not segs:
            cost = 0.0 if price is not None else None
        return LedgerEntry(
            id=row["id"],
            account=row["account"],
            provider=row["provider"],
            region=row["region"],
            zone=row["zone"],
            instance_type=row["instance_type"],
            state=row["state"],
            raw_state=row["raw_state"],
            spot=bool(row["spot"]),
            public_ip=row["public_ip"],
            private_ip=row["private_ip"],
            price_per_hour=price,
            currency=row["currency"],
            price_source=row["price_source"],
            launched_at=local(from_iso(row["launched_at"])),
            first_seen=local(from_iso(row["first_seen"]) or now) or now,
            last_seen=local(from_iso(row["last_seen"]) or now) or now,
            ended_at=local(from_iso(row["ended_at"])),
            name=row["name"],
            image_id=row["image_id"],
            key_name=row["key_name"],
            client_token=row["client_token"],
            tags=json.loads(row["tags_json"] or "{}"),
            started_at=local(started_at),
            cost_so_far=cost,
            uptime_s=uptime,
        )

    def get(
        self, instance_id: str, provider: str | None = None, now: datetime | None = None
    ) -> LedgerEntry | None:
        sql = "SELECT * FROM instance_ledger WHERE id=?"
        params: list[Any] = [instance_id]
        if provider:
            sql += " AND provider=?"
            params.append(provider)
        rows = self.store.query(sql, params)
        return self._entry(rows[0], now) if rows else None

    def list(
        self, include_terminated: bool = True, account: str | None = None, now: datetime | None = None
    ) -> list[LedgerEntry]:
        sql = "SELECT * FROM instance_ledger"
        clauses, params = [], []
        if not include_terminated:
            clauses.append("state NOT IN ('terminated', 'failed')")
        if account is not None:
            clauses.append("account=?")
            params.append(account)
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        sql += " ORDER BY first_seen DESC, id"
        t = utc(now)  # one laptop moment for every row
        return [self._entry(r, t) for r in self.store.query(sql, params)]

    # -- writing ---------------------------------------------------------------------------------
    def _update_segments(
        self, conn: Any, provider: str, iid: str, state: str, launched_at: datetime | None, now: datetime
    ) -> None:
        open_seg = conn.execute(
            "SELECT rowid, started_at FROM instance_segments WHERE provider=? AND id=? AND ended_at IS NULL",
            (provider, iid),
        ).fetchone()
        if state in RUNNING_STATES:
            if open_seg is None:
                last = conn.execute(
                    "SELECT MAX(ended_at) FROM instance_segments WHERE provider=? AND id=?", (provider, iid)
                ).fetchone()[0]
                start = now
                # The cloud's launch time is when this run started if it is after the last run we saw end.
                if (
                    launched_at is not None
                    and launched_at <= now
                    and (last is None or (from_iso(last) or now) <= launched_at)
                ):
                    start = launched_at
                conn.execute(
                    "INSERT INTO instance_segments(provider, id, started_at) VALUES(?,?,?)",
                    (provider, iid, iso(start)),
                )
        elif open_seg is not None:
            conn.execute("UPDATE instance_segments SET ended_at=? WHERE rowid=?", (iso(now), open_seg[0]))

    def observe(
        self,
        inst: InstanceLike,
        *,
        price_per_hour: float | None = None,
        currency: str | None = None,
        price_source: str = "",
        client_token: str = "",
        now: datetime | None = None,
    ) -> LedgerEntry:
        """Record what the cloud just said about an instance (insert or update). ``now``: the laptop's
        time of the answer (None: now), moved into the cloud's frame."""
        t = self._cloud_now(inst.provider, now)
        price = price_per_hour if price_per_hour is not None else inst.price_per_hour
        launched = utc(inst.launched_at) if inst.launched_at else None
        token = client_token or inst.tags.get("labgpu-launch", "")
        with self.store.transaction() as conn:
            row = conn.execute(
                "SELECT * FROM instance_ledger WHERE provider=? AND id=?", (inst.provider, inst.id)
            ).fetchone()
            ended = iso(t) if inst.state in TERMINAL_STATES else None
            stale = (
                row is not None
                and row["state"] == vocab.InstanceState.TERMINATED
                and row["raw_state"] != "gone"
                and inst.state not in TERMINAL_STATES
            )
            if stale:
                # A terminated instance never comes back: this view was taken before the terminate (a
                # reconcile that listed the cloud just before), so it must not revive the row. Only a
                # row marked gone because a listing missed it may come back when it is seen again.
                log.info("stale view of terminated %s (%s) ignored", inst.id, inst.state)
            elif row is None:
                conn.execute(
                    "INSERT INTO instance_ledger(provider, id, account, region, zone, instance_type, state,"
                    " raw_state, spot, public_ip, private_ip, price_per_hour, currency, price_source,"
                    " launched_at,"
                    " first_seen, last_seen, ended_at, name, image_id, key_name, client_token, tags_json)"
                    " VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        inst.provider,
                        inst.id,
                        inst.account,
                        inst.region,
                        inst.zone,
                        inst.instance_type,
                        inst.state,
                        inst.raw_state,
                        int(inst.spot),
                        inst.public_ip or "",
                        inst.private_ip or "",
                        price,
                        currency or inst.currency,
                        price_source,
                        iso(launched),
                        iso(t),
                        iso(t),
                        ended,
                        inst.name,
                        inst.image_id,
                        inst.key_name,
                        token,
                        json.dumps(inst.tags, sort_keys=True),
                    ),
                )
            else:
                conn.execute(
                    "UPDATE instance_ledger SET account=?, region=?, zone=?, instance_type=?, state=?,"
                    " raw_state=?,"
                    " spot=?, public_ip=?, private_ip=?, price_per_hour=COALESCE(?, price_per_hour),"
                    " currency=COALESCE(?, currency),"
                    " price_source=CASE WHEN ?='' THEN price_source ELSE ? END,"
                    " launched_at=COALESCE(launched_at, ?), last_seen=?, ended_at=COALESCE(ended_at, ?),"
                    " name=?, image_id=?, key_name=?,"
                    " client_token=CASE WHEN ?='' THEN client_token ELSE ? END,"
                    " tags_json=? WHERE provider=? AND id=?",
                    (
                        inst.account,
                        inst.region,
                        inst.zone or row["zone"],
                        inst.instance_type,
                        inst.state,
                        inst.raw_state,
                        int(inst.spot),
                        inst.public_ip or "",
                        inst.private_ip or "",
                        price,
                        currency or (inst.currency if price is not None else None),
                        price_source,
                        price_source,
                        iso(launched),
                        iso(t),
                        ended,
                        inst.name or row["name"],
                        inst.image_id or row["image_id"],
                        inst.key_name or row["key_name"],
                        token,
                        token,
                        json.dumps(inst.tags, sort_keys=True),
                        inst.provider,
                        inst.id,
                    ),
                )
            if not stale:
                self._update_segments(conn, inst.provider, inst.id, inst.state, launched, t)
        entry = self.get(inst.id, inst.provider, now=now)
        assert entry is not None
        return entry

    def mark_state(
        self, provider: str, instance_id: str, state: str, raw_state: str = "", now: datetime | None = None
    ) -> LedgerEntry | None:
        """After LabGPU itself started/stopped/terminated an instance: record it at once, the next
        reconcile confirms it."""
        t = self._cloud_now(provider, now)
        with self.store.transaction() as conn:
            row = conn.execute(
                "SELECT launched_at FROM instance_ledger WHERE provider=? AND id=?", (provider, instance_id)
            ).fetchone()
            if row is None:
                return None
            conn.execute(
                "UPDATE instance_ledger SET state=?, raw_state=?, last_seen=?,"
                " ended_at=CASE WHEN ? IN ('terminated','failed')"
                " THEN COALESCE(ended_at, ?) ELSE ended_at END"
                " WHERE provider=? AND id=?",
                (state, raw_state or state, iso(t), state, iso(t), provider, instance_id),
            )
            # Only close segments here: a start is confirmed (with the cloud's launch time) by observe().
            if state not in RUNNING_STATES:
                self._update_segments(conn, provider, instance_id, state, None, t)
        return self.get(instance_id, provider, now=now)

    def reconcile(
        self,
        accounts: Iterable[Any],
        list_fn: Callable[[Any], Sequence[InstanceLike]],
        price_fn: Callable[[InstanceLike], tuple[float, str, str] | None] | None = None,
        now: datetime | None = None,
    ) -> ReconcileResult:
        """Ask each account's cloud for its LabGPU instances and bring the ledger in line.

        Each item of ``accounts`` is one (account, region) scope: only that region's rows can be
        marked gone by it.
        ``list_fn(account)`` returns the instances (raises on failure: that account's rows stay as
        they were and the error is returned). ``price_fn(instance)`` gives (price/h, currency, source)
        for instances whose price the ledger does not know yet.
        """
        errors: dict[str, Exception] = {}
        gone: list[str] = []
        at = utc(now)  # the laptop's moment; each cloud's frame below
        for account in accounts:
            try:
                seen = list(list_fn(account))
            except Exception as exc:  # noqa: BLE001 - reported per account, others still reconciled
                log.warning("reconcile %s failed: %s", account.name, exc)
                errors[account.name] = exc
                continue
            seen_ids = set()
            for inst in seen:
                seen_ids.add(inst.id)
                known = self.get(inst.id, inst.provider)
                price = None
                if (
                    (known is None or known.price_per_hour is None)
                    and inst.price_per_hour is None
                    and price_fn
                ):
                    try:
                        price = price_fn(inst)
                    except Exception as exc:  # noqa: BLE001 - a price lookup must not stop reconcile
                        log.info("price lookup for %s failed: %s", inst.id, exc)
                if price:
                    self.observe(
                        inst, price_per_hour=price[0], currency=price[1], price_source=price[2], now=now
                    )
                else:
                    self.observe(inst, now=now)
            for row in self.store.query(
                "SELECT provider, id, first_seen FROM instance_ledger WHERE account=? AND provider=?"
                " AND region=? AND state NOT IN ('terminated','failed')",
                (account.name, account.provider, account.region),
            ):
                t = self._cloud_now(row["provider"], now)
                fresh = (t - (from_iso(row["first_seen"]) or t)).total_seconds() < GONE_GRACE_S
                if row["id"] not in seen_ids and not fresh:
                    # AWS lists terminated instances for about an hour, CVM not at all: not listed = gone.
                    self.mark_state(row["provider"], row["id"], vocab.InstanceState.TERMINATED, "gone", now=now)
                    gone.append(row["id"])
        try:
            self.clock.save(self.store)  # the offsets this reconcile's answers measured, for other processes
        except Exception as exc:  # noqa: BLE001 - keeping the offset must not fail a reconcile
            log.info("cloud clock offsets not kept: %s", exc)
        return ReconcileResult(self.list(now=at), errors, gone)


__all__ = [
    "GONE_GRACE_S",
    "RUNNING_STATES",
    "TERMINAL_STATES",
    "InstanceLike",
    "Ledger",
    "LedgerEntry",
    "MonthLine",
    "PendingLaunch",
    "PendingLaunches",
    "ReconcileResult",
    "month_bounds",
    "month_report",
]
