"""Catalog loading, bad rows, live merge, filters, derived prices and price age (no Qt)."""

from __future__ import annotations

import csv
import io
import math
import sys
import types
from dataclasses import replace
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.core import catalog
from app.core.catalog import load_catalog
from app.core.currency import ExchangeRate
from app.core.models import PROVIDERS, Offer
from app.core.offerprices import offer_to_dict, price_age, price_per_gpu_hour, price_per_tflop_hour
from app.core.offerquery import OfferFilter, filter_offers, gpu_matches, sort_offers
from app.core.resources import resource_path

RATE = ExchangeRate(7.0, "test", date(2026, 1, 1))
HEADER = ",".join(catalog.OFFER_COLUMNS_REQUIRED + ("spot_available", "interconnect", "dedicated", "notes"))


def _row(**over: str) -> str:
    base = dict(provider="aws", region="us-east-1", instance_type="x.1", gpu_model="T4", gpu_count="1",
                vram_gb="16", vcpu="4", ram_gb="16", network_gbps="", price_on_demand="0.5",
                price_spot="", price_prepaid_month="", currency="USD", price_source="src",
                price_date="", spot_available="no", interconnect="", dedicated="no", notes="")
    base.update(over)
    buf = io.StringIO()
    csv.writer(buf, lineterminator="").writerow(base.values())
    return buf.getvalue()


def _write(tmp_path: Path, *lines: str, header: str = HEADER) -> Path:
    p = tmp_path / "offers.csv"
    p.write_text("\n".join((header, *lines)) + "\n", encoding="utf-8")
    return p


# -- the bundled catalog ----------------------------------------------------------------------


def test_bundled_catalog_loads_cleanly_and_covers_every_provider():
    load = load_catalog(include_live=False)
    assert load.problems == []
    assert len(load.offers) >= 40
    assert {o.provider for o in load.offers} == set(PROVIDERS)
    # the instance types the issue names are all there
    types_ = {o.instance_type for o in load.offers}
    for needed in ("p3.2xlarge", "p3.8xlarge", "p4d.24xlarge", "p5.48xlarge", "g4dn.xlarge", "g5.xlarge",
                   "g6.xlarge", "Standard_NC6s_v3", "Standard_ND96asr_v4", "Standard_NC24ads_A100_v4",
                   "Standard_ND96isr_H100_v5", "a2-highgpu-1g", "g2-standard-4", "n1-standard-8 + 1x T4",
                   "n1-standard-8 + 1x V100", "p2v.2xlarge.8", "p2s.2xlarge.8", "pi2.2xlarge.4"):
        assert needed in types_, needed
    for prefix in ("GN7.", "GN10X.", "GN10Xp.", "GT4.", "ecs.gn6i", "ecs.gn6v", "ecs.gn7i", "ecs.gn7-"):
        assert any(t.startswith(prefix) for t in types_), prefix


def test_bundled_prices_have_sources_and_unknown_prices_stay_empty():
    load = load_catalog(include_live=False)
    for o in load.offers:
        assert o.currency in ("USD", "CNY")
        if o.price_on_demand is not None or o.price_spot is not None:
            assert o.price_source, o.key
        if o.provider == "alibaba" or o.instance_type.startswith("GN7vw") or (
                o.provider == "huawei" and o.instance_type != "p2v.16xlarge.8"):
            # no public source gives these prices: they must not be invented
            assert o.price_on_demand is None
            assert o.price_spot is None
        if o.provider in ("tencent", "alibaba", "huawei"):
            assert o.currency == "CNY"
            assert o.price_spot is None  # no public spot list price for the China clouds
    p4d = next(o for o in load.offers if o.instance_type == "p4d.24xlarge")
    assert p4d.price_date == date(2026, 11, 9)
    assert "EFA" in p4d.interconnect
    assert p4d.dedicated
    assert p4d.fp16_tflops == 312


