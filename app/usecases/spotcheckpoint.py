"""Spot recovery's checkpoint (app/usecases/spotrecovery.py runs the journey): the newest checkpoint file
copied off the reclaimed instance over SFTP before its warning window closes (what was saved and what
was not, said in one sentence), and pushed to the relaunched instance.

Blocking (SFTP): the watcher runs the journey on its own thread (app/watch/recovery.py).
"""

from __future__ import annotations

import fnmatch
import posixpath
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.recoverypolicy import RecoveryPolicy
from app.remote.ssh import Connection

MAX_SHOWN = 200  # characters of outside text (a file name, a cloud's message) put in a sentence

# what was saved and what was not
WHAT_SAVED = QT_TRANSLATE_NOOP("LabGPU", "{name} ({size}) to {local}")
WHAT_OLDER = QT_TRANSLATE_NOOP("LabGPU", "; not saved: {count} older checkpoint(s), lost with the instance")
WHAT_NONE = QT_TRANSLATE_NOOP("LabGPU", "no file matching {pattern} in {folder}")
WHAT_NO_FOLDER = QT_TRANSLATE_NOOP("LabGPU", "the policy names no checkpoint folder")
WHAT_TOO_BIG = QT_TRANSLATE_NOOP("LabGPU", "{name} ({size}) did not fit the warning window: {done} copied "
                                           "when it closed")
WHAT_FAILED = QT_TRANSLATE_NOOP("LabGPU", "the instance could not be read: {why}")
WHAT_LATE = QT_TRANSLATE_NOOP("LabGPU", "the warning window had closed")


def plain(text: Any, limit: int = MAX_SHOWN) -> str:
    """Outside text (a cloud's, a host's) as one plain line, capped."""
    s = "".join(ch if ch.isprintable() else " " for ch in str(text))
    return s if len(s) <= limit else s[: limit - 1] + "…"


def copy_latest(conn: Connection, policy: RecoveryPolicy, deadline: float,
                clock: Callable[[], float]) -> tuple[str, str]:
    """Copy the newest file matching the policy's pattern in its checkpoint folder to its local folder,
    stopping when ``clock()`` reaches ``deadline``: (what was saved and what was not, the local file or
    "" when none was saved)."""
    folder = policy.checkpoint_remote
    sftp = conn.open_sftp()
    try:
        where = _sftp_path(folder)
        try:
            listing = sftp.listdir_attr(where)
        except OSError:
            listing = []
        files = [a for a in listing if a.st_mode is not None and stat.S_ISREG(a.st_mode)
                 and fnmatch.fnmatch(a.filename, policy.checkpoint_pattern)]
        if not files:
            return translate(WHAT_NONE).format(pattern=plain(policy.checkpoint_pattern, 80),
                                               folder=plain(folder, 120)), ""
        files.sort(key=lambda a: (a.st_mtime or 0, _natural(a.filename)))
        latest = files[-1]
        size = int(latest.st_size or 0)
        local_dir = Path(policy.checkpoint_local).expanduser()
        local_dir.mkdir(parents=True, exist_ok=True)
        name = posixpath.basename(latest.filename)
        final = local_dir / name
        part = local_dir / f".{name}.labgpu-part"
        copied = [0]

        def progress(done: int, _total: int) -> None:
            copied[0] = done
            if clock() >= deadline:
                raise TimeoutError

        try:
            sftp.get(posixpath.join(where, latest.filename), str(part), callback=progress)
        except TimeoutError:
            part.unlink(missing_ok=True)
            return translate(WHAT_TOO_BIG).format(name=plain(name, 120), size=_size(size),
                                                  done=_size(copied[0])), ""
        part.replace(final)
    finally:
        sftp.close()
    what = translate(WHAT_SAVED).format(name=plain(name, 120), size=_size(size), local=plain(final, 200))
    if len(files) > 1:
        what += translate(WHAT_OLDER).format(count=len(files) - 1)
    return what, str(final)


def push_checkpoint(conn: Connection, local: Path, remote_folder: str) -> str:
    """Put the saved checkpoint in ``remote_folder`` on the new instance; its absolute path there."""
    sftp = conn.open_sftp()
    try:
        home = sftp.normalize(".")
        folder = remote_folder if remote_folder.startswith("/") else posixpath.join(home, _sftp_path(remote_folder))
        _makedirs(sftp, folder)
        dest = posixpath.join(folder, local.name)
        part = posixpath.join(folder, f".{local.name}.labgpu-part")
        sftp.put(str(local), part)
        try:
            sftp.remove(dest)
        except OSError:
            pass
        sftp.rename(part, dest)
        return dest
    finally:
        sftp.close()


def _makedirs(sftp: Any, folder: str) -> None:
    parts = folder.strip("/").split("/")
    path = ""
    for p in parts:
        path += "/" + p
        try:
            sftp.stat(path)
        except OSError:
            sftp.mkdir(path)


def _sftp_path(path: str) -> str:
    """An SFTP path: ``~/x`` is relative to the login folder."""
    if path == "~":
        return "."
    return path[2:] if path.startswith("~/") else path


def _natural(name: str) -> tuple[Any, ...]:
    import re

    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name))


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n = n / 1024  # type: ignore[assignment]
    return f"{n} B"
