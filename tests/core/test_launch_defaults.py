"""The defaults a launch takes for empty fields (the launch dialog and `labgpu launch` share them)."""

from __future__ import annotations

import pytest

from app.core.errors import InputError
from app.core.launch_defaults import DEFAULT_SPOT_BID_FRACTION, launch_defaults, spot_cap
from app.core.settings import Settings


def test_spot_cap_is_the_users_or_a_share_of_on_demand():
    assert DEFAULT_SPOT_BID_FRACTION == Settings().spot_bid_fraction == 0.8
    cap = spot_cap(1.006)
    assert cap is not None and (cap.price, cap.fraction, cap.default) == (0.8048, 0.8, True)
    assert spot_cap(2.0, 0.5).price == 1.0
    own = spot_cap(2.0, 0.8, user_cap=0.5)
    assert own is not None and (own.price, own.fraction, own.default) == (0.5, 0.25, False)
    assert spot_cap(None, 0.8, user_cap=0.5).fraction is None  # the user's cap, on-demand unknown
    assert spot_cap(None) is None
    for bad in (0.0, -1.0):
        with pytest.raises(InputError) as err:
            spot_cap(2.0, user_cap=bad)
        assert err.value.code == "BadMaxPrice"


def test_region_zone_and_cap_defaults():
    d = launch_defaults("us-east-1", spot=True, on_demand=1.0)
    assert (d.region, d.zone, d.spot_cap.price) == ("us-east-1", "", 0.8)
    d = launch_defaults("us-east-1", spot=True, on_demand=1.0, fraction=0.6, region="eu-west-1", zone="eu-west-1b")
    assert (d.region, d.zone, d.spot_cap.price) == ("eu-west-1", "eu-west-1b", 0.6)
    assert launch_defaults("us-east-1", spot=False, on_demand=1.0).spot_cap is None  # on-demand: no cap
    assert launch_defaults("us-east-1", spot=True, on_demand=None).spot_cap is None  # unknown: the caller says so
