"""Launches written down before the cloud is called, so a crash mid-launch leaves a trace to reconcile.

The guard the student chose at launch is written with it, in the same transaction
(``pending_launch_guards``, keyed by the client token): when LabGPU stops between "instance created"
and "guard saved", the recovery (app/cloud/recovery.py) finds the guard there and applies it to the
instance it finds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .errors import LabGpuError
from .guards import GuardConfig
from .ledgerdb import from_iso, iso, utc
from .store import Store, register_schema

register_schema(
    "pendingguards",
    [
        """
    CREATE TABLE pending_launch_guards (
        client_token TEXT PRIMARY KEY,
        config TEXT NOT NULL,
        applied INTEGER NOT NULL DEFAULT 0
    );
    """,
    ],
)


@dataclass(frozen=True)
class IntendedGuard:
    """A guard chosen at launch that is not on its instance yet."""

    client_token: str
    instance_id: str  # "" while the launch is not recorded as done
    config: GuardConfig


@dataclass(frozen=True)
class PendingLaunch:
    client_token: str
    account: str
    provider: str
    region: str
    zone: str
    instance_type: str
    spot: bool
    max_price: float | None
    created_at: datetime
    updated_at: datetime
    status: str  # "pending" (sent or about to be), "done", "failed", "not_launched"
    instance_id: str
    detail: str


class PendingLaunches:
    """Written before the cloud is called, so a crash mid-launch leaves a trace to reconcile."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def begin(
        self,
        *,
        client_token: str,
        account: str,
        provider: str,
        region: str,
        zone: str,
        instance_type: str,
        spot: bool,
        max_price: float | None,
        guard: GuardConfig | None = None,
    ) -> PendingLaunch:
        """Record the launch (and the guard meant for its instance, in the same transaction)."""
        now = iso(utc())
        with self.store.transaction() as conn:
            conn.execute(
                "INSERT INTO pending_launches(client_token, account, provider, region, zone, instance_type, spot,"
                " max_price, created_at, updated_at, status) VALUES(?,?,?,?,?,?,?,?,?,?, 'pending')"
                " ON CONFLICT(client_token) DO UPDATE SET updated_at=excluded.updated_at,"
                " status=CASE WHEN status='done' THEN 'done' ELSE 'pending' END",
                (client_token, account, provider, region, zone, instance_type, int(spot), max_price, now, now),
            )
            if guard is not None:
                conn.execute(
                    "INSERT INTO pending_launch_guards(client_token, config) VALUES(?, ?)"
                    " ON CONFLICT(client_token) DO UPDATE SET config=excluded.config"
                    " WHERE pending_launch_guards.applied=0",
                    (client_token, json.dumps(guard.to_json(), sort_keys=True)),
                )
        got = self.get(client_token)
        assert got is not None
        return got

    def _set(self, token: str, status: str, instance_id: str = "", detail: str = "") -> None:
        self.store.execute(
            "UPDATE pending_launches SET status=?, instance_id=CASE WHEN ?='' THEN instance_id"
            " ELSE ? END, detail=?, updated_at=? WHERE client_token=?",
            (status, instance_id, instance_id, detail[:500], iso(utc()), token),
        )

    def finish(self, token: str, instance_id: str) -> None:
        self._set(token, "done", instance_id)

    def fail(self, token: str, detail: str) -> None:
        self._set(token, "failed", detail=detail)

    def not_launched(self, token: str, detail: str) -> None:
        self._set(token, "not_launched", detail=detail)

    def get(self, token: str) -> PendingLaunch | None:
        rows = self.store.query("SELECT * FROM pending_launches WHERE client_token=?", (token,))
        return self._row(rows[0]) if rows else None

    @staticmethod
    def _row(r: Any) -> PendingLaunch:
        return PendingLaunch(
            r["client_token"],
            r["account"],
            r["provider"],
            r["region"],
            r["zone"],
            r["instance_type"],
            bool(r["spot"]),
            r["max_price"],
            from_iso(r["created_at"]) or utc(),
            from_iso(r["updated_at"]) or utc(),
            r["status"],
            r["instance_id"],
            r["detail"],
        )

    def open(self) -> list[PendingLaunch]:
        return [
            self._row(r)
            for r in self.store.query(
                "SELECT * FROM pending_launches WHERE status='pending' ORDER BY created_at"
            )
        ]

    def all(self) -> list[PendingLaunch]:
        return [self._row(r) for r in self.store.query("SELECT * FROM pending_launches ORDER BY created_at")]

    # -- the guard meant for a launch's instance ---------------------------------------------------
    def guard_applied(self, token: str) -> None:
        """The launch's instance has its guard (saved by the launch, or by the recovery)."""
        self.store.execute("UPDATE pending_launch_guards SET applied=1 WHERE client_token=?", (token,))

    def unapplied_guards(self) -> list[IntendedGuard]:
        """Guards of launches that created their instance (status done) but were never applied to it."""
        out = []
        for r in self.store.query(
            "SELECT g.client_token, g.config, p.instance_id FROM pending_launch_guards g"
            " JOIN pending_launches p ON p.client_token = g.client_token"
            " WHERE g.applied=0 AND p.status='done' AND p.instance_id != '' ORDER BY p.created_at"
        ):
            cfg = _guard(r["config"])
            if cfg is not None:
                out.append(IntendedGuard(r["client_token"], r["instance_id"], cfg))
        return out


def _guard(text: str) -> GuardConfig | None:
    try:
        doc = json.loads(text)
        return GuardConfig.from_json(doc).validate() if isinstance(doc, dict) else None
    except (ValueError, TypeError, LabGpuError):
        return None  # a damaged row guards nothing; never a traceback in the recovery
