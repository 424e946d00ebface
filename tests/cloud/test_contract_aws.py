"""Contract of the AWS plugin with AWS's own sources, offline.

1. Every call the plugin makes, with the params it really passes (captured from botocore's
   ``provide-client-params`` event while the plugin runs its real code paths against moto behind
   the strict proxy), is valid for botocore's service model: ``ParamValidator`` (names, types,
   required members) plus each string's ``enum`` (the validator does not check enums).
2. Every error code the plugin maps (app/cloud/aws/errors.py, and the stop refusals in provider.py)
   is one AWS documents: the EC2 error code reference, or the common errors of STS and of the
   JSON services (Pricing) for the calls made there.
"""

from __future__ import annotations

import copy
from datetime import datetime, timezone
from typing import Any

import botocore.session
import pytest
from botocore.validate import ParamValidator

from app.cloud.aws import AwsProvider
from app.cloud.aws import client as aws_client
from app.cloud.aws import provider as aws_provider
from app.cloud.aws.errors import ERRORS
from app.cloud.base import LaunchRequest
from app.core.accounts import Account, Credentials
from app.core.backstops import plan_backstop
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

CREDS = Credentials(AWS_KEY_ID, AWS_SECRET)
PUB = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAID/lWbUumpQSCUVa9pwxQgVOfItPeL8qb7ODGzKvrkuQ test"

# https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html (common client errors, client
# errors for specific actions, server errors) — the codes LabGPU may map; prefixes ("InvalidAMIID.") stand
# for the documented dotted codes under them.
EC2_DOCUMENTED = {
    "AuthFailure", "Blocked", "DryRunOperation", "IdempotentParameterMismatch", "IncompleteSignature",
    "InvalidAction", "InvalidCharacter", "InvalidClientTokenId", "InvalidPaginationToken", "InvalidParameter",
    "InvalidParameterCombination", "InvalidParameterDependency", "InvalidParameterValue",
    "InvalidQueryParameter", "MalformedQueryString", "MissingAction", "MissingAuthenticationToken",
    "MissingParameter", "OptInRequired", "PendingVerification", "RequestExpired", "UnauthorizedOperation",
    "UnknownParameter", "UnsupportedInstanceAttribute", "UnsupportedOperation", "UnsupportedProtocol",
    "ValidationError",
    "IncorrectInstanceState", "IncorrectSpotRequestState", "IncorrectState", "InstanceLimitExceeded",
    "InsufficientFreeAddressesInSubnet", "InvalidAMIID.Malformed", "InvalidAMIID.NotFound",
    "InvalidAMIID.Unavailable", "InvalidBlockDeviceMapping", "InvalidGroup.Duplicate", "InvalidGroup.NotFound",
    "InvalidInstanceID.Malformed", "InvalidInstanceID.NotFound", "InvalidInstanceType",
    "InvalidKeyPair.Duplicate", "InvalidKeyPair.Format", "InvalidKeyPair.NotFound",
    "InvalidPermission.Duplicate", "InvalidSpotInstanceRequestID.Malformed",
    "InvalidSpotInstanceRequestID.NotFound", "MaxSpotInstanceCountExceeded", "SpotMaxPriceTooLow",
    "Unsupported", "VcpuLimitExceeded", "UnfulfillableCapacity",
    "InsufficientInstanceCapacity", "InsufficientCapacity", "InternalError", "RequestLimitExceeded",
    "ServiceUnavailable", "Unavailable",
}
# https://docs.aws.amazon.com/STS/latest/APIReference/CommonErrors.html (validate() calls
# sts:GetCallerIdentity): plus ExpiredToken, which GetCallerIdentity's own reference names for an
# expired session token.
STS_DOCUMENTED = {
    "AccessDenied", "IncompleteSignature", "InternalFailure", "InvalidAction", "InvalidClientTokenId",
    "NotAuthorized", "OptInRequired", "RequestExpired", "ServiceUnavailable", "ThrottlingException",
    "ValidationError", "ExpiredToken", "SignatureDoesNotMatch", "Throttling",
}
# The JSON services' common error for an unknown access key (the Pricing API, https://docs.aws.amazon.com/
# aws-cost-management/latest/APIReference/CommonErrors.html lists the signature ones; botocore's
# client raises UnrecognizedClientException for an unknown key id), and clock skew
# (RequestTimeTooSkewed, botocore/retries/standard.py's clock-skew codes).
JSON_DOCUMENTED = {"UnrecognizedClientException", "RequestTimeTooSkewed", "InvalidSignatureException"}
DOCUMENTED = EC2_DOCUMENTED | STS_DOCUMENTED | JSON_DOCUMENTED


