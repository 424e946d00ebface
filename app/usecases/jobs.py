"""The training-job journey: start a command detached on a host, follow it, stop it — one use case for
`labgpu run/jobs/logs`, the Jobs page and the watcher.

* :func:`start_job`: the spec checked, an optional upload sync of a saved pair first (through
  app.usecases.sync, so it queues behind a running sync of that pair; a pair whose source is a bucket is
  fetched by the host itself with presigned links, app.usecases.bucketinstance), then the job started on the host
  (app.remote.jobs) and recorded in the store before it starts (a start cut short is found again on the
  host by :func:`list_jobs`).
* :func:`refresh`: one connection: the host's status (running / exited with its code / lost), only the
  log bytes not read yet (capped per refresh; a log far behind skips to its recent end: progress lives in
  the latest lines), the progress from app.core.jobprogress and, with a TensorBoard folder,
  app.remote.tbread; the tracker's state is saved with the record, so the next refresh (in another
  process, after a restart) goes on from there.
* :func:`list_jobs`: the store's jobs, refreshed per host on one connection each, plus the jobs the
  host has that this computer did not start (another laptop's), recorded as found there.
* :func:`follow`: the log as text from an offset, in bounded chunks, until the job ends or the caller
  sets ``stop_event``.
* :func:`stop_job`: TERM to the job's process group, KILL after a grace period.

Durations are the host's own (host now − host start); ``started`` is that difference taken from this
computer's clock, so a host clock that is off shows the right start and runtime.
"""

from __future__ import annotations

import codecs
import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from app.core.errors import InputError, LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.jobprogress import ProgressTracker, validate_pattern
from app.core.jobs import JobRecord, JobSpec, JobStore, iso_utc
from app.core.paths import Paths
from app.core.store import Store
from app.core.vocab import JobState
from app.remote import jobs as hostjobs
from app.usecases.changes import NO_CHANGES, Change, Changes
from app.usecases.guards import connect_target

if TYPE_CHECKING:  # paramiko comes with the first connection (app.usecases.guards.connect_target)
    from app.remote.ssh import Connection

log = logging.getLogger(__name__)

Connect = Callable[[], "Connection"]
StepFn = Callable[[str], None]  # a translated sentence: the step now running

READ_CHUNK = 256 * 1024  # log bytes per read
READS_PER_REFRESH = 4  # so at most 1 MiB of log per refresh
SKIP_BEHIND = 4 * 1024 * 1024  # a log this far behind: read only its last READ_CHUNK bytes
FOLLOW_POLL_S = 1.0
MAX_DISCOVER = 200  # a host's jobs from elsewhere recorded per refresh, at most

MSG_NO_JOB = QT_TRANSLATE_NOOP("LabGPU", "No job {id}.")
HINT_NO_JOB = QT_TRANSLATE_NOOP("LabGPU", "`labgpu jobs` lists the jobs (an id's first digits are enough).")
MSG_AMBIGUOUS = QT_TRANSLATE_NOOP("LabGPU", "{id} names {n} jobs.")
HINT_AMBIGUOUS = QT_TRANSLATE_NOOP("LabGPU", "Give more of the id, as `labgpu jobs` lists it.")
MSG_NO_PAIR = QT_TRANSLATE_NOOP("LabGPU", "There is no saved sync pair {pair} for {host}.")
HINT_NO_PAIR = QT_TRANSLATE_NOOP("LabGPU", "--sync takes LOCAL=REMOTE, or the number of a saved pair that uploads "
                                           "to this host (the Sync page).")
MSG_PAIR_NOT_UP = QT_TRANSLATE_NOOP("LabGPU", "The sync pair {pair} downloads; the sync before a job uploads.")
MSG_SYNC_INCOMPLETE = QT_TRANSLATE_NOOP("LabGPU", "The upload before the job was incomplete ({n} file(s) not "
                                                  "transferred); the job was not started.")
HINT_SYNC_INCOMPLETE = QT_TRANSLATE_NOOP("LabGPU", "The pair's history on the Sync page names what was not "
                                                  "transferred and why; fix the cause and run it again.")
