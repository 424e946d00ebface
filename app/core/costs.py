"""Billing rules per provider, the running cost of an instance, and estimates for a planned run.

A student is billed for every second the rules say, not for the seconds they think they used: a
30-second AWS test is billed as 60 seconds, a Lambda run is billed in whole minutes. So every cost
here goes through ``billed_seconds`` first. A price the catalog does not know stays unknown (None)
all the way to the screen; it is never computed as 0.

Sources for the rules (checked late 2026; each rule also carries its URL for the UI):
- AWS EC2 On-Demand, Linux: per second with a 60-second minimum per start
  (https://aws.amazon.com/ec2/pricing/on-demand/ ; Windows and some marketplace images bill hourly).
- Google Compute Engine: per second after a one-minute minimum, announced 2017-09-26
  (https://cloud.google.com/compute/vm-instance-pricing ; itnews.com.au report of the announcement).
- Azure VMs: "pay for compute capacity by the second" (https://azure.microsoft.com/pricing/details/
  virtual-machines/linux/); a minimum is not stated by Microsoft's page, so none is applied.
- Tencent Cloud CVM pay-as-you-go (按量计费): per second, settled hourly, as Tencent's CVM
  billing-mode page (https://cloud.tencent.com/document/product/213/2180) says.
- Alibaba Cloud ECS pay-as-you-go (按量付费): per second, a bill every hour (按秒计费，按小时出账), as
  Alibaba's ECI billing page states for ECS-type instances (mirror m.bestwisewords.com/zh/eci/
  product-overview/elastic-container-instances) and ECS guides repeat (blog.zestb.com/article/65996).
- Huawei Cloud ECS pay-per-use (按需计费): per-second billing, a bill every hour, from Huawei's ECS
  user guide "选择弹性云服务器计费 / 按需计费" (mirror www.dayizhe.cn/blog/cloud/202104256525.html).
- Lambda On-Demand Cloud: priced per hour, billed in one-minute increments from launch (after health
  checks) to termination (https://docs.lambda.ai/public-cloud/billing). Partial minutes are rounded
  up here, the safe side for a budget.
- Paperspace Core: hourly machine rate plus a monthly access & storage fee per machine
  (https://support.paperspace.com/hc/en-us/articles/360057895553). The billing increment is not
  stated on Paperspace's own pages, so it is "unknown" and time is prorated.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from . import providers
from .currency import ExchangeRate, convert, default_rate
from .i18n import QT_TRANSLATE_NOOP, translate
from .models import NATIVE_CURRENCY, Offer
from .providers import UNKNOWN_RULE_SENTENCE as UNKNOWN_RULE_SENTENCE
from .providers import BillingRule as BillingRule
from .vocab import RUNNING_STATES

HOURS_PER_MONTH = 730.0  # 365 × 24 / 12, the convention AWS, Azure and GCP calculators use
MONTHS_PER_YEAR = 12


def billing_rule(provider: str) -> BillingRule:
    """The rule for `provider` (from its ProviderSpec); an unknown provider gets a rule that says it
    is unknown."""
    return providers.billing_rule(provider)


def billed_seconds(provider: str, seconds: float) -> float:
    """Seconds the provider bills for one start that ran `seconds`.

    Zero, negative (clock skew) and non-finite running times bill nothing. An unknown increment is
    prorated (the seconds as they are), which the rule's sentence tells the user.
    """
    try:
        seconds = float(seconds)
    except (TypeError, ValueError):
        return 0.0
    if not math.isfinite(seconds) or seconds <= 0:
        return 0.0
    rule = billing_rule(provider)
    billed = max(seconds, float(rule.minimum_s))
    if rule.increment_s:
        billed = math.ceil(billed / rule.increment_s - 1e-9) * rule.increment_s
    return float(billed)


def _as_utc(moment: datetime) -> datetime:
    # A naive datetime is taken as UTC: the store and the cloud APIs record UTC.
    return moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment


def running_cost(provider: str, price_per_hour: float | None, started_at: datetime,
                 now: datetime | None = None) -> float | None:
    """What an instance that started at `started_at` has cost so far, in the price's currency.

    Applies the provider's minimum and increment (a 10-second AWS run costs 60 seconds). Returns
    None when the price is unknown, so callers show "unknown" instead of a reassuring 0.
    """
    if price_per_hour is None:
        return None
    try:
        price = float(price_per_hour)
    except (TypeError, ValueError):
        return None
    if not math.isfinite(price) or price < 0:
        return None
    end = _as_utc(now) if now is not None else datetime.now(timezone.utc)
    elapsed = (end - _as_utc(started_at)).total_seconds()
    return billed_seconds(provider, elapsed) / 3600.0 * price


# ---------------------------------------------------------------------------------------------
# Estimates for a planned run

MODE_HOURS = "hours"
MODE_EPOCHS = "epochs"
COUNT_INSTANCES = "instances"
COUNT_GPUS = "gpus"
DEFAULT_SPOT_OVERHEAD_PCT = 15.0

MSG_NOT_NUMBER = QT_TRANSLATE_NOOP("LabGPU", "Enter a number.")
MSG_REQUIRED = QT_TRANSLATE_NOOP("LabGPU", "Required.")
MSG_POSITIVE = QT_TRANSLATE_NOOP("LabGPU", "Must be more than 0.")
MSG_WHOLE = QT_TRANSLATE_NOOP("LabGPU", "Must be a whole number of at least 1.")
MSG_OVERHEAD = QT_TRANSLATE_NOOP("LabGPU", "Between 0 and 500 %.")
MSG_TOO_LONG = QT_TRANSLATE_NOOP("LabGPU", "At most {max} hours (ten years).")
MSG_MONTHS = QT_TRANSLATE_NOOP("LabGPU", "Between 1 and 120 months.")
MSG_MODE = QT_TRANSLATE_NOOP("LabGPU", "Choose hours or epochs.")

NOTE_PRICE_UNKNOWN = QT_TRANSLATE_NOOP("LabGPU", "price unknown — refresh with an account")
NOTE_NO_SPOT = QT_TRANSLATE_NOOP("LabGPU", "no spot price for this offer")
NOTE_NO_PREPAID = QT_TRANSLATE_NOOP("LabGPU", "no prepaid price for this offer")
NOTE_YEAR_IS_12_MONTHS = QT_TRANSLATE_NOOP("LabGPU", "12 × the monthly price: no yearly discount is "
                                                     "in the catalog")
NOTE_NEVER = QT_TRANSLATE_NOOP("LabGPU", "never: prepaid costs more than running all month")
NOTE_GPUS_ROUNDED = QT_TRANSLATE_NOOP("LabGPU", "{gpus} GPUs need {instances} instance(s) of {per} GPUs: "
                                                "you pay for {total} GPUs")
NOTE_MIN_BILLED = QT_TRANSLATE_NOOP("LabGPU", "billed as {billed} s per instance (minimum/increment)")
NOTE_RUN_LONGER_THAN_TERM = QT_TRANSLATE_NOOP("LabGPU", "the run needs {months} month(s) of prepaid time")

MAX_HOURS = 87_600.0  # ten years: anything above is a typo


@dataclass(frozen=True)
class EstimateInput:
    """What the user typed. Numbers may arrive as text straight from a field."""

    mode: str = MODE_HOURS
    hours: Any = 10.0
    epochs: Any = None
    minutes_per_epoch: Any = None
    count: Any = 1
    count_unit: str = COUNT_INSTANCES
    spot_overhead_pct: Any = DEFAULT_SPOT_OVERHEAD_PCT
    months: Any = 1


@dataclass(frozen=True)
class Money:
    """One amount in the offer's currency and converted to CNY and USD (display only).

    ``native`` is None when the price is unknown; ``note`` then says why, in the user's language.
    """

    native: float | None
    currency: str
    cny: float | None
    usd: float | None
    note: str = ""

    @property
    def known(self) -> bool:
        return self.native is not None


@dataclass(frozen=True)
class Estimate:
    offer_key: tuple[str, str, str]
    currency: str
    rate: ExchangeRate
    rule: BillingRule
    run_hours: float  # wall-clock hours of work per instance
    spot_hours: float  # the same work on spot, with the interruption overhead
    instances: int
    gpus_total: float
    prepaid_months: int
    prepaid_years: int
    on_demand: Money
    spot: Money
    prepaid_month: Money
    prepaid_year: Money
    break_even_on_demand_h: float | None  # hours per month above which prepaid beats on-demand
    break_even_spot_h: float | None  # … above which prepaid beats spot (overhead included)
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class EstimateResult:
    """Either an estimate or, for invalid input, one message per field (never an exception)."""

    estimate: Estimate | None
    errors: Mapping[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.estimate is not None and not self.errors


def _parse(value: Any) -> float | None | str:
    """A float, None for empty, or the message key MSG_NOT_NUMBER for text that is not a number."""
    if value is None:
        return None
    if isinstance(value, bool):
        return MSG_NOT_NUMBER
    if isinstance(value, (int, float)):
        return float(value)
    text = str(value).strip().replace("\u3000", "").replace(" ", "")
    if not text:
        return None
    text = text.replace("，", ".").replace("。", ".")
    try:
        return float(text)
    except ValueError:
        return MSG_NOT_NUMBER


def _number(errors: dict[str, str], name: str, value: Any, *, required: bool = True) -> float | None:
    parsed = _parse(value)
    if isinstance(parsed, str):
        errors[name] = translate(parsed)
        return None
    if parsed is None:
        if required:
            errors[name] = translate(MSG_REQUIRED)
        return None
    if not math.isfinite(parsed):
        errors[name] = translate(MSG_NOT_NUMBER)
        return None
    return parsed


def validate(inp: EstimateInput) -> tuple[dict[str, float], dict[str, str]]:
    """Checked numbers by field name, and a translated message per invalid field."""
    errors: dict[str, str] = {}
    values: dict[str, float] = {}
    if inp.mode == MODE_HOURS:
        hours = _number(errors, "hours", inp.hours)
        if hours is not None:
            if hours <= 0:
                errors["hours"] = translate(MSG_POSITIVE)
            elif hours > MAX_HOURS:
                errors["hours"] = translate(MSG_TOO_LONG).format(max=f"{MAX_HOURS:,.0f}")
            else:
                values["hours"] = hours
    elif inp.mode == MODE_EPOCHS:
        epochs = _number(errors, "epochs", inp.epochs)
        minutes = _number(errors, "minutes_per_epoch", inp.minutes_per_epoch)
        if epochs is not None and epochs <= 0:
            errors["epochs"] = translate(MSG_POSITIVE)
        if minutes is not None and minutes <= 0:
            errors["minutes_per_epoch"] = translate(MSG_POSITIVE)
        if "epochs" not in errors and "minutes_per_epoch" not in errors \
                and epochs is not None and minutes is not None:
            hours = epochs * minutes / 60.0
            if hours > MAX_HOURS:
                errors["epochs"] = translate(MSG_TOO_LONG).format(max=f"{MAX_HOURS:,.0f}")
            else:
                values["hours"] = hours
    else:
        errors["mode"] = translate(MSG_MODE)
    count = _number(errors, "count", inp.count)
    if count is not None:
        if count < 1 or count != int(count) or count > 10_000:
            errors["count"] = translate(MSG_WHOLE)
        else:
            values["count"] = count
    overhead = _number(errors, "spot_overhead_pct", inp.spot_overhead_pct)
    if overhead is not None:
        if not 0 <= overhead <= 500:
            errors["spot_overhead_pct"] = translate(MSG_OVERHEAD)
        else:
            values["spot_overhead_pct"] = overhead
    months = _number(errors, "months", inp.months)
    if months is not None:
        if months < 1 or months != int(months) or months > 120:
            errors["months"] = translate(MSG_MONTHS)
        else:
            values["months"] = months
    return values, errors


def money(amount: float | None, currency: str, rate: ExchangeRate, note: str = "") -> Money:
    if amount is None:
        return Money(None, currency, None, None, note)
    return Money(amount, currency, convert(amount, currency, "CNY", rate),
                 convert(amount, currency, "USD", rate), note)


def _price(value: float | None) -> float | None:
    if value is None:
        return None
    try:
        value = float(value)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) and value >= 0 else None


def estimate(offer: Offer, inp: EstimateInput, rate: ExchangeRate | None = None) -> EstimateResult:
    """Cost of a planned run on `offer`: on-demand, spot, prepaid month/year and break-even hours.

    The run is `hours` (or epochs × minutes) of work on each of `instances` instances. Spot takes
    `spot_overhead_pct` more time for restarts and lost work since the last checkpoint. Prepaid
    covers at least the months the run needs at 730 h per month.
    """
    rate = rate or default_rate()
    values, errors = validate(inp)
    if errors:
        return EstimateResult(None, errors)
    currency = (offer.currency or NATIVE_CURRENCY.get(offer.provider, "USD")).upper()
    rule = billing_rule(offer.provider)
    notes: list[str] = []
    hours = values["hours"]
    count = int(values["count"])
    per_instance = offer.gpu_count if offer.gpu_count and offer.gpu_count > 0 else 1.0
    if inp.count_unit == COUNT_GPUS:
        instances = max(1, math.ceil(count / per_instance - 1e-9))
        if instances * per_instance != count:
            notes.append(translate(NOTE_GPUS_ROUNDED).format(
                gpus=count, instances=instances, per=f"{per_instance:g}",
                total=f"{instances * per_instance:g}"))
    else:
        instances = count
    overhead = values["spot_overhead_pct"] / 100.0

    billed_h = billed_seconds(offer.provider, hours * 3600.0) / 3600.0
    if billed_h - hours > 1e-9:
        notes.append(translate(NOTE_MIN_BILLED).format(billed=f"{billed_h * 3600:,.0f}"))
    spot_hours = hours * (1.0 + overhead)
    spot_billed_h = billed_seconds(offer.provider, spot_hours * 3600.0) / 3600.0

    od_price = _price(offer.price_on_demand)
    spot_price = _price(offer.price_spot)
    month_price = _price(offer.price_prepaid_month)

    on_demand = money(None if od_price is None else od_price * billed_h * instances, currency, rate,
                      "" if od_price is not None else translate(NOTE_PRICE_UNKNOWN))
    if spot_price is None:
        spot = money(None, currency, rate,
                     translate(NOTE_PRICE_UNKNOWN if offer.spot_available else NOTE_NO_SPOT))
    else:
        spot = money(spot_price * spot_billed_h * instances, currency, rate)

    months_needed = max(int(values["months"]), math.ceil(hours / HOURS_PER_MONTH - 1e-9))
    if months_needed > int(values["months"]):
        notes.append(translate(NOTE_RUN_LONGER_THAN_TERM).format(months=months_needed))
    years = max(1, math.ceil(months_needed / MONTHS_PER_YEAR - 1e-9))
    if month_price is None:
        no_prepaid = translate(NOTE_NO_PREPAID)
        prepaid_month = money(None, currency, rate, no_prepaid)
        prepaid_year = money(None, currency, rate, no_prepaid)
    else:
        prepaid_month = money(month_price * months_needed * instances, currency, rate)
        prepaid_year = money(month_price * MONTHS_PER_YEAR * years * instances, currency, rate,
                             translate(NOTE_YEAR_IS_12_MONTHS))

    be_od = break_even_hours(month_price, od_price)
    be_spot = break_even_hours(month_price, None if spot_price is None else spot_price * (1.0 + overhead))
    est = Estimate(
        offer_key=offer.key, currency=currency, rate=rate, rule=rule, run_hours=hours,
        spot_hours=spot_hours, instances=instances, gpus_total=instances * per_instance,
        prepaid_months=months_needed, prepaid_years=years, on_demand=on_demand, spot=spot,
        prepaid_month=prepaid_month, prepaid_year=prepaid_year, break_even_on_demand_h=be_od,
        break_even_spot_h=be_spot, notes=tuple(notes))
    return EstimateResult(est, {})


def break_even_hours(prepaid_month: float | None, hourly: float | None) -> float | None:
    """Hours of use per month above which a monthly prepaid price beats paying `hourly`.

    None when either price is unknown or the hourly price is 0. A figure above 730 h means prepaid
    never wins within a month (``prepaid_never_wins``).
    """
    if prepaid_month is None or hourly is None or hourly <= 0:
        return None
    return prepaid_month / hourly


def prepaid_never_wins(hours: float | None) -> bool:
    return hours is not None and hours > HOURS_PER_MONTH


def describe_break_even(hours: float | None) -> str:
    """'312 h/month (43 % of the month)' or why there is no figure, in the user's language."""
    if hours is None:
        return translate(NOTE_PRICE_UNKNOWN)
    if prepaid_never_wins(hours):
        return translate(NOTE_NEVER)
    return translate(QT_TRANSLATE_NOOP("LabGPU", "{hours} h/month ({share} % of the month)")).format(
        hours=f"{hours:,.0f}", share=f"{hours / HOURS_PER_MONTH * 100:.0f}")


