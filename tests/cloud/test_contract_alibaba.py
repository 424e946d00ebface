"""The Alibaba plugin's contract with Alibaba Cloud, checked offline from the installed SDKs.

Every request the plugin builds (recorded while it drives the strict local peer through validate,
prices, spot history, a fresh-account launch, a repaired security group, an IPv6 range, stop, start
and terminate) must round-trip through the SDK's own request model —
``alibabacloud_ecs20140526.models.<Action>Request`` or, for VPC calls, ``alibabacloud_vpc20160428.models``
— ``Request().from_map(m).to_map() == m`` (an unknown or misspelled field is dropped by from_map),
and every value must have the type the model declares (``from_map`` keeps a wrong type silently; the
SDK would then send it as-is). Every action the plugin's source names must have been seen here, and
VPC/vSwitch calls must go to the VPC API (the ECS copies are deprecated). The error codes this
contract names (the ones the peer answers and the issue's) carry the document they come from.
"""

from __future__ import annotations

import inspect
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from app.cloud.alibaba import client as ali_client
from app.cloud.alibaba import errors as ali_errors
from app.cloud.alibaba.client import ECS, VPC, AlibabaClient, request_model
from app.cloud.alibaba.provider import AlibabaProvider
from app.cloud.base import Account, Credentials, LaunchRequest
from app.core.backstops import plan_backstop
from tests.fixtures.alibaba_ecs_data import VPC_VERSION
from tests.fixtures.alibaba_ecs_server import TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET
from tests.fixtures.alibaba_fixtures import rsa_public_key

ROOT = Path(__file__).resolve().parents[2]
A10 = "ecs.gn7i-c8g1.2xlarge"
CREDS = Credentials(TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET)

# The VPC API's actions: never sent to ECS (its copies are deprecated, "temporarily accessible":
# https://www.alibabacloud.com/help/ja/ecs/developer-reference/api-ecs-2014-05-26-createvswitch).
VPC_ACTIONS = {"CreateVpc", "DescribeVpcs", "DescribeVpcAttribute", "CreateVSwitch", "DescribeVSwitches",
               "DescribeVSwitchAttributes"}

# Error codes → the document that names them (for the call LabGPU makes).
DOCUMENTED = {
    "IncorrectVpcStatus": "VPC error center https://error-center.aliyun.com/status/product/Vpc "
                          "(\"Current VPC status does not support this operation.\"); "
                          "ECS CreateInstance/RunInstances 错误码",
    "IncorrectVSwitchStatus": "ECS RunInstances/CreateInstance 错误码 (\"The current status of virtual switch does not "
                              "support this operation.\"), https://help.aliyun.com/document_detail/63440.html",
    "InvalidPublicKeyBody.Malformed": "ImportKeyPair 错误码, https://help.aliyun.com/document_detail/51774.html",
    "KeyPair.AlreadyExist": "ImportKeyPair 错误码, https://help.aliyun.com/document_detail/51774.html",
    "OperationDenied.NoStock": "RunInstances 错误码, https://help.aliyun.com/document_detail/63440.html",
    "InvalidSpotPriceLimit.LowerThanPublicPrice": "RunInstances 错误码, https://help.aliyun.com/document_detail/63440.html",
    "InvalidAccountStatus.NotEnoughBalance": "RunInstances 错误码, https://help.aliyun.com/document_detail/63440.html",
    "QuotaExceed.ElasticQuota": "RunInstances 错误码, https://help.aliyun.com/document_detail/63440.html",
    "InvalidInstanceType.ValueNotSupported": "CreateInstance/RunInstances 错误码 (\"The specified InstanceType does "
                                             "not exist or beyond the permitted range.\")",
    "InvalidSecurityGroupId.NotFound": "CreateInstance/RunInstances 错误码 (\"The specified SecurityGroupId does "
                                       "not exist.\")",
    "QuotaExceed.AfterpayInstance": "CreateInstance 错误码 (\"The maximum number of Pay-As-You-Go instances is "
                                    "exceeded\")",
    "SignatureDoesNotMatch": "Alibaba Cloud OpenAPI common errors (ACS3 signature)",
    "InvalidAccessKeyId.NotFound": "Alibaba Cloud OpenAPI common errors",
    "InvalidTimeStamp.Expired": "Alibaba Cloud OpenAPI common errors",
    "SignatureNonceUsed": "Alibaba Cloud OpenAPI common errors",
    "IncompleteSignature": "Alibaba Cloud OpenAPI common errors",
    "IncorrectInstanceStatus": "StartInstances/StopInstances/DeleteInstances 错误码",
    "InvalidInstanceId.NotFound": "DescribeInstances/StartInstances/StopInstances 错误码",
    "InvalidAutoReleaseTime.Malformed": "ModifyInstanceAutoReleaseTime/RunInstances 错误码 (\"The specified parameter "
                                        "autoReleaseTime is not valid.\"), https://help.aliyun.com/document_detail/47576.html",
    "ChargeTypeViolation": "ModifyInstanceAutoReleaseTime 错误码 (\"The operation is not permitted due to charge type "
                           "of the instance.\"), https://help.aliyun.com/document_detail/47576.html",
}


