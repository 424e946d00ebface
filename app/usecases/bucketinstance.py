"""A bucket straight to a host's folder and back, moved BY the host with presigned URLs this computer
signs (``labgpu sync cos://b/p HOST:DIR`` and ``labgpu sync HOST:DIR cos://b/p``, a job's bucket pair,
spot recovery's checkpoint): in-region speed, and the rented machine never holds a key.

* The laptop lists the bucket (ListObjectsV2) and the host folder (SFTP), checks every name
  (:func:`app.remote.presigned.check_rel`: a key that could become a path outside the folder is
  ``not_transferred`` with why, never sent), then hands the host batches of presigned links on stdin
  (:mod:`app.remote.presigned`); each batch is signed just before it goes, its links living
  :func:`app.cloud.storage.presign.expiry_for` its bytes (a floor plus a slow rate), never days.
* Quick check: a file is skipped when the other side has the same size and is not older (a host
  file's mtime against the object's LastModified); ``force`` transfers everything.
* Uploads over 5 GiB go as a multipart upload the laptop creates and completes, the host PUTting
  each part with its own link; a failed part aborts the upload (nothing left billing). After an
  upload the bucket is listed again and every object's size compared: a transfer never reports
  success on a partial result.
* An account's ``extra["instance_proxy"]`` (an HTTP proxy the *instance* reaches the bucket through;
  tests route the services' virtual-hosted names to the local S3 peer that way) is handed to the host
  with the links; the account's ``storage_proxy`` is this computer's and is never used there. Its
  ``extra["instance_endpoint"]`` is the endpoint the links are signed for (OSS's internal one, say:
  :func:`app.cloud.storage.presign.for_instance`).
* A saved pair may be between a bucket and a host's folder (:func:`is_instance_pair`, :func:`run_pair`):
  a job's pair fetches its data before the job starts (app/usecases/jobs.py).
* An expired link is a clear error with what to do (run it again: new links are signed for what is
  left; check this computer's clock).

Blocking (SSH, HTTP): run it in a task; ``cancel`` (a threading.Event) stops between batches.
"""

from __future__ import annotations

import posixpath
import stat
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from app.cloud.base import Credentials
from app.cloud.storage import presign
from app.cloud.storage.client import StorageTarget
from app.core.buckets import MAX_SINGLE_PUT, BucketUrl, is_bucket_url, key_problem
from app.core.errors import InputError, LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.paths import Paths
from app.core.syncmodel import DOWN, UP, SyncProgress, SyncResult
from app.core.syncplan import remote_target
from app.remote import presigned
from app.remote.presigned import GET, PART, PUT, Item, Outcome
from app.remote.ssh import Connection

Connect = Callable[[], Connection]
Progress = Callable[[SyncProgress], None]

BATCH_FILES = 256  # links per exec, at most
BATCH_BYTES = 2 * 1024 * 1024 * 1024  # bytes per exec, at most (a batch's links live for its bytes)
CHANNELS = 4  # execs at once on the host
# a batch whose files average less than this goes through python3 when the host has it: one process for the
# batch instead of a curl (and a few shell helpers) per file — measured on the test sshd and the S3 peer:
# 1,000 files of 4 KiB took 13.9 s with curl and 6.3 s with python3; a 128 MiB file 0.59 s with curl and
# 0.77 s with python3
SMALL_FILE = 1024 * 1024
MAX_HOST_FILES = 200_000  # files listed below the host folder, at most

MSG_EXPIRED = QT_TRANSLATE_NOOP("LabGPU", "{n} presigned link(s) expired before {host} could use them "
                                          "({first}).")
HINT_EXPIRED = QT_TRANSLATE_NOOP("LabGPU", "Run the sync again: LabGPU signs new links for what is left. If it "
                                           "repeats, check this computer's clock (links are signed with it) "
                                           "and the instance's link to the bucket.")
