"""The local Alibaba ECS server itself, driven by the official SDK over HTTP: it accepts the SDK's
ACS3-HMAC-SHA256 signature and refuses what Alibaba refuses, keeps instance state, and injects
errors as asked. (The provider's own tests are test_alibaba_*.py beside this file.)"""

from __future__ import annotations

import hashlib
import http.client
import threading
from urllib.parse import urlencode

import pytest
from alibabacloud_ecs20140526 import models as m
from alibabacloud_tea_openapi.utils import Utils
from Tea.exceptions import TeaException

from tests.fixtures.alibaba_ecs_server import DROP, TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET
from tests.fixtures.alibaba_fixtures import alibaba_client

REGION = "cn-hangzhou"
A10 = "ecs.gn7i-c8g1.2xlarge"
GPU_IMAGE = "ubuntu_22_04_gpu_x64_20G_alibase_20250915.vhd"


def _until_available(describe) -> None:
    """Poll a describe (VPC or vSwitch) until it says Available (the peer's new ones are Pending first)."""
    for _ in range(10):
        if describe() == "Available":
            return
    raise AssertionError("still Pending after 10 describes")


def _network(client, zone: str = "cn-hangzhou-i") -> tuple[str, str]:
    """VPC, vSwitch and security group through the (deprecated, still answered) ECS copies."""
    vpc = client.create_vpc(m.CreateVpcRequest(region_id=REGION, cidr_block="192.168.0.0/16")).body.vpc_id
    _until_available(lambda: client.describe_vpcs(
        m.DescribeVpcsRequest(region_id=REGION, vpc_id=vpc)).body.vpcs.vpc[0].status)
    vsw = client.create_vswitch(
        m.CreateVSwitchRequest(region_id=REGION, vpc_id=vpc, zone_id=zone, cidr_block="192.168.1.0/24")
    ).body.v_switch_id
    _until_available(lambda: client.describe_vswitches(
        m.DescribeVSwitchesRequest(region_id=REGION, v_switch_id=vsw)).body.v_switches.v_switch[0].status)
    sg = client.create_security_group(
        m.CreateSecurityGroupRequest(region_id=REGION, vpc_id=vpc, security_group_name="labgpu")
    ).body.security_group_id
    return vsw, sg


def _run(client, vsw: str, sg: str, **kw) -> list[str]:
    req = m.RunInstancesRequest(
        region_id=REGION,
        instance_type=kw.pop("instance_type", A10),
        image_id=GPU_IMAGE,
        v_switch_id=vsw,
        security_group_id=sg,
        internet_max_bandwidth_out=10,
        **kw,
    )
    return client.run_instances(req).body.instance_id_sets.instance_id_set


def _describe(client, ids: list[str]):
    body = client.describe_instances(
        m.DescribeInstancesRequest(region_id=REGION, instance_ids=str(ids).replace("'", '"'))
    ).body
    return {i.instance_id: i for i in body.instances.instance}


def _error(call) -> TeaException:
    with pytest.raises(TeaException) as info:
        call()
    return info.value


# -- signature --------------------------------------------------------------------------------
def test_the_sdk_signs_with_acs3_and_is_accepted(alibaba_server):
    client = alibaba_client(alibaba_server)
    regions = client.describe_regions(m.DescribeRegionsRequest()).body.regions.region
    assert [r.region_id for r in regions] == ["cn-hangzhou", "cn-beijing", "cn-shanghai"]
    zones = client.describe_zones(m.DescribeZonesRequest(region_id=REGION)).body.zones.zone
    assert [z.zone_id for z in zones] == ["cn-hangzhou-h", "cn-hangzhou-i", "cn-hangzhou-j"]
    call = alibaba_server.calls[-1]
    assert (call.action, call.access_key_id, call.params["RegionId"]) == ("DescribeZones", TEST_ACCESS_KEY_ID, REGION)