STEP_SYNC = QT_TRANSLATE_NOOP("LabGPU", "Uploading {local} to {host}:{remote}…")
STEP_FETCH = QT_TRANSLATE_NOOP("LabGPU", "{host} fetches {url} into {remote}…")
MSG_FETCH_INCOMPLETE = QT_TRANSLATE_NOOP("LabGPU", "The bucket's data did not all reach the host before the job "
                                                   "({n} file(s) not transferred: {why}); the job was not "
                                                   "started.")
STEP_CONNECT = QT_TRANSLATE_NOOP("LabGPU", "Connecting to {host}…")
STEP_START = QT_TRANSLATE_NOOP("LabGPU", "Starting the job on {host}…")
STEP_STARTED = QT_TRANSLATE_NOOP("LabGPU", "Job {id} runs on {host} ({detach}).")


def _say(on_step: StepFn | None, template: str, **params: Any) -> None:
    if on_step is not None:
        on_step(translate(template).format(**params))


def _connector(paths: Paths, host: str, connect: Connect | None) -> Connect:
    return connect or connect_target(paths, host)


def find_job(store: Store, text: str) -> JobRecord:
    """The one job ``text`` names (its id, the first digits of it, or its name); InputError otherwise."""
    found = JobStore(store).find(text)
    if not found:
        raise InputError(MSG_NO_JOB, HINT_NO_JOB, code="NoJob", id=hostjobs.plain(text, 40))
    if len(found) > 1:
        raise InputError(MSG_AMBIGUOUS, HINT_AMBIGUOUS, code="AmbiguousJob", id=hostjobs.plain(text, 40),
                         n=len(found))
    return found[0]


# -- start ------------------------------------------------------------------------------------------------

def _sync_before(paths: Paths, store: Store, spec: JobSpec, connect: Connect | None, changes: Changes,
                 on_step: StepFn | None) -> None:
    from app.core.syncmodel import UP
    from app.core.syncpairs import SyncStore
    from app.usecases.sync import run_sync

    ss = SyncStore(store)
    pair = ss.get(int(spec.sync_pair or 0))
    if pair is None or pair.host != spec.host:
        raise InputError(MSG_NO_PAIR, HINT_NO_PAIR, code="JobSyncPair", pair=spec.sync_pair, host=spec.host)
    if pair.direction != UP:
        raise InputError(MSG_PAIR_NOT_UP, HINT_NO_PAIR, code="JobSyncPair", pair=spec.sync_pair)
    if _bucket_before(paths, pair, connect, on_step):
        return
    _say(on_step, STEP_SYNC, local=pair.local_path, host=spec.host, remote=pair.remote_path)
    result = run_sync(spec.host, pair.local_path, pair.remote_path, pair.options(), paths=paths, store=ss,
                      pair_id=pair.id, connect=connect, changes=changes)
    if not result.complete:
        raise LabGpuError(MSG_SYNC_INCOMPLETE, HINT_SYNC_INCOMPLETE, code="JobSyncIncomplete",
                          n=len(result.not_transferred))


def _bucket_before(paths: Paths, pair: Any, connect: Connect | None, on_step: StepFn | None) -> bool:
    """A job pair whose source is a bucket (app.usecases.bucketinstance.is_instance_pair): the host fetches
    it with presigned links before the job (no key on the host). False for a laptop folder's pair."""
    from app.usecases import bucketinstance

    if not bucketinstance.is_instance_pair(pair):
        return False
    _say(on_step, STEP_FETCH, url=pair.local_path, host=pair.host, remote=pair.remote_path)
    result = bucketinstance.run_pair(paths, pair, connect=connect)
    if not result.complete:
        raise LabGpuError(MSG_FETCH_INCOMPLETE, HINT_SYNC_INCOMPLETE, code="JobSyncIncomplete",
                          n=len(result.not_transferred), why=hostjobs.plain(result.not_transferred[0]["why"]))
    return True


