"""SQLite (stdlib, WAL) for everything LabGPU must not forget: hosts, instances, ledgers, audit.

Each feature owns its tables and registers an ordered list of migrations under its own name with
``register_schema``; ``Store`` applies what is missing when it opens. One connection per thread.

Damaged files are never a traceback. Opening checks the file once per process (header, then
``PRAGMA quick_check``); a file that is not a readable SQLite database — overwritten, truncated,
garbage, or 0 bytes — is moved aside as ``labgpu.damaged-<UTC time>.sqlite3`` (with its ``-wal``;
an existing name is never reused), the user is told through :mod:`.damage`, and a fresh database
is made. A new database is always built complete (schema table, WAL mode) under a temporary name
and renamed into place, so a 0-byte file is never one LabGPU is still creating: it is damaged.
Creating and setting aside happen under a lock file, so two processes never both act on one file.
A database error seen later (``malformed``) becomes :class:`StoreDamagedError` with a next step.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from . import damage
from .errors import LabGpuError
from .i18n import QT_TRANSLATE_NOOP
from .paths import Paths, default_paths

_SCHEMAS: dict[str, list[str]] = {}
_schema_lock = threading.Lock()

_SQLITE_MAGIC = b"SQLite format 3\x00"
# Messages of sqlite3.DatabaseError that mean the file itself is bad (not busy, not locked).
_DAMAGE_MARKERS = ("malformed", "not a database", "file is encrypted", "disk image", "corrupt")
_checked: set[tuple[str, int, int]] = set()  # (path, device, inode) already found healthy
_checked_lock = threading.Lock()


class StoreDamagedError(LabGpuError):
    pass


def register_schema(feature: str, migrations: Sequence[str]) -> None:
    """``migrations[i]`` is the SQL script that brings ``feature`` from version i to i+1. Append only."""
    with _schema_lock:
        _SCHEMAS[feature] = list(migrations)


def _is_damage(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.DatabaseError) and any(m in str(exc).lower() for m in _DAMAGE_MARKERS)


def _damaged_error(path: Path, exc: BaseException) -> StoreDamagedError:
    _forget_checked(path)
    return StoreDamagedError(
        QT_TRANSLATE_NOOP("LabGPU", "The database {path} is damaged ({why})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Run the command again (or restart LabGPU): the damaged file is set aside and kept, "
            "and LabGPU starts with a fresh database.",
        ),
        code="DatabaseDamaged",
        path=str(path),
        why=str(exc),
    )


def _forget_checked(path: Path) -> None:
    with _checked_lock:
        for item in [c for c in _checked if c[0] == str(path)]:
            _checked.discard(item)


def _identity(path: Path) -> tuple[str, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (str(path), st.st_dev, st.st_ino)


def inspect_database(path: Path) -> str:
    """"" when ``path`` is a healthy SQLite database, "missing", or why it is damaged."""
    if not os.path.lexists(path):
        return "missing"
    if path.is_symlink() or not path.is_file():
        return "not a regular file"
    try:
        with open(path, "rb") as fh:
            head = fh.read(100)
    except OSError as exc:
        return f"unreadable: {exc.strerror or exc}"
    if not head:
        return "empty file (0 bytes)"
    if not head.startswith(_SQLITE_MAGIC) or len(head) < 100:
        return "not an SQLite database"
    try:
        conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=30, isolation_level=None)
    except sqlite3.Error as exc:
        return f"cannot be opened: {exc}"
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
        problems = [str(r[0]) for r in rows if str(r[0]).lower() != "ok"]
        if problems:
            return "integrity check failed: " + "; ".join(problems[:3])
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        if _is_damage(exc):
            return f"{exc}"
        raise  # busy/locked and the like: not the file's fault
    finally:
        conn.close()
    return ""


def _create_database(path: Path) -> None:
    """A complete new database (schema table, WAL) renamed into place in one step."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.new")
    for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm"), Path(f"{tmp}-journal")):
        with contextlib.suppress(FileNotFoundError):
            p.unlink()
    conn = sqlite3.connect(tmp, isolation_level=None)
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("CREATE TABLE IF NOT EXISTS schema_versions (feature TEXT PRIMARY KEY, version INTEGER)")
        conn.execute("COMMIT")
    finally:
        conn.close()
    with contextlib.suppress(OSError):
        os.chmod(tmp, 0o600)
    os.replace(tmp, path)


