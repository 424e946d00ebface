"""Pending waits for a GPU (蹲卡): a launch that is retried while its type is sold out, stored so that it
survives a restart of the app, the tray or ``labgpu watch``.

A wait holds the launch request (what ``labgpu launch`` or the launch dialog was asked), its deadline, its
price cap, the zones and clouds it may use, how many attempts were made, when the next one is due, its
state, and the client token of the attempt in flight (written *before* the launch is sent: a restart
re-sends that same token, and the cloud answers with the instance it already made, never a second one).

One waiter per wait: a process that drives a wait holds its *lease* (``claim``: an atomic update that
succeeds only when no other process holds an unexpired lease), renews it each round and drops it when it
stops. The foreground ``labgpu launch --wait`` and the one watcher (window, tray, ``labgpu watch``)
therefore never both try the same wait; when the foreground process dies, its lease runs out and the
watcher takes the wait over.

Times are seconds since the epoch (the callers' clock: tests hand in a fake one).
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP
from .store import Store, register_schema

register_schema(
    "launchwaits",
    [
        """
    CREATE TABLE launch_waits (
        id TEXT PRIMARY KEY,
        request TEXT NOT NULL,
        deadline REAL NOT NULL,
        max_price REAL,
        zones TEXT NOT NULL DEFAULT '[]',
        clouds TEXT NOT NULL DEFAULT '[]',
        state TEXT NOT NULL DEFAULT 'waiting',
        attempts INTEGER NOT NULL DEFAULT 0,
        next_try REAL NOT NULL,
        token TEXT NOT NULL DEFAULT '',
        instance_id TEXT NOT NULL DEFAULT '',
        detail TEXT NOT NULL DEFAULT '',
        owner TEXT NOT NULL DEFAULT '',
        lease_until REAL NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    """,
    ],
)

WAITING = "waiting"
LANDED = "landed"
GAVE_UP = "gave-up"
CANCELLED = "cancelled"
MAX_DETAIL = 500  # a cloud's sentence kept with the wait


@dataclass(frozen=True)
class LaunchWait:
    id: str
    request: dict[str, Any]  # LaunchOptions fields (app.usecases.waitlaunch reads them) and "guard"
    deadline: float
    max_price: float | None  # per hour, in the launch account's billing currency; None: no cap
    zones: list[str] = field(default_factory=list)  # allowed zones; []: every zone of the region
    clouds: list[str] = field(default_factory=list)  # allowed other clouds (provider ids); []: the account's
    state: str = WAITING
    attempts: int = 0
    next_try: float = 0.0
    token: str = ""  # the client token of the attempt in flight ("" = none)
    instance_id: str = ""
    detail: str = ""  # the last sentence: why it waits, why it ended, where it landed
    owner: str = ""
    created_at: float = 0.0
    updated_at: float = 0.0

    @property
    def account(self) -> str:
        return str(self.request.get("account", ""))

    @property
    def instance_type(self) -> str:
        return str(self.request.get("instance_type", ""))


def new_owner() -> str:
    """Who drives waits in this process (a lease's holder)."""
    return "w-" + uuid.uuid4().hex[:12]


class LaunchWaits:
    """The stored waits (one table in the Store)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.migrate()  # this module's table, when the store was opened before it was imported

    def add(self, request: dict[str, Any], *, deadline: float, now: float, max_price: float | None = None,
            zones: list[str] | None = None, clouds: list[str] | None = None, owner: str = "",
            lease_s: float = 0.0) -> LaunchWait:
        """Store a wait; with ``owner``, held by it from the start (no other waiter takes its first round)."""
        if deadline <= now:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "The wait would end before it starts."),
                QT_TRANSLATE_NOOP("LabGPU", "Give a duration, e.g. --until 6h or --until 30m."),
                code="WaitDeadlinePast",
            )
        if max_price is not None and max_price <= 0:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "The price cap must be more than 0."),
                QT_TRANSLATE_NOOP("LabGPU", "Give the most you would pay per hour, e.g. --max-price 8."),
                code="WaitPriceCap",
            )
        wid = "wait-" + uuid.uuid4().hex[:8]
        self.store.execute(
            "INSERT INTO launch_waits(id, request, deadline, max_price, zones, clouds, state, next_try,"
            " owner, lease_until, created_at, updated_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
            (wid, json.dumps(request, sort_keys=True), deadline, max_price, json.dumps(list(zones or [])),
             json.dumps(list(clouds or [])), WAITING, now, owner, now + lease_s if owner else 0.0, now, now),
        )
        got = self.get(wid)
        assert got is not None
        return got

    def get(self, wid: str) -> LaunchWait | None:
        rows = self.store.query("SELECT * FROM launch_waits WHERE id=?", (wid,))
        return self._row(rows[0]) if rows else None

    def all(self) -> list[LaunchWait]:
        return [self._row(r) for r in self.store.query("SELECT * FROM launch_waits ORDER BY created_at")]

    def waiting(self) -> list[LaunchWait]:
        return [self._row(r) for r in self.store.query(
            "SELECT * FROM launch_waits WHERE state=? ORDER BY created_at", (WAITING,))]

    # -- one waiter per wait ----------------------------------------------------------------------
    def claim(self, wid: str, owner: str, now: float, lease_s: float) -> bool:
        """Take (or renew) the lease of a waiting wait: False when another owner holds it unexpired."""
        cur = self.store.execute(
            "UPDATE launch_waits SET owner=?, lease_until=? WHERE id=? AND state=?"
            " AND (owner='' OR owner=? OR lease_until<?)",
            (owner, now + lease_s, wid, WAITING, owner, now),
        )
        return cur.rowcount == 1

    def release(self, wid: str, owner: str) -> None:
        self.store.execute("UPDATE launch_waits SET owner='', lease_until=0 WHERE id=? AND owner=?", (wid, owner))

    # -- progress ---------------------------------------------------------------------------------
    def begin_attempt(self, wid: str, token: str, now: float) -> None:
        """The attempt's client token, written before the launch is sent."""
        self.store.execute("UPDATE launch_waits SET token=?, updated_at=? WHERE id=?", (token, now, wid))

    def retry_later(self, wid: str, *, next_try: float, detail: str, now: float) -> None:
        """The attempt was refused (sold out): its token is spent, the next one is due at ``next_try``."""
        self.store.execute(
            "UPDATE launch_waits SET attempts=attempts+1, token='', next_try=?, detail=?, updated_at=?"
            " WHERE id=? AND state=?",
            (next_try, detail[:MAX_DETAIL], now, wid, WAITING),
        )

    def retry_same(self, wid: str, *, next_try: float, detail: str, now: float) -> None:
        """The attempt was cut short (no answer): its token is kept and sent again at ``next_try``."""
        self.store.execute("UPDATE launch_waits SET next_try=?, detail=?, updated_at=? WHERE id=? AND state=?",
                           (next_try, detail[:MAX_DETAIL], now, wid, WAITING))

    def end(self, wid: str, state: str, *, detail: str, now: float, instance_id: str = "",
            attempted: bool = False) -> bool:
        """Landed, gave up or cancelled: True only for the call that ended it (a notice is sent once)."""
        assert state in (LANDED, GAVE_UP, CANCELLED)
        cur = self.store.execute(
            "UPDATE launch_waits SET state=?, detail=?, instance_id=?, attempts=attempts+?, owner='',"
            " lease_until=0, updated_at=? WHERE id=? AND state=?",
            (state, detail[:MAX_DETAIL], instance_id, 1 if attempted else 0, now, wid, WAITING),
        )
        return cur.rowcount == 1

    @staticmethod
    def _row(r: Any) -> LaunchWait:
        return LaunchWait(
            r["id"], json.loads(r["request"]), float(r["deadline"]), r["max_price"], json.loads(r["zones"]),
            json.loads(r["clouds"]), r["state"], int(r["attempts"]), float(r["next_try"]), r["token"],
            r["instance_id"], r["detail"], r["owner"], float(r["created_at"]),
            float(r["updated_at"]),
        )
