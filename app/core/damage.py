"""Damaged local state: what was set aside, where the copy is, and who tells the user.

The store (SQLite) and the settings loader never crash on a damaged file: they move or copy it
aside under a timestamped name that is never reused, start fresh (or reset only the bad fields),
and report a :class:`DamageNotice` here. Without a listener (the CLI) each notice is printed on
stderr at once; the GUI registers a listener that shows a dialog. Pure: no Qt, no printing policy
beyond that fallback.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

_lock = threading.Lock()
_listeners: list[Callable[[DamageNotice], None]] = []
_history: list[DamageNotice] = []


@dataclass(frozen=True)
class DamageNotice:
    """``kind``: "database", "settings", "settings-fields" or "settings-newer"."""

    kind: str
    path: Path  # the file LabGPU uses
    copy: Path | None  # where the original was kept (None: nothing could be kept, or not changed)
    reason: str  # technical detail (English, for the log and the CLI)
    lost: str = ""  # what the user no longer sees (English summary)
    fields: tuple[str, ...] = ()  # for "settings-fields": the names reset to their defaults

    def one_line(self) -> str:
        """The CLI's stderr line."""
        if self.kind == "database":
            return (f"warning: the database {self.path} was damaged ({self.reason}); "
                    f"{self.lost} are not in the new, empty database. The damaged file is kept as "
                    f"{self.copy} — keep it if you need to recover something; LabGPU goes on with a fresh one.")
        if self.kind == "settings":
            kept = f"kept as {self.copy}" if self.copy else "could not be kept"
            return (f"warning: the settings file {self.path} could not be read ({self.reason}); "
                    f"it was {kept}; LabGPU uses the default settings.")
        if self.kind == "settings-fields":
            return (f"warning: settings {', '.join(self.fields)} in {self.path} had wrong values "
                    f"and were reset to their defaults; the original file is kept as {self.copy}.")
        if self.kind == "settings-newer":
            return (f"warning: {self.path} was written by a newer LabGPU ({self.reason}); it is used "
                    "read-only and will not be changed — update LabGPU to keep your settings changes.")
        return f"warning: {self.path}: {self.reason}"


def add_listener(fn: Callable[[DamageNotice], None]) -> None:
    with _lock:
        _listeners.append(fn)


def remove_listener(fn: Callable[[DamageNotice], None]) -> None:
    with _lock:
        if fn in _listeners:
            _listeners.remove(fn)


def history() -> list[DamageNotice]:
    with _lock:
        return list(_history)


def report(notice: DamageNotice) -> None:
    log.warning("%s", notice.one_line())
    with _lock:
        _history.append(notice)
        listeners = list(_listeners)
    if not listeners:
        try:
            print(f"labgpu: {notice.one_line()}", file=sys.stderr, flush=True)
        except (OSError, ValueError):
            pass
        return
    for fn in listeners:
        try:
            fn(notice)
        except Exception:  # noqa: BLE001 - telling the user must never break opening the state
            log.exception("damage listener failed")


def stamp() -> str:
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())


def aside_name(path: Path, label: str) -> Path:
    """``name.<label>-<UTC time>[-N].ext`` next to ``path``, never an existing name."""
    stem, suffix = path.stem, path.suffix
    base = f"{stem}.{label}-{stamp()}"
    n = 1
    while True:
        cand = path.with_name(f"{base}{'' if n == 1 else f'-{n}'}{suffix}")
        if not os.path.lexists(cand) and not any(
            os.path.lexists(f"{cand}{s}") for s in ("-wal", "-shm")
        ):
            return cand
        n += 1


def claim_copy_name(path: Path, label: str) -> Path:
    """Like :func:`aside_name`, but the name is created (empty, exclusively) so no one else takes it."""
    while True:
        cand = aside_name(path, label)
        try:
            fd = os.open(cand, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        os.close(fd)
        return cand


@contextmanager
def file_lock(lock_path: Path) -> Iterator[None]:
    """An exclusive lock between LabGPU processes (fcntl / msvcrt); a thread lock as well."""
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with _thread_lock(str(lock_path)):
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if sys.platform == "win32":  # pragma: no cover - exercised on Windows only
                import msvcrt

                while True:
                    try:
                        msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
                        break
                    except OSError:
                        continue
                try:
                    yield
                finally:
                    os.lseek(fd, 0, os.SEEK_SET)
                    msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
            else:
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_EX)
                try:
                    yield
                finally:
                    fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


_thread_locks: dict[str, threading.Lock] = {}


@contextmanager
def _thread_lock(key: str) -> Iterator[None]:
    with _lock:
        lk = _thread_locks.setdefault(key, threading.Lock())
    with lk:
        yield
