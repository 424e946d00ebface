"""An instance's price (app/cloud/pricing.py: the spot cap's on-demand base, the price a budget guard and the
ledger use) never comes from a cached live price that is not a price (0, NaN, negative): the bundled
catalog's price is used instead, and a zero spot price is no spot price."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timezone

import pytest

from app.cloud import pricing
from app.core import live_prices
from app.core.accounts import Account
from app.core.catalog import load_catalog
from app.core.paths import default_paths

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=timezone.utc)


@pytest.mark.parametrize("bad", [0.0, -1.0, float("nan")])
def test_a_cached_price_that_is_not_a_price_is_never_used(labgpu_home, bad):
    paths = default_paths().ensure()
    account = Account("lab", "aws", "us-east-1")
    bundled = next(o for o in load_catalog(paths, include_live=False).offers
                   if (o.provider, o.region, o.instance_type) == ("aws", "us-east-1", "g5.xlarge"))
    assert pricing.on_demand_price(paths, account, "g5.xlarge") == (bundled.price_on_demand, "catalog")
    live_prices.save(paths, [replace(bundled, price_on_demand=bad, price_spot=bad, zone="us-east-1a",
                                     fetched_at=NOW)])
    assert pricing.on_demand_price(paths, account, "g5.xlarge") == (bundled.price_on_demand, "catalog")
    assert pricing.spot_price(paths, account, "g5.xlarge", "us-east-1a") is None
    live_prices.save(paths, [replace(bundled, price_on_demand=1.1, price_spot=0.4, zone="us-east-1a",
                                     fetched_at=NOW)])
    assert pricing.on_demand_price(paths, account, "g5.xlarge") == (1.1, "live")  # a real price is used
    assert pricing.spot_price(paths, account, "g5.xlarge", "us-east-1a") == 0.4


def test_the_cache_keeps_what_the_cloud_said(labgpu_home):
    """The refusal is pricing's own: the cache holds the zero price (so the test above tests pricing)."""
    paths = default_paths().ensure()
    bundled = next(o for o in load_catalog(paths, include_live=False).offers
                   if (o.provider, o.region, o.instance_type) == ("aws", "us-east-1", "g5.xlarge"))
    live_prices.save(paths, [replace(bundled, price_on_demand=0.0, zone="us-east-1a", fetched_at=NOW)])
    assert [o.price_on_demand for o in live_prices.load_cached(paths) if o.instance_type == "g5.xlarge"] == [0.0]