def _set_aside(path: Path) -> Path:
    """Move ``path`` (and its -wal/-shm) to a new timestamped name next to it; returns that name."""
    copy = damage.aside_name(path, "damaged")
    os.replace(path, copy)
    for suffix in ("-wal", "-shm", "-journal"):
        side = Path(f"{path}{suffix}")
        if os.path.lexists(side):
            try:
                os.replace(side, Path(f"{copy}{suffix}"))
            except OSError:
                with contextlib.suppress(OSError):
                    side.unlink()
    return copy


def _lost_summary() -> str:
    return ("your saved hosts, sync pairs and history, cloud account entries (their secrets stay in the "
            "keyring) and the instance and cost ledger")


def open_checked(path: Path) -> None:
    """Make sure ``path`` is a healthy database: create it, or set a damaged one aside and start fresh."""
    ident = _identity(path)
    with _checked_lock:
        if ident is not None and ident in _checked:
            return
    path.parent.mkdir(parents=True, exist_ok=True)
    with damage.file_lock(path.with_name(f".{path.name}.lock")):
        why = inspect_database(path)
        if why == "missing":
            for suffix in ("-wal", "-shm", "-journal"):  # leftovers of a file someone deleted
                side = Path(f"{path}{suffix}")
                if os.path.lexists(side):
                    os.replace(side, damage.aside_name(path, f"orphan{suffix}"))
            _create_database(path)
        elif why:
            try:
                copy = _set_aside(path)
            except OSError as exc:
                raise StoreDamagedError(
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "The database {path} is damaged ({why}) and could not be moved aside ({error})."
                    ),
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Move or delete the file yourself (keep a copy), then start LabGPU again."
                    ),
                    code="DatabaseDamaged",
                    path=str(path),
                    why=why,
                    error=exc.strerror or str(exc),
                ) from None
            _create_database(path)
            damage.report(damage.DamageNotice("database", path, copy, why, lost=_lost_summary()))
        ident = _identity(path)
        if ident is not None:
            with _checked_lock:
                _checked.add(ident)


class Store:
    def __init__(self, path: Path | None = None, paths: Paths | None = None) -> None:
        if path is None:
            path = (paths or default_paths()).ensure().database_file
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._local = threading.local()
        open_checked(self.path)
        self.migrate()

    def connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            try:
                conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
                conn.row_factory = sqlite3.Row
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
                conn.execute("PRAGMA foreign_keys=ON")
            except sqlite3.DatabaseError as exc:
                if _is_damage(exc):
                    raise _damaged_error(self.path, exc) from None
                raise
            self._local.conn = conn
        return conn

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        conn = self.connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            if _is_damage(exc):
                raise _damaged_error(self.path, exc) from None
            raise
        conn.execute("COMMIT")

    def execute(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> sqlite3.Cursor:
        try:
            return self.connection().execute(sql, params)
        except sqlite3.DatabaseError as exc:
            if _is_damage(exc):
                raise _damaged_error(self.path, exc) from None
            raise

    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        try:
            return list(self.connection().execute(sql, params))
        except sqlite3.DatabaseError as exc:
            if _is_damage(exc):
                raise _damaged_error(self.path, exc) from None
            raise

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None

    def migrate(self) -> None:
        """Apply missing migrations of every registered feature (cheap when nothing is missing)."""
        try:
            self._migrate()
        except sqlite3.DatabaseError as exc:
            if _is_damage(exc):
                raise _damaged_error(self.path, exc) from None
            raise

    def _migrate(self) -> None:
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
                    # Another process may have applied it between our read and our lock.
                    row = conn.execute("SELECT version FROM schema_versions WHERE feature=?", (feature,)).fetchone()
                    if (row[0] if row else 0) > i:
                        conn.execute("ROLLBACK")
                        continue
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
