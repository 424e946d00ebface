"""Contract: every Tencent Cloud call LabGPU makes, checked against the installed SDK (offline).

* Each request body the plugin builds matches tencentcloud.<service>.v20170312.models.<Action>Request:
  every field name is an attribute of the model, nested objects match the model classes and every
  value has the type the model declares (the SDK's own ``_deserialize`` only warns "fileds ... are
  useless" about unknown names, so the check walks the models itself: tests/fixtures/tencent_cvm_server.py
  ``model_problems``).
* The calls checked are all the calls the plugin's source makes (every ``_call(`` in app/cloud/tencent).
* Every error code the plugin maps is in the SDK's error list (tencentcloud/cvm/v20170312/errorcodes.py,
  tencentcloud/vpc/v20170312/errorcodes.py) or a documented common error code
  (https://cloud.tencent.com/document/api/213/15694), and the capacity/stock/unsupported-type codes the
  RunInstances reference lists (https://cloud.tencent.com/document/api/213/15730) are mapped.
* The checks fail when a field name, a type or a mapped code is wrong (the last tests break each one).
"""

from __future__ import annotations

import copy
import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.cloud.base import CapacityError, LaunchRequest
from app.cloud.tencent import TencentProvider
from app.cloud.tencent import errors as tencent_errors
from app.core.backstops import plan_backstop
from tests.fixtures.tencent_cvm_server import model_problems
from tests.fixtures.tencent_server import tencent_account, tencent_creds

PLUGIN = Path(__file__).resolve().parents[2] / "app" / "cloud" / "tencent"

# The common error codes every Tencent Cloud API may answer (公共错误码,
# https://cloud.tencent.com/document/api/213/15694).
COMMON_ERROR_CODES = frozenset(
    {
        "ActionOffline", "AuthFailure.InvalidAuthorization", "AuthFailure.InvalidSecretId",
        "AuthFailure.MFAFailure", "AuthFailure.SecretIdNotFound", "AuthFailure.SignatureExpire",
        "AuthFailure.SignatureFailure", "AuthFailure.TokenFailure", "AuthFailure.UnauthorizedOperation",
        "DryRunOperation", "FailedOperation", "InternalError", "InvalidAction", "InvalidParameter",
        "InvalidParameterValue", "InvalidRequest", "IpInBlacklist", "IpNotInWhitelist", "LimitExceeded",
        "MissingParameter", "NoSuchProduct", "NoSuchVersion", "RequestLimitExceeded",
        "RequestLimitExceeded.GlobalRegionUinLimitExceeded", "RequestLimitExceeded.IPLimitExceeded",
        "RequestLimitExceeded.UinLimitExceeded", "RequestSizeLimitExceeded", "ResourceInUse",
        "ResourceInsufficient", "ResourceNotFound", "ResourceUnavailable", "ResponseSizeLimitExceeded",
        "ServiceUnavailable", "UnauthorizedOperation", "UnknownParameter", "UnsupportedOperation",
        "UnsupportedProtocol", "UnsupportedRegion",
    }
)
# Codes LabGPU gives itself for SDK-side failures (no network, an HTTP error page): never sent by Tencent.
SDK_SIDE_CODES = frozenset({"ClientNetworkError", "ServerNetworkError"})
# What the RunInstances reference lists for capacity, stock and unsupported types: must be mapped.
REQUIRED_CODES = frozenset(
    {
        "ResourceUnavailable.InstanceType",
        "ResourceNotFound.InvalidZoneInstanceType",
        "InvalidParameter.InstanceTypeNotSupport",
        "UnsupportedOperation.NoInstanceTypeSupportSpot",
        "ResourceInsufficient.SpecifiedInstanceType",
        "ResourceInsufficient.ZoneSoldOutForSpecifiedInstance",
        "ResourcesSoldOut.SpecifiedInstanceType",
        "ResourceInsufficient.CloudDiskSoldOut",
        "ResourcesSoldOut.EipInsufficient",
        "ResourceInsufficient.CidrBlock",
    }
)


def _sdk_codes(service: str) -> set[str]:
    if service == "vpc":
        from tencentcloud.vpc.v20170312 import errorcodes
    else:
        from tencentcloud.cvm.v20170312 import errorcodes
    return {v for k, v in vars(errorcodes).items() if k.isupper() and isinstance(v, str)}


def undocumented_codes(codes: set[str]) -> set[str]:
    """The codes in `codes` that neither SDK error list nor the common error codes name."""
    return codes - _sdk_codes("cvm") - _sdk_codes("vpc") - COMMON_ERROR_CODES - SDK_SIDE_CODES


