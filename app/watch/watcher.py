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

Training jobs (jobwatch.py): every 15 s each running job LabGPU started is refreshed on its own thread;
its end or stall is an event, and its "then" pulls and stops (or terminates) through the same episode.

Exactly one Watcher acts at a time: ``acquire()`` takes the watch lock; ``wait_acquire()`` waits
for it and takes over when the holder exits or dies.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from app.core.audit import AuditLog
from app.core.costs import instance_cost
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
from app.core.i18n import translate
from app.core.instances import Ledger
from app.core.paths import Paths, default_paths
from app.core.store import Store
from app.core.vocab import GuardEventKind, InstanceState
from app.notify.dispatch import guard_hook

from .jobwatch import JobWatch
from .lock import WatchLock
from .messages import (
    MSG_BLIND,
    MSG_BUDGET_PRICED,
    MSG_BUDGET_STOP,
    MSG_BUDGET_UNKNOWN,
    MSG_BUDGET_WARN,
    MSG_EPISODE_ENDED,
    MSG_IDLE,
    MSG_IDLE_NOTIFY_ONLY,
    MSG_MAX_RUNTIME,
    MSG_NO_PULL,
    MSG_NOTIFY_ONLY,
    MSG_PROCESS_EXIT,
    MSG_SIGHTED,
    MSG_SYNC_FAILED,
)
from .oninstance import (
    OnInstance,
)
from .parts import (
    BLIND_SILENCE_S,
    RATE_RELOAD_S,
    STOP_BACKOFF_CAP_S,
    STOP_BACKOFF_S,
    TARGET_DEADLINE_S,
    WINDOW_SAVE_S,
    Episode,
    StopFn,
    SyncFn,
    TargetState,
    TerminateFn,
    Worker,
    budget_price,
    money_plain,
    num_text,
)
from .recovery import RecoveryWatch
from .stopping import (
    StopEpisodes,
)

if TYPE_CHECKING:
    from app.usecases.costs import RunningCosts

log = logging.getLogger(__name__)



