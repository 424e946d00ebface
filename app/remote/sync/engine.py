"""The sync engine: one sync as attempts with reconnects, the plan, and the transfer workers.

The engine is composed, not inherited: one :class:`~.attempt.Attempt` (the run's state: options,
progress, cancel flag, connection, channels, counters, temporary names) is handed to the parts that
do the work — :class:`~.listing.RemoteLister` (probe, remote listing, ignore files),
:class:`~.checks.Verifier` (checksums, free space), :class:`~.upload.Uploader` and
:class:`~.tarstream.TarUploader` (local → remote), :class:`~.download.Downloader` (remote → local,
a big file as parallel byte ranges). The engine itself runs the attempts, builds the plan
and schedules the transfer workers. The tunables the scheduler reads (``TAR_MIN_FILES``,
``SPLIT_MIN``, ``BACKOFF``) are module globals here, so a test can change them for one engine run.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import paramiko
from paramiko.sftp import CMD_REMOVE

from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.syncmodel import UP, SyncOptions, SyncProgress, SyncResult
from app.core.syncplan import REASONS, Entry, PlanItem, SyncPlan, build_plan, checksum_mismatches, default_rules

from .attempt import Attempt
from .checks import Verifier, check_local_folder
from .download import ByteSplit, ByteSplitPart, Downloader
from .errors import (
    OUTER_NET_ERRORS,
    ConnectionLostError,
    SyncCancelledError,
    SyncError,
    cancelled_error,
    connect_error,
    connection_lost_error,
    is_connect_failure,
    kept_changing_error,
    local_error,
    pick_error,
)
from .listing import RemoteLister
from .local import LocalRoot, list_local
from .progress import ProgressTracker
from .sftp import Channel, ChannelPool, SftpError
from .shell import RemoteShell, no_delay, transport_of
from .tarstream import TarUploader
from .tuning import (
    BACKOFF,
    BATCH_BYTES,
    BATCH_FILES,
    SMALL_FILE,
    SPLIT_MIN,
    SPLIT_PARTS,
    TAR_BATCH_BYTES,
    TAR_BATCH_FILES,
    TAR_MIN_FILES,
    TAR_STREAMS,
)
from .upload import Uploader

log = logging.getLogger(__name__)


class SyncEngine:
    """One sync between ``local`` and ``remote`` over connections made by ``connect()``.

    ``connect()`` returns an object with ``.transport`` (a logged-in paramiko Transport) and
    ``.close()`` — an ``app.remote.ssh.Connection`` or anything alike. ``cancel()`` from any thread
    closes the engine's own transport, so workers blocked on the network stop at once. ``run()``
    blocks and returns a SyncResult, or raises a SyncError.
    """

    def __init__(
        self,
        connect: Callable[[], Any],
        local: str | Path,
        remote: str,
        options: SyncOptions | None = None,
        progress: Callable[[SyncProgress], None] | None = None,
        cancel_event: threading.Event | None = None,
    ) -> None:
        a = self.attempt = Attempt(
            connect,
            Path(local).expanduser(),
            remote,
            options or SyncOptions(),
            ProgressTracker(progress),
            cancel_event or threading.Event(),
        )
        self.checks = Verifier(a)
        self.lister = RemoteLister(a)
        self.uploader = Uploader(a, self.checks)
        self.tar = TarUploader(a, self.uploader, self.checks)
        self.downloader = Downloader(a)

    # public -------------------------------------------------------------------------------------
    @property
    def result(self) -> SyncResult:
        return self.attempt.result

    @property
    def opts(self) -> SyncOptions:
        return self.attempt.opts

    @property
    def cancel_event(self) -> threading.Event:
        return self.attempt.cancel_event

    @property
    def cancelled(self) -> bool:
        return self.attempt.cancelled

    def cancel(self) -> None:
        self.attempt.cancel()

    # single steps, as tests and tools call them ----------------------------------------------------
    def remote_sha256(
        self, shell: RemoteShell, rels: Sequence[str], sizes: dict[str, int] | None = None
    ) -> dict[str, str]:
        return self.checks.remote_sha256(shell, rels, sizes)

    def _delete(self, t: paramiko.Transport, plan: SyncPlan, up: bool) -> None:
        if up:
            self.uploader.delete_remote(t, plan)
        else:
            self.downloader.delete_local(plan)

    # the run ----------------------------------------------------------------------------------------
    def run(self) -> SyncResult:
        a = self.attempt
        start = time.monotonic()
        if a.cancelled:
            raise cancelled_error()  # cancelled while queued: nothing checked, nothing sent
        check_local_folder(a.local, a.opts.direction == UP)  # before any connection: fails at once
        attempt = 0
        while True:
            attempt += 1
            a.result.attempts = attempt
            a.stop.clear()
            try:
                a.check_cancel()
                try:
                    a.conn = a.connect()
                except OUTER_NET_ERRORS as exc:  # a refused login or host key is permanent (errors.py)
                    raise connect_error(exc) from None
                try:
                    self._run_once()
                except OUTER_NET_ERRORS as exc:
                    raise connection_lost_error(str(exc) or type(exc).__name__) from None
                finally:
                    conn, a.conn = a.conn, None
                    with contextlib.suppress(Exception):
                        conn.close()
                break
            except ConnectionLostError as exc:
                if a.cancelled:
                    raise cancelled_error() from None
                if not a.opts.reconnect or attempt >= a.opts.max_attempts or a.opts.dry_run:
                    raise
                delay = BACKOFF[min(attempt - 1, len(BACKOFF) - 1)]
                log.info("sync connection lost (%s); reconnecting in %.1fs", exc.one_line(), delay)
                a.progress.state("waiting", attempt=attempt, message=exc.text())
                if a.cancel_event.wait(delay):
                    raise cancelled_error() from None
            except LabGpuError as exc:
                if a.cancelled and not isinstance(exc, SyncCancelledError):
                    raise cancelled_error() from None
                if attempt < a.opts.max_attempts and a.opts.reconnect and is_connect_failure(exc):
                    delay = BACKOFF[min(attempt - 1, len(BACKOFF) - 1)]
                    a.progress.state("waiting", attempt=attempt, message=exc.text())
                    if a.cancel_event.wait(delay):
                        raise cancelled_error() from None
                    continue
                raise
        a.result.seconds = time.monotonic() - start
        a.progress.state("done")
        return a.result

    def _run_once(self) -> None:
        a = self.attempt
        a.incomplete.clear()
        t = transport_of(a.conn)
        no_delay(t)
        shell = RemoteShell(t, read_only=a.read_only, timeout=a.opts.step_timeout)
        up = a.opts.direction == UP
        a.progress.state("listing")
        check_local_folder(a.local, up)  # again on a reconnect: it may have gone meanwhile
        pre = self.lister.probe(shell)
        a.caps = pre.caps
        a.result.server = a.caps.summary()
        if not a.caps.gnu_tar:
            a.tar_ok = False
        # the local scan (syscalls, Python) overlaps the remote listing (mostly waiting on it)
        local_errors: list[str] = []
        local_reasons: dict[str, str] = {}
        scanned: dict[str, Any] = {}

        def scan() -> None:
            try:
                scanned["listing"] = list_local(a.local, local_errors, local_reasons)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the engine's thread
                scanned["error"] = exc

        scanner = threading.Thread(target=scan, name="labgpu-sync-scan", daemon=True)
        scanner.start()
        try:
            remote_listing, remote_exists = self.lister.list_remote(shell, t, pre)
        finally:
            scanner.join()
        if "error" in scanned:
            raise scanned["error"]
        local_listing: dict[str, Entry] = scanned["listing"]
        if not up and not remote_exists:
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "The remote folder {path} does not exist."),
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Check the remote path (relative paths start in the login folder)."
                ),
                code="RemoteMissing",
                path=a.remote_text,
            )
        if local_errors:
            a.incomplete["local"] = local_errors[0]
        source, dest = (local_listing, remote_listing) if up else (remote_listing, local_listing)
        rules = default_rules(a.opts.excludes, defaults=a.opts.default_excludes)
        if a.opts.gitignore:
            self.lister.add_gitignores(rules, source, t)
        a.progress.state("planning")
        plan = build_plan(
            source,
            dest,
            rules,
            delete=a.opts.delete,
            force=a.opts.force,
            windows_dest=(os.name == "nt" and not up),
            strict_source_names=not up,
        )
        src_side = "local" if up else "remote"
        if plan.deletions and src_side in a.incomplete:
            # a folder we could not read looks empty: mirroring would delete its copy
            raise SyncError(
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Refusing to delete: part of the source could not be listed ({why})."
                ),
                QT_TRANSLATE_NOOP("LabGPU", "Fix the permissions there, or sync without deleting."),
                code="ListingIncomplete",
                why=a.incomplete[src_side],
            )
        if a.opts.verify and plan.checksum_candidates:
            a.progress.state("verifying", message="checksums")
            src_sums, dst_sums = self.checks.sums(shell, plan.checksum_candidates, up)
            extra = checksum_mismatches(plan, src_sums, dst_sums, source)
            if extra:
                bad = {i.path for i in extra}
                plan.checksum_candidates = [p for p in plan.checksum_candidates if p not in bad]
                plan.unchanged -= len(extra)
                plan.transfers.extend(extra)
        res = a.result
        res.plan = plan
        res.skipped = plan.unchanged
        res.conflicts = len(plan.conflicts)
        res.conflict_paths = [c.path for c in plan.conflicts]
        res.refused = len(plan.refused)
        res.refused_paths = [r.path for r in plan.refused]
        res.excluded = plan.excluded
        missing: list[dict[str, str]] = []
        if up:
            for rel in local_errors:
                why = local_reasons.get(rel, "error")
                missing.append({"path": rel, "why": f"folder could not be read ({why})"})
        elif "remote" in a.incomplete:
            why = a.incomplete["remote"]
            missing.append({"path": ".", "why": f"part of the remote folder could not be listed ({why})"})
        missing.extend({"path": i.path, "why": REASONS.get(i.reason, i.reason)} for i in plan.refused)
        res.not_transferred = missing
        if a.opts.dry_run:
            res.files = len(plan.transfers)
            res.bytes = plan.bytes_to_transfer
            res.deleted = len(plan.deletions)
            res.mkdirs = len(plan.mkdirs)
            return
        self._apply(t, shell, plan, up, remote_exists)

    def _apply(
        self, t: paramiko.Transport, shell: RemoteShell, plan: SyncPlan, up: bool, remote_exists: bool
    ) -> None:
        """Everything that writes (never reached by a dry run; each step checks it again)."""
        a = self.attempt
        a.writable("apply the plan")
        res = a.result
        with a.progress.lock:
            p = a.progress.p
            p.files_total = p.files_done + len(plan.transfers)
            p.bytes_total = p.bytes_done + plan.bytes_to_transfer
        if plan.is_empty and not plan.stale_parts and not plan.stale_dirs:
            return
        if a.opts.check_space:
            self.checks.check_space(shell, plan, up)
        a.check_cancel()
        a.pool = ChannelPool(lambda: a.channel(t), self._workers_needed(plan, up))
        a.tar_staged, a.stages = set(), {}
        try:
            if up and self._all_by_tar(plan):
                # one round trip less per step across a slow link: the tar stream makes the
                # folders (and the root) itself; SFTP is needed only for the final renames
                a.tar_dirs, a.tar_make_root = list(plan.mkdirs), not remote_exists
                a.tar_planned_dirs = set(plan.mkdirs)
                a.tar_staged = _leaf_folders_with_files(plan)
            elif up:
                self.uploader.remote_prepare(t, shell, plan, remote_exists)
            else:
                self.downloader.local_prepare(plan)
            a.progress.state("transferring")
            self._transfer_all(t, shell, plan, up)
        finally:
            pool, a.pool = a.pool, None
            pool.close()
        if plan.deletions:
            a.progress.state("deleting")
            self._delete(t, plan, up)
            res.deleted += len(plan.deletions)

    def _all_by_tar(self, plan: SyncPlan) -> bool:
        a = self.attempt
        return (
            a.caps.gnu_tar
            and a.tar_ok is not False
            and not plan.stale_parts
            and not plan.stale_dirs
            and len(plan.transfers) >= TAR_MIN_FILES
            and all(i.size <= SMALL_FILE and not i.resume_from for i in plan.transfers)
        )

    def _workers_needed(self, plan: SyncPlan, up: bool) -> int:
        """How many SFTP channels the transfer will use (as ``_transfer_all`` splits the work)."""
        a = self.attempt
        small = sum(1 for i in plan.transfers if i.size <= SMALL_FILE and not i.resume_from)
        big = len(plan.transfers) - small
        if up and a.tar_ok is not False and small >= TAR_MIN_FILES:
            small_jobs = min(TAR_STREAMS, a.opts.channels)
        else:
            small_jobs = -(-small // BATCH_FILES)
        return max(1, min(a.opts.channels, big + small_jobs))

    # transfers ----------------------------------------------------------------------------------
    def _transfer_all(self, t: paramiko.Transport, shell: RemoteShell, plan: SyncPlan, up: bool) -> None:
        a = self.attempt
        a.writable("transfer files")
        a.changed = []
        items = list(plan.transfers)
        if not items:
            return
        small = [i for i in items if i.size <= SMALL_FILE and not i.resume_from]
        big = sorted((i for i in items if i.size > SMALL_FILE or i.resume_from), key=lambda i: -i.size)
        jobs: deque[list[PlanItem]] = deque()
        tar_jobs: set[int] = set()  # id() of the jobs that go as one tar stream
        split_jobs: dict[int, ByteSplitPart] = {}  # id() of a job → the byte range it downloads
        splits: list[ByteSplit] = []
        lr = LocalRoot(a.local)
        for i in big:
            if not up and i.size >= SPLIT_MIN and not i.resume_from and a.opts.channels > 1:
                # one big download goes faster as byte ranges over several channels (measured)
                a.temp_for(i)
                a.offsets[i.path] = 0
                tmp = lr.path(a.temps[i.path])
                try:
                    os.close(
                        os.open(
                            tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0), 0o600
                        )
                    )
                except OSError as exc:
                    raise local_error(exc, tmp, i.size) from None
                sp = ByteSplit(i, tmp, max(2, min(SPLIT_PARTS, a.opts.channels)))
                splits.append(sp)
                for rng in sp.parts:
                    job = [i]
                    split_jobs[id(job)] = rng
                    jobs.append(job)
            else:
                jobs.append([i])
        use_tar = up and a.tar_ok is not False and len(small) >= TAR_MIN_FILES
        max_files, max_bytes = (TAR_BATCH_FILES, TAR_BATCH_BYTES) if use_tar else (BATCH_FILES, BATCH_BYTES)
        if use_tar:  # two streams: more only fought over the GIL and the server's CPU (measured)
            per = -(-len(small) // max(1, min(TAR_STREAMS, a.opts.channels)))
            max_files = max(BATCH_FILES, min(max_files, per))
        batch: list[PlanItem] = []
        size = 0
        for i in small:
            batch.append(i)
            size += i.size
            if len(batch) >= max_files or size >= max_bytes:
                jobs.append(batch)
                batch, size = [], 0
        if batch:
            jobs.append(batch)
        if use_tar:
            tar_jobs = {id(j) for j in jobs if len(j) > 1 or j[0].size <= SMALL_FILE}
        # verified before rename: the temp is checked (sha256 both sides) and only then renamed
        verified_pending: list[tuple[PlanItem, str]] = []
        errors: list[BaseException] = []
        jobs_lock = threading.Lock()
        n_workers = max(1, min(a.opts.channels, len(jobs)))
        a.stop.clear()

        def worker() -> None:
            ch: Channel | None = None

            def get_ch() -> Channel:  # taken when first needed: a tar stream starts without it
                nonlocal ch
                if ch is None:
                    ch = a.take_channel(t)
                return ch

            try:
                while not errors:
                    with jobs_lock:
                        if not jobs:
                            return
                        job = jobs.popleft()
                    a.check_cancel()
                    if up:
                        done = None
                        if id(job) in tar_jobs and a.tar_ok is not False:
                            done = self.tar.upload_tar(t, get_ch, lr, job, shell)
                        if done is None:
                            self.uploader.make_deferred_dirs(get_ch())
                            done = self.uploader.upload_batch(get_ch(), lr, job, shell)
                    elif id(job) in split_jobs:
                        done = self.downloader.download_part(get_ch(), lr, split_jobs[id(job)])
                    else:
                        done = self.downloader.download_batch(get_ch(), lr, job, shell)
                    if a.opts.verify:
                        with jobs_lock:
                            verified_pending.extend(done)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                errors.append(exc)
                a.stop.set()  # stop the other workers: this attempt cannot finish
            finally:
                if ch is not None:
                    ch.close()

        threads = [
            threading.Thread(target=worker, name=f"labgpu-sync-{k}", daemon=True) for k in range(n_workers)
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        if errors:
            for sp in splits:
                sp.keep_prefix()  # so the next run resumes from what is complete
            raise pick_error(errors)
        if a.opts.verify and verified_pending:
            self._verify_and_commit(t, shell, lr, verified_pending, up)
        if a.changed:  # the others are in place; these were not (never a torn copy)
            changed = sorted(a.changed)
            a.result.not_transferred.extend(
                {"path": p, "why": "changed while it was being copied, and again when fetched once more"}
                for p in changed
            )
            raise kept_changing_error(changed)

    def _verify_and_commit(
        self,
        t: paramiko.Transport,
        shell: RemoteShell,
        lr: LocalRoot,
        pending: list[tuple[PlanItem, str]],
        up: bool,
    ) -> None:
        a = self.attempt
        a.progress.state("verifying", message="sha256")
        if up:
            remote = self.checks.remote_sha256(
                shell, [a.temps[i.path] for i, _d in pending], {a.temps[i.path]: i.size for i, _d in pending}
            )
            ok = [(i, d) for i, d in pending if remote.get(a.temps[i.path]) == d]
        else:
            sizes = {i.path: i.size for i, _d in pending}
            remote = self.checks.remote_sha256(shell, [i.path for i, _d in pending], sizes)
            ok = [(i, d) for i, d in pending if remote.get(i.path) == d]
        ok_paths = {i.path for i, _d in ok}
        bad = [i for i, _d in pending if i.path not in ok_paths]
        a.writable("commit verified files")
        if up:
            ch = a.channel(t)
            try:
                for n in ch.send_many([(CMD_REMOVE, a.rpath(a.temps[i.path])) for i in bad]):
                    with contextlib.suppress(SftpError):
                        ch.status(n)
                self.uploader.commit_remote(ch, [i for i, _d in ok])
            finally:
                ch.close()
        else:
            for item in bad:
                with contextlib.suppress(OSError):
                    os.unlink(lr.path(a.temps[item.path]))
            for item, _d in ok:
                self.downloader.commit_local(lr, item)
        a.result.verified += len(ok)
        if bad:
            raise SyncError(
                QT_TRANSLATE_NOOP("LabGPU", "{n} file(s) failed sha256 verification, e.g. {path}."),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "They were not put in place; run the sync again. If it "
                    "repeats, the source is changing or a disk is faulty.",
                ),
                code="VerifyFailed",
                n=len(bad),
                path=bad[0].path,
            )


def _leaf_folders_with_files(plan: SyncPlan) -> set[str]:
    """The new folders of ``plan`` that get files and no new subfolder: each can be unpacked aside and
    renamed into place whole, one rename instead of one per file (10,000 files: ~0.2 s less)."""
    new = set(plan.mkdirs)
    with_sub = {d.rpartition("/")[0] for d in new}
    return {head for i in plan.transfers if (head := i.path.rpartition("/")[0]) in new and head not in with_sub}
