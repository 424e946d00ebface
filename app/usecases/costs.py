"""What LabGPU's instances cost right now: one computation for the watcher, the instances page, the
tray and ``labgpu cost``.

Billing: an instance is *billing* while its state is one of :data:`app.core.vocab.BILLING_STATES`
(pending, running, stopping, starting, and ``stopped_billing``: stopped by the OS or the cloud while
its compute still bills). An instance stopped without charging, isolated by the cloud, terminating,
terminated or failed is not billing. Its cost so far still shows in its row; it is not in a total.

Each instance's cost is :func:`app.core.costs.instance_cost` with its guard's budget (and the
budget's currency) and maximum runtime.

Totals: the billing instances whose price is known are summed (each converted with the shown rate,
:func:`app.core.costs.totals`); the billing instances whose price is unknown are left out of the
sums and *named* (``unknown``), and every text says both (:meth:`RunningCosts.billing_text`), e.g.
"¥7.00/h, ¥12.30 so far + 1 instance with unknown price (ins-2)". A total is never a silent floor,
and one unknown price never turns the whole total unknown.

A view that read the ledger some seconds ago passes ``since_read_s``: the running stretch of each
entry is re-billed with the core billing rules at that later moment (minimums, increments), on top
of what its earlier stretches cost, so a cost ticks between reads without a straight line of its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Protocol

from app.core import vocab
from app.core.costs import CostTotals, InstanceCost, instance_cost, running_cost, totals
from app.core.currency import ExchangeRate, money_text
from app.core.guards import GuardConfig
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.instances import Ledger, LedgerEntry
from app.core.ledgerdb import utc

MSG_UNKNOWN_ONE = QT_TRANSLATE_NOOP("LabGPU", "1 instance with unknown price ({ids})")
MSG_UNKNOWN_MANY = QT_TRANSLATE_NOOP("LabGPU", "{n} instances with unknown price ({ids})")
MSG_AMOUNTS = QT_TRANSLATE_NOOP("LabGPU", "{rate}/h, {total} so far")
MSG_KNOWN_PLUS_UNKNOWN = QT_TRANSLATE_NOOP("LabGPU", "{known} + {unknown}")
MSG_BILLING_NOW = QT_TRANSLATE_NOOP("LabGPU", "Billing now: {n} instance(s), {amounts}")
MSG_NOTHING_BILLING = QT_TRANSLATE_NOOP("LabGPU", "Nothing is billing for compute right now.")


class Guards(Protocol):
    """What the costs read of the guards: a ``dict`` of GuardConfig by id, or a GuardStore."""

    def get(self, target_id: str, /) -> GuardConfig | None: ...


PriceOf = Callable[[LedgerEntry], float | None]


def is_billing(entry: LedgerEntry) -> bool:
    """Whether the instance may be charged for now (see the module doc): ``BILLING_STATES``."""
    return entry.state in vocab.BILLING_STATES


def advanced(entry: LedgerEntry, seconds: float) -> LedgerEntry:
    """The entry as it stands ``seconds`` after it was read: a running stretch (a state of
    ``RUNNING_STATES``) longer by that much, re-billed with the provider's rules."""
    if seconds <= 0 or entry.state not in vocab.RUNNING_STATES:
        return entry
    cost = entry.cost_so_far
    if cost is not None and entry.started_at is not None:
        at_read = entry.started_at + timedelta(seconds=entry.uptime_s)
        later = at_read + timedelta(seconds=seconds)
        before = running_cost(entry.provider, entry.price_per_hour, entry.started_at, at_read)
        now = running_cost(entry.provider, entry.price_per_hour, entry.started_at, later)
        if before is not None and now is not None:
            cost = cost - before + now
    return replace(entry, cost_so_far=cost, uptime_s=entry.uptime_s + seconds)


def entry_cost(entry: LedgerEntry, guard: GuardConfig | None, rate: ExchangeRate, now: datetime,
               current_price: float | None = None) -> InstanceCost:
    """One instance's cost with its guard's budget and maximum runtime."""
    return instance_cost(entry, now, rate, budget=guard.budget if guard else None,
                         budget_currency=guard.currency if guard else None,
                         max_hours=guard.max_hours if guard else None, current_price=current_price)


