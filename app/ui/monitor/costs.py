"""What every billing instance costs now, as the tray shows it, and the money formats it draws.

The costs come from :func:`app.usecases.costs.running_costs` (the one rule for what is billing and
for totals, shared with the instances page, the watcher and ``labgpu cost``); this module only turns
them into the tray's rows. :func:`running_costs` reads the ledger (SQLite): call it from a task.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from app.core.costs import InstanceCost
from app.core.currency import money_text
from app.usecases.costs import RunningCosts

if TYPE_CHECKING:
    from app.ui.context import AppContext

_SYMBOLS = {"CNY": "¥", "USD": "$"}


@dataclass(frozen=True)
class RunningRow:
    id: str
    label: str  # "ins-… (name)"
    account: str
    provider: str
    state: str
    per_hour: float | None
    so_far: float | None
    currency: str
    projected: float | None = None  # until budget or maximum runtime, when one is set
    projected_hours: float | None = None
    spot: bool = False
    entry: Any = None


def symbol(currency: str) -> str:
    return _SYMBOLS.get(currency, currency + " ")


def fmt_money(amount: float | None, currency: str, digits: int = 2) -> str:
    return money_text(amount, currency, digits)


def compact_amount(amount: float) -> str:
    """At most 4 characters for the tray icon: 0.42, 7.5, 42, 420, 4.2k, 42k."""
    if amount < 0:
        amount = 0.0
    if amount < 10:
        return f"{amount:.1f}" if amount >= 1 else f"{amount:.2f}".lstrip("0") or "0"
    if amount < 1000:
        return f"{amount:.0f}"
    if amount < 10_000:
        return f"{amount / 1000:.1f}k"
    if amount < 1_000_000:
        return f"{amount / 1000:.0f}k"
    return f"{amount / 1_000_000:.0f}M"


def row_for(entry: Any, cost: InstanceCost) -> RunningRow:
    label = entry.id + (f" ({entry.name})" if getattr(entry, "name", "") else "")
    return RunningRow(
        id=entry.id, label=label, account=entry.account, provider=entry.provider, state=entry.state,
        per_hour=cost.per_hour, so_far=cost.so_far, currency=cost.currency,
        projected=cost.projected, projected_hours=cost.projected_hours, spot=bool(entry.spot), entry=entry,
    )


def rows_of(costs: RunningCosts) -> list[RunningRow]:
    """One row per billing instance of `costs`."""
    return [row_for(costs.entries[c.id], c) for c in costs.billing]


def running_costs(ctx: AppContext, now: datetime | None = None) -> RunningCosts:
    """The ledger's running costs (app.usecases.costs, guards' budgets included); blocking: run it in a task."""
    from app.core.currency import effective_rate
    from app.core.guards import GuardStore
    from app.ui.shared.services import cloud_service
    from app.usecases.costs import running_costs as compute

    svc = cloud_service(ctx)
    return compute(svc.ledger, GuardStore(svc.store), effective_rate(ctx.settings), now)