# -- the checker --------------------------------------------------------------------------------
_TYPES = {"str": str, "int": int, "bool": bool, "float": (int, float), "Any": object}


def _type_errors(model: Any, where: str) -> list[str]:
    """Each set attribute of a from_map'ed model against the type its __init__ declares."""
    out = []
    for name, param in inspect.signature(type(model).__init__).parameters.items():
        if name == "self":
            continue
        value = getattr(model, name, None)
        if value is None or value == []:
            continue
        ann = str(param.annotation)
        out.extend(_check(value, ann, f"{where}.{name}"))
    return out


def _check(value: Any, ann: str, where: str) -> list[str]:
    if ann.startswith("List[") and ann.endswith("]"):
        if not isinstance(value, list):
            return [f"{where}: {type(value).__name__} where the model has {ann}"]
        return [e for i, v in enumerate(value) for e in _check(v, ann[5:-1], f"{where}[{i}]")]
    if ann.startswith("Dict["):
        return [] if isinstance(value, dict) else [f"{where}: {type(value).__name__} where the model has {ann}"]
    if ann.startswith("main_models."):
        if type(value).__name__ != ann.split(".", 1)[1]:
            return [f"{where}: {type(value).__name__} where the model has {ann}"]
        return _type_errors(value, where)
    expected = _TYPES.get(ann)
    if expected is None:
        return [f"{where}: unknown annotation {ann}"]
    if isinstance(value, bool) and ann != "bool":
        return [f"{where}: bool where the model has {ann}"]
    if isinstance(value, expected):
        return []
    return [f"{where}: {type(value).__name__} {value!r} where the model has {ann}"]


def _strip_empty(mapped: Any, sent: Any) -> Any:
    """to_map() writes an empty list for a list field never given: drop those, keep everything else."""
    if isinstance(mapped, dict) and isinstance(sent, dict):
        return {k: _strip_empty(v, sent.get(k)) for k, v in mapped.items() if not (v == [] and k not in sent)}
    if isinstance(mapped, list) and isinstance(sent, list):
        return [_strip_empty(m, s) for m, s in zip(mapped, sent, strict=False)]
    return mapped


def contract_errors(api: str, action: str, params: dict[str, Any]) -> list[str]:
    """What is wrong with this request by the SDK's model (empty: it is right)."""
    model = request_model(api, action)().from_map(params)
    errors = []
    back = _strip_empty(model.to_map(), params)
    if back != params:
        lost = sorted(set(params) - set(back))
        errors.append(f"{api} {action}: fields the model does not know: {lost or back}")
    errors.extend(_type_errors(model, f"{api} {action}"))
    return errors


# -- recording every request of a full flow ------------------------------------------------------
@pytest.fixture
def recorded(alibaba_server, monkeypatch):
    calls: list[tuple[str, str, dict[str, Any]]] = []
    original = AlibabaClient._request

    def spy(api: str, action: str, params: dict[str, Any]) -> Any:
        calls.append((api, action, dict(params)))
        return original(api, action, params)

    monkeypatch.setattr(AlibabaClient, "_request", staticmethod(spy))
    return calls


def _provider() -> AlibabaProvider:
    p = AlibabaProvider(sleep=lambda s: None)  # the peer moves on describes, not on time
    p.poll_interval = 0.01
    p.retry_base_delay = 0.01
    p.operation_timeout = 10
    p.network_timeout = 10
    return p


def _full_flow(server, provider: AlibabaProvider) -> None:
    acc = Account("ali", "alibaba", "cn-hangzhou", f"http://{server.endpoint}")
    provider.validate(acc, CREDS)
    provider.refresh_prices(acc, CREDS, [A10])
    provider.spot_price_history(acc, CREDS, A10, zone="cn-hangzhou-h", days=2)
    req = {"instance_type": A10, "region": "cn-hangzhou", "zone": "cn-hangzhou-h", "public_key": rsa_public_key(),
           "ssh_cidr": "198.51.100.7/32", "client_token": "contract-1", "disk_gb": 80, "name": "contract run #1"}
    spot = provider.launch(acc, CREDS, LaunchRequest(spot=True, **req))
    [sg] = server.security_groups
    server.security_groups[sg]["Permissions"].clear()  # a group found without its rule: repaired
    provider.launch(acc, CREDS, LaunchRequest(**dict(req, client_token="contract-2")))
    first_zone = provider.zones(acc, CREDS, A10)[0]  # what CloudService tries first on "any zone"
    provider.launch(acc, CREDS, LaunchRequest(**dict(req, client_token="contract-3", ssh_cidr="2001:db8::/64",
                                                     zone=first_zone)))
    plan = plan_backstop(2.0, datetime.now(timezone.utc))
    assert plan is not None
    timed = provider.launch(acc, CREDS, LaunchRequest(**dict(req, client_token="contract-4", backstop=plan)))
    assert provider.read_backstop(acc, CREDS, timed.id, plan).accepted
    provider.list_instances(acc, CREDS)
    server.finish_transitions()
    provider.stop(acc, CREDS, spot.id)
    provider.start(acc, CREDS, spot.id)
    provider.terminate(acc, CREDS, spot.id)


