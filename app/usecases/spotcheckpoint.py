"""Spot recovery's checkpoint (app/usecases/spotrecovery.py runs the journey): the newest checkpoint file
copied off the reclaimed instance over SFTP before its warning window closes (what was saved and what
was not, said in one sentence), and pushed to the relaunched instance.

With a checkpoint bucket in the policy the instance itself uploads the checkpoint there first, in-region
with presigned links (app/usecases/bucketinstance.py), inside the same window.

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
from app.core.paths import Paths
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
WHAT_BUCKET = QT_TRANSLATE_NOOP("LabGPU", "{name} ({size}) uploaded by the instance to {bucket}")
MSG_FETCH_FAILED = QT_TRANSLATE_NOOP("LabGPU", "The new instance could not fetch the checkpoint {url}: {why}")
HINT_FETCH_FAILED = QT_TRANSLATE_NOOP("LabGPU", "The job starts from scratch; fetch it yourself with "
                                                "labgpu sync URL HOST:DIR and start the job again.")
WHAT_BUCKET_FAILED = QT_TRANSLATE_NOOP("LabGPU", "not uploaded to {bucket}: {why}")


def plain(text: Any, limit: int = MAX_SHOWN) -> str:
    """Outside text (a cloud's, a host's) as one plain line, capped."""
    s = "".join(ch if ch.isprintable() else " " for ch in str(text))
    return s if len(s) <= limit else s[: limit - 1] + "…"


def copy_latest(conn: Connection, policy: RecoveryPolicy, deadline: float,
                clock: Callable[[], float], *, paths: Paths | None = None) -> tuple[str, str]:
    """Copy the newest file matching the policy's pattern in its checkpoint folder to its local folder,
    stopping when ``clock()`` reaches ``deadline``: (what was saved and what was not, the local file or
    "" when none was saved). When the policy names a checkpoint bucket, the instance first uploads the
    file there itself (in-region, presigned links, within the window); then the laptop copy follows
    with the time left. When only the bucket got it, the second value is the object's bucket URL (see
    :func:`fetch_checkpoint`)."""
    folder = policy.checkpoint_remote
    bucket_what, bucket_url, latest_name = "", "", ""
    if policy.checkpoint_bucket:
        latest_name = _latest_name(conn, policy)
        if latest_name:
            bucket_what, bucket_url = _to_bucket(conn, policy, latest_name, deadline, clock, paths)
    # the laptop gets the same checkpoint the bucket got (the training may write a newer one meanwhile)
    what, local = _copy_to_laptop(conn, policy, deadline, clock, folder, latest_name if bucket_url else "")
    if bucket_what:
        what = bucket_what + "; " + what
    return what, local or bucket_url


def _latest_name(conn: Connection, policy: RecoveryPolicy) -> str:
    sftp = conn.open_sftp()
    try:
        try:
            listing = sftp.listdir_attr(_sftp_path(policy.checkpoint_remote))
        except OSError:
            return ""
    finally:
        sftp.close()
    files = [a for a in listing if a.st_mode is not None and stat.S_ISREG(a.st_mode)
             and fnmatch.fnmatch(a.filename, policy.checkpoint_pattern)]
    files.sort(key=lambda a: (a.st_mtime or 0, _natural(a.filename)))
    return files[-1].filename if files else ""


def _to_bucket(conn: Connection, policy: RecoveryPolicy, name: str, deadline: float, clock: Callable[[], float],
               paths: Paths | None) -> tuple[str, str]:
    """The instance uploads ``name`` to the policy's bucket (presigned links; no key on it): (what was
    said, the object's URL or "" when it did not get there)."""
    from app.core.buckets import parse_bucket_url
    from app.core.errors import LabGpuError
    from app.core.paths import default_paths
    from app.usecases.bucketinstance import host_to_bucket

    shown = plain(policy.checkpoint_bucket, 120)
    try:
        url = parse_bucket_url(policy.checkpoint_bucket)
        left = deadline - clock()
        if left <= 1:
            return translate(WHAT_BUCKET_FAILED).format(bucket=shown, why=translate(WHAT_LATE)), ""
        result = host_to_bucket("", policy.checkpoint_remote, url, policy.checkpoint_account,
                                paths=paths or default_paths(), conn=conn, only=[name], force=True,
                                time_limit=left)
    except (LabGpuError, OSError) as exc:
        why = exc.one_line() if isinstance(exc, LabGpuError) else (str(exc) or type(exc).__name__)
        return translate(WHAT_BUCKET_FAILED).format(bucket=shown, why=plain(why)), ""
    if not result.complete or result.files != 1:
        why = result.not_transferred[0]["why"] if result.not_transferred else "?"
        return translate(WHAT_BUCKET_FAILED).format(bucket=shown, why=plain(why)), ""
    target = str(url.child(name))
    return translate(WHAT_BUCKET).format(name=plain(name, 120), size=_size(result.bytes), bucket=shown), target


def fetch_checkpoint(conn: Connection, policy: RecoveryPolicy, object_url: str, *,
                     paths: Paths | None = None) -> str:
    """The checkpoint object ``object_url`` (what :func:`copy_latest` returned when only the bucket got
    it) fetched by the new instance itself into the policy's checkpoint folder; its path there (relative
    paths are the login folder's, like :func:`push_checkpoint`'s absolute one)."""
    from app.core.buckets import BucketUrl, parse_bucket_url
    from app.core.paths import default_paths
    from app.usecases.bucketinstance import bucket_to_host

    obj = parse_bucket_url(object_url)
    parent, _, name = obj.prefix.rpartition("/")
    result = bucket_to_host("", BucketUrl(obj.scheme, obj.bucket, parent), policy.checkpoint_account,
                            policy.checkpoint_remote, paths=paths or default_paths(), conn=conn, only=[name],
                            force=True)
    if not result.complete or result.files != 1:
        from app.core.errors import LabGpuError

        why = result.not_transferred[0]["why"] if result.not_transferred else "?"
        raise LabGpuError(MSG_FETCH_FAILED, HINT_FETCH_FAILED, code="CheckpointFetch", url=plain(object_url),
                          why=plain(why))
    sftp = conn.open_sftp()
    try:
        return posixpath.join(sftp.normalize(_sftp_path(policy.checkpoint_remote)), name)
    finally:
        sftp.close()


def _copy_to_laptop(conn: Connection, policy: RecoveryPolicy, deadline: float, clock: Callable[[], float],
                    folder: str, prefer: str = "") -> tuple[str, str]:
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
        latest = next((a for a in files if a.filename == prefer), files[-1])
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
