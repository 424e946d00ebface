"""Exactly one watcher at a time, and always one: a lock file holding the watcher's pid and kind.

``fcntl.flock`` on POSIX (released by the kernel when the process dies, so a crashed watcher never
blocks the next one); the file says who holds it: ``<pid> <kind>`` where kind is ``watch`` (the
``labgpu watch`` command), ``tray`` or ``window``. Where flock is missing (Windows) the pid alone
decides: a lock whose pid is not alive is stale and taken over.

A process that wants to watch while another holds the lock does not give up: it waits
(``wait_acquire`` polls the flock every ``WAIT_POLL_S``) and takes over as soon as the holder exits
or dies, so closing one watcher never leaves the guards unwatched while another LabGPU runs.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path

from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

WAIT_POLL_S = 0.5  # a waiting watcher takes over at most this long after the holder is gone
KINDS = ("watch", "tray", "window")
KIND_NAMES = {"watch": "labgpu watch", "tray": "the tray", "window": "the LabGPU window"}


class WatchLockedError(LabGpuError):
    pass


MSG_LOCKED = QT_TRANSLATE_NOOP("LabGPU", "Another LabGPU (process {pid}) is already applying the guards")
HINT_LOCKED = QT_TRANSLATE_NOOP("LabGPU", "stop that one first (close the window or tray, or interrupt its "
                                          "`labgpu watch`); only one may act, so nothing is stopped twice")


@dataclass(frozen=True)
class Holder:
    pid: int
    kind: str  # "watch" | "tray" | "window" | "" (an older LabGPU wrote only its pid)

    def describe(self) -> str:
        """English words for the CLI: "process 1234 (labgpu watch)"."""
        name = KIND_NAMES.get(self.kind, "")
        return f"process {self.pid}" + (f" ({name})" if name else "")


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _parse(text: str) -> Holder | None:
    parts = text.strip().split()
    if not parts or not parts[0].isdigit() or len(parts[0]) > 10:
        return None
    kind = parts[1] if len(parts) > 1 and parts[1] in KINDS else ""
    return Holder(int(parts[0]), kind)


class WatchLock:
    def __init__(self, path: Path, kind: str = "watch") -> None:
        self.path = Path(path)
        self.kind = kind if kind in KINDS else "watch"
        self._fd: int | None = None

    def holder_info(self) -> Holder | None:
        """Who holds the lock now (pid and kind), or None."""
        try:
            text = self.path.read_text(encoding="ascii", errors="replace")[:64]
        except OSError:
            return None
        found = _parse(text)
        if found is None:
            return None
        if found.pid == os.getpid() and self._fd is not None:
            return found
        if fcntl is not None:
            try:
                fd = os.open(self.path, os.O_RDWR)
            except OSError:
                return None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return found  # someone holds the flock
            else:
                fcntl.flock(fd, fcntl.LOCK_UN)
                return None  # stale: nobody holds it
            finally:
                os.close(fd)
        return found if _pid_alive(found.pid) else None

    def holder(self) -> int | None:
        """The pid that holds the lock now, or None."""
        info = self.holder_info()
        return None if info is None else info.pid

    def acquire(self) -> bool:
        """Take the lock (a stale one is taken over); False when another live watcher holds it."""
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                return False
        else:  # pragma: no cover - Windows
            holder = self.holder()
            if holder is not None and holder != os.getpid():
                os.close(fd)
                return False
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()} {self.kind}".encode("ascii"))
        os.fsync(fd)
        self._fd = fd
        return True

    def wait_acquire(self, stop: threading.Event | None = None, poll_s: float = WAIT_POLL_S) -> bool:
        """Take the lock, waiting while another watcher holds it (polled every ``poll_s``); True once
        held, False when ``stop`` was set first."""
        while True:
            if self.acquire():
                return True
            if stop is None:
                threading.Event().wait(poll_s)
            elif stop.wait(poll_s):
                return False

    def require(self) -> None:
        if not self.acquire():
            raise WatchLockedError(MSG_LOCKED, HINT_LOCKED, code="WatchLocked", pid=self.holder() or "?")

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            os.ftruncate(fd, 0)
        except OSError:
            pass
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    @property
    def held(self) -> bool:
        return self._fd is not None
