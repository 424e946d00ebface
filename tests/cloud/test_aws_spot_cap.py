"""The spot maximum on AWS (CloudService.launch, app/cloud/pricing.py), against moto behind the strict
EC2 proxy, whose RunInstances answers SpotMaxPriceTooLow when the cap is under the zone's spot price
(errors-overview.html: "The request's maximum price is less than the minimum required Spot price").

- The default cap (80 % of on-demand) uses the on-demand price of the account's own region and
  currency, never another region's catalog row.
- SpotMaxPriceTooLow moves on to the region's other zones when no zone was asked; when every zone
  refuses (or the zone was asked), the error says what the cap would need: the lowest spot price.
"""

from __future__ import annotations

import pytest

from app.cloud.base import PriceTooLowError
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core.accounts import Account, Credentials
from app.core.errors import InputError
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

ZONES = ("us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d", "us-east-1e", "us-east-1f")


@pytest.fixture
def svc(secret_service, moto, labgpu_home):
    s = CloudService()
    s.accounts.add(Account("lab", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    yield s
    s.close()


def _spot(svc, **kw):
    return svc.launch(LaunchOptions(account="lab", instance_type="g4dn.xlarge", spot=True,
                                    ssh_from="198.51.100.7/32", **kw))


def test_too_low_in_one_zone_tries_the_others(svc, moto):
    moto.strict.spot_prices[("g4dn.xlarge", "us-east-1a")] = 0.5  # over the default cap, 0.8 × 0.526
    res = _spot(svc)
    assert res.entry.zone not in ("", "us-east-1a")
    assert any("Trying" in n for n in res.notes)
    assert res.entry.spot


def test_too_low_everywhere_says_what_the_cap_would_need(svc, moto):
    for i, z in enumerate(ZONES):
        moto.strict.spot_prices[("g4dn.xlarge", z)] = 0.47 + i / 100
    with pytest.raises(PriceTooLowError) as err:
        _spot(svc)
    assert "0.47" in err.value.hint()  # the lowest zone's price, what --max-price would need
    assert svc.pending.open() == []


def test_a_zone_asked_for_is_not_left(svc, moto):
    moto.strict.spot_prices[("g4dn.xlarge", "us-east-1c")] = 0.6
    with pytest.raises(PriceTooLowError) as err:
        _spot(svc, zone="us-east-1c")
    assert "0.6" in err.value.hint()
    assert moto.strict.calls.count("RunInstances") == 1


def test_no_cap_from_another_regions_price(svc, moto):
    """The bundled catalog has g4dn.xlarge in us-east-1 only: in ap-southeast-1 the default cap is unknown
    (it used to take us-east-1's row), so the launch asks for a maximum instead of guessing."""
    with pytest.raises(InputError) as err:
        _spot(svc, region="ap-southeast-1")
    assert err.value.code == "NoOnDemandPrice"
    assert "RunInstances" not in moto.strict.calls
