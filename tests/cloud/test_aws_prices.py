"""Live prices: provider refresh → cache with timestamps → the catalog shows them as live."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from app.cloud.launch import CloudService
from app.core import live_prices
from app.core.accounts import Account, Credentials
from app.core.models import Offer
from app.core.paths import default_paths
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET, ON_DEMAND


def _offer(zone, spot, fetched, od=1.0, sold_out=False):
    return Offer(
        provider="aws",
        region="us-east-1",
        instance_type="g5.xlarge",
        gpu_model="A10G",
        gpu_count=1,
        vram_gb=24,
        vcpu=4,
        ram_gb=16,
        network_gbps=None,
        price_on_demand=od,
        price_spot=spot,
        price_prepaid_month=None,
        currency="USD",
        price_source="test",
        price_date=None,
        zone=zone,
        fetched_at=fetched,
        live=True,
        sold_out=sold_out,
        spot_available=spot is not None,
    )


def test_cache_merges_and_aggregates_zones(labgpu_home):
    paths = default_paths()
    t = datetime(2026, 5, 1, tzinfo=timezone.utc)
    live_prices.save(
        paths,
        [
            _offer("us-east-1a", 0.5, t),
            _offer("us-east-1b", 0.4, t),
            _offer("us-east-1c", 0.1, t, sold_out=True),
        ],
    )
    live_prices.save(
        paths,
        [
            _offer("us-east-1a", 0.3, t + timedelta(hours=1)),
            _offer("us-east-1b", 0.9, t - timedelta(hours=1)),
        ],
    )  # older: ignored
    [agg] = live_prices.load_cached(paths)
    assert agg.live
    assert agg.price_spot == 0.3
    assert agg.zone == "us-east-1a"
    assert agg.fetched_at == t + timedelta(hours=1)
    assert dict(agg.extra)["zones"] == "us-east-1a,us-east-1b,us-east-1c"
    assert len(live_prices.zone_prices(paths, "aws", "us-east-1", "g5.xlarge")) == 3
    cache = json.loads((paths.cache_dir / live_prices.CACHE_NAME).read_text())
    assert cache["version"] == 1
    assert cache["saved_at"]


def test_broken_cache_is_replaced_on_save(labgpu_home):
    paths = default_paths().ensure()
    (paths.cache_dir / live_prices.CACHE_NAME).write_text("{not json")
    with pytest.raises(ValueError):
        live_prices.load_cached(paths)
    live_prices.save(paths, [_offer("us-east-1a", 0.5, None)])
    [o] = live_prices.load_cached(paths)
    assert o.fetched_at is not None


def test_refresh_via_account_reaches_the_catalog(secret_service, aws_proxy, labgpu_home):
    from app.core.catalog import load_catalog

    svc = CloudService()
    svc.accounts.add(Account("lab", "aws", "us-east-1", aws_proxy.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    offers = svc.refresh_prices("lab", ["g4dn.xlarge"])
    assert offers
    assert all(o.price_on_demand == pytest.approx(ON_DEMAND["g4dn.xlarge"]) for o in offers)
    cat = load_catalog(svc.paths)
    live = [o for o in cat.offers if o.live and o.instance_type == "g4dn.xlarge" and o.region == "us-east-1"]
    assert len(live) == 1
    # moto's spot history is a placeholder far under any real price: that one price is refused and named,
    # the believable live on-demand price is kept
    assert any("spot" in p and "bundled one shown" in p for p in cat.problems)
    assert live[0].price_on_demand == pytest.approx(ON_DEMAND["g4dn.xlarge"])
    assert live[0].fetched_at is not None
    assert live[0].fp16_tflops
    assert cat.live_count == 1
    svc.close()


def test_refresh_without_pricing_api_keeps_spot(secret_service, moto, labgpu_home):
    # moto has no Pricing API (AWS does): spot prices still come back, on-demand stays unknown.
    svc = CloudService()
    svc.accounts.add(Account("lab", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    offers = svc.refresh_prices("lab", ["g5.xlarge"])
    assert offers
    assert all(o.price_on_demand is None for o in offers)
    assert any(o.price_spot is not None for o in offers)
    svc.close()