def upload_pair(store: Store, host: str, local: str, remote: str, *, account: str = "") -> int:
    """The saved upload pair LOCAL → REMOTE of ``host`` (saved now when there is none): its number, for
    :attr:`JobSpec.sync_pair`; the Sync page shows it like any other pair. LOCAL may be a bucket URL
    (with ``account``): the host then fetches it itself with presigned links (app.usecases.bucketinstance)."""
    from app.core.buckets import is_bucket_url, parse_bucket_url
    from app.core.syncmodel import UP
    from app.core.syncpairs import SyncPair, SyncStore
    from app.usecases.sync import pair_key

    ss = SyncStore(store)
    if is_bucket_url(local):
        url = str(parse_bucket_url(local))
        for p in ss.pairs():
            if (p.direction == UP and p.host == host and p.local_path == url and p.id is not None
                    and p.remote_path.strip() == remote.strip() and p.account == account):
                return p.id
        saved = ss.save(SyncPair(host=host, local_path=url, remote_path=remote.strip(), direction=UP,
                                 account=account))
        return int(saved.id or 0)
    want = pair_key(host, local, remote)
    for p in ss.pairs():
        if p.direction == UP and pair_key(p.host, p.local_path, p.remote_path) == want and p.id is not None:
            return p.id
    saved = ss.save(SyncPair(host=host, local_path=want[1], remote_path=remote.strip(), direction=UP))
    return int(saved.id or 0)


def start_job(paths: Paths, store: Store, spec: JobSpec, *, connect: Connect | None = None,
              on_step: StepFn | None = None, changes: Changes = NO_CHANGES, detach: str = "",
              now: float | None = None) -> JobRecord:
    """Start ``spec`` on its host (after the upload of its sync pair, when it names one) and record it.

    Blocking (SSH): call it in a task. InputError for a spec that cannot work (nothing started); the
    sync's or the host's LabGpuError as raised. ``detach`` "" probes the host (tmux, else setsid)."""
    spec = spec.validate()
    hostjobs.check_argv(list(spec.argv))
    if spec.progress_pattern:
        validate_pattern(spec.progress_pattern)
    if spec.tb_logdir:
        from app.remote.tbread import folder_argument

        folder_argument(spec.tb_logdir, spec.workdir or None)
    connect = _connector(paths, spec.host, connect)
    if spec.sync_pair is not None:
        _sync_before(paths, store, spec, connect, changes, on_step)
    js = JobStore(store)
    rec = JobRecord.from_spec(hostjobs.new_id(), spec, now)
    rec.progress_state = ProgressTracker(spec.progress_pattern).to_json()
    _say(on_step, STEP_CONNECT, host=spec.host)
    conn = connect()
    try:
        js.save(rec)  # before the start: a start cut short (a drop, a slow host) is still refreshed
        _say(on_step, STEP_START, host=spec.host)
        try:
            started = hostjobs.start(conn, rec.id, list(spec.argv), spec.workdir, name=spec.name, detach=detach)
        except LabGpuError as exc:
            if exc.code == "JobStart":  # nothing runs: forget it (else it may run: refreshes will tell)
                js.remove(rec.id)
            raise
    finally:
        conn.close()
    local_now = time.time() if now is None else now
    host_now = started.host_now_epoch if started.host_now_epoch is not None else started.started_epoch
    rec.detach, rec.pid = started.detach, started.pid
    rec.started = iso_utc(local_now - max(0, host_now - started.started_epoch))
    rec.runtime_s = float(max(0, host_now - started.started_epoch))
    rec.checked_at = local_now
    rec.last_progress_at = local_now  # the stall window starts with the job
    js.save(rec)
    changes.emit(Change.JOBS)
    _say(on_step, STEP_STARTED, id=rec.id, host=spec.host, detach=started.detach)
    return rec


# -- refresh ----------------------------------------------------------------------------------------------

def _apply_status(rec: JobRecord, st: hostjobs.HostJobStatus, now: float) -> None:
    rec.state, rec.exit_code, rec.killed = st.state, st.exit_code, st.killed
    if st.pid is not None:
        rec.pid = st.pid
    if st.detach:
        rec.detach = st.detach
    rec.log_size = st.log_size
    if st.started_epoch is not None:
        rec.runtime_s = st.runtime_s
        if not rec.started:
            rec.started = iso_utc(now - max(0, st.host_now_epoch - st.started_epoch))
    rec.checked_at = now
    rec.error = ""


