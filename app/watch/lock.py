"""Exactly one watcher at a time: a lock file holding the watcher's pid.

``fcntl.flock`` on POSIX (released by the kernel when the process dies, so a crashed watcher never
blocks the next one); the pid in the file says who holds it. Where flock is missing (Windows) the
pid alone decides: a lock whose pid is not alive is stale and taken over.
"""

from __future__ import annotations

import os
from pathlib import Path

from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class WatchLockedError(LabGpuError):
    pass


MSG_LOCKED = QT_TRANSLATE_NOOP("LabGPU", "Another LabGPU (process {pid}) is already applying the guards")
HINT_LOCKED = QT_TRANSLATE_NOOP("LabGPU", "stop that one first (close the window or tray, or interrupt its "
                                          "`labgpu watch`); only one may act, so nothing is stopped twice")


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


class WatchLock:
    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._fd: int | None = None

    def holder(self) -> int | None:
        """The pid that holds the lock now, or None."""
        try:
            text = self.path.read_text(encoding="ascii", errors="replace").strip()
        except OSError:
            return None
        if not text.isdigit():
            return None
        pid = int(text)
        if pid == os.getpid() and self._fd is not None:
            return pid
        if fcntl is not None:
            try:
                fd = os.open(self.path, os.O_RDWR)
            except OSError:
                return None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return pid  # someone holds the flock
            else:
                fcntl.flock(fd, fcntl.LOCK_UN)
                return None  # stale: nobody holds it
            finally:
                os.close(fd)
        return pid if _pid_alive(pid) else None

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
        os.write(fd, str(os.getpid()).encode("ascii"))
        os.fsync(fd)
        self._fd = fd
        return True

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
