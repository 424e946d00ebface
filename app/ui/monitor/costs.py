"""What every running instance costs now, for the tray, the instances page and the monthly report.

One place turns ledger entries into rows through the core cost function
(:func:`app.core.costs.instance_cost`), so the tray, the instances page and ``labgpu cost`` agree.
Blocking (SQLite): call from a TaskRunner task.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from app.core.currency import money_text

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


def instance_cost(entry: Any, now: datetime, rate: Any = None) -> Any:
    from app.core import costs

    return costs.instance_cost(entry, now, rate)


def row_for(entry: Any, now: datetime, rate: Any = None) -> RunningRow:
    c = instance_cost(entry, now, rate)
    label = entry.id + (f" ({entry.name})" if getattr(entry, "name", "") else "")
    return RunningRow(
        id=entry.id, label=label, account=entry.account, provider=entry.provider, state=entry.state,
        per_hour=getattr(c, "per_hour", None), so_far=getattr(c, "so_far", None),
        currency=getattr(c, "currency", entry.currency),
        projected=getattr(c, "projected", None), projected_hours=getattr(c, "projected_hours", None),
        spot=bool(entry.spot), entry=entry,
    )


def running_rows(ctx: Any, now: datetime | None = None) -> list[RunningRow]:
    """Every billing instance of the ledger with its cost (blocking; run in a task)."""
    from app.core.currency import effective_rate
    from app.ui.shared.services import cloud_service

    now = now or datetime.now(timezone.utc)
    rate = effective_rate(ctx.settings)
    entries = cloud_service(ctx).ledger.list(include_terminated=False, now=now)
    return [row_for(e, now, rate) for e in entries if e.billing]


def total_in(rows: list[RunningRow], currency: str, rate: Any) -> tuple[float | None, float | None]:
    """(cost so far, cost per hour) of all rows in `currency`; None where a row's price is unknown."""
    from app.core.currency import convert

    so_far: float | None = 0.0
    per_hour: float | None = 0.0
    for r in rows:
        a = convert(r.so_far, r.currency, currency, rate) if r.so_far is not None else None
        b = convert(r.per_hour, r.currency, currency, rate) if r.per_hour is not None else None
        so_far = None if (so_far is None or a is None) else so_far + a
        per_hour = None if (per_hour is None or b is None) else per_hour + b
    return so_far, per_hour