def _read_new_log(conn: Connection, rec: JobRecord, tracker: ProgressTracker, now: float) -> None:
    """Only the log bytes not read yet, at most READS_PER_REFRESH × READ_CHUNK; far behind → its end."""
    if rec.log_size < rec.log_offset:
        rec.log_offset = rec.log_size  # the log was replaced by a shorter one: go on from its end
    if rec.log_size - rec.log_offset > SKIP_BEHIND:
        rec.log_offset = rec.log_size - READ_CHUNK
    for _ in range(READS_PER_REFRESH):
        if rec.log_offset >= rec.log_size:
            break
        data, nxt, size = hostjobs.read_log(conn, rec.id, rec.log_offset, READ_CHUNK)
        rec.log_size = max(rec.log_size, size)
        if not data:
            break
        tracker.feed(data, now)
        rec.log_offset = nxt


def _read_tb(conn: Connection, rec: JobRecord, tracker: ProgressTracker, now: float,
             host_started: int | None) -> None:
    """The steps of the job's TensorBoard folder (relative: to its working folder), only the event files
    written since the job started (the host's clock), each from where the last refresh stopped."""
    from app.remote.tbread import TbFollower

    follower = TbFollower.from_json(rec.tb_state) if rec.tb_state else \
        TbFollower(str(rec.tb_logdir), base=rec.workdir or None, since=host_started)
    steps = [(ev.step, ev.wall_time) for ev in follower.poll(conn)]
    for step, wall in sorted(steps):
        tracker.feed_step(step, now, wall)
    rec.tb_state = follower.to_json()


def _apply_progress(rec: JobRecord, tracker: ProgressTracker, now: float) -> None:
    p = tracker.snapshot(now)
    rec.progress_state = tracker.to_json()
    rec.steps_per_s, rec.step, rec.total = p.steps_per_s, p.step, p.total
    rec.eta_s = p.eta_s if rec.state == JobState.RUNNING else None
    rec.last_line = p.last_line
    seen = [t for t in (p.last_progress_at, p.last_output_at, rec.last_progress_at) if t is not None]
    rec.last_progress_at = max(seen) if seen else None


def _tracker(rec: JobRecord) -> ProgressTracker:
    try:
        return ProgressTracker.from_json(rec.progress_state) if rec.progress_state \
            else ProgressTracker(rec.progress_pattern)
    except InputError:
        return ProgressTracker()


def needs_refresh(rec: JobRecord) -> bool:
    """A job whose host may still have something new: running, or its log not read to the end."""
    return rec.state == JobState.RUNNING or rec.log_offset < rec.log_size


def refresh_on(conn: Connection, rec: JobRecord, now: float, st: hostjobs.HostJobStatus | None = None) -> JobRecord:
    """:func:`refresh` on an open connection (``st``: the status already read in a batch)."""
    st = st if st is not None else hostjobs.status(conn, rec.id)
    _apply_status(rec, st, now)
    tracker = _tracker(rec)
    _read_new_log(conn, rec, tracker, now)
    if rec.tb_logdir:
        try:
            _read_tb(conn, rec, tracker, now, st.started_epoch)
        except LabGpuError as exc:  # the log's progress still counts; the folder's trouble is said
            log.info("TensorBoard events of job %s: %s", rec.id, exc.one_line())
    _apply_progress(rec, tracker, now)
    return rec


def refresh(paths: Paths, store: Store, job_id: str, *, connect: Connect | None = None,
            now: float | None = None, changes: Changes = NO_CHANGES) -> JobRecord:
    """The job as its host reports it now (status, new log bytes, progress), saved. A job that has ended
    and whose log was read to its end is returned as saved, without a connection. A host that cannot be
    reached: the record keeps what was known, with ``error`` set, and the error is raised."""
    js = JobStore(store)
    rec = js.get(job_id)
    if rec is None:
        raise InputError(MSG_NO_JOB, HINT_NO_JOB, code="NoJob", id=hostjobs.plain(job_id, 40))
    if not needs_refresh(rec):
        return rec
    t = time.time() if now is None else now
    try:
        conn = _connector(paths, rec.host, connect)()
        try:
            refresh_on(conn, rec, t)
        finally:
            conn.close()
    except LabGpuError as exc:
        rec.error = hostjobs.plain(exc.one_line(), 300)
        js.save(rec)
        raise
    js.save(rec)
    changes.emit(Change.JOBS)
    return rec