# ---------------------------------------------------------------------------------------------
# Running cost of an instance: so far, per hour, per day, until budget / max runtime

NOTE_SPOT_PRICE_FIXED = QT_TRANSLATE_NOOP("LabGPU", "spot price as launched: the current spot price is not "
                                                    "re-read for this provider")
NOTE_SPOT_PRICE_LIVE = QT_TRANSLATE_NOOP("LabGPU", "spot price re-read while it runs")
NOTE_DISK_UNKNOWN = QT_TRANSLATE_NOOP("LabGPU", "disk not counted: its price is unknown")


@dataclass(frozen=True)
class InstanceCost:
    """What one instance costs, in its native currency, plus CNY and USD for totals and display."""

    id: str
    account: str
    provider: str
    currency: str
    running: bool  # its compute bills now (RUNNING_STATES: running, stopped_billing)
    price_per_hour: float | None  # compute, as launched (or re-read for spot)
    disk_per_hour: float | None  # None: unknown (said in notes)
    so_far: float | None  # billed so far (minimums applied); None: price unknown
    per_hour: float | None  # now, compute + known disk; 0 when not running and no disk
    per_day: float | None
    hours_to_budget: float | None  # None: no budget or price unknown; 0: reached
    budget: float | None  # in `currency`
    cost_at_max_runtime: float | None
    hours_to_max_runtime: float | None
    so_far_cny: float | None
    so_far_usd: float | None
    per_hour_cny: float | None
    per_hour_usd: float | None
    notes: tuple[str, ...] = ()

    @property
    def projected_to_budget_h(self) -> float | None:
        """Hours until the budget is used up at the current rate (MONITOR_API name)."""
        return self.hours_to_budget

    @property
    def projected_hours(self) -> float | None:
        """Hours until the first limit: the budget, else the maximum runtime; None without one."""
        return self.hours_to_budget if self.hours_to_budget is not None else self.hours_to_max_runtime

    @property
    def projected(self) -> float | None:
        """What the instance will have cost at that limit (the budget, else the maximum runtime)."""
        if self.hours_to_budget is not None and self.budget is not None:
            return self.budget
        return self.cost_at_max_runtime

    def to_json(self) -> dict[str, Any]:
        return {k: (round(v, 6) if isinstance(v, float) else (list(v) if isinstance(v, tuple) else v))
                for k, v in self.__dict__.items()}


