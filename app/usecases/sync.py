"""One sync as a cancellable job, one job per pair at a time, and what the pair's history records.

The Sync page, ``labgpu sync`` and the watcher's guard pulls all run a sync through here.

* :class:`SyncJob`: runs one :class:`SyncRequest` on its own thread. ``cancel()`` (any thread) makes
  the engine close its own transport, so a transfer blocked on the network stops at once; finished
  files stay in place and an interrupted one resumes next time from its verified temporary file.
  ``wait()``, ``result()`` (the SyncResult, or the run's error raised), ``on_progress()`` (every
  SyncProgress; the last one at once to a late subscriber).
* :class:`SyncJobs` (the process-wide :data:`JOBS`): one transfer per (host, pair) at a time. A pair
  is its host, local folder and remote folder, whichever direction and whether saved or typed on
  the command line. A start whose request equals the pair's running or queued job (same options,
  same purpose) joins it: every caller gets that job's result and the history gets one row. Any
  other start of the pair is queued behind the last one and runs when it has ended (its progress
  says ``queued`` until then). So a guard's pull before a stop waits for a user's running sync of
  the same pair and then makes its own verified pull, never beside it, and a user's sync waits for
  a guard's pull. Watchers (``watch()``) see each job ``queued``, ``joined``, ``started``, ``finished``.
* What the history records (:func:`history_entry`): a preview that ran is kept as ``dry-run``; a
  preview that failed or was cancelled is not (it changed nothing, and is no failed upload or
  download); a sync that ran is ``ok`` or ``incomplete`` (naming what was not transferred), one that
  failed ``error`` (its one-line reason), one that was cancelled ``cancelled``. A guard's or spot
  notice's pull (:data:`GUARD_PULL_PURPOSES`) is always verified (sha256 on both sides), and its row
  says so, or says which pull failed. Every row written emits ``Change.SYNC``.
* Buckets (issue 25): a request with host "" and a bucket URL as its remote (``cos://b/prefix``)
  names the ``account`` that reaches it ("" = the only account of that cloud), the LabGPU key its
  objects are encrypted with (``encrypt_key``) and the service's encryption (``sse``, ``kms[:ID]``).
  Its job runs the bucket engine (``app.cloud.storage.engine.BucketSyncEngine``) under the same
  rules: one transfer per (bucket location, local folder), joins, queues, history rows. The account's
  credentials and the key are read from the keyring on the job's own thread, never the caller's.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.core.buckets import is_bucket_url, parse_bucket_url
from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.paths import Paths
from app.core.store import Store
from app.core.syncmodel import DOWN, SyncOptions, SyncProgress, SyncResult, display_name
from app.core.syncpairs import SyncPair, SyncStore
from app.remote.sync import SyncCancelledError, SyncEngine
from app.remote.sync.checks import check_local_folder
from app.remote.sync.errors import cancelled_error
from app.usecases.changes import NO_CHANGES, Change, Changes

log = logging.getLogger(__name__)

# The pulls a guard or a spot notice makes before an instance stops or is reclaimed: the last copy of
# a checkpoint before its disk may be gone, so it is always verified (sha256 on both sides before
# anything is put in place), whatever the saved pair says.
GUARD_PULL_PURPOSES = ("before-stop", "on-interruption")

QUEUED, JOINED, STARTED, FINISHED = "queued", "joined", "started", "finished"  # what watch() sees

Connect = Callable[[], Any]
ProgressFn = Callable[[SyncProgress], None]
JobWatcher = Callable[[str, "SyncJob"], None]
PairKey = tuple[str, str, str]


def host_connector(host: str, paths: Paths | None = None, accept: Any = None) -> Connect:
    """A ``connect()`` for SyncEngine to a saved host (``labgpu hosts add``); VPN hosts bring
    their tunnel up inside ``open_connection``, so reconnects after a tunnel drop work too."""
    from app.remote.ssh import open_connection

    def connect() -> Any:
        return open_connection(host, paths, accept)

    return connect


def pair_key(host: str, local: str | Path, remote: str) -> PairKey:
    """Which pair a sync is of: the host, the local folder (absolute) and the remote folder (for a
    bucket, host "" and the location as parse_bucket_url writes it)."""
    loc = os.path.normpath(os.path.abspath(os.path.expanduser(str(local))))
    rem = remote.strip().rstrip("/") or "/"
    if not host and is_bucket_url(rem):
        try:
            rem = str(parse_bucket_url(rem))
        except LabGpuError:
            pass  # the job itself says what is wrong with it
    return host, loc, rem


@dataclass(frozen=True)
class SyncRequest:
    """One sync someone asked for. ``purpose``: "" for a user's sync, else one of
    :data:`GUARD_PULL_PURPOSES` (the watcher's pull before a stop or on a spot notice)."""

    host: str
    local: str
    remote: str
    options: SyncOptions
    pair_id: int | None = None
    purpose: str = ""
    account: str = ""  # a bucket: the account that reaches it ("" = the only one of that cloud)
    encrypt_key: str = ""  # a bucket: the LabGPU key (keyring) its objects are encrypted with
    sse: str = ""  # a bucket: the service's encryption, "" or "kms[:KEYID]"

    @property
    def key(self) -> PairKey:
        return pair_key(self.host, self.local, self.remote)

    @property
    def is_bucket(self) -> bool:
        """Whether the other side is a bucket location (host "" and a bucket URL)."""
        return not self.host and is_bucket_url(self.remote)

    @property
    def guard_pull(self) -> bool:
        return self.purpose in GUARD_PULL_PURPOSES and self.options.direction == DOWN

    def effective_options(self) -> SyncOptions:
        """The options the engine gets: a guard's pull always verifies."""
        if self.guard_pull and not self.options.verify:
            return dataclasses.replace(self.options, verify=True)
        return self.options

    def same_run(self, other: SyncRequest) -> bool:
        """Whether ``other`` asks for exactly this run (so it may join it)."""
        return (
            self.key == other.key
            and self.purpose == other.purpose
            and self.effective_options() == other.effective_options()
            and (self.account, self.encrypt_key, self.sse) == (other.account, other.encrypt_key, other.sse)
        )


def pair_request(pair: SyncPair, options: SyncOptions | None = None, *, purpose: str = "") -> SyncRequest:
    """The request that syncs a saved pair (a host's or a bucket's) with ``options`` (default: the
    pair's own)."""
    return SyncRequest(pair.host, pair.local_path, pair.remote_path, options or pair.options(), pair_id=pair.id,
                       purpose=purpose, account=pair.account, encrypt_key=pair.encrypt_key, sse=pair.sse)


def history_entry(
    request: SyncRequest, result: SyncResult | None, error: BaseException | None
) -> tuple[str, str] | None:
    """The history row for a finished job as (result, message), or None when it is not recorded."""
    opts = request.options
    if error is not None:
        if opts.dry_run or not isinstance(error, LabGpuError):
            return None  # a preview that failed changed nothing; an unexpected error is raised, not kept
        cancelled = isinstance(error, SyncCancelledError) or error.code == "Cancelled"
        why = error.text() if cancelled else error.one_line()
        if request.guard_pull:
            why = translate(QT_TRANSLATE_NOOP("LabGPU", "{purpose} pull failed: {why}")).format(
                purpose=request.purpose, why=why
            )
        return ("cancelled" if cancelled else "error"), why
    assert result is not None
    if not result.complete:
        note = "; ".join(f"{display_name(x['path'])}: {x['why']}" for x in result.not_transferred[:20])
    elif request.guard_pull and not opts.dry_run:
        # the history says the guard's pull was checked, so a student can rely on the copy it made
        note = translate(QT_TRANSLATE_NOOP("LabGPU", "{purpose} pull: {n} new or changed file(s), each checked "
                                                     "with SHA-256 on both sides"))
        note = note.format(purpose=request.purpose, n=result.verified)
    else:
        note = ""
    return ("dry-run" if opts.dry_run else ("ok" if result.complete else "incomplete")), note


class SyncJob:
    """One sync run on its own thread; use :meth:`SyncJobs.start` so a pair never runs twice at once."""

    def __init__(self, request: SyncRequest, connect: Connect | None, store: SyncStore | None = None,
                 changes: Changes = NO_CHANGES, *, after: SyncJob | None = None,
                 registry: SyncJobs | None = None, paths: Paths | None = None) -> None:
        self.request = request
        self.store = store
        self._paths = paths
        self.changes = changes
        self.last_progress: SyncProgress | None = None
        self._after = after  # the job of the same pair this one waits for
        self._registry = registry
        self._lock = threading.Lock()
        self._listeners: list[ProgressFn] = []
        self._done = threading.Event()
        self._cancel = threading.Event()
        self._thread: threading.Thread | None = None
        self._own_store: Store | None = None  # a bucket job's database, when no SyncStore was given
        self._result: SyncResult | None = None
        self._error: BaseException | None = None
        # a host's engine connects only in run(); a bucket's is made on the job's thread (it reads the
        # account's credentials and the pair's key from the keyring, which may block)
        self._engine: Any = None
        if not request.is_bucket:
            self._engine = SyncEngine(
                connect or host_connector(request.host, paths),
                request.local,
                request.remote,
                request.effective_options(),
                self._report,
            )

    # what callers use ---------------------------------------------------------------------------
    def start(self) -> SyncJob:
        """Run it on its own thread (once; later calls do nothing)."""
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._main, name="labgpu-sync-job", daemon=True)
                self._thread.start()
        return self

    def cancel(self) -> None:
        """Stop now, from any thread: the engine closes its own transport (for every joined caller)."""
        self._cancel.set()
        with self._lock:
            engine = self._engine
        if engine is not None:
            engine.cancel()
        if self._registry is not None:
            self._registry._wake()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the job has ended (and its history row is written); False on timeout."""
        return self._done.wait(timeout)

    def result(self, timeout: float | None = None) -> SyncResult:
        """The run's SyncResult once it ended; raises the run's error (SyncCancelledError when it was
        cancelled), or TimeoutError when it has not ended within ``timeout``."""
        if not self._done.wait(timeout):
            raise TimeoutError("the sync has not ended yet")
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result

    @property
    def error(self) -> BaseException | None:
        return self._error

    def on_progress(self, callback: ProgressFn, *, replay: bool = True) -> Callable[[], None]:
        """Call ``callback`` with every SyncProgress from now on (the latest one at once when
        ``replay``); returns the call that stops it."""
        with self._lock:
            self._listeners.append(callback)
            last = self.last_progress
        if replay and last is not None:
            callback(last)

        def stop() -> None:
            with self._lock:
                if callback in self._listeners:
                    self._listeners.remove(callback)

        return stop

    # the run ------------------------------------------------------------------------------------
    def _report(self, p: SyncProgress) -> None:
        with self._lock:
            self.last_progress = p
            listeners = list(self._listeners)
        for cb in listeners:
            try:
                cb(p)
            except Exception:  # noqa: BLE001 - a broken view never stops the transfer
                log.exception("a sync progress callback failed")

    def _main(self) -> None:
        started = time.time()
        try:
            self._wait_turn()
            if self._registry is not None and not self._cancel.is_set():
                self._registry._tell(STARTED, self)
            started = time.time()
            if self.request.is_bucket:
                self._result = self._run_bucket()
            else:
                self._result = self._engine.run()  # cancelled while queued: raises at once, unconnected
        except BaseException as exc:  # noqa: BLE001 - handed to every caller through result()
            self._error = exc
        finally:
            if self._own_store is not None:
                self._own_store.close()
        try:
            self._record(started)
        except Exception:  # noqa: BLE001 - the run's own outcome still reaches its callers
            log.exception("the sync history could not be written")
        finally:
            self._done.set()
            if self._registry is not None:
                self._registry._finished(self)

    def _run_bucket(self) -> SyncResult:
        if self._cancel.is_set():
            raise cancelled_error()  # cancelled while queued: nothing read, nothing sent
        # the local folder first, as the host engine does: before the keyring or the bucket is asked
        check_local_folder(Path(self.request.local).expanduser(), self.request.options.direction != DOWN)
        engine = self._bucket_engine()
        with self._lock:
            self._engine = engine
        if self._cancel.is_set():  # cancel() came while the engine was made and did not see it
            raise cancelled_error()
        result: SyncResult = engine.run()
        return result

    def _bucket_engine(self) -> Any:
        from app.usecases.buckets import resolve_bucket

        req = self.request
        if self.store is not None:
            store = self.store.store
        else:
            store = self._own_store = Store(paths=self._paths)
        target, creds = resolve_bucket(req.remote, req.account, paths=self._paths, store=store)
        crypt = None
        if req.encrypt_key:
            from app.core.cryptkeys import CryptKeys

            crypt = CryptKeys(self._paths, store=store).get(req.encrypt_key)
        sse = None
        if req.sse:
            from app.core.bucketsse import parse_sse

            sse = parse_sse(req.sse)
        from app.cloud.storage.engine import BucketSyncEngine

        store.migrate()  # the engine's own tables (bucket state) register when its modules load
        return BucketSyncEngine(target, creds, req.local, req.effective_options(), self._report, store=store,
                                crypt=crypt, sse=sse)

    def _wait_turn(self) -> None:
        after = self._after
        if after is None or after.done or self._registry is None:
            return
        self._report(SyncProgress(state="queued"))
        self._registry._wait_for(self, after)

    def _record(self, started: float) -> None:
        if self.store is None:
            return
        entry = history_entry(self.request, self._result, self._error)
        if entry is None:
            return
        what, message = entry
        req = self.request
        self.store.record_run(
            host=req.host,
            local_path=str(req.local),
            remote_path=req.remote,
            direction=req.options.direction,
            started_at=started,
            result=what,
            outcome=getattr(self._engine, "result", None) or self._result,
            message=message,
            pair_id=req.pair_id,
        )
        self.changes.emit(Change.SYNC)


class SyncJobs:
    """The registry: at most one running job per (host, pair); see the module docstring."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._last: dict[PairKey, SyncJob] = {}  # the latest job of each pair that has not ended
        self._watchers: list[JobWatcher] = []

    def start(
        self,
        request: SyncRequest,
        *,
        paths: Paths | None = None,
        store: SyncStore | None = None,
        connect: Connect | None = None,
        changes: Changes = NO_CHANGES,
        progress: ProgressFn | None = None,
    ) -> SyncJob:
        """Start ``request``, join the pair's equal job, or queue it behind the pair's last job.
        ``progress`` is subscribed before anything runs. A joining caller's ``store``, ``connect``
        and ``changes`` are not used: the joined job records its run once."""
        with self._cond:
            last = self._last.get(request.key)
            if last is not None and last.done:
                last = None
            if last is not None and not last.cancelled and last.request.same_run(request):
                job, event = last, JOINED
            else:
                job = SyncJob(request, connect, store, changes, after=last, registry=self, paths=paths)
                self._last[request.key] = job
                event = QUEUED
        if progress is not None:
            job.on_progress(progress)
        self._tell(event, job)
        return job.start()

    def running(self) -> list[SyncJob]:
        """The jobs that have not ended (the latest of each pair)."""
        with self._cond:
            return [j for j in self._last.values() if not j.done]

    def job_for(self, host: str, local: str | Path, remote: str) -> SyncJob | None:
        """The pair's latest job that has not ended, if any."""
        with self._cond:
            job = self._last.get(pair_key(host, local, remote))
        return job if job is not None and not job.done else None

    def watch(self, watcher: JobWatcher) -> Callable[[], None]:
        """``watcher(event, job)`` for every job's queued/joined/started/finished; returns the
        call that stops it. Called on the thread where it happened."""
        with self._cond:
            self._watchers.append(watcher)

        def stop() -> None:
            with self._cond:
                if watcher in self._watchers:
                    self._watchers.remove(watcher)

        return stop

    # for the jobs -------------------------------------------------------------------------------
    def _tell(self, event: str, job: SyncJob) -> None:
        with self._cond:
            watchers = list(self._watchers)
        for w in watchers:
            try:
                w(event, job)
            except Exception:  # noqa: BLE001 - a watcher never stops a sync
                log.exception("a sync job watcher failed")

    def _wait_for(self, job: SyncJob, after: SyncJob) -> None:
        with self._cond:
            self._cond.wait_for(lambda: after.done or job.cancelled)

    def _wake(self) -> None:
        with self._cond:
            self._cond.notify_all()

    def _finished(self, job: SyncJob) -> None:
        with self._cond:
            if self._last.get(job.request.key) is job:
                del self._last[job.request.key]
            self._cond.notify_all()
        self._tell(FINISHED, job)


