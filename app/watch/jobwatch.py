"""Training jobs in the Watcher (the window, the tray and ``labgpu watch``): each running job LabGPU
started (app/usecases/jobs.py) is refreshed every ``JOB_REFRESH_S`` (15 s) on a thread of its own, so
a slow host never delays a guard; what it finds is an event through the watcher's ``_event`` (audit,
notify):

- the job ended (exit 0): ``job-ended``; it failed (another exit code) or is lost (the host no longer
  knows it): ``job-failed``. Then its ``then``: ``pull`` runs the host's download pairs through the
  watcher's pull; ``pull-and-stop`` / ``pull-and-terminate`` start the watcher's own stop episode
  (``_guard_stop``: the event, the pull once, then rounds of stop — or terminate — calls with the
  guards' audit, retries, back-off and one truthful escalation). A job that did not end well pulls and
  notifies, and stops the instance only when the student chose that for failures too. A saved server
  has no cloud API: it is pulled and the event says LabGPU cannot stop it.
- the stall guard: a running job with ``stall_minutes`` that made no progress (no new step, log line or
  TensorBoard event) for that long: ``job-stalled`` once per stall (a new step re-arms it); with
  ``stall_action`` "stop", the instance is pulled and stopped the same way, and the job counts as
  handled.

Each end is handled once, even across watcher restarts and by whichever LabGPU watches: the end is
claimed in the ``job_ends`` table (one row per job, inserted once) before anything is done, then given
the outcome, which the job's record shows too (``then_done``). A job whose stop
episode the cloud has not confirmed yet is driven on by ``poll_jobs`` each loop second when no guard
of that instance does it already (``_tick_one`` runs its episode as for a guard).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from app.core.errors import LabGpuError
from app.core.guards import GuardConfig, GuardEvent
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.store import register_schema
from app.core.vocab import TERMINAL_STATES, GuardEventKind, InstanceState, JobState, JobThen

from .parts import TargetState, WatcherBase, Worker

if TYPE_CHECKING:
    from app.core.jobs import JobRecord, JobStore

log = logging.getLogger("app.watch.watcher")

JOB_REFRESH_S = 15.0  # each running job's status, new log bytes and progress are read this often

MSG_JOB_ENDED = QT_TRANSLATE_NOOP("LabGPU", "{target}: the job {name} finished (exit code 0) after {runtime}")
MSG_JOB_FAILED = QT_TRANSLATE_NOOP("LabGPU", "{target}: the job {name} failed with exit code {code} after "
                                             "{runtime}")
MSG_JOB_LOST = QT_TRANSLATE_NOOP("LabGPU", "{target}: the job {name} is lost — the host no longer knows it, or "
                                           "it ended without writing its exit status")
MSG_JOB_STALLED = QT_TRANSLATE_NOOP("LabGPU", "{target}: the job {name} has made no progress for {minutes} "
                                              "minutes (no new step, log line or TensorBoard event) while it "
                                              "still runs")
MSG_JOB_THEN = QT_TRANSLATE_NOOP("LabGPU", "{what}; {then}")
THEN_PULL = QT_TRANSLATE_NOOP("LabGPU", "pulling the host's download pairs")
THEN_STOP = QT_TRANSLATE_NOOP("LabGPU", "pulling the host's download pairs, then stopping it")
THEN_TERMINATE = QT_TRANSLATE_NOOP("LabGPU", "pulling the host's download pairs, then terminating it")
THEN_KEEP = QT_TRANSLATE_NOOP("LabGPU", "pulling the host's download pairs; the instance keeps running, as "
                                        "chosen for a job that does not end well")
THEN_NO_API = QT_TRANSLATE_NOOP("LabGPU", "pulling the host's download pairs; this server has no cloud API, "
                                          "so LabGPU cannot stop it — stop it yourself")
THEN_NOT_RUNNING = QT_TRANSLATE_NOOP("LabGPU", "the instance is {state} already, so nothing was pulled or stopped")
THEN_STALL_NO_API = QT_TRANSLATE_NOOP("LabGPU", "this server has no cloud API, so LabGPU only notifies")
MSG_JOB_PULLED = QT_TRANSLATE_NOOP("LabGPU", "{target}: the results of the job {name} were pulled")
MSG_JOB_NO_PULL = QT_TRANSLATE_NOOP("LabGPU", "{target}: nothing was pulled after the job {name} — no download "
                                              "sync pair is set up for this host (add one on the Sync page, or "
                                              "labgpu guard set {target} --pull REMOTE=LOCAL)")
MSG_JOB_PULL_FAILED = QT_TRANSLATE_NOOP("LabGPU", "{target}: pulling the results of the job {name} failed: "
                                                  "{why} — pull them yourself before the host goes")

register_schema(
    "jobends",
    [
        """
    CREATE TABLE job_ends (
        id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        done TEXT NOT NULL,
        at REAL NOT NULL
    );
    """,
    ],
)

# What a job's end action did (JobRecord.then_done): fixed words, so the UI and the CLI can say them
# in the user's language; several are joined with "; ".
DONE_HANDLING = "handling"  # claimed: a watcher is acting on this end now (or was, and died)
DONE_NOTIFIED = "notified"
DONE_PULLED = "pulled"
DONE_NO_PULL = "no pull pair"
DONE_PULL_FAILED = "pull failed"
DONE_STOPPED = "stopped"
DONE_TERMINATED = "terminated"
DONE_STOP_PENDING = "stop pending"
DONE_NOT_STOPPED = "not stopped"  # a saved server, or a failure that was not to stop the instance
DONE_STALLED = "stalled"


@dataclass
class JobWatchState:
    due: float = -1e18  # monotonic time of the next refresh pass
    running: threading.Thread | None = None
    # instances whose stop episode a job started and that no guard ticks: host → the config it runs with
    episodes: dict[str, tuple[GuardConfig, str]] = field(default_factory=dict)  # host → (config, job id)
    stalls: dict[str, float] = field(default_factory=dict)  # job id → the progress time whose stall was said
    connect: Callable[[str], Any] | None = None  # host → Connection (None: the use case's own)


def runtime_text(seconds: float | None) -> str:
    """'1:02:03' or '4:05' (a job's runtime in an event); '?' when unknown."""
    if seconds is None or seconds != seconds or seconds < 0:
        return "?"
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def ended_before_known(rec: JobRecord) -> bool:
    """A job found on its host (started from another computer) that had ended before this computer
    recorded it: its end is old news, not an event."""
    if rec.origin != "host" or not rec.started or rec.runtime_s is None:
        return False
    try:
        started = datetime.fromisoformat(rec.started.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return False
    return started + rec.runtime_s < rec.created_at - 5  # a few seconds: both times are whole seconds


class JobWatch(WatcherBase):
    """The jobs half of Watcher (a mixin: it uses the Watcher's store, clock, events and stop episodes)."""

    _jobwatch: JobWatchState
    _workers: dict[str, Worker]
    _states: dict[str, TargetState]
    _closed: threading.Event

    # provided by Watcher -------------------------------------------------------------------------
    def is_cloud_instance(self, target_id: str) -> bool:
        raise NotImplementedError

    def _state(self, target_id: str, cfg: GuardConfig) -> TargetState:
        raise NotImplementedError

    def _tick_one(self, target_id: str, cfg: GuardConfig, t: float) -> list[GuardEvent]:
        raise NotImplementedError

    def _guard_stop(self, t: float, target_id: str, cfg: GuardConfig, st: TargetState, kind: str,
                    template: str, params: dict[str, Any], *, guard: str | None = None,
                    terminate: bool = False) -> list[GuardEvent]:
        raise NotImplementedError

    # set up --------------------------------------------------------------------------------------
    def init_jobwatch(self, connect: Callable[[str], Any] | None = None) -> None:
        self._jobwatch = JobWatchState(connect=connect)

    # the loop ------------------------------------------------------------------------------------
    def poll_jobs(self, now: float | None = None) -> threading.Thread | None:
        """Called every loop second: drives the stop episodes jobs started, and every JOB_REFRESH_S
        starts a refresh pass (:meth:`check_jobs`) on its own thread unless one still runs. Returns
        the pass's thread when one was started."""
        jw = self._jobwatch
        t = self.clock() if now is None else now
        if jw.episodes:
            self._drive_job_episodes(t)
        mono = time.monotonic()
        if mono < jw.due or (jw.running is not None and jw.running.is_alive()):
            return None
        jw.due = mono + JOB_REFRESH_S
        th = threading.Thread(target=self._jobs_pass, name="labgpu-jobs", daemon=True)
        with self._mutex:
            self._sync_threads[:] = [x for x in self._sync_threads if x.is_alive()]
            self._sync_threads.append(th)  # close() waits for it
        jw.running = th
        th.start()
        return th

    def _jobs_pass(self) -> None:
        try:
            self.check_jobs()
        except Exception:  # noqa: BLE001 - a failing pass is tried again at the next one
            log.exception("the jobs could not be checked")
        finally:
            self.store.close()  # this thread's database connection

    def check_jobs(self, now: float | None = None) -> list[GuardEvent]:
        """One pass over the jobs not handled yet: refresh the running ones (status, new log bytes,
        progress), say a stall, act on an end. Returns the events raised (each also went to notify)."""
        from app.usecases import jobs as usecase

        t = self.clock() if now is None else now
        jobs = self._job_store()
        handled = self._handled()
        out: list[GuardEvent] = []
        for rec in usecase.list_jobs(self.paths, self.store, refresh=False):
            if self._closed.is_set():
                break
            if rec.id in handled or rec.then_done:
                continue  # handled (or being handled) already
            if rec.state != JobState.RUNNING and ended_before_known(rec):
                self._claim(rec)  # another computer's job, over before this one found it: nothing to tell
                self._mark(jobs, rec, DONE_NOTIFIED)
                continue
            if rec.state == JobState.RUNNING and self._instance_gone(rec.host):
                rec = self._lost_with_instance(jobs, rec)  # terminated: the job went with it
            elif rec.state == JobState.RUNNING:
                if not self._host_reachable(rec.host):
                    continue  # a stopped instance: its job is read again when it runs
                try:
                    rec = usecase.refresh(self.paths, self.store, rec.id, connect=self._job_connect(rec.host), now=t)
                except Exception as exc:  # noqa: BLE001 - an unreachable host is read again at the next pass
                    why = exc.one_line() if isinstance(exc, LabGpuError) else f"{type(exc).__name__}: {exc}"
                    log.info("job %s on %s not refreshed: %s", rec.id, rec.host, why)
                    continue
            try:
                if rec.state == JobState.RUNNING:
                    out += self._job_stall(t, jobs, rec)
                else:
                    out += self._job_end(t, jobs, rec)
            except Exception:  # noqa: BLE001 - one job's trouble must not stop the others
                log.exception("job %s on %s: its end or stall could not be handled", rec.id, rec.host)
        return out

    # helpers -------------------------------------------------------------------------------------
    def _job_store(self) -> JobStore:
        from app.core.jobs import JobStore

        return JobStore(self.store)

    def _job_connect(self, host: str) -> Callable[[], Any] | None:
        connect = self._jobwatch.connect
        return None if connect is None else (lambda: connect(host))

    def _host_reachable(self, host: str) -> bool:
        """A saved server is always tried; an instance only while the ledger says it runs."""
        entry = self.ledger.get(host)
        return entry is None or entry.state == InstanceState.RUNNING

    def _instance_gone(self, host: str) -> bool:
        """The job's instance is terminated (or failed) in the ledger: no host left to read it from."""
        entry = self.ledger.get(host)
        return entry is not None and entry.state in TERMINAL_STATES

    @staticmethod
    def _lost_with_instance(jobs: JobStore, rec: JobRecord) -> JobRecord:
        """A running job whose instance is gone is lost (its end is then told once, like any other)."""
        rec.state = JobState.LOST
        rec.error = f"the instance {rec.host} is terminated"
        return jobs.save(rec)

    def _handled(self) -> set[str]:
        return {str(r["id"]) for r in self.store.query("SELECT id FROM job_ends")}

    def _claim(self, rec: JobRecord) -> bool:
        """Take the job's end (True), or see that another pass or watcher took it already (False)."""
        with self.store.transaction() as c:
            cur = c.execute("INSERT OR IGNORE INTO job_ends(id, host, done, at) VALUES(?,?,?,?)",
                            (rec.id, rec.host, DONE_HANDLING, time.time()))
            return bool(cur.rowcount == 1)

    def _mark(self, jobs: JobStore, rec: JobRecord, done: str) -> None:
        """What the end action did, in the claim and in the job's record (shown by the page and the CLI)."""
        try:
            with self.store.transaction() as c:
                c.execute("UPDATE job_ends SET done=?, at=? WHERE id=?", (done, time.time(), rec.id))
            fresh = jobs.get(rec.id)
            if fresh is not None:
                fresh.then_done = done
                jobs.save(fresh)
        except Exception:  # noqa: BLE001 - a full disk must not stop the guards (said in the log)
            log.exception("could not record what the end of job %s did", rec.id)

    def _params(self, rec: JobRecord) -> dict[str, Any]:
        return {"target": rec.host, "name": rec.name or rec.id, "job": rec.id,
                "runtime": runtime_text(rec.runtime_s), "code": rec.exit_code}

    def _worker(self, host: str) -> Worker:
        with self._mutex:
            worker = self._workers.get(host)
            if worker is None:
                worker = self._workers[host] = Worker(host, self.store.close)
            return worker

    def _on_worker(self, host: str, fn: Callable[[], list[GuardEvent]]) -> list[GuardEvent]:
        """Run ``fn`` on the host's own guard worker (never beside its guard's evaluation) and wait."""
        done = threading.Event()
        box: list[GuardEvent] = []

        def job() -> None:
            try:
                box.extend(fn())
            finally:
                done.set()

        self._worker(host).submit(job)
        done.wait()
        return box

    # an end --------------------------------------------------------------------------------------
    def _job_end(self, t: float, jobs: JobStore, rec: JobRecord) -> list[GuardEvent]:
        params = self._params(rec)
        ok = rec.state == JobState.EXITED and rec.exit_code == 0
        kind = GuardEventKind.JOB_ENDED if ok else GuardEventKind.JOB_FAILED
        what = translate(MSG_JOB_ENDED if ok else MSG_JOB_FAILED if rec.state == JobState.EXITED
                         else MSG_JOB_LOST).format(**params)
        then = JobThen(str(rec.then or JobThen.NOTHING))
        if not self._claim(rec):  # claimed before acting: one end is acted on once
            return []
        detail = {"job": rec.id, "name": params["name"], "exit_code": rec.exit_code, "state": str(rec.state),
                  "then": str(then)}
        if then == JobThen.NOTHING:
            ev = self._event(t, rec.host, kind, "{message}", {**detail, "message": what, "target": rec.host})
            self._mark(jobs, rec, DONE_NOTIFIED)
            return [ev]
        stop = then in (JobThen.PULL_AND_STOP, JobThen.PULL_AND_TERMINATE) and (ok or rec.stop_on_failure)
        entry = self.ledger.get(rec.host)
        if entry is not None and entry.state != InstanceState.RUNNING:  # stopped meanwhile: nothing to reach
            message = translate(MSG_JOB_THEN).format(what=what, then=translate(THEN_NOT_RUNNING).format(
                state=str(entry.state)))
            ev = self._event(t, rec.host, kind, "{message}", {**detail, "message": message, "target": rec.host})
            self._mark(jobs, rec, f"{DONE_NO_PULL}; {DONE_NOT_STOPPED}")
            return [ev]
        if stop and self.is_cloud_instance(rec.host):
            terminate = then == JobThen.PULL_AND_TERMINATE
            message = translate(MSG_JOB_THEN).format(what=what, then=translate(THEN_TERMINATE if terminate
                                                                                else THEN_STOP))
            out = self._job_stop(t, rec, kind, message, detail, terminate)
            self._mark(jobs, rec, self._stop_outcome(out))
            return out
        then_text = THEN_NO_API if stop else THEN_KEEP if then != JobThen.PULL else THEN_PULL
        message = translate(MSG_JOB_THEN).format(what=what, then=translate(then_text))
        out = [self._event(t, rec.host, kind, "{message}", {**detail, "message": message, "target": rec.host})]
        pulled, events = self._job_pull(rec, params)
        out += events
        self._mark(jobs, rec, pulled if then == JobThen.PULL else f"{pulled}; {DONE_NOT_STOPPED}")
        return out

    def _job_pull(self, rec: JobRecord, params: dict[str, Any]) -> tuple[str, list[GuardEvent]]:
        """The host's download pairs through the watcher's pull (no stop after it)."""
        host = rec.host
        try:
            n = self.run_sync(host, "job-end")
        except Exception as exc:  # noqa: BLE001
            why = exc.one_line() if isinstance(exc, LabGpuError) else f"{type(exc).__name__}: {exc}"
            return DONE_PULL_FAILED, [self._event(self.clock(), host, GuardEventKind.SYNC_FAILED, MSG_JOB_PULL_FAILED,
                                                  {**params, "why": why}, {"job": rec.id})]
        if n == 0:
            return DONE_NO_PULL, [self._event(self.clock(), host, GuardEventKind.SYNC_NONE, MSG_JOB_NO_PULL, params,
                                              {"job": rec.id})]
        return DONE_PULLED, [self._event(self.clock(), host, GuardEventKind.SYNC_DONE, MSG_JOB_PULLED, params,
                                         {"job": rec.id})]

    def _job_stop(self, t: float, rec: JobRecord, kind: str, message: str, detail: dict[str, Any],
                  terminate: bool) -> list[GuardEvent]:
        """The watcher's stop episode for the job's instance: the event, the pull once, then the stop
        (or terminate) rounds; on the instance's own guard worker, so it never runs beside its guard."""
        host = rec.host
        guard = self.guards.get(host)
        cfg = replace(guard or GuardConfig(), sync_before_stop=True)
        name = f"job {rec.name or rec.id}"

        def run() -> list[GuardEvent]:
            with self._mutex:
                st = self._state(host, cfg)
            entry = self.ledger.get(host)
            if st.stopped and st.episode is None and entry is not None and entry.state == InstanceState.RUNNING:
                st.stopped = False  # stopped once before, running again now: this job's end stops it
            params = {**detail, "message": message, "target": host}  # the event's detail names the job
            out = self._guard_stop(t, host, cfg, st, kind, "{message}", params, guard=name, terminate=terminate)
            if not out:  # a guard's stop of this instance is under way already: say the job's end all the same
                out = [self._event(t, host, kind, "{message}", params)]
            if st.episode is not None and guard is None:
                with self._mutex:
                    self._jobwatch.episodes[host] = (cfg, rec.id)  # no guard ticks it: poll_jobs drives its rounds
            return out

        return self._on_worker(host, run)

    @staticmethod
    def _stop_outcome(events: list[GuardEvent]) -> str:
        kinds = {e.kind for e in events}
        pulled = DONE_NO_PULL if GuardEventKind.SYNC_NONE in kinds else \
            DONE_PULL_FAILED if GuardEventKind.SYNC_FAILED in kinds else DONE_PULLED
        if GuardEventKind.TERMINATED in kinds:
            return f"{pulled}; {DONE_TERMINATED}"
        if GuardEventKind.STOPPED in kinds:
            return f"{pulled}; {DONE_STOPPED}"
        return f"{pulled}; {DONE_STOP_PENDING}"

    def _drive_job_episodes(self, t: float) -> None:
        """The next round of a stop episode a job started, for an instance no guard ticks."""
        guarded = self.guards.all()
        jw = self._jobwatch
        for host, (cfg, job_id) in list(jw.episodes.items()):
            st = self._states.get(host)
            if host in guarded or st is None or st.episode is None:
                with self._mutex:
                    jw.episodes.pop(host, None)
                continue
            if t < st.episode.next_try:
                continue
            worker = self._worker(host)
            if worker.busy:
                continue

            def job(h: str = host, c: GuardConfig = cfg, j: str = job_id, state: TargetState = st) -> None:
                try:
                    ends = DONE_TERMINATED if state.episode is not None and state.episode.terminate else DONE_STOPPED
                    self._tick_one(h, c, t)  # its events went to notify
                    if state.episode is None:  # over: what the job's end did, as it turned out
                        self._episode_over(j, ends if state.stopped else DONE_NOT_STOPPED)
                except Exception:  # noqa: BLE001 - tried again at the next round
                    log.exception("the stop episode of %s could not go on", h)

            worker.submit(job)

    def _episode_over(self, job_id: str, outcome: str) -> None:
        rows = self.store.query("SELECT done FROM job_ends WHERE id=?", (job_id,))
        rec = self._job_store().get(job_id)
        if not rows or rec is None or DONE_STOP_PENDING not in str(rows[0]["done"]):
            return
        done = str(rows[0]["done"]).replace(DONE_STOP_PENDING, outcome)
        self._mark(self._job_store(), rec, done)

    # the stall guard -----------------------------------------------------------------------------
    def _job_stall(self, t: float, jobs: JobStore, rec: JobRecord) -> list[GuardEvent]:
        from app.usecases.jobs import stalled

        jw = self._jobwatch
        minutes = rec.stall_minutes
        if not minutes or not stalled(rec, t):
            jw.stalls.pop(rec.id, None)
            return []
        since = float(rec.last_progress_at or 0.0)
        if jw.stalls.get(rec.id) == since:
            return []  # this stall was said; a new step re-arms the guard
        jw.stalls[rec.id] = since
        params = {**self._params(rec), "minutes": f"{float(minutes):g}"}
        what = translate(MSG_JOB_STALLED).format(**params)
        detail = {"job": rec.id, "name": params["name"], "state": str(rec.state), "stall": True}
        if rec.stall_action != "stop":
            return [self._event(t, rec.host, GuardEventKind.JOB_STALLED, "{message}",
                                {**detail, "message": what, "target": rec.host})]
        if not self.is_cloud_instance(rec.host):
            message = translate(MSG_JOB_THEN).format(what=what, then=translate(THEN_STALL_NO_API))
            return [self._event(t, rec.host, GuardEventKind.JOB_STALLED, "{message}",
                                {**detail, "message": message, "target": rec.host})]
        if not self._claim(rec):  # the instance stops: the job's end is not acted on again
            return []
        message = translate(MSG_JOB_THEN).format(what=what, then=translate(THEN_STOP))
        out = self._job_stop(t, rec, GuardEventKind.JOB_STALLED, message, detail, terminate=False)
        self._mark(jobs, rec, f"{DONE_STALLED}; {self._stop_outcome(out)}")
        return out
