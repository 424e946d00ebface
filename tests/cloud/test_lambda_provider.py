"""The Lambda provider against the local peer (tests/fixtures/lambda_server.py: real HTTP, the API reference's
rules), on a fake clock the provider's waits advance and the peer reads, so the 12-second launch spacing is
checked without waiting for it."""

from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from app.cloud.base import (
    AuthError,
    CapacityError,
    LaunchRequest,
    NotFoundError,
    QuotaError,
    StopRefusedError,
)
from app.cloud.errors import InvalidRequestError, NetworkError, PermissionError_
from app.cloud.lambdalabs import DOCUMENTED_ERROR_CODES, map_error
from app.cloud.lambdalabs.client import base_url
from app.cloud.lambdalabs.importer import import_candidates
from app.cloud.lambdalabs.provider import LambdaProvider, ssh_key_name
from app.cloud.lambdalabs.spec import ALL_REGIONS
from app.core.accounts import Account, Credentials
from app.core.i18n import translate
from tests.fixtures.lambda_server import TEST_API_KEY, LambdaPeer

PUBKEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICN+lJwsONkwrdsSnQsu1ydUkIuIg5oOC+Eslvmtt60T labgpu@test"
A100 = "gpu_1x_a100_sxm4"  # capacity in us-east-1 and us-west-1 (the peer's default types)
H100 = "gpu_1x_h100_sxm5"  # capacity in us-west-1 and us-south-1


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def peer(clock: FakeClock) -> Iterator[LambdaPeer]:
    p = LambdaPeer(clock=clock).start()
    try:
        yield p
    finally:
        p.stop()


@pytest.fixture
def provider(clock: FakeClock) -> LambdaProvider:
    return LambdaProvider(sleep=clock.sleep, clock=clock)


def _acc(peer: LambdaPeer, region: str = "us-east-1", **extra: str) -> Account:
    return Account("lab", "lambda", region, peer.endpoint, dict(extra))


CREDS = Credentials("", TEST_API_KEY)


def _req(itype: str = A100, zone: str = "", token: str = "lg-0123456789abcdef", **kw: object) -> LaunchRequest:
    return LaunchRequest(instance_type=itype, region="us-east-1", zone=zone, public_key=PUBKEY, client_token=token,
                         tags={"labgpu-launch": token}, **kw)  # type: ignore[arg-type]


def test_validate_sends_the_key_as_a_bearer_token_and_a_wrong_key_is_refused(peer, provider):
    out = provider.validate(_acc(peer), CREDS)
    assert "accepted" in out and "instance types" in out and TEST_API_KEY not in out
    [call] = peer.calls
    assert (call.method, call.path, call.auth) == ("GET", "/api/v1/instance-types", "bearer")
    with pytest.raises(AuthError) as bad:
        provider.validate(_acc(peer), Credentials("", "secret_wrong.key"))
    assert bad.value.code == "global/invalid-api-key"
    assert "api-keys" in bad.value.hint() and "secret_wrong" not in bad.value.one_line()
    with pytest.raises(Exception) as region:
        provider.validate(_acc(peer, "mars-1"), CREDS)
    assert "mars-1 is not a Lambda region" in str(region.value)


def test_the_peer_takes_basic_auth_as_documented_and_refuses_a_request_without_a_key(peer):
    def get(header: str | None) -> int:
        headers = {"Authorization": header} if header else {}
        try:
            req = urllib.request.Request(peer.endpoint + "/api/v1/instances", headers=headers)
            with urllib.request.urlopen(req) as r:
                return int(r.status)
        except urllib.error.HTTPError as exc:
            body = json.loads(exc.read())
            assert set(body["error"]) == {"code", "message", "suggestion"}  # ApiErrorUnauthorized: all required
            return int(exc.code)

    assert get("Basic " + base64.b64encode(f"{TEST_API_KEY}:".encode()).decode()) == 200
    assert get(f"Basic {TEST_API_KEY}") == 200
    assert get(None) == 401
    assert get("Bearer nope") == 401


