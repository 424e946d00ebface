"""The watcher's building blocks: its limits, a target's state and stop episode, the worker thread
per target, and the default cloud and sync calls (app/watch/watcher.py puts them together)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from app.core.gpumon import HostSample
from app.core.guards import (
    GuardEvent,
    GuardStore,
    IdleRule,
)
from app.core.instances import Ledger
from app.core.paths import Paths
from app.core.store import Store
from app.core.vocab import STOPPED_STATES as STOPPED

log = logging.getLogger(__name__)

STOPPED_STATES = STOPPED
TARGET_DEADLINE_S = 30.0  # the longest one cloud call of one target is waited for
STOP_BACKOFF_S = 15.0  # after a failed round of stop calls, the next round waits this long, doubled each time…
STOP_BACKOFF_CAP_S = 300.0  # …up to five minutes
BLIND_SILENCE_S = 15.0  # no sample for this long (after samples came): the link dropped
RATE_RELOAD_S = 5.0  # the student's exchange rate (Settings) is re-read this often
WINDOW_SAVE_S = 5.0  # the idle window reached is written to the store this often (and on every change)
SPOT_PRICE_REFRESH_S = 1800.0  # re-read a running spot instance's zone price every 30 min

StopFn = Callable[[str], Any]  # instance id → LedgerEntry-like (with .state) after the stop call
TerminateFn = Callable[[str, str], Any]  # (instance id, audit reason) → LedgerEntry-like after the terminate call
# (host name, purpose "before-stop"|"on-interruption") → number of sync pairs run (None: unknown); raises on failure
SyncFn = Callable[[str, str], "int | None"]


@dataclass
class Episode:
    """One stop that the guard wants and the cloud has not confirmed yet."""

    guard: str
    started: float
    rounds: int = 0
    next_try: float = 0.0
    pulled: bool | None = None  # True: pulled; False: the pull failed; None: nothing to pull
    escalated: bool = False
    terminate: bool = False  # the episode ends the instance by termination (a job's "pull-and-terminate")


@dataclass
class TargetState:
    rule: IdleRule
    episode: Episode | None = None
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
    """The host's "before stop"/"on interruption" pull: every saved pair of that host that pulls, each
    verified (sha256 on both sides: the last copy before the disk goes) and through the process's
    sync job registry, so it waits for a sync of the same pair that is running instead of running
    beside it (app.usecases.sync.pull_for_guard; imported here, when a pull happens)."""

    def sync(host: str, purpose: str) -> int:
        from app.usecases.sync import pull_for_guard

        return pull_for_guard(paths, store, host, purpose)

    return sync


class Worker:
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


def cloud_stop(paths: Paths, store: Store) -> StopFn:
    def stop(instance_id: str) -> Any:
        from app.cloud.launch import CloudService

        entry, _note = CloudService(paths, store).stop(instance_id)
        return entry

    return stop


def cloud_terminate(paths: Paths, store: Store) -> TerminateFn:
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


def bind_connect(connect: Callable[[str], Any], target_id: str) -> Callable[[], Any]:
    return lambda: connect(target_id)


def problem_logger(target_id: str) -> Callable[[str], None]:
    def problem(text: str) -> None:
        log.warning("spot watch %s: %s", target_id, text)

    return problem


def num_text(v: float) -> str:
    return f"{float(v):g}"


def money_plain(v: float | None) -> str:
    from app.core.currency import money_text

    return money_text(v, "", 2).strip()  # the message names the currency itself


class WatcherBase:
    """What the Watcher's halves (stopping.StopEpisodes, oninstance.OnInstance, watcher.Watcher) share:
    Watcher.__init__ sets every attribute, Watcher defines the methods."""

    paths: Paths
    store: Store
    ledger: Ledger
    guards: GuardStore
    clock: Callable[[], float]
    sleep: Callable[[float], None]
    stop_retries: int
    retry_delay_s: float
    target_deadline_s: float
    stop_backoff_s: float
    stop_backoff_cap_s: float
    _stop_fn: StopFn | None
    _terminate_fn: TerminateFn | None
    _sync_fn: SyncFn | None
    _mutex: Any  # threading.RLock
    _spot: dict[str, Any]
    _spot_pulls: dict[str, threading.Thread]
    _spot_seen: dict[str, set[str]]
    _spot_price_at: dict[str, float]
    _watchdog_seen: dict[str, tuple[str, str]]
    _settled: set[tuple[str, str]]
    _sync_threads: list[threading.Thread]

    def _event(self, t: float, target_id: str, kind: str, template: str, params: dict[str, Any],
               detail: dict[str, Any] | None = None) -> GuardEvent:
        raise NotImplementedError

    def _audit(self, action: str, target: str, result: str, detail: str = "") -> None:
        raise NotImplementedError

    def relaunch_options(self, target_id: str) -> dict[str, Any]:
        raise NotImplementedError

    def run_sync(self, host: str, purpose: str) -> int | None:
        raise NotImplementedError

    def start_recovery(self, target_id: str, notice_time: Any, wait: bool = False) -> threading.Thread | None:
        raise NotImplementedError  # app/watch/recovery.py