def test_gpu_specs_filled_from_gpus_csv():
    load = load_catalog(include_live=False)
    assert load.gpus["H100-SXM"].fp16_tflops == 989
    g5 = next(o for o in load.offers if o.instance_type == "g5.xlarge")
    assert g5.fp16_tflops is None  # NVIDIA publishes no A10G figure: unknown, not guessed
    assert price_per_tflop_hour(g5) is None


def test_fx_file_and_offers_file_are_in_resources():
    assert resource_path("catalog", "offers.csv").is_file()
    assert resource_path("catalog", "fx.csv").is_file()


# -- malformed rows ---------------------------------------------------------------------------


@pytest.mark.parametrize(("over", "problem"), [
    ({"gpu_count": "two"}, "gpu_count is not a number"),
    ({"price_on_demand": "cheap"}, "price_on_demand is not a number"),
    ({"currency": "EUR"}, "unknown currency 'EUR'"),
    ({"provider": "oracle"}, "unknown provider 'oracle'"),
    ({"gpu_model": "Z999"}, "unknown gpu_model 'Z999'"),
    ({"price_date": "last week"}, "price_date is not a YYYY-MM-DD date"),
    ({"vram_gb": "-16"}, "vram_gb must be a positive number"),
    ({"price_source": ""}, "a price without price_source"),
    ({"spot_available": "maybe"}, "spot_available must be yes or no"),
])
def test_malformed_row_is_named_with_file_and_line_and_skipped(tmp_path, over, problem):
    path = _write(tmp_path, _row(instance_type="good.1"), _row(instance_type="bad.1", **over),
                  _row(instance_type="good.2"))
    load = load_catalog(offers_path=path, include_live=False)
    assert [o.instance_type for o in load.offers] == ["good.1", "good.2"]
    assert len(load.problems) == 1
    assert load.problems[0].startswith("offers.csv line 3: ")
    assert problem in load.problems[0]


def test_row_with_missing_cells_is_reported(tmp_path):
    short = "aws,us-east-1,short.1,T4,1,16"
    path = _write(tmp_path, _row(), short)
    load = load_catalog(offers_path=path, include_live=False)
    assert len(load.offers) == 1
    assert len(load.problems) == 1
    assert load.problems[0].startswith("offers.csv line 3: missing column(s) vcpu, ram_gb, network_gbps")


def test_row_with_extra_cells_is_reported(tmp_path):
    path = _write(tmp_path, _row() + ",surplus")
    load = load_catalog(offers_path=path, include_live=False)
    assert load.offers == []
    assert "more cells than the header" in load.problems[0]


def test_header_missing_a_column_skips_the_file_with_a_clear_problem(tmp_path):
    header = HEADER.replace(",price_date", "")
    path = _write(tmp_path, _row(), header=header)
    load = load_catalog(offers_path=path, include_live=False)
    assert load.offers == []
    assert load.problems == ["offers.csv line 1: header lacks column(s) price_date; file skipped"]


def test_duplicate_offer_keeps_the_first(tmp_path):
    path = _write(tmp_path, _row(price_on_demand="1"), _row(price_on_demand="2"))
    load = load_catalog(offers_path=path, include_live=False)
    assert [o.price_on_demand for o in load.offers] == [1.0]
    assert "line 3: duplicate offer aws/us-east-1/x.1" in load.problems[0]


def test_line_numbers_count_blank_lines(tmp_path):
    path = _write(tmp_path, _row(instance_type="a"), "", _row(instance_type="b", currency="XYZ"))
    load = load_catalog(offers_path=path, include_live=False)
    assert load.problems[0].startswith("offers.csv line 4:")


def test_missing_file_is_a_problem_not_a_crash(tmp_path):
    load = load_catalog(offers_path=tmp_path / "nope.csv", include_live=False)
    assert load.offers == []
    assert load.problems[0].startswith("nope.csv: cannot read")


# -- live prices ------------------------------------------------------------------------------