MSG_TOO_MANY = QT_TRANSLATE_NOOP("LabGPU", "{where} holds more than {n} files; LabGPU stops listing there.")
HINT_TOO_MANY = QT_TRANSLATE_NOOP("LabGPU", "Sync a smaller folder or prefix.")
MSG_NOT_FOLDER = QT_TRANSLATE_NOOP("LabGPU", "{host}:{remote} is not a folder LabGPU can read.")
HINT_NOT_FOLDER = QT_TRANSLATE_NOOP("LabGPU", "Check the folder's name on the host (labgpu sync HOST:DIR URL).")
WHY_HTTP = QT_TRANSLATE_NOOP("LabGPU", "the bucket answered {code} to the instance: {why}")
WHY_NO_ANSWER = QT_TRANSLATE_NOOP("LabGPU", "the instance could not reach the bucket: {why}")
WHY_SIZE_AFTER = QT_TRANSLATE_NOOP("LabGPU", "the bucket holds {got} bytes after the upload instead of {want}")
WHY_NOT_FILE = QT_TRANSLATE_NOOP("LabGPU", "not a regular file (a link or a device): not copied")
WHY_CANCELLED = QT_TRANSLATE_NOOP("LabGPU", "cancelled before it was transferred")
WHY_PARTS = QT_TRANSLATE_NOOP("LabGPU", "part {n} failed ({why}); the multipart upload was aborted")


@dataclass(frozen=True)
class _Job:
    """One file to move: its relative name, key, size, and (big uploads) the multipart upload."""

    rel: str
    key: str
    size: int


def _cancelled(cancel: threading.Event | None) -> bool:
    return cancel is not None and cancel.is_set()


def _resolve(url: BucketUrl | str, account: str, paths: Paths) -> tuple[StorageTarget, Credentials]:
    from app.usecases.buckets import resolve_bucket

    return resolve_bucket(url, account, paths=paths)


def _connect(paths: Paths, host: str, connect: Connect | None, conn: Connection | None) -> Connection:
    if conn is not None:
        return conn
    if connect is not None:
        return connect()
    from app.usecases.guards import connect_target

    return connect_target(paths, host)()


def _host_name(conn: Connection, host: str) -> str:
    return str(getattr(getattr(conn, "record", None), "name", "") or host)


def host_files(conn: Connection, remote_dir: str, *, limit: int = MAX_HOST_FILES
               ) -> tuple[dict[str, tuple[int, float]], list[str]]:
    """The regular files below ``remote_dir`` on the host over SFTP: ({rel: (size, mtime)}, the names of
    links and other non-files). {} when the folder does not exist."""
    root = remote_target(remote_dir)
    sftp = conn.open_sftp()
    files: dict[str, tuple[int, float]] = {}
    others: list[str] = []
    try:
        try:
            st = sftp.stat(root)
        except OSError:
            return {}, []
        if not stat.S_ISDIR(st.st_mode or 0):
            raise InputError(MSG_NOT_FOLDER, HINT_NOT_FOLDER, code="NotAFolder", host=_host_name(conn, ""),
                             remote=presigned.plain(remote_dir, 200))
        todo = [""]
        while todo:
            rel_dir = todo.pop()
            for a in sftp.listdir_attr(posixpath.join(root, rel_dir) if rel_dir else root):
                rel = f"{rel_dir}/{a.filename}" if rel_dir else a.filename
                mode = a.st_mode or 0
                if stat.S_ISDIR(mode):
                    todo.append(rel)
                elif stat.S_ISREG(mode):
                    files[rel] = (int(a.st_size or 0), float(a.st_mtime or 0))
                else:
                    others.append(rel)
                if len(files) + len(others) > limit:
                    raise InputError(MSG_TOO_MANY, HINT_TOO_MANY, code="TooManyFiles",
                                     where=presigned.plain(remote_dir, 200), n=limit)
    finally:
        sftp.close()
    return files, others


def _named_files(conn: Connection, remote_dir: str, names: Sequence[str]
                 ) -> tuple[dict[str, tuple[int, float]], list[str]]:
    """Just ``names`` below ``remote_dir`` (one SFTP stat each, no walk): a checkpoint in a big folder."""
    root = remote_target(remote_dir)
    files: dict[str, tuple[int, float]] = {}
    others: list[str] = []
    sftp = conn.open_sftp()
    try:
        for rel in names:
            presigned.check_rel(rel)
            try:
                a = sftp.lstat(posixpath.join(root, rel))
            except OSError:
                continue
            if stat.S_ISREG(a.st_mode or 0):
                files[rel] = (int(a.st_size or 0), float(a.st_mtime or 0))
            else:
                others.append(rel)
    finally:
        sftp.close()
    return files, others


