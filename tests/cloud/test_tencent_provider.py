"""The Tencent provider against the local TC3-checking CVM server (real SDK, real HTTP)."""

from __future__ import annotations

import json
import sys
import warnings

import pytest

from app.cloud import base
from app.cloud.base import Credentials, LaunchRequest
from app.cloud.errors import ClockSkewError, NetworkError
from app.cloud.tencent import DOCUMENTED_ERROR_CODES, TencentProvider, key_pair_name, parse_endpoint
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TYPES
from tests.fixtures.tencent_server import tencent_account, tencent_creds


def _rsa_public_key(comment: str = "labgpu@test") -> str:
    """A real OpenSSH RSA public key line: ImportKeyPair takes "OpenSSH RSA 格式" only."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    line = key.public_key().public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
    return line.decode() + " " + comment


PUBKEY = _rsa_public_key()


@pytest.fixture
def provider() -> TencentProvider:
    p = TencentProvider()
    p.poll_interval = 0.05
    p.retry_base_delay = 0.01
    p.launch_timeout = 10
    p.operation_timeout = 10
    return p


def _req(**kw) -> LaunchRequest:
    values = {
        "instance_type": "GN7.2XLARGE32",
        "region": "ap-guangzhou",
        "zone": "ap-guangzhou-3",
        "public_key": PUBKEY,
        "ssh_key_name": "labgpu-test",
        "ssh_cidr": "198.51.100.7/32",
        "client_token": "token-1",
        "disk_gb": 80,
    }
    values.update(kw)
    return LaunchRequest(**values)


# -- signature and credentials ------------------------------------------------------------------
def test_validate_with_the_right_key_names_the_key(tencent_server, provider):
    who = provider.validate(tencent_account(tencent_server), tencent_creds())
    assert "AKIDla" in who
    assert "4 regions" in who
    assert tencent_server.actions() == ["DescribeRegions"]


def test_wrong_secret_key_is_refused_by_the_signature_check(tencent_server, provider):
    with pytest.raises(base.AuthError) as info:
        provider.validate(tencent_account(tencent_server), Credentials(TEST_SECRET_ID, "not-the-key"))
    err = info.value
    assert err.code == "AuthFailure.SignatureFailure"
    assert "SecretKey does not match" in err.text()
    assert "paste the SecretKey again" in err.hint()
    assert err.request_id  # the server's RequestId travels with the error
    assert "not-the-key" not in err.one_line()
    assert tencent_server.actions() == []  # refused before any action ran


def test_unknown_and_malformed_secret_ids(tencent_server, provider):
    acct = tencent_account(tencent_server)
    with pytest.raises(base.AuthError) as info:
        provider.validate(acct, Credentials("AKIDunknownunknown000000", "x"))
    assert info.value.code == "AuthFailure.SecretIdNotFound"
    with pytest.raises(base.AuthError) as info:
        provider.validate(acct, Credentials("nope", "x"))
    assert info.value.code == "AuthFailure.InvalidSecretId"


def test_clock_more_than_five_minutes_off_says_fix_the_clock(tencent_server, provider):
    tencent_server.clock_offset = 400  # the server's clock is ahead: our timestamp is 400 s old
    with pytest.raises(ClockSkewError) as info:
        provider.validate(tencent_account(tencent_server), tencent_creds())
    assert info.value.code == "AuthFailure.SignatureExpire"
    assert "clock" in info.value.text()
    assert "Fix the clock" in info.value.hint()


def test_region_not_offered_is_a_clear_error(tencent_server, provider):
    from dataclasses import replace

    acct = replace(tencent_account(tencent_server), region="mars-1")
    with pytest.raises(base.CloudError) as info:
        provider.validate(acct, tencent_creds())
    assert info.value.code == "InvalidRegion"
    assert "ap-guangzhou" in info.value.hint()


def test_endpoint_parsing():
    assert parse_endpoint("") == ("cvm.tencentcloudapi.com", "https")
    assert parse_endpoint("http://127.0.0.1:9000") == ("127.0.0.1:9000", "http")
    intl = "cvm.intl.tencentcloudapi.com"
    assert parse_endpoint(f"https://{intl}/") == (intl, "https")
    assert parse_endpoint("cvm.intl.tencentcloudapi.com") == ("cvm.intl.tencentcloudapi.com", "https")
    with pytest.raises(base.CloudError):
        parse_endpoint("ftp://x")
    assert key_pair_name("my laptop-key (2026)!") == "my_laptop_key__2026"
    assert len(key_pair_name("x" * 40)) == 25


def test_sdk_missing_says_what_to_install(monkeypatch, tencent_server, provider):
    monkeypatch.setitem(sys.modules, "tencentcloud.common", None)
    with pytest.raises(base.SdkMissingError) as info:
        provider.validate(tencent_account(tencent_server), tencent_creds())
    assert "pip install tencentcloud-sdk-python-cvm" in info.value.hint()


# -- launch, idempotency, state machine ---------------------------------------------------------
def test_on_demand_launch_runs_and_is_tagged_and_locked_down(tencent_server, provider):
    steps: list[tuple[str, str]] = []
    acct, creds = tencent_account(tencent_server), tencent_creds()
    with base.collect_request_ids() as ids:
        launched = provider.launch(acct, creds, _req(), progress=lambda s, m="": steps.append((s, m)))
    # returned once past PENDING (a LAUNCH_FAILED instance is a zone to move on from, not a launch)
    assert launched.state == "running"
    inst = provider.wait_running(acct, creds, launched.id)
    assert inst.state == "running"
    assert not inst.spot
    assert inst.public_ip.startswith("203.0.113.")
    assert inst.price_per_hour == TYPES["GN7.2XLARGE32"][4]
    assert inst.currency == "CNY"
    assert inst.tags["labgpu"] == "1"
    assert [s for s, _ in steps] == ["key", "security_group", "image", "request"]
    assert "PyTorch" in steps[2][1]
    run = tencent_server.requests_of("RunInstances")[0]
    assert run["InstanceChargeType"] == "POSTPAID_BY_HOUR"
    assert "InstanceMarketOptions" not in run
    assert run["ClientToken"] == "token-1"
    assert run["SystemDisk"] == {"DiskSize": 80}  # the type in stock, as Tencent picks it by default
    assert run["VirtualPrivateCloud"] == {"VpcId": "DEFAULT", "SubnetId": "DEFAULT"}
    assert run["ImageId"] == "img-gpucuda1"
    sg = run["SecurityGroupIds"][0]
    assert tencent_server.ingress_rules(sg) == [
        {
            "Protocol": "TCP",
            "Port": "22",
            "CidrBlock": "198.51.100.7/32",
            "Action": "ACCEPT",
            "PolicyDescription": "LabGPU SSH",
        }
    ]
    assert tencent_server.egress_rules(sg) == [
        {"Protocol": "ALL", "CidrBlock": "0.0.0.0/0", "Action": "ACCEPT", "PolicyDescription": "LabGPU outbound"}
    ]
    assert tencent_server.ssh_allowed(inst.id, "198.51.100.7")
    assert not tencent_server.ssh_allowed(inst.id, "198.51.100.8")
    # state-changing calls report their request ids (ImportKeyPair, CreateSecurityGroup, inbound rule,
    # outbound rule, RunInstances)
    assert len(ids) == 5


def test_client_token_gives_one_instance_for_retries_and_crashes(tencent_server, provider):
    acct, creds = tencent_account(tencent_server), tencent_creds()
    first = provider.launch(acct, creds, _req())
    again = provider.launch(acct, creds, _req())  # the same attempt sent again: Tencent honours its ClientToken
    assert again.id == first.id
    assert len(tencent_server.instances) == 1
    # The server itself honours ClientToken: the same RunInstances body twice → the same id.
    first_body = tencent_server.requests_of("RunInstances")[0]
    body = provider.run_instances_params(
        _req(client_token="token-2"),
        zone="ap-guangzhou-3",
        image_id=first_body["ImageId"],
        key_id=first_body["LoginSettings"]["KeyIds"][0],
        security_group_id=first_body["SecurityGroupIds"][0],
        max_price=None,
    )
    r1 = provider._call(acct, creds, "RunInstances", body)
    r2 = provider._call(acct, creds, "RunInstances", body)
    assert r1["InstanceIdSet"] == r2["InstanceIdSet"]
    assert len({i.id for i in provider.list_instances(acct, creds)}) == 2
    # Crash after RunInstances, before the app saw the answer: the retry finds it by token.
    found = provider.find_by_client_token(acct, creds, "token-2")
    assert found is not None
    assert found.id == r1["InstanceIdSet"][0]


def test_lost_answer_to_run_instances_then_retry_gives_the_same_instance(tencent_server, provider):
    """RunInstances reached Tencent but the answer was lost: a NetworkError (the launch may exist), and
    the retry with the same token returns that instance without a second RunInstances taking effect."""
    from tests.fixtures.tencent_cvm_server import DROP

    acct, creds = tencent_account(tencent_server), tencent_creds()
    tencent_server.fail_next("RunInstances", DROP)
    with pytest.raises(NetworkError) as info:
        provider.launch(acct, creds, _req())
    assert info.value.retryable
    assert len(tencent_server.instances) == 1  # it was created
    again = provider.launch(acct, creds, _req())
    assert again.id == next(iter(tencent_server.instances))
    assert len(tencent_server.instances) == 1


def test_state_machine_pending_running_stopped_started_terminated(tencent_server, provider):
    acct, creds = tencent_account(tencent_server), tencent_creds()
    tencent_server.pending_seconds = 0.5
    resp = provider._call(
        acct,
        creds,
        "RunInstances",
        provider.run_instances_params(
            _req(),
            zone="ap-guangzhou-3",
            image_id="img-ubuntu22",
            key_id=provider._ensure_key(acct, creds, _req()),
            security_group_id=provider._ensure_security_group(acct, creds, "198.51.100.7/32"),
            max_price=None,
        ),
    )
    iid = resp["InstanceIdSet"][0]
    listed = {i.id: i for i in provider.list_instances(acct, creds)}
    assert listed[iid].state == "pending"
    provider.wait_running(acct, creds, iid)
    note = provider.stop(acct, creds, iid)
    assert tencent_server.billing_state(iid) == ("STOPPED", "STOP_CHARGING")
    assert "no longer bill" in note
    assert "disks still bill" in note
    stopped = provider.get_instance(acct, creds, iid)
    assert stopped.state == "stopped"
    assert stopped.price_per_hour == TYPES["GN7.2XLARGE32"][4]  # the rate; the ledger knows stopped is free
    assert stopped.public_ip == ""
    provider.start(acct, creds, iid)
    assert provider.get_instance(acct, creds, iid).state == "running"
    provider.terminate(acct, creds, iid)
    gone = provider.get_instance(acct, creds, iid)
    # Tencent holds a terminated instance as SHUTDOWN until it destroys it: isolated, nothing bills
    # (CloudService.terminate records it terminated: the terminate went through)
    assert (gone.state, gone.raw_state) == ("isolated", "SHUTDOWN")
    assert gone.price_per_hour is None
    stop_req = tencent_server.requests_of("StopInstances")[0]
    assert stop_req["StoppedMode"] == "STOP_CHARGING"
    assert stop_req["StopType"] == "SOFT_FIRST"


def test_stop_falls_back_to_keep_charging_and_says_it_still_bills(tencent_server, provider):
    acct, creds = tencent_account(tencent_server), tencent_creds()
    inst = provider.wait_running(acct, creds, provider.launch(acct, creds, _req()).id)
    tencent_server.stop_charging_unsupported.add("GN7.2XLARGE32")
    note = provider.stop(acct, creds, inst.id)
    assert tencent_server.billing_state(inst.id) == ("STOPPED", "KEEP_CHARGING")
    assert "still bills the full hourly price" in note
    assert [r["StoppedMode"] for r in tencent_server.requests_of("StopInstances")] == [
        "STOP_CHARGING",
        "KEEP_CHARGING",
    ]
    # Shown and counted as what it is: stopped, but its compute still bills (never "stopped" = free).
    seen = provider.get_instance(acct, creds, inst.id)
    assert (seen.state, seen.raw_state) == ("stopped_billing", "STOPPED/KEEP_CHARGING")
    assert seen.state in base.BILLING_STATES


def test_spot_launch_sends_the_cap_it_is_given(tencent_server, provider):
    cap = round(TYPES["GN7.2XLARGE32"][4] * 0.8, 4)
    inst = provider.launch(tencent_account(tencent_server), tencent_creds(), _req(spot=True, max_price=cap))
    assert inst.spot
    assert inst.price_per_hour == TYPES["GN7.2XLARGE32"][5]
    run = tencent_server.requests_of("RunInstances")[0]
    assert run["InstanceChargeType"] == "SPOTPAID"
    assert run["InstanceMarketOptions"] == {
        "MarketType": "spot",
        "SpotOptions": {"MaxPrice": f"{cap:.4f}", "SpotInstanceType": "one-time"},
    }


def test_spot_bid_below_market_names_the_current_price(tencent_server, provider):
    with pytest.raises(base.PriceTooLowError) as info:
        provider.launch(tencent_account(tencent_server), tencent_creds(), _req(spot=True, max_price=0.5))
    text = info.value.text()
    assert "0.5000" in text
    assert f"{TYPES['GN7.2XLARGE32'][5]:.4f}" in text
    assert "CNY/h" in text
    assert "Raise the maximum price" in info.value.hint()


def test_sold_out_zone_raises_capacity_error(tencent_server, provider):
    with pytest.raises(base.CapacityError) as info:
        provider.launch(tencent_account(tencent_server), tencent_creds(), _req(instance_type="GT4.4XLARGE96"))
    assert info.value.code == "ResourcesSoldOut.SpecifiedInstanceType"
    assert "GT4.4XLARGE96" in info.value.text()
    assert "ap-guangzhou-3" in info.value.text()


def test_without_gpu_image_falls_back_to_ubuntu_and_says_so(tencent_server, provider):
    tencent_server.gpu_images = False
    steps = []
    provider.launch(
        tencent_account(tencent_server),
        tencent_creds(),
        _req(),
        progress=lambda s, m="": steps.append((s, m)),
    )
    image_msg = dict(steps)["image"]
    assert "No public GPU image" in image_msg
    assert "img-ubuntu22" in image_msg
    assert tencent_server.requests_of("RunInstances")[0]["ImageId"] == "img-ubuntu22"


def test_gpu_image_found_on_a_later_page_of_public_images(tencent_server, provider):
    tencent_server.filler_images = 150  # the GPU image is the 151st public image
    image, name, is_gpu = provider.pick_image(
        tencent_account(tencent_server), tencent_creds(), "GN7.2XLARGE32"
    )
    assert (image, is_gpu) == ("img-gpucuda1", True)
    assert [r["Offset"] for r in tencent_server.requests_of("DescribeImages")] == [0, 100]


def test_the_notes_error_codes_are_all_mapped():
    notes_codes = {
        "AuthFailure.SignatureFailure",
        "AuthFailure.SecretIdNotFound",
        "AuthFailure.SignatureExpire",
        "AuthFailure.InvalidSecretId",
        "ResourceInsufficient.SpecifiedInstanceType",
        "ResourceInsufficient.ZoneSoldOutForSpecifiedInstance",
        "ResourcesSoldOut.SpecifiedInstanceType",
        "InvalidParameterValue.InstanceTypeNotFound",
        "InvalidParameterValue.InsufficientPrice",
        "InvalidParameterValue.ZoneNotSupported",
        "LimitExceeded.SpotQuota",
        "LimitExceeded.UserSpotQuota",
        "LimitExceeded.InstanceQuota",
        "InvalidAccount.InsufficientBalance",
        "UnsupportedOperation.StoppedModeStopCharging",
        "RequestLimitExceeded",
    }
    assert notes_codes <= set(DOCUMENTED_ERROR_CODES)


def test_existing_key_is_reused_and_a_name_clash_never_overwrites(tencent_server, provider):
    acct, creds = tencent_account(tencent_server), tencent_creds()
    k1 = provider._ensure_key(acct, creds, _req())
    assert provider._ensure_key(acct, creds, _req()) == k1
    other = _rsa_public_key("x")
    k2 = provider._ensure_key(acct, creds, _req(public_key=other))
    assert k2 != k1
    assert [kp["KeyName"] for kp in tencent_server.key_pairs] == ["labgpu_test", "labgpu_test_2"]


# -- errors --------------------------------------------------------------------------------------
@pytest.mark.parametrize("code", DOCUMENTED_ERROR_CODES)
def test_every_documented_error_code_has_a_message_and_next_step(tencent_server, provider, code):
    tencent_server.fail_next(
        "RunInstances", code, "simulated: the body Tencent documents for " + code, times=provider.max_attempts
    )
    with pytest.raises(base.CloudError) as info:
        provider.launch(tencent_account(tencent_server), tencent_creds(), _req(max_price=3.0, spot=True))
    err = info.value
    assert err.code == code
    assert err.provider == "tencent"
    assert err.request_id
    assert "{" not in err.text(), err.one_line()
    assert "{" not in err.hint(), err.one_line()
    assert err.hint()
    assert err.text() != code
    assert code in err.one_line()
    expected = {
        "ResourceInsufficient": base.CapacityError,
        "ResourcesSoldOut": base.CapacityError,
        "LimitExceeded": base.QuotaError,
        "AuthFailure": base.AuthError,
        "RequestLimitExceeded": base.ThrottledError,
    }
    for prefix, cls in expected.items():
        # the clock and the region's public IPs are not capacity that a zone move fixes
        if code.startswith(prefix) and code not in ("AuthFailure.SignatureExpire", "ResourcesSoldOut.EipInsufficient"):
            assert isinstance(err, cls)
    if code == "InvalidParameterValue.InsufficientPrice":
        assert f"{TYPES['GN7.2XLARGE32'][5]:.4f}" in err.text()  # names the current spot price
    if code.startswith("LimitExceeded"):
        assert "quota" in err.hint().lower()
    if code == "InvalidAccount.InsufficientBalance":
        assert "Top up" in err.hint()


def test_throttling_is_retried_with_backoff_not_shown(tencent_server):
    sleeps: list[float] = []
    provider = TencentProvider(sleep=sleeps.append)
    tencent_server.fail_next("DescribeRegions", "RequestLimitExceeded", times=3)
    provider.validate(tencent_account(tencent_server), tencent_creds())
    assert tencent_server.actions() == ["DescribeRegions"] * 4
    assert sleeps == [0.5, 1.0, 2.0]  # exponential backoff


def test_unreachable_endpoint_is_a_network_error(provider):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    from app.cloud.base import Account

    acct = Account("x", "tencent", "ap-guangzhou", endpoint=f"http://127.0.0.1:{port}")
    with pytest.raises(NetworkError) as info:
        provider.validate(acct, tencent_creds())
    assert info.value.retryable
    assert f"127.0.0.1:{port}" in info.value.text()


def test_zones_for_a_type_skip_sold_out_ones(tencent_server, provider):
    acct, creds = tencent_account(tencent_server), tencent_creds()
    assert provider.zones(acct, creds) == ["ap-guangzhou-3", "ap-guangzhou-4", "ap-guangzhou-6"]
    assert provider.zones(acct, creds, "GT4.4XLARGE96") == ["ap-guangzhou-4", "ap-guangzhou-6"]


def test_unknown_error_code_still_gives_a_sentence(tencent_server, provider):
    tencent_server.fail_next("DescribeRegions", "InternalError.Weird", "something odd")
    with pytest.raises(base.CloudError) as info:
        provider.validate(tencent_account(tencent_server), tencent_creds())
    assert "DescribeRegions" in info.value.text()
    assert "something odd" in info.value.text()


def test_control_endpoint_queues_an_error(tencent_server, provider):
    import urllib.request

    req = urllib.request.Request(
        tencent_server.endpoint + "/_control/fail",
        method="POST",
        data=json.dumps({"action": "DescribeRegions", "code": "InvalidAccount.InsufficientBalance"}).encode(),
    )
    with urllib.request.urlopen(req, timeout=5) as resp:
        assert json.load(resp) == {"ok": True}
    with pytest.raises(base.CloudError) as info:
        provider.validate(tencent_account(tencent_server), tencent_creds())
    assert info.value.code == "InvalidAccount.InsufficientBalance"


# -- prices --------------------------------------------------------------------------------------
def test_refresh_prices_gives_live_offers_per_zone_with_sold_out(tencent_server, provider):
    offers = provider.refresh_prices(
        tencent_account(tencent_server), tencent_creds(), ["GN7.2XLARGE32", "GT4.4XLARGE96"]
    )
    by = {(o.zone, o.instance_type): o for o in offers}
    assert len(by) == 6
    t4 = by[("ap-guangzhou-4", "GN7.2XLARGE32")]
    assert t4.live
    assert t4.fetched_at is not None
    assert t4.currency == "CNY"
    assert t4.price_on_demand == 8.68
    assert t4.price_spot == 1.74
    assert t4.spot_available
    assert t4.price_prepaid_month
    assert t4.price_prepaid_month > 1000
    assert t4.gpu_model == "T4"
    assert t4.vcpu == 8
    assert t4.ram_gb == 32
    assert by[("ap-guangzhou-3", "GT4.4XLARGE96")].sold_out
    assert not by[("ap-guangzhou-4", "GT4.4XLARGE96")].sold_out
    quota_calls = tencent_server.requests_of("DescribeZoneInstanceConfigInfos")
    charge_types = sorted(
        {f["Values"][0] for r in quota_calls for f in r["Filters"] if f["Name"] == "instance-charge-type"}
    )
    assert charge_types == ["POSTPAID_BY_HOUR", "SPOTPAID"]
    assert tencent_server.requests_of("InquiryPriceRunInstances")[0]["InstanceChargeType"] == "PREPAID"


# -- the request bodies match the SDK's models ---------------------------------------------------
def test_request_bodies_use_the_sdk_field_names(tencent_server, provider):
    """from_json_string warns "fields are useless" for any field the SDK model does not have."""
    from tencentcloud.cvm.v20170312 import models

    provider.launch(tencent_account(tencent_server), tencent_creds(), _req(spot=True))
    provider.refresh_prices(tencent_account(tencent_server), tencent_creds(), ["GN7.2XLARGE32"])
    checked = 0
    for action, params in tencent_server.calls:
        model = getattr(models, action + "Request", None)
        if model is None:
            assert action in ("DescribeSecurityGroups", "CreateSecurityGroup", "CreateSecurityGroupPolicies")
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            model().from_json_string(json.dumps(params))
        checked += 1
    assert checked >= 8