def _found_on_host(host: str, job_id: str, st: hostjobs.HostJobStatus, now: float) -> JobRecord:
    meta = st.meta
    rec = JobRecord(id=job_id, host=host, origin="host", created_at=now,
                    name=meta.name if meta else "", argv=list(meta.argv) if meta else [],
                    workdir=meta.workdir if meta else "")
    rec.progress_state = ProgressTracker().to_json()
    return rec


def refresh_host(paths: Paths, store: Store, host: str, *, connect: Connect | None = None,
                 now: float | None = None, discover: bool = True) -> list[JobRecord]:
    """Every job of ``host`` on one connection: the ones to refresh (:func:`needs_refresh`) refreshed,
    and (``discover``) the host's jobs this computer did not know recorded as found there."""
    js = JobStore(store)
    t = time.time() if now is None else now
    known = {r.id: r for r in js.all(host)}
    conn = _connector(paths, host, connect)()
    try:
        new_ids = [i for i in hostjobs.list_ids(conn) if i not in known and js.get(i) is None] if discover else []
        new_ids = new_ids[:MAX_DISCOVER]
        todo = [r for r in known.values() if needs_refresh(r)]
        found = hostjobs.statuses(conn, new_ids, meta=True) if new_ids else {}
        sts = hostjobs.statuses(conn, [r.id for r in todo]) if todo else {}
        for jid, st in found.items():
            rec = _found_on_host(host, jid, st, t)
            refresh_on(conn, rec, t, st)
            js.save(rec)
        for rec in todo:
            refresh_on(conn, rec, t, sts.get(rec.id))
            js.save(rec)
    finally:
        conn.close()
    return js.all(host)


def list_jobs(paths: Paths, store: Store, host: str | None = None, refresh: bool = True, *,
              connect_for: Callable[[str], Connect] | None = None, now: float | None = None,
              changes: Changes = NO_CHANGES) -> list[JobRecord]:
    """The jobs (of ``host``, or all), oldest first; with ``refresh`` each host is asked once (the jobs it
    has that this computer did not start are listed too): a named host always, else the hosts with a job
    still running (or its log not read to the end). A host that cannot be reached keeps its jobs as last
    known, each with ``error`` set to why."""
    js = JobStore(store)
    if refresh:
        hosts = [host] if host is not None else sorted({r.host for r in js.all() if needs_refresh(r)})
        for h in hosts:
            try:
                refresh_host(paths, store, h, connect=connect_for(h) if connect_for else None, now=now)
            except LabGpuError as exc:
                why = hostjobs.plain(exc.one_line(), 300)
                for rec in js.all(h):
                    if needs_refresh(rec):
                        rec.error = why
                        js.save(rec)
        if hosts:
            changes.emit(Change.JOBS)
    return js.all(host)


# -- logs, stop ---------------------------------------------------------------------------------------------

CATCH_UP_BYTES = 1024 * 1024  # a log this far ahead of the reader is read over SFTP (hostjobs.stream_log)