class _Run:
    """The shared part of both directions: batches run on the host in parallel, progress, outcomes."""

    def __init__(self, conn: Connection, host: str, tool: str, remote_dir: str, proxy: str,
                 progress: Progress | None, cancel: threading.Event | None, total_files: int, total_bytes: int,
                 channels: int) -> None:
        self.conn, self.host, self.tool, self.remote_dir, self.proxy = conn, host, tool, remote_dir, proxy
        self.progress, self.cancel = progress, cancel
        self.lock = threading.Lock()
        self.p = SyncProgress(state="transferring", files_total=total_files, bytes_total=total_bytes)
        self.started = time.monotonic()
        self.channels = max(1, min(16, int(channels)))
        self.expired: list[str] = []
        self.time_limit: float | None = None
        self.small_tool = tool  # batches of small files: one python3 process beats a curl per file

    def tool_for(self, items: Sequence[Item]) -> str:
        sizes = [it.length if it.op == PART else it.size for it in items]
        small = bool(sizes) and sum(sizes) / len(sizes) < SMALL_FILE
        return self.small_tool if small else self.tool

    def tell(self) -> None:
        if self.progress is not None:
            el = max(1e-6, time.monotonic() - self.started)
            self.p.rate = self.p.bytes_done / el
            left = self.p.bytes_total - self.p.bytes_done
            self.p.eta = left / self.p.rate if self.p.rate > 0 else None
            self.progress(SyncProgress(**vars(self.p)))

    def run(self, batches: Sequence[tuple[int, Callable[[], list[Item]]]]) -> list[list[Outcome]]:
        """Each batch (its bytes, a function that signs its links now) on the host; a cancelled run
        leaves the batches not started with no outcome ([])."""
        def one(batch: tuple[int, Callable[[], list[Item]]]) -> list[Outcome]:
            nbytes, make = batch
            if _cancelled(self.cancel):
                return []
            items = make()
            timeout = float(presign.expiry_for(nbytes)) + 600.0
            if self.time_limit is not None:
                timeout = max(1.0, min(timeout, self.time_limit))
            outs = presigned.run_batch(self.conn, self.tool_for(items), self.remote_dir, items, proxy=self.proxy,
                                       timeout=timeout)
            with self.lock:
                for it, o in zip(items, outs, strict=True):
                    if o.ok:
                        self.p.files_done += 0 if it.op == PART else 1
                        self.p.bytes_done += o.nbytes
                    elif _is_expired(o):
                        self.expired.append(it.rel)
                    self.p.current = it.rel
                self.tell()
            return outs

        with ThreadPoolExecutor(max_workers=self.channels, thread_name_prefix="labgpu-presigned") as pool:
            return list(pool.map(one, batches))

    def check_expired(self) -> None:
        if self.expired:
            raise LabGpuError(MSG_EXPIRED, HINT_EXPIRED, code="PresignedExpired", n=len(self.expired),
                              host=self.host, first=presigned.plain(self.expired[0], 120))


def _small_tool(tools: presigned.Tools, tool: str, result: SyncResult) -> str:
    """python3 for batches of small files when the host has it (said in ``server``), else ``tool``."""
    small = "python3" if tools.python3 else tool
    result.server["small_files_with"] = small
    return small


def _is_expired(o: Outcome) -> bool:
    # "Request has expired" (AccessDenied) is what S3 answers a presigned URL past X-Amz-Expires
    # (ErrorResponses, https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html);
    # ExpiredToken: the session token the link was signed with ran out
    code = presigned.service_code(o.why)
    return o.http == 403 and (code in ("ExpiredToken", "RequestExpired")
                              or (code == "AccessDenied" and "expired" in o.why.lower()))


def _why(o: Outcome) -> str:
    if o.http:
        code = presigned.service_code(o.why)
        return translate(WHY_HTTP).format(code=f"{o.http} {code}".strip(), why=presigned.plain(o.why, 200))
    return translate(WHY_NO_ANSWER).format(why=presigned.plain(o.why, 200))


