"""Launching on Alibaba against the strict peer: what a student notices on a fresh account, on a retried
launch, with an edited security group, an IPv6 range, an international-site (USD) account, an ed25519
key, and the spot metadata's empty answer."""

from __future__ import annotations

import pytest

from app.cloud import base
from app.cloud.alibaba import SPOT_NOTICE, AlibabaProvider
from app.cloud.alibaba.launch import instance_name
from app.cloud.base import Account, Credentials, LaunchRequest
from app.cloud.errors import NetworkError
from tests.fixtures.alibaba_ecs_data import ACTION_VERSION, TYPES, VPC_VERSION
from tests.fixtures.alibaba_ecs_server import DROP, TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET
from tests.fixtures.alibaba_fixtures import rsa_public_key

A10 = "ecs.gn7i-c8g1.2xlarge"
CREDS = Credentials(TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET)
ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl labgpu@test"


@pytest.fixture
def provider() -> AlibabaProvider:
    p = AlibabaProvider(sleep=lambda s: None)  # the peer turns Available on describes, not on time
    p.retry_base_delay = 0.01
    p.operation_timeout = 10
    p.network_timeout = 10
    return p


@pytest.fixture
def acc(alibaba_server) -> Account:
    return Account("ali-strict", "alibaba", "cn-hangzhou", f"http://{alibaba_server.endpoint}")


def _req(**kw) -> LaunchRequest:
    values = {"instance_type": A10, "region": "cn-hangzhou", "zone": "cn-hangzhou-h", "public_key": rsa_public_key(),
              "ssh_cidr": "198.51.100.7/32", "client_token": "strict-1", "disk_gb": 80}
    values.update(kw)
    return LaunchRequest(**values)


def test_a_fresh_accounts_first_launch_waits_for_the_pending_network(alibaba_server, provider, acc):
    alibaba_server.network_pending_describes = 3
    said: list[tuple[str, str]] = []
    inst = provider.launch(acc, CREDS, _req(), lambda step, msg="": said.append((step, msg)))
    assert inst.state in ("pending", "running") and inst.zone == "cn-hangzhou-h"
    waits = [m for s, m in said if s == "network" and "Waiting for" in m]
    assert len(waits) == 6 and any("vpc-" in m for m in waits) and any("vsw-" in m for m in waits)
    assert all("Pending" in m for m in waits)
    [vpc] = alibaba_server.vpcs.values()
    [vsw] = alibaba_server.vswitches.values()
    assert vpc["Status"] == vsw["Status"] == "Available"
    # on the VPC API only; the deprecated ECS copies were never called
    for action in ("CreateVpc", "DescribeVpcs", "CreateVSwitch", "DescribeVSwitches"):
        assert alibaba_server.requests_of(action, ACTION_VERSION) == [], action
    assert len(alibaba_server.requests_of("CreateVpc", VPC_VERSION)) == 1


def test_the_peer_refuses_what_needs_a_pending_network(alibaba_server, provider, acc):
    # what the launch waits for is real: without the wait the cloud says IncorrectVpcStatus
    provider.network_timeout = -1  # gives up at once: the VPC is still Pending
    alibaba_server.network_pending_describes = 5
    with pytest.raises(base.CloudError) as info:
        provider.launch(acc, CREDS, _req())
    assert info.value.code == "NetworkNotReady" and "never makes a second one" in info.value.hint()
    [vpc_id] = alibaba_server.vpcs
    from tests.fixtures.alibaba_ecs_actions import ApiError

    with alibaba_server.lock, pytest.raises(ApiError) as refused:
        alibaba_server._v_CreateVSwitch({"RegionId": "cn-hangzhou", "VpcId": vpc_id, "ZoneId": "cn-hangzhou-h",
                                         "CidrBlock": "192.168.0.0/24"})
    assert refused.value.code == "IncorrectVpcStatus"
    provider.network_timeout = 10  # the retry finds the same VPC and goes on
    provider.launch(acc, CREDS, _req())
    assert len(alibaba_server.vpcs) == 1


def test_a_launch_retried_after_the_create_vpc_answer_was_lost_makes_no_second_vpc(alibaba_server, provider, acc):
    alibaba_server.fail_next("CreateVpc", DROP)  # created, but the answer never came
    with pytest.raises(NetworkError):
        provider.launch(acc, CREDS, _req())
    inst = provider.launch(acc, CREDS, _req(client_token="strict-2"))  # a new attempt, another token
    assert len(alibaba_server.vpcs) == 1
    assert len(alibaba_server.requests_of("CreateVpc", VPC_VERSION)) == 1
    assert alibaba_server.instance(inst.id).vpc_id == next(iter(alibaba_server.vpcs))


