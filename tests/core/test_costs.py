"""Billing rules, running cost and planned-run estimates, with offers built here (not the CSV)."""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta, timezone

import pytest

from app.core import costs
from app.core.costs import (
    COUNT_GPUS,
    MODE_EPOCHS,
    EstimateInput,
    billed_seconds,
    billing_rule,
    break_even_hours,
    estimate,
    running_cost,
)
from app.core.currency import ExchangeRate
from app.core.models import PROVIDERS, Offer

RATE = ExchangeRate(7.0, "test rate", date(2026, 1, 1))


def make_offer(provider="aws", *, od=3.0, spot=0.9, month=None, currency=None, gpus=1.0,
               instance="p3.2xlarge", spot_available=True) -> Offer:
    return Offer(provider=provider, region="r1", instance_type=instance, gpu_model="V100-16GB",
                 gpu_count=gpus, vram_gb=16, vcpu=8, ram_gb=61, network_gbps=10, price_on_demand=od,
                 price_spot=spot, price_prepaid_month=month,
                 currency=currency or ("CNY" if provider in ("tencent", "alibaba", "huawei") else "USD"),
                 price_source="test", price_date=date(2026, 11, 1), fp16_tflops=125,
                 spot_available=spot_available)


# --- billing rules -----------------------------------------------------------------------------

def test_every_provider_has_a_rule_with_a_sentence_and_a_source():
    for provider in PROVIDERS:
        rule = billing_rule(provider)
        assert rule.provider == provider
        assert rule.text()
        assert rule.source.startswith("https://")


def test_unknown_provider_rule_says_unknown_and_prorates():
    rule = billing_rule("somecloud")
    assert not rule.known
    assert "unknown" in rule.text().lower()
    assert billed_seconds("somecloud", 12.5) == 12.5
    assert not billing_rule("paperspace").known
    assert "unknown" in billing_rule("paperspace").text().lower()


@pytest.mark.parametrize(("seconds", "billed"), [(1, 60), (30, 60), (59.9, 60), (60, 60), (61, 61),
                                                 (61.2, 62), (3600, 3600)])
def test_aws_bills_per_second_with_a_60_second_minimum(seconds, billed):
    assert billed_seconds("aws", seconds) == billed


@pytest.mark.parametrize(("seconds", "billed"), [(1, 1), (30, 30), (61, 61), (3599, 3599), (3601, 3601)])
def test_tencent_bills_per_second_without_minimum(seconds, billed):
    assert billed_seconds("tencent", seconds) == billed


def test_gcp_minute_minimum_and_lambda_whole_minutes():
    assert billed_seconds("gcp", 5) == 60
    assert billed_seconds("gcp", 75) == 75
    assert billed_seconds("lambda", 61) == 120
    assert billed_seconds("lambda", 120) == 120


@pytest.mark.parametrize("bad", [0, -5, float("nan"), float("inf"), "x", None])
def test_nothing_running_bills_nothing(bad):
    assert billed_seconds("aws", bad) == 0.0


def test_running_cost_applies_the_minimum_and_handles_time_zones():
    start = datetime(2026, 12, 1, 8, 0, 0, tzinfo=timezone.utc)
    assert running_cost("aws", 3.6, start, start + timedelta(seconds=10)) == pytest.approx(3.6 / 60)
    assert running_cost("tencent", 36.0, start, start + timedelta(seconds=10)) == pytest.approx(0.1)
    assert running_cost("aws", 3.6, start, start + timedelta(hours=2)) == pytest.approx(7.2)
    naive = datetime(2026, 12, 1, 8, 0, 0)  # naive = UTC
    cst = timezone(timedelta(hours=8))
    assert running_cost("tencent", 36.0, naive, datetime(2026, 12, 1, 17, 0, 0, tzinfo=cst)) == \
        pytest.approx(36.0)
    # Clock skew (now before start) bills nothing rather than a negative amount.
    assert running_cost("aws", 3.6, start, start - timedelta(minutes=1)) == 0.0


def test_running_cost_with_unknown_price_is_unknown_not_zero():
    start = datetime(2026, 12, 1, tzinfo=timezone.utc)
    assert running_cost("aws", None, start, start + timedelta(hours=1)) is None
    assert running_cost("aws", float("nan"), start, start + timedelta(hours=1)) is None


# --- estimates -----------------------------------------------------------------------------------

def test_estimate_hours_on_demand_spot_and_prepaid():
    offer = make_offer(od=3.0, spot=1.0, month=1000.0)
    res = estimate(offer, EstimateInput(hours=10, count=2, spot_overhead_pct=20, months=1), RATE)
    assert res.ok, res.errors
    e = res.estimate
    assert e.on_demand.native == pytest.approx(3.0 * 10 * 2)
    assert e.on_demand.usd == pytest.approx(60.0)
    assert e.on_demand.cny == pytest.approx(420.0)
    assert e.spot.native == pytest.approx(1.0 * 12 * 2)  # 20 % more time on spot
    assert e.prepaid_month.native == pytest.approx(2000.0)
    assert e.prepaid_year.native == pytest.approx(24000.0)
    assert e.break_even_on_demand_h == pytest.approx(1000 / 3.0)
    assert e.break_even_spot_h == pytest.approx(1000 / 1.2)
    assert e.rule.provider == "aws"


