"""The bucket sync engine: a local folder and a bucket prefix made the same, one way.

It behaves as the SSH engine (:mod:`app.remote.sync.engine`) does from the user's side — the same
plan (``build_plan``: excludes, conflicts when the destination is newer, mirror deletes, refused
names), the same ``SyncProgress`` states, dry run, ``--verify``, ``not_transferred`` and
``SyncResult.summary()`` — over the S3 protocol instead of SFTP:

* listing: ListObjectsV2 (:mod:`.listing`); an object's source mtime, sha256 and plain size come
  from LabGPU's metadata, read with a HEAD only where the comparison needs it and remembered per
  ETag (:mod:`app.core.bucketstate`), so a no-change re-sync sends the listing alone;
* up (:mod:`.upload`): PutObject, or a resumable multipart upload with parallel parts; down
  (:mod:`.download`): GET into ``.NAME.labgpu-part`` files, big objects as parallel ranges;
* an encrypted pair (``crypt``: :mod:`app.core.objcrypt`): names and contents sealed on this
  computer, the key checked against the key check object before anything moves;
* ``sse``: the service's own KMS encryption (:mod:`app.core.bucketsse`) on every object written.

The workers are ``options.channels`` threads over one boto3 client; ``cancel()`` from any thread
stops them between blocks of a body, leaving finished files and a resumable multipart upload.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import shutil
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cloud.base import Credentials
from app.cloud.storage.client import StorageTarget, s3_client
from app.core.buckets import MAX_OBJECT_SIZE, key_problem
from app.core.bucketstate import BucketState, HeadMeta
from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.localtree import list_local, sha256_file
from app.core.store import Store
from app.core.syncmodel import UP, SyncOptions, SyncProgress, SyncResult
from app.core.syncplan import FILE, REASONS, Entry, PlanItem, SyncPlan, build_plan, checksum_mismatches, default_rules

from . import transfer
from .download import Downloader, Split, is_md5, md5_file
from .errors import (
    BucketCancelledError,
    BucketError,
    BucketNetworkError,
    bucket_error,
    cancelled_error,
    changed_error,
    disk_full_error,
    is_sdk_error,
    local_folder_error,
    shown,
    verify_error,
)
from .listing import BucketListing, ObjInfo, apply_names, clean_etag, entries, fetch_heads, list_objects
from .progress import Flow, ProgressTracker
from .transfer import CryptCodec, Job, PlainCodec, Run, bind, bind2, md5_b64, run_jobs
from .upload import Uploader

if TYPE_CHECKING:
    from app.core.bucketsse import SseSpec
    from app.core.objcrypt import PairCrypt

log = logging.getLogger(__name__)

BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0)  # s between attempts after a network failure (as the SSH engine)

_TOO_BIG = QT_TRANSLATE_NOOP("LabGPU", "larger than the 5 TiB an object may have")
_NOT_A_PAIR = QT_TRANSLATE_NOOP(
    "LabGPU", "{url} holds objects but no LabGPU key check object: it is not the location of an encrypted pair."
)
_NOT_A_PAIR_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Choose an empty prefix for an encrypted pair, or sync this one without encryption."
)


def _whole(t: float) -> int:
    return int(t // 1)


class BucketSyncEngine:
    """One sync between the local folder ``local`` and ``target``'s bucket prefix.
    ``run()`` blocks and returns a SyncResult, or raises a LabGpuError (a BucketError, or a
    CryptError for a wrong key)."""

    def __init__(
        self,
        target: StorageTarget,
        creds: Credentials,
        local: str | Path,
        options: SyncOptions,
        progress: Callable[[SyncProgress], None] | None = None,
        *,
        store: Store | None = None,
        crypt: PairCrypt | None = None,
        sse: SseSpec | None = None,
    ) -> None:
        self.target = target
        self.creds = creds
        self.local = Path(local).expanduser()
        self.opts = options
        self.progress = ProgressTracker(progress)
        self.cancel_event = threading.Event()
        self.flow = Flow(self.progress, self.cancel_event, options.bwlimit_kbps)
        self.store = store
        self.crypt = crypt
        self.sse = sse
        self.result = SyncResult(direction=options.direction, dry_run=options.dry_run)

    def cancel(self) -> None:
        self.cancel_event.set()

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    # the run ------------------------------------------------------------------------------------
    def run(self) -> SyncResult:
        start = time.monotonic()
        state = BucketState(self.store or Store())
        sse_params: dict[str, Any] = {}
        if self.sse is not None:
            from app.core.bucketsse import sse_params as make_sse

            sse_params = make_sse(self.target.url.scheme, self.sse)
        codec: PlainCodec = CryptCodec(self.crypt) if self.crypt is not None else PlainCodec()
        client = s3_client(self.target, self.creds, pool=max(4, self.opts.channels + 2))
        self.result.server = {
            "service": self.target.url.service,
            "url": str(self.target.url),
            "endpoint": self.target.endpoint.url,
            "region": self.target.region,
            "addressing": self.target.endpoint.addressing,
            "encrypted": self.crypt is not None,
            "sse": getattr(self.sse, "kind", "") if self.sse is not None else "",
        }
        aborted: list[str] = []
        attempt = 0
        while True:
            attempt += 1
            self.result.attempts = attempt
            run = Run(client, self.target, self.local, self.opts, self.flow, state, codec, sse_params, self.result)
            try:
                self._run(run)
                break
            except BucketNetworkError as exc:
                # the network (or the VPN) went away: finished files stay, the next attempt plans
                # again and resumes the interrupted upload or download
                if self.cancelled:
                    raise cancelled_error() from None
                if not self.opts.reconnect or self.opts.dry_run or attempt >= self.opts.max_attempts:
                    raise
                delay = BACKOFF[min(attempt - 1, len(BACKOFF) - 1)]
                log.info("bucket sync: %s; trying again in %.1f s", exc.one_line(), delay)
                self.progress.state("waiting", attempt=attempt, message=exc.text())
                if self.cancel_event.wait(delay):
                    raise cancelled_error() from None
            except BucketCancelledError:
                raise cancelled_error() from None
            except LabGpuError:
                if self.cancelled:
                    raise cancelled_error() from None
                raise
            except Exception as exc:
                if self.cancelled:
                    raise cancelled_error() from None
                if is_sdk_error(exc):
                    raise bucket_error(exc, self.target) from None
                raise
            finally:
                if run.new_heads:
                    with contextlib.suppress(LabGpuError, OSError):
                        state.put_heads(run.endpoint_id, run.bucket, run.new_heads)
                aborted.extend(run.aborted)
                if aborted:
                    self.result.server["aborted_uploads"] = list(aborted)
        self.result.seconds = time.monotonic() - start
        self.progress.state("done")
        return self.result

    def _run(self, run: Run) -> None:
        up = self.opts.direction == UP
        self.progress.state("listing")
        if up and not self.local.is_dir():
            raise local_folder_error(str(self.local), exists=self.local.exists())
        if not up and self.local.exists() and not self.local.is_dir():
            raise local_folder_error(str(self.local), exists=True)
        local_errors: list[str] = []
        local_reasons: dict[str, str] = {}
        scanned: dict[str, Any] = {}

        def scan() -> None:  # the local walk overlaps the listing (mostly waiting on the service)
            try:
                scanned["listing"] = list_local(self.local, local_errors, local_reasons)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the engine's thread
                scanned["error"] = exc

        scanner = threading.Thread(target=scan, name="labgpu-bucket-scan", daemon=True)
        scanner.start()
        try:
            special = frozenset({self._check_name()}) if self.crypt is not None else frozenset()
            listing = list_objects(run.client, self.target, self.flow, special=special)
        finally:
            scanner.join()
        if "error" in scanned:
            raise scanned["error"]
        local: dict[str, Entry] = scanned["listing"]
        check_missing = self._check_key(run, listing)
        self._plain_sizes(run, listing)
        run.objects = listing.objects
        named: list[dict[str, str]] = list(listing.refused)  # names that cannot be a path or a key
        if up:
            for rel in sorted(local):
                why = self._key_refusal(run, rel) if local[rel].kind == FILE else None
                if why is not None:
                    del local[rel]
                    named.append({"path": shown(rel), "why": why})
        metas = self._metas(run, local, up)
        bucket, clash = entries(listing.objects, lambda o: o.size, metas)
        missing = named + clash
        source, dest = (local, bucket) if up else (bucket, local)
        rules = default_rules(self.opts.excludes, defaults=self.opts.default_excludes)
        if self.opts.gitignore and up:
            self._local_gitignores(rules, local)
        self.progress.state("planning")
        plan = build_plan(source, dest, rules, delete=self.opts.delete, force=self.opts.force,
                          windows_dest=(os.name == "nt" and not up), strict_source_names=not up)
        if plan.deletions and local_errors and up:
            raise BucketError(
                QT_TRANSLATE_NOOP("LabGPU", "Refusing to delete: part of the source could not be listed ({why})."),
                QT_TRANSLATE_NOOP("LabGPU", "Fix the permissions there, or sync without deleting."),
                code="ListingIncomplete",
                why=local_reasons.get(local_errors[0], local_errors[0]),
            )
        if self.opts.verify and plan.checksum_candidates:
            self._verify_unchanged(run, plan, source, metas, up)
        too_big = [i for i in plan.transfers if i.size > MAX_OBJECT_SIZE] if up else []
        if too_big:
            plan.transfers = [i for i in plan.transfers if i.size <= MAX_OBJECT_SIZE]
            missing.extend({"path": i.path, "why": _TOO_BIG} for i in too_big)
        res = self.result
        res.plan = plan
        res.skipped = plan.unchanged
        res.conflicts = len(plan.conflicts)
        res.conflict_paths = [c.path for c in plan.conflicts]
        res.refused = len(plan.refused) + len(named)
        res.refused_paths = [r.path for r in plan.refused] + [r["path"] for r in named]
        res.excluded = plan.excluded
        if up:
            for rel in local_errors:
                missing.append({"path": rel, "why": f"folder could not be read ({local_reasons.get(rel, 'error')})"})
        missing.extend({"path": i.path, "why": REASONS.get(i.reason, i.reason)} for i in plan.refused)
        res.not_transferred = missing
        if self.opts.dry_run:
            res.files = len(plan.transfers)
            res.bytes = plan.bytes_to_transfer
            res.deleted = len(plan.deletions)
            res.mkdirs = 0 if up else len(plan.mkdirs)
            return
        if up:
            self._apply_up(run, plan, check_missing)
        else:
            self._apply_down(run, plan)

    @staticmethod
    def _key_refusal(run: Run, rel: str) -> str | None:
        """Why a local file cannot become an object key (as named, or encrypted), or None."""
        why = key_problem(rel)
        if why is None:
            try:
                why = key_problem(run.key_of(rel))
            except LabGpuError as exc:  # a name too long to encrypt
                why = exc.text()
        return why

    # encryption -----------------------------------------------------------------------------------
    def _check_name(self) -> str:
        from app.core.objcrypt import CHECK_NAME

        return CHECK_NAME

    def _check_mark(self) -> str:
        """What the metadata cache keeps for the check object a key opened (never the key)."""
        key_id = self.crypt.key_id if self.crypt is not None else ""
        return hashlib.sha256(b"labgpu key check " + key_id.encode()).hexdigest()

    def _check_key(self, run: Run, listing: BucketListing) -> bool:
        """An encrypted pair: the key check object must open with this key (a wrong key is a clear
        error before anything moves); then the names are decrypted. True when there is none yet."""
        if self.crypt is None:
            return False
        chk = listing.special.get(self._check_name())
        if chk is None:
            if listing.objects:
                raise BucketError(_NOT_A_PAIR, _NOT_A_PAIR_HINT, code="NotEncryptedPair", url=str(self.target.url))
            return True
        # this key opened this version of the check object before: no GET needed
        mark = self._check_mark()
        known = run.state.heads(run.endpoint_id, run.bucket, chk.key).get(chk.key)
        if known is None or known.etag != chk.etag or known.sha256 != mark:
            try:
                resp = run.client.get_object(Bucket=run.bucket, Key=chk.key, IfMatch=f'"{chk.etag}"')
                blob = resp["Body"].read(1 << 16)
            except Exception as exc:
                if is_sdk_error(exc):
                    raise bucket_error(exc, self.target, key=chk.key) from None
                raise
            self.crypt.check(blob)
            run.new_heads.append((chk.key, HeadMeta(chk.etag, None, mark)))
        apply_names(listing, self.crypt.decrypt_name)
        return False

    def _plain_sizes(self, run: Run, listing: BucketListing) -> None:
        """Objects by their plain size (an encrypted object of an impossible size is damaged)."""
        if not run.codec.encrypted:
            return
        out: dict[str, ObjInfo] = {}
        for rel, o in listing.objects.items():
            try:
                plain = run.codec.plain_size(o.size, name=shown(o.key, 200))
            except LabGpuError as exc:
                listing.refused.append({"path": shown(rel), "why": exc.text()})
                continue
            out[rel] = ObjInfo(o.key, rel, plain, o.etag, o.modified)
        listing.objects = out

    # metadata -------------------------------------------------------------------------------------
    def _metas(self, run: Run, local: dict[str, Entry], up: bool) -> dict[str, HeadMeta]:
        """LabGPU's metadata of the objects whose comparison needs it: from the cache when the
        ETag is the same, else by HEAD (remembered for the next run)."""
        cached = run.state.heads(run.endpoint_id, run.bucket, self.target.url.list_prefix)
        metas: dict[str, HeadMeta] = {}
        need: list[ObjInfo] = []
        for rel, o in run.objects.items():
            m = cached.get(o.key)
            if m is not None and m.etag == o.etag:
                metas[o.key] = m
            elif self._needs_head(o, local.get(rel), up):
                need.append(o)
        if need:
            self.progress.state("listing", message=f"metadata of {len(need)} object(s)")
            got = fetch_heads(run.client, self.target, need, self.flow, self.opts.channels)
            got.update(self._same_content(run, local, got))
            metas.update(got)
            run.new_heads.extend(got.items())
        return metas

    def _same_content(self, run: Run, local: dict[str, Entry], got: dict[str, HeadMeta]) -> dict[str, HeadMeta]:
        """Objects another tool wrote (no LabGPU metadata) of the local file's size: when the
        service's ETag is the MD5 of the content (a single-part upload without KMS, "Common
        Response Headers", S3 API Reference) and the local file's MD5 is the same, the two are the
        same file — remembered with the local mtime, so it is neither a conflict nor sent again."""
        if run.codec.encrypted:
            return {}
        lr = run.root()
        out: dict[str, HeadMeta] = {}
        for rel, o in run.objects.items():
            m, e = got.get(o.key), local.get(rel)
            if m is None or m.has_meta or e is None or e.kind != FILE or e.size != o.size or not is_md5(o.etag):
                continue
            self.flow.check()
            with contextlib.suppress(OSError, LabGpuError):
                if md5_file(lr.path(rel)) == o.etag.lower():
                    out[o.key] = HeadMeta(o.etag, e.mtime, "", o.size, False)
        return out

    @staticmethod
    def _needs_head(o: ObjInfo, other: Entry | None, up: bool) -> bool:
        """Whether the object's own mtime could change the plan. ``o.size`` is the plain size.
        LastModified is never earlier than the source mtime LabGPU stored, so when the sizes differ
        it settles the case alone unless the two times are close."""
        if other is None or other.kind != FILE:
            return False
        if o.size == other.size:
            return True
        lm = _whole(o.modified)
        if up:  # local newer than the upload itself: an update whatever the stored mtime
            return _whole(other.mtime) < lm
        return _whole(other.mtime) <= lm  # local newer than the upload: a conflict whatever it is

    def _verify_unchanged(self, run: Run, plan: SyncPlan, source: dict[str, Entry],
                          metas: dict[str, HeadMeta], up: bool) -> None:
        """``--verify``: files the quick check found equal are compared by sha256 (local file vs
        the sha256 LabGPU stored with the object); a difference — or no stored sha256 — transfers."""
        self.progress.state("verifying", message="checksums")
        lr = run.root()
        local_sums: dict[str, str] = {}
        bucket_sums: dict[str, str] = {}
        for rel in plan.checksum_candidates:
            self.flow.check()
            o = run.objects.get(rel)
            m = metas.get(o.key) if o is not None else None
            if m is not None and m.sha256:
                bucket_sums[rel] = m.sha256
            with contextlib.suppress(OSError, LabGpuError):
                local_sums[rel] = sha256_file(lr.path(rel))
        src, dst = (local_sums, bucket_sums) if up else (bucket_sums, local_sums)
        extra = checksum_mismatches(plan, src, dst, source)
        if extra:
            bad = {i.path for i in extra}
            plan.checksum_candidates = [p for p in plan.checksum_candidates if p not in bad]
            plan.unchanged -= len(extra)
            plan.transfers.extend(extra)
        self.result.verified += len(plan.checksum_candidates)

    def _local_gitignores(self, rules: Any, local: dict[str, Entry]) -> None:
        lr = self._root_reader()
        for rel in sorted(p for p in local if p == ".gitignore" or p.endswith("/.gitignore")):
            with contextlib.suppress(OSError, LabGpuError), open(lr.path(rel), encoding="utf-8",
                                                                  errors="replace") as fh:
                rules.add_gitignore(fh.read(1 << 20), rel.rpartition("/")[0])

    def _root_reader(self) -> Any:
        from app.core.localtree import LocalRoot

        return LocalRoot(self.local)

    # applying the plan --------------------------------------------------------------------------
    def _apply_up(self, run: Run, plan: SyncPlan, check_missing: bool) -> None:
        up = Uploader(run)
        self.progress.totals(len(plan.transfers), plan.bytes_to_transfer)
        if self.crypt is not None and check_missing:
            key = self.target.url.key_for(self._check_name())
            blob = self.crypt.check_blob()
            resp = up._call("write the key check object", key, run.client.put_object,  # noqa: SLF001
                            Body=blob, ContentMD5=md5_b64(blob), **run.sse_params)
            run.remember(key, HeadMeta(clean_etag(resp.get("ETag", "")), None, self._check_mark()))
        up.abort_stale({run.key_of(i.path) for i in plan.transfers})
        self.progress.state("transferring")
        jobs: deque[Job] = deque()
        threshold = transfer.MULTIPART_THRESHOLD
        for item in sorted(plan.transfers, key=lambda i: -i.size):
            if run.codec.stored_size(item.size) >= threshold:
                jobs.append(self._begin_upload(up, item))
            else:
                jobs.append(bind(up.put_small, item))
        run_jobs(jobs, self.opts.channels, self.flow)
        self._after_transfers(run)
        if plan.deletions:
            self.progress.state("deleting")
            self.result.deleted += up.delete(plan)

    def _begin_upload(self, up: Uploader, item: PlanItem) -> Job:
        def begin() -> list[Job] | None:
            mp = up.begin(item)
            if mp is None:
                return None
            if not mp.todo:
                up.complete(mp)
                return None
            return [bind2(up.upload_part, mp, n) for n in mp.todo]

        return begin

    def _apply_down(self, run: Run, plan: SyncPlan) -> None:
        down = Downloader(run)
        self.progress.totals(len(plan.transfers), plan.bytes_to_transfer)
        if self.opts.check_space and plan.transfers:
            where = self.local
            while not where.exists() and where != where.parent:
                where = where.parent
            free = shutil.disk_usage(where).free
            need = plan.bytes_to_transfer
            if need > free:
                raise disk_full_error(need, free, str(where))
        down.prepare(plan)
        self.progress.state("transferring")
        jobs: deque[Job] = deque()
        splits: list[Split] = []
        threshold = transfer.MULTIPART_THRESHOLD
        for item in sorted(plan.transfers, key=lambda i: -i.size):
            obj = run.objects[item.path]
            if obj.size >= threshold or item.resume_from:
                jobs.append(self._begin_download(down, item, splits))
            else:
                jobs.append(bind(down.get_small, item))
        try:
            run_jobs(jobs, self.opts.channels, self.flow)
        except BaseException:
            for sp in splits:
                sp.keep_prefix()  # the next run continues from what is complete
            raise
        self._after_transfers(run)
        if plan.deletions:
            self.progress.state("deleting")
            self.result.deleted += down.delete_local(plan)

    def _begin_download(self, down: Downloader, item: PlanItem, splits: list[Split]) -> Job:
        def begin() -> list[Job] | None:
            sp = down.begin(item)
            if sp is None:
                return None
            splits.append(sp)
            return [bind(down.get_range, rng) for rng in sp.ranges]

        return begin

    def _after_transfers(self, run: Run) -> None:
        if run.changed:
            changed = sorted(run.changed)
            self.result.not_transferred.extend(
                {"path": p, "why": "changed while it was being copied, and again when read once more"} for p in changed
            )
            raise changed_error(changed)
        if run.bad:
            bad = sorted(run.bad)
            self.result.not_transferred.extend({"path": p, "why": "failed sha256 verification"} for p in bad)
            raise verify_error(bad)
