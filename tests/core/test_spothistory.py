"""The spot price history arithmetic: the window, the price in effect at its start, moves, shares."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from app.core.spothistory import SpotPricePoint, by_zone, choose_zone, in_window, steps, summarize, window

NOW = datetime(2026, 3, 10, 12, 0, tzinfo=timezone.utc)
START, END = window(7, NOW)


def _p(days_ago: float, price: float, zone: str = "z-a") -> SpotPricePoint:
    return SpotPricePoint(NOW - timedelta(days=days_ago), price, "USD", zone)


def test_window_is_the_last_days_in_utc():
    assert (NOW - timedelta(days=7), NOW) == (START, END)
    local = NOW.astimezone(timezone(timedelta(hours=8)))
    assert window(7, local) == (START, END)


def test_the_price_in_effect_at_the_start_is_moved_to_the_start():
    pts = [_p(30, 0.5), _p(9, 0.4), _p(3, 0.6), _p(-1, 0.9)]  # one before, one in, one after the window
    got = in_window(pts, START, END)
    assert [(p.time, p.price) for p in got] == [(START, 0.4), (NOW - timedelta(days=3), 0.6)]


def test_summary_counts_moves_and_shares_of_on_demand():
    pts = [_p(9, 0.40), _p(6, 0.45), _p(5, 0.45), _p(4, 0.30), _p(1, 0.50)]
    s = summarize(pts, START, END, on_demand=1.0)
    assert s is not None
    assert (s.moves, s.low, s.high, s.currency, s.zone) == (3, 0.30, 0.50, "USD", "z-a")
    assert (round(s.low_pct or 0), round(s.high_pct or 0), s.days) == (30, 50, 7.0)
    flat = summarize([_p(400, 0.2)], START, END)
    assert flat is not None and (flat.moves, flat.low, flat.high, flat.low_pct) == (0, 0.2, 0.2, None)
    assert summarize([_p(-2, 0.2)], START, END) is None  # nothing known inside the window


def test_zones_and_the_zone_shown():
    zones = by_zone([_p(2, 0.5, "z-b"), _p(1, 0.3, "z-a"), _p(3, 0.2, "z-a")])
    assert {z: [p.price for p in pts] for z, pts in zones.items()} == {"z-a": [0.2, 0.3], "z-b": [0.5]}
    assert choose_zone(zones) == "z-a"  # the lowest latest price
    assert choose_zone(zones, "z-b") == "z-b"
    assert choose_zone({}, "z-b") == ""


def test_steps_hold_each_price_until_the_next_and_the_last_until_the_end():
    pts = in_window([_p(9, 0.4), _p(3, 0.6)], START, END)
    xs, ys = steps(pts, END)
    assert xs == [START.timestamp(), (NOW - timedelta(days=3)).timestamp(), END.timestamp()]
    assert ys == [0.4, 0.6, 0.6]