def _install_live(monkeypatch, loader):
    module = types.ModuleType("app.core.live_prices")
    module.load_cached = loader  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "app.core.live_prices", module)


def test_live_prices_replace_bundled_by_key_and_add_new(monkeypatch):
    bundled = load_catalog(include_live=False)
    p3 = next(o for o in bundled.offers if o.instance_type == "p3.2xlarge")
    fetched = datetime.now(timezone.utc) - timedelta(minutes=5)
    live_p3 = replace(p3, price_on_demand=2.5, live=True, fetched_at=fetched, fp16_tflops=None)
    new = replace(p3, region="us-west-2", price_on_demand=2.9, live=True, fetched_at=fetched)
    seen = []
    _install_live(monkeypatch, lambda paths: seen.append(paths) or [live_p3, new])
    load = load_catalog("PATHS")
    assert seen == ["PATHS"]
    assert load.live_count == 2
    assert len(load.offers) == len(bundled.offers) + 1
    got = next(o for o in load.offers if o.key == p3.key)
    assert got.price_on_demand == 2.5
    assert got.live
    assert got.fp16_tflops == 125
    assert price_age(got).text() == "live 5 min ago"
    assert any(o.key == new.key for o in load.offers)


def test_broken_live_cache_keeps_bundled_catalog(monkeypatch):
    def broken(_paths):
        raise ValueError("cache corrupt")

    _install_live(monkeypatch, broken)
    load = load_catalog()
    assert len(load.offers) >= 40
    assert load.problems == ["live price cache: cache corrupt; bundled prices shown"]


# -- derived values, filters, sorting ---------------------------------------------------------


def _offer(**over) -> Offer:
    base = dict(provider="aws", region="us-east-1", instance_type="x", gpu_model="A100-40GB", gpu_count=8,
                vram_gb=40, vcpu=96, ram_gb=1152, network_gbps=400, price_on_demand=32.0, price_spot=None,
                price_prepaid_month=None, currency="USD", price_source="s", price_date=None, fp16_tflops=312)
    base.update(over)
    return Offer(**base)


def test_derived_prices():
    o = _offer()
    assert price_per_gpu_hour(o) == 4.0
    assert price_per_tflop_hour(o) == pytest.approx(32 / (8 * 312))
    assert price_per_gpu_hour(_offer(price_on_demand=None)) is None
    assert price_per_tflop_hour(_offer(fp16_tflops=None)) is None
    assert price_per_gpu_hour(_offer(price_spot=8.0), "spot") == 1.0


def test_gpu_loose_match():
    assert gpu_matches("A100", "A100-40GB")
    assert gpu_matches("a100", "A100-80GB-PCIe")
    assert gpu_matches("A100-80GB", "A100-80GB-PCIe")
    assert gpu_matches("a100 80gb", "A100-80GB")
    assert not gpu_matches("A10", "A100-40GB")
    assert gpu_matches("A10", "A10")
    assert not gpu_matches("A10", "A10G")
    assert not gpu_matches("A100-80GB", "A100-40GB")
    assert gpu_matches("v100", "V100-PCIe-16GB")


def test_filters_each_field():
    offers = [
        _offer(instance_type="a", provider="aws", gpu_model="A100-40GB", gpu_count=8, vram_gb=40),
        _offer(instance_type="b", provider="tencent", region="ap-guangzhou", currency="CNY", gpu_model="T4",
               gpu_count=1, vram_gb=16, price_on_demand=20.0, spot_available=True, price_spot=5.0),
        _offer(instance_type="c", provider="lambda", region="all regions", gpu_model="H100-SXM", gpu_count=1,
               vram_gb=80, price_on_demand=None),
    ]

    def names(**kw) -> list[str]:
        return [o.instance_type for o in filter_offers(offers, OfferFilter(**kw), RATE)]

    assert names() == ["a", "b", "c"]
    assert names(providers=("aws", "lambda")) == ["a", "c"]
    assert names(gpu_models=("A100", "T4")) == ["a", "b"]
    assert names(min_vram=40) == ["a", "c"]
    assert names(gpu_count=1) == ["b", "c"]
    assert names(spot_only=True) == ["b"]
    assert names(region="GUANGZHOU") == ["b"]
    # CNY 20/h = USD 2.86 at 7.0; USD 32 = CNY 224; unknown prices never pass a maximum
    assert names(max_price=25, currency="CNY") == ["b"]
    assert names(max_price=224, currency="CNY") == ["a", "b"]
    assert names(max_price=3, currency="USD") == ["b"]
    assert names(max_price=0.72, currency="USD", spot_only=True) == ["b"]
    assert names(max_price=0.7, currency="USD", spot_only=True) == []
    assert names(text="guangzhou t4") == ["b"]


