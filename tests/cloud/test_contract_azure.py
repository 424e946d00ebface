"""The Azure plugin's contract with Azure, checked offline from the pinned SDKs.

- Every ARM operation the plugin's source calls (``s.compute.<group>.<method>``, ``s.network…``, ``s.resource…``)
  is an operation of the installed azure-mgmt-compute / -network / -resource clients.
- Every request body the plugin sends (recorded by the strict peer while the plugin launches, stops, starts and
  terminates) is the SDK's own model: read back into that model, each field at every depth is one the model
  declares (the models refuse unknown keyword names when built, and this catches what a raw dict could slip in),
  and the enum values LabGPU relies on are members of the SDK's enums.
- Each mapped error code carries the document that names it, and has its own sentence and next step.
- The spec extends the catalog's; FROZEN_PACKAGES cover the SDK modules the plugin imports; start-up imports none.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.cloud.azure import errors as az_errors
from app.cloud.azure import spec as az_spec
from app.cloud.azure.client import COMPUTE, NETWORK, RESOURCE, client_class, models
from app.cloud.azure.provider import AzureProvider
from app.cloud.base import Account, CapacityError, Credentials, LaunchRequest
from app.cloud.errors import GENERIC_MESSAGE
from app.core import providers
from tests.fixtures import azure_arm_server
from tests.fixtures.azure_arm_server import (
    TEST_CLIENT_ID,
    TEST_CLIENT_SECRET,
    TEST_SUBSCRIPTION,
    TEST_TENANT,
    AzurePeer,
)

# the peer's fixtures (tests/fixtures/azure_arm_server.py), used by name below
azure_peer_session = azure_arm_server.azure_peer_session
azure_peer = azure_arm_server.azure_peer

ROOT = Path(__file__).resolve().parents[2]
PLUGIN = ROOT / "app" / "cloud" / "azure"
A100 = "Standard_NC24ads_A100_v4"
CREDS = Credentials(TEST_CLIENT_ID, TEST_CLIENT_SECRET)
KINDS = {"compute": COMPUTE, "network": NETWORK, "resource": RESOURCE}

ARM_ERRORS = "https://learn.microsoft.com/en-us/azure/azure-resource-manager/troubleshooting/common-deployment-errors"
ALLOCATION = "https://learn.microsoft.com/en-us/troubleshoot/azure/virtual-machines/windows/allocation-failure"
SPOT = "https://learn.microsoft.com/en-us/azure/virtual-machines/error-codes-spot"
ENTRA = "https://learn.microsoft.com/en-us/entra/identity-platform/reference-error-codes"
SP_TROUBLESHOOT = ("https://learn.microsoft.com/en-us/azure/developer/java/sdk/"
                   "troubleshooting-authentication-service-principal")
# Error codes → the document that names them.
DOCUMENTED = {
    "AADSTS7000215": SP_TROUBLESHOOT + " (invalid client secret)",
    "AADSTS7000222": SP_TROUBLESHOOT + " (expired client secret)",
    "AADSTS700016": SP_TROUBLESHOOT + " (application not found in the tenant)",
    "AADSTS90002": ENTRA + " (tenant not found)",
    "AADSTS900023": ENTRA + " (the tenant identifier is malformed)",
    "InvalidAuthenticationToken": ARM_ERRORS,
    "InvalidAuthenticationTokenTenant": ARM_ERRORS,
    "ExpiredAuthenticationToken": ARM_ERRORS,
    "AuthenticationFailed": ARM_ERRORS,
    "AuthorizationFailed": ARM_ERRORS,
    "LinkedAuthorizationFailed": ARM_ERRORS,
    "SubscriptionNotFound": ARM_ERRORS,
    "InvalidSubscriptionId": ARM_ERRORS,
    "ReadOnlyDisabledSubscription": ARM_ERRORS,
    "DisabledSubscription": ARM_ERRORS,
    "MissingSubscriptionRegistration": ARM_ERRORS,
    "NoRegisteredProviderFound": ARM_ERRORS,
    "RequestDisallowedByPolicy": ARM_ERRORS,
    "AllocationFailed": ARM_ERRORS + "; " + ALLOCATION,
    "ZonalAllocationFailed": ALLOCATION,
    "OverconstrainedAllocationRequest": ALLOCATION,
    "OverconstrainedZonalAllocationRequest": ALLOCATION,
    "SkuNotAvailable": "https://learn.microsoft.com/en-us/azure/azure-resource-manager/troubleshooting/"
                       "error-sku-not-available; " + SPOT,
    "QuotaExceeded": ARM_ERRORS + "; https://learn.microsoft.com/en-us/azure/azure-resource-manager/troubleshooting/"
                                  "error-resource-quota",
    "OperationNotAllowed": ARM_ERRORS + " (cores quota); error-resource-quota",
    "SpotPriceGreaterThanProvidedMaxPrice": SPOT,
    "AzureSpotFeatureNotEnabledForSubscription": SPOT,
    "AzureSpotIsNotSupportedForThisVMSize": SPOT,
    "MaxPriceValueInvalid": SPOT,
    "ResourceNotFound": ARM_ERRORS,
    "ResourceGroupNotFound": ARM_ERRORS,
    "NotFound": ARM_ERRORS,
    "AnotherOperationInProgress": ARM_ERRORS,
    "Conflict": ARM_ERRORS,
    "OperationNotAllowedWhileDeallocating": ALLOCATION,
    "TooManyRequests": "https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/"
                       "request-limits-and-throttling",
    "InvalidResourceLocation": ARM_ERRORS,
    "LocationNotAvailableForResourceType": ARM_ERRORS,
    "InvalidParameter": ARM_ERRORS,
    "InvalidRequestContent": ARM_ERRORS,
    "InvalidApiVersionParameter": ARM_ERRORS,
    "BadRequest": ARM_ERRORS,
    "ImageNotFound": ARM_ERRORS,
    "PlatformImageNotFound": ARM_ERRORS,
    "InvalidTemplateDeployment": ARM_ERRORS,
}


def _account(peer: AzurePeer) -> Account:
    return Account("lab", "azure", "eastus", peer.endpoint,
                   extra={"tenant_id": TEST_TENANT, "subscription_id": TEST_SUBSCRIPTION})


def _operations_in_source() -> set[tuple[str, str, str]]:
    """(client kind, operation group, method) of every ``<session>.<kind>.<group>.<method>`` in the plugin."""
    found: set[tuple[str, str, str]] = set()
    for path in PLUGIN.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                    and isinstance(node.value.value, ast.Attribute) and node.value.value.attr in KINDS
                    and isinstance(node.value.value.value, ast.Name)):
                found.add((node.value.value.attr, node.value.attr, node.attr))
            # (action, s.<kind>.<group>, name) tuples: the groups whose begin_delete _delete_vm calls in a loop
            if isinstance(node, ast.Tuple):
                for elt in node.elts:
                    if (isinstance(elt, ast.Attribute) and isinstance(elt.value, ast.Attribute)
                            and elt.value.attr in KINDS and isinstance(elt.value.value, ast.Name)):
                        found.add((elt.value.attr, elt.attr, "begin_delete"))
    return found


def _client(kind: str) -> Any:
    class _NoCredential:
        def get_token(self, *scopes: str, **kw: Any) -> Any:  # never called: no request is made
            raise AssertionError("no request expected")

    return client_class(KINDS[kind])(_NoCredential(), TEST_SUBSCRIPTION)


def test_every_arm_operation_the_plugin_calls_exists_in_the_pinned_sdk() -> None:
    ops = _operations_in_source()
    assert ("compute", "virtual_machines", "begin_create_or_update") in ops
    assert ("compute", "virtual_machines", "begin_deallocate") in ops
    assert ("network", "network_interfaces", "begin_delete") in ops
    for kind, group, method in sorted(ops):
        client = _client(kind)
        assert hasattr(client, group), f"{kind}.{group}"
        assert callable(getattr(getattr(client, group), method, None)), f"{kind}.{group}.{method}"
    # power_off is never called: it keeps billing
    assert not any(method == "begin_power_off" for _k, _g, method in ops)


def _unknown_fields(obj: Any, where: str) -> list[str]:
    """Fields of a received body that the SDK's model does not declare, at any depth."""
    rest_to_attr = {rf._rest_name: attr for attr, rf in obj._attr_to_rest_field.items()}
    out: list[str] = []
    for key in list(obj.keys()):
        if key not in rest_to_attr:
            out.append(f"{where}.{key}")
            continue
        value = getattr(obj, rest_to_attr[key])
        for i, item in enumerate(value if isinstance(value, list) else [value]):
            if hasattr(item, "_attr_to_rest_field"):
                out.extend(_unknown_fields(item, f"{where}.{key}" + (f"[{i}]" if isinstance(value, list) else "")))
    return out


