"""Spot price history through the provider protocol: AWS against moto over HTTP (real boto3), the
fault proxy for AWS's errors, and a provider without the capability."""

from __future__ import annotations

import pytest

from app.cloud.aws import AwsProvider
from app.cloud.base import AuthError, NotSupportedError, spot_price_history
from app.core import providers
from app.core.accounts import Account, Credentials
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

CREDS = Credentials(AWS_KEY_ID, AWS_SECRET)


def test_aws_declares_the_capability_and_others_need_not():
    assert providers.has("aws", "spot_price_history")
    assert not providers.has("tencent", "spot_price_history")


def test_aws_history_from_moto_per_zone_and_for_one_zone(moto, aws_proxy):
    acct = Account("lab", "aws", "us-east-1", aws_proxy.url)
    points = spot_price_history(AwsProvider(), acct, CREDS, "g5.xlarge")
    zones = sorted({p.zone for p in points})
    assert len(zones) > 1 and all(z.startswith("us-east-1") for z in zones)
    assert {p.currency for p in points} == {"USD"} and all(p.price > 0 for p in points)
    assert all(p.time.tzinfo is not None for p in points)
    sent = aws_proxy.params("DescribeSpotPriceHistory")[-1]
    assert sent["InstanceType.1"] == "g5.xlarge" and sent["ProductDescription.1"] == "Linux/UNIX"
    assert sent["StartTime"] < sent["EndTime"]
    one = spot_price_history(AwsProvider(), acct, CREDS, "g5.xlarge", zone=zones[1])
    assert {p.zone for p in one} == {zones[1]}
    assert aws_proxy.params("DescribeSpotPriceHistory")[-1]["AvailabilityZone"] == zones[1]


def test_aws_history_error_is_mapped(moto, aws_proxy):
    acct = Account("lab", "aws", "us-east-1", aws_proxy.url)
    aws_proxy.inject("DescribeSpotPriceHistory", "AuthFailure", "AWS was not able to validate the credentials.", 401)
    with pytest.raises(AuthError) as info:
        spot_price_history(AwsProvider(), acct, CREDS, "g5.xlarge")
    assert info.value.hint()


def test_a_provider_without_the_capability_says_so():
    from app.cloud.base import get_provider

    acct = Account("lab-tc", "tencent", "ap-guangzhou")
    with pytest.raises(NotSupportedError) as info:
        spot_price_history(get_provider("tencent"), acct, Credentials("AKIDx" * 4, "s"), "GN7.2XLARGE32")
    assert "Tencent" in info.value.text() and info.value.hint()