class Watcher(StopEpisodes, OnInstance, JobWatch, RecoveryWatch):
    def __init__(self, paths: Paths | None = None, clock: Callable[[], float] = time.time,
                 notify: Callable[[GuardEvent], None] | None = None, *, store: Store | None = None,
                 stop_fn: StopFn | None = None, sync_fn: SyncFn | None = None, pull: SyncFn | None = None,
                 rate: ExchangeRate | None = None, max_gap_s: float = 5.0, stop_retries: int = 3,
                 retry_delay_s: float = 5.0, sleep: Callable[[float], None] = time.sleep,
                 terminate_fn: TerminateFn | None = None, kind: str = "watch",
                 target_deadline_s: float = TARGET_DEADLINE_S, stop_backoff_s: float = STOP_BACKOFF_S,
                 stop_backoff_cap_s: float = STOP_BACKOFF_CAP_S) -> None:
        self.paths = paths or default_paths()
        self.clock = clock
        self.notify = notify
        # every event also goes to the notices away from the laptop (mail, WeChat, …): queued, never raises
        self.outbound = guard_hook(self.paths)
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
        # the pull before a stop and on a spot notice: (target, purpose) → pairs run; the app and
        # `labgpu watch` hand in app.usecases.guards.watcher_pull (sync_fn: the older name)
        self._sync_fn = pull or sync_fn
        self.lock = WatchLock(self.paths.data_dir / "watch.lock", kind)
        self._states: dict[str, TargetState] = {}
        self._workers: dict[str, Worker] = {}
        self._mutex = threading.RLock()
        self._closed = threading.Event()
        self.events: list[GuardEvent] = []
        self.passes = 0  # loop passes finished by run() (the tray's start-up probe waits for the first)
        self._spot: dict[str, Any] = {}
        self._watchdog_seen: dict[str, tuple[str, str]] = {}  # target → (run, settings) last checked
        self._settled: set[tuple[str, str]] = set()  # (instance, run) whose OS shutdown was settled
        self._spot_price_at: dict[str, float] = {}
        self._sync_threads: list[threading.Thread] = []
        self._spot_pulls: dict[str, threading.Thread] = {}  # one "on interruption" pull in flight per host
        self._spot_seen: dict[str, set[str]] = {}  # reclaim times already announced, per host
        self.init_jobwatch()  # the training jobs LabGPU started: refreshed, their ends acted on (jobwatch.py)
        self.init_recovery()  # spot recovery: a reclaimed instance relaunched by its policy (recovery.py)

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

    def _state(self, target_id: str, cfg: GuardConfig) -> TargetState:
        st = self._states.get(target_id)
        window = float(cfg.idle_minutes) * 60.0
        if st is None or st.rule.below_pct != float(cfg.idle_below_pct) or st.rule.window_s != window:
            old = st
            st = TargetState(IdleRule.from_config(cfg, self.max_gap_s))
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

    def _save_window(self, target_id: str, st: TargetState) -> None:
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

    def _set_blind(self, target_id: str, st: TargetState, t: float, why: str | None) -> list[GuardEvent]:
        """Say once when a target goes blind (and why), and once when it sees again."""
        with self._mutex:
            before, st.blind = st.blind, why
        if why is not None and before is None:
            return [self._event(t, target_id, GuardEventKind.BLIND, MSG_BLIND, {"target": target_id, "why": why})]
        if why is None and before is not None:
            return [self._event(t, target_id, GuardEventKind.SIGHTED, MSG_SIGHTED, {"target": target_id})]
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
                    worker = self._workers[target_id] = Worker(target_id, self.store.close)
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
            if entry is None or entry.state != InstanceState.RUNNING:  # stopped meanwhile (the student, or the cloud)
                state = entry.state if entry else "gone"
                self._audit("guard-stop", target_id, f"episode ended ({st.episode.guard}): the instance is {state}")
                told = st.episode.escalated
                st.episode, st.stopped, st.stopped_at = None, True, time.time()
                if told:  # the student was told it still bills: say that this is over
                    out.append(self._event(t, target_id, GuardEventKind.STOPPED, MSG_EPISODE_ENDED,
                                           {"target": target_id, "state": state}, {"state": state}))
                return out
            if t < st.episode.next_try:
                return out
            return out + self._stop_round(t, target_id, st)
        if st.stopped:
            entry = self.ledger.get(target_id) if cloud else None
            if entry is None or entry.state != InstanceState.RUNNING or st.stopped_at is None or \
                    entry.started_at is None or entry.started_at.timestamp() <= st.stopped_at:
                return out
            # started again since the guard stopped it: guard the new run from scratch
            st.stopped, st.idle_notified, st.budget_warned, st.process_seen = False, False, False, False
            if st.rule.idle_since is not None:  # idle time before this start does not count
                st.rule.idle_since = max(st.rule.idle_since, entry.started_at.timestamp())
        minutes = num_text(cfg.idle_minutes)
        if st.rule.is_idle(t):
            params = {"target": target_id, "pct": num_text(cfg.idle_below_pct), "minutes": minutes}
            if not st.idle_notified:
                st.idle_notified = True
                msg = MSG_IDLE if cloud else MSG_IDLE_NOTIFY_ONLY
                out.append(self._event(t, target_id, GuardEventKind.IDLE_NOTIFY, msg, params))
            if cfg.on_idle == "stop" and cloud:
                out += self._guard_stop(t, target_id, cfg, st, "idle-stop", MSG_IDLE, params)
        else:
            st.idle_notified = False
        if cloud and st.episode is None and not st.stopped:
            entry = self.ledger.get(target_id, now=datetime.fromtimestamp(t, timezone.utc))
            if entry is not None and entry.state == InstanceState.RUNNING:
                out += self._budget(t, target_id, cfg, st, entry)
                if st.episode is None and not st.stopped and runtime_exceeded(entry.uptime_s, cfg.max_hours):
                    out += self._guard_stop(t, target_id, cfg, st, "max-runtime", MSG_MAX_RUNTIME,
                                            {"target": target_id, "hours": num_text(cfg.max_hours or 0)})
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
                    out.append(self._event(t, target_id, GuardEventKind.NOTIFY_ONLY, MSG_NOTIFY_ONLY, params))
        return out

    def budget_price(self, entry: Any) -> tuple[float | None, str]:
        """(price per hour, source) the budget guard uses; see :func:`budget_price`."""
        return budget_price(self.paths, self.store, entry)

    def _budget(self, t: float, target_id: str, cfg: GuardConfig, st: TargetState,
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
                    out.append(self._event(t, target_id, GuardEventKind.BUDGET_UNKNOWN, MSG_BUDGET_UNKNOWN,
                                           {"target": target_id, "budget": money_plain(cfg.budget), "cur": cfg.currency,
                                            "account": entry.account}))
                return out
            so_far = price * float(entry.uptime_s) / 3600.0
            if st.budget_unknown:
                st.budget_unknown = False
                out.append(self._event(t, target_id, GuardEventKind.BUDGET_PRICED, MSG_BUDGET_PRICED,
                                       {"target": target_id, "price": money_plain(price), "cur": cost.currency,
                                        "source": source}))
        elif st.budget_unknown:
            st.budget_unknown = False
            out.append(self._event(t, target_id, GuardEventKind.BUDGET_PRICED, MSG_BUDGET_PRICED,
                                   {"target": target_id, "price": money_plain(entry.price_per_hour),
                                    "cur": cost.currency, "source": "launch price"}))
        level = budget_level(so_far, cost.budget)
        bparams = {"target": target_id, "spent": money_plain(so_far), "budget": money_plain(cost.budget),
                   "cur": cost.currency, "pct": round(100 * (so_far or 0) / cost.budget) if cost.budget else 0}
        if level == "warn" and not st.budget_warned:
            st.budget_warned = True
            out.append(self._event(t, target_id, GuardEventKind.BUDGET_WARN, MSG_BUDGET_WARN, bparams))
        elif level == "stop":
            out += self._guard_stop(t, target_id, cfg, st, "budget-stop", MSG_BUDGET_STOP, bparams)
        return out

    def _guard_stop(self, t: float, target_id: str, cfg: GuardConfig, st: TargetState, kind: str,
                    template: str, params: dict[str, Any], *, guard: str | None = None,
                    terminate: bool = False) -> list[GuardEvent]:
        """Start a stop episode: the guard's event and the pull once, then the first round of stop calls
        (``guard``: the episode's name when it is not the event's kind, e.g. a job's; ``terminate``: the
        rounds terminate instead, a job's "pull-and-terminate")."""
        if st.stopping or st.stopped or st.episode is not None:
            return []
        out = [self._event(t, target_id, kind, template, params)]
        ep = Episode(guard or kind, t, terminate=terminate)
        if cfg.sync_before_stop:
            try:
                if self.run_sync(target_id, "before-stop") == 0:
                    out.append(self._event(t, target_id, GuardEventKind.SYNC_NONE, MSG_NO_PULL, {"target": target_id}))
                else:
                    ep.pulled = True
            except LabGpuError as exc:
                ep.pulled = False
                out.append(self._event(t, target_id, GuardEventKind.SYNC_FAILED, MSG_SYNC_FAILED,
                                       {"target": target_id, "why": exc.one_line()}))
            except Exception as exc:  # noqa: BLE001
                ep.pulled = False
                out.append(self._event(t, target_id, GuardEventKind.SYNC_FAILED, MSG_SYNC_FAILED,
                                       {"target": target_id, "why": f"{type(exc).__name__}: {exc}"}))
        st.episode = ep
        return out + self._stop_round(t, target_id, st)

    # events, audit ------------------------------------------------------------------------------
    def _event(self, t: float, target_id: str, kind: str, template: str, params: dict[str, Any],
               detail: dict[str, Any] | None = None) -> GuardEvent:
        try:
            message = translate(template).format(**params)
        except (KeyError, ValueError):
            message = template
        ev = GuardEvent(datetime.fromtimestamp(t, timezone.utc), target_id, kind, message,
                        {**params, **(detail or {})})
        # those have their guard-stop row
        if kind not in (GuardEventKind.STOPPED, GuardEventKind.STOP_FAILED, GuardEventKind.TERMINATED):
            self._audit("guard-" + kind, target_id, message)
        self.events.append(ev)
        self.outbound(ev)
        if self.notify is not None:
            try:
                self.notify(ev)
            except Exception:  # noqa: BLE001
                log.exception("guard notification failed")
        return ev

    def emit(self, ev: GuardEvent, *, audit: bool = True) -> None:
        """Publish an event raised elsewhere (the spot watch) through the same path (``audit``: False where
        the raiser wrote its own audit row)."""
        if audit:
            self._audit("guard-" + ev.kind, ev.target_id, ev.message)
        self.events.append(ev)
        self.outbound(ev)
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
        """What a one-click relaunch of the same offer needs (app.cloud.launch_plan.LaunchOptions fields)."""
        e = self.ledger.get(target_id)
        if e is None:
            return {}
        return {"account": e.account, "instance_type": e.instance_type, "region": e.region, "zone": e.zone,
                "spot": e.spot, "image_id": e.image_id, "name": e.name}

    def relaunch(self, target_id: str, **overrides: Any) -> Any:
        """Launch the same offer again (the one click after an interruption); returns the LaunchResult."""
        from app.cloud.launch import CloudService
        from app.cloud.launch_plan import LaunchOptions
        from app.core.settings import SettingsStore
        from app.usecases.launch import launch

        opts = {**self.relaunch_options(target_id), **overrides}
        self._audit("guard-relaunch", target_id, "start")
        # The launch journey: the settings' spot share, and the interrupted instance's guard (if it had one).
        return launch(CloudService(self.paths, self.store), SettingsStore(self.paths).load(), LaunchOptions(**opts),
                      guard=self.guards.get(target_id)).result

    # costs --------------------------------------------------------------------------------------
    def running_costs(self, now: float | None = None) -> RunningCosts:
        """What the instances cost now (app.usecases.costs: the billing ones, their totals, the unknown
        prices named), with the guards' budgets and the spot prices re-read while they run."""
        from app.usecases.costs import running_costs

        t = datetime.fromtimestamp(self.clock() if now is None else now, timezone.utc)
        return running_costs(self.ledger, self.guards, self.rate, t, current_price=self.current_spot_price)

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
                self.resume_recoveries()  # once: the spot recoveries a previous watcher left unfinished
                self.tick(wait_s=period_s)  # a busy target is not waited for (see the module doc)
                self.poll_jobs()  # jobs refreshed every ~15 s on their own thread; their stops driven on
                from .reconcile import poll as reconcile_poll  # the ledger follows the cloud

                reconcile_poll(self)  # due reconciles start in the background; never blocks the guards
                from .waits import poll as waits_poll  # launches waiting for a sold-out GPU (蹲卡)

                waits_poll(self)  # a due wait takes a round in the background; never blocks the guards
                from .loginwatch import poll as logins_poll  # who logged in to the watched hosts

                logins_poll(self)  # a due host's logins are read in the background; never blocks the guards
                from .cloudauditwatch import poll as cloud_audit_poll  # API calls LabGPU did not make

                cloud_audit_poll(self)  # a due account's event history is read in the background
                try:
                    self.refresh_spot_prices()
                except Exception:  # noqa: BLE001 - a price call must not stop the guards
                    log.exception("spot price refresh failed")
                self.passes += 1
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
        self.outbound.flush(10.0)  # the notices of the last events still leave (mail, WeChat, …)