def plugin_calls() -> dict[str, str]:
    """action → service of every `_call(account, creds, "Action", …)` in the plugin's source."""
    calls: dict[str, str] = {}
    for path in sorted(PLUGIN.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for m in re.finditer(r'_call\(\s*account,\s*creds,\s*"(\w+)"', text):
            depth, end = 1, m.end()
            while depth and end < len(text):  # to the call's closing parenthesis
                depth += {"(": 1, ")": -1}.get(text[end], 0)
                end += 1
            calls[m.group(1)] = "vpc" if 'service="vpc"' in text[m.end() : end] else "cvm"
    return calls


@pytest.fixture
def provider() -> TencentProvider:
    p = TencentProvider()
    p.poll_interval = 0.02
    p.retry_base_delay = 0.01
    p.launch_timeout = 10
    p.operation_timeout = 10
    return p


def _rsa_line() -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    ).decode() + " contract@test"


def _req(**kw: object) -> LaunchRequest:
    values: dict[str, object] = {
        "instance_type": "GN7.2XLARGE32", "region": "ap-guangzhou", "zone": "ap-guangzhou-3",
        "public_key": _rsa_line(), "ssh_key_name": "labgpu-contract", "ssh_cidr": "198.51.100.7/32",
        "client_token": "contract-1", "disk_gb": 80, "name": "contract",
        "tags": {"labgpu-launch": "contract-1", "labgpu:ssh-key": "/home/u/.labgpu/keys/id_rsa"},
    }
    values.update(kw)
    return LaunchRequest(**values)  # type: ignore[arg-type]


# -- the request bodies ---------------------------------------------------------------------------
def test_every_call_the_plugin_makes_matches_the_sdk_request_model(tencent_server, provider):
    """Drive every action the plugin's source calls against the peer and check each body it sent."""
    acct, creds = tencent_account(tencent_server), tencent_creds()
    provider.validate(acct, creds)
    provider.refresh_prices(acct, creds, ["GN7.2XLARGE32", "GT4.4XLARGE96"])
    on_demand = provider.launch(acct, creds, _req())
    spot = provider.launch(acct, creds, _req(spot=True, client_token="contract-2", max_price=None))
    plan = plan_backstop(2.0, datetime.now(timezone.utc))
    timed = provider.launch(acct, creds, _req(client_token="contract-3", backstop=plan))
    assert plan is not None and provider.read_backstop(acct, creds, timed.id, plan).accepted
    provider.list_instances(acct, creds)
    provider.zones(acct, creds, "GN7.2XLARGE32")
    provider.stop(acct, creds, on_demand.id)
    provider.start(acct, creds, on_demand.id)
    provider.terminate(acct, creds, spot.id)
    sent = {action for action, _ in tencent_server.calls}
    wanted = plugin_calls()
    assert set(wanted) <= sent, f"not exercised: {sorted(set(wanted) - sent)}"
    assert "DescribeSecurityGroupPolicies" in wanted and wanted["CreateSecurityGroupPolicies"] == "vpc"
    for action, params in tencent_server.calls:
        assert model_problems(wanted[action], action, params) == [], (action, params)


@pytest.mark.parametrize("spot", [False, True])
def test_run_instances_body_matches_the_model_offline(spot):
    params = TencentProvider().run_instances_params(
        _req(spot=spot), zone="ap-guangzhou-3", image_id="img-1", key_id="skey-1",
        security_group_id="sg-1", max_price=1.5 if spot else None, login_user="ubuntu",
    )
    assert model_problems("cvm", "RunInstances", params) == []
    assert params["VirtualPrivateCloud"] == {"VpcId": "DEFAULT", "SubnetId": "DEFAULT"}
    assert "ActionTimer" not in params  # no maximum runtime asked: no timer sent


def test_the_action_timer_matches_the_model_and_its_documented_format():
    """ActionTimer (models.py ActionTimer: TimerAction "TerminateInstances", ActionTime "YYYY-MM-DDThh:mm:ssZ" UTC)."""
    now = datetime(2026, 12, 5, 7, 30, 15, 400000, tzinfo=timezone(timedelta(hours=8)))
    params = TencentProvider().run_instances_params(
        _req(backstop=plan_backstop(1.5, now)), zone="ap-guangzhou-3", image_id="img-1", key_id="skey-1",
        security_group_id="sg-1", max_price=None)
    assert model_problems("cvm", "RunInstances", params) == []
    assert params["ActionTimer"] == {"TimerAction": "TerminateInstances", "ActionTime": "2026-12-05T01:00:15Z"}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", params["ActionTimer"]["ActionTime"])
    wrong = copy.deepcopy(params)
    wrong["ActionTimer"]["ActionTimeUtc"] = wrong["ActionTimer"].pop("ActionTime")
    assert [c for c, _ in model_problems("cvm", "RunInstances", wrong)] == ["UnknownParameter"]
    assert model_problems("cvm", "DescribeInstancesActionTimer", {"InstanceIds": ["ins-1"]}) == []