@dataclass(frozen=True)
class RunningCosts:
    """Every entry's cost (``instances``, for rows) and the billing ones with their totals.

    Iterating yields every entry's cost (``instances``); ``billing`` holds those the totals count.
    """

    instances: tuple[InstanceCost, ...]  # every entry given, in the ledger's order
    billing: tuple[InstanceCost, ...]  # those billing now (BILLING_STATES)
    entries: Mapping[str, LedgerEntry]  # id → the entry as costed (advanced to `now`)
    totals: CostTotals  # of the billing instances; unknown: their ids whose price is unknown
    rate: ExchangeRate

    def __iter__(self) -> Iterator[InstanceCost]:
        return iter(self.instances)

    def __len__(self) -> int:
        return len(self.instances)

    def get(self, instance_id: str) -> InstanceCost | None:
        return next((c for c in self.instances if c.id == instance_id), None)

    @property
    def unknown(self) -> tuple[str, ...]:
        """The billing instances whose price is unknown (named, never summed as 0)."""
        return self.totals.unknown

    @property
    def known(self) -> int:
        """How many billing instances are in the sums."""
        return len(self.billing) - len(self.unknown)

    def so_far(self, currency: str) -> float:
        """The known costs so far, converted into `currency` (CNY or USD)."""
        return self.totals.so_far_usd if currency.upper() == "USD" else self.totals.so_far_cny

    def per_hour(self, currency: str) -> float:
        """What the known instances cost per hour now, in `currency` (CNY or USD)."""
        return self.totals.per_hour_usd if currency.upper() == "USD" else self.totals.per_hour_cny

    def amounts_text(self, currency: str) -> str:
        """'¥7.00/h, ¥14.00 so far', then the instances whose price is unknown, named:
        '¥7.00/h, ¥14.00 so far + 1 instance with unknown price (ins-2)'; only those when no price is known."""
        said = unknown_text(self.unknown)
        if said and not self.known:
            return said
        known = translate(MSG_AMOUNTS).format(rate=money_text(self.per_hour(currency), currency),
                                               total=money_text(self.so_far(currency), currency))
        return translate(MSG_KNOWN_PLUS_UNKNOWN).format(known=known, unknown=said) if said else known

    def billing_text(self, currency: str) -> str:
        """The one line the tray, the instances page and ``labgpu cost`` show: 'Billing now: 2
        instance(s), ¥7.00/h, ¥14.00 so far + 1 instance with unknown price (ins-2)'."""
        if not self.billing:
            return translate(MSG_NOTHING_BILLING)
        return translate(MSG_BILLING_NOW).format(n=len(self.billing), amounts=self.amounts_text(currency))


MAX_NAMED = 3  # unknown-priced instances named in a total line (more are counted, not listed)
MAX_ID = 64  # characters of an id shown


def unknown_text(ids: Sequence[str]) -> str:
    """'1 instance with unknown price (ins-2)', in the user's language; '' for none."""
    if not ids:
        return ""
    if len(ids) == 1:
        return translate(MSG_UNKNOWN_ONE).format(ids=str(ids[0])[:MAX_ID])
    # a cloud's ids, bounded: the count says how many, the first few say which
    named = ", ".join(str(i)[:MAX_ID] for i in ids[:MAX_NAMED]) + (", …" if len(ids) > MAX_NAMED else "")
    return translate(MSG_UNKNOWN_MANY).format(n=len(ids), ids=named)


def running_costs(ledger: Ledger | Sequence[LedgerEntry], guards: Guards | Mapping[str, GuardConfig],
                  rate: ExchangeRate, now: datetime | None = None, *,
                  current_price: PriceOf | None = None, since_read_s: float = 0.0) -> RunningCosts:
    """What the instances cost at `now`: a Ledger is read (terminated ones left out); entries a view
    read ``since_read_s`` seconds ago are advanced to now first. ``current_price`` gives a spot
    price re-read while it runs (it drives the projection; the cost so far keeps the ledger's)."""
    t = utc(now)  # None: the laptop's clock as the ledger reads it (injectable: ledgerdb.CLOCK.wall)
    if isinstance(ledger, Ledger):
        entries = ledger.list(include_terminated=False, now=t)
    else:
        entries = [advanced(e, since_read_s) for e in ledger]
    costs: list[InstanceCost] = []
    billing: list[InstanceCost] = []
    for e in entries:
        c = entry_cost(e, guards.get(e.id), rate, t, current_price(e) if current_price else None)
        costs.append(c)
        if is_billing(e):
            billing.append(c)
    return RunningCosts(tuple(costs), tuple(billing), {e.id: e for e in entries}, totals(billing, rate), rate)
