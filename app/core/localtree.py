"""The local side of a sync: listing a folder, paths that cannot leave the root, file checksums.

Shared by the SSH sync engine (``app.remote.sync``) and the bucket engine (``app.cloud.storage``);
plain file-system code, so it lives in core."""

from __future__ import annotations

import hashlib
import logging
import os
import stat as statmod
import threading
from pathlib import Path

from .errors import LabGpuError
from .i18n import QT_TRANSLATE_NOOP
from .syncplan import DIR, FILE, LINK, OTHER, Entry, unsafe_path


class LocalTreeError(LabGpuError):
    """A local path a sync refused (an unsafe name, a path that would leave the root)."""

log = logging.getLogger(__name__)


def list_local(
    root: Path, errors: list[str] | None = None, reasons: dict[str, str] | None = None
) -> dict[str, Entry]:
    """Walk without following symlinks; names as ``str`` (surrogateescape for non-UTF-8).
    Folders that cannot be read are appended to ``errors`` (and why, to ``reasons``)."""
    out: dict[str, Entry] = {}
    if not root.exists():
        return out
    stack = [("", str(root))]
    while stack:
        rel, full = stack.pop()
        try:
            it = os.scandir(full)
        except OSError as exc:
            log.warning("cannot list %s: %s", full, exc)
            if errors is not None:
                errors.append(rel or ".")
            if reasons is not None:
                reasons[rel or "."] = exc.strerror or str(exc)
            continue
        with it:
            for de in it:
                path = f"{rel}/{de.name}" if rel else de.name
                try:
                    st = de.stat(follow_symlinks=False)
                except OSError:
                    continue
                if statmod.S_ISLNK(st.st_mode):
                    kind = LINK
                elif statmod.S_ISDIR(st.st_mode):
                    kind = DIR
                    stack.append((path, de.path))
                elif statmod.S_ISREG(st.st_mode):
                    kind = FILE
                else:
                    kind = OTHER
                out[path] = Entry(
                    path, kind, st.st_size if kind == FILE else 0, st.st_mtime, statmod.S_IMODE(st.st_mode)
                )
    return out


class LocalRoot:
    """Maps a planned relative path to a local path that is guaranteed to stay below the root.
    ``error_class``: what a refusal raises (the SSH engine's SyncError, the bucket engine's own)."""

    error_class: type[LabGpuError] = LocalTreeError

    def __init__(self, root: Path) -> None:
        self.root = root
        self.real = os.path.realpath(root)
        self._ok_dirs: set[str] = set()

    def path(self, rel: str) -> str:
        if unsafe_path(rel):
            raise self.error_class(
                QT_TRANSLATE_NOOP("LabGPU", "Refused the unsafe file name {name!r}."),
                "",
                code="UnsafeName",
                name=rel,
            )
        full = os.path.join(self.real, *rel.split("/"))
        parent = os.path.dirname(full)
        if parent not in self._ok_dirs:
            real_parent = os.path.realpath(parent)
            if real_parent != self.real and not real_parent.startswith(self.real + os.sep):
                raise self.error_class(
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Refused to write {name!r}: it would land outside the destination folder."
                    ),
                    "",
                    code="OutsideRoot",
                    name=rel,
                )
            self._ok_dirs.add(parent)
        return full


def sha256_file(path: str, limit: int | None = None) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        left = limit
        while True:
            n = 1 << 20 if left is None else min(1 << 20, left)
            if n == 0:
                break
            chunk = fh.read(n)
            if not chunk:
                break
            h.update(chunk)
            if left is not None:
                left -= len(chunk)
    return h.hexdigest()


_umask_lock = threading.Lock()


def local_umask() -> int:
    """This process's umask, read without changing it where the OS allows (Linux: /proc; elsewhere
    set and restored at once under a lock). Downloaded files get ``mode & ~umask``, as files
    created here do: a remote 0777 never becomes a world-writable local file."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8) & 0o777
    except (OSError, ValueError, IndexError):
        pass
    with _umask_lock:
        old = os.umask(0o077)
        os.umask(old)
    return old & 0o777