def test_sort_puts_unknown_last_in_both_directions_and_compares_across_currencies():
    a = _offer(instance_type="a", price_on_demand=10.0)  # USD 10
    b = _offer(instance_type="b", currency="CNY", price_on_demand=35.0)  # USD 5
    c = _offer(instance_type="c", price_on_demand=None)
    assert [o.instance_type for o in sort_offers([a, b, c], "price", RATE)] == ["b", "a", "c"]
    desc = sort_offers([a, b, c], "price", RATE, descending=True)
    assert [o.instance_type for o in desc] == ["a", "b", "c"]
    with pytest.raises(ValueError):
        sort_offers([a], "colour", RATE)


def test_vram_sorts_per_gpu_everywhere_and_total_vram_is_its_own_key():
    """The table's VRAM column and `labgpu offers --sort vram` agree: per GPU (was: total in the CLI)."""
    one_big = _offer(instance_type="one_big", gpu_count=1, vram_gb=80.0, price_on_demand=4.0)
    eight_small = _offer(instance_type="eight_small", gpu_count=8, vram_gb=24.0, price_on_demand=9.0)
    assert [o.instance_type for o in sort_offers([one_big, eight_small], "vram", RATE)] == [
        "eight_small", "one_big"]
    assert [o.instance_type for o in sort_offers([one_big, eight_small], "total_vram", RATE)] == [
        "one_big", "eight_small"]
    # the CLI's older names are the table's keys
    assert sort_offers([one_big, eight_small], "price", RATE) == sort_offers([one_big, eight_small], "on_demand", RATE)


def test_filter_round_trips_through_settings_and_tolerates_junk():
    f = OfferFilter(providers=("aws",), gpu_models=("A100",), min_vram=40, gpu_count=8, max_price=20,
                    currency="CNY", spot_only=True, region="us", text="p4d")
    assert OfferFilter.from_dict(f.to_dict()) == f
    junk = OfferFilter.from_dict({"providers": ["nope", 3], "min_vram": "lots", "max_price": -1,
                                  "currency": "EUR", "gpu_count": float("nan")})
    assert junk == OfferFilter()
    assert OfferFilter.from_dict("garbage") == OfferFilter()


def test_price_age_labels():
    now = datetime(2026, 12, 2, 12, 0, tzinfo=timezone.utc)
    assert price_age(_offer(price_date=None), now).text() == "undated snapshot"
    assert math.isinf(price_age(_offer(price_date=None), now).seconds)
    assert price_age(_offer(price_date=date(2026, 11, 29)), now).text() == "bundled, 2026-11-29"
    assert price_age(_offer(price_date=date(2026, 11, 29)), now).days == 3
    assert price_age(_offer(price_date=date(2026, 12, 2)), now).text() == "bundled, 2026-12-02"
    live = _offer(live=True, fetched_at=now - timedelta(minutes=5))
    assert price_age(live, now).text() == "live 5 min ago"
    just_now = _offer(live=True, fetched_at=now - timedelta(seconds=10))
    assert price_age(just_now, now).text() == "live, just now"
    assert price_age(_offer(live=True, fetched_at=now - timedelta(hours=3)), now).text() == "live 3 h ago"
    public = _offer(live=True, origin="public", fetched_at=now - timedelta(minutes=5))
    assert price_age(public, now).text() == "fetched 5 min ago"
    assert price_age(replace(public, fetched_at=now - timedelta(hours=2)), now).text() == "fetched 2 h ago"