def test_a_wrong_secret_is_signature_does_not_match(alibaba_server):
    exc = _error(
        lambda: alibaba_client(alibaba_server, secret="not-the-secret").describe_regions(m.DescribeRegionsRequest())
    )
    assert (exc.code, exc.status_code) == ("SignatureDoesNotMatch", 400)
    assert set(exc.data) >= {"RequestId", "HostId", "Code", "Message", "Recommend"}
    assert "StringToSign" in exc.data["Message"]


def test_an_unknown_access_key_is_not_found(alibaba_server):
    exc = _error(
        lambda: alibaba_client(alibaba_server, key_id="LTAI5tNoSuchKey000").describe_regions(m.DescribeRegionsRequest())
    )
    assert (exc.code, exc.status_code) == ("InvalidAccessKeyId.NotFound", 404)


def test_a_stale_date_is_expired(alibaba_server):
    alibaba_server.clock_offset = 20 * 60
    exc = _error(lambda: alibaba_client(alibaba_server).describe_regions(m.DescribeRegionsRequest()))
    assert exc.code == "InvalidTimeStamp.Expired"


class _Signed:
    """A request signed by the SDK's own signer (alibabacloud_tea_openapi Utils.get_authorization),
    sent with http.client so that a test can change it after signing."""

    def __init__(self, server, query: dict[str, str], nonce: str) -> None:
        self.server, self.query = server, dict(query)
        from datetime import datetime, timezone

        self.headers = {
            "host": server.endpoint,
            "x-acs-action": "DescribeInstances",
            "x-acs-version": "2014-05-26",
            "x-acs-date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "x-acs-signature-nonce": nonce,
            "x-acs-content-sha256": hashlib.sha256(b"").hexdigest(),
            "accept": "application/json",
        }

        class Req:
            pathname, method = "/", "POST"

        req = Req()
        req.query, req.headers = self.query, self.headers  # type: ignore[attr-defined]
        self.headers["Authorization"] = Utils.get_authorization(
            req, "ACS3-HMAC-SHA256", self.headers["x-acs-content-sha256"], TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET
        )

    def send(self, query: dict[str, str] | None = None) -> tuple[int, dict]:
        import json

        conn = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=10)
        try:
            conn.request("POST", "/?" + urlencode(query or self.query), headers=self.headers)
            resp = conn.getresponse()
            return resp.status, json.loads(resp.read())
        finally:
            conn.close()


def test_a_tampered_query_parameter_is_rejected(alibaba_server):
    query = {"RegionId": REGION, "PageSize": "10", "InstanceName": "a b~c/é"}
    status, body = _Signed(alibaba_server, query, "nonce-1").send()
    assert status == 200 and body["Instances"] == {"Instance": []}
    status, body = _Signed(alibaba_server, query, "nonce-2").send(dict(query, PageSize="100"))
    assert (status, body["Code"]) == (400, "SignatureDoesNotMatch")


def test_a_reused_nonce_is_refused(alibaba_server):
    signed = _Signed(alibaba_server, {"RegionId": REGION}, "nonce-same")
    assert signed.send()[0] == 200
    status, body = signed.send()
    assert (status, body["Code"]) == (400, "SignatureNonceUsed")


# -- instances --------------------------------------------------------------------------------
def test_client_token_runs_once(alibaba_server):
    client = alibaba_client(alibaba_server)
    vsw, sg = _network(client)
    first = _run(client, vsw, sg, client_token="token-1")
    again = _run(client, vsw, sg, client_token="token-1")
    assert first == again and len(alibaba_server.instances) == 1
    assert _run(client, vsw, sg, client_token="token-2") != first


