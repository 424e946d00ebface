"""The Paperspace plugin's contract with Paperspace's API reference, checked offline.

Paperspace publishes no Python SDK, so the contract is the reference itself
(https://docs.digitalocean.com/reference/paperspace/api-reference/, whose OpenAPI document is
https://api.paperspace.com/v1/openapi.json) and its official client, the pspace CLI
(https://github.com/Paperspace/cli: api/*.ts name the same paths). Every call the plugin makes in a whole launch →
stop → start → delete against the strict peer is one of the reference's operations below; the create body has
only the reference's fields; every code the error table maps is one the CLI lists; start-up imports the spec only.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.cloud.base import LaunchRequest
from app.cloud.paperspace import errors as ps_errors
from app.cloud.paperspace import spec as ps_spec
from app.cloud.paperspace.provider import PaperspaceProvider
from app.core.accounts import Account, Credentials
from tests.fixtures.paperspace_server import CREATE_FIELDS, TEST_API_KEY, PaperspaceServer

ROOT = Path(__file__).resolve().parents[2]
REF = "https://docs.digitalocean.com/reference/paperspace/api-reference/"

# (method, path template) → the reference's operation (its operationId) the plugin relies on.
OPERATIONS = {
    ("GET", "/auth/session"): "auth-session (Get the current session)",
    ("GET", "/machines"): "machines-list (List machines; after/limit paging)",
    ("POST", "/machines"): "machines-create (Create a machine)",
    ("GET", "/machines/{id}"): "machines-get (Get a machine)",
    ("DELETE", "/machines/{id}"): "machines-delete (Delete a machine)",
    ("PATCH", "/machines/{id}/start"): "machines-start (Start a machine)",
    ("PATCH", "/machines/{id}/stop"): "machines-stop (Stop a machine)",
    ("GET", "/machine-availability"): "machineAvailability-list (Get machine availability)",
    ("GET", "/os-templates"): "osTemplates-list (List OS templates)",
    ("GET", "/startup-scripts"): "startupScripts-list (List startup scripts)",
    ("POST", "/startup-scripts"): "startupScripts-create (Create startup script)",
}
# machines-create's request body (REF "Create a machine"): required and optional fields.
CREATE_REQUIRED = {"name", "machineType", "templateId", "diskSize", "region"}
ED25519 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl labgpu@test"


def _template(path: str) -> str:
    parts = path[len("/v1"):].strip("/").split("/")
    if parts[0] == "machines" and len(parts) >= 2:
        parts[1] = "{id}"
    return "/" + "/".join(parts)


def test_every_call_of_a_whole_lifecycle_is_a_documented_operation() -> None:
    server = PaperspaceServer().start()
    try:
        provider = PaperspaceProvider(sleep=lambda s: None)
        acc = Account("ps", "paperspace", "ny2", server.endpoint)
        creds = Credentials("", TEST_API_KEY)
        provider.validate(acc, creds)
        inst = provider.launch(acc, creds, LaunchRequest(instance_type="A100-80G", region="ny2", zone="ca1",
                                                        public_key=ED25519, client_token="lg-contract",
                                                        ssh_key_name="labgpu-00"))
        provider.find_by_client_token(acc, creds, "lg-contract")
        while server.machines[inst.id].state != "ready":
            provider.machine(acc, creds, inst.id)
        provider.stop(acc, creds, inst.id)
        provider.start(acc, creds, inst.id)
        provider.terminate(acc, creds, inst.id)
        used = {(c.method, _template(c.path)) for c in server.calls}
        assert used <= set(OPERATIONS), used - set(OPERATIONS)
        assert all(c.authorized for c in server.calls if c.path != "/v1/os-templates")
        [body] = server.requests("POST", "/v1/machines")
        assert CREATE_REQUIRED <= set(body) <= CREATE_FIELDS
        assert body["publicIpType"] in ("static", "dynamic", "none")
        assert all(c.query.get("limit") == "120" for c in server.calls if c.method == "GET" and _template(c.path) in
                   ("/machines", "/os-templates", "/startup-scripts"))
    finally:
        server.stop()


def test_every_mapped_code_is_one_the_api_client_lists() -> None:
    mapped = set(ps_errors.TABLE) - {ps_errors.UNAVAILABLE}
    assert mapped == set(ps_errors.DOCUMENTED_ERROR_CODES)
    assert set(ps_errors.STATUS_CODES.values()) <= set(ps_errors.DOCUMENTED_ERROR_CODES)
    # LabGPU's own code for the availability answer {"available": false} (the API documents no error for it)
    assert ps_errors.TABLE[ps_errors.UNAVAILABLE] is ps_errors.CAPACITY
    for code, spec in ps_errors.TABLE.items():
        assert spec.message != spec.hint and spec.message and spec.hint, code


def test_starting_the_app_imports_the_spec_only() -> None:
    code = ("import sys, app.cloud.registry as r; r.load_builtin(); "
            "from app.core import providers; assert providers.spec('paperspace').capabilities.launch; "
            "bad = [m for m in sys.modules if m in ('app.cloud.paperspace.client', 'app.cloud.paperspace.provider', "
            "'app.cloud.paperspace.errors', 'app.cloud.paperspace.importer')]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_the_spec_extends_the_catalog_spec_and_says_what_still_bills() -> None:
    from app.core.catalog_providers import CATALOG_SPECS

    catalog = next(s for s in CATALOG_SPECS if s.id == "paperspace")
    spec = ps_spec.SPEC
    assert (spec.name, spec.currency, spec.billing, spec.region_countries) == (
        catalog.name, catalog.currency, catalog.billing, catalog.region_countries)
    assert spec.regions == ("ny2", "ca1", "ams1") and not spec.capabilities.spot
    assert spec.capabilities.zones and spec.capabilities.find_by_client_token
    assert "disk" in spec.limitations["stop_charging"] and "static public IP" in spec.limitations["stop_charging"]
    assert ps_spec.FROZEN_PACKAGES == ()
