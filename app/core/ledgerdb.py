"""The instances ledger's tables (ledger, running segments, pending launches) and the time and cost
helpers its parts share: :mod:`app.core.instances`, :mod:`app.core.pendinglaunches`,
:mod:`app.core.monthreport`."""

from __future__ import annotations

from datetime import datetime, timezone

from .store import register_schema

register_schema(
    "instances",
    [
        """
    CREATE TABLE instance_ledger (
        provider TEXT NOT NULL,
        id TEXT NOT NULL,
        account TEXT NOT NULL,
        region TEXT NOT NULL DEFAULT '',
        zone TEXT NOT NULL DEFAULT '',
        instance_type TEXT NOT NULL DEFAULT '',
        state TEXT NOT NULL,
        raw_state TEXT NOT NULL DEFAULT '',
        spot INTEGER NOT NULL DEFAULT 0,
        public_ip TEXT NOT NULL DEFAULT '',
        private_ip TEXT NOT NULL DEFAULT '',
        price_per_hour REAL,
        currency TEXT NOT NULL DEFAULT 'USD',
        price_source TEXT NOT NULL DEFAULT '',
        launched_at TEXT,
        first_seen TEXT NOT NULL,
        last_seen TEXT NOT NULL,
        ended_at TEXT,
        name TEXT NOT NULL DEFAULT '',
        image_id TEXT NOT NULL DEFAULT '',
        key_name TEXT NOT NULL DEFAULT '',
        client_token TEXT NOT NULL DEFAULT '',
        tags_json TEXT NOT NULL DEFAULT '{}',
        PRIMARY KEY (provider, id)
    );
    CREATE TABLE instance_segments (
        provider TEXT NOT NULL,
        id TEXT NOT NULL,
        started_at TEXT NOT NULL,
        ended_at TEXT
    );
    CREATE INDEX instance_segments_id ON instance_segments(provider, id);
    CREATE TABLE pending_launches (
        client_token TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        provider TEXT NOT NULL,
        region TEXT NOT NULL,
        zone TEXT NOT NULL DEFAULT '',
        instance_type TEXT NOT NULL,
        spot INTEGER NOT NULL DEFAULT 0,
        max_price REAL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        status TEXT NOT NULL,
        instance_id TEXT NOT NULL DEFAULT '',
        detail TEXT NOT NULL DEFAULT ''
    );
    """,
    ],
)


def utc(d: datetime | None = None) -> datetime:
    if d is None:
        return datetime.now(timezone.utc)
    return d.replace(tzinfo=timezone.utc) if d.tzinfo is None else d.astimezone(timezone.utc)


def iso(d: datetime | None) -> str | None:
    return None if d is None else utc(d).isoformat()


def from_iso(s: str | None) -> datetime | None:
    return None if not s else utc(datetime.fromisoformat(s))


def segment_cost(provider: str, price: float | None, start: datetime, end: datetime) -> float | None:
    from .costs import running_cost

    return running_cost(provider, price, start, end)