def test_estimate_epochs_and_native_cny_converted_to_usd():
    offer = make_offer("tencent", od=28.0, spot=None, month=None, spot_available=False)
    res = estimate(offer, EstimateInput(mode=MODE_EPOCHS, epochs=90, minutes_per_epoch="20"), RATE)
    assert res.ok
    e = res.estimate
    assert e.run_hours == pytest.approx(30.0)
    assert e.on_demand.native == pytest.approx(28.0 * 30)
    assert e.on_demand.currency == "CNY"
    assert e.on_demand.usd == pytest.approx(28.0 * 30 / 7.0)
    assert e.spot.native is None
    assert "spot" in e.spot.note
    assert e.prepaid_month.native is None
    assert e.prepaid_month.note
    assert e.break_even_on_demand_h is None


def test_short_aws_run_is_billed_the_minute():
    res = estimate(make_offer(od=3.6), EstimateInput(hours=0.005), RATE)  # 18 s
    assert res.estimate.on_demand.native == pytest.approx(3.6 / 60)
    assert any("60" in n for n in res.estimate.notes)


def test_unknown_price_stays_unknown():
    offer = make_offer(od=None, spot=None, month=None)
    e = estimate(offer, EstimateInput(hours=5), RATE).estimate
    assert e.on_demand.native is None
    assert e.on_demand.cny is None
    assert e.on_demand.usd is None
    assert "unknown" in e.on_demand.note
    assert e.spot.native is None
    assert "unknown" in e.spot.note


def test_gpus_are_rounded_up_to_whole_instances():
    offer = make_offer(od=24.0, gpus=8, instance="p3.16xlarge")
    e = estimate(offer, EstimateInput(hours=1, count=12, count_unit=COUNT_GPUS), RATE).estimate
    assert e.instances == 2
    assert e.gpus_total == 16
    assert e.on_demand.native == pytest.approx(48.0)
    assert any("16" in n for n in e.notes)


def test_long_run_needs_more_prepaid_months():
    e = estimate(make_offer(month=500.0), EstimateInput(hours=2000, months=1), RATE).estimate
    assert e.prepaid_months == 3  # 2000 h > 2 × 730 h
    assert e.prepaid_month.native == pytest.approx(1500.0)


def test_break_even_never_when_prepaid_costs_more_than_a_full_month():
    assert break_even_hours(5000.0, 3.0) > costs.HOURS_PER_MONTH
    assert costs.prepaid_never_wins(break_even_hours(5000.0, 3.0))
    assert "never" in costs.describe_break_even(break_even_hours(5000.0, 3.0))
    assert costs.describe_break_even(365.0).startswith("365 h/month (50 %")
    assert break_even_hours(None, 3.0) is None
    assert break_even_hours(100.0, 0.0) is None


@pytest.mark.parametrize(("inp", "field"), [
    (EstimateInput(hours=-1), "hours"),
    (EstimateInput(hours=0), "hours"),
    (EstimateInput(hours=float("nan")), "hours"),
    (EstimateInput(hours="ten"), "hours"),
    (EstimateInput(hours=""), "hours"),
    (EstimateInput(hours=1e9), "hours"),
    (EstimateInput(count=0), "count"),
    (EstimateInput(count=1.5), "count"),
    (EstimateInput(count="abc"), "count"),
    (EstimateInput(spot_overhead_pct=-3), "spot_overhead_pct"),
    (EstimateInput(months=0), "months"),
    (EstimateInput(mode=MODE_EPOCHS, epochs=10, minutes_per_epoch=-2), "minutes_per_epoch"),
    (EstimateInput(mode=MODE_EPOCHS, epochs=None, minutes_per_epoch=2), "epochs"),
    (EstimateInput(mode="weeks"), "mode"),
])
def test_invalid_input_gives_a_message_per_field_never_an_exception(inp, field):
    res = estimate(make_offer(), inp, RATE)
    assert not res.ok
    assert res.estimate is None
    assert field in res.errors
    assert res.errors[field]


def test_several_invalid_fields_are_all_reported():
    res = estimate(make_offer(), EstimateInput(hours=-1, count=0, spot_overhead_pct="x", months=-1), RATE)
    assert set(res.errors) == {"hours", "count", "spot_overhead_pct", "months"}


def test_estimate_values_are_finite():
    e = estimate(make_offer(od=1e-6, spot=1e-7, month=1e-3), EstimateInput(hours=87_600), RATE).estimate
    for m in (e.on_demand, e.spot, e.prepaid_month, e.prepaid_year):
        assert m.native is not None
        assert math.isfinite(m.native)
