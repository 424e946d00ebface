"""Waiting for a GPU (蹲卡): a launch retried while its type is sold out, until it lands, the deadline
passes or the price goes over the cap — written once for ``labgpu launch --wait`` (the CLI drives the wait
in the foreground), the launch dialog's "keep trying" option and the watcher (window, tray, ``labgpu
watch``: app/watch/waits.py drives the stored waits nobody else drives).

Each round tries the wait's *candidates* in order: the requested account and type (in the allowed zones,
else every zone of its region, as app.usecases.launch does), then, when other clouds are allowed, each
account of those clouds with the catalog's type of the same GPU model and count. Only a sold-out answer
(:data:`SOLD_OUT_CODES`, the capacity codes of the plugins' error tables) or the cloud's throttling moves
on and waits; any other error ends the wait at once with its own sentence. A spot maximum under the
market price, or an on-demand price over the cap, ends it too: the price is over the student's cap.

Never two instances: each attempt has its own client token, stored with the wait *before* the launch is
sent; an attempt cut short (a network error, a crash, an app restart) is retried with that same token,
and the cloud answers with the instance it already made (CloudService.launch looks the token up first).
One waiter per wait: the lease in app.core.launchwaits.

Backoff between rounds: 15 s doubling to at most 5 minutes, with jitter (each delay drawn between half and
all of it), so many students' waits do not hit the API in step. That stays far inside each cloud's
documented request limits for RunInstances: Tencent Cloud 10 requests/second per API, region and
sub-account (CVM API overview, https://www.tencentcloud.com/document/product/213/568); AWS EC2's resource
token bucket of 1000 refilled at 2 per second (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/
throttling.html); Alibaba Cloud's per-API flow control of ECS (a few calls per second and more;
https://help.aliyun.com/zh/ecs/developer-reference/api-throttling). A round sends at most one RunInstances
per zone of each candidate.

Blocking (keyring, network): call it from a worker thread.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.cloud.base import CapacityError, PriceTooLowError, ThrottledError
from app.cloud.errors import NetworkError
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions, LaunchResult, new_client_token
from app.core.currency import convert, effective_rate
from app.core.errors import InputError, LabGpuError
from app.core.guards import GuardConfig
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.launchwaits import CANCELLED, GAVE_UP, LANDED, WAITING, LaunchWait, LaunchWaits, new_owner
from app.core.settings import Settings
from app.core.units import duration_seconds
from app.core.vocab import GuardEventKind
from app.usecases.changes import NO_CHANGES, Changes
from app.usecases.launch import LaunchOutcome, launch, plan_launch

log = logging.getLogger(__name__)

BACKOFF_FIRST_S = float(os.environ.get("LABGPU_WAIT_BACKOFF_S", "15"))  # tests of the CLI shorten it
BACKOFF_MAX_S = 300.0
LEASE_S = 120.0  # a waiter renews its lease each round; a dead one's wait is taken over after this

# The codes that mean "sold out here, now" (stock may come back), from the plugins' error tables:
# app/cloud/tencent/errors.py (cvm/v20170312/errorcodes.py), app/cloud/alibaba/errors.py (NO_STOCK), and
# AWS's InsufficientInstanceCapacity; a newer plugin marks its stock-out CapacityError retryable instead (see
# is_sold_out). Other capacity codes (a zone that does not sell the type) end the wait.
SOLD_OUT_CODES = frozenset({
    "ResourceInsufficient.SpecifiedInstanceType",
    "ResourceInsufficient.ZoneSoldOutForSpecifiedInstance",
    "ResourcesSoldOut.SpecifiedInstanceType",
    "ResourcesSoldOut.AvailableZone",
    "ResourceInsufficient.AvailabilityZoneSoldOut",
    "ResourceInsufficient.CloudDiskSoldOut",
    "InvalidParameter.InvalidCloudDiskSoldOut",
    "ResourcesSoldOut.EipInsufficient",
    "OperationDenied.NoStock",
    "ResourceNotAvailable",
    "NodeControllerUnavailable",
    "InsufficientInstanceCapacity",
    "InsufficientHostCapacity",
})

MSG_SOLD_OUT = QT_TRANSLATE_NOOP("LabGPU", "Attempt {n}: still sold out ({why}). Next try at {at}.")
MSG_LANDED = QT_TRANSLATE_NOOP("LabGPU", "{type} landed as {id} in {zone} after {n} attempts.")
MSG_DEADLINE = QT_TRANSLATE_NOOP("LabGPU", "Gave up waiting for {type}: the deadline passed after {n} attempts "
                                            "and it stayed sold out.")
MSG_PRICE = QT_TRANSLATE_NOOP("LabGPU", "Gave up waiting for {type}: its price {price} per hour is over your "
                                         "cap of {cap}.")
MSG_ERROR = QT_TRANSLATE_NOOP("LabGPU", "Gave up waiting for {type}: {why}")
MSG_CANCELLED = QT_TRANSLATE_NOOP("LabGPU", "Cancelled.")
MSG_NO_WAIT = QT_TRANSLATE_NOOP("LabGPU", "There is no waiting launch {id}.")
HINT_NO_WAIT = QT_TRANSLATE_NOOP("LabGPU", "See the waits with 'labgpu waits'.")
MSG_STOPPED = QT_TRANSLATE_NOOP("LabGPU", "You stopped waiting for {type}; nothing was launched.")
HINT_ENDED = QT_TRANSLATE_NOOP("LabGPU", "Try again later, with a later --until, more --zones or --clouds, or a "
                                         "higher --max-price.")
MSG_BAD_DURATION = QT_TRANSLATE_NOOP("LabGPU", "{text!r} is not a duration.")
HINT_BAD_DURATION = QT_TRANSLATE_NOOP("LabGPU", "Write it as a number and a unit, e.g. 6h, 90m, 1h30m or 2d.")

Announce = Callable[[str, str, str, dict[str, Any]], None]  # (kind, wait id, sentence, params)
Progress = Callable[[str], None]

def parse_duration(text: str) -> float:
    """``6h``, ``4m``, ``1h30m``, ``2d`` → seconds (InputError with an example otherwise)."""
    seconds = duration_seconds(text)
    if seconds is None:
        raise InputError(MSG_BAD_DURATION, HINT_BAD_DURATION, code="BadDuration", text=text[:40])
    return seconds


def ended_error(w: LaunchWait) -> LabGpuError:
    """Why a wait ended without an instance, as the error the CLI and the dialog show."""
    if w.state == CANCELLED:
        return LabGpuError(MSG_STOPPED, code="WaitCancelled", type=w.instance_type)
    return LabGpuError("{why}", HINT_ENDED, code="WaitEnded", why=w.detail)


def backoff_s(attempt: int, rng: random.Random) -> float:
    """The pause after ``attempt`` refused rounds (1, 2, …): 15 s doubling to 5 min, jittered (½ to 1×)."""
    full = min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** max(0, min(attempt - 1, 10)))
    return rng.uniform(full / 2, full)


def is_sold_out(exc: BaseException) -> bool:
    """Throttling, or a capacity refusal that may clear: one of SOLD_OUT_CODES, or one its plugin marks
    retryable (a stock-out that comes back, as Google Cloud's ZONE_RESOURCE_POOL_EXHAUSTED or Lambda's
    insufficient-capacity); a zone that does not sell the type is neither and ends the wait."""
    if isinstance(exc, ThrottledError):
        return True
    return isinstance(exc, CapacityError) and (exc.code in SOLD_OUT_CODES or exc.retryable)


def request_of(opts: LaunchOptions) -> dict[str, Any]:
    """The stored form of a launch request (what a restarted waiter launches)."""
    doc = {f.name: getattr(opts, f.name) for f in dataclasses.fields(LaunchOptions)
           if f.name not in ("client_token", "spot_cap", "price_source", "zones", "guard", "wait")}
    doc["guard"] = opts.guard.to_json() if opts.guard is not None else None
    return doc


def options_of(request: dict[str, Any]) -> LaunchOptions:
    names = {f.name for f in dataclasses.fields(LaunchOptions)}
    kw = {k: v for k, v in request.items() if k in names and k != "guard"}
    guard = request.get("guard")
    return LaunchOptions(**kw, guard=GuardConfig.from_json(guard) if guard else None)


@dataclass(frozen=True)
class Candidate:
    account: str
    instance_type: str
    region: str
    currency: str = ""


@dataclass(frozen=True)
class StepOutcome:
    wait: LaunchWait  # as stored after the step
    launched: LaunchOutcome | None = None  # the launch (and its guard), when it landed in this step
    acted: bool = False  # this step tried (False: not due, or another waiter holds it)

    @property
    def result(self) -> LaunchResult | None:
        return self.launched.result if self.launched is not None else None


class WaitLauncher:
    """Drives stored waits: :meth:`step` once (the watcher), :meth:`run` until it ends (the CLI)."""

    def __init__(self, svc: CloudService, settings: Settings, *, clock: Callable[[], float] = time.time,
                 rng: random.Random | None = None, announce: Announce | None = None,
                 changes: Changes = NO_CHANGES, owner: str = "",
                 launch_fn: Callable[..., Any] = launch,
                 launch_progress: Callable[[str, str], None] | None = None) -> None:
        self.svc = svc
        self.settings = settings
        self.waits = LaunchWaits(svc.store)
        self.clock = clock
        self.rng = rng or random.Random()
        self.announce = announce
        self.changes = changes
        self.owner = owner or new_owner()
        self._launch = launch_fn
        self.launch_progress = launch_progress  # each attempt's launch steps (the dialog's list, the CLI)

    # -- creating ---------------------------------------------------------------------------------
    def create(self, opts: LaunchOptions, *, until_s: float, max_price: float | None = None,
               zones: list[str] | None = None, clouds: list[str] | None = None, hold: bool = False) -> LaunchWait:
        """Store a wait (checked first: the account exists, the clouds are known); ``hold``: this waiter
        drives it (the CLI in the foreground), else the watcher does (the launch dialog)."""
        account = self.svc.accounts.get(opts.account)  # InputError for an unknown account
        others = [c for c in (clouds or []) if c != account.provider]
        from app.core import providers

        unknown = [c for c in others if c not in providers.launchable_ids()]
        if unknown:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "LabGPU cannot launch on {cloud}."),
                QT_TRANSLATE_NOOP("LabGPU", "Use one of: {clouds}."),
                code="UnknownCloud", cloud=unknown[0][:40], clouds=", ".join(providers.launchable_ids()))
        now = self.clock()
        if max_price is not None and opts.spot and opts.max_price is None:
            opts = dataclasses.replace(opts, max_price=max_price)  # a spot launch bids the cap
        return self.waits.add(request_of(opts), deadline=now + until_s, now=now, max_price=max_price,
                              zones=list(zones or []), clouds=others, owner=self.owner if hold else "",
                              lease_s=LEASE_S)

    def cancel(self, wid: str) -> LaunchWait:
        w = self.waits.get(wid)
        if w is None or w.state != WAITING:
            raise InputError(MSG_NO_WAIT, HINT_NO_WAIT, code="NoSuchWait", id=wid[:40])
        self.waits.end(wid, CANCELLED, detail=translate(MSG_CANCELLED), now=self.clock())
        got = self.waits.get(wid)
        assert got is not None
        return got

    # -- driving ----------------------------------------------------------------------------------
    def step(self, wid: str, progress: Progress | None = None) -> StepOutcome:
        """One round when the wait is due and this waiter holds it (or can take it)."""
        w = self.waits.get(wid)
        if w is None:
            raise InputError(MSG_NO_WAIT, HINT_NO_WAIT, code="NoSuchWait", id=wid[:40])
        now = self.clock()
        if w.state != WAITING or not self.waits.claim(wid, self.owner, now, LEASE_S):
            return StepOutcome(w)
        # past the deadline: over, unless an attempt cut short is still being confirmed (its token is sent again
        # once more, so an instance it made is found and recorded); a cloud unreachable since then ends it too
        if now >= w.deadline and (not w.token or now >= w.deadline + LEASE_S):
            return self._end(w, GAVE_UP, translate(MSG_DEADLINE).format(type=w.instance_type, n=w.attempts),
                             GuardEventKind.WAIT_GAVE_UP)
        if now < w.next_try:
            return StepOutcome(w)
        return self._round(w, progress)

    def run(self, wid: str, *, sleep: Callable[[float], None] = time.sleep,
            progress: Progress | None = None, stop: Callable[[], bool] | None = None) -> StepOutcome:
        """Drive the wait until it ends (landed, gave up, cancelled) or ``stop()`` says so; the lease is
        dropped on the way out, so the watcher takes over a wait this process leaves."""
        try:
            while True:
                out = self.step(wid, progress)
                if out.wait.state != WAITING:
                    return out
                if stop is not None and stop():
                    return out
                now = self.clock()
                mine = out.wait.owner == self.owner
                due = (out.wait.next_try if out.wait.token else min(out.wait.next_try, out.wait.deadline)) if mine \
                    else now + 5.0
                sleep(max(min(1.0, BACKOFF_FIRST_S), min(due - now, LEASE_S / 3)))
        finally:
            self.waits.release(wid, self.owner)

    def _round(self, w: LaunchWait, progress: Progress | None) -> StepOutcome:
        opts = options_of(w.request)
        rate = effective_rate(self.settings)
        over: tuple[float, str] | None = None
        why = ""
        cands = self._candidates(w, opts)
        home = cands[0].currency  # the cap is in the launch account's billing currency
        for cand in cands:
            copts = dataclasses.replace(opts, account=cand.account, instance_type=cand.instance_type,
                                        region=cand.region, zone="")
            try:
                plan = plan_launch(self.svc, self.settings, cand.account, cand.instance_type, region=cand.region,
                                   zones=self._zones(w, cand) or None, list_zones=bool(w.zones))
                cap = w.max_price
                if cap is not None and home and plan.currency and home != plan.currency:
                    cap = convert(cap, home, plan.currency, rate)
                if cap is not None and not opts.spot and plan.on_demand is not None and plan.on_demand > cap:
                    over = (plan.on_demand, plan.currency)
                    continue
                if cap is not None and opts.spot:
                    copts = dataclasses.replace(copts, max_price=cap)
                token = self._token(w, cand)
                copts = dataclasses.replace(copts, client_token=token)
                result = self._launch(self.svc, self.settings, copts, guard=opts.guard, plan=plan,
                                      changes=self.changes, progress=self._renewing(w.id))
            except PriceTooLowError as exc:
                over = (float(exc.params.get("spot_price") or 0.0), plan.currency)
                log.info("wait %s: %s over the cap: %s", w.id, cand, exc.one_line())
                self._spent(w)
                continue
            except NetworkError as exc:
                # the attempt may have reached the cloud: the same token is sent again next round
                why = exc.one_line()
                log.info("wait %s: ambiguous attempt, retried with the same token: %s", w.id, why)
                return self._later(w, why, spent=False)
            except LabGpuError as exc:
                if is_sold_out(exc):
                    why = exc.text().rstrip(" .。")  # it goes inside the sentence's brackets
                    self._spent(w)
                    continue
                return self._end(w, GAVE_UP, translate(MSG_ERROR).format(type=w.instance_type, why=exc.one_line()),
                                 GuardEventKind.WAIT_GAVE_UP, attempted=True)
            entry = result.result.entry
            text = translate(MSG_LANDED).format(type=entry.instance_type, id=entry.id,
                                                zone=entry.zone or entry.region, n=w.attempts + 1)
            return self._end(w, LANDED, text, GuardEventKind.WAIT_LANDED, instance_id=entry.id,
                             attempted=True, launched=result)
        if not why and over is not None:
            price = f"{over[0]:.4f} {over[1]}".strip()
            cap_text = f"{w.max_price:g}"
            return self._end(w, GAVE_UP, translate(MSG_PRICE).format(type=w.instance_type, price=price,
                                                                       cap=cap_text),
                             GuardEventKind.WAIT_GAVE_UP, attempted=True)
        out = self._later(w, why)
        if progress is not None:
            progress(out.wait.detail)
        return out

    def _renewing(self, wid: str) -> Callable[[str, str], None]:
        """The launch's progress renews this waiter's lease (a launch can take minutes to come up)."""

        def renew(step: str, message: str = "") -> None:
            self.waits.claim(wid, self.owner, self.clock(), LEASE_S)
            if self.launch_progress is not None:
                self.launch_progress(step, message)

        return renew

    def _token(self, w: LaunchWait, cand: Candidate) -> str:
        """The attempt's client token, stored before the launch is sent: the stored one when the last
        attempt with this candidate was cut short, else a new one."""
        stored = w.token.split(" ", 1)
        key = f"{cand.account}/{cand.region}/{cand.instance_type}"
        if len(stored) == 2 and stored[0] == key:
            return stored[1]
        token = new_client_token()
        self.waits.begin_attempt(w.id, f"{key} {token}", self.clock())
        return token

    def _spent(self, w: LaunchWait) -> None:
        self.waits.begin_attempt(w.id, "", self.clock())  # refused: that token made nothing

    def _later(self, w: LaunchWait, why: str, spent: bool = True) -> StepOutcome:
        now = self.clock()
        delay = backoff_s(w.attempts + 1, self.rng)
        next_try = min(now + delay, w.deadline)
        at = time.strftime("%H:%M:%S", time.localtime(next_try))
        detail = translate(MSG_SOLD_OUT).format(n=w.attempts + 1, why=why, at=at)
        if spent:
            self.waits.retry_later(w.id, next_try=next_try, detail=detail, now=now)
        else:
            self.waits.retry_same(w.id, next_try=now + BACKOFF_FIRST_S, detail=why, now=now)
        got = self.waits.get(w.id)
        assert got is not None
        return StepOutcome(got, acted=True)

    def _end(self, w: LaunchWait, state: str, text: str, kind: str, *, instance_id: str = "",
             attempted: bool = False, launched: LaunchOutcome | None = None) -> StepOutcome:
        first = self.waits.end(w.id, state, detail=text, now=self.clock(), instance_id=instance_id,
                               attempted=attempted)
        got = self.waits.get(w.id)
        assert got is not None
        if first and self.announce is not None:
            try:
                self.announce(kind, w.id, text, {"type": w.instance_type, "id": instance_id, "why": text,
                                                 "attempts": got.attempts})
            except Exception:  # noqa: BLE001 - a notice never changes what happened
                log.exception("wait notice failed")
        return StepOutcome(got, launched, acted=True)

    # -- where to try -----------------------------------------------------------------------------
    def _zones(self, w: LaunchWait, cand: Candidate) -> list[str]:
        return [z for z in w.zones if z.startswith(cand.region)]

    def _candidates(self, w: LaunchWait, opts: LaunchOptions) -> list[Candidate]:
        base = self.svc.accounts.get(opts.account)
        region = opts.region or base.region
        out = [Candidate(base.name, opts.instance_type, region, self.svc.billing_currency(
            dataclasses.replace(base, region=region)))]
        if not w.clouds:
            return out
        from app.core.catalog import load_catalog

        offers = load_catalog(self.svc.paths).offers
        mine = next((o for o in offers if o.provider == base.provider and o.instance_type == opts.instance_type),
                    None)
        if mine is None:
            log.info("wait %s: %s is not in the catalog; other clouds are not tried", w.id, opts.instance_type)
            return out
        for acc in self.svc.accounts.list():
            if acc.provider not in w.clouds:
                continue
            same = [o for o in offers if o.provider == acc.provider and o.gpu_model == mine.gpu_model
                    and o.gpu_count == mine.gpu_count]
            same.sort(key=lambda o: (o.region != acc.region, o.price_on_demand or float("inf")))
            if same:
                out.append(Candidate(acc.name, same[0].instance_type, same[0].region,
                                     same[0].currency or ""))
        return out


def notify_announce(paths: Any) -> Announce:
    """The notices away from the laptop (app.notify: mail, WeChat, ntfy, …) for a wait that ends: queued,
    never raising. The watcher sends its own through its events instead."""
    from app.notify.dispatch import notifier_for

    notifier = notifier_for(paths)

    def announce(kind: str, wid: str, text: str, params: dict[str, Any]) -> None:
        notifier.notify(kind, params, target=wid, message=text)

    return announce