def test_a_price_older_than_a_year_says_so_relative_to_the_clock():
    dated = _offer(price_date=date(2025, 12, 1))
    assert not price_age(dated, datetime(2026, 12, 1, tzinfo=timezone.utc)).stale  # exactly 365 days
    old = price_age(dated, datetime(2026, 12, 2, tzinfo=timezone.utc))
    assert old.stale
    assert old.text() == "bundled, 2025-12-01 — over a year old"
    assert not price_age(_offer(price_date=None), datetime(2030, 1, 1, tzinfo=timezone.utc)).stale
    assert price_age(_offer(price_on_demand=None, price_date=date(2020, 1, 1))).text() == "no price"
    fetched = _offer(live=True, origin="public", fetched_at=datetime(2025, 1, 1, tzinfo=timezone.utc))
    assert price_age(fetched, datetime(2026, 12, 2, tzinfo=timezone.utc)).stale


def test_offer_to_dict_has_the_cli_fields():
    d = offer_to_dict(_offer(price_date=date(2026, 1, 2)))
    for k in ("provider", "region", "instance_type", "gpu_model", "gpu_count", "vram_gb", "fp16_tflops",
              "vcpu", "ram_gb", "network_gbps", "price_on_demand", "price_spot", "price_prepaid_month",
              "currency", "price_source", "price_date", "price_per_tflop_hour", "live"):
        assert k in d
    assert d["price_date"] == "2026-01-02"
    assert d["price_spot"] is None


def test_real_live_price_cache_is_merged(labgpu_home):
    """Through H3's real cache module (app.core.live_prices), not a stand-in."""
    from app.core import live_prices
    from app.core.paths import default_paths

    paths = default_paths().ensure()
    bundled = load_catalog(paths, include_live=False)
    gn7 = next(o for o in bundled.offers if o.instance_type == "GN7.2XLARGE32")
    fetched = datetime.now(timezone.utc) - timedelta(minutes=3)
    live_prices.save(paths, [replace(gn7, price_on_demand=8.68, price_spot=1.2, fetched_at=fetched,
                                     price_source="Tencent InquiryPriceRunInstances")])
    load = load_catalog(paths)
    got = next(o for o in load.offers if o.key == gn7.key)
    assert got.live
    assert got.price_on_demand == 8.68
    assert got.fp16_tflops == 65
    assert load.live_count >= 1
    assert len(load.offers) == len(bundled.offers)
    assert price_age(got).text() == "live 3 min ago"


def test_fast_filter_mask_agrees_with_offer_matches():
    import random

    from app.core.offerquery import filter_mask, offer_matches

    load = load_catalog(include_live=False)
    rnd = random.Random(7)
    offers = load.offers
    for _ in range(300):
        flt = OfferFilter(
            providers=tuple(rnd.sample(sorted(PROVIDERS), rnd.randint(0, 3))),
            gpu_models=tuple(rnd.sample(["A100", "H100", "T4", "V100", "L4", "A10", "4090"],
                                        rnd.randint(0, 2))),
            min_vram=rnd.choice([None, 16, 24, 40, 80]),
            gpu_count=rnd.choice([None, 1, 8]),
            max_price=rnd.choice([None, 1.0, 3.06, 10.0, 21.42, 100.0]),
            currency=rnd.choice(["USD", "CNY"]),
            spot_only=rnd.random() < 0.3,
            region=rnd.choice(["", "us", "east", "guangzhou"]),
            text=rnd.choice(["", "nvlink", "a100 aws", "spot"]),
        )
        assert filter_mask(offers, flt, RATE, load.gpus) == [offer_matches(o, flt, RATE, load.gpus)
                                                             for o in offers], flt
