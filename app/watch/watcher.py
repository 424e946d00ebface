"""Watcher: applies the guards (idle, budget, max runtime, process exit) to every guarded target.

A target is a LabGPU instance id (the ledger knows its cloud: guards may stop it) or a Hosts-page
server name (no API: guards notify only, and say so). Samples come from a MonitorHub (or are fed
with ``on_sample``); ``tick(now)`` evaluates the time-based rules — tests call it with a fake
clock, ``run()`` calls it every second. Every guard action goes to the audit log.

Stopping is an *episode*: the guard fires once (one event), the host's "before stop" sync (its
saved sync pairs that pull, direction down) runs ONCE when the guard asks for it; then a round of
stop calls (``stop_retries`` tries, ``retry_delay_s`` apart) reports "stopped" only when the cloud
says the instance is stopping/stopped. A failed round escalates ONCE ("stop-failed", with the
cause: the computer's clock, the network, or the cloud's refusal, and what to do); later rounds
follow quietly (audit log only) at growing intervals (``stop_backoff_s`` doubled each round, at
most ``stop_backoff_cap_s``) until the cloud confirms, the instance is no longer running (the
student stopped it), or the guard is changed or removed.

Isolation: every target is evaluated on its own worker thread, and each cloud call (stop,
terminate) waits at most ``target_deadline_s`` (30 s; a call not answered by then is a failed try
with the cause "network"). ``tick`` never waits on a target that is still busy, and ``run`` waits
at most one period for a tick's targets, so a hung account (a cloud API that never answers)
delays no other target's guard by more than one loop period (1 s) plus that target's own work.

Exactly one Watcher acts at a time: ``acquire()`` takes the watch lock; ``wait_acquire()`` waits
for it and takes over when the holder exits or dies.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from app.core.audit import AuditLog
from app.core.costs import InstanceCost, instance_cost
from app.core.currency import ExchangeRate, effective_rate
from app.core.errors import LabGpuError
from app.core.gpumon import HostSample
from app.core.guards import (
    MSG_BLIND_SILENT,
    RESTART_GAP_S,
    GuardConfig,
    GuardEvent,
    GuardStore,
    IdleRule,
    blind_reason,
    budget_level,
    process_present,
    runtime_exceeded,
)
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.instances import Ledger
from app.core.paths import Paths, default_paths
from app.core.store import Store

from .lock import WatchLock

log = logging.getLogger(__name__)

STOPPED_STATES = ("stopping", "stopped", "stopped_billing", "isolated", "terminating", "terminated")
TARGET_DEADLINE_S = 30.0  # the longest one cloud call of one target is waited for
STOP_BACKOFF_S = 15.0  # after a failed round of stop calls, the next round waits this long, doubled each time…
STOP_BACKOFF_CAP_S = 300.0  # …up to five minutes
BLIND_SILENCE_S = 15.0  # no sample for this long (after samples came): the link dropped
RATE_RELOAD_S = 5.0  # the student's exchange rate (Settings) is re-read this often
WINDOW_SAVE_S = 5.0  # the idle window reached is written to the store this often (and on every change)
SPOT_PRICE_REFRESH_S = 1800.0  # re-read a running spot instance's zone price every 30 min

MSG_IDLE = QT_TRANSLATE_NOOP("LabGPU", "{target}: every GPU has been under {pct} % for {minutes} minutes")
MSG_IDLE_NOTIFY_ONLY = QT_TRANSLATE_NOOP("LabGPU", "{target}: every GPU has been under {pct} % for {minutes} "
                                                   "minutes — this server has no cloud API, so LabGPU only "
                                                   "notifies; stop it yourself")
MSG_BUDGET_WARN = QT_TRANSLATE_NOOP("LabGPU", "{target} has used {pct} % of its budget ({spent} of {budget} {cur})")
MSG_BUDGET_STOP = QT_TRANSLATE_NOOP("LabGPU", "{target} reached its budget ({spent} of {budget} {cur}): stopping it")
MSG_MAX_RUNTIME = QT_TRANSLATE_NOOP("LabGPU", "{target} ran its maximum of {hours} hours: stopping it")
MSG_PROCESS_EXIT = QT_TRANSLATE_NOOP("LabGPU", "{target}: the process {process} has exited: stopping it")
MSG_STOPPED = QT_TRANSLATE_NOOP("LabGPU", "{target} was stopped by its {guard} guard")
MSG_STOP_FAILED = QT_TRANSLATE_NOOP("LabGPU", "{target} could NOT be stopped after {tries} tries: {why} — it is "
                                              "still billing; stop it in the cloud console (LabGPU keeps "
                                              "trying quietly)")
MSG_STOP_FAILED_CLOCK = QT_TRANSLATE_NOOP("LabGPU", "{target} could NOT be stopped: the cloud refused the request "
                                                    "because this computer's clock is off ({why}) — it is still "
                                                    "billing. Turn on automatic time (NTP) in the system "
                                                    "settings, or stop it in the cloud console; LabGPU keeps "
                                                    "trying quietly")
MSG_STOP_FAILED_NETWORK = QT_TRANSLATE_NOOP("LabGPU", "{target} could NOT be stopped: the cloud could not be "
                                                      "reached ({why}) — it is still billing. Check the network "
                                                      "(Wi-Fi, VPN, proxy), or stop it in the cloud console from "
                                                      "another device; LabGPU keeps trying quietly")
MSG_EPISODE_ENDED = QT_TRANSLATE_NOOP("LabGPU", "{target} is {state} now; its guard stops trying to stop it")
MSG_NO_ANSWER = QT_TRANSLATE_NOOP("LabGPU", "no answer from the cloud within {seconds} s")
MSG_BUDGET_UNKNOWN = QT_TRANSLATE_NOOP("LabGPU", "{target}: its budget guard ({budget} {cur}) cannot act yet — the "
                                                 "price per hour is unknown. Refresh the prices (labgpu prices "
                                                 "refresh --account {account}); LabGPU uses the account's price "
                                                 "as soon as it is known")
MSG_BUDGET_PRICED = QT_TRANSLATE_NOOP("LabGPU", "{target}: its budget guard acts again, with the price "
                                                "{price} {cur}/h ({source})")
MSG_BLIND = QT_TRANSLATE_NOOP("LabGPU", "{target}: the idle guard is blind — {why}; it counts as busy, so "
                                        "nothing is stopped as idle until it sees the GPUs again")
MSG_SIGHTED = QT_TRANSLATE_NOOP("LabGPU", "{target}: the idle guard sees the GPUs again")
MSG_SYNC_FAILED = QT_TRANSLATE_NOOP("LabGPU", "{target}: pulling checkpoints before the stop failed: {why} — "
                                              "the stop goes ahead (a stopped instance keeps its disk)")
MSG_SPOT = QT_TRANSLATE_NOOP("LabGPU", "{target} will be reclaimed by the cloud at {when} ({action}): pulling "
                                      "checkpoints now; you can relaunch the same offer with one click")
MSG_SETTLED = QT_TRANSLATE_NOOP("LabGPU", "{target} was shut down by its on-instance watchdog, and the cloud kept billing its compute while it was stopped, so LabGPU started it and stopped it without charging: {note}")  # noqa: E501 - one string for lupdate
MSG_SETTLE_FAILED = QT_TRANSLATE_NOOP("LabGPU", "{target} was shut down by its on-instance watchdog, but the cloud still bills its compute while it is stopped, and stopping it without charging failed: {why} — terminate it, or start and stop it in LabGPU.")  # noqa: E501 - one string for lupdate
MSG_SYNC_DONE = QT_TRANSLATE_NOOP("LabGPU", "{target}: checkpoints pulled ({purpose})")
MSG_NO_PULL = QT_TRANSLATE_NOOP("LabGPU", "{target}: nothing was pulled — no download sync pair is set up for "
                                          "it (add one with `labgpu guard set {target} --pull REMOTE=LOCAL`)")
MSG_NOTIFY_ONLY = QT_TRANSLATE_NOOP("LabGPU", "{target} is not a LabGPU instance: its guards notify only")
# A stop the cloud refuses for good (app.cloud.base.StopRefusedError: AWS and a one-time spot instance,
# "Stop a Spot Instance", https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/stop-start-spot-instances.html):
# the documented alternative is termination, taken only after the pre-stop pull did not fail; told once.
MSG_TERMINATED = QT_TRANSLATE_NOOP("LabGPU", "{target} was terminated by its {guard} guard: {reason}, so "
                                             "terminating was the only way to end its bill (checkpoints were "
                                             "pulled first; its disk is deleted)")
MSG_TERMINATED_NO_PULL = QT_TRANSLATE_NOOP("LabGPU", "{target} was terminated by its {guard} guard: {reason}, "
                                                     "so terminating was the only way to end its bill (no "
                                                     "checkpoints were pulled; its disk is deleted)")
MSG_STOP_REFUSED = QT_TRANSLATE_NOOP("LabGPU", "{target} is still billing: {reason}, and LabGPU terminates it "
                                               "only after its checkpoints are pulled, which failed — pull what "
                                               "you need, then terminate it (labgpu terminate {target})")
MSG_TERMINATE_FAILED = QT_TRANSLATE_NOOP("LabGPU", "{target} is still billing: {reason}, and terminating it "
                                                   "failed after {tries} tries: {why} — terminate it in the "
                                                   "cloud console (EC2 → Instances → Terminate instance)")

StopFn = Callable[[str], Any]  # instance id → LedgerEntry-like (with .state) after the stop call
TerminateFn = Callable[[str, str], Any]  # (instance id, audit reason) → LedgerEntry-like after the terminate call
# (host name, purpose "before-stop"|"on-interruption") → number of sync pairs run (None: unknown); raises on failure
SyncFn = Callable[[str, str], "int | None"]


@dataclass
class _Episode:
    """One stop that the guard wants and the cloud has not confirmed yet."""

    guard: str
    started: float
    rounds: int = 0
    next_try: float = 0.0
    pulled: bool | None = None  # True: pulled; False: the pull failed; None: nothing to pull
    escalated: bool = False


@dataclass
class _TargetState:
    rule: IdleRule
    episode: _Episode | None = None
    blind: str | None = None  # why the idle rule cannot see the host (translated), None: it can
    budget_unknown: bool = False
    window_saved_at: float | None = None
    window_saved: tuple[float | None, float] | None = None
    idle_notified: bool = False
    budget_warned: bool = False
    stopping: bool = False
    stopped: bool = False
    process_seen: bool = False
    last_sample: HostSample | None = None
    stopped_at: float | None = None  # wall-clock time of the confirmed stop
    events: list[GuardEvent] = field(default_factory=list)


def default_sync(paths: Paths, store: Store) -> SyncFn:
    """The host's "before stop"/"on interruption" sync: every saved pair of that host that pulls."""

    def sync(host: str, purpose: str) -> int:
        from app.core.syncmodel import DOWN
        from app.core.syncpairs import SyncStore
        from app.remote.sync import run_sync

        ss = SyncStore(store)
        pairs = [p for p in ss.pairs() if p.host == host and p.direction == DOWN]
        for p in pairs:
            # the purpose makes the pull verify every file (sha256 on both sides): a guard's or a spot notice's
            # pull is the last copy before the disk goes, so a torn or changed file fails instead of landing
            run_sync(host, p.local_path, p.remote_path, p.options(), paths=paths, store=ss, pair_id=p.id,
                     purpose=purpose)
        return len(pairs)

    return sync


