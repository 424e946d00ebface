"""The Huawei Cloud plugin's contract with Huawei Cloud, checked offline from the installed SDK.

Every ECS call the plugin makes (provider.ECS_CALLS) is an SDK request model and an EcsClient method, and
the request the plugin sends while it validates against the strict peer IS that model (recorded at the
client). The error codes the plugin maps are the API Gateway's documented ones, each with the document it
comes from, and map to their own sentence and next step. Start-up reads the spec only: no SDK module is
imported until a provider is made; the spec's FROZEN_PACKAGES are the packages the plugin imports.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cloud.errors import GENERIC_MESSAGE
from app.cloud.huawei import errors as hw_errors
from app.cloud.huawei import spec as hw_spec
from app.cloud.huawei.client import ECS_CALLS, _snake, ecs_sdk, request_model
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


@pytest.fixture
def peer() -> Iterator[HuaweiPeer]:
    server = HuaweiPeer().start()
    server.add_key("HPUACONTRACTKEY00001", "contract-sk")
    try:
        yield server
    finally:
        server.stop()


def test_every_ecs_call_is_an_sdk_request_model_and_client_method() -> None:
    models, client_cls = ecs_sdk()
    for name in ECS_CALLS:
        assert isinstance(request_model(name)(), getattr(models, f"{name}Request"))
        method = getattr(client_cls, _snake(name))
        assert callable(method)
        assert "deprecated" not in (method.__doc__ or "").lower() and "warnings.warn" not in _source(method)


def _source(fn: Any) -> str:
    import inspect

    return inspect.getsource(fn)


def test_the_plugin_sends_the_sdks_own_request_models(peer: HuaweiPeer, monkeypatch: pytest.MonkeyPatch) -> None:
    models, client_cls = ecs_sdk()
    sent: list[tuple[str, Any]] = []
    for name in ECS_CALLS:
        method = _snake(name)
        original = getattr(client_cls, method)

        def spy(self: Any, request: Any, _orig: Any = original, _name: str = name) -> Any:
            sent.append((_name, request))
            return _orig(self, request)

        monkeypatch.setattr(client_cls, method, spy)
    account = Account("lab", "huawei", "cn-north-4", peer.endpoint)
    HuaweiProvider().validate(account, Credentials("HPUACONTRACTKEY00001", "contract-sk"))
    assert [n for n, _r in sent] == list(ECS_CALLS)
    assert all(type(r) is getattr(models, f"{n}Request") for n, r in sent)


def test_every_ecs_call_the_source_names_is_declared() -> None:
    named = set()
    for path in PLUGIN.glob("*.py"):
        named |= set(re.findall(r'_call\(\s*account,\s*creds,\s*"(\w+)"', path.read_text()))
    assert named <= set(ECS_CALLS)


def test_the_mapped_codes_are_the_documented_ones_each_with_its_own_sentence() -> None:
    assert set(hw_errors.DOCUMENTED_ERROR_CODES) == set(DOCUMENTED)
    for code in DOCUMENTED:
        error = hw_errors.map_error(code, "message", "rid-1", action="ListServerAzInfo", region="cn-north-4")
        assert error.code == code
        assert error.template != GENERIC_MESSAGE
        assert error.hint()
    generic = hw_errors.map_error("Ecs.9999", "unknown", "rid-2")
    assert generic.template == GENERIC_MESSAGE and "Ecs.9999" in str(generic)


def test_the_spec_extends_the_catalog_spec_and_keeps_obs() -> None:
    from app.core.catalog_providers import CATALOG_SPECS

    catalog = next(s for s in CATALOG_SPECS if s.id == "huawei")
    spec = hw_spec.SPEC
    assert (spec.name, spec.name_zh, spec.currency, spec.billing, spec.region_countries, spec.credentials) == (
        catalog.name, catalog.name_zh, catalog.currency, catalog.billing, catalog.region_countries,
        catalog.credentials)
    assert spec.capabilities.storage and not spec.capabilities.launch
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