def _batches(jobs: Sequence[_Job]) -> list[list[_Job]]:
    out: list[list[_Job]] = []
    cur: list[_Job] = []
    size = 0
    for j in sorted(jobs, key=lambda j: j.rel):
        if cur and (len(cur) >= BATCH_FILES or size + j.size > BATCH_BYTES):
            out.append(cur)
            cur, size = [], 0
        cur.append(j)
        size += j.size
    if cur:
        out.append(cur)
    return out


def _url_of(url: BucketUrl | str) -> BucketUrl:
    from app.core.buckets import parse_bucket_url

    return url if isinstance(url, BucketUrl) else parse_bucket_url(url)


def bucket_to_host(host: str, url: BucketUrl | str, account: str, remote_dir: str, *, paths: Paths,
                   progress: Progress | None = None, cancel: threading.Event | None = None,
                   connect: Connect | None = None, force: bool = False, channels: int = CHANNELS,
                   only: Sequence[str] | None = None, conn: Connection | None = None) -> SyncResult:
    """Every object below ``url`` into ``remote_dir`` on ``host``, fetched by the host with presigned GET
    links (``only``: just these relative names). ``server`` in the result says which program it used;
    its ``direction`` is "up" (towards the host, as a pair with the bucket in the laptop folder's place)."""
    t0 = time.monotonic()
    bucket = _url_of(url)
    target, creds = _resolve(bucket, account, paths)
    result = SyncResult(direction=UP)
    listed, complete = presign.list_objects(target, creds, bucket.list_prefix)
    if not complete:
        raise InputError(MSG_TOO_MANY, HINT_TOO_MANY, code="TooManyObjects", where=str(bucket),
                         n=presign.MAX_LISTED)
    wanted = set(only) if only is not None else None
    objs: dict[str, presign.Listed] = {}
    for obj in listed:
        rel = bucket.rel_of(obj.key)
        if rel is None or obj.key.endswith("/"):
            continue  # the prefix itself, or a folder marker
        if wanted is not None and rel not in wanted:
            continue
        why = key_problem(rel)
        try:
            presigned.check_rel(rel)
        except InputError as exc:
            why = why or exc.text()
        if why is not None:
            result.not_transferred.append({"path": presigned.plain(rel, 300), "why": translate(why)})
            result.refused += 1
            continue
        objs[rel] = obj
    own = conn is None
    conn = _connect(paths, host, connect, conn)
    try:
        hname = _host_name(conn, host)
        tools = presigned.probe_tools(conn)
        result.server = {"mode": "presigned", **tools.summary()}
        tool = presigned.need_tool(conn, tools, upload=False)
        have, _others = host_files(conn, remote_dir) if not force else ({}, [])
        todo: list[_Job] = []
        for rel, obj in objs.items():
            old = have.get(rel)
            if old is not None and old[0] == obj.size and old[1] >= obj.mtime:
                result.skipped += 1
                continue
            todo.append(_Job(rel, obj.key, obj.size))
        run = _Run(conn, hname, tool, remote_dir, target.account.extra.get("instance_proxy", ""), progress, cancel,
                   len(todo), sum(j.size for j in todo), channels)
        run.small_tool = _small_tool(tools, tool, result)
        groups = _batches(todo)
        signing = presign.for_instance(target)

        def signer(group: list[_Job]) -> Callable[[], list[Item]]:
            def make() -> list[Item]:
                exp = presign.expiry_for(sum(j.size for j in group))
                return [Item(GET, j.rel, presign.presign_get(signing, creds, j.key, exp), j.size) for j in group]
            return make

        outs = run.run([(sum(j.size for j in g), signer(g)) for g in groups])
    finally:
        if own:
            conn.close()
    for group, got in zip(groups, outs, strict=True):
        for i, j in enumerate(group):
            o = got[i] if got else None
            if o is None:
                result.not_transferred.append({"path": j.rel, "why": translate(WHY_CANCELLED)})
            elif o.ok:
                result.files += 1
                result.bytes += o.nbytes
            else:
                result.not_transferred.append({"path": j.rel, "why": _why(o)})
    run.check_expired()
    result.seconds = time.monotonic() - t0
    run.p.state = "done"
    run.tell()
    return result