def test_the_checker_finds_an_unknown_field_at_any_depth() -> None:
    cm = models(COMPUTE)
    good = {"location": "eastus", "properties": {"hardwareProfile": {"vmSize": A100}}}
    assert _unknown_fields(cm.VirtualMachine(good), "vm") == []
    bad = {"location": "eastus", "properties": {"hardwareProfile": {"vmSize": A100, "vmSizes": "x"}}}
    assert _unknown_fields(cm.VirtualMachine(bad), "vm") == ["vm.properties.hardwareProfile.vmSizes"]


@pytest.fixture
def launched(azure_peer: AzurePeer) -> AzurePeer:
    """The peer after the plugin launched a Spot VM (fresh group and network), stopped, started and deleted it."""
    account = _account(azure_peer)
    provider = AzureProvider()
    provider.lro_interval = 0
    req = LaunchRequest(A100, "eastus", zone="2", spot=True, max_price=2.5, public_key="ssh-ed25519 AAAAC3Nz lab",
                        ssh_cidr="198.51.100.7/32", client_token="lg-contract", name="contract",
                        tags={"labgpu-launch": "lg-contract"})
    inst = provider.launch(account, CREDS, req)
    provider.stop(account, CREDS, inst.id)
    provider.start(account, CREDS, inst.id)
    provider.terminate(account, CREDS, inst.id)
    return azure_peer