def _plugin_actions() -> set[str]:
    """Every action name the plugin's source passes to _call."""
    names = set()
    for path in (ROOT / "app" / "cloud" / "alibaba").glob("*.py"):
        names |= set(re.findall(r'_call\(\s*account,\s*creds,\s*"([A-Za-z]+)"', path.read_text(encoding="utf-8")))
        names |= set(re.findall(r'\("(Describe[A-Za-z]+)",\s*"[A-Za-z]+Id"\)', path.read_text(encoding="utf-8")))
    return names


def test_every_request_the_plugin_makes_fits_the_sdk_model(alibaba_server, recorded):
    _full_flow(alibaba_server, _provider())
    seen = {action for _api, action, _p in recorded}
    assert _plugin_actions() - seen == set(), "actions of the plugin this flow never made"
    problems = [e for api, action, params in recorded for e in contract_errors(api, action, params)]
    assert problems == []
    # VPC and vSwitch calls on the VPC API only, both in what the plugin built and on the wire
    assert {action for api, action, _p in recorded if api == VPC} == VPC_ACTIONS
    assert not [a for api, a, _p in recorded if api == ECS and a in VPC_ACTIONS]
    on_wire = {(c.action, c.version) for c in alibaba_server.calls if c.action in VPC_ACTIONS}
    assert on_wire and all(version == VPC_VERSION for _a, version in on_wire)
    # the backstop goes as AutoReleaseTime, yyyy-MM-ddTHH:mm:ssZ with seconds 00, on one launch only
    releases = [p["AutoReleaseTime"] for _api, action, p in recorded if action == "RunInstances" and
                "AutoReleaseTime" in p]
    assert len(releases) == 1 and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:00Z", releases[0])


def test_the_checker_fails_on_a_wrong_name_type_or_list():
    # the checker itself is not vacuous: each kind of mistake is named
    good = {"RegionId": "cn-hangzhou", "SecurityGroupId": "sg-1",
            "Permissions": [{"IpProtocol": "TCP", "PortRange": "22/22", "SourceCidrIp": "198.51.100.7/32",
                             "Priority": "1"}]}
    assert contract_errors(ECS, "AuthorizeSecurityGroup", good) == []
    misspelled = dict(good, Permissions=[dict(good["Permissions"][0], Ipv6SourceCidr="2001:db8::/64")])
    assert contract_errors(ECS, "AuthorizeSecurityGroup", misspelled)
    wrong_type = dict(good, Permissions=[dict(good["Permissions"][0], Priority=1)])
    assert any("Priority" in e or "priority" in e for e in contract_errors(ECS, "AuthorizeSecurityGroup", wrong_type))
    assert contract_errors(ECS, "RunInstances", {"RegionId": "cn-hangzhou", "SystemDisk": {"Size": 80}})  # a str
    assert contract_errors(ECS, "RunInstances", {"RegionId": "cn-hangzhou", "SystemDisk": {"Size": "80"}}) == []
    assert contract_errors(VPC, "CreateVpc", {"RegionId": "cn-hangzhou", "VpcNmae": "labgpu"})
    assert contract_errors(ECS, "RunInstances", {"RegionId": "cn-hangzhou", "SpotPriceLimit": "0.5"})


def test_the_mapped_codes_the_peer_answers_are_documented_and_mapped():
    for code, source in DOCUMENTED.items():
        assert source, code
        assert code in ali_errors.TABLE, f"{code} ({source}) has no sentence in app/cloud/alibaba/errors.py"
    # the two codes of a Pending network say "in the middle of another change", never a LabGPU bug
    for code in ("IncorrectVpcStatus", "IncorrectVSwitchStatus"):
        assert ali_errors.TABLE[code] is ali_errors.STATUS


def test_request_model_is_the_one_the_client_sends():
    # the plugin's request building is the SDK model (so the contract above is what goes on the wire)
    assert ali_client.request_model(VPC, "CreateVpc").__module__.startswith("alibabacloud_vpc20160428")
    assert ali_client.request_model(ECS, "RunInstances").__module__.startswith("alibabacloud_ecs20140526")