def host_to_bucket(host: str, remote_dir: str, url: BucketUrl | str, account: str, *, paths: Paths,
                   progress: Progress | None = None, cancel: threading.Event | None = None,
                   connect: Connect | None = None, force: bool = False, channels: int = CHANNELS,
                   only: Sequence[str] | None = None, single_max: int = MAX_SINGLE_PUT,
                   part_size: int | None = None, conn: Connection | None = None,
                   time_limit: float | None = None) -> SyncResult:
    """Every file below ``remote_dir`` on ``host`` into ``url``, PUT by the host with presigned links
    (``only``: just these relative names; the result's ``direction`` is "down", from the host); files
    over ``single_max`` (5 GiB) as a multipart upload whose parts the host PUTs (``part_size``
    overrides the part size: tests). ``conn``: an open connection to use (and leave open);
    ``time_limit``: seconds each command on the host may take at most (spot recovery's warning window)."""
    t0 = time.monotonic()
    bucket = _url_of(url)
    target, creds = _resolve(bucket, account, paths)
    result = SyncResult(direction=DOWN)
    own = conn is None
    conn = _connect(paths, host, connect, conn)
    try:
        hname = _host_name(conn, host)
        tools = presigned.probe_tools(conn)
        result.server = {"mode": "presigned", **tools.summary()}
        tool = presigned.need_tool(conn, tools, upload=True)
        files, others = _named_files(conn, remote_dir, only) if only is not None else host_files(conn, remote_dir)
        wanted = set(only) if only is not None else None
        for rel in others:
            if wanted is None or rel in wanted:
                result.not_transferred.append({"path": presigned.plain(rel, 300), "why": translate(WHY_NOT_FILE)})
        listed: dict[str, presign.Listed] = {}
        if not force:
            objs, _complete = presign.list_objects(target, creds, bucket.list_prefix)
            listed = {o.key: o for o in objs}
        small: list[_Job] = []
        big: list[_Job] = []
        for rel, (size, mtime) in sorted(files.items()):
            if wanted is not None and rel not in wanted:
                continue
            try:
                presigned.check_rel(rel)
            except InputError as exc:
                result.not_transferred.append({"path": presigned.plain(rel, 300), "why": exc.text()})
                result.refused += 1
                continue
            key = bucket.key_for(rel)
            old = listed.get(key)
            if old is not None and old.size == size and old.mtime >= mtime:
                result.skipped += 1
                continue
            (big if presign.needs_multipart(size, single_max) else small).append(_Job(rel, key, size))
        run = _Run(conn, hname, tool, remote_dir, target.account.extra.get("instance_proxy", ""), progress, cancel,
                   len(small) + len(big), sum(j.size for j in small + big), channels)
        run.time_limit = time_limit
        run.small_tool = _small_tool(tools, tool, result)
        groups = _batches(small)
        signing = presign.for_instance(target)

        def signer(group: list[_Job]) -> Callable[[], list[Item]]:
            def make() -> list[Item]:
                exp = presign.expiry_for(sum(j.size for j in group))
                return [Item(PUT, j.rel, presign.presign_put(signing, creds, j.key, exp), j.size) for j in group]
            return make

        outs = run.run([(sum(j.size for j in g), signer(g)) for g in groups])
        done: dict[str, int] = {}
        for group, got in zip(groups, outs, strict=True):
            for i, j in enumerate(group):
                o = got[i] if got else None
                if o is None:
                    result.not_transferred.append({"path": j.rel, "why": translate(WHY_CANCELLED)})
                elif o.ok:
                    done[j.key] = j.size
                else:
                    result.not_transferred.append({"path": j.rel, "why": _why(o)})
        for j in big:
            if _cancelled(cancel):
                result.not_transferred.append({"path": j.rel, "why": translate(WHY_CANCELLED)})
                continue
            why = _multipart(run, target, creds, j, part_size)
            if why:
                result.not_transferred.append({"path": j.rel, "why": why})
            else:
                done[j.key] = j.size
    finally:
        if own:
            conn.close()
    run.check_expired()
    _verify(target, creds, bucket, done, result)
    result.seconds = time.monotonic() - t0
    run.p.state = "done"
    run.tell()
    return result