def test_every_body_the_plugin_sends_is_the_sdks_model(launched: AzurePeer) -> None:
    cm, nm, rm = models(COMPUTE), models(NETWORK), models(RESOURCE)
    by_type = {"virtualmachines": cm.VirtualMachine, "networkinterfaces": nm.NetworkInterface,
               "publicipaddresses": nm.PublicIPAddress, "networksecuritygroups": nm.NetworkSecurityGroup,
               "virtualnetworks": nm.VirtualNetwork, "resourcegroups": rm.ResourceGroup}
    puts = [c for c in launched.calls if c.method == "PUT"]
    seen = set()
    for call in puts:
        rtype = next(t for t in by_type if f"/{t}/" in call.path.lower())
        seen.add(rtype)
        assert _unknown_fields(by_type[rtype](call.body), rtype) == [], call.path
    assert seen == set(by_type)
    # nothing but PUT, POST (start/deallocate), DELETE, GET, HEAD reaches ARM; never a power off
    assert {c.method for c in launched.calls} <= {"PUT", "POST", "DELETE", "GET", "HEAD"}
    assert [c.path.rsplit("/", 1)[-1] for c in launched.calls if c.method == "POST"] == ["deallocate", "start"]


def test_the_values_labgpu_sends_are_members_of_the_sdks_enums(launched: AzurePeer) -> None:
    cm, nm = models(COMPUTE), models(NETWORK)
    [vm] = [c.body for c in launched.calls if c.method == "PUT" and "/virtualMachines/" in c.path]
    props = vm["properties"]
    assert cm.VirtualMachinePriorityTypes(props["priority"]) is cm.VirtualMachinePriorityTypes.SPOT
    evict = cm.VirtualMachineEvictionPolicyTypes
    assert evict(props["evictionPolicy"]) is evict.DEALLOCATE
    assert props["billingProfile"]["maxPrice"] == 2.5
    disk = props["storageProfile"]["osDisk"]
    assert cm.DiskCreateOptionTypes(disk["createOption"]) is cm.DiskCreateOptionTypes.FROM_IMAGE
    assert cm.DiskDeleteOptionTypes(disk["deleteOption"]) is cm.DiskDeleteOptionTypes.DELETE
    assert cm.StorageAccountTypes(disk["managedDisk"]["storageAccountType"]) is cm.StorageAccountTypes.PREMIUM_LRS
    assert cm.DeleteOptions(props["networkProfile"]["networkInterfaces"][0]["properties"]["deleteOption"])
    assert cm.ExpandTypeForListVMs("instanceView") and cm.InstanceViewTypes("instanceView")
    [nsg] = [c.body for c in launched.calls if c.method == "PUT" and "/networkSecurityGroups/" in c.path]
    rule = nsg["properties"]["securityRules"][0]["properties"]
    assert nm.SecurityRuleProtocol(rule["protocol"]) is nm.SecurityRuleProtocol.TCP
    assert nm.SecurityRuleAccess(rule["access"]) is nm.SecurityRuleAccess.ALLOW
    assert nm.SecurityRuleDirection(rule["direction"]) is nm.SecurityRuleDirection.INBOUND
    [pip] = [c.body for c in launched.calls if c.method == "PUT" and "/publicIPAddresses/" in c.path]
    assert nm.PublicIPAddressSkuName(pip["sku"]["name"]) is nm.PublicIPAddressSkuName.STANDARD
    assert nm.IPAllocationMethod(pip["properties"]["publicIPAllocationMethod"]) is nm.IPAllocationMethod.STATIC


