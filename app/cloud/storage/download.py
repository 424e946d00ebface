"""Bucket → local: each object into a hidden ``.NAME.labgpu-part`` file beside its final name, then
checked and renamed (the rename is atomic: a half-written file is never seen under the real name).

Every GET names the listed ETag (If-Match, "GetObject", Amazon S3 API Reference): an object
replaced during the sync answers 412 instead of mixing two versions. A big object comes as byte
ranges in parallel into the same part file; after a failure the part file is cut to its complete
prefix, and the next run continues from there when the object still has the same ETag (kept in
:mod:`app.core.bucketstate`). The sha256 LabGPU stored in the metadata is checked before the
rename; an encrypted object is opened chunk by chunk, and one that does not authenticate is named
and never written.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
from dataclasses import dataclass, field
from typing import Any

from app.core.bucketstate import HeadMeta
from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.localtree import LocalRoot, sha256_file
from app.core.syncplan import PlanItem, SyncPlan, part_name

from . import transfer
from .errors import BucketError, bucket_error, is_sdk_error, local_error, shown
from .listing import ObjInfo, meta_of
from .transfer import READ_BLOCK, Run

log = logging.getLogger(__name__)


def is_md5(etag: str) -> bool:
    """An ETag that is the MD5 of the content (single-part, no KMS); OSS writes it in capitals."""
    return len(etag) == 32 and all(c in "0123456789abcdef" for c in etag.lower())


def _etag_is_md5(obj: ObjInfo, resp: Any) -> bool:
    """With SSE-KMS (or a customer key) the ETag is not the MD5 ("Common Response Headers", S3 API Reference)."""
    kms = resp.get("ServerSideEncryption") == "aws:kms" or bool(resp.get("SSECustomerAlgorithm"))
    return is_md5(obj.etag) and not kms


@dataclass
class Split:
    """One big download fetched as byte ranges by several workers into the same part file."""

    item: PlanItem
    obj: ObjInfo
    tmp: str
    offset: int  # bytes resumed from an earlier run
    header: bytes = b""
    ranges: list[Range] = field(default_factory=list)
    left: int = 0
    meta: HeadMeta | None = None
    md5_etag: bool = False  # the ETag is the content's MD5 (verified with --verify)
    failed: bool = False
    complete: bool = False
    lock: threading.Lock = field(default_factory=threading.Lock)

    def keep_prefix(self) -> None:
        """After a failure: cut the part file to its contiguous complete prefix (what the next run
        resumes from)."""
        if self.complete or self.failed:
            return
        prefix = self.offset
        for rng in self.ranges:
            prefix = rng.upto
            if rng.upto < rng.end:
                break
        with contextlib.suppress(OSError):
            os.truncate(self.tmp, prefix)


@dataclass
class Range:
    split: Split
    start: int
    end: int
    upto: int = 0


class Downloader:
    def __init__(self, run: Run) -> None:
        self.r = run

    def _get(self, obj: ObjInfo, **kw: Any) -> Any:
        r = self.r
        r.flow.check()
        try:
            return r.client.get_object(Bucket=r.bucket, Key=obj.key, IfMatch=f'"{obj.etag}"', **kw)
        except Exception as exc:
            if is_sdk_error(exc):
                r.flow.check()
                raise bucket_error(exc, r.target, key=obj.key) from None
            raise

    def prepare(self, plan: SyncPlan) -> LocalRoot:
        r = self.r
        r.writable("create local folders")
        try:
            r.local.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise local_error(exc, str(r.local)) from None
        lr = r.root()
        for d in plan.mkdirs:
            path = lr.path(d)
            try:
                os.mkdir(path)
                r.result.mkdirs += 1
            except FileExistsError:
                pass
            except OSError as exc:
                raise local_error(exc, path) from None
        for p in plan.stale_parts:
            with contextlib.suppress(OSError, LabGpuError):
                tmp = lr.path(p)
                os.unlink(tmp)
                r.state.drop_partial(tmp)
        return lr

    def _damaged(self, item: PlanItem, exc: LabGpuError) -> None:
        r = self.r
        log.warning("%s not written: %s", shown(item.path), exc.one_line())
        with r.lock:
            r.result.not_transferred.append({"path": item.path, "why": exc.text()})

    # small objects -------------------------------------------------------------------------------
    def get_small(self, item: PlanItem) -> None:
        r = self.r
        obj = r.objects[item.path]
        lr = r.root()
        tmp = lr.path(part_name(item.path))
        r.writable("download a file")
        r.flow.progress.add(0, current=item.path)
        resp = self._get(obj)
        meta = meta_of(obj.etag, resp.get("Metadata"))
        body = resp["Body"]
        sha = hashlib.sha256()
        md5 = hashlib.md5() if r.opts.verify and _etag_is_md5(obj, resp) else None  # noqa: S324 - S3's ETag
        try:
            if r.codec.encrypted:
                blob = self._read_all(body)
                if md5 is not None:
                    md5.update(blob)
                try:
                    data = r.codec.open_all(blob, name=shown(obj.key, 200))
                except LabGpuError as exc:
                    self._damaged(item, exc)
                    return
                self._write_new(tmp, data, item.size)
                sha.update(data)
            else:
                self._stream(body, tmp, sha, md5, item.size)
        finally:
            with contextlib.suppress(Exception):
                body.close()
        self.finish(item, obj, tmp, meta, sha.hexdigest(), md5.hexdigest() if md5 else "", 0)

    def _read_all(self, body: Any) -> bytes:
        out = bytearray()
        while True:
            self.r.flow.check()
            chunk = body.read(READ_BLOCK)
            if not chunk:
                return bytes(out)
            out += chunk
            self.r.flow.moved(len(chunk))

    def _write_new(self, tmp: str, data: bytes, need: int) -> None:
        try:
            with open(tmp, "wb") as fh:
                fh.write(data)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise local_error(exc, tmp, need) from None

    def _stream(self, body: Any, tmp: str, sha: Any, md5: Any, need: int) -> None:
        try:
            with open(tmp, "wb") as fh:
                while True:
                    self.r.flow.check()
                    chunk = body.read(READ_BLOCK)
                    if not chunk:
                        break
                    fh.write(chunk)
                    sha.update(chunk)
                    if md5 is not None:
                        md5.update(chunk)
                    self.r.flow.moved(len(chunk))
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise local_error(exc, tmp, need) from None

    def finish(self, item: PlanItem, obj: ObjInfo, tmp: str, meta: HeadMeta, sha: str, md5: str,
               offset: int) -> None:
        """Check, date and rename a complete part file."""
        r = self.r
        r.writable("rename a downloaded file")
        try:
            size = os.stat(tmp).st_size
        except OSError as exc:
            raise local_error(exc, tmp) from None
        checked = False
        ok = size == item.size
        if ok and meta.sha256:
            ok, checked = sha == meta.sha256, True
        if ok and md5:
            ok, checked = md5 == obj.etag.lower(), True
        if not ok:
            log.warning("%s failed its check (size %d of %d, sha256 %s)", shown(item.path), size, item.size,
                        "matches" if sha == meta.sha256 else "differs")
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            r.state.drop_partial(tmp)
            with r.lock:
                r.bad.append(item.path)
            return
        mtime = meta.mtime if meta.mtime is not None else obj.modified
        try:
            os.utime(tmp, (mtime, mtime))
            os.replace(tmp, r.root().path(item.path))
        except OSError as exc:
            raise local_error(exc, tmp) from None
        r.state.drop_partial(tmp)
        r.remember(obj.key, meta)
        if checked:
            with r.lock:
                r.result.verified += 1
        r.done_file(item.size - offset)

    # big objects ---------------------------------------------------------------------------------
    def begin(self, item: PlanItem) -> Split | None:
        """The part file (resumed when it holds the same object version) and its ranges to fetch."""
        r = self.r
        obj = r.objects[item.path]
        lr = r.root()
        tmp = lr.path(part_name(item.path))
        r.writable("download a file")
        offset = 0
        if item.resume_from and item.resume_part == part_name(item.path):
            held = r.state.partial(tmp)
            if held == (r.endpoint_id, r.bucket, obj.key, obj.etag):
                offset = item.resume_from - item.resume_from % max(1, r.codec.align)
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)
            try:
                os.ftruncate(fd, offset)
            finally:
                os.close(fd)
        except OSError as exc:
            raise local_error(exc, tmp, item.size) from None
        r.state.save_partial(tmp, r.endpoint_id, r.bucket, obj.key, obj.etag)
        split = Split(item, obj, tmp, offset)
        if r.codec.encrypted:
            hs = r.codec.header_size
            resp = self._get(obj, Range=f"bytes=0-{hs - 1}")
            split.header = self._read_all(resp["Body"])
            try:
                r.codec.open_range(split.header, 0, b"", item.size, name=shown(obj.key, 200))
            except LabGpuError as exc:
                self._damaged(item, exc)
                split.failed = True
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
                r.state.drop_partial(tmp)
                return None
        psize = transfer.PART_SIZE
        step = max(psize - psize % max(1, r.codec.align), r.codec.align)
        split.ranges = [Range(split, a, min(item.size, a + step), a) for a in range(offset, item.size, step)]
        split.left = len(split.ranges)
        if offset:
            r.flow.progress.skip(offset)
            log.info("resuming the download of %s from %d bytes", shown(item.path), offset)
        if not split.ranges:  # the whole file was already there
            self._finish_split(split)
            return None
        return split

    def get_range(self, rng: Range) -> None:
        r = self.r
        split = rng.split
        if split.failed:
            return
        item, obj = split.item, split.obj
        r.flow.progress.add(0, current=item.path)
        a, b = r.codec.stored_range(rng.start, rng.end, item.size)
        resp = self._get(obj, Range=f"bytes={a}-{b - 1}")
        with split.lock:
            if split.meta is None:
                split.meta = meta_of(obj.etag, resp.get("Metadata"))
                split.md5_etag = _etag_is_md5(obj, resp)
        body = resp["Body"]
        try:
            fd = os.open(split.tmp, os.O_WRONLY | getattr(os, "O_BINARY", 0))
        except OSError as exc:
            body.close()
            if split.failed:  # another range found the object damaged and removed the part file
                return
            raise local_error(exc, split.tmp, item.size) from None
        try:
            if r.codec.encrypted:
                blob = self._read_all(body)
                try:
                    data = r.codec.open_range(split.header, rng.start, blob, item.size, name=shown(obj.key, 200))
                except LabGpuError as exc:
                    with split.lock:
                        first, split.failed = not split.failed, True
                    if first:  # named once, however many ranges fail to open
                        self._damaged(item, exc)
                        with contextlib.suppress(OSError):
                            os.unlink(split.tmp)
                        r.state.drop_partial(split.tmp)
                    return
                self._pwrite(fd, data, rng.start, split.tmp, item.size)
                rng.upto = rng.start + len(data)
            else:
                while True:
                    r.flow.check()
                    chunk = body.read(READ_BLOCK)
                    if not chunk:
                        break
                    self._pwrite(fd, chunk, rng.upto, split.tmp, item.size)
                    rng.upto += len(chunk)
                    r.flow.moved(len(chunk))
        finally:
            os.close(fd)
            with contextlib.suppress(Exception):
                body.close()
        if rng.upto != rng.end:
            raise BucketError(
                QT_TRANSLATE_NOOP("LabGPU", "{key}: the service sent {got} of {want} bytes."),
                QT_TRANSLATE_NOOP("LabGPU", "Run the sync again: the download continues where it stopped."),
                code="ShortRead", key=shown(obj.key, 200), got=rng.upto - rng.start, want=rng.end - rng.start,
            )
        with split.lock:
            split.left -= 1
            last = split.left == 0 and not split.failed
        if last:
            self._finish_split(split)

    def _pwrite(self, fd: int, data: bytes, offset: int, tmp: str, need: int) -> None:
        """Write at ``offset`` through this range's own descriptor (seek + write: Windows has no pwrite)."""
        try:
            os.lseek(fd, offset, os.SEEK_SET)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        except OSError as exc:
            raise local_error(exc, tmp, need) from None

    def _finish_split(self, split: Split) -> None:
        r = self.r
        split.complete = True
        meta = split.meta
        if meta is None:  # nothing fetched this run (all resumed): the metadata from a HEAD
            resp = self._head(split.obj)
            meta = meta_of(split.obj.etag, resp.get("Metadata"))
        sha = sha256_file(split.tmp)
        md5 = ""
        if r.opts.verify and split.md5_etag and not r.codec.encrypted:
            md5 = md5_file(split.tmp)
        self.finish(split.item, split.obj, split.tmp, meta, sha, md5, split.offset)

    def _head(self, obj: ObjInfo) -> Any:
        r = self.r
        try:
            return r.client.head_object(Bucket=r.bucket, Key=obj.key, IfMatch=f'"{obj.etag}"')
        except Exception as exc:
            if is_sdk_error(exc):
                raise bucket_error(exc, r.target, key=obj.key) from None
            raise

    # mirror --------------------------------------------------------------------------------------
    def delete_local(self, plan: SyncPlan) -> int:
        """A mirror's deletions here (files before their folders: the plan's order)."""
        r = self.r
        r.writable("delete files")
        lr = r.root()
        n = 0
        for item in plan.deletions:
            path = lr.path(item.path)
            try:
                if os.path.isdir(path) and not os.path.islink(path):
                    os.rmdir(path)
                else:
                    os.unlink(path)
                n += 1
            except FileNotFoundError:
                pass
            except OSError as exc:
                raise local_error(exc, path) from None
        return n


def md5_file(path: str) -> str:
    h = hashlib.md5()  # noqa: S324 - compared with S3's ETag
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
