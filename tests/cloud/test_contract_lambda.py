"""Contract of the Lambda plugin with the Lambda Cloud API reference (OpenAPI 1.8.3, transcribed in
tests/fixtures/lambda_openapi.py): every call the plugin declares is an operation of the document with the
method and path it has there; the bodies it builds validate against the operation's schema; the error codes
it maps are exactly codes the document's ApiError* schemas name, each with its own sentence; the spec
extends the catalog's; start-up imports the spec alone; the plugin imports no third-party package."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from app.cloud.base import LaunchRequest
from app.cloud.lambdalabs import errors as lambda_errors
from app.cloud.lambdalabs import spec as lambda_spec
from app.cloud.lambdalabs.client import OPERATIONS
from app.cloud.lambdalabs.provider import LambdaProvider
from tests.fixtures.lambda_openapi import ERRORS, SCHEMAS
from tests.fixtures.lambda_openapi import OPERATIONS as DOCUMENTED
from tests.fixtures.lambda_schema import validate

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "app" / "cloud" / "lambdalabs"
PUBKEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICN+lJwsONkwrdsSnQsu1ydUkIuIg5oOC+Eslvmtt60T x"


def test_every_declared_call_is_an_operation_of_the_reference() -> None:
    for (method, path), operation_id in OPERATIONS.items():
        assert (method, path) in DOCUMENTED, (method, path)
        assert DOCUMENTED[(method, path)]["operationId"] == operation_id


def test_every_call_the_source_makes_is_declared() -> None:
    made = set()
    for path in PLUGIN.glob("*.py"):
        for m in re.finditer(r'_request\([^)]*?"(GET|POST)", "(/[^"]+)"', path.read_text(), re.S):
            made.add((m.group(1), m.group(2)))
    assert made and made <= set(OPERATIONS)


def test_the_launch_body_validates_against_the_schema() -> None:
    p = LambdaProvider()
    token = "lg-" + "0" * 32
    req = LaunchRequest(instance_type="gpu_1x_a100_sxm4", region="us-east-1", public_key=PUBKEY,
                        client_token=token + "~1", name="n" * 80,
                        tags={"labgpu-launch": token, "labgpu:ssh-key-path": "/home/s/" + "k" * 200,
                              "Bad Key": "x"})
    for fs in ("", "datasets"):
        for image in ("", "lambda-stack-22-04", "0123456789abcdef0123456789abcdef"):
            body = p.launch_body(LaunchRequest(**{**req.__dict__, "image_id": image}), "us-east-1",
                                 "labgpu-0123456789abcdef", fs)
            assert validate(body, "InstanceLaunchRequest") == [], body
    assert validate({"instance_ids": ["abc"]}, "InstanceTerminateRequest") == []
    assert validate({"name": "labgpu-0123456789abcdef", "public_key": PUBKEY}, "AddSSHKeyRequest") == []


def test_the_regions_are_the_references_region_codes() -> None:
    assert set(lambda_spec.REGIONS) == set(SCHEMAS["PublicRegionCode"]["enum"])


def test_the_mapped_codes_are_the_documented_ones_each_with_its_own_sentence() -> None:
    documented = {e["code"] for e in ERRORS.values()}
    assert set(lambda_errors.DOCUMENTED_ERROR_CODES) <= documented
    # the codes the operations LabGPU calls can answer are all mapped
    used = {name for (m, p), op in DOCUMENTED.items() if (m, p) in OPERATIONS
            for refs in op["errors"].values() for name in refs}
    assert {ERRORS[n]["code"] for n in used} <= set(lambda_errors.DOCUMENTED_ERROR_CODES)
    templates = [spec.message for spec in lambda_errors.TABLE.values()]
    assert len(set(templates)) == len(templates)


def test_the_spec_extends_the_catalog_spec() -> None:
    from app.core.catalog_providers import CATALOG_SPECS

    catalog = next(s for s in CATALOG_SPECS if s.id == "lambda")
    spec = lambda_spec.SPEC
    assert (spec.id, spec.name, spec.currency, spec.billing, spec.no_public_prices, spec.order) == (
        catalog.id, catalog.name, catalog.currency, catalog.billing, catalog.no_public_prices, catalog.order)
    assert spec.capabilities.launch and not spec.capabilities.spot and spec.capabilities.live_prices
    assert [c.key for c in spec.credentials] == ["secret"]  # an API key alone


def test_the_plugin_imports_only_the_standard_library_and_the_app() -> None:
    assert lambda_spec.FROZEN_PACKAGES == ()
    stdlib = set(sys.stdlib_module_names)
    for path in PLUGIN.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                top = node.module.split(".")[0]
            elif isinstance(node, ast.Import):
                top = node.names[0].name.split(".")[0]
            else:
                continue
            assert top in stdlib | {"app", "__future__"}, (path.name, top)


def test_start_up_reads_the_spec_only() -> None:
    code = ("import sys; from app.cloud import registry; registry.load_builtin(); "
            "from app.core import providers; assert providers.find_spec('lambda').capabilities.launch; "
            "print(sorted(m for m in sys.modules if m.startswith('app.cloud.lambdalabs.')))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                       check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['app.cloud.lambdalabs.spec']"
