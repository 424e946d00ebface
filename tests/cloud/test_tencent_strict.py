"""The Tencent plugin against the peer made as strict as Tencent's documentation."""

from __future__ import annotations

import pytest

from app.cloud import base
from app.cloud.base import Account, LaunchRequest
from app.cloud.tencent import TencentProvider, currency_for
from app.cloud.tencent.client import STATE_MAP
from tests.fixtures.tencent_server import tencent_account, tencent_creds

CIDR = "198.51.100.7/32"


def _rsa_line(comment: str = "strict@test") -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    ).decode() + " " + comment


def _ed25519_line() -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ed25519

    key = ed25519.Ed25519PrivateKey.generate()
    return key.public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    ).decode() + " strict@test"


@pytest.fixture
def provider() -> TencentProvider:
    p = TencentProvider()
    p.poll_interval = 0.02
    p.retry_base_delay = 0.01
    p.launch_timeout = 10
    p.operation_timeout = 10
    return p


def _req(**kw: object) -> LaunchRequest:
    values: dict[str, object] = {
        "instance_type": "GN7.2XLARGE32", "region": "ap-guangzhou", "zone": "ap-guangzhou-3",
        "public_key": _rsa_line(), "ssh_key_name": "labgpu-strict", "ssh_cidr": CIDR,
        "client_token": "strict-1", "disk_gb": 80,
    }
    values.update(kw)
    return LaunchRequest(**values)  # type: ignore[arg-type]


# -- keys -------------------------------------------------------------------------------------------
def test_an_ed25519_key_is_refused_as_tencent_documents_and_said_plainly(tencent_server, provider):
    with pytest.raises(base.CloudError) as info:
        provider.launch(tencent_account(tencent_server), tencent_creds(), _req(public_key=_ed25519_line()))
    assert info.value.code == "InvalidPublicKey.Malformed"
    assert "RSA" in info.value.text() and "rsa" in info.value.hint()
    assert "RunInstances" not in tencent_server.actions()


def test_a_key_beyond_the_first_hundred_is_found_not_imported_again(tencent_server, provider):
    acct, creds = tencent_account(tencent_server), tencent_creds()
    mine = _rsa_line()
    for n in range(120):
        tencent_server.key_pairs.append(
            {"KeyId": f"skey-{n:08x}", "KeyName": f"other_{n}", "ProjectId": 0,
             "PublicKey": f"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQ{n:04d} other"}
        )
    tencent_server.key_pairs.append({"KeyId": "skey-mine", "KeyName": "labgpu_strict", "ProjectId": 0,
                                     "PublicKey": mine})
    assert provider._ensure_key(acct, creds, _req(public_key=mine)) == "skey-mine"
    assert "ImportKeyPair" not in tencent_server.actions()
    assert [p["Offset"] for p in tencent_server.requests_of("DescribeKeyPairs")] == [0, 100]


# -- security groups --------------------------------------------------------------------------------
def test_the_peer_refuses_both_directions_in_one_request_and_port_with_all(tencent_server, provider):
    acct, creds = tencent_account(tencent_server), tencent_creds()
    created = provider._call(acct, creds, "CreateSecurityGroup",
                             {"GroupName": "g", "GroupDescription": "d", "ProjectId": "0"}, service="vpc")
    sg = created["SecurityGroup"]["SecurityGroupId"]
    rule = {"Protocol": "TCP", "Port": "22", "CidrBlock": CIDR, "Action": "ACCEPT"}
    everything = {"Protocol": "ALL", "Port": "ALL", "CidrBlock": "0.0.0.0/0", "Action": "ACCEPT"}
    for policy_set in ({"Ingress": [rule], "Egress": [rule]}, {"Egress": [everything]}):
        with pytest.raises(base.CloudError) as info:
            provider._call(acct, creds, "CreateSecurityGroupPolicies",
                           {"SecurityGroupId": sg, "SecurityGroupPolicySet": policy_set}, service="vpc")
        assert info.value.code in ("InvalidParameter", "InvalidParameterValue")
    assert tencent_server.ingress_rules(sg) == [] and tencent_server.egress_rules(sg) == []


def test_a_launch_has_exactly_one_inbound_rule_ssh_from_the_range(tencent_server, provider):
    acct, creds = tencent_account(tencent_server), tencent_creds()
    inst = provider.launch(acct, creds, _req())
    sg = tencent_server.requests_of("RunInstances")[0]["SecurityGroupIds"][0]
    rules = tencent_server.ingress_rules(sg)
    assert [(r["Protocol"], r["Port"], r["CidrBlock"], r["Action"]) for r in rules] == [
        ("TCP", "22", CIDR, "ACCEPT")
    ]
    assert tencent_server.ssh_allowed(inst.id, "198.51.100.7")