def instance_cost(entry: Any, now: datetime | None = None, rate: ExchangeRate | None = None, *,
                  budget: float | None = None, budget_currency: str | None = None,
                  max_hours: float | None = None, disk_per_hour: float | None = None,
                  current_price: float | None = None) -> InstanceCost:
    """Cost of a ledger entry (``app.core.instances.LedgerEntry``-like) at `now`.

    ``so_far`` is the ledger's billed cost (segments, minimums); the projection runs from the
    price it was launched at (a spot price where it was re-read). A budget in another currency is
    converted with `rate` for the comparison only. Unknown stays None, never 0. ``current_price``
    (a spot price re-read while it runs) drives the projection; the cost so far keeps the ledger's.
    """
    rate = rate or default_rate()
    cur = entry.currency or "USD"
    running = entry.state in RUNNING_STATES  # compute bills (a stop that keeps charging too)
    price = _price(entry.price_per_hour)
    live = _price(current_price)
    notes: list[str] = []
    if entry.spot:
        notes.append(NOTE_SPOT_PRICE_LIVE if live is not None else NOTE_SPOT_PRICE_FIXED)
    if live is not None:
        price = live
    disk = _price(disk_per_hour)
    if disk is None:
        notes.append(NOTE_DISK_UNKNOWN)
    so_far = entry.cost_so_far
    per_hour = None if price is None else (price if running else 0.0) + (disk or 0.0)
    per_day = None if per_hour is None else per_hour * 24
    budget_native = None
    if budget is not None:
        budget_native = convert(float(budget), budget_currency or cur, cur, rate)
    hours_to_budget = None
    if budget_native is not None and so_far is not None and per_hour is not None:
        left = budget_native - so_far
        hours_to_budget = 0.0 if left <= 0 else (left / per_hour if per_hour > 0 else None)
    cost_at_max = hours_to_max = None
    if max_hours is not None and price is not None:
        uptime_h = float(getattr(entry, "uptime_s", 0.0)) / 3600.0
        hours_to_max = max(0.0, float(max_hours) - uptime_h) if running else None
        if so_far is not None:
            cost_at_max = so_far + (hours_to_max or 0.0) * (per_hour or 0.0)
    return InstanceCost(
        id=entry.id, account=entry.account, provider=entry.provider, currency=cur, running=running,
        price_per_hour=price, disk_per_hour=disk, so_far=so_far, per_hour=per_hour, per_day=per_day,
        hours_to_budget=hours_to_budget, budget=budget_native, cost_at_max_runtime=cost_at_max,
        hours_to_max_runtime=hours_to_max,
        so_far_cny=convert(so_far, cur, "CNY", rate), so_far_usd=convert(so_far, cur, "USD", rate),
        per_hour_cny=convert(per_hour, cur, "CNY", rate), per_hour_usd=convert(per_hour, cur, "USD", rate),
        notes=tuple(notes),
    )


@dataclass(frozen=True)
class CostTotals:
    so_far_cny: float
    so_far_usd: float
    per_hour_cny: float
    per_hour_usd: float
    unknown: tuple[str, ...]  # ids whose price is unknown (not in the sums: the totals are a floor)
    rate: str


def totals(costs: list[InstanceCost], rate: ExchangeRate | None = None) -> CostTotals:
    rate = rate or default_rate()
    sc = su = hc = hu = 0.0
    unknown = []
    for c in costs:
        if c.so_far_cny is None or c.so_far_usd is None:
            unknown.append(c.id)
            continue
        sc += c.so_far_cny
        su += c.so_far_usd
        hc += c.per_hour_cny or 0.0
        hu += c.per_hour_usd or 0.0
    return CostTotals(sc, su, hc, hu, tuple(unknown), rate.describe())
