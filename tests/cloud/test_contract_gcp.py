"""Contract of the Google Cloud plugin with the pinned google-cloud-compute: every client method it calls
exists and takes the request type it builds, every request it sends is that SDK's proto-plus type (recorded
from a real launch → list → stop → start → terminate against the peer), the Instance body's enum-like
fields are values the SDK's enums name, and each mapped error code is one Google documents (errors.py cites
where) with its own sentence and next step, translated."""

from __future__ import annotations

import inspect
import typing
from pathlib import Path
from typing import Any

import pytest

from app.cloud.base import CapacityError, LaunchRequest, QuotaError
from app.cloud.gcp import errors as gcp_errors
from app.cloud.gcp.client import sdk
from app.cloud.gcp.provider import GcpProvider
from app.core.accounts import Account, Credentials
from tests.fixtures.gcp_compute_server import API_KEY
from tests.fixtures.gcp_fixtures import peer_fixtures

gcp_server_module, gcp_server = peer_fixtures()

ROOT = Path(__file__).resolve().parents[2]
# (client, method, request type): every Compute call the plugin makes.
CALLS = {
    ("ZonesClient", "list", "ListZonesRequest"),
    ("InstancesClient", "aggregated_list", "AggregatedListInstancesRequest"),
    ("InstancesClient", "insert_unary", "InsertInstanceRequest"),
    ("InstancesClient", "start_unary", "StartInstanceRequest"),
    ("InstancesClient", "stop_unary", "StopInstanceRequest"),
    ("InstancesClient", "delete_unary", "DeleteInstanceRequest"),
    ("ZoneOperationsClient", "wait", "WaitZoneOperationRequest"),
    ("GlobalOperationsClient", "wait", "WaitGlobalOperationRequest"),
    ("FirewallsClient", "get", "GetFirewallRequest"),
    ("FirewallsClient", "insert_unary", "InsertFirewallRequest"),
    ("ImagesClient", "get_from_family", "GetFromFamilyImageRequest"),
    ("AcceleratorTypesClient", "aggregated_list", "AggregatedListAcceleratorTypesRequest"),
    ("MachineTypesClient", "aggregated_list", "AggregatedListMachineTypesRequest"),
}
# The codes errors.py maps, each from the Google document its docstring names.
DOCUMENTED = {
    # troubleshooting-resource-availability
    "ZONE_RESOURCE_POOL_EXHAUSTED", "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS",
    # docs/quotas/troubleshoot (operation error) and the standard JSON reasons
    "QUOTA_EXCEEDED", "quotaExceeded", "rateLimitExceeded", "notFound", "forbidden", "authError", "invalid",
    "alreadyExists",
    # compute/docs/reference/rest/v1/errors
    "PROJECT_NOT_FOUND", "NETWORK_NOT_FOUND", "PERMISSIONS_ERROR", "INVALID_FIELD_VALUE",
    # identity/protocols/oauth2/service-account#error-codes
    "invalid_grant",
}


@pytest.mark.parametrize(("client", "method", "request_type"), sorted(CALLS))
def test_each_method_exists_and_takes_the_request_type(client, method, request_type):
    compute = sdk()
    fn = getattr(getattr(compute, client), method)
    hint = typing.get_type_hints(fn)["request"]
    assert getattr(compute, request_type) in typing.get_args(hint), (client, method, hint)
    assert "retry" in inspect.signature(fn).parameters  # the plugin passes retry=None