def _multipart(run: _Run, target: StorageTarget, creds: Credentials, j: _Job, part_size: int | None) -> str:
    """One big file as a multipart upload: created here, parts PUT by the host (in parallel batches),
    completed here; "" when done, else why (the upload aborted)."""
    mp = presign.start_multipart(target, creds, j.key, j.size, part_size=part_size)
    numbers = list(range(1, mp.count + 1))
    chunks: list[list[int]] = []
    per = min(BATCH_FILES, max(1, -(-len(numbers) // run.channels)))  # every channel gets parts
    for n in numbers:  # batches of parts within the batch limits (each signed for its own bytes)
        if not chunks or len(chunks[-1]) >= per or \
                sum(mp.part(m)[1] for m in chunks[-1]) + mp.part(n)[1] > BATCH_BYTES:
            chunks.append([])
        chunks[-1].append(n)

    def maker(nums: list[int]) -> Callable[[], list[Item]]:
        def make() -> list[Item]:
            exp = presign.expiry_for(sum(mp.part(n)[1] for n in nums))
            signing = presign.for_instance(target)
            return [Item(PART, j.rel, presign.presign_part(signing, creds, mp, n, exp), j.size, *mp.part(n))
                    for n in nums]
        return make

    try:
        outs = run.run([(sum(mp.part(n)[1] for n in nums), maker(nums)) for nums in chunks])
        etags: dict[int, str] = {}
        for nums, got in zip(chunks, outs, strict=True):
            for i, n in enumerate(nums):
                o = got[i] if got else None
                if o is None:
                    raise _PartFailed(n, translate(WHY_CANCELLED))
                if not o.ok or not o.etag:
                    raise _PartFailed(n, _why(o))
                etags[n] = o.etag
        presign.complete_multipart(target, creds, mp, [etags[n] for n in numbers])
        with run.lock:
            run.p.files_done += 1
    except _PartFailed as exc:
        presign.abort_multipart(target, creds, mp)
        return translate(WHY_PARTS).format(n=exc.number, why=exc.why)
    except BaseException:
        presign.abort_multipart(target, creds, mp)
        raise
    return ""


class _PartFailed(Exception):
    def __init__(self, number: int, why: str) -> None:
        super().__init__(why)
        self.number, self.why = number, why


def _verify(target: StorageTarget, creds: Credentials, bucket: BucketUrl, done: dict[str, int],
            result: SyncResult) -> None:
    """The bucket listed again after an upload: each object the host said it PUT must be there with the
    file's size; what is not is ``not_transferred``."""
    if not done:
        return
    objs, _complete = presign.list_objects(target, creds, bucket.list_prefix)
    there = {o.key: o.size for o in objs}
    for key, size in sorted(done.items()):
        got = there.get(key)
        rel = bucket.rel_of(key) or key
        if got == size:
            result.files += 1
            result.bytes += size
            result.verified += 1
        else:
            result.not_transferred.append({"path": rel, "why": translate(WHY_SIZE_AFTER).format(
                got="0" if got is None else str(got), want=str(size))})



# -- a saved pair between a bucket and a host's folder ----------------------------------------------------

def is_instance_pair(pair: Any) -> bool:
    """Whether a saved sync pair is between a bucket and a host's folder (moved by the host): ``host``
    set, ``local_path`` a bucket URL (with ``account``), ``remote_path`` the host's folder; ``direction``
    UP = bucket → host, DOWN = host → bucket (the bucket stands where a laptop folder would)."""
    return bool(getattr(pair, "host", "")) and is_bucket_url(str(getattr(pair, "local_path", "")))


def run_pair(paths: Paths, pair: Any, *, progress: Progress | None = None, cancel: threading.Event | None = None,
             connect: Connect | None = None) -> SyncResult:
    """Run an instance pair (:func:`is_instance_pair`) in its direction."""
    if pair.direction == UP:
        return bucket_to_host(pair.host, pair.local_path, pair.account, pair.remote_path, paths=paths,
                              progress=progress, cancel=cancel, connect=connect)
    return host_to_bucket(pair.host, pair.remote_path, pair.local_path, pair.account, paths=paths,
                          progress=progress, cancel=cancel, connect=connect)
