"""Local → bucket: small files as one PutObject, big ones as a multipart upload whose parts go in
parallel and resume after a cut; mirror deletions as DeleteObjects batches.

Every body carries Content-MD5, so the service refuses a part or object damaged on the way
("PutObject" / "UploadPart", Amazon S3 API Reference). A file is read with an fstat before and
after: one that changes while it is read is read once more, and one that keeps changing is not
uploaded (no half-old, half-new object). A multipart upload's id, part size and the source's size
and mtime are kept in :mod:`app.core.bucketstate` before the first part goes: the next run asks
ListParts which parts are there and sends only the others; a source that changed meanwhile aborts
the old upload (AbortMultipartUpload) instead of completing a torn object.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from app.core.bucketstate import HeadMeta, UploadState
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.localtree import sha256_file
from app.core.syncplan import PlanItem, SyncPlan

from .errors import BucketError, bucket_error, changed_error, error_code, is_sdk_error, local_error, shown
from .listing import clean_etag
from .progress import SendBody
from .transfer import DELETE_BATCH, Run, md5_b64, metadata, part_size

log = logging.getLogger(__name__)


@dataclass
class Multipart:
    """One multipart upload in flight; the worker that finishes its last part completes it."""

    item: PlanItem
    path: str
    key: str
    upload_id: str
    part_size: int
    size: int
    mtime_ns: int
    mtime: float
    sha256: str
    header: bytes
    parts: dict[int, str] = field(default_factory=dict)  # part number → ETag
    todo: list[int] = field(default_factory=list)
    left: int = 0
    sent: int = 0  # plain bytes sent this run
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def count(self) -> int:
        return max(1, -(-self.size // self.part_size))


class Uploader:
    def __init__(self, run: Run) -> None:
        self.r = run

    def _call(self, what: str, key: str, fn: Any, **kw: Any) -> Any:
        """A writing request: refused in a dry run, mapped to a BucketError when it fails."""
        self.r.writable(what)
        try:
            return fn(Bucket=self.r.bucket, Key=key, **kw)
        except BucketError:
            raise
        except Exception as exc:
            if is_sdk_error(exc):
                self.r.flow.check()  # a request stopped by cancel is the cancel, not a failure
                raise bucket_error(exc, self.r.target, key=key, sse=bool(self.r.sse_params)) from None
            raise

    # small files ---------------------------------------------------------------------------------
    def read_stable(self, path: str, rel: str) -> tuple[bytes, os.stat_result] | None:
        """The file's bytes and the fstat they belong to; None when it changed while read twice."""
        for _try in range(2):
            try:
                with open(path, "rb") as fh:
                    st0 = os.fstat(fh.fileno())
                    data = fh.read()
                    st1 = os.fstat(fh.fileno())
            except OSError as exc:
                raise local_error(exc, path) from None
            if (st0.st_size, st0.st_mtime_ns) == (st1.st_size, st1.st_mtime_ns) and len(data) == st1.st_size:
                return data, st1
            log.warning("%s changed while it was read; reading it once more", shown(rel))
        return None

    def put_small(self, item: PlanItem) -> None:
        r = self.r
        path = r.root().path(item.path)
        r.flow.progress.add(0, current=item.path)
        got = self.read_stable(path, item.path)
        if got is None:
            with r.lock:
                r.changed.append(item.path)
            return
        data, st = got
        sha = hashlib.sha256(data).hexdigest()
        body = r.codec.seal_all(data)
        key = r.key_of(item.path)
        resp = self._call(
            "upload a file", key, r.client.put_object,
            Body=SendBody(body, r.flow), ContentLength=len(body), ContentMD5=md5_b64(body),
            Metadata=metadata(st.st_mtime, sha, len(data)), **r.sse_params,
        )
        r.remember(key, HeadMeta(clean_etag(resp.get("ETag", "")), st.st_mtime, sha, len(data), True))
        if r.opts.verify:
            with r.lock:
                r.result.verified += 1  # Content-MD5: the service checked the bytes it stored
        r.done_file(len(data))

    # multipart -----------------------------------------------------------------------------------
    def begin(self, item: PlanItem) -> Multipart | None:
        """Create (or resume) the multipart upload of a big file; its ``todo`` parts still to send.
        None when the file kept changing (recorded in ``changed``)."""
        r = self.r
        path = r.root().path(item.path)
        key = r.key_of(item.path)
        try:
            st = os.stat(path)
        except OSError as exc:
            raise local_error(exc, path) from None
        psize = part_size(st.st_size, r.codec)
        old = r.state.upload(r.endpoint_id, r.bucket, key)
        mp: Multipart | None = None
        if old is not None:
            if (old.src_size, old.part_size) == (st.st_size, psize) and old.src_mtime == st.st_mtime:
                mp = self._resume(item, path, key, old, st)
            else:
                log.info("source of %s changed since its upload began: aborting that upload", shown(key))
                self.abort(key, old.upload_id)
        if mp is None:
            sha = self._stable_sha(path, st)
            if sha is None:
                with r.lock:
                    r.changed.append(item.path)
                return None
            header = r.codec.new_header()
            resp = self._call(
                "start a multipart upload", key, r.client.create_multipart_upload,
                Metadata=metadata(st.st_mtime, sha, st.st_size), **r.sse_params,
            )
            mp = Multipart(item, path, key, str(resp["UploadId"]), psize, st.st_size, st.st_mtime_ns,
                           st.st_mtime, sha, header)
            mp.todo = list(range(1, mp.count + 1))
            r.state.save_upload(UploadState(r.endpoint_id, r.bucket, key, mp.upload_id, psize, st.st_size,
                                            st.st_mtime, sha, header, os.path.realpath(path), time.time()))
        mp.left = len(mp.todo)
        done = st.st_size - sum(self._plain_len(mp, n) for n in mp.todo)
        if done:
            r.flow.progress.skip(done)  # the parts already there are not this run's bytes
        return mp

    def _stable_sha(self, path: str, st: os.stat_result) -> str | None:
        sha = sha256_file(path)
        try:
            st2 = os.stat(path)
        except OSError as exc:
            raise local_error(exc, path) from None
        if (st2.st_size, st2.st_mtime_ns) != (st.st_size, st.st_mtime_ns):
            return None
        return sha

    def _plain_len(self, mp: Multipart, n: int) -> int:
        return min(mp.part_size, mp.size - (n - 1) * mp.part_size)

    def _resume(self, item: PlanItem, path: str, key: str, old: UploadState, st: os.stat_result) -> Multipart | None:
        """The parts already uploaded (ListParts) whose size and MD5 match the file's; None when
        the upload is gone (then a new one starts)."""
        r = self.r
        mp = Multipart(item, path, key, old.upload_id, old.part_size, st.st_size, st.st_mtime_ns, st.st_mtime,
                       old.sha256, old.header)
        have: dict[int, tuple[str, int]] = {}
        kw: dict[str, Any] = {"UploadId": old.upload_id, "MaxParts": 1000}
        while True:
            r.flow.check()
            try:
                page = r.client.list_parts(Bucket=r.bucket, Key=key, **kw)
            except Exception as exc:
                if not is_sdk_error(exc):
                    raise
                if error_code(exc) in ("NoSuchUpload", "404"):
                    r.state.drop_upload(r.endpoint_id, r.bucket, key)
                    return None
                raise bucket_error(exc, r.target, key=key) from None
            for p in page.get("Parts") or ():
                have[int(p["PartNumber"])] = (clean_etag(p.get("ETag", "")), int(p.get("Size") or 0))
            if not page.get("IsTruncated"):
                break
            kw["PartNumberMarker"] = page.get("NextPartNumberMarker")
        check_md5 = not r.sse_params  # with SSE-KMS a part's ETag is not its MD5
        for n in range(1, mp.count + 1):
            got = have.get(n)
            if got is not None:
                body = self._part_body(mp, n)
                if len(body) == got[1] and (not check_md5 or hashlib.md5(body).hexdigest() == got[0].lower()):  # noqa: S324
                    mp.parts[n] = got[0]
                    continue
            mp.todo.append(n)
        log.info("resuming the upload of %s: %d of %d parts there", shown(key), len(mp.parts), mp.count)
        return mp

    def _part_body(self, mp: Multipart, n: int) -> bytes:
        off = (n - 1) * mp.part_size
        length = self._plain_len(mp, n)
        try:
            with open(mp.path, "rb") as fh:
                fh.seek(off)
                data = fh.read(length)
        except OSError as exc:
            raise local_error(exc, mp.path) from None
        if len(data) != length:
            raise changed_error([mp.item.path])
        return self.r.codec.seal_part(mp.header, off, data, mp.size)

    def upload_part(self, mp: Multipart, n: int) -> None:
        r = self.r
        r.flow.progress.add(0, current=mp.item.path)
        body = self._part_body(mp, n)
        resp = self._call(
            "upload a part", mp.key, r.client.upload_part,
            UploadId=mp.upload_id, PartNumber=n, Body=SendBody(body, r.flow), ContentLength=len(body),
            ContentMD5=md5_b64(body),
        )
        with mp.lock:
            mp.parts[n] = clean_etag(resp.get("ETag", ""))
            mp.sent += self._plain_len(mp, n)
            mp.left -= 1
            last = mp.left == 0
        if last:
            self.complete(mp)

    def complete(self, mp: Multipart) -> None:
        r = self.r
        try:
            st = os.stat(mp.path)
            same = (st.st_size, st.st_mtime_ns) == (mp.size, mp.mtime_ns)
        except OSError:
            same = False
        if not same:  # parts of two versions: never completed into one object
            self.abort(mp.key, mp.upload_id)
            with r.lock:
                r.changed.append(mp.item.path)
            return
        parts = [{"PartNumber": n, "ETag": f'"{e}"'} for n, e in sorted(mp.parts.items())]
        resp = self._call(
            "complete a multipart upload", mp.key, r.client.complete_multipart_upload,
            UploadId=mp.upload_id, MultipartUpload={"Parts": parts},
        )
        r.state.drop_upload(r.endpoint_id, r.bucket, mp.key)
        r.remember(mp.key, HeadMeta(clean_etag(resp.get("ETag", "")), mp.mtime, mp.sha256, mp.size, True))
        if r.opts.verify:
            with r.lock:
                r.result.verified += 1
        r.done_file(mp.sent)

    def abort(self, key: str, upload_id: str) -> None:
        """AbortMultipartUpload (its stored parts stop being billed); gone already is fine."""
        r = self.r
        try:
            self._call("abort a multipart upload", key, r.client.abort_multipart_upload, UploadId=upload_id)
        except BucketError as exc:
            if exc.code not in ("NoSuchUpload", "404"):
                raise
        r.state.drop_upload(r.endpoint_id, r.bucket, key)

    def abort_stale(self, keep: set[str]) -> None:
        """Uploads this pair began whose file is gone or no longer needs them: aborted, and said."""
        r = self.r
        root = os.path.realpath(r.local)
        for u in r.state.uploads(r.endpoint_id, r.bucket, r.target.url.list_prefix):
            if u.key in keep:
                continue
            mine = u.rel == root or u.rel.startswith(root + os.sep)
            if not mine and os.path.exists(u.rel):
                continue  # another pair's upload (a folder elsewhere that still has its file)
            log.info("aborting the stale upload of %s", shown(u.key))
            self.abort(u.key, u.upload_id)
            with r.lock:
                r.aborted.append(shown(u.key))

    # mirror --------------------------------------------------------------------------------------
    def delete(self, plan: SyncPlan) -> int:
        """Objects for the plan's file deletions, in DeleteObjects batches; folders have no object."""
        r = self.r
        # "DeleteObjects" (S3 API Reference), OSS "DeleteMultipleObjects" and COS "DELETE Multiple
        # Objects" require Content-MD5; botocore now sends a CRC32 checksum instead, so add it
        r.client.meta.events.register("before-sign.s3.DeleteObjects", _content_md5,
                                      unique_id="labgpu-delete-content-md5")
        keys = [r.objects[i.path].key for i in plan.deletions if i.kind != "d" and i.path in r.objects]
        deleted = 0
        for k in range(0, len(keys), DELETE_BATCH):
            batch = keys[k : k + DELETE_BATCH]
            r.writable("delete objects")
            try:
                resp = r.client.delete_objects(
                    Bucket=r.bucket, Delete={"Objects": [{"Key": x} for x in batch], "Quiet": True}
                )
            except Exception as exc:
                if is_sdk_error(exc):
                    raise bucket_error(exc, r.target, key=batch[0]) from None
                raise
            errors = resp.get("Errors") or []
            r.state.forget_heads(r.endpoint_id, r.bucket, batch)
            deleted += len(batch) - len(errors)
            if errors:
                e = errors[0]
                raise BucketError(
                    QT_TRANSLATE_NOOP("LabGPU", "{service} did not delete {key} ({error_code}): {provider_message}"),
                    QT_TRANSLATE_NOOP("LabGPU", "Check the account's delete permission on the bucket, then run again."),
                    code=shown(str(e.get("Code") or "DeleteFailed"), 80),
                    service=r.target.url.service,
                    key=shown(str(e.get("Key") or ""), 200),
                    error_code=shown(str(e.get("Code") or ""), 80),
                    provider_message=shown(str(e.get("Message") or ""), 200),
                )
        return deleted


def _content_md5(request: Any, **_kw: Any) -> None:
    body = request.body or b""
    if isinstance(body, str):
        body = body.encode("utf-8")
    if isinstance(body, bytes) and "Content-MD5" not in request.headers:
        request.headers["Content-MD5"] = md5_b64(body)
