"""What the bucket engine remembers between syncs, in LabGPU's SQLite store.

* ``bucket_heads``: an object's LabGPU metadata (source mtime, sha256, plain size) as a HEAD or a
  transfer answered it, keyed by (endpoint, bucket, key) and valid only for the ETag it was read
  with — a new upload gives the object a new ETag, so a stale row is never used. A no-change
  re-sync then needs the listing alone.
* ``bucket_uploads``: a multipart upload LabGPU started and has not completed (upload id, part
  size, the source's size and mtime, the encryption header): the next sync resumes it, or aborts it
  when the source changed or is gone, so no upload is left billing silently.
* ``bucket_partials``: which object version (ETag) a local ``.NAME.labgpu-part`` file holds, so a
  download resumes only from bytes of the same version.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass

from .store import Store, register_schema

register_schema(
    "bucketstate",
    [
        """
        CREATE TABLE IF NOT EXISTS bucket_heads (
            endpoint TEXT NOT NULL, bucket TEXT NOT NULL, key TEXT NOT NULL, etag TEXT NOT NULL,
            mtime REAL, sha256 TEXT NOT NULL DEFAULT '', size INTEGER NOT NULL DEFAULT -1,
            has_meta INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (endpoint, bucket, key)
        );
        CREATE TABLE IF NOT EXISTS bucket_uploads (
            endpoint TEXT NOT NULL, bucket TEXT NOT NULL, key TEXT NOT NULL, upload_id TEXT NOT NULL,
            part_size INTEGER NOT NULL, src_size INTEGER NOT NULL, src_mtime REAL NOT NULL,
            sha256 TEXT NOT NULL DEFAULT '', header BLOB, rel TEXT NOT NULL DEFAULT '',
            started REAL NOT NULL DEFAULT 0,
            PRIMARY KEY (endpoint, bucket, key)
        );
        CREATE TABLE IF NOT EXISTS bucket_partials (
            part_path TEXT PRIMARY KEY, endpoint TEXT NOT NULL, bucket TEXT NOT NULL, key TEXT NOT NULL,
            etag TEXT NOT NULL
        );
        """
    ],
)


@dataclass(frozen=True)
class HeadMeta:
    """LabGPU's metadata of one object version. ``mtime`` None: the object has no LabGPU metadata
    (another tool wrote it: its LastModified stands in); ``size`` -1: no plain size recorded."""

    etag: str
    mtime: float | None
    sha256: str = ""
    size: int = -1
    has_meta: bool = False


@dataclass(frozen=True)
class UploadState:
    endpoint: str
    bucket: str
    key: str
    upload_id: str
    part_size: int
    src_size: int
    src_mtime: float
    sha256: str = ""
    header: bytes = b""
    rel: str = ""
    started: float = 0.0


def _prefix_end(prefix: str) -> str:
    """The smallest string greater than every string starting with ``prefix`` (for a range scan)."""
    return prefix + "\U0010ffff"


class BucketState:
    def __init__(self, store: Store) -> None:
        self.store = store
        store.migrate()  # a Store opened before this module was imported lacks these tables yet

    # HEAD cache ---------------------------------------------------------------------------------
    def heads(self, endpoint: str, bucket: str, prefix: str = "") -> dict[str, HeadMeta]:
        """Every cached row below ``prefix`` (one query, whatever the number of objects)."""
        rows = self.store.query(
            "SELECT key, etag, mtime, sha256, size, has_meta FROM bucket_heads "
            "WHERE endpoint=? AND bucket=? AND key>=? AND key<?",
            (endpoint, bucket, prefix, _prefix_end(prefix)),
        )
        return {
            r["key"]: HeadMeta(r["etag"], r["mtime"], r["sha256"], int(r["size"]), bool(r["has_meta"]))
            for r in rows
        }

    def put_heads(self, endpoint: str, bucket: str, rows: Iterable[tuple[str, HeadMeta]]) -> None:
        items = [(endpoint, bucket, k, m.etag, m.mtime, m.sha256, m.size, int(m.has_meta)) for k, m in rows]
        if not items:
            return
        with self.store.transaction() as conn:
            conn.executemany(
                "INSERT INTO bucket_heads(endpoint, bucket, key, etag, mtime, sha256, size, has_meta) "
                "VALUES(?,?,?,?,?,?,?,?) ON CONFLICT(endpoint, bucket, key) DO UPDATE SET "
                "etag=excluded.etag, mtime=excluded.mtime, sha256=excluded.sha256, size=excluded.size, "
                "has_meta=excluded.has_meta",
                items,
            )

    def forget_heads(self, endpoint: str, bucket: str, keys: Iterable[str]) -> None:
        items = [(endpoint, bucket, k) for k in keys]
        if not items:
            return
        with self.store.transaction() as conn:
            conn.executemany("DELETE FROM bucket_heads WHERE endpoint=? AND bucket=? AND key=?", items)

    # multipart uploads --------------------------------------------------------------------------
    def upload(self, endpoint: str, bucket: str, key: str) -> UploadState | None:
        rows = self.store.query(
            "SELECT * FROM bucket_uploads WHERE endpoint=? AND bucket=? AND key=?", (endpoint, bucket, key)
        )
        return _upload_of(rows[0]) if rows else None

    def uploads(self, endpoint: str, bucket: str, prefix: str = "") -> list[UploadState]:
        rows = self.store.query(
            "SELECT * FROM bucket_uploads WHERE endpoint=? AND bucket=? AND key>=? AND key<? ORDER BY key",
            (endpoint, bucket, prefix, _prefix_end(prefix)),
        )
        return [_upload_of(r) for r in rows]

    def save_upload(self, u: UploadState) -> None:
        with self.store.transaction() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO bucket_uploads(endpoint, bucket, key, upload_id, part_size, src_size, "
                "src_mtime, sha256, header, rel, started) VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                (u.endpoint, u.bucket, u.key, u.upload_id, u.part_size, u.src_size, u.src_mtime, u.sha256,
                 u.header, u.rel, u.started),
            )

    def drop_upload(self, endpoint: str, bucket: str, key: str) -> None:
        self.store.execute(
            "DELETE FROM bucket_uploads WHERE endpoint=? AND bucket=? AND key=?", (endpoint, bucket, key)
        )

    # download part files ------------------------------------------------------------------------
    def partial(self, part_path: str) -> tuple[str, str, str, str] | None:
        """(endpoint, bucket, key, etag) of the object version a part file holds, or None."""
        rows = self.store.query(
            "SELECT endpoint, bucket, key, etag FROM bucket_partials WHERE part_path=?", (part_path,)
        )
        return (rows[0][0], rows[0][1], rows[0][2], rows[0][3]) if rows else None

    def save_partial(self, part_path: str, endpoint: str, bucket: str, key: str, etag: str) -> None:
        self.store.execute(
            "INSERT OR REPLACE INTO bucket_partials(part_path, endpoint, bucket, key, etag) VALUES(?,?,?,?,?)",
            (part_path, endpoint, bucket, key, etag),
        )

    def drop_partial(self, part_path: str) -> None:
        self.store.execute("DELETE FROM bucket_partials WHERE part_path=?", (part_path,))


def _upload_of(row: sqlite3.Row) -> UploadState:
    return UploadState(
        row["endpoint"], row["bucket"], row["key"], row["upload_id"], int(row["part_size"]),
        int(row["src_size"]), float(row["src_mtime"]), row["sha256"] or "",
        bytes(row["header"] or b""), row["rel"] or "", float(row["started"] or 0.0),
    )