def test_paging_by_page_number_and_by_next_token(alibaba_server):
    client = alibaba_client(alibaba_server)
    vsw, sg = _network(client)
    ids = _run(client, vsw, sg, amount=25)
    pages = []
    for number in (1, 2, 3):
        body = client.describe_instances(
            m.DescribeInstancesRequest(region_id=REGION, page_number=number, page_size=10)
        ).body
        assert body.total_count == 25
        pages.append([i.instance_id for i in body.instances.instance])
    assert [len(p) for p in pages] == [10, 10, 5] and sum(pages, []) == ids
    seen, token = [], None
    while True:
        body = client.describe_instances(
            m.DescribeInstancesRequest(region_id=REGION, max_results=10, next_token=token)
        ).body
        seen += [i.instance_id for i in body.instances.instance]
        token = body.next_token
        if not token:
            break
    assert seen == ids
    exc = _error(lambda: client.describe_instances(m.DescribeInstancesRequest(region_id=REGION, page_size=101)))
    assert exc.code == "InvalidParameter"


def test_state_machine_and_stopped_modes(alibaba_server):
    client = alibaba_client(alibaba_server)
    vsw, sg = _network(client)
    alibaba_server.describes_per_transition = 2
    (iid,) = _run(client, vsw, sg)
    assert _describe(client, [iid])[iid].status == "Pending"
    running = _describe(client, [iid])[iid]
    assert running.status == "Running" and running.public_ip_address.ip_address
    client.stop_instance(m.StopInstanceRequest(instance_id=iid, stopped_mode="StopCharging"))
    assert _describe(client, [iid])[iid].status == "Stopping"
    stopped = _describe(client, [iid])[iid]
    assert (stopped.status, stopped.stopped_mode, stopped.public_ip_address.ip_address) == (
        "Stopped",
        "StopCharging",
        [],
    )
    exc = _error(lambda: client.stop_instances(m.StopInstancesRequest(region_id=REGION, instance_id=[iid])))
    assert (exc.code, exc.status_code) == ("IncorrectInstanceStatus", 403)
    client.start_instances(m.StartInstancesRequest(region_id=REGION, instance_id=[iid]))
    statuses = client.describe_instance_status(
        m.DescribeInstanceStatusRequest(region_id=REGION, instance_id=[iid])
    ).body
    assert statuses.instance_statuses.instance_status[0].status == "Starting"
    assert _describe(client, [iid])[iid].status == "Running"
    exc = _error(lambda: client.delete_instance(m.DeleteInstanceRequest(instance_id=iid)))
    assert exc.code == "IncorrectInstanceStatus"
    client.delete_instances(m.DeleteInstancesRequest(region_id=REGION, instance_id=[iid], force=True))
    assert _describe(client, [iid]) == {}


def test_local_disk_and_spot_limits(alibaba_server):
    client = alibaba_client(alibaba_server)
    vsw, sg = _network(client)
    alibaba_server.describes_per_transition = 0
    (local,) = _run(client, vsw, sg, instance_type="ecs.gn5-c4g1.xlarge")
    client.stop_instance(m.StopInstanceRequest(instance_id=local, stopped_mode="StopCharging"))
    assert _describe(client, [local])[local].stopped_mode == "KeepCharging"  # local disks: standard mode
    exc = _error(lambda: _run(client, vsw, sg, spot_strategy="SpotWithPriceLimit", spot_price_limit=1.0))
    assert (exc.code, exc.status_code) == ("InvalidSpotPriceLimit.LowerThanPublicPrice", 400)
    (spot,) = _run(client, vsw, sg, spot_strategy="SpotWithPriceLimit", spot_price_limit=5.0)
    inst = _describe(client, [spot])[spot]
    assert (inst.spot_strategy, inst.spot_price_limit, inst.instance_charge_type) == (
        "SpotWithPriceLimit",
        5.0,
        "PostPaid",
    )