def test_a_group_without_its_ssh_rule_is_repaired_and_ipv6_goes_in_its_own_field(alibaba_server, provider, acc):
    provider.launch(acc, CREDS, _req())
    [sg] = alibaba_server.security_groups
    alibaba_server.security_groups[sg]["Permissions"].clear()  # e.g. deleted in the console
    provider.launch(acc, CREDS, _req(client_token="strict-2"))
    assert [(r["IpProtocol"], r["PortRange"], r["SourceCidrIp"]) for r in alibaba_server.ingress_rules(sg)] == [
        ("TCP", "22/22", "198.51.100.7/32")]
    provider.launch(acc, CREDS, _req(client_token="strict-3"))  # has it: not authorized again
    assert len(alibaba_server.requests_of("AuthorizeSecurityGroup")) == 2
    six = provider.launch(acc, CREDS, _req(client_token="strict-6", ssh_cidr="2001:db8::/64"))
    [sg6] = alibaba_server.instance(six.id).sg_ids
    assert [(r["SourceCidrIp"], r["Ipv6SourceCidrIp"]) for r in alibaba_server.ingress_rules(sg6)] == [
        ("", "2001:db8::/64")]
    last = alibaba_server.requests_of("AuthorizeSecurityGroup")[-1]
    assert last["Permissions.1.Ipv6SourceCidrIp"] == "2001:db8::/64" and "Permissions.1.SourceCidrIp" not in last


def test_an_ed25519_key_is_refused_as_alibaba_documents(alibaba_server, provider, acc):
    with pytest.raises(base.CloudError) as info:
        provider.launch(acc, CREDS, _req(public_key=ED25519))
    assert info.value.code == "InvalidPublicKeyBody.Malformed"
    assert "RSA" in info.value.hint()
    assert alibaba_server.requests_of("RunInstances") == []


def test_an_international_site_account_is_billed_in_usd(alibaba_server, provider, acc):
    alibaba_server.currency = "USD"
    said: list[str] = []
    provider.refresh_prices(acc, CREDS, [A10])  # DescribePrice answers in USD: the account's currency
    inst = provider.launch(acc, CREDS, _req(spot=True, max_price=TYPES[A10].on_demand, client_token="usd-1"),
                           lambda s, m="": said.append(m))
    assert inst.currency == "USD" and inst.price_per_hour == TYPES[A10].spot
    assert any("USD/h" in m for m in said) and not any("CNY" in m for m in said)
    assert {i.currency for i in provider.list_instances(acc, CREDS)} == {"USD"}
    assert {o.currency for o in provider.refresh_prices(acc, CREDS, [A10])} == {"USD"}
    assert {p.currency for p in provider.spot_price_history(acc, CREDS, A10, "cn-hangzhou-h", 2)} == {"USD"}
    alibaba_server.currency = "CNY"  # another account of the China site: its own currency
    china = Account("ali-cn", "alibaba", "cn-hangzhou", f"http://{alibaba_server.endpoint}")
    assert {o.currency for o in provider.refresh_prices(china, CREDS, [A10])} == {"CNY"}


def test_spot_history_paging_stops_on_an_empty_page(alibaba_server, provider, acc):
    alibaba_server.spot_history_page_size = 4
    alibaba_server.spot_history_empty_pages = 30  # pages that name a NextOffset but carry nothing
    points = provider.spot_price_history(acc, CREDS, A10, zone="cn-hangzhou-h", days=8)
    assert points
    calls = alibaba_server.requests_of("DescribeSpotPriceHistory")
    assert len(calls) == -(-len(points) // 4) + 1  # the real pages, then one empty page


def test_instance_names_the_api_accepts():
    assert instance_name("my run #1 (bert)") == "my-run-1-bert"
    assert instance_name("1st")[:1].isalpha() and instance_name("")[:1].isalpha()
    assert instance_name("实验一") == "实验一"
    assert len(instance_name("x" * 300)) == 128
    assert "//" not in instance_name("http://example.com")


def test_the_empty_spot_metadata_answer_is_no_notice():
    from app.remote.spotwatch import parse_answer

    assert parse_answer("alibaba", "\nSTATUS 200\n", SPOT_NOTICE) == (200, None, "")
    assert parse_answer("alibaba", "STATUS 404\n", SPOT_NOTICE)[1:] == (None, "")
    assert SPOT_NOTICE.token_url.endswith("/latest/api/token")
    assert SPOT_NOTICE.token_header == "X-aliyun-ecs-metadata-token"