JOBS = SyncJobs()  # the process's registry: the Sync page, `labgpu sync` and the watcher share it


def run_sync(
    host: str,
    local: str | Path,
    remote: str,
    options: SyncOptions,
    *,
    paths: Paths | None = None,
    store: SyncStore | None = None,
    pair_id: int | None = None,
    connect: Connect | None = None,
    progress: ProgressFn | None = None,
    purpose: str = "",
    changes: Changes = NO_CHANGES,
    jobs: SyncJobs | None = None,
    account: str = "",
    encrypt_key: str = "",
    sse: str = "",
) -> SyncResult:
    """Run one sync through the registry and wait for it: its result, or its error raised. A bucket:
    ``host`` "" and ``remote`` its URL, with ``account``, ``encrypt_key`` and ``sse``."""
    request = SyncRequest(host, str(local), remote, options, pair_id=pair_id, purpose=purpose, account=account,
                          encrypt_key=encrypt_key, sse=sse)
    job = (jobs or JOBS).start(request, paths=paths, store=store, connect=connect, changes=changes,
                               progress=progress)
    return job.result()


PUSH_INCOMPLETE = QT_TRANSLATE_NOOP(
    "LabGPU", "{count} file(s) of {host} did not reach {bucket}."
)
PUSH_INCOMPLETE_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Run the pair again from the Sync page while the instance can still be reached."
)


