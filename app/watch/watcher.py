"""Watcher: applies the guards (idle, budget, max runtime, process exit) to every guarded target.

A target is a LabGPU instance id (the ledger knows its cloud: guards may stop it) or a Hosts-page
server name (no API: guards notify only, and say so). Samples come from a MonitorHub (or are fed
with ``on_sample``); ``tick(now)`` evaluates the time-based rules — tests call it with a fake
clock, ``run()`` calls it every second. Every guard action goes to the audit log.

Stopping: the host's "before stop" sync (its saved sync pairs that pull, direction down) runs
first when the guard asks for it; then ``stop_instance`` calls the cloud, retries a failed call
(``stop_retries`` times, ``retry_delay_s`` apart), and reports "stopped" only when the cloud
says the instance is stopping/stopped — otherwise "stop-failed", and the guard tries again on
a later tick. Exactly one Watcher acts at a time: ``acquire()`` takes the watch lock.
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
from app.core.currency import ExchangeRate, default_rate
from app.core.errors import LabGpuError
from app.core.gpumon import HostSample
from app.core.guards import (
    GuardConfig,
    GuardEvent,
    GuardStore,
    IdleRule,
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

STOPPED_STATES = ("stopping", "stopped", "stopped_billing", "terminating", "terminated")
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
                                              "still billing; stop it in the cloud console")
MSG_SYNC_FAILED = QT_TRANSLATE_NOOP("LabGPU", "{target}: pulling checkpoints before the stop failed: {why} — "
                                              "the stop goes ahead (a stopped instance keeps its disk)")
MSG_SPOT = QT_TRANSLATE_NOOP("LabGPU", "{target} will be reclaimed by the cloud at {when} ({action}): pulling "
                                      "checkpoints now; you can relaunch the same offer with one click")
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
class _TargetState:
    rule: IdleRule
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
            run_sync(host, p.local_path, p.remote_path, p.options(), paths=paths, store=ss, pair_id=p.id)
        return len(pairs)

    return sync


class Watcher:
    def __init__(self, paths: Paths | None = None, clock: Callable[[], float] = time.time,
                 notify: Callable[[GuardEvent], None] | None = None, *, store: Store | None = None,
                 stop_fn: StopFn | None = None, sync_fn: SyncFn | None = None,
                 rate: ExchangeRate | None = None, max_gap_s: float = 5.0, stop_retries: int = 3,
                 retry_delay_s: float = 5.0, sleep: Callable[[float], None] = time.sleep,
                 terminate_fn: TerminateFn | None = None) -> None:
        self.paths = paths or default_paths()
        self.clock = clock
        self.notify = notify
        self.store = store or Store(paths=self.paths)
        self.store.migrate()
        self.guards = GuardStore(self.store)
        self.ledger = Ledger(self.store)
        self.audit = AuditLog(self.store)
        self.rate = rate or default_rate()
        self.max_gap_s = max_gap_s
        self.stop_retries = stop_retries
        self.retry_delay_s = retry_delay_s
        self.sleep = sleep
        self._stop_fn = stop_fn
        self._terminate_fn = terminate_fn
        self._sync_fn = sync_fn
        self.lock = WatchLock(self.paths.data_dir / "watch.lock")
        self._states: dict[str, _TargetState] = {}
        self._mutex = threading.RLock()
        self._closed = threading.Event()
        self.events: list[GuardEvent] = []
        self._spot: dict[str, Any] = {}
        self._spot_price_at: dict[str, float] = {}
        self._sync_threads: list[threading.Thread] = []

    # lock ---------------------------------------------------------------------------------------
    def acquire(self) -> bool:
        """Become the one watcher that acts (False: another live process is)."""
        return self.lock.acquire()

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
            self._states[target_id] = st
        return st

    # samples ------------------------------------------------------------------------------------
    def on_sample(self, sample: HostSample) -> None:
        """Feed a monitor sample (the host name is the target id: instances are hosts named by id)."""
        cfg = self.guards.get(sample.host)
        if cfg is None:
            return
        with self._mutex:
            st = self._state(sample.host, cfg)
            st.rule.feed(sample, sample.time.timestamp())
            st.last_sample = sample

    # evaluation ---------------------------------------------------------------------------------
    def tick(self, now: float | None = None) -> list[GuardEvent]:
        """Evaluate every guard once; returns the events raised (also sent to ``notify``)."""
        t = self.clock() if now is None else now
        out: list[GuardEvent] = []
        for target_id, cfg in self.guards.all().items():
            try:
                out += self._tick_one(target_id, cfg, t)
            except Exception:  # noqa: BLE001 - one target's trouble must not stop the others
                log.exception("guard evaluation failed for %s", target_id)
        return out

    def _tick_one(self, target_id: str, cfg: GuardConfig, t: float) -> list[GuardEvent]:
        with self._mutex:
            st = self._state(target_id, cfg)
        cloud = self.is_cloud_instance(target_id)
        if st.stopped:
            entry = self.ledger.get(target_id) if cloud else None
            if entry is None or entry.state != "running" or st.stopped_at is None or \
                    entry.started_at is None or entry.started_at.timestamp() <= st.stopped_at:
                return []
            # started again since the guard stopped it: guard the new run from scratch
            st.stopped, st.idle_notified, st.budget_warned, st.process_seen = False, False, False, False
            if st.rule.idle_since is not None:  # idle time before this start does not count
                st.rule.idle_since = max(st.rule.idle_since, entry.started_at.timestamp())
        out: list[GuardEvent] = []
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
        if cloud:
            entry = self.ledger.get(target_id, now=datetime.fromtimestamp(t, timezone.utc))
            if entry is not None and entry.state == "running":
                cost = instance_cost(entry, datetime.fromtimestamp(t, timezone.utc), self.rate,
                                     budget=cfg.budget, budget_currency=cfg.currency)
                level = budget_level(cost.so_far, cost.budget)
                bparams = {"target": target_id, "spent": _money(cost.so_far), "budget": _money(cost.budget),
                           "cur": cost.currency,
                           "pct": round(100 * (cost.so_far or 0) / cost.budget) if cost.budget else 0}
                if level == "warn" and not st.budget_warned:
                    st.budget_warned = True
                    out.append(self._event(t, target_id, "budget-warn", MSG_BUDGET_WARN, bparams))
                elif level == "stop":
                    out += self._guard_stop(t, target_id, cfg, st, "budget-stop", MSG_BUDGET_STOP, bparams)
                if runtime_exceeded(entry.uptime_s, cfg.max_hours):
                    out += self._guard_stop(t, target_id, cfg, st, "max-runtime", MSG_MAX_RUNTIME,
                                            {"target": target_id, "hours": _num(cfg.max_hours or 0)})
        if cfg.stop_on_process_exit and st.last_sample is not None:
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

    def _guard_stop(self, t: float, target_id: str, cfg: GuardConfig, st: _TargetState, kind: str,
                    template: str, params: dict[str, Any]) -> list[GuardEvent]:
        if st.stopping or st.stopped:
            return []
        st.stopping = True
        out = [self._event(t, target_id, kind, template, params)]
        pulled: bool | None = None  # True: checkpoints pulled; False: the pull failed; None: nothing to pull
        try:
            if cfg.sync_before_stop:
                try:
                    if self.run_sync(target_id, "before-stop") == 0:
                        out.append(self._event(t, target_id, "sync-none", MSG_NO_PULL, {"target": target_id}))
                    else:
                        pulled = True
                except LabGpuError as exc:
                    pulled = False
                    out.append(self._event(t, target_id, "sync-failed", MSG_SYNC_FAILED,
                                           {"target": target_id, "why": exc.one_line()}))
                except Exception as exc:  # noqa: BLE001
                    pulled = False
                    out.append(self._event(t, target_id, "sync-failed", MSG_SYNC_FAILED,
                                           {"target": target_id, "why": f"{type(exc).__name__}: {exc}"}))
            ok, events, refused = self._stop_with_retries(target_id, kind)
            out += events
            if refused is not None:
                ok, events = self._end_unstoppable(target_id, kind, refused, pulled)
                out += events
                st.stopped = True  # terminated, or told once: never the refused stop again in a loop
                st.stopped_at = time.time() if ok else None
            else:
                st.stopped = ok
                if ok:
                    st.stopped_at = time.time()
        finally:
            st.stopping = False
        return out

    def run_sync(self, host: str, purpose: str) -> int | None:
        """Run the host's pull pairs; returns how many ran (0: none is set up; None: unknown)."""
        fn = self._sync_fn or default_sync(self.paths, self.store)
        self._audit("sync-" + purpose, host, "start")
        n = fn(host, purpose)
        self._audit("sync-" + purpose, host, "ok" if n != 0 else "ok (no pull pair)")
        return n

    def stop_instance(self, target_id: str, guard: str = "manual") -> bool:
        """Stop through the cloud layer with retries; True only when the cloud confirms."""
        ok, _events, _refused = self._stop_with_retries(target_id, guard)
        return ok

    def _stop_with_retries(self, target_id: str, guard: str) -> tuple[bool, list[GuardEvent], Any]:
        """(confirmed, events, the StopRefusedError when the cloud refuses the stop for good: no retry)."""
        from app.cloud.base import StopRefusedError

        fn = self._stop_fn or _cloud_stop(self.paths, self.store)
        why = ""
        tries = max(1, self.stop_retries)
        for i in range(tries):
            try:
                got = fn(target_id)
                if isinstance(got, tuple):
                    got = got[0]
                state = getattr(got, "state", "")
                if state in STOPPED_STATES:
                    self._audit("guard-stop", target_id, f"ok ({guard}, {state})")
                    ev = self._event(self.clock(), target_id, "stopped", MSG_STOPPED,
                                     {"target": target_id, "guard": guard}, {"state": state})
                    return True, [ev], None
                why = f"the cloud still reports {state or 'no state'}"
            except StopRefusedError as exc:
                reason = str(exc.params.get("reason") or exc.code)
                self._audit("guard-stop", target_id, f"refused ({guard}): {reason}", exc.one_line())
                return False, [], exc
            except LabGpuError as exc:
                why = exc.one_line()
            except Exception as exc:  # noqa: BLE001 - an SDK's own exception
                why = f"{type(exc).__name__}: {exc}"
            self._audit("guard-stop", target_id, f"failed try {i + 1}: {why}")
            if i < tries - 1:
                self.sleep(self.retry_delay_s)
        ev = self._event(self.clock(), target_id, "stop-failed", MSG_STOP_FAILED,
                         {"target": target_id, "tries": tries, "why": why})
        return False, [ev], None

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
                got = fn(target_id, audit_reason)
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

    def spot_notice(self, target_id: str, notice: Any, wait: bool = False) -> GuardEvent:
        """A spot notice arrived: notify, start the host's "on interruption" sync at once (own thread)."""
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

        t = threading.Thread(target=pull, name=f"spot-sync-{target_id}", daemon=True)
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
            sw = SpotWatch(e.id, e.provider, lambda iid=e.id: connect(iid),
                           lambda n, iid=e.id: self.spot_notice(iid, n),
                           on_problem=lambda text, iid=e.id: log.warning("spot watch %s: %s", iid, text),
                           interval_s=interval_s)
            self._spot[e.id] = sw.start()
            started.append(sw)
        return started

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
                    except Exception:  # noqa: BLE001
                        log.exception("could not start watching new targets")
                self.tick()
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


def _num(v: float) -> str:
    return f"{float(v):g}"


def _money(v: float | None) -> str:
    from app.core.currency import money_text

    return money_text(v, "", 2).strip()  # the message names the currency itself
