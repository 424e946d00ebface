"""Launching a GPU instance, written once: the launch dialog, `labgpu launch` and the watcher's relaunch.

:func:`plan_launch` works out what a launch uses for what the student left empty, once, from the
Settings object it is given: the region, the zone, the region's zones for the type (listed once, and
the same list is the one the launch tries on a capacity error), the on-demand price (looked up once,
live cache then catalog, or the offer's price the student saw) and the default spot maximum (the
settings' ``spot_bid_fraction`` of it). :func:`launch` sends it through ``CloudService.launch`` with
the guard chosen for the instance recorded with the pending launch (a crash between "instance created"
and "guard saved" leaves the guard for the recovery to apply), then saves the guard and installs the
on-instance watchdog in the same workflow (``app.usecases.guards.set_guard``), once the instance
answers over SSH. When it does not answer in ``REACH_TIMEOUT_S``, the guard is saved without its
watchdog and the outcome says why. Emits Change.LEDGER (and Change.GUARDS through set_guard).

Blocking (keyring, network, SSH): call it from a worker thread.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.cloud.base import Account
from app.cloud.launch import CloudService, ProgressCallback
from app.cloud.launch_plan import LaunchOptions, LaunchResult
from app.core.errors import LabGpuError
from app.core.guards import GuardConfig
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.launch_defaults import SpotCap, launch_defaults, spot_cap
from app.core.models import Offer
from app.core.settings import Settings
from app.core.vocab import InstanceState, LaunchStep
from app.usecases.changes import NO_CHANGES, Change, Changes
from app.usecases.guards import GuardOutcome, connect_target, set_guard

if TYPE_CHECKING:  # paramiko comes with the first connection to the instance (connect_target)
    from app.remote.ssh import Connection

log = logging.getLogger(__name__)

GUARD_STEP = LaunchStep.GUARD  # the progress step after the launch's own: guard and watchdog
REACH_TIMEOUT_S = float(os.environ.get("LABGPU_WATCHDOG_REACH_S", "180"))  # a fresh instance's SSH coming up
OFFER_SOURCE = "offer"  # price_source of the on-demand price the student saw on the offer

MSG_GUARD_SAVING = QT_TRANSLATE_NOOP("LabGPU", "Saving the guards of {id}…")
MSG_GUARD_SAVED = QT_TRANSLATE_NOOP("LabGPU", "Guards of {id} saved.")
MSG_REACHING = QT_TRANSLATE_NOOP("LabGPU", "Waiting for {id} to answer over SSH to install the watchdog…")
MSG_NOT_REACHED = QT_TRANSLATE_NOOP("LabGPU", "{id} did not answer over SSH within {seconds} s ({why})")
MSG_NOT_RUNNING = QT_TRANSLATE_NOOP("LabGPU", "{id} is not running with an address yet")

ConnectTo = Callable[[str], "Connection"]


@dataclass(frozen=True)
class LaunchPlan:
    """What a launch uses for what was left empty, worked out once (by :func:`plan_launch`)."""

    account: Account  # in the region the launch uses
    instance_type: str
    zone: str  # "" = any zone
    zones: tuple[str, ...] | None  # the region's zones for the type (() = the cloud picks); None: not listed yet
    zones_error: LabGpuError | None  # why they could not be listed (the launch then lists them itself)
    currency: str  # the account's billing currency: the price and the cap are in it
    on_demand: float | None  # per hour; None: not known
    price_source: str  # "live", "catalog", OFFER_SOURCE
    fraction: float  # the settings' share of on-demand for the default spot maximum
    default_cap: SpotCap | None  # fraction × on_demand (None: on-demand unknown)

    def cap(self, spot: bool, max_price: float | None = None) -> SpotCap | None:
        """The spot maximum a launch sends: the student's own (InputError unless more than 0), else
        the default share; None for on-demand."""
        if max_price is not None:
            return spot_cap(self.on_demand, self.fraction, max_price)
        return self.default_cap if spot else None


@dataclass(frozen=True)
class LaunchOutcome:
    result: LaunchResult
    guard: GuardOutcome | None  # None: launched without a guard


def plan_launch(svc: CloudService, settings: Settings, account_name: str, instance_type: str, *,
                region: str = "", zone: str = "", offer: Offer | None = None,
                zones: Sequence[str] | None = None, list_zones: bool = True) -> LaunchPlan:
    """The launch's defaults: ``zones`` given (the list the dialog shows) are reused, not listed again;
    ``list_zones`` False leaves the listing to the launch itself, after its checks (a refused SSH key, an
    unknown SSH source), so that nothing reaches the cloud before them."""
    base = svc.accounts.get(account_name)
    defaults = launch_defaults(base.region, spot=False, region=region, zone=zone)
    account = dataclasses.replace(base, region=defaults.region) if defaults.region != base.region else base
    currency = svc.billing_currency(account)
    od, source = svc.on_demand_price(account, instance_type)
    # The offer the student chose carries the price they saw; only a live price is fresher than it.
    if (offer is not None and offer.price_on_demand is not None and offer.instance_type == instance_type
            and source != "live" and (offer.currency or currency) == currency):
        od, source = offer.price_on_demand, OFFER_SOURCE
    listed: tuple[str, ...] | None = tuple(zones) if zones is not None else None
    error: LabGpuError | None = None
    if listed is None and list_zones:
        try:
            listed = tuple(svc.zones(account, instance_type))
        except LabGpuError as exc:
            error = exc
    fraction = float(settings.spot_bid_fraction)
    return LaunchPlan(account, instance_type, defaults.zone, listed, error, currency, od, source, fraction,
                      spot_cap(od, fraction))


def launch(svc: CloudService, settings: Settings, opts: LaunchOptions, *, guard: GuardConfig | None,
           plan: LaunchPlan | None = None, progress: ProgressCallback | None = None,
           changes: Changes = NO_CHANGES, connect: ConnectTo | None = None,
           reach_timeout_s: float | None = None) -> LaunchOutcome:
    """Launch ``opts`` with ``plan`` (worked out here when None or made for another account, type or
    region), then give the instance ``guard`` (None: no guard). InputError before anything is sent for
    a guard or a cap that cannot work."""
    if guard is not None:
        guard = dataclasses.replace(guard).validate()
    if (plan is None or plan.account.name != opts.account or plan.instance_type != opts.instance_type
            or (opts.region and opts.region != plan.account.region)):
        plan = plan_launch(svc, settings, opts.account, opts.instance_type, region=opts.region, zone=opts.zone,
                           list_zones=False)
    cap = plan.cap(opts.spot, opts.max_price)
    sent = dataclasses.replace(
        opts, region=plan.account.region,
        spot_cap=cap if opts.max_price is None else None, price_source=plan.price_source,
        zones=plan.zones, guard=guard)
    try:
        result = svc.launch(sent, progress=progress)
    finally:
        changes.emit(Change.LEDGER)  # sent, found or refused: the pending launch and the ledger changed
    if guard is None:
        return LaunchOutcome(result, None)
    outcome = guard_new_instance(svc, result, guard, progress=progress, changes=changes, connect=connect,
                                 reach_timeout_s=REACH_TIMEOUT_S if reach_timeout_s is None else reach_timeout_s)
    return LaunchOutcome(result, outcome)


def guard_new_instance(svc: CloudService, result: LaunchResult, guard: GuardConfig, *,
                       progress: ProgressCallback | None = None, changes: Changes = NO_CHANGES,
                       connect: ConnectTo | None = None, reach_timeout_s: float = REACH_TIMEOUT_S,
                       sleep: Callable[[float], None] = time.sleep,
                       clock: Callable[[], float] = time.monotonic) -> GuardOutcome:
    """Save ``guard`` for the launched instance and, when it asks for the watchdog, install it once the
    instance answers over SSH; marks the guard recorded with the pending launch as applied."""
    entry = result.entry

    def report(step: str, message: str = "") -> None:
        if progress is not None:
            progress(step, message)

    report(GUARD_STEP, translate(MSG_GUARD_SAVING).format(id=entry.id))
    cfg = guard
    opener = connect or (lambda target: connect_target(svc.paths, target)())
    conn: Connection | None = None
    why: LabGpuError | None = None
    if cfg.watchdog:
        if entry.state != InstanceState.RUNNING or not (entry.public_ip or entry.private_ip):
            why = LabGpuError(MSG_NOT_RUNNING, id=entry.id)
        else:
            report(GUARD_STEP, translate(MSG_REACHING).format(id=entry.id))
            conn, why = _reach(lambda: opener(entry.id), entry.id, reach_timeout_s, sleep, clock)

    def handed() -> Connection:
        if conn is None:
            raise why or LabGpuError(MSG_NOT_RUNNING, id=entry.id)
        return conn

    outcome = set_guard(svc.paths, svc.store, entry.id, cfg, connect=handed, changes=changes)
    svc.pending.guard_applied(result.client_token)
    # the step ends on what happened: the watchdog's outcome when there is one, else that the guards are saved
    report(GUARD_STEP, outcome.text() or translate(MSG_GUARD_SAVED).format(id=entry.id))
    return outcome


def _reach(open_one: Callable[[], Connection], target: str, timeout_s: float, sleep: Callable[[float], None],
           clock: Callable[[], float]) -> tuple[Connection | None, LabGpuError | None]:
    """An SSH connection to a fresh instance, tried until ``timeout_s`` (its sshd and its console
    fingerprints take a while after "running"); (None, why) when it never answered."""
    end = clock() + timeout_s
    delay = 2.0
    while True:
        try:
            return open_one(), None
        except (LabGpuError, OSError) as exc:
            last = exc
            log.info("%s not reachable yet: %s", target, exc)
        if clock() + delay > end:
            detail = last.one_line() if isinstance(last, LabGpuError) else (str(last) or type(last).__name__)
            return None, LabGpuError(MSG_NOT_REACHED, id=target, seconds=f"{timeout_s:g}", why=detail)
        sleep(delay)
        delay = min(delay * 1.5, 15.0)

