"""Launches written down before the cloud is called, so a crash mid-launch leaves a trace to reconcile."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .ledgerdb import from_iso, iso, utc
from .store import Store


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
    ) -> PendingLaunch:
        now = iso(utc())
        self.store.execute(
            "INSERT INTO pending_launches(client_token, account, provider, region, zone, instance_type, spot,"
            " max_price, created_at, updated_at, status) VALUES(?,?,?,?,?,?,?,?,?,?, 'pending')"
            " ON CONFLICT(client_token) DO UPDATE SET updated_at=excluded.updated_at,"
            " status=CASE WHEN status='done' THEN 'done' ELSE 'pending' END",
            (client_token, account, provider, region, zone, instance_type, int(spot), max_price, now, now),
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