def _documented(code: str) -> bool:
    if code.endswith("."):  # a prefix: at least one documented code under it
        return any(d.startswith(code) for d in DOCUMENTED)
    return code in DOCUMENTED


def test_every_mapped_error_code_is_documented():
    mapped = set(ERRORS) | set(aws_provider.STOP_REFUSED_CODES)
    wrong = sorted(c for c in mapped if not _documented(c))
    assert wrong == [], f"codes AWS does not document: {wrong}"


def test_the_error_check_catches_an_invented_code():
    assert not _documented("SpotInstanceNotStoppable")
    assert not _documented("InvalidFoo.")
    assert _documented("InvalidAMIID.")


# -- requests ----------------------------------------------------------------------------------

def _enum_problems(shape: Any, value: Any, path: str) -> list[str]:
    out: list[str] = []
    if shape.type_name == "structure" and isinstance(value, dict):
        for k, v in value.items():
            if k in shape.members:
                out += _enum_problems(shape.members[k], v, f"{path}.{k}")
    elif shape.type_name == "list" and isinstance(value, list):
        for i, v in enumerate(value):
            out += _enum_problems(shape.member, v, f"{path}[{i}]")
    elif shape.type_name == "string" and getattr(shape, "enum", None) and value not in shape.enum:
        out.append(f"{path}: {value!r} is not one of {shape.enum}")
    return out


def problems(service: str, operation: str, params: dict[str, Any]) -> list[str]:
    """What botocore's own model says is wrong with these params (empty: valid)."""
    model = botocore.session.get_session().get_service_model(service)
    shape = model.operation_model(operation).input_shape
    report = ParamValidator().validate(params, shape)
    out = [report.generate_report()] if report.has_errors() else []
    return out + _enum_problems(shape, params, operation)


@pytest.fixture
def captured(monkeypatch):
    """(service, operation, params) of every call the plugin's clients make."""
    calls: list[tuple[str, str, dict[str, Any]]] = []
    original = aws_client.AwsClient._client

    def client(self, *a, **kw):  # type: ignore[no-untyped-def]
        c = original(self, *a, **kw)
        if not getattr(c, "_labgpu_contract", False):
            service = c.meta.service_model.service_name

            def hook(params, model, **_):  # type: ignore[no-untyped-def]
                calls.append((service, model.name, copy.deepcopy(params)))

            c.meta.events.register(f"provide-client-params.{c.meta.service_model.service_id.hyphenize()}",
                                   hook)
            c._labgpu_contract = True
        return c

    aws_client._local.__dict__.pop("clients", None)  # no client made before the hook
    monkeypatch.setattr(aws_client.AwsClient, "_client", client)
    yield calls
    aws_client._local.__dict__.pop("clients", None)