def test_launch_adds_the_key_once_tags_the_instance_and_reads_its_price(peer, provider):
    acc = _acc(peer)
    inst = provider.launch(acc, CREDS, _req(zone="us-east-1"))
    assert (inst.region, inst.zone, inst.state, inst.price_per_hour, inst.currency) == (
        "us-east-1", "us-east-1", "running", 1.29, "USD")
    assert inst.tags["labgpu-launch"] == "lg-0123456789abcdef" and inst.tags["labgpu:ssh-user"] == "ubuntu"
    [key] = peer.ssh_keys.values()
    assert key["name"] == ssh_key_name(PUBKEY) and key["public_key"] == " ".join(PUBKEY.split()[:2])
    [sent] = peer.calls_of("launchInstance")
    assert sent.body["region_name"] == "us-east-1" and sent.body["ssh_key_names"] == [key["name"]]
    assert "file_system_names" not in sent.body and "quantity" not in sent.body
    second = provider.launch(acc, CREDS, _req(itype=H100, zone="us-west-1", token="lg-second"))
    assert len(peer.ssh_keys) == 1 and len(peer.calls_of("addSSHKey")) == 1  # reused by name
    assert provider.find_by_client_token(acc, CREDS, "lg-second").id == second.id
    assert {i.id for i in provider.list_instances(acc, CREDS)} == {inst.id, second.id}


def test_launches_are_spaced_as_the_api_asks(peer, provider, clock):
    acc = _acc(peer)
    provider.launch(acc, CREDS, _req(zone="us-east-1"))
    assert clock.slept == []
    clock.now += 3.0
    provider.launch(acc, CREDS, _req(zone="us-west-1", token="lg-b"))
    assert clock.slept == [pytest.approx(9.0)]  # 12 s after the first launch request
    assert [c.status for c in peer.calls_of("launchInstance")] == [200, 200]  # the peer's limit never hit


def test_a_throttled_call_is_retried_after_a_pause(peer, provider, clock):
    peer.throttle_next(2)
    assert provider.list_instances(_acc(peer), CREDS) == []
    assert [c.status for c in peer.calls] == [429, 429, 200]
    assert len(clock.slept) == 2 and all(s >= 1 for s in clock.slept)  # Retry-After honoured


def test_capacity_quota_and_account_errors_have_their_sentences(peer, provider):
    acc = _acc(peer)
    with pytest.raises(CapacityError) as cap:
        provider.launch(acc, CREDS, _req(itype=H100, zone="us-east-1"))  # no H100 capacity there
    assert cap.value.code == "instance-operations/launch/insufficient-capacity"
    assert "us-east-1" in cap.value.text() and H100 in cap.value.text()
    peer.fail_next("launchInstance", "global/quota-exceeded")
    with pytest.raises(QuotaError) as quota:
        provider.launch(acc, CREDS, _req(zone="us-east-1", token="lg-q"))
    assert "Lambda Support" in quota.value.hint()
    peer.fail_next("launchInstance", "global/invalid-address")
    with pytest.raises(PermissionError_) as address:
        provider.launch(acc, CREDS, _req(zone="us-east-1", token="lg-a"))
    assert "billing address" in address.value.text()
    peer.inactive = True
    with pytest.raises(PermissionError_) as inactive:
        provider.list_instances(acc, CREDS)
    assert inactive.value.code == "global/account-inactive" and "payment method" in inactive.value.hint()
    peer.inactive = False
    with pytest.raises(NotFoundError):
        provider.launch(acc, CREDS, _req(itype="gpu_9x_imaginary", zone="us-east-1", token="lg-n"))
    with pytest.raises(NotFoundError):
        provider.terminate(acc, CREDS, "0" * 32)


def test_every_documented_code_has_its_own_sentence_in_both_languages():
    seen = set()
    for code in DOCUMENTED_ERROR_CODES:
        err = map_error(code, "their words", instance_type=A100, zone="us-east-1")
        assert err.code == code and err.hint() and "{" not in err.text() + err.hint()
        seen.add(err.template)
    assert len(seen) == len(DOCUMENTED_ERROR_CODES)
    upstream = map_error("provider/internal-unavailable", "Provider unavailable", suggestion="Try again shortly")
    assert upstream.retryable and "Provider unavailable" in upstream.text()


def test_a_file_system_goes_with_the_launch_in_its_region(peer, provider):
    peer.add_file_system("datasets", "us-west-1")
    acc = _acc(peer, file_system="datasets")
    assert provider.zones(acc, CREDS, A100) == ["us-west-1"]  # only where it can be attached
    inst = provider.launch(acc, CREDS, _req(zone="us-west-1"))
    assert inst.region == "us-west-1"
    assert peer.calls_of("launchInstance")[-1].body["file_system_names"] == ["datasets"]
    with pytest.raises(InvalidRequestError) as wrong:
        provider.launch(acc, CREDS, _req(zone="us-east-1", token="lg-w"))
    assert wrong.value.code == "instance-operations/launch/file-system-in-wrong-region"
    assert "us-west-1" in wrong.value.text() and "datasets" in wrong.value.text()
    assert len(peer.calls_of("launchInstance")) == 1  # refused before sending what the API refuses
    with pytest.raises(NotFoundError):
        provider.zones(_acc(peer, file_system="nope"), CREDS, A100)
    with pytest.raises(NotFoundError) as mistyped:  # the account test finds it, not a launch
        provider.validate(_acc(peer, file_system="datsets"), CREDS)
    assert mistyped.value.code == "NoSuchFileSystem" and "datsets" in mistyped.value.text()
    assert "accepted" in provider.validate(acc, CREDS)