# -- stock, prices, history -------------------------------------------------------------------
def test_stock_prices_and_spot_history(alibaba_server):
    client = alibaba_client(alibaba_server)
    alibaba_server.set_market(REGION, "cn-hangzhou-h", A10, on_demand=12.5, stock="ClosedWithStock")
    zones = client.describe_available_resource(
        m.DescribeAvailableResourceRequest(region_id=REGION, destination_resource="InstanceType", instance_type=A10)
    ).body.available_zones.available_zone
    got = {
        z.zone_id: z.available_resources.available_resource[0].supported_resources.supported_resource[0].status_category
        for z in zones
    }
    assert got == {"cn-hangzhou-h": "ClosedWithStock", "cn-hangzhou-i": "WithStock", "cn-hangzhou-j": "WithStock"}
    price = client.describe_price(
        m.DescribePriceRequest(
            region_id=REGION,
            instance_type=A10,
            zone_id="cn-hangzhou-h",
            system_disk=m.DescribePriceRequestSystemDisk(category="cloud_essd", size=40),
        )
    ).body.price_info.price
    details = {d.resource: d.trade_price for d in price.detail_infos.detail_info}
    assert (details["instanceType"], price.currency) == (12.5, "CNY") and price.trade_price > 12.5
    history = [("2026-01-01T00:00:00Z", 2.0), ("2026-01-02T06:00:00Z", 2.4), ("2026-01-03T00:00:00Z", 1.9)]
    alibaba_server.set_market(REGION, "cn-hangzhou-i", A10, history=history)
    alibaba_server.spot_history_page_size = 2
    points, offset = [], 0
    while True:
        body = client.describe_spot_price_history(
            m.DescribeSpotPriceHistoryRequest(
                region_id=REGION,
                zone_id="cn-hangzhou-i",
                instance_type=A10,
                network_type="vpc",
                start_time="2025-12-20T00:00:00Z",
                end_time="2026-01-10T00:00:00Z",
                offset=offset,
            )
        ).body
        points += [(p.timestamp, p.spot_price) for p in body.spot_prices.spot_price_type]
        offset = body.next_offset
        if not offset:
            break
    assert points == history


# -- error injection --------------------------------------------------------------------------
def test_fail_next_by_zone_times_and_status(alibaba_server):
    client = alibaba_client(alibaba_server)
    vsw_i, sg = _network(client)
    alibaba_server.fail_next("RunInstances", "OperationDenied.NoStock", zone="cn-hangzhou-h")
    assert _run(client, vsw_i, sg)  # zone i is not the failing zone
    alibaba_server.fail_next("RunInstances", "OperationDenied.NoStock", zone="cn-hangzhou-i")
    exc = _error(lambda: _run(client, vsw_i, sg))
    assert (exc.code, exc.status_code) == ("OperationDenied.NoStock", 403)
    alibaba_server.fail_next(
        "DescribeRegions", "Throttling.User", "Request was denied due to user flow control.", times=2
    )
    for _ in range(2):
        assert _error(lambda: client.describe_regions(m.DescribeRegionsRequest())).code == "Throttling.User"
    assert client.describe_regions(m.DescribeRegionsRequest()).body.regions.region
    alibaba_server.fail_next("DescribeRegions", "QuotaExceed.PostPaidInstance", status=400)
    exc = _error(lambda: client.describe_regions(m.DescribeRegionsRequest()))
    assert (exc.code, exc.status_code) == ("QuotaExceed.PostPaidInstance", 400)


def test_a_dropped_answer_still_runs_the_action(alibaba_server):
    client = alibaba_client(alibaba_server)
    vsw, sg = _network(client)
    alibaba_server.fail_next("RunInstances", DROP)
    with pytest.raises(Exception):  # noqa: B017 - the SDK's own connection error
        _run(client, vsw, sg, client_token="t-drop")
    assert len(alibaba_server.instances) == 1
    assert _run(client, vsw, sg, client_token="t-drop") == list(alibaba_server.instances)


def test_hold_next_answer(alibaba_server):
    client = alibaba_client(alibaba_server)
    hold = alibaba_server.hold_next_answer("DescribeRegions")
    out: list[object] = []
    worker = threading.Thread(
        target=lambda: out.append(client.describe_regions(m.DescribeRegionsRequest())), name="held-call"
    )
    worker.start()
    assert hold.reached.wait(10)
    assert not out  # the answer is held
    hold.release()
    worker.join(10)
    assert len(out) == 1