def test_every_call_the_plugin_makes_is_valid_for_the_botocore_model(captured, moto):
    acct = Account("lab", "aws", "us-east-1", moto.url)
    p = AwsProvider()
    p.validate(acct, CREDS)
    p.zones(acct, CREDS, "g5.xlarge")
    req = dict(instance_type="g5.xlarge", region="us-east-1", ssh_key_name="labgpu-k", public_key=PUB,
               ssh_cidr="198.51.100.7/32", name="n", disk_gb=100)
    od = p.launch(acct, CREDS, LaunchRequest(**req, client_token="tok-od"))
    spot = p.launch(acct, CREDS, LaunchRequest(**req, client_token="tok-spot", spot=True, max_price=0.8,
                                               zone="us-east-1b"))
    plan = plan_backstop(2.0, datetime.now(timezone.utc))
    assert plan is not None
    timed = p.launch(acct, CREDS, LaunchRequest(**req, client_token="tok-timed", backstop=plan))
    assert p.read_backstop(acct, CREDS, timed.id, plan).accepted
    p.ensure_security_group(acct, CREDS, "2001:db8::/64")
    p.list_instances(acct, CREDS)
    p.find_by_client_token(acct, CREDS, "tok-spot")
    p.host_key_fingerprints(acct, CREDS, od.id)
    p.current_spot_price(acct, CREDS, "g5.xlarge", "us-east-1a")
    p.stop(acct, CREDS, spot.id)
    p.start(acct, CREDS, spot.id)
    p.stop(acct, CREDS, od.id)
    p.terminate(acct, CREDS, spot.id)  # cancels the spot request, then terminates
    p.terminate(acct, CREDS, od.id)
    p.refresh_prices(acct, CREDS, ["g5.xlarge"])
    p.spot_price_history(acct, CREDS, "g5.xlarge", zone="us-east-1a", days=1)

    ops = {op for _s, op, _p in captured}
    for needed in ("RunInstances", "StopInstances", "StartInstances", "TerminateInstances",
                   "DescribeSpotInstanceRequests", "CancelSpotInstanceRequests", "ImportKeyPair",
                   "AuthorizeSecurityGroupIngress", "DescribeSpotPriceHistory", "GetProducts",
                   "GetCallerIdentity", "DescribeInstanceAttribute"):
        assert needed in ops, f"{needed} was not exercised"
    bad = [f"{s}:{op}: {e}" for s, op, params in captured for e in problems(s, op, params)]
    assert bad == []
    [run] = [params for _s, op, params in captured
             if op == "RunInstances" and "InstanceMarketOptions" in params]
    assert run["InstanceMarketOptions"]["SpotOptions"] == {
        "SpotInstanceType": "persistent", "InstanceInterruptionBehavior": "stop", "MaxPrice": "0.8000"}
    # the backstop: an on-demand instance terminates on the shutdown its user data schedules; no other launch has one
    backstops = [params for _s, op, params in captured if op == "RunInstances" and "UserData" in params]
    assert [b["InstanceInitiatedShutdownBehavior"] for b in backstops] == ["terminate"]
    assert "labgpu-backstop" in backstops[0]["UserData"] and "--on-boot=120min" in backstops[0]["UserData"]


def test_the_request_check_fails_on_a_wrong_name_type_or_value():
    """The contract is not vacuous: what a typo in the plugin would send is caught."""
    good = {"ImageId": "ami-1", "MinCount": 1, "MaxCount": 1,
            "InstanceMarketOptions": {"MarketType": "spot", "SpotOptions": {
                "SpotInstanceType": "persistent", "InstanceInterruptionBehavior": "stop"}}}
    assert problems("ec2", "RunInstances", good) == []
    name = copy.deepcopy(good)
    name["InstanceMarketOptions"]["SpotOptions"]["SpotInstanceTyp"] = "persistent"
    assert "Unknown parameter" in " ".join(problems("ec2", "RunInstances", name))
    typ = dict(good, MinCount="1")
    assert "Invalid type" in " ".join(problems("ec2", "RunInstances", typ))
    value = copy.deepcopy(good)
    value["InstanceMarketOptions"]["SpotOptions"]["InstanceInterruptionBehavior"] = "pause"
    assert "not one of" in " ".join(problems("ec2", "RunInstances", value))
    assert problems("ec2", "CancelSpotInstanceRequests", {"SpotInstanceRequestId": ["sir-1"]})
    shutdown = dict(good, InstanceInitiatedShutdownBehavior="halt")  # the model's enum is stop | terminate
    assert "not one of" in " ".join(problems("ec2", "RunInstances", shutdown))
    assert problems("ec2", "DescribeInstanceAttribute", {"InstanceId": "i-1", "Attribute": "shutdownBehavior"})