class _Worker:
    """One target's own thread: its evaluations (and so its cloud calls) never wait for another's.
    The thread runs while it has work and ends when it has none (the next job starts a new one)."""

    def __init__(self, name: str, on_exit: Callable[[], None] | None = None) -> None:
        self.name = name
        self.busy = False
        self._jobs: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._on_exit = on_exit

    def submit(self, job: Callable[[], None]) -> None:
        with self._lock:
            self.busy = True
            self._jobs.append(job)
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name=f"guard-{self.name}", daemon=True)
                self._thread.start()

    def _loop(self) -> None:
        try:
            while True:
                with self._lock:
                    if not self._jobs:
                        self._thread = None
                        self.busy = False
                        return
                    job = self._jobs.pop(0)
                try:
                    job()
                except Exception:  # noqa: BLE001 - one evaluation's trouble must not end the worker
                    log.exception("guard evaluation failed")
        finally:
            if self._on_exit is not None:
                self._on_exit()  # this thread's database connection


class Watcher:
    def __init__(self, paths: Paths | None = None, clock: Callable[[], float] = time.time,
                 notify: Callable[[GuardEvent], None] | None = None, *, store: Store | None = None,
                 stop_fn: StopFn | None = None, sync_fn: SyncFn | None = None,
                 rate: ExchangeRate | None = None, max_gap_s: float = 5.0, stop_retries: int = 3,
                 retry_delay_s: float = 5.0, sleep: Callable[[float], None] = time.sleep,
                 terminate_fn: TerminateFn | None = None, kind: str = "watch",
                 target_deadline_s: float = TARGET_DEADLINE_S, stop_backoff_s: float = STOP_BACKOFF_S,
                 stop_backoff_cap_s: float = STOP_BACKOFF_CAP_S) -> None:
        self.paths = paths or default_paths()
        self.clock = clock
        self.notify = notify
        self.store = store or Store(paths=self.paths)
        self.store.migrate()
        self.guards = GuardStore(self.store)
        self.ledger = Ledger(self.store)
        self.audit = AuditLog(self.store)
        self._rate = rate
        self._rate_cache: tuple[float, ExchangeRate] | None = None
        self.max_gap_s = max_gap_s
        self.stop_retries = stop_retries
        self.retry_delay_s = retry_delay_s
        self.target_deadline_s = target_deadline_s
        self.stop_backoff_s = stop_backoff_s
        self.stop_backoff_cap_s = stop_backoff_cap_s
        self.sleep = sleep
        self._stop_fn = stop_fn
        self._terminate_fn = terminate_fn
        self._sync_fn = sync_fn
        self.lock = WatchLock(self.paths.data_dir / "watch.lock", kind)
        self._states: dict[str, _TargetState] = {}
        self._workers: dict[str, _Worker] = {}
        self._mutex = threading.RLock()
        self._closed = threading.Event()
        self.events: list[GuardEvent] = []
        self._spot: dict[str, Any] = {}
        self._watchdog_seen: dict[str, tuple[str, str]] = {}  # target → (run, settings) last checked
        self._settled: set[tuple[str, str]] = set()  # (instance, run) whose OS shutdown was settled
        self._spot_price_at: dict[str, float] = {}
        self._sync_threads: list[threading.Thread] = []
        self._spot_pulls: dict[str, threading.Thread] = {}  # one "on interruption" pull in flight per host
        self._spot_seen: dict[str, set[str]] = {}  # reclaim times already announced, per host

    @property
    def rate(self) -> ExchangeRate:
        """The student's own exchange rate (Settings), else the bundled one; read when used, so a
        change in Settings applies to the guards at once."""
        if self._rate is not None:
            return self._rate
        now = time.monotonic()
        cached = self._rate_cache
        if cached is not None and now - cached[0] < RATE_RELOAD_S:
            return cached[1]
        try:
            from app.core.settings import SettingsStore

            rate = effective_rate(SettingsStore(self.paths).load())
        except Exception:  # noqa: BLE001 - unreadable settings: the bundled rate (said in the log)
            log.exception("settings unreadable; the guards use the bundled exchange rate")
            rate = effective_rate(None)
        self._rate_cache = (now, rate)
        return rate

    @rate.setter
    def rate(self, value: ExchangeRate | None) -> None:
        self._rate = value

    # lock ---------------------------------------------------------------------------------------
    def acquire(self) -> bool:
        """Become the one watcher that acts (False: another live process is)."""
        return self.lock.acquire()

    def wait_acquire(self, stop: threading.Event | None = None, poll_s: float | None = None) -> bool:
        """Wait until this is the one watcher (the holder exited or died); False when ``stop`` came first."""
        from .lock import WAIT_POLL_S

        return self.lock.wait_acquire(stop, WAIT_POLL_S if poll_s is None else poll_s)

    # targets ------------------------------------------------------------------------------------
    def is_cloud_instance(self, target_id: str) -> bool:
        return self.ledger.get(target_id) is not None

    def _state(self, target_id: str, cfg: GuardConfig) -> _TargetState:
        st = self._states.get(target_id)
        window = float(cfg.idle_minutes) * 60.0
        if st is None or st.rule.below_pct != float(cfg.idle_below_pct) or st.rule.window_s != window:
            old = st
            st = _TargetState(IdleRule.from_config(cfg, self.max_gap_s))
            if old is not None:
                st.stopped, st.budget_warned = old.stopped, old.budget_warned
            else:  # a new watcher (or a restart): continue the window the last one reached
                try:
                    saved = self.guards.window(target_id)
                except Exception:  # noqa: BLE001 - no saved window: start it now
                    log.exception("could not read the saved idle window of %s", target_id)
                    saved = None
                if saved is not None:
                    st.rule.resume(saved[0], saved[1], RESTART_GAP_S)
                    st.window_saved = saved
            self._states[target_id] = st
        return st

    def _save_window(self, target_id: str, st: _TargetState) -> None:
        rule = st.rule
        if rule.last_t is None:
            return
        now = (rule.idle_since, rule.last_t)
        changed = st.window_saved is None or st.window_saved[0] != now[0]
        if not changed and st.window_saved_at is not None and rule.last_t - st.window_saved_at < WINDOW_SAVE_S:
            return
        try:
            self.guards.save_window(target_id, now[0], now[1])
            st.window_saved, st.window_saved_at = now, rule.last_t
        except Exception:  # noqa: BLE001 - a full disk must not stop the guards
            log.exception("could not save the idle window of %s", target_id)

    # samples ------------------------------------------------------------------------------------
    def on_sample(self, sample: HostSample) -> None:
        """Feed a monitor sample (the host name is the target id: instances are hosts named by id)."""
        cfg = self.guards.get(sample.host)
        if cfg is None:
            return
        t = sample.time.timestamp()
        with self._mutex:
            st = self._state(sample.host, cfg)
            st.rule.feed(sample, t)
            st.last_sample = sample
            self._save_window(sample.host, st)
            found = blind_reason(sample)
        self._set_blind(sample.host, st, t, None if found is None else translate(found[0]).format(**found[1]))

    def _set_blind(self, target_id: str, st: _TargetState, t: float, why: str | None) -> list[GuardEvent]:
        """Say once when a target goes blind (and why), and once when it sees again."""
        with self._mutex:
            before, st.blind = st.blind, why
        if why is not None and before is None:
            return [self._event(t, target_id, "blind", MSG_BLIND, {"target": target_id, "why": why})]
        if why is None and before is not None:
            return [self._event(t, target_id, "sighted", MSG_SIGHTED, {"target": target_id})]
        return []

    def blind(self) -> dict[str, str]:
        """Targets whose idle guard cannot see the GPUs now, and why."""
        with self._mutex:
            return {tid: st.blind for tid, st in self._states.items() if st.blind}

    def stop_pending(self) -> dict[str, dict[str, Any]]:
        """Targets whose guard wants them stopped and the cloud has not confirmed yet."""
        with self._mutex:
            return {tid: {"guard": st.episode.guard, "rounds": st.episode.rounds, "next_try": st.episode.next_try}
                    for tid, st in self._states.items() if st.episode is not None}

    # evaluation ---------------------------------------------------------------------------------
    def tick(self, now: float | None = None, wait_s: float | None = None) -> list[GuardEvent]:
        """Evaluate every guard once, each target on its own worker; returns the events raised by the
        targets that finished within ``wait_s`` (None: wait for all of them). Every event also goes
        to ``notify``. A target still busy from an earlier tick is skipped, never waited for."""
        t = self.clock() if now is None else now
        jobs: list[tuple[threading.Event, list[GuardEvent]]] = []
        for target_id, cfg in self.guards.all().items():
            with self._mutex:
                worker = self._workers.get(target_id)
                if worker is None:
                    worker = self._workers[target_id] = _Worker(target_id, self.store.close)
                if worker.busy:
                    continue
            done = threading.Event()
            box: list[GuardEvent] = []

            def job(tid: str = target_id, c: GuardConfig = cfg, d: threading.Event = done,
                    b: list[GuardEvent] = box) -> None:
                try:
                    b += self._tick_one(tid, c, t)
                except Exception:  # noqa: BLE001 - one target's trouble must not stop the others
                    log.exception("guard evaluation failed for %s", tid)
                finally:
                    d.set()

            worker.submit(job)
            jobs.append((done, box))
        deadline = None if wait_s is None else time.monotonic() + wait_s
        out: list[GuardEvent] = []
        for done, box in jobs:
            if deadline is None:
                done.wait()
            elif not done.wait(max(0.0, deadline - time.monotonic())):
                continue  # still busy: its events reach notify when it is done
            out += box
        return out

    def _tick_one(self, target_id: str, cfg: GuardConfig, t: float) -> list[GuardEvent]:
        with self._mutex:
            st = self._state(target_id, cfg)
        cloud = self.is_cloud_instance(target_id)
        out: list[GuardEvent] = []
        if st.last_sample is not None and st.rule.last_t is not None and t - st.rule.last_t > BLIND_SILENCE_S:
            why = translate(MSG_BLIND_SILENT).format(seconds=round(t - st.rule.last_t))
            if st.blind is None:
                out += self._set_blind(target_id, st, t, why)
        if st.episode is not None:
            entry = self.ledger.get(target_id) if cloud else None
            if entry is None or entry.state != "running":  # stopped meanwhile (the student, or the cloud)
                state = entry.state if entry else "gone"
                self._audit("guard-stop", target_id, f"episode ended ({st.episode.guard}): the instance is {state}")
                told = st.episode.escalated
                st.episode, st.stopped, st.stopped_at = None, True, time.time()
                if told:  # the student was told it still bills: say that this is over
                    out.append(self._event(t, target_id, "stopped", MSG_EPISODE_ENDED,
                                           {"target": target_id, "state": state}, {"state": state}))
                return out
            if t < st.episode.next_try:
                return out
            return out + self._stop_round(t, target_id, st)
        if st.stopped:
            entry = self.ledger.get(target_id) if cloud else None
            if entry is None or entry.state != "running" or st.stopped_at is None or \
                    entry.started_at is None or entry.started_at.timestamp() <= st.stopped_at:
                return out
            # started again since the guard stopped it: guard the new run from scratch
            st.stopped, st.idle_notified, st.budget_warned, st.process_seen = False, False, False, False
            if st.rule.idle_since is not None:  # idle time before this start does not count
                st.rule.idle_since = max(st.rule.idle_since, entry.started_at.timestamp())
        minutes = _num(cfg.idle_minutes)
        if st.rule.is_idle(t):
            params = {"target": target_id, "pct": _num(cfg.idle_below_pct), "minutes": minutes}
            if not st.idle_notified:
                st.idle_notified = True
                msg = MSG_IDLE if cloud else MSG_IDLE_NOTIFY_ONLY
                out.append(self._event(t, target_id, "idle-notify", msg, params))
            if cfg.on_idle == "stop" and cloud:
                out += self._guard_stop(t, target_id, cfg, st, "idle-stop", MSG_IDLE, params)
        else:
            st.idle_notified = False
        if cloud and st.episode is None and not st.stopped:
            entry = self.ledger.get(target_id, now=datetime.fromtimestamp(t, timezone.utc))
            if entry is not None and entry.state == "running":
                out += self._budget(t, target_id, cfg, st, entry)
                if st.episode is None and not st.stopped and runtime_exceeded(entry.uptime_s, cfg.max_hours):
                    out += self._guard_stop(t, target_id, cfg, st, "max-runtime", MSG_MAX_RUNTIME,
                                            {"target": target_id, "hours": _num(cfg.max_hours or 0)})
        if cfg.stop_on_process_exit and st.last_sample is not None and st.episode is None and not st.stopped:
            present = process_present(st.last_sample, cfg.stop_on_process_exit)
            if present:
                st.process_seen = True
            elif present is False and st.process_seen:
                params = {"target": target_id, "process": cfg.stop_on_process_exit}
                if cloud:
                    out += self._guard_stop(t, target_id, cfg, st, "process-exit", MSG_PROCESS_EXIT, params)
                else:
                    st.process_seen = False
                    out.append(self._event(t, target_id, "notify-only", MSG_NOTIFY_ONLY, params))
        return out

    def budget_price(self, entry: Any) -> tuple[float | None, str]:
        """(price per hour, source) the budget guard uses; see :func:`budget_price`."""
        return budget_price(self.paths, self.store, entry)

    def _budget(self, t: float, target_id: str, cfg: GuardConfig, st: _TargetState,
                entry: Any) -> list[GuardEvent]:
        if cfg.budget is None:
            return []
        out: list[GuardEvent] = []
        when = datetime.fromtimestamp(t, timezone.utc)
        cost = instance_cost(entry, when, self.rate, budget=cfg.budget, budget_currency=cfg.currency)
        so_far = cost.so_far
        if so_far is None:  # the ledger has no price: the account's price, where one is known
            price, source = self.budget_price(entry)
            if price is None:
                if not st.budget_unknown:
                    st.budget_unknown = True
                    out.append(self._event(t, target_id, "budget-unknown", MSG_BUDGET_UNKNOWN,
                                           {"target": target_id, "budget": _money(cfg.budget), "cur": cfg.currency,
                                            "account": entry.account}))
                return out
            so_far = price * float(entry.uptime_s) / 3600.0
            if st.budget_unknown:
                st.budget_unknown = False
                out.append(self._event(t, target_id, "budget-priced", MSG_BUDGET_PRICED,
                                       {"target": target_id, "price": _money(price), "cur": cost.currency,
                                        "source": source}))
        elif st.budget_unknown:
            st.budget_unknown = False
            out.append(self._event(t, target_id, "budget-priced", MSG_BUDGET_PRICED,
                                   {"target": target_id, "price": _money(entry.price_per_hour), "cur": cost.currency,
                                    "source": "launch price"}))
        level = budget_level(so_far, cost.budget)
        bparams = {"target": target_id, "spent": _money(so_far), "budget": _money(cost.budget),
                   "cur": cost.currency, "pct": round(100 * (so_far or 0) / cost.budget) if cost.budget else 0}
        if level == "warn" and not st.budget_warned:
            st.budget_warned = True
            out.append(self._event(t, target_id, "budget-warn", MSG_BUDGET_WARN, bparams))
        elif level == "stop":
            out += self._guard_stop(t, target_id, cfg, st, "budget-stop", MSG_BUDGET_STOP, bparams)
        return out

    def _guard_stop(self, t: float, target_id: str, cfg: GuardConfig, st: _TargetState, kind: str,
                    template: str, params: dict[str, Any]) -> list[GuardEvent]:
        """Start a stop episode: the guard's event and the pull once, then the first round of stop calls."""
        if st.stopping or st.stopped or st.episode is not None:
            return []
        out = [self._event(t, target_id, kind, template, params)]
        ep = _Episode(kind, t)
        if cfg.sync_before_stop:
            try:
                if self.run_sync(target_id, "before-stop") == 0:
                    out.append(self._event(t, target_id, "sync-none", MSG_NO_PULL, {"target": target_id}))
                else:
                    ep.pulled = True
            except LabGpuError as exc:
                ep.pulled = False
                out.append(self._event(t, target_id, "sync-failed", MSG_SYNC_FAILED,
                                       {"target": target_id, "why": exc.one_line()}))
            except Exception as exc:  # noqa: BLE001
                ep.pulled = False
                out.append(self._event(t, target_id, "sync-failed", MSG_SYNC_FAILED,
                                       {"target": target_id, "why": f"{type(exc).__name__}: {exc}"}))
        st.episode = ep
        return out + self._stop_round(t, target_id, st)

    def _stop_round(self, t: float, target_id: str, st: _TargetState) -> list[GuardEvent]:
        """One round of stop calls in the episode; escalated once when it fails, quiet after that."""
        ep = st.episode
        assert ep is not None
        st.stopping = True
        try:
            ok, events, refused, why, cause = self._stop_with_retries(target_id, ep.guard, quiet=True)
            if refused is not None:
                ok, events = self._end_unstoppable(target_id, ep.guard, refused, ep.pulled)
                st.episode, st.stopped = None, True  # terminated, or told once: never the refused stop again
                st.stopped_at = time.time() if ok else None
                return events
            if ok:
                st.episode, st.stopped, st.stopped_at = None, True, time.time()
                return events
            state = self._cloud_state(target_id) if cause in ("refused", "network") else None
            if state is not None and state != "running":  # it did stop (an answer lost, or stopped elsewhere)
                self._audit("guard-stop", target_id, f"ok ({ep.guard}, {state} at the cloud after: {why})")
                st.episode, st.stopped, st.stopped_at = None, True, time.time()
                return [self._event(self.clock(), target_id, "stopped", MSG_EPISODE_ENDED,
                                    {"target": target_id, "state": state}, {"state": state})]
            ep.rounds += 1
            wait = min(self.stop_backoff_cap_s, self.stop_backoff_s * 2 ** (ep.rounds - 1))
            ep.next_try = t + wait
            if ep.escalated:
                self._audit("guard-stop", target_id, f"still not stopped (round {ep.rounds}, {cause}; next try "
                                                     f"in {wait:g} s): {why}")
                return []
            ep.escalated = True
            template = {"clock": MSG_STOP_FAILED_CLOCK, "network": MSG_STOP_FAILED_NETWORK}.get(cause,
                                                                                              MSG_STOP_FAILED)
            return [self._event(self.clock(), target_id, "stop-failed", template,
                                {"target": target_id, "tries": max(1, self.stop_retries), "why": why},
                                {"cause": cause, "next_try_s": wait})]
        finally:
            st.stopping = False

    def run_sync(self, host: str, purpose: str) -> int | None:
        """Run the host's pull pairs; returns how many ran (0: none is set up; None: unknown)."""
        fn = self._sync_fn or default_sync(self.paths, self.store)
        self._audit("sync-" + purpose, host, "start")
        n = fn(host, purpose)
        self._audit("sync-" + purpose, host, "ok" if n != 0 else "ok (no pull pair)")
        return n

    def stop_instance(self, target_id: str, guard: str = "manual") -> bool:
        """Stop through the cloud layer with retries; True only when the cloud confirms."""
        ok, _events, _refused, _why, _cause = self._stop_with_retries(target_id, guard)
        return ok

    def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` waited for at most ``target_deadline_s``; TimeoutError after that (the call
        goes on in its thread and its late answer is dropped: the next round asks the cloud again)."""
        box: dict[str, Any] = {}
        done = threading.Event()

        def run() -> None:
            try:
                box["value"] = fn(*args)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                box["error"] = exc
            finally:
                done.set()

        threading.Thread(target=run, name="guard-cloud-call", daemon=True).start()
        if not done.wait(self.target_deadline_s):
            raise TimeoutError(translate(MSG_NO_ANSWER).format(seconds=_num(self.target_deadline_s)))
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def _cloud_state(self, target_id: str) -> str | None:
        """After a failed round: the instance's state as its cloud says it now (the account is
        reconciled, under the call deadline), so a stop whose answer was lost, or one done in the
        console, ends the episode instead of being asked again; None when unknown."""
        if self._stop_fn is not None:  # an injected stop (tests of the rules): no cloud to ask
            return None
        entry = self.ledger.get(target_id)
        if entry is None:
            return None
        try:
            from app.cloud.launch import CloudService

            self._call(lambda: CloudService(self.paths, self.store).reconcile([entry.account]))
        except Exception as exc:  # noqa: BLE001 - unknown: the next round asks again
            log.info("reconcile of %s after a failed stop: %s", entry.account, exc)
            return None
        fresh = self.ledger.get(target_id)
        return None if fresh is None else fresh.state

    def _stop_with_retries(self, target_id: str, guard: str, quiet: bool = False
                           ) -> tuple[bool, list[GuardEvent], Any, str, str]:
        """(confirmed, events, the StopRefusedError when the cloud refuses the stop for good (no
        retry), why the last try failed, its cause: "clock" | "network" | "refused"). ``quiet``: no
        "stop-failed" event (the episode decides whether to escalate)."""
        from app.cloud.base import StopRefusedError
        from app.cloud.errors import ClockSkewError, NetworkError

        fn = self._stop_fn or _cloud_stop(self.paths, self.store)
        why, cause = "", "refused"
        tries = max(1, self.stop_retries)
        for i in range(tries):
            try:
                got = self._call(fn, target_id)
                if isinstance(got, tuple):
                    got = got[0]
                state = getattr(got, "state", "")
                if state in STOPPED_STATES:
                    self._audit("guard-stop", target_id, f"ok ({guard}, {state})")
                    ev = self._event(self.clock(), target_id, "stopped", MSG_STOPPED,
                                     {"target": target_id, "guard": guard}, {"state": state})
                    return True, [ev], None, "", ""
                why, cause = f"the cloud still reports {state or 'no state'}", "refused"
            except StopRefusedError as exc:
                reason = str(exc.params.get("reason") or exc.code)
                self._audit("guard-stop", target_id, f"refused ({guard}): {reason}", exc.one_line())
                return False, [], exc, reason, "refused"
            except ClockSkewError as exc:
                why, cause = exc.one_line(), "clock"
            except NetworkError as exc:
                why, cause = exc.one_line(), "network"
            except TimeoutError as exc:
                why, cause = str(exc), "network"
            except LabGpuError as exc:
                why, cause = exc.one_line(), "refused"
            except (OSError, ConnectionError) as exc:
                why, cause = f"{type(exc).__name__}: {exc}", "network"
            except Exception as exc:  # noqa: BLE001 - an SDK's own exception
                why, cause = f"{type(exc).__name__}: {exc}", "refused"
            self._audit("guard-stop", target_id, f"failed try {i + 1}: {why}")
            if i < tries - 1:
                self.sleep(self.retry_delay_s)
        if quiet:
            return False, [], None, why, cause
        ev = self._event(self.clock(), target_id, "stop-failed", MSG_STOP_FAILED,
                         {"target": target_id, "tries": tries, "why": why}, {"cause": cause})
        return False, [ev], None, why, cause

    def _end_unstoppable(self, target_id: str, guard: str, refused: Any,
                         pulled: bool | None) -> tuple[bool, list[GuardEvent]]:
        """The documented alternative to a refused stop: terminate, unless the pull before it failed
        (then say so once, with what to do). True when the cloud confirms the termination."""
        reason = str(refused.params.get("reason") or refused.code)  # the English template
        params = {"target": target_id, "guard": guard, "reason": translate(reason)}
        if pulled is False:
            self._audit("guard-stop", target_id, f"not terminated ({guard}): the pull before it failed; {reason}")
            return False, [self._event(self.clock(), target_id, "stop-refused", MSG_STOP_REFUSED, params,
                                       {"code": refused.code})]
        fn = self._terminate_fn or _cloud_terminate(self.paths, self.store)
        audit_reason = f"terminated: {reason}"
        why = ""
        tries = max(1, self.stop_retries)
        for i in range(tries):
            try:
                got = self._call(fn, target_id, audit_reason)
                state = getattr(got, "state", "")
                if state in ("terminating", "terminated"):
                    self._audit("guard-stop", target_id, audit_reason, f"{guard}: {audit_reason} ({state})")
                    template = MSG_TERMINATED if pulled else MSG_TERMINATED_NO_PULL
                    return True, [self._event(self.clock(), target_id, "terminated", template, params,
                                              {"state": state, "code": refused.code})]
                why = f"the cloud still reports {state or 'no state'}"
            except LabGpuError as exc:
                why = exc.one_line()
            except Exception as exc:  # noqa: BLE001 - an SDK's own exception
                why = f"{type(exc).__name__}: {exc}"
            self._audit("guard-stop", target_id, f"terminate failed try {i + 1}: {why}")
            if i < tries - 1:
                self.sleep(self.retry_delay_s)
        return False, [self._event(self.clock(), target_id, "terminate-failed", MSG_TERMINATE_FAILED,
                                   {**params, "tries": tries, "why": why})]

    # events, audit ------------------------------------------------------------------------------
    def _event(self, t: float, target_id: str, kind: str, template: str, params: dict[str, Any],
               detail: dict[str, Any] | None = None) -> GuardEvent:
        try:
            message = translate(template).format(**params)
        except (KeyError, ValueError):
            message = template
        ev = GuardEvent(datetime.fromtimestamp(t, timezone.utc), target_id, kind, message,
                        {**params, **(detail or {})})
        if kind not in ("stopped", "stop-failed", "terminated"):  # those have their guard-stop row
            self._audit("guard-" + kind, target_id, message)
        self.events.append(ev)
        if self.notify is not None:
            try:
                self.notify(ev)
            except Exception:  # noqa: BLE001
                log.exception("guard notification failed")
        return ev

    def emit(self, ev: GuardEvent) -> None:
        """Publish an event raised elsewhere (the spot watch) through the same path."""
        self._audit("guard-" + ev.kind, ev.target_id, ev.message)
        self.events.append(ev)
        if self.notify is not None:
            try:
                self.notify(ev)
            except Exception:  # noqa: BLE001
                log.exception("guard notification failed")

    def _audit(self, action: str, target: str, result: str, detail: str = "") -> None:
        try:
            entry = self.ledger.get(target)
            self.audit.record(account=entry.account if entry else "", provider=entry.provider if entry else "",
                              action=action, resource=target, result=result[:200], detail=detail or result)
        except Exception:  # noqa: BLE001 - the audit log must not stop a guard
            log.exception("audit write failed")

    # spot interruptions ------------------------------------------------------------------------
    def relaunch_options(self, target_id: str) -> dict[str, Any]:
        """What a one-click relaunch of the same offer needs (app.cloud.launch.LaunchOptions fields)."""
        e = self.ledger.get(target_id)
        if e is None:
            return {}
        return {"account": e.account, "instance_type": e.instance_type, "region": e.region, "zone": e.zone,
                "spot": e.spot, "image_id": e.image_id, "name": e.name}

    def relaunch(self, target_id: str, **overrides: Any) -> Any:
        """Launch the same offer again (the one click after an interruption); returns the LaunchResult."""
        from app.cloud.launch import CloudService, LaunchOptions

        opts = {**self.relaunch_options(target_id), **overrides}
        self._audit("guard-relaunch", target_id, "start")
        return CloudService(self.paths, self.store).launch(LaunchOptions(**opts))

    def spot_notice(self, target_id: str, notice: Any, wait: bool = False) -> GuardEvent | None:
        """A spot notice arrived: notify once per reclaim time (a watch restarted, or a second watch
        of the same host, announces nothing twice) and start the host's "on interruption" sync at
        once on its own thread — unless one is in flight for that host (then logged, not doubled).
        Returns the event, None when this reclaim was announced already."""
        key = notice.time.astimezone(timezone.utc).isoformat()
        with self._mutex:
            seen = self._spot_seen.setdefault(target_id, set())
            if key in seen:
                log.info("spot notice of %s for %s: announced already", target_id, key)
                return None
            seen.add(key)
        when = notice.time.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        ev = self._event(self.clock(), target_id, "spot-notice", MSG_SPOT,
                         {"target": target_id, "when": when, "action": notice.action},
                         {"notice_time": notice.time.isoformat(), "provider": notice.provider,
                          "relaunch": self.relaunch_options(target_id)})

        def pull() -> None:
            try:
                n = self.run_sync(target_id, "on-interruption")
            except Exception as exc:  # noqa: BLE001
                why = exc.one_line() if isinstance(exc, LabGpuError) else f"{type(exc).__name__}: {exc}"
                self._event(self.clock(), target_id, "sync-failed", MSG_SYNC_FAILED, {"target": target_id, "why": why})
                return
            if n == 0:
                self._event(self.clock(), target_id, "sync-none", MSG_NO_PULL, {"target": target_id})
                return
            self._event(self.clock(), target_id, "sync-done", MSG_SYNC_DONE,
                        {"target": target_id, "purpose": "on-interruption"})

        with self._mutex:
            running = self._spot_pulls.get(target_id)
            if running is not None and running.is_alive():
                log.info("spot notice of %s: its pull is still running; no second one started", target_id)
                t = running
            else:
                t = threading.Thread(target=pull, name=f"spot-sync-{target_id}", daemon=True)
                self._spot_pulls[target_id] = t
                self._sync_threads.append(t)
                t.start()
        if wait:
            t.join()
        return ev

    def start_spot_watches(self, connect: Callable[[str], Any], interval_s: float = 5.0) -> list[Any]:
        """One SpotWatch per running spot instance in the ledger whose provider can run spot and
        declares where its notices are read (ProviderSpec.spot_notice)."""
        from app.core import providers
        from app.remote.spotwatch import SpotWatch

        started = []
        for e in self.ledger.list(include_terminated=False):
            if not e.spot or e.state != "running" or e.id in self._spot:
                continue
            if not providers.has(e.provider, "spot") or providers.spot_notice_source(e.provider) is None:
                continue
            sw = SpotWatch(e.id, e.provider, _bind_connect(connect, e.id), self._notice_handler(e.id),
                           on_problem=_problem_logger(e.id), interval_s=interval_s)
            self._spot[e.id] = sw.start()
            started.append(sw)
        return started

    # the on-instance watchdog ------------------------------------------------------------------
    def check_watchdogs(self, connect: Callable[[str], Any]) -> list[threading.Thread]:
        """Once per run of each guarded instance with the on-instance watchdog (and once per watcher for a
        server with no cloud API, or after its guard changed): make the watchdog match its guard on the
        host (app/remote/watchdog.reconcile: started again after a stop/start, installed anew after a guard
        change, its refused shutdowns read), each on its own thread; what it found is an event."""
        from app.remote import watchdog

        entries = {e.id: e for e in self.ledger.list(include_terminated=False)}
        started = []
        for target, cfg in self.guards.all().items():
            if not getattr(cfg, "watchdog", False):
                continue
            e = entries.get(target)
            if e is not None and e.state != "running":
                continue  # a stopped instance has no watchdog to check: its next run is checked
            try:
                key = (str(e.started_at) if e is not None else "host", repr(watchdog.params_for_guard(cfg).conf()))
            except LabGpuError as exc:
                log.info("%s: watchdog settings not usable: %s", target, exc)
                continue
            if self._watchdog_seen.get(target) == key:
                continue
            self._watchdog_seen[target] = key
            th = threading.Thread(target=self._check_watchdog, args=(connect, target, cfg, key), daemon=True,
                                  name=f"labgpu-watchdog-{target}")
            th.start()
            started.append(th)
        return started

    def _check_watchdog(self, connect: Callable[[str], Any], target: str, cfg: Any, key: tuple[str, str]) -> None:
        from app.remote import watchdog

        try:
            report = watchdog.reconcile(connect(target), target, cfg,
                                        watchdog.WatchdogBook(self.paths.data_dir / "watchdog.json"))
        except Exception as exc:  # noqa: BLE001 - an unreachable host is checked again at the next scan
            log.info("%s: watchdog not checked: %s", target, exc)
            if self._watchdog_seen.get(target) == key:
                self._watchdog_seen.pop(target, None)
            return
        text = report.text()
        if text:
            self._event(self.clock(), target, "watchdog", "{message}", {"message": text, "target": target},
                        {"state": report.state})

    def settle_os_shutdowns(self) -> list[threading.Thread]:
        """A Tencent instance whose watchdog shut its OS down stays STOPPED with KEEP_CHARGING: its compute
        still bills. Once per such stop, ask the cloud to stop it without charging
        (CloudService.settle_os_shutdown), on its own thread; what it did is an event."""
        started = []
        for e in self.ledger.list(include_terminated=False):
            if e.state != "stopped_billing":
                continue
            cfg = self.guards.get(e.id)
            if cfg is None or not getattr(cfg, "watchdog", False):
                continue
            key = (e.id, str(e.started_at))
            if key in self._settled:
                continue
            self._settled.add(key)
            th = threading.Thread(target=self._settle, args=(e.id,), daemon=True, name=f"labgpu-settle-{e.id}")
            th.start()
            started.append(th)
        return started

    def _settle(self, target: str) -> None:
        from app.cloud.launch import CloudService

        svc = CloudService(self.paths, self.store)
        try:
            note = svc.settle_os_shutdown(target)
        except LabGpuError as exc:
            self._event(self.clock(), target, "watchdog", MSG_SETTLE_FAILED, {"target": target, "why": exc.one_line()})
            return
        except Exception as exc:  # noqa: BLE001 - an SDK's own exception
            self._event(self.clock(), target, "watchdog", MSG_SETTLE_FAILED,
                        {"target": target, "why": f"{type(exc).__name__}: {exc}"})
            return
        finally:
            svc.close()
        if note:
            self._event(self.clock(), target, "watchdog", MSG_SETTLED, {"target": target, "note": note})

    def _notice_handler(self, target_id: str) -> Callable[[Any], None]:
        def handle(notice: Any) -> None:
            self.spot_notice(target_id, notice)

        return handle

    # spot prices --------------------------------------------------------------------------------
    def current_spot_price(self, entry: Any) -> float | None:
        """The zone's spot price fetched after this run started (live price cache), else None."""
        if not entry.spot or entry.started_at is None:
            return None
        from app.core import live_prices

        for o in live_prices.zone_prices(self.paths, entry.provider, entry.region, entry.instance_type):
            fetched = getattr(o, "fetched_at", None)
            if o.zone == entry.zone and o.price_spot is not None and fetched is not None \
                    and o.currency == entry.currency and fetched >= entry.started_at:
                return float(o.price_spot)
        return None

    def refresh_spot_prices(self, force: bool = False) -> list[str]:
        """Re-read the live prices of running spot instances' types (one cheap price call per account
        and type, at most every SPOT_PRICE_REFRESH_S). Returns the instance ids refreshed."""
        from app.cloud.launch import CloudService

        now = time.monotonic()
        done = []
        svc: Any = None
        for e in self.ledger.list(include_terminated=False):
            if not e.spot or e.state != "running":
                continue
            last = self._spot_price_at.get(e.id)
            if not force and last is not None and now - last < SPOT_PRICE_REFRESH_S:
                continue
            self._spot_price_at[e.id] = now
            svc = svc or CloudService(self.paths, self.store)
            errors: dict[str, LabGpuError] = {}
            svc.refresh_prices(e.account, [e.instance_type], errors=errors)
            if errors:
                log.info("spot price of %s not re-read: %s", e.id, errors[e.account].one_line())
                continue
            done.append(e.id)
        return done

    # costs --------------------------------------------------------------------------------------
    def running_costs(self, now: float | None = None) -> list[InstanceCost]:
        t = datetime.fromtimestamp(self.clock() if now is None else now, timezone.utc)
        out = []
        for e in self.ledger.list(include_terminated=False, now=t):
            cfg = self.guards.get(e.id)
            out.append(instance_cost(e, t, self.rate, budget=cfg.budget if cfg else None,
                                     budget_currency=cfg.currency if cfg else None,
                                     max_hours=cfg.max_hours if cfg else None,
                                     current_price=self.current_spot_price(e)))
        return out

    # loop ---------------------------------------------------------------------------------------
    def run(self, hub: Any = None, period_s: float = 1.0, until: threading.Event | None = None) -> None:
        """Apply the guards until `until` is set or close() (the lock must be held)."""
        self.lock.require()
        unsub = hub.subscribe(self.on_sample) if hub is not None else None
        last_scan = -1e18
        try:
            while not self._closed.is_set() and not (until is not None and until.is_set()):
                if hub is not None and time.monotonic() - last_scan >= 30.0:
                    # guards set and spot instances launched while watching are picked up
                    last_scan = time.monotonic()
                    try:
                        for target in self.guards.all():
                            hub.watch(target)
                        self.start_spot_watches(hub.connection)
                        self.check_watchdogs(hub.connection)
                        self.settle_os_shutdowns()
                    except Exception:  # noqa: BLE001
                        log.exception("could not start watching new targets")
                self.tick(wait_s=period_s)  # a busy target is not waited for (see the module doc)
                from .reconcile import poll as reconcile_poll  # issue 21: the ledger follows the cloud

                reconcile_poll(self)  # due reconciles start in the background; never blocks the guards
                try:
                    self.refresh_spot_prices()
                except Exception:  # noqa: BLE001 - a price call must not stop the guards
                    log.exception("spot price refresh failed")
                self._closed.wait(period_s)
        finally:
            if unsub is not None:
                unsub()

    def close(self) -> None:
        self._closed.set()
        with self._mutex:
            self._workers.clear()
            states = list(self._states.items())
        for tid, st in states:  # the window reached, for the next watcher
            st.window_saved_at = None
            st.window_saved = None
            self._save_window(tid, st)
        for sw in list(self._spot.values()):
            sw.stop()
        self._spot.clear()
        for t in self._sync_threads:
            t.join(timeout=60)
        self.lock.release()


def _cloud_stop(paths: Paths, store: Store) -> StopFn:
    def stop(instance_id: str) -> Any:
        from app.cloud.launch import CloudService

        entry, _note = CloudService(paths, store).stop(instance_id)
        return entry

    return stop


def _cloud_terminate(paths: Paths, store: Store) -> TerminateFn:
    def terminate(instance_id: str, reason: str) -> Any:
        from app.cloud.launch import CloudService

        return CloudService(paths, store).terminate(instance_id, reason=reason)

    return terminate


def budget_price(paths: Paths, store: Store, entry: Any) -> tuple[float | None, str]:
    """(price per hour, source) a budget guard uses: the launch price the ledger keeps, else the
    account's live (or bundled) price for the type (spot: the zone's spot price); (None, "") when
    none is known — the guard then says it cannot act (``budget-unknown``), never stays silent."""
    if entry.price_per_hour is not None:
        return float(entry.price_per_hour), "launch price"
    try:
        from app.cloud import pricing
        from app.core.accounts import AccountBook, AccountError

        try:
            account = AccountBook(store).get(entry.account)
        except AccountError:
            return None, ""
        if entry.spot:
            spot = pricing.spot_price(paths, account, entry.instance_type, entry.zone)
            return (None, "") if spot is None else (float(spot), "the account's spot price")
        price, source = pricing.on_demand_price(paths, account, entry.instance_type)
        return (None, "") if price is None else (float(price), source or "the account's price")
    except Exception:  # noqa: BLE001 - no price is said as unknown, never a crash
        log.exception("no price for %s", getattr(entry, "id", "?"))
        return None, ""


def _bind_connect(connect: Callable[[str], Any], target_id: str) -> Callable[[], Any]:
    return lambda: connect(target_id)


def _problem_logger(target_id: str) -> Callable[[str], None]:
    def problem(text: str) -> None:
        log.warning("spot watch %s: %s", target_id, text)

    return problem


def _num(v: float) -> str:
    return f"{float(v):g}"


def _money(v: float | None) -> str:
    from app.core.currency import money_text

    return money_text(v, "", 2).strip()  # the message names the currency itself