def test_a_second_launch_reuses_the_group_that_still_has_its_rule(tencent_server, provider):
    acct, creds = tencent_account(tencent_server), tencent_creds()
    provider.launch(acct, creds, _req())
    provider.launch(acct, creds, _req(client_token="strict-2"))
    runs = tencent_server.requests_of("RunInstances")
    assert runs[0]["SecurityGroupIds"] == runs[1]["SecurityGroupIds"]
    assert tencent_server.actions().count("CreateSecurityGroup") == 1
    assert tencent_server.actions().count("CreateSecurityGroupPolicies") == 2  # inbound, outbound: once
    assert len(tencent_server.ingress_rules(runs[0]["SecurityGroupIds"][0])) == 1


def test_a_group_found_empty_is_repaired_before_it_is_used(tencent_server, provider):
    """A launch cut short after CreateSecurityGroup left the group with no rules: it denies all."""
    acct, creds = tencent_account(tencent_server), tencent_creds()
    name = "labgpu-ssh-198-51-100-7-32"
    empty = provider._call(acct, creds, "CreateSecurityGroup",
                           {"GroupName": name, "GroupDescription": "left behind", "ProjectId": "0"},
                           service="vpc")["SecurityGroup"]["SecurityGroupId"]
    inst = provider.launch(acct, creds, _req())
    assert tencent_server.requests_of("RunInstances")[0]["SecurityGroupIds"] == [empty]
    assert [(r["Protocol"], r["Port"], r["CidrBlock"]) for r in tencent_server.ingress_rules(empty)] == [
        ("TCP", "22", CIDR)
    ]
    assert [r["Protocol"] for r in tencent_server.egress_rules(empty)] == ["ALL"]
    assert tencent_server.ssh_allowed(inst.id, "198.51.100.7")


def test_an_instance_in_a_group_without_rules_is_unreachable(tencent_server, provider):
    """The peer models the deny-all default, so "no SSH rule" is something a test can see."""
    acct, creds = tencent_account(tencent_server), tencent_creds()
    empty = provider._call(acct, creds, "CreateSecurityGroup",
                           {"GroupName": "bare", "GroupDescription": "no rules", "ProjectId": "0"},
                           service="vpc")["SecurityGroup"]["SecurityGroupId"]
    key = provider._ensure_key(acct, creds, _req())
    params = provider.run_instances_params(_req(), zone="ap-guangzhou-3", image_id="img-ubuntu22",
                                           key_id=key, security_group_id=empty, max_price=None)
    iid = provider._call(acct, creds, "RunInstances", params)["InstanceIdSet"][0]
    assert not tencent_server.ssh_allowed(iid, "198.51.100.7")


# -- zones, stock and LAUNCH_FAILED -------------------------------------------------------------------
def test_launch_failed_after_an_accepted_request_is_a_capacity_error_naming_the_zone(tencent_server, provider):
    tencent_server.launch_failed_zones = {"ap-guangzhou-3"}
    with pytest.raises(base.CapacityError) as info:
        provider.launch(tencent_account(tencent_server), tencent_creds(), _req())
    assert info.value.code == "LAUNCH_FAILED"
    assert info.value.params["zone"] == "ap-guangzhou-3"
    assert "ap-guangzhou-3" in info.value.text()
    assert "RunInstances" in tencent_server.actions()  # it was accepted, then failed


@pytest.mark.parametrize(
    "code", ["ResourceUnavailable.InstanceType", "ResourceNotFound.InvalidZoneInstanceType",
             "ResourceInsufficient.SpecifiedInstanceType", "ResourceInsufficient.CidrBlock"]
)
def test_zone_stock_codes_are_capacity_errors(tencent_server, provider, code):
    tencent_server.zone_errors = {"ap-guangzhou-3": code}
    with pytest.raises(base.CapacityError) as info:
        provider.launch(tencent_account(tencent_server), tencent_creds(), _req())
    assert info.value.code == code
    assert "ap-guangzhou-3" in info.value.text()


def test_the_disk_type_is_the_one_the_zone_sells(tencent_server, provider):
    """ap-guangzhou-6 sells no CLOUD_PREMIUM: left to Tencent the launch gets a type in stock."""
    acct, creds = tencent_account(tencent_server), tencent_creds()
    provider.launch(acct, creds, _req(zone="ap-guangzhou-6"))
    run = tencent_server.requests_of("RunInstances")[0]
    assert "DiskType" not in run["SystemDisk"]
    iid = next(iter(tencent_server.instances))
    assert tencent_server.instances[iid].disk["DiskType"] == "CLOUD_BSSD"


