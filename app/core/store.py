"""SQLite (stdlib, WAL) for everything LabGPU must not forget: hosts, instances, ledgers, audit.

Each feature owns its tables and registers an ordered list of migrations under its own name with
``register_schema``; ``Store`` applies what is missing when it opens. One connection per thread.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .paths import Paths, default_paths

_SCHEMAS: dict[str, list[str]] = {}
_schema_lock = threading.Lock()


def register_schema(feature: str, migrations: Sequence[str]) -> None:
    """``migrations[i]`` is the SQL script that brings ``feature`` from version i to i+1. Append only."""
    with _schema_lock:
        _SCHEMAS[feature] = list(migrations)


class Store:
    def __init__(self, path: Path | None = None, paths: Paths | None = None) -> None:
        if path is None:
            path = (paths or default_paths()).ensure().database_file
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        self.migrate()

    def connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            self._local.conn = conn
        return conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self.connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> sqlite3.Cursor:
        return self.connection().execute(sql, params)

    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        return list(self.connection().execute(sql, params))

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def migrate(self) -> None:
        """Apply missing migrations of every registered feature (cheap when nothing is missing)."""
        with _schema_lock:
            schemas = {k: list(v) for k, v in _SCHEMAS.items()}
        conn = self.connection()
        conn.execute("CREATE TABLE IF NOT EXISTS schema_versions (feature TEXT PRIMARY KEY, version INTEGER)")
        for feature, migrations in schemas.items():
            row = conn.execute("SELECT version FROM schema_versions WHERE feature=?", (feature,)).fetchone()
            version = row[0] if row else 0
            for i in range(version, len(migrations)):
                conn.execute("BEGIN IMMEDIATE")
                try:
                    for stmt in _split_sql(migrations[i]):
                        conn.execute(stmt)
                    conn.execute(
                        "INSERT INTO schema_versions(feature, version) VALUES(?, ?) "
                        "ON CONFLICT(feature) DO UPDATE SET version=excluded.version",
                        (feature, i + 1),
                    )
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")


def _split_sql(script: str) -> list[str]:
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            if buf.strip():
                out.append(buf.strip())
            buf = ""
    if buf.strip():
        out.append(buf.strip())
    return out