def test_the_mapped_codes_are_the_documented_ones_each_with_its_own_sentence() -> None:
    assert set(az_errors.DOCUMENTED_ERROR_CODES) == set(DOCUMENTED)
    for code in DOCUMENTED:
        message = "exceeding approved Cores quota" if code == "OperationNotAllowed" else "message"
        error = az_errors.map_error(code, message, "rid-1", action="VirtualMachines.CreateOrUpdate", zone="1",
                                    instance_type=A100)
        assert error.code == code
        assert error.template != GENERIC_MESSAGE, code
        assert error.hint(), code
    # OperationNotAllowed is the quota refusal only when its message names a quota
    other = az_errors.map_error("OperationNotAllowed", "The operation is not allowed in the Failed state.", "rid")
    assert type(other).__name__ == "InvalidRequestError"
    generic = az_errors.map_error("SomethingNew", "unknown", "rid-2")
    assert generic.template == GENERIC_MESSAGE and "SomethingNew" in str(generic)
    # a stock-out or an unsold zone moves the launch to the next zone (CloudService catches CapacityError)
    for code in ("AllocationFailed", "ZonalAllocationFailed", "OverconstrainedAllocationRequest",
                 "OverconstrainedZonalAllocationRequest", "SkuNotAvailable"):
        assert isinstance(az_errors.map_error(code, "no capacity", "rid"), CapacityError), code


def test_the_spec_extends_the_catalog_spec() -> None:
    from app.core.catalog_providers import CATALOG_SPECS

    catalog = next(s for s in CATALOG_SPECS if s.id == "azure")
    spec = az_spec.SPEC
    assert (spec.name, spec.name_zh, spec.currency, spec.billing, spec.region_countries) == (
        catalog.name, catalog.name_zh, catalog.currency, catalog.billing, catalog.region_countries)
    assert spec.capabilities.launch and spec.capabilities.spot and spec.capabilities.zones
    assert not spec.capabilities.stop_without_charging  # disks and the static IP bill while deallocated
    assert [f.key for f in spec.account_fields] == ["tenant_id", "subscription_id", "resource_group",
                                                    "prices_endpoint"]
    from app.cloud import registry

    registry.load_builtin()
    assert providers.spec("azure") is spec


def test_frozen_packages_are_the_sdk_packages_the_plugin_imports() -> None:
    imported: set[str] = set()
    for path in PLUGIN.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("azure."):
                imported.add(".".join(node.value.split(".")[:3]) if node.value.startswith("azure.mgmt.")
                             else ".".join(node.value.split(".")[:2]))
    assert imported <= set(az_spec.FROZEN_PACKAGES), imported - set(az_spec.FROZEN_PACKAGES)
    for package in az_spec.FROZEN_PACKAGES:
        __import__(package)


def test_start_up_reads_the_spec_only() -> None:
    code = ("import sys; from app.cloud import registry; registry.load_builtin(); "
            "from app.core import providers; assert providers.find_spec('azure').capabilities.launch; "
            "print(sorted(m for m in sys.modules if m.startswith(('azure.', 'msal'))))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                       check=False)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