def pull_for_guard(
    paths: Paths | None,
    store: Store,
    host: str,
    purpose: str,
    *,
    connect: Connect | None = None,
    changes: Changes = NO_CHANGES,
    jobs: SyncJobs | None = None,
) -> int:
    """A guard's or spot notice's pull (``purpose`` "before-stop" or "on-interruption"): every saved
    pair of ``host`` that downloads, one after the other, each verified and through the registry (so
    it waits for a sync of that pair that is running). Returns how many pairs ran; raises the first
    failure."""
    from app.core.paths import default_paths
    from app.usecases.bucketinstance import is_instance_pair, run_pair

    ss = SyncStore(store)
    pairs = [p for p in ss.pairs() if p.host == host and p.direction == DOWN]
    for p in pairs:
        if is_instance_pair(p):  # the host's results to a bucket: the host uploads them itself
            result = run_pair(paths or default_paths(), p, connect=connect)
            if not result.complete:
                raise LabGpuError(PUSH_INCOMPLETE, PUSH_INCOMPLETE_HINT, code="Incomplete", host=host,
                                  bucket=display_name(p.local_path), count=len(result.not_transferred))
            continue
        run_sync(host, p.local_path, p.remote_path, p.options(), paths=paths, store=ss, pair_id=p.id,
                 connect=connect, purpose=purpose, changes=changes, jobs=jobs)
    return len(pairs)