def test_security_group_rules_match_the_model_and_go_one_direction_per_call(tencent_server, provider):
    acct, creds = tencent_account(tencent_server), tencent_creds()
    provider._ensure_security_group(acct, creds, "198.51.100.7/32")
    bodies = tencent_server.requests_of("CreateSecurityGroupPolicies")
    assert [list(b["SecurityGroupPolicySet"]) for b in bodies] == [["Ingress"], ["Egress"]]
    for body in bodies:
        assert model_problems("vpc", "CreateSecurityGroupPolicies", body) == []
        for rule in next(iter(body["SecurityGroupPolicySet"].values())):
            assert "Port" not in rule or rule["Protocol"] in ("TCP", "UDP")


# -- the error codes --------------------------------------------------------------------------------
def test_every_mapped_error_code_is_in_the_sdk_or_the_common_codes():
    assert undocumented_codes(set(tencent_errors._ERRORS)) == set()


def test_the_timer_codes_the_launch_steps_around_are_documented():
    from app.cloud.tencent.launch import TIMER_REFUSALS

    assert undocumented_codes(set(TIMER_REFUSALS)) == set()


def test_capacity_stock_and_unsupported_type_codes_are_mapped():
    assert set(tencent_errors._ERRORS) >= REQUIRED_CODES
    assert "ResourceNotFound.NoDefaultVpc" not in tencent_errors._ERRORS


@pytest.mark.parametrize(
    ("code", "says"),
    [
        ("ResourceInsufficient.CloudDiskSoldOut", "disk"),
        ("ResourceInsufficient.CidrBlock", "subnet"),
        ("ResourcesSoldOut.EipInsufficient", "public IP"),
        ("ResourceUnavailable.InstanceType", "does not sell"),
    ],
)
def test_disk_eip_and_cidr_codes_say_what_ran_out(code, says):
    err = tencent_errors.map_error(code, "sold out", "req-1", action="RunInstances",
                                   zone="ap-guangzhou-3", region="ap-guangzhou",
                                   instance_type="GN7.2XLARGE32", disk_type="CLOUD_PREMIUM")
    assert says in err.text()
    assert "capacity" not in err.text().lower()
    if code != "ResourcesSoldOut.EipInsufficient":
        assert isinstance(err, CapacityError)  # zonal: the launcher tries the next zone


# -- the contract fails when broken -----------------------------------------------------------------
def _good_body() -> dict:
    return TencentProvider().run_instances_params(
        _req(spot=True), zone="ap-guangzhou-3", image_id="img-1", key_id="skey-1",
        security_group_id="sg-1", max_price=1.5,
    )


def test_a_misspelt_field_name_fails_the_contract():
    body = _good_body()
    body["SecurityGroupId"] = body.pop("SecurityGroupIds")  # the singular is not RunInstances' field
    assert [c for c, _ in model_problems("cvm", "RunInstances", body)] == ["UnknownParameter"]
    nested = _good_body()
    nested["VirtualPrivateCloud"]["VpcID"] = nested["VirtualPrivateCloud"].pop("VpcId")
    assert [c for c, _ in model_problems("cvm", "RunInstances", nested)] == ["UnknownParameter"]


def test_a_wrong_type_fails_the_contract():
    body = _good_body()
    body["SystemDisk"]["DiskSize"] = "80"  # int in the model
    assert [c for c, _ in model_problems("cvm", "RunInstances", body)] == ["InvalidParameter"]
    body = _good_body()
    body["InstanceMarketOptions"]["SpotOptions"]["MaxPrice"] = 1.5  # str in the model
    assert [c for c, _ in model_problems("cvm", "RunInstances", body)] == ["InvalidParameter"]
    body = _good_body()
    body["SecurityGroupIds"] = "sg-1"  # list of str in the model
    assert [c for c, _ in model_problems("cvm", "RunInstances", body)] == ["InvalidParameter"]


def test_an_invented_error_code_fails_the_contract():
    table = copy.copy(tencent_errors._ERRORS)
    table["ResourceNotFound.NoDefaultVpc"] = table["RequestLimitExceeded"]
    assert undocumented_codes(set(table)) == {"ResourceNotFound.NoDefaultVpc"}
