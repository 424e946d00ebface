"""Display-only USD/CNY conversion: bundled rate with source and date, user override, formatting."""

from __future__ import annotations

from datetime import date

import pytest

from app.core.currency import (
    ExchangeRate,
    convert,
    default_rate,
    effective_rate,
    format_money,
    load_rate_file,
)
from app.core.settings import Settings


def test_default_rate_is_the_bundled_cited_figure():
    r = default_rate()
    assert r.usd_cny == pytest.approx(7.0197)
    assert r.as_of == date(2026, 1, 8)
    assert "CFETS" in r.source
    assert r.url.startswith("https://")


def test_override_wins_and_says_so():
    s = Settings()
    assert effective_rate(s) == default_rate()
    s.usd_cny_rate_override = 7.25
    r = effective_rate(s)
    assert r.usd_cny == 7.25
    assert r.source == "your setting"
    assert r.as_of is None
    s.usd_cny_rate_override = 700.0  # a typo must not be used
    assert effective_rate(s) == default_rate()


def test_convert_both_ways_and_unknown_stays_unknown():
    r = ExchangeRate(7.0, "t", None)
    assert convert(1.0, "USD", "CNY", r) == 7.0
    assert convert(14.0, "CNY", "USD", r) == 2.0
    assert convert(3.5, "CNY", "CNY", r) == 3.5
    assert convert(None, "USD", "CNY", r) is None
    with pytest.raises(ValueError):
        convert(1.0, "EUR", "USD", r)


def test_format_money():
    assert format_money(12.344, "CNY") == "¥12.34"
    assert format_money(1.29, "USD") == "$1.29"
    assert format_money(0.0042, "USD") == "$0.0042"
    assert format_money(12345.6, "CNY") == "¥12,345.60"
    assert format_money(None, "USD") == ""
    assert format_money(-2, "USD") == "-$2.00"


def test_rate_file_problems_name_file_and_line(tmp_path):
    p = tmp_path / "fx.csv"
    p.write_text("pair,rate,as_of,source\nUSD/CNY,abc,2026-01-01,x\n", encoding="utf-8")
    with pytest.raises(ValueError, match="fx.csv line 2: rate is not a number"):
        load_rate_file(p)
    p.write_text("pair,rate,as_of,source\nUSD/CNY,7.1,,x\n", encoding="utf-8")
    assert load_rate_file(p).as_of is None
