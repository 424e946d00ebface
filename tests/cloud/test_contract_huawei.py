"""The Huawei Cloud plugin's contract with Huawei Cloud, checked offline from the installed SDKs.

Every call the plugin makes (client.CALLS: ECS, VPC v2 and v3, IMS, KPS) is an SDK request model and a client
method of its service that the SDK does not mark deprecated, and every request the plugin sends through a whole
journey against the strict peer (validate, zones, launch, list, stop, start, terminate) IS that model (recorded
at the client). The error codes the plugin maps are the documented ones (the API Gateway's and the ECS API
reference's "Error Codes"), each named here with the document it comes from, each with its own sentence and next
step. Start-up reads the spec only: no SDK module is imported until a provider is made; the spec's
FROZEN_PACKAGES are the packages the plugin imports.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cloud.base import CapacityError
from app.cloud.errors import GENERIC_MESSAGE
from app.cloud.huawei import errors as hw_errors
from app.cloud.huawei import spec as hw_spec
from app.cloud.huawei.client import CALLS, ECS_CALLS, SERVICE_OF, _snake, ecs_sdk, request_model, sdk
from app.cloud.huawei.provider import HuaweiProvider
from app.core import providers
from app.core.accounts import Account, Credentials
from tests.fixtures.huawei_ecs_server import HuaweiPeer

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "app" / "cloud" / "huawei"
APIG_TABLE = "APIG error codes, https://support.huaweicloud.com/intl/en-us/usermanual-apig/apig-ug-180530090.html"
SIGNING_FAQ = ("API Request Signing Guide, Common Errors Related to IAM Authentication Information, "
               "https://support.huaweicloud.com/eu/nl-nl/devg-apisign/api-sign-0001.html")

# Error code → what the document says it means (the codes the plugin maps, nothing else). The table spells
# them APIG.*; a gateway in front of a cloud API answers APIGW.* (the signing guide's FAQ shows both).
_MEANING = {
    "0101": f"The API does not exist or has not been published in the environment (404); {APIG_TABLE}",
    "0301": f"Incorrect IAM authentication information (401): verify aksk signature fail, ak not exist; "
            f"{APIG_TABLE}; {SIGNING_FAQ}",
    "0302": f"The IAM user is not authorized to access the API (403); {APIG_TABLE}",
    "0305": f"Incorrect authentication information (401); {APIG_TABLE}",
    "0306": f"API access denied (403); {APIG_TABLE}",
    "0308": f"The throttling threshold has been reached (429); {APIG_TABLE}",
}
DOCUMENTED = {f"{prefix}.{n}": doc for n, doc in _MEANING.items() for prefix in ("APIG", "APIGW")}
ECS_TABLE = "ECS API reference, Error Codes, https://support.huaweicloud.com/intl/en-us/api-ecs/ecs_07_0002.html"
DOCUMENTED.update({
    "Ecs.0000": f"Request error (400); {ECS_TABLE}",
    "Ecs.0001": f"Insufficient ECS quota: the number of ECSs has reached the maximum allowed (400); {ECS_TABLE}",
    "Ecs.0002": f"A system exception occurred: failed to submit the task (400); {ECS_TABLE}",
    "Ecs.0003": f"The account is restricted (balance, frozen) (403); {ECS_TABLE}",
    "Ecs.0005": f"Invalid parameter values (400); {ECS_TABLE}",
    "Ecs.0012": f"The subnet does not contain enough IP addresses (400); {ECS_TABLE}",
    "Ecs.0013": f"Insufficient EIP quota (400); {ECS_TABLE}",
    "Ecs.0100": f"The ECS status does not meet requirements (400); {ECS_TABLE}",
    "Ecs.0219": f"Failed to create the ECS (400; the failed job's code when no host takes it); {ECS_TABLE}",
    "Ecs.0319": f"Insufficient flavor capacity: 'Check capacity: Capacity is not enough.' (400); {ECS_TABLE}",
})
CAPACITY = {"Ecs.0219", "Ecs.0319"}


@pytest.fixture
def peer() -> Iterator[HuaweiPeer]:
    server = HuaweiPeer().start()
    server.add_key("HPUACONTRACTKEY00001", "contract-sk")
    try:
        yield server
    finally:
        server.stop()


def test_every_call_is_an_sdk_request_model_and_client_method_of_its_service() -> None:
    assert set(ECS_CALLS) == set(CALLS["ecs"])
    for service, names in CALLS.items():
        models, client_cls = sdk(service)
        for name in names:
            assert SERVICE_OF[name] == service
            assert isinstance(request_model(name)(), getattr(models, f"{name}Request"))
            method = getattr(client_cls, _snake(name))
            assert callable(method)
            assert "deprecated" not in (method.__doc__ or "").lower() and "warnings.warn" not in _source(method)


def _source(fn: Any) -> str:
    import inspect

    return inspect.getsource(fn)


def _spy_every_client(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    sent: list[tuple[str, Any]] = []
    for service, names in CALLS.items():
        _models, client_cls = sdk(service)
        for name in names:
            method = _snake(name)
            original = getattr(client_cls, method)

            def spy(self: Any, request: Any, _orig: Any = original, _name: str = name) -> Any:
                sent.append((_name, request))
                return _orig(self, request)

            monkeypatch.setattr(client_cls, method, spy)
    return sent


def test_a_whole_journey_sends_the_sdks_own_request_models(peer: HuaweiPeer, monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    from app.cloud.base import LaunchRequest

    sent = _spy_every_client(monkeypatch)
    peer.sell("p2s.2xlarge.8", 20.0, ("cn-north-4a", "cn-north-4b"))
    account = Account("lab", "huawei", "cn-north-4", peer.endpoint)
    creds = Credentials("HPUACONTRACTKEY00001", "contract-sk")
    provider = HuaweiProvider(sleep=lambda _s: None)
    provider.validate(account, creds)
    assert provider.zones(account, creds, "p2s.2xlarge.8") == ["cn-north-4a", "cn-north-4b"]
    inst = provider.launch(account, creds, LaunchRequest(
        "p2s.2xlarge.8", "cn-north-4", zone="cn-north-4a", public_key=_rsa_public_key(tmp_path),
        ssh_cidr="198.51.100.7/32", client_token="lg-contract"))
    assert [i.id for i in provider.list_instances(account, creds)] == [inst.id]
    provider.stop(account, creds, inst.id)
    provider.start(account, creds, inst.id)
    provider.terminate(account, creds, inst.id)
    again = provider.launch(account, creds, LaunchRequest(  # the network and the key pair are reused
        "p2s.2xlarge.8", "cn-north-4", zone="cn-north-4b", public_key=_rsa_public_key(tmp_path / "2"),
        ssh_cidr="198.51.100.7/32", client_token="lg-contract-2", spot=True, max_price=10.0))
    assert again.spot and len(peer.net.vpcs) == 1 and len(peer.net.groups) == 1
    assert {n for n, _r in sent} == set(SERVICE_OF)  # every declared call was made
    for name, request in sent:
        assert type(request) is getattr(sdk(SERVICE_OF[name])[0], f"{name}Request"), name


def _rsa_public_key(tmp_path: Path) -> str:
    tmp_path.mkdir(parents=True, exist_ok=True)
    key = tmp_path / "k"
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(key)], check=True,
                   capture_output=True)
    return key.with_suffix(".pub").read_text()


def test_the_launch_request_in_the_references_names() -> None:
    from app.cloud.base import LaunchRequest

    req = LaunchRequest("p2s.2xlarge.8", "cn-north-4", spot=True, disk_gb=120, client_token="lg-0123",
                        tags={"labgpu-launch": "lg-0123", "labgpu:ssh-key-path": "/home/student/" + "k" * 60})
    request = HuaweiProvider().create_request(
        req, zone="cn-north-4b", image="img-1", key_pair="labgpu-0011", vpc_id="vpc-1", subnet_id="sub-1",
        security_group_id="sg-1", max_price=12.5)
    models, _client = ecs_sdk()
    assert type(request) is models.CreatePostPaidServersRequest
    assert request.x_client_token == str(uuid.uuid5(uuid.NAMESPACE_URL, "labgpu:lg-0123"))  # UUID-shaped
    body = models.CreatePostPaidServersRequestBody.attribute_map
    assert body["server"] == "server"
    server = request.body.server
    # CreatePostPaidServers (PostPaidServer): flavorRef, imageRef, the zone, the key pair, vpcid, nics, security
    # groups, root_volume, an EIP billed by traffic released with the server, server_tags, spot extendparam
    assert (server.flavor_ref, server.image_ref, server.availability_zone, server.key_name, server.vpcid) == (
        "p2s.2xlarge.8", "img-1", "cn-north-4b", "labgpu-0011", "vpc-1")
    assert [n.subnet_id for n in server.nics] == ["sub-1"] and [g.id for g in server.security_groups] == ["sg-1"]
    assert (server.root_volume.volumetype, server.root_volume.size) == ("GPSSD", 120)
    eip = server.publicip
    assert eip.delete_on_termination is True
    assert (eip.eip.iptype, eip.eip.bandwidth.sharetype, eip.eip.bandwidth.chargemode) == ("5_bgp", "PER", "traffic")
    assert (server.extendparam.market_type, server.extendparam.spot_price) == ("spot", "12.5000")
    tags = {t.key: t.value for t in server.server_tags}
    assert tags == {"labgpu": "1", "labgpu-ssh-user": "root", "labgpu-token": "lg-0123", "labgpu-launch": "lg-0123"}
    assert models.PostPaidServerExtendParam.attribute_map["market_type"] == "marketType"
    assert models.PostPaidServerExtendParam.attribute_map["spot_price"] == "spotPrice"
    on_demand = HuaweiProvider().create_request(
        LaunchRequest("p2s.2xlarge.8", "cn-north-4"), zone="", image="img-1", key_pair="k", vpc_id="v",
        subnet_id="s", security_group_id="g", max_price=None)
    assert on_demand.body.server.extendparam is None and on_demand.body.server.availability_zone is None


def test_every_call_the_source_names_is_declared() -> None:
    named = set()
    for path in PLUGIN.glob("*.py"):
        named |= set(re.findall(r'_call\(\s*account,\s*creds,\s*"(\w+)"', path.read_text()))
    assert named == set(SERVICE_OF) - {"ListServerAzInfo"}  # validate and zones name it by VALIDATE_CALL


def test_the_mapped_codes_are_the_documented_ones_each_with_its_own_sentence() -> None:
    assert set(hw_errors.DOCUMENTED_ERROR_CODES) == set(DOCUMENTED)
    for code in DOCUMENTED:
        error = hw_errors.map_error(code, "message", "rid-1", action="ListServerAzInfo", region="cn-north-4")
        assert error.code == code
        assert error.template != GENERIC_MESSAGE
        assert error.hint()
        assert isinstance(error, CapacityError) == (code in CAPACITY)  # only a stock-out moves to the next zone
    generic = hw_errors.map_error("Ecs.9999", "unknown", "rid-2")
    assert generic.template == GENERIC_MESSAGE and "Ecs.9999" in str(generic)


def test_the_spec_extends_the_catalog_spec_and_keeps_obs() -> None:
    from app.core.catalog_providers import CATALOG_SPECS

    catalog = next(s for s in CATALOG_SPECS if s.id == "huawei")
    spec = hw_spec.SPEC
    assert (spec.name, spec.name_zh, spec.currency, spec.billing, spec.region_countries, spec.credentials) == (
        catalog.name, catalog.name_zh, catalog.currency, catalog.billing, catalog.region_countries,
        catalog.credentials)
    caps = spec.capabilities
    assert caps.storage and caps.launch and caps.spot and caps.zones and caps.live_prices
    assert caps.find_by_client_token and not caps.stop_without_charging
    assert spec.spot_rule and spec.importers[0].id == "huawei" and spec.ssh_key_types == ("rsa",)
    assert not providers.storage_only("huawei") and "huawei" in providers.launchable_ids()
    assert {"cn-north-4", "cn-east-3", "cn-south-1", "ap-southeast-1"} <= set(spec.regions)
    from app.cloud import registry

    registry.load_builtin()
    assert providers.spec("huawei") is spec


def test_frozen_packages_are_the_sdk_packages_the_plugin_imports() -> None:
    imported: set[str] = set()
    for path in PLUGIN.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("huaweicloud"):
                imported.add(node.value.split(".")[0])
    assert imported <= set(hw_spec.FROZEN_PACKAGES)
    for package in hw_spec.FROZEN_PACKAGES:
        __import__(package)


def test_start_up_reads_the_spec_only() -> None:
    code = ("import sys; from app.cloud import registry; registry.load_builtin(); "
            "from app.core import providers; assert providers.find_spec('huawei').regions; "
            "print(sorted(m for m in sys.modules if m.startswith('huaweicloud')))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                       check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_the_price_request_is_the_bss_sdk_model_in_the_references_names() -> None:
    from app.cloud.huawei.prices import bss_sdk, rating_request

    models, client_cls = bss_sdk()
    request = rating_request("p" * 32, "cn-north-4", ["p2s.2xlarge.8"])
    assert type(request) is models.ListOnDemandResourceRatingsRequest
    assert callable(client_cls.list_on_demand_resource_ratings)
    body = request.body.to_dict()
    assert body["project_id"] == "p" * 32
    [product] = body["product_infos"]
    # "Querying the Price of a Pay-Per-Use Product" (DemandProductInfo): one hour of a Linux ECS flavor
    assert {k: v for k, v in product.items() if v is not None} == {
        "id": "0", "cloud_service_type": "hws.service.type.ec2", "resource_type": "hws.resource.type.vm",
        "resource_spec": "p2s.2xlarge.8.linux", "region": "cn-north-4", "usage_factor": "Duration",
        "usage_value": 1, "usage_measure_id": 4, "subscription_num": 1}
