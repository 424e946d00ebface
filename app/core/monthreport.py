"""Monthly report: what each instance cost within a calendar month (UTC), and each run's total (a
reclaimed spot instance and its relaunch: both lines, and the run's sum; app.core.runs)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone

from .currency import ExchangeRate, convert
from .ledgerdb import CLOCK, from_iso, segment_cost
from .runs import Run, RunStore
from .store import Store


@dataclass(frozen=True)
class MonthLine:
    id: str
    account: str
    provider: str
    instance_type: str
    state: str
    spot: bool
    currency: str
    price_per_hour: float | None
    hours: float  # running hours inside the month
    cost: float | None  # billed within the month (minimums charged to the month the run started)
    run_id: str = ""  # the run it belongs to (app.core.runs), "" when none


@dataclass(frozen=True)
class RunMonth:
    """A run's total in the month: the sum of its members' lines (each converted with the shown rate);
    a member whose cost is unknown is named, not summed."""

    run: Run
    lines: tuple[MonthLine, ...]  # its members' lines in this month, in the run's order
    hours: float
    cost_cny: float
    cost_usd: float
    unknown: tuple[str, ...]


def month_bounds(month: str) -> tuple[datetime, datetime]:
    """"YYYY-MM" → [start, end) in UTC; raises ValueError for anything else."""
    year_s, _, mon_s = month.partition("-")
    if len(year_s) != 4 or len(mon_s) != 2 or not year_s.isdigit() or not mon_s.isdigit():
        raise ValueError(month)
    year, mon = int(year_s), int(mon_s)
    start = datetime(year, mon, 1, tzinfo=timezone.utc)
    end = datetime(year + (mon == 12), mon % 12 + 1, 1, tzinfo=timezone.utc)
    return start, end


def month_report(store: Store, month: str, now: datetime | None = None) -> list[MonthLine]:
    """Per instance: running hours and cost inside `month`.

    A run that crosses a month boundary is split so the months add up to the whole run: the cost
    inside [a, b) is cost(start→b) − cost(start→a) (the minimum billed time lands in the month the
    run started). Instances without a run in the month are left out. The price is the one the
    ledger holds (launch price; a spot price where it was re-read).
    """
    start, end = month_bounds(month)
    ledger = {(r["provider"], r["id"]): r for r in store.query("SELECT * FROM instance_ledger")}
    acc: dict[tuple[str, str], tuple[float, float | None]] = {}
    for seg in store.query("SELECT provider, id, started_at, ended_at FROM instance_segments ORDER BY started_at"):
        row = ledger.get((seg["provider"], seg["id"]))
        if row is None:
            continue
        s = from_iso(seg["started_at"])
        # segments are in the cloud's frame (app.core.ledgerdb.CLOCK); a running one ends at the cloud's now
        e = from_iso(seg["ended_at"]) or CLOCK.to_cloud(seg["provider"], now)
        if s is None or e <= start or s >= end:
            continue
        a, b = max(s, start), min(e, end)
        price = row["price_per_hour"]
        upto_b = segment_cost(row["provider"], price, s, b)
        upto_a = segment_cost(row["provider"], price, s, a) if a > s else 0.0
        part = None if upto_b is None or upto_a is None else max(0.0, upto_b - upto_a)
        hours, cost = acc.get((seg["provider"], seg["id"]), (0.0, 0.0))
        acc[(seg["provider"], seg["id"])] = (
            hours + max(0.0, (b - a).total_seconds()) / 3600.0,
            None if cost is None or part is None else cost + part,
        )
    out = []
    runs = RunStore(store).by_instance()
    for key, (hours, cost) in acc.items():
        row = ledger[key]
        out.append(MonthLine(id=row["id"], account=row["account"], provider=row["provider"],
                             instance_type=row["instance_type"], state=row["state"], spot=bool(row["spot"]),
                             currency=row["currency"], price_per_hour=row["price_per_hour"], hours=hours,
                             cost=cost, run_id=runs[row["id"]].id if row["id"] in runs else ""))
    out.sort(key=lambda m: (m.account, m.id))
    return out


def month_runs(store: Store, lines: list[MonthLine], rate: ExchangeRate) -> list[RunMonth]:
    """The runs with a member in ``lines`` (a month's report), each with its total in the month."""
    found: dict[str, Run] = {}
    for run in RunStore(store).all():
        if any(ln.run_id == run.id for ln in lines):
            found[run.id] = run
    out = []
    for run in found.values():
        order = {iid: i for i, iid in enumerate(run.instance_ids)}
        mine = sorted((ln for ln in lines if ln.run_id == run.id), key=lambda ln: order.get(ln.id, 0))
        cny = usd = 0.0
        unknown = []
        for ln in mine:
            c, u = convert(ln.cost, ln.currency, "CNY", rate), convert(ln.cost, ln.currency, "USD", rate)
            if c is None or u is None:
                unknown.append(ln.id)
                continue
            cny, usd = cny + c, usd + u
        out.append(RunMonth(run, tuple(mine), sum(ln.hours for ln in mine), cny, usd, tuple(unknown)))
    return out