def test_every_request_sent_is_the_sdks_type(gcp_server, monkeypatch):
    compute = sdk()
    sent: list[tuple[str, str, Any]] = []
    real = GcpProvider.client

    def recording(self, account, creds, name):
        inner = real(self, account, creds, name)

        class Proxy:
            def __getattr__(self, attr):
                fn = getattr(inner, attr)

                def call(*args, **kwargs):
                    assert not args, "requests are passed as request=…"
                    sent.append((name, attr, kwargs["request"]))
                    return fn(**kwargs)

                return call

        return Proxy()

    monkeypatch.setattr(GcpProvider, "client", recording)
    p = GcpProvider(sleep=lambda _s: None)
    acc = Account("lab", "gcp", "us-central1", gcp_server.url)
    creds = Credentials(gcp_server.key.client_email, gcp_server.key.json_text(), API_KEY)
    p.validate(acc, creds)
    assert p.zones(acc, creds, "n1-standard-8 + 1x T4") and p.zones(acc, creds, "g2-standard-4")
    inst = p.launch(acc, creds, LaunchRequest(
        instance_type="n1-standard-8 + 1x T4", region="us-central1", zone="us-central1-a", spot=True,
        public_key="ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDi1Jw1d8kq7l4o0mGm2mKk9bYqkq0yqUq6o2Zz0s8pD x",
        ssh_cidr="198.51.100.7/32", client_token="lg-0123456789abcdef", name="labgpu-01234567"))
    p.list_instances(acc, creds)
    p.stop(acc, creds, inst.id)
    p.start(acc, creds, inst.id)
    p.terminate(acc, creds, inst.id)
    used = {(client, method, type(request).__name__) for client, method, request in sent}
    assert used == CALLS
    for _client, _method, request in sent:
        assert isinstance(request, getattr(compute, type(request).__name__))
        type(request).to_json(request)  # a valid message of its type


def test_the_instance_body_uses_the_sdks_enum_values():
    compute = sdk()
    body = GcpProvider().instance_resource(
        LaunchRequest(instance_type="n1-standard-8 + 2x V100", region="us-central1", spot=True,
                      public_key="ssh-ed25519 AAAA x", client_token="lg-1"),
        zone="us-central1-a", image="projects/p/global/images/i", firewall_tag="labgpu-ssh-x", gpu_image=True)
    assert isinstance(body, compute.Instance)
    s = body.scheduling
    assert s.provisioning_model in compute.Scheduling.ProvisioningModel.__members__
    assert s.instance_termination_action in compute.Scheduling.InstanceTerminationAction.__members__
    assert s.on_host_maintenance in compute.Scheduling.OnHostMaintenance.__members__
    assert body.network_interfaces[0].access_configs[0].type_ in compute.AccessConfig.Type.__members__
    assert (body.guest_accelerators[0].accelerator_count, body.guest_accelerators[0].accelerator_type) == (
        2, "zones/us-central1-a/acceleratorTypes/nvidia-tesla-v100")
    a2 = GcpProvider().instance_resource(
        LaunchRequest(instance_type="a2-highgpu-1g", region="us-central1", public_key="ssh-ed25519 AAAA x"),
        zone="us-central1-a", image="i", firewall_tag="t", gpu_image=False)
    assert not a2.guest_accelerators and a2.scheduling.on_host_maintenance == "TERMINATE"


def test_mapped_codes_are_the_documented_ones_each_with_a_translated_sentence():
    assert set(gcp_errors.DOCUMENTED_ERROR_CODES) == DOCUMENTED
    import xml.etree.ElementTree as ET

    # the catalog read as Qt reads it (XML: however lupdate escapes an apostrophe), translated entries only
    tree = ET.parse(ROOT / "resources" / "translations" / "gcp_zh_CN.ts")
    translated = {m.findtext("source") for m in tree.iter("message")
                  if (m.findtext("translation") or "").strip() and m.find("translation").get("type") is None}
    for code, spec in gcp_errors.TABLE.items():
        assert spec.message and spec.hint, code
        for text in (spec.message, spec.hint):
            assert text in translated, code
    stock_out = ("ZONE_RESOURCE_POOL_EXHAUSTED", "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS")
    assert all(isinstance(gcp_errors.map_error(c, "m"), CapacityError) for c in stock_out)
    # a quota refusal never moves the launch to another zone (CloudService fails over on CapacityError only)
    for code in ("QUOTA_EXCEEDED", "quotaExceeded"):
        err = gcp_errors.map_error(code, "m", region="us-central1")
        assert isinstance(err, QuotaError) and not isinstance(err, CapacityError)
