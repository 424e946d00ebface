"""The strict Huawei Cloud peer against the official SDK: it accepts the SDK's real SDK-HMAC-SHA256
requests (IAM's project look-up, then ECS) and refuses a wrong SK, an unknown AK and a skewed date with
the API Gateway's documented error body; the plugin maps those refusals to a sentence and a next step."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from app.cloud.base import AuthError
from app.core.accounts import Account, Credentials
from tests.fixtures.huawei_ecs_server import HuaweiPeer, signature_of

AK = "HPUAPEERTESTKEY00001"
SK = "peer-test-sk-0123456789abcdef"


@pytest.fixture
def peer() -> Iterator[HuaweiPeer]:
    server = HuaweiPeer().start()
    server.add_key(AK, SK)
    try:
        yield server
    finally:
        server.stop()


def _provider() -> Any:
    from app.cloud.huawei.provider import HuaweiProvider

    return HuaweiProvider(sleep=lambda _s: None)


def _account(peer: HuaweiPeer, region: str = "cn-north-4", **extra: str) -> Account:
    return Account("lab", "huawei", region, peer.endpoint, dict(extra))


def test_the_sdks_real_requests_are_accepted_project_looked_up_then_ecs(peer: HuaweiPeer) -> None:
    said = _provider().validate(_account(peer, "cn-east-3"), Credentials(AK, SK))
    assert "3 availability zones" in said and SK not in said and AK not in said
    project = peer.keys[AK].projects["cn-east-3"]
    assert [(c.method, c.path) for c in peer.calls][-1] == ("GET", f"/v1/{project}/availability-zones")
    assert peer.calls[-1].headers["x-project-id"] == project
    assert peer.calls[-1].headers["authorization"].startswith("SDK-HMAC-SHA256 Access=" + AK + ", ")
    assert peer.refused == []


def test_a_set_project_id_skips_the_iam_look_up(peer: HuaweiPeer) -> None:
    project = peer.keys[AK].projects["cn-south-1"]
    _provider().validate(_account(peer, "cn-south-1", project_id=project), Credentials(AK, SK))
    assert [c.path for c in peer.calls] == [f"/v1/{project}/availability-zones"]


def test_a_wrong_secret_is_refused_and_mapped_with_its_next_step(peer: HuaweiPeer) -> None:
    project = peer.keys[AK].projects["cn-north-4"]
    with pytest.raises(AuthError) as caught:
        _provider().validate(_account(peer, project_id=project), Credentials(AK, "not-the-sk"))
    assert caught.value.code == "APIGW.0301"
    assert "paste the AK and SK again" in caught.value.hint()
    assert peer.refused == [("APIGW.0301", "verify aksk signature fail")]
    assert peer.calls == []


def test_a_wrong_secret_during_the_project_look_up_names_the_gateways_code(peer: HuaweiPeer) -> None:
    with pytest.raises(AuthError) as caught:
        _provider().validate(_account(peer, "ap-southeast-1"), Credentials(AK, "not-the-sk"))
    assert caught.value.code == "APIGW.0301"


def test_an_unknown_access_key_is_refused(peer: HuaweiPeer) -> None:
    with pytest.raises(AuthError):
        _provider().validate(_account(peer, project_id="0" * 32), Credentials("HPUAUNKNOWN000000000", SK))
    assert peer.refused == [("APIGW.0301", "Get secretKey failed,ak:HPUA******,err:ak not exist")]


@pytest.mark.parametrize(("skew_s", "accepted"), [(14 * 60, True), (-14 * 60, True), (16 * 60, False),
                                                   (-16 * 60, False)])
def test_a_date_more_than_15_minutes_off_is_refused(peer: HuaweiPeer, skew_s: float, accepted: bool) -> None:
    peer.skew_s = skew_s
    project = peer.keys[AK].projects["cn-north-4"]
    if accepted:
        _provider().validate(_account(peer, project_id=project), Credentials(AK, SK))
        assert peer.refused == []
    else:
        with pytest.raises(AuthError):
            _provider().validate(_account(peer, project_id=project), Credentials(AK, SK))
        assert peer.refused == [("APIGW.0301", "request expired: X-Sdk-Date more than 15 minutes off")]


def test_another_accounts_project_is_refused(peer: HuaweiPeer) -> None:
    from app.cloud.errors import PermissionError_

    with pytest.raises(PermissionError_) as caught:
        _provider().validate(_account(peer, project_id="f" * 32), Credentials(AK, SK))
    assert caught.value.code == "APIGW.0306"


def test_throttling_is_retried_then_answers(peer: HuaweiPeer) -> None:
    peer.fail_next(429, "APIGW.0308", "The throttling threshold has been reached")
    project = peer.keys[AK].projects["cn-north-4"]
    assert "availability zones" in _provider().validate(_account(peer, project_id=project), Credentials(AK, SK))
    assert len(peer.calls) == 2


def test_the_peers_signature_is_the_sdks_on_an_awkward_request() -> None:
    """Query values with spaces, '~', '/', lists and booleans; a path segment to encode; a JSON body."""
    from huaweicloudsdkcore.auth.credentials import BasicCredentials
    from huaweicloudsdkcore.sdk_request import SdkRequest
    from huaweicloudsdkcore.signer.signer import Signer

    request = SdkRequest(method="POST", schema="http", host="127.0.0.1:9", resource_path="/v1/p 1/cloudservers/a~b",
                         query_params=[("name", "a b/c~d"), ("flag", True), ("ids", ["z", "a"])],
                         header_params={"Content-Type": "application/json;charset=UTF-8"},
                         body=b'{"x": 1}')
    signed = Signer(BasicCredentials(AK, SK)).sign(request)
    headers = {k.lower(): str(v) for k, v in signed.header_params.items()}
    auth = headers.pop("authorization")
    names = auth.split("SignedHeaders=")[1].split(",")[0].split(";")
    from urllib.parse import quote

    raw_path = quote("/v1/p 1/cloudservers/a~b") + "?" + signed.uri.split("?", 1)[1]
    assert auth.endswith("Signature=" + signature_of(SK, "POST", raw_path, headers, names, b'{"x": 1}',
                                                     headers["x-sdk-date"]))


def test_live_prices_from_bss_through_the_peer(peer: HuaweiPeer) -> None:
    """BSS ListOnDemandResourceRatings: the domain looked up (KeystoneListAuthDomains), the region's project
    named in the body, one product per flavor, the hourly amount as the on-demand price."""
    peer.prices[("cn-north-4", "p2s.2xlarge.8.linux")] = 21.5
    peer.prices[("cn-north-4", "pi2.2xlarge.4.linux")] = 8.25
    offers = _provider().refresh_prices(_account(peer), Credentials(AK, SK), ["p2s.2xlarge.8", "pi2.2xlarge.4"])
    assert {(o.instance_type, o.price_on_demand, o.currency) for o in offers} == {
        ("p2s.2xlarge.8", 21.5, "CNY"), ("pi2.2xlarge.4", 8.25, "CNY")}
    assert all(o.live and o.fetched_at and o.region == "cn-north-4" and o.gpu_model != "?" for o in offers)
    rating = [c for c in peer.calls if c.path == "/v2/bills/ratings/on-demand-resources"]
    assert len(rating) == 1 and rating[0].headers["x-domain-id"] == peer.domain_id
    assert "/v3/auth/domains" in [c.path for c in peer.calls]
    assert peer.refused == []


def test_a_flavor_without_a_price_is_left_out(peer: HuaweiPeer) -> None:
    peer.prices[("cn-north-4", "pi2.2xlarge.4.linux")] = 8.25
    offers = _provider().refresh_prices(_account(peer), Credentials(AK, SK), ["p2s.2xlarge.8", "pi2.2xlarge.4"])
    assert [o.instance_type for o in offers] == ["pi2.2xlarge.4"]


def test_an_endpoint_that_does_not_answer_is_a_network_error() -> None:
    import socket

    from app.cloud.errors import NetworkError

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    account = Account("lab", "huawei", "cn-north-4", f"http://127.0.0.1:{port}", {"project_id": "0" * 32})
    with pytest.raises(NetworkError) as caught:
        _provider().validate(account, Credentials(AK, SK))
    assert f"127.0.0.1:{port}" in str(caught.value) and SK not in str(caught.value)


def test_certificates_are_skipped_only_for_an_http_loopback_endpoint() -> None:
    from app.cloud.huawei.client import HuaweiClient, ecs_sdk

    def config(endpoint: str) -> Any:
        client = HuaweiClient()._client(Account("lab", "huawei", "cn-north-4", endpoint, {"project_id": "p"}),
                                        Credentials(AK, SK), ecs_sdk()[1])
        try:
            return client.get_http_client().config
        finally:
            client.get_http_client().close()

    assert config("http://127.0.0.1:9000").ignore_ssl_verification is True
    assert config("https://ecs.cn-north-4.myhuaweicloud.com").ignore_ssl_verification is False
    assert config("").ignore_ssl_verification is False
    assert config("http://10.0.0.5:9000").ignore_ssl_verification is False


def test_a_throttled_price_request_is_retried_with_a_fresh_client(peer: HuaweiPeer) -> None:
    peer.prices[("cn-north-4", "pi2.2xlarge.4.linux")] = 8.25
    provider = _provider()
    provider.project_id(_account(peer), Credentials(AK, SK))  # looked up (and cached by the SDK) first
    _provider().refresh_prices(_account(peer), Credentials(AK, SK), ["pi2.2xlarge.4"])  # domain id cached too
    peer.fail_next(429, "APIGW.0308", "The throttling threshold has been reached")
    offers = provider.refresh_prices(_account(peer), Credentials(AK, SK), ["pi2.2xlarge.4"])
    assert [o.price_on_demand for o in offers] == [8.25]
