"""Saved sync pairs and the history of sync runs (SQLite, in the app database).

A pair's other side is a folder on a saved host, or a bucket location (``host`` "" and
``remote_path`` a URL such as ``cos://data-1250000000/imagenet``, with the ``account`` that reaches it,
the name of its client-side encryption key in the keyring (``encrypt_key``, "" for none) and the
service's own encryption (``sse``, "" or ``kms[:KEYID]``)). A bucket pair's runs are recorded with
host "" and the URL as their remote path.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from .buckets import is_bucket_url
from .paths import Paths
from .store import Store, register_schema
from .syncmodel import DOWN, UP, SyncOptions, SyncResult, display_name

SYNC_MIGRATIONS = [
    """
    CREATE TABLE sync_pairs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        host TEXT NOT NULL,
        local_path TEXT NOT NULL,
        remote_path TEXT NOT NULL,
        direction TEXT NOT NULL DEFAULT 'up',
        excludes TEXT NOT NULL DEFAULT '[]',
        gitignore INTEGER NOT NULL DEFAULT 0,
        mirror_delete INTEGER NOT NULL DEFAULT 0,
        verify INTEGER NOT NULL DEFAULT 0,
        bwlimit_kbps REAL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE sync_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        pair_id INTEGER,
        host TEXT NOT NULL,
        local_path TEXT NOT NULL,
        remote_path TEXT NOT NULL,
        direction TEXT NOT NULL,
        started_at REAL NOT NULL,
        seconds REAL NOT NULL,
        files INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        skipped INTEGER NOT NULL DEFAULT 0,
        deleted INTEGER NOT NULL DEFAULT 0,
        conflicts INTEGER NOT NULL DEFAULT 0,
        result TEXT NOT NULL,
        message TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX sync_runs_pair ON sync_runs(pair_id, started_at);
    """,
    # 2: object storage (issue 25): a pair may have a bucket as its other side
    """
    ALTER TABLE sync_pairs ADD COLUMN account TEXT NOT NULL DEFAULT '';
    ALTER TABLE sync_pairs ADD COLUMN encrypt_key TEXT NOT NULL DEFAULT '';
    ALTER TABLE sync_pairs ADD COLUMN sse TEXT NOT NULL DEFAULT '';
    """,
]
register_schema("sync", SYNC_MIGRATIONS)


@dataclass
class SyncPair:
    host: str
    local_path: str
    remote_path: str
    direction: str = UP
    excludes: list[str] = field(default_factory=list)
    gitignore: bool = False
    mirror_delete: bool = False
    verify: bool = False
    bwlimit_kbps: float | None = None
    id: int | None = None
    account: str = ""  # a bucket pair: the cloud account that reaches the bucket
    encrypt_key: str = ""  # a bucket pair: the LabGPU key (keyring) its objects are encrypted with
    sse: str = ""  # a bucket pair: the service's encryption, "" or "kms[:KEYID]"

    @property
    def is_bucket(self) -> bool:
        """Whether the other side is a bucket location (host "" and a bucket URL)."""
        return not self.host and is_bucket_url(self.remote_path)

    def options(self, **overrides: Any) -> SyncOptions:
        opts = SyncOptions(
            direction=self.direction,
            delete=self.mirror_delete,
            verify=self.verify,
            excludes=list(self.excludes),
            gitignore=self.gitignore,
            bwlimit_kbps=self.bwlimit_kbps,
        )
        for k, v in overrides.items():
            setattr(opts, k, v)
        return opts


@dataclass
class SyncRun:
    id: int
    pair_id: int | None
    host: str
    local_path: str
    remote_path: str
    direction: str
    started_at: float
    seconds: float
    files: int
    bytes: int
    skipped: int
    deleted: int
    conflicts: int
    result: str  # ok | incomplete | dry-run | error | cancelled
    message: str


class SyncStore:
    """Sync pairs and the history of runs in the app database (both survive restarts)."""

    def __init__(self, store: Store | None = None, paths: Paths | None = None) -> None:
        self.store = store or Store(paths=paths)
        self.store.migrate()

    def pairs(self) -> list[SyncPair]:
        return [self._pair(r) for r in self.store.query("SELECT * FROM sync_pairs ORDER BY id")]

    def get(self, pair_id: int) -> SyncPair | None:
        rows = self.store.query("SELECT * FROM sync_pairs WHERE id=?", (pair_id,))
        return self._pair(rows[0]) if rows else None

    @staticmethod
    def _pair(r: Any) -> SyncPair:
        return SyncPair(
            host=r["host"],
            local_path=r["local_path"],
            remote_path=r["remote_path"],
            direction=r["direction"],
            excludes=list(json.loads(r["excludes"] or "[]")),
            gitignore=bool(r["gitignore"]),
            mirror_delete=bool(r["mirror_delete"]),
            verify=bool(r["verify"]),
            bwlimit_kbps=r["bwlimit_kbps"],
            id=int(r["id"]),
            account=r["account"] or "",
            encrypt_key=r["encrypt_key"] or "",
            sse=r["sse"] or "",
        )

    def save(self, pair: SyncPair) -> SyncPair:
        if pair.direction not in (UP, DOWN):
            raise ValueError(pair.direction)
        now = time.time()
        vals = (
            pair.host,
            pair.local_path,
            pair.remote_path,
            pair.direction,
            json.dumps(list(pair.excludes)),
            int(pair.gitignore),
            int(pair.mirror_delete),
            int(pair.verify),
            pair.bwlimit_kbps,
            pair.account,
            pair.encrypt_key,
            pair.sse,
        )
        with self.store.transaction() as c:
            if pair.id is None:
                cur = c.execute(
                    "INSERT INTO sync_pairs(host, local_path, remote_path, direction, excludes, "
                    "gitignore, mirror_delete, verify, bwlimit_kbps, account, encrypt_key, sse, created_at, "
                    "updated_at) VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (*vals, now, now),
                )
                pair.id = int(cur.lastrowid or 0)
            else:
                c.execute(
                    "UPDATE sync_pairs SET host=?, local_path=?, remote_path=?, direction=?, excludes=?, "
                    "gitignore=?, mirror_delete=?, verify=?, bwlimit_kbps=?, account=?, encrypt_key=?, sse=?, "
                    "updated_at=? WHERE id=?",
                    (*vals, now, pair.id),
                )
        return pair

    def remove(self, pair_id: int) -> None:
        with self.store.transaction() as c:
            c.execute("DELETE FROM sync_pairs WHERE id=?", (pair_id,))

    def record_run(
        self,
        *,
        host: str,
        local_path: str,
        remote_path: str,
        direction: str,
        started_at: float,
        result: str,
        outcome: SyncResult | None = None,
        message: str = "",
        pair_id: int | None = None,
    ) -> int:
        o = outcome or SyncResult(direction)
        with self.store.transaction() as c:
            cur = c.execute(
                "INSERT INTO sync_runs(pair_id, host, local_path, remote_path, direction, started_at, "
                "seconds, files, bytes, skipped, deleted, conflicts, result, message) "
                "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    pair_id,
                    display_name(host),
                    display_name(local_path),
                    display_name(remote_path),
                    direction,
                    started_at,
                    o.seconds or (time.time() - started_at),
                    o.files,
                    o.bytes,
                    o.skipped,
                    o.deleted,
                    o.conflicts,
                    result,
                    display_name(message[:500]),
                ),
            )
            return int(cur.lastrowid or 0)

    def runs(self, pair_id: int | None = None, limit: int = 100) -> list[SyncRun]:
        if pair_id is None:
            rows = self.store.query(
                "SELECT * FROM sync_runs ORDER BY started_at DESC, id DESC LIMIT ?", (limit,)
            )
        else:
            rows = self.store.query(
                "SELECT * FROM sync_runs WHERE pair_id=? ORDER BY started_at DESC, id DESC LIMIT ?",
                (pair_id, limit),
            )
        return [SyncRun(**{k: r[k] for k in r.keys()}) for r in rows]  # noqa: SIM118 - sqlite3.Row