def follow(paths: Paths, store: Store, job_id: str, *, from_offset: int | None = 0,
           stop_event: threading.Event, connect: Connect | None = None, poll_s: float = FOLLOW_POLL_S,
           until_end: bool = True, max_bytes: int = 64 * 1024) -> Iterator[str]:
    """The job's log as text from ``from_offset`` (None: only what comes from now on; a negative number:
    that many bytes before the end), in chunks of at most ``max_bytes`` bytes, never the whole file at once.
    Goes on while the job runs (``until_end``: ends once it has ended and its log is read) until
    ``stop_event`` is set; without ``until_end``, one pass to the end of the log as it is. A connection
    that drops is made again (the connection's backoff) and the log goes on from the same offset."""
    rec = JobStore(store).get(job_id)
    if rec is None:
        raise InputError(MSG_NO_JOB, HINT_NO_JOB, code="NoJob", id=hostjobs.plain(job_id, 40))
    conn = _connector(paths, rec.host, connect)()
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    offset = from_offset
    try:
        while not stop_event.is_set():
            try:
                st = hostjobs.status(conn, job_id)
                if offset is None:
                    offset = st.log_size
                elif offset < 0:
                    offset = max(0, st.log_size + offset)
                if st.log_size - offset > CATCH_UP_BYTES:  # far behind: one pipelined SFTP read, not a command a chunk
                    stream = hostjobs.stream_log(conn, job_id, offset, st.log_size, chunk=max_bytes)
                    for data in stream or ():
                        offset += len(data)
                        text = decoder.decode(data)
                        if text:
                            yield text
                        if stop_event.is_set():
                            break
                while not stop_event.is_set():
                    data, offset, size = hostjobs.read_log(conn, job_id, offset, max_bytes)
                    text = decoder.decode(data) if data else ""
                    if text:
                        yield text
                    if not data or offset >= size:
                        break
            except Exception:  # noqa: BLE001 - a dropped connection is made again; anything else is raised
                if conn.is_active or stop_event.is_set():
                    raise
                log.info("the log of job %s: the connection dropped; connecting again", job_id)
                conn.ensure(cancelled=stop_event.is_set)
                continue
            if not until_end or st.state != JobState.RUNNING:
                break
            stop_event.wait(poll_s)
        tail = decoder.decode(b"", final=True)
        if tail:
            yield tail
    finally:
        conn.close()


def stop_job(paths: Paths, store: Store, job_id: str, *, connect: Connect | None = None, grace_s: float = 10,
             now: float | None = None, changes: Changes = NO_CHANGES) -> JobRecord:
    """Stop the job: TERM to its process group, KILL after ``grace_s`` (the exit status then says 143 or
    137); returns the record refreshed (a job that had already ended is returned as it is)."""
    js = JobStore(store)
    rec = js.get(job_id)
    if rec is None:
        raise InputError(MSG_NO_JOB, HINT_NO_JOB, code="NoJob", id=hostjobs.plain(job_id, 40))
    t = time.time() if now is None else now
    conn = _connector(paths, rec.host, connect)()
    try:
        result = hostjobs.stop(conn, job_id, grace_s)
        refresh_on(conn, rec, t, result.status)
    finally:
        conn.close()
    js.save(rec)
    changes.emit(Change.JOBS)
    return rec


# -- what callers show ----------------------------------------------------------------------------------------

def stalled(record: JobRecord, now: float) -> bool:
    """Running with a stall window set, and no new step, log output or event for that long (``now`` on
    the clock the refreshes were given)."""
    if record.state != JobState.RUNNING or not record.stall_minutes:
        return False
    last = record.last_progress_at if record.last_progress_at is not None else record.created_at
    return now - last >= float(record.stall_minutes) * 60.0


def job_json(record: JobRecord) -> dict[str, Any]:
    """The job as `labgpu jobs --json` prints it (the issue's keys first)."""
    return {
        "id": record.id, "name": record.name, "host": record.host, "state": str(record.state),
        "exit_code": record.exit_code if record.state == JobState.EXITED else None, "killed": record.killed,
        "steps_per_s": record.steps_per_s, "eta_s": record.eta_s, "started": record.started or None,
        "last_line": record.last_line, "runtime_s": record.runtime_s, "then": str(record.then),
        "step": record.step, "total": record.total, "argv": list(record.argv), "workdir": record.workdir,
        "detach": record.detach, "pid": record.pid, "origin": record.origin,
        "stall_minutes": record.stall_minutes, "stall_action": record.stall_action,
        "stop_on_failure": record.stop_on_failure,
        "progress_pattern": record.progress_pattern, "tb_logdir": record.tb_logdir,
        "sync_pair": record.sync_pair, "last_progress_at": iso_utc(record.last_progress_at) or None,
        "then_done": record.then_done, "error": record.error or None,
    }

