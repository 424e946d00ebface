"""Spot price history: the points a provider reports, and what they say over a window.

A provider's history is a list of price changes (AWS ``describe_spot_price_history``, Alibaba
``DescribeSpotPriceHistory``): each point is the price from its time until the next point. AWS
also returns the last change before the window's start (the price in effect then); `in_window`
moves such a point to the start so a stepped line begins at the window's left edge.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone


@dataclass(frozen=True)
class SpotPricePoint:
    time: datetime  # UTC, when this price took effect
    price: float  # per hour, in `currency`
    currency: str
    zone: str = ""


@dataclass(frozen=True)
class SpotHistorySummary:
    zone: str
    moves: int  # price changes inside the window
    low: float
    high: float
    currency: str
    days: float  # length of the window
    low_pct: float | None  # low / on-demand, in percent; None without an on-demand price
    high_pct: float | None


def window(days: float, now: datetime | None = None) -> tuple[datetime, datetime]:
    """(start, end) of the last `days` days, in UTC."""
    end = (now or datetime.now(timezone.utc)).astimezone(timezone.utc)
    return end - timedelta(days=days), end


def by_zone(points: Iterable[SpotPricePoint]) -> dict[str, list[SpotPricePoint]]:
    """The points of each zone, oldest first."""
    out: dict[str, list[SpotPricePoint]] = {}
    for p in sorted(points, key=lambda p: (p.zone, p.time)):
        out.setdefault(p.zone, []).append(p)
    return out


def in_window(points: Sequence[SpotPricePoint], start: datetime, end: datetime) -> list[SpotPricePoint]:
    """One zone's points inside [start, end], oldest first; the last point before `start` (the
    price in effect at the start) is kept, moved to `start`."""
    ordered = sorted(points, key=lambda p: p.time)
    before = [p for p in ordered if p.time <= start]
    inside = [p for p in ordered if start < p.time <= end]
    if before:
        last = before[-1]
        inside.insert(0, SpotPricePoint(start, last.price, last.currency, last.zone))
    return inside


def choose_zone(zones: dict[str, list[SpotPricePoint]], preferred: str = "") -> str:
    """The zone to show: `preferred` when it has points, else the one whose latest price is lowest."""
    if preferred in zones and zones[preferred]:
        return preferred
    live = [(pts[-1].price, zone) for zone, pts in zones.items() if pts]
    return min(live)[1] if live else ""


def summarize(
    points: Sequence[SpotPricePoint], start: datetime, end: datetime, on_demand: float | None = None
) -> SpotHistorySummary | None:
    """What one zone's history did in the window; None when it has no point there."""
    pts = in_window(points, start, end)
    if not pts:
        return None
    prices = [p.price for p in pts]
    moves = sum(1 for a, b in zip(prices, prices[1:], strict=False) if a != b)
    low, high = min(prices), max(prices)

    def pct(value: float) -> float | None:
        return value / on_demand * 100 if on_demand else None

    return SpotHistorySummary(
        zone=pts[0].zone,
        moves=moves,
        low=low,
        high=high,
        currency=pts[0].currency,
        days=(end - start).total_seconds() / 86400,
        low_pct=pct(low),
        high_pct=pct(high),
    )


def steps(points: Sequence[SpotPricePoint], end: datetime) -> tuple[list[float], list[float]]:
    """x (POSIX seconds) and y of a stepped line: each price held until the next point, the last
    one until `end` (pyqtgraph's stepMode="right" draws y[i] from x[i] to x[i+1])."""
    xs = [p.time.timestamp() for p in points]
    ys = [p.price for p in points]
    if points and end.timestamp() > xs[-1]:
        xs.append(end.timestamp())
        ys.append(ys[-1])
    return xs, ys