def test_the_peer_refuses_a_file_system_of_another_region(peer, provider):
    """What the API answers when asked anyway (the peer's rule, the plugin's mapping)."""
    peer.add_file_system("datasets", "us-west-1")
    body = provider.launch_body(_req(), "us-east-1", "k", "datasets")
    peer.ssh_keys["k"] = {"id": "1", "name": "k", "public_key": PUBKEY}
    with pytest.raises(InvalidRequestError) as wrong:
        provider._request(_acc(peer), CREDS, "POST", "/instance-operations/launch", body)
    assert wrong.value.code == "instance-operations/launch/file-system-in-wrong-region"


def test_zones_are_the_regions_with_capacity_the_accounts_first(peer, provider):
    assert provider.zones(_acc(peer), CREDS, H100) == ["us-east-1", "us-west-1", "us-south-1"]
    assert provider.zones(_acc(peer, "us-south-1"), CREDS, A100) == ["us-south-1", "us-east-1", "us-west-1"]


def test_stop_and_start_are_refused_for_good_without_a_call(peer, provider):
    with pytest.raises(StopRefusedError) as stop:
        provider.stop(_acc(peer), CREDS, "abc")
    assert "Lambda has no stop" in stop.value.text() and "terminate" in stop.value.hint()
    assert stop.value.params["reason"] == translate(stop.value.params["reason"])  # an English template
    with pytest.raises(StopRefusedError):
        provider.start(_acc(peer), CREDS, "abc")
    assert peer.calls == []


def test_terminate_ends_it_and_it_leaves_the_list(peer, provider):
    acc = _acc(peer)
    inst = provider.launch(acc, CREDS, _req(zone="us-east-1"))
    provider.terminate(acc, CREDS, inst.id)
    assert peer.calls_of("terminateInstance")[-1].body == {"instance_ids": [inst.id]}
    assert provider.list_instances(acc, CREDS) == []


def test_live_prices_replace_the_catalogs_lambda_rows(peer, provider):
    offers = {o.instance_type: o for o in provider.refresh_prices(_acc(peer), CREDS, [])}
    assert set(offers) == {A100, H100, "gpu_8x_a100_80gb_sxm4"}  # GPU types only
    a100 = offers[A100]
    assert (a100.region, a100.price_on_demand, a100.currency, a100.live, a100.sold_out) == (
        ALL_REGIONS, 1.29, "USD", True, False)
    assert a100.fetched_at is not None and a100.gpu_model == "A100-40GB" and a100.vcpu == 30
    assert dict(a100.extra)["regions_with_capacity"] == "us-east-1 us-west-1"
    assert offers["gpu_8x_a100_80gb_sxm4"].sold_out  # no region has capacity
    only = provider.refresh_prices(_acc(peer), CREDS, [H100])
    assert [o.instance_type for o in only] == [H100]


def test_the_endpoint_must_be_https_or_loopback():
    assert base_url(Account("a", "lambda", "us-east-1")) == "https://cloud.lambda.ai"
    assert base_url(Account("a", "lambda", "us-east-1", "http://127.0.0.1:8080/")) == "http://127.0.0.1:8080"
    with pytest.raises(Exception) as plain:
        base_url(Account("a", "lambda", "us-east-1", "http://cloud.lambda.ai"))
    assert "not an https URL" in str(plain.value)


def test_an_endpoint_that_does_not_answer_is_a_network_error_without_the_key(provider):
    acc = Account("a", "lambda", "us-east-1", "http://127.0.0.1:9")
    with pytest.raises(NetworkError) as net:
        provider.list_instances(acc, CREDS)
    assert TEST_API_KEY not in net.value.one_line()


def test_import_from_the_environment():
    [cand] = import_candidates({"LAMBDA_API_KEY": TEST_API_KEY})
    assert (cand.account.name, cand.account.provider, cand.account.region) == ("lambda-env", "lambda", "us-east-1")
    assert cand.credentials.secret == TEST_API_KEY and cand.credentials.key_id == ""
    assert import_candidates({"LAMBDA_API_KEY": TEST_API_KEY}, region="us-west-1")[0].account.region == "us-west-1"
    assert import_candidates({}) == [] and import_candidates({"LAMBDA_API_KEY": "a b"}) == []
