"""The Alibaba Cloud provider against the local ACS3-checking ECS server (official SDK, real HTTP)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.cloud import base
from app.cloud.alibaba import DOCUMENTED_ERROR_CODES, SPOT_NOTICE, AlibabaProvider, map_error, parse_endpoint
from app.cloud.alibaba.importer import import_candidates
from app.cloud.alibaba.spec import SPEC as ALIBABA_SPEC
from app.cloud.base import Account, Credentials, LaunchRequest
from app.cloud.errors import NetworkError
from app.core import providers
from app.core.catalog_providers import CATALOG_SPECS
from tests.fixtures.alibaba_ecs_data import TYPES
from tests.fixtures.alibaba_ecs_server import DROP, TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET
from tests.fixtures.alibaba_fixtures import rsa_public_key

ROOT = Path(__file__).resolve().parents[2]
PUBKEY = rsa_public_key()  # ImportKeyPair takes rsa, dsa and ecdsa keys only
A10 = "ecs.gn7i-c8g1.2xlarge"
A100 = "ecs.gn7-c12g1.3xlarge"
P100 = "ecs.gn5-c4g1.xlarge"  # local NVMe disks: cannot stop without charging


@pytest.fixture
def provider() -> AlibabaProvider:
    p = AlibabaProvider()
    p.poll_interval = 0.02
    p.retry_base_delay = 0.01
    p.operation_timeout = 10
    p.network_timeout = 10
    p._sleep = lambda s: None  # the peer advances on describes, not on time
    return p


@pytest.fixture
def acc(alibaba_server) -> Account:
    return Account("ali", "alibaba", "cn-hangzhou", f"http://{alibaba_server.endpoint}")


CREDS = Credentials(TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET)


def _req(**kw) -> LaunchRequest:
    values = {"instance_type": A10, "region": "cn-hangzhou", "zone": "cn-hangzhou-h", "public_key": PUBKEY,
              "ssh_cidr": "198.51.100.7/32", "client_token": "lg-token-1", "disk_gb": 80,
              "tags": {"labgpu-launch": "lg-token-1"}}
    values.update(kw)
    return LaunchRequest(**values)


# -- the spec -------------------------------------------------------------------------------------
def test_the_plugin_declares_the_whole_spec_the_catalog_and_launching_read():
    assert "alibaba" not in {s.id for s in CATALOG_SPECS}  # one source: the plugin's spec.py
    spec = providers.spec("alibaba")
    assert spec is ALIBABA_SPEC
    assert spec.capabilities.launch and spec.capabilities.spot and spec.capabilities.live_prices
    assert "alibaba" in providers.launchable_ids()
    assert (spec.currency, spec.billing_rule.increment_s, spec.billing_rule.settlement) == ("CNY", 1, "hourly")
    assert providers.billing_rule("alibaba") is spec.billing
    assert ("cn-", "CN") in spec.region_countries and spec.no_public_prices
    assert spec.default_region == "cn-hangzhou"
    assert [c.key for c in spec.credentials] == ["key_id", "secret"]
    assert spec.credential("secret").secret
    assert spec.spot_notice == SPOT_NOTICE
    assert SPOT_NOTICE.url == "http://100.100.100.200/latest/meta-data/instance/spot/termination-time"
    # the spot watcher reads Alibaba's answer (a UTC timestamp) from this declaration alone
    from app.remote.spotwatch import parse_answer

    _state, notice, _why = parse_answer("alibaba", "2015-01-05T18:02:00Z\nSTATUS 200\n", spec.spot_notice)
    assert notice is not None and notice.time.isoformat() == "2015-01-05T18:02:00+00:00"
    assert [i.id for i in spec.importers] == ["alibaba"]


def test_starting_the_app_imports_the_spec_only():
    code = ("import sys, app.cloud.registry as r; r.load_builtin(); "
            "from app.core import providers; assert providers.spec('alibaba').capabilities.launch; "
            "bad = [m for m in sys.modules if m.startswith(('alibabacloud', 'darabonba', 'Tea')) "
            "or m in ('app.cloud.alibaba.client', 'app.cloud.alibaba.provider')]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_endpoint_forms():
    assert parse_endpoint("") == ("", "https")
    assert parse_endpoint("http://127.0.0.1:9000") == ("127.0.0.1:9000", "http")
    assert parse_endpoint("ecs.cn-hangzhou.aliyuncs.com") == ("ecs.cn-hangzhou.aliyuncs.com", "https")
    with pytest.raises(base.CloudError):
        parse_endpoint("ftp://example.com")


# -- credentials ----------------------------------------------------------------------------------
def test_validate_and_the_signature_check(alibaba_server, provider, acc):
    assert "LTAI5t" in provider.validate(acc, CREDS)
    with pytest.raises(base.AuthError) as info:
        provider.validate(acc, Credentials(TEST_ACCESS_KEY_ID, "not-the-secret"))
    assert info.value.code == "SignatureDoesNotMatch"
    assert "AccessKey Secret" in info.value.hint()
    with pytest.raises(base.AuthError) as info:
        provider.validate(acc, Credentials("LTAI5tUnknownKey000000", "x"))
    assert info.value.code == "InvalidAccessKeyId.NotFound"
    before = len(alibaba_server.actions())
    alibaba_server.fail_next("DescribeRegions", "Throttling.User", times=2)  # retried, not shown
    provider.validate(acc, CREDS)
    assert alibaba_server.actions()[before:] == ["DescribeRegions"] * 3


def test_no_answer_is_a_network_error(alibaba_server, provider, acc):
    alibaba_server.fail_next("DescribeRegions", DROP)
    with pytest.raises(NetworkError):
        provider.validate(acc, CREDS)


# -- prices ---------------------------------------------------------------------------------------
def test_live_prices_per_zone_with_the_sold_out_zone_marked(alibaba_server, provider, acc):
    alibaba_server.set_market("cn-hangzhou", "cn-hangzhou-i", A10, spot_stock="WithoutStock")
    offers = {(o.instance_type, o.zone): o for o in provider.refresh_prices(acc, CREDS, [A10, A100])}
    assert len(offers) == 6
    a10 = offers[(A10, "cn-hangzhou-h")]
    assert (a10.price_on_demand, a10.price_spot, a10.currency) == (TYPES[A10].on_demand, TYPES[A10].spot, "CNY")
    assert (a10.gpu_model, a10.gpu_count, a10.vram_gb, a10.vcpu) == ("A10", 1.0, 24.0, 8)
    assert a10.live and a10.spot_available and not a10.sold_out
    assert not offers[(A10, "cn-hangzhou-i")].spot_available  # spot sold out there, on demand not
    assert not offers[(A10, "cn-hangzhou-i")].sold_out
    assert offers[(A100, "cn-hangzhou-j")].sold_out  # neither on demand nor spot
    assert provider.zones(acc, CREDS, A100) == ["cn-hangzhou-h", "cn-hangzhou-i"]


def test_spot_price_history_reads_every_page(alibaba_server, provider, acc):
    now = datetime.now(timezone.utc).replace(microsecond=0)
    history = [((now - timedelta(hours=h)).strftime("%Y-%m-%dT%H:%M:%SZ"), 2.0 + h / 100) for h in range(10, 0, -1)]
    alibaba_server.set_market("cn-hangzhou", "cn-hangzhou-h", A10, history=history)
    alibaba_server.spot_history_page_size = 3
    points = provider.spot_price_history(acc, CREDS, A10, zone="cn-hangzhou-h", days=2)
    assert [round(p.price, 2) for p in points] == [round(price, 2) for _t, price in history]
    assert all(p.zone == "cn-hangzhou-h" and p.currency == "CNY" for p in points)
    offsets = [q.get("Offset", "0") for q in alibaba_server.requests_of("DescribeSpotPriceHistory")]
    assert offsets == ["0", "3", "6", "9"]
    assert base.spot_price_history(provider, acc, CREDS, A10, "cn-hangzhou-h", 2) == points


# -- launch and lifecycle -------------------------------------------------------------------------
def test_launch_builds_the_network_once_and_is_idempotent(alibaba_server, provider, acc):
    steps: list[str] = []
    cap = round(TYPES[A10].on_demand * 0.8, 3)  # the spot maximum CloudService hands in
    inst = provider.launch(acc, CREDS, _req(spot=True, max_price=cap), lambda step, msg="": steps.append(step))
    # a fresh account: VPC and vSwitch are created, then Pending for two describes each (said as "network")
    assert steps == ["key", "network", "network", "network", "network", "network", "network",
                     "security_group", "image", "request"]
    [run] = alibaba_server.requests_of("RunInstances")
    assert run["SpotStrategy"] == "SpotWithPriceLimit"
    assert float(run["SpotPriceLimit"]) == cap
    assert run["ImageFamily"] == "acs:ubuntu_22_04_gpu_x64"  # the public family with the NVIDIA driver
    assert (run["ClientToken"], run["InternetMaxBandwidthOut"], run["SystemDisk.Size"]) == ("lg-token-1", "100", "80")
    tags = {run[f"Tag.{n}.Key"]: run[f"Tag.{n}.Value"] for n in range(1, 6) if f"Tag.{n}.Key" in run}
    assert tags["labgpu"] == "1" and tags["labgpu-launch"] == "lg-token-1" and tags["labgpu:ssh-user"] == "root"
    assert (inst.provider, inst.zone, inst.spot, inst.price_per_hour) == ("alibaba", "cn-hangzhou-h", True,
                                                                          TYPES[A10].spot)
    # Same token: the same instance, nothing created. Another launch reuses VPC, vSwitch, group and key.
    assert provider.launch(acc, CREDS, _req(spot=True, max_price=cap)).id == inst.id
    assert len(alibaba_server.instances) == 1
    alinux = "aliyun_3_x64_20G_alibase_20250901.vhd"
    other = provider.launch(acc, CREDS, _req(client_token="lg-token-2", image_id=alinux))
    assert other.id != inst.id and other.image_id == alinux
    for action in ("CreateVpc", "CreateVSwitch", "CreateSecurityGroup", "AuthorizeSecurityGroup", "ImportKeyPair"):
        assert len(alibaba_server.requests_of(action)) == 1, action
    [sg] = alibaba_server.security_groups
    assert [(r["IpProtocol"], r["PortRange"], r["SourceCidrIp"]) for r in alibaba_server.ingress_rules(sg)] == [
        ("TCP", "22/22", "198.51.100.7/32")]
    assert provider.find_by_client_token(acc, CREDS, "lg-token-1").id == inst.id


def test_listing_reads_every_page(alibaba_server, provider, acc):
    first = provider.launch(acc, CREDS, _req())
    raw = alibaba_server.requests_of("RunInstances")[0]
    with alibaba_server.lock:  # 104 more tagged instances in the same network
        alibaba_server._a_RunInstances(dict(raw, ClientToken="bulk", Amount="100"))
        alibaba_server._a_RunInstances(dict(raw, ClientToken="bulk2", Amount="4"))
    listed = provider.list_instances(acc, CREDS)
    assert len(listed) == 105 and first.id in {i.id for i in listed}
    pages = [q["PageNumber"] for q in alibaba_server.requests_of("DescribeInstances") if q.get("Tag.1.Key")]
    assert pages[-2:] == ["1", "2"]


def test_stop_says_what_still_bills(alibaba_server, provider, acc):
    economical = provider.launch(acc, CREDS, _req())
    local_disk = provider.launch(acc, CREDS, _req(instance_type=P100, client_token="lg-p100"))
    alibaba_server.finish_transitions()
    note = provider.stop(acc, CREDS, economical.id)
    assert "disks still bill" in note and "no longer bill" in note
    assert alibaba_server.instance(economical.id).stopped_mode == "StopCharging"
    assert [q["StoppedMode"] for q in alibaba_server.requests_of("StopInstances")] == ["StopCharging"]
    note = provider.stop(acc, CREDS, local_disk.id)
    assert "still bills the full hourly price" in note
    assert alibaba_server.instance(local_disk.id).stopped_mode == "KeepCharging"
    stopped = {i.id: i for i in provider.list_instances(acc, CREDS)}
    assert stopped[economical.id].state == "stopped"
    assert stopped[economical.id].raw_state == "Stopped/StopCharging"
    # the standard (KeepCharging) stop bills compute: shown and counted as billing, never as free
    assert (stopped[local_disk.id].state, stopped[local_disk.id].raw_state) == ("stopped_billing",
                                                                              "Stopped/KeepCharging")
    assert stopped[local_disk.id].state in base.BILLING_STATES
    provider.start(acc, CREDS, economical.id)
    assert alibaba_server.instance(economical.id).status == "Running"
    alibaba_server.fail_next("StartInstances", "IncorrectInstanceStatus")
    with pytest.raises(base.CloudError) as info:
        provider.start(acc, CREDS, economical.id)
    assert info.value.code == "IncorrectInstanceStatus" and "Running or Stopped" in info.value.hint()
    provider.terminate(acc, CREDS, economical.id)
    assert economical.id not in alibaba_server.instances
    assert [q["Force"] for q in alibaba_server.requests_of("DeleteInstances")] == ["True"]


# -- errors ---------------------------------------------------------------------------------------
def test_every_documented_code_has_a_sentence_and_a_next_step_in_both_languages():
    ts = ET.parse(ROOT / "resources" / "translations" / "alibaba_zh_CN.ts")
    chinese = {m.findtext("source"): m.findtext("translation") for m in ts.getroot().iter("message")}
    for code in DOCUMENTED_ERROR_CODES:
        err = map_error(code, "provider text", "rid-1", action="RunInstances", zone="cn-hangzhou-h",
                        instance_type=A10, region="cn-hangzhou")
        assert err.code == code
        assert err.template != "{provider_name} refused the request ({error_code}): {provider_message}", code
        assert err.hint_template and chinese.get(err.template) and chinese.get(err.hint_template), code
    named = {
        "InvalidAccessKeyId.NotFound": base.AuthError, "SignatureDoesNotMatch": base.AuthError,
        "Forbidden.RAM": base.CloudError, "InvalidAccountStatus.NotEnoughBalance": base.QuotaError,
        "OperationDenied.NoStock": base.CapacityError, "InvalidInstanceType.ValueNotSupported": base.NotFoundError,
        "QuotaExceed.ElasticQuota": base.QuotaError, "QuotaExceed.PostPaidDisk": base.QuotaError,
        "QuotaExceed.SomethingNew": base.QuotaError, "IncorrectInstanceStatus": base.CloudError,
        "Throttling": base.ThrottledError, "Throttling.User": base.ThrottledError,
    }
    for code, cls in named.items():
        assert isinstance(map_error(code, "x"), cls), code
    assert "AliyunECSFullAccess" in map_error("Forbidden.RAM", "x", action="RunInstances").hint()


# -- importer -------------------------------------------------------------------------------------
def test_import_reads_the_cli_profiles_current_first_and_the_environment(tmp_path):
    (tmp_path / ".aliyun").mkdir()
    (tmp_path / ".aliyun" / "config.json").write_text(json.dumps({
        "current": "work",
        "profiles": [
            {"name": "default", "mode": "AK", "access_key_id": "LTAIdefault", "access_key_secret": "s1",
             "region_id": "cn-beijing"},
            {"name": "work", "mode": "AK", "access_key_id": "LTAIwork", "access_key_secret": "s2", "region_id": ""},
            {"name": "sso", "mode": "CloudSSO", "access_key_id": "", "access_key_secret": ""},
        ],
    }), encoding="utf-8")
    env = {"HOME": str(tmp_path), "ALIBABA_CLOUD_ACCESS_KEY_ID": "LTAIenv", "ALIBABA_CLOUD_ACCESS_KEY_SECRET": "s3",
           "ALIBABA_CLOUD_REGION_ID": "cn-shanghai"}
    found = import_candidates(env=env)
    assert [(c.account.name, c.account.region, c.credentials.key_id, c.source) for c in found] == [
        ("alibaba-work", "cn-hangzhou", "LTAIwork", "aliyun-profile:work"),
        ("alibaba-default", "cn-beijing", "LTAIdefault", "aliyun-profile:default"),
        ("alibaba-env", "cn-shanghai", "LTAIenv", "env:ALIBABA_CLOUD_ACCESS_KEY_ID"),
    ]
    assert all(c.account.provider == "alibaba" for c in found)
    chosen = import_candidates(env=dict(env, ALIBABA_CLOUD_PROFILE="default"), region="cn-shenzhen")
    assert [c.account.name for c in chosen][:2] == ["alibaba-default", "alibaba-work"]
    assert chosen[1].account.region == "cn-shenzhen"
    assert import_candidates(env={"HOME": str(tmp_path / "nobody")}) == []