def test_a_disk_type_the_zone_does_not_sell_says_so(tencent_server, provider):
    acct = Account(name="tc", provider="tencent", region="ap-guangzhou", endpoint=tencent_server.endpoint,
                   extra={"disk_type": "CLOUD_PREMIUM"})
    with pytest.raises(base.CapacityError) as info:
        provider.launch(acct, tencent_creds(), _req(zone="ap-guangzhou-6"))
    assert info.value.code == "ResourceInsufficient.CloudDiskSoldOut"
    assert "CLOUD_PREMIUM" in info.value.text() and "ap-guangzhou-6" in info.value.text()


# -- states --------------------------------------------------------------------------------------------
def test_every_state_the_api_lists_is_mapped_and_rescue_mode_shows_as_itself(tencent_server, provider):
    documented = {"PENDING", "LAUNCH_FAILED", "RUNNING", "STOPPED", "STARTING", "STOPPING", "REBOOTING",
                  "SHUTDOWN", "TERMINATING", "ENTER_RESCUE_MODE", "RESCUE_MODE", "EXIT_RESCUE_MODE",
                  "ENTER_SERVICE_LIVE_MIGRATE", "SERVICE_LIVE_MIGRATE", "EXIT_SERVICE_LIVE_MIGRATE"}
    assert set(STATE_MAP) == documented
    acct, creds = tencent_account(tencent_server), tencent_creds()
    inst = provider.launch(acct, creds, _req())
    with tencent_server.lock:
        tencent_server.instances[inst.id].state = "RESCUE_MODE"
    seen = provider.get_instance(acct, creds, inst.id)
    assert seen is not None
    assert (seen.state, seen.raw_state) == ("running", "RESCUE_MODE")  # up, billing, and named


def test_an_isolated_instance_is_not_billing_and_is_followed_when_it_comes_back(tencent_server, provider,
                                                                              labgpu_home):
    """SHUTDOWN (停止待销毁: an account in arrears, or the recycle bin) is isolated, not terminated: it bills no
    compute, and when it is restored (RUNNING again) the ledger follows it instead of ignoring it as the
    stale view of a terminated instance."""
    from app.core.instances import Ledger
    from app.core.paths import default_paths
    from app.core.store import Store

    acct, creds = tencent_account(tencent_server), tencent_creds()
    inst = provider.wait_running(acct, creds, provider.launch(acct, creds, _req()).id)
    store = Store(paths=default_paths())
    try:
        ledger = Ledger(store)
        ledger.observe(inst, price_per_hour=10.0)
        with tencent_server.lock:
            tencent_server.instances[inst.id].state = "SHUTDOWN"
        seen = provider.get_instance(acct, creds, inst.id)
        assert (seen.state, seen.raw_state) == ("isolated", "SHUTDOWN")
        entry = ledger.observe(seen)
        assert entry.billing is False and entry.ended_at is None
        with tencent_server.lock:
            tencent_server.instances[inst.id].state = "RUNNING"
        back = ledger.observe(provider.get_instance(acct, creds, inst.id))
        assert back.state == "running" and back.billing is True
    finally:
        store.close()


# -- currency -----------------------------------------------------------------------------------------
def test_the_international_site_is_priced_in_usd():
    assert currency_for(Account(name="a", provider="tencent", region="ap-singapore",
                                endpoint="cvm.intl.tencentcloudapi.com")) == "USD"
    assert currency_for(Account(name="a", provider="tencent", region="ap-singapore",
                                endpoint="https://cvm.intl.tencentcloudapi.com")) == "USD"
    assert currency_for(Account(name="a", provider="tencent", region="ap-guangzhou", endpoint="")) == "CNY"


def test_a_usd_account_gets_usd_on_prices_instances_and_the_spot_cap(tencent_server, provider):
    acct = Account(name="intl", provider="tencent", region="ap-guangzhou", endpoint=tencent_server.endpoint,
                   extra={"currency": "USD"})
    creds = tencent_creds()
    offers = provider.refresh_prices(acct, creds, ["GN7.2XLARGE32"])
    assert {o.currency for o in offers} == {"USD"}
    steps: list[str] = []
    inst = provider.launch(acct, creds, _req(spot=True, max_price=None),
                           progress=lambda s, m="": steps.append(m))
    assert inst.currency == "USD"
    assert any("USD/h" in m for m in steps) and not any("CNY" in m for m in steps)
    tencent_server.fail_next("RunInstances", "InvalidParameterValue.InsufficientPrice")
    with pytest.raises(base.PriceTooLowError) as info:
        provider.launch(acct, creds, _req(spot=True, max_price=0.5, client_token="strict-3"))
    assert "USD/h" in info.value.text() and "CNY" not in info.value.text()
