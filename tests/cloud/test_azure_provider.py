"""The Azure provider against the local Entra ID + ARM peer, in process: what a user would notice of each call —
the sign-in errors and their next steps, zones, the stock-out of a chosen zone (and nothing left behind), the
power states (a VM powered off from inside still bills), paging, the long-running operations and the importer."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from app.cloud.azure.importer import import_candidates
from app.cloud.azure.provider import AzureProvider
from app.cloud.base import (
    Account,
    AuthError,
    CapacityError,
    CloudError,
    Credentials,
    LaunchRequest,
    NotFoundError,
    collect_calls,
)
from app.core.i18n import translate
from app.core.vocab import InstanceState
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

A100 = "Standard_NC24ads_A100_v4"
V100 = "Standard_NC6s_v3"
CREDS = Credentials(TEST_CLIENT_ID, TEST_CLIENT_SECRET)


def _account(peer: AzurePeer, **extra: str) -> Account:
    return Account("lab", "azure", "eastus", peer.endpoint,
                   extra={"tenant_id": TEST_TENANT, "subscription_id": TEST_SUBSCRIPTION, **extra})


@pytest.fixture
def provider(monkeypatch: pytest.MonkeyPatch) -> AzureProvider:
    """The provider with the SDK's long-running-operation interval at 0: polls never wait (the peer keeps each
    operation InProgress for one poll); every sleep the SDK asks for is recorded."""
    p = AzureProvider()
    p.lro_interval = 0
    return p


def _req(token: str, zone: str = "", spot: bool = False, size: str = A100, **kw: Any) -> LaunchRequest:
    return LaunchRequest(size, "eastus", zone=zone, spot=spot, public_key="ssh-rsa AAAAB3NzaC1yc2E lab",
                         ssh_cidr="198.51.100.7/32", client_token=token, tags={"labgpu-launch": token}, **kw)


def test_validate_names_the_subscription(azure_peer: AzurePeer, provider: AzureProvider) -> None:
    who = provider.validate(_account(azure_peer), CREDS)
    assert TEST_SUBSCRIPTION in who and "3c9f0e…" in who and TEST_CLIENT_ID not in who


def test_a_token_is_reused_until_it_nearly_expires_and_a_new_secret_signs_in_again(
        azure_peer: AzurePeer, provider: AzureProvider) -> None:
    from app.cloud.azure import client as az_client

    az_client._TOKENS.clear()
    account = _account(azure_peer)
    provider.validate(account, CREDS)
    provider.list_instances(account, CREDS)
    provider.zones(account, CREDS, A100)
    assert len(azure_peer.token_requests) == 1  # one sign-in for three operations
    with pytest.raises(AuthError):
        provider.validate(account, Credentials(TEST_CLIENT_ID, "rotated-away"))  # another secret: asked again
    assert len(azure_peer.token_requests) == 2
    for key, token in list(az_client._TOKENS.items()):  # the token is about to expire: signed in again
        az_client._TOKENS[key] = type(token)(token.token, int(token.expires_on - 3500))
    provider.validate(account, CREDS)
    assert len(azure_peer.token_requests) == 3


@pytest.mark.parametrize(("change", "code", "hint_words"), [
    ({"creds": Credentials(TEST_CLIENT_ID, "wrong")}, "AADSTS7000215", "Certificates & secrets"),
    ({"creds": Credentials("00000000-0000-0000-0000-000000000000", TEST_CLIENT_SECRET)}, "AADSTS700016",
     "Application (client) ID"),
    ({"tenant_id": "11111111-2222-3333-4444-555555555555"}, "AADSTS90002", "Directory (tenant) ID"),
])
def test_sign_in_refusals_say_what_to_fix(azure_peer: AzurePeer, provider: AzureProvider, change: dict[str, Any],
                                          code: str, hint_words: str) -> None:
    creds = change.pop("creds", CREDS)
    with pytest.raises(AuthError) as info:
        provider.validate(_account(azure_peer, **change), creds)
    assert info.value.code == code
    assert hint_words in info.value.hint()
    assert TEST_CLIENT_SECRET not in str(info.value) and "wrong" not in str(info.value)


def test_a_wrong_subscription_is_arms_subscription_not_found(azure_peer: AzurePeer, provider: AzureProvider) -> None:
    with pytest.raises(NotFoundError) as info:
        provider.validate(_account(azure_peer, subscription_id="00000000-1111-2222-3333-444444444444"), CREDS)
    assert info.value.code == "SubscriptionNotFound" and "Subscription ID" in info.value.hint()


def test_an_http_endpoint_or_a_missing_setting_is_refused_before_any_call(azure_peer: AzurePeer,
                                                                         provider: AzureProvider) -> None:
    plain = dataclasses.replace(_account(azure_peer), endpoint=azure_peer.endpoint.replace("https", "http"))
    with pytest.raises(CloudError) as info:
        provider.validate(plain, CREDS)
    assert info.value.code == "BadEndpoint" and "https" in info.value.hint()
    with pytest.raises(CloudError) as info:
        provider.validate(Account("lab", "azure", "eastus", azure_peer.endpoint,
                                  extra={"tenant_id": TEST_TENANT}), CREDS)
    assert info.value.code == "MissingAccountSetting"
    assert azure_peer.calls == [] and azure_peer.token_requests == []


def test_a_malformed_tenant_is_refused_before_any_request(azure_peer: AzurePeer, provider: AzureProvider) -> None:
    with pytest.raises(AuthError) as info:
        provider.validate(_account(azure_peer, tenant_id="not a tenant!"), CREDS)
    assert info.value.code == "AADSTS900023" and "Directory (tenant) ID" in info.value.hint()
    assert azure_peer.token_requests == []


def test_zones_are_the_skus_zones_this_subscription_may_use(azure_peer: AzurePeer, provider: AzureProvider) -> None:
    account = _account(azure_peer)
    assert provider.zones(account, CREDS, A100) == ["1", "2", "3"]
    assert provider.zones(account, CREDS, V100) == ["1", "2"]  # zone 3: NotAvailableForSubscription
    assert provider.zones(account, CREDS, "Standard_NC40ads_H100_v5") == []  # the whole location restricted
    assert provider.zones(account, CREDS, "Standard_Nope") == []


def test_a_stock_out_in_the_chosen_zone_leaves_nothing_behind(azure_peer: AzurePeer, provider: AzureProvider) -> None:
    azure_peer.stock_out(A100, "1")
    with pytest.raises(CapacityError) as info:
        provider.launch(_account(azure_peer), CREDS, _req("lg-one", zone="1", spot=True, max_price=2.0))
    assert info.value.code == "ZonalAllocationFailed"
    assert "zone 1" in info.value.text() and translate(info.value.hint_template)
    # the failed VM, its NIC, public IP and OS disk were deleted; the shared group, VNet and NSG stay for reuse
    for kind in ("Microsoft.Compute/virtualMachines", "Microsoft.Network/networkInterfaces",
                 "Microsoft.Network/publicIPAddresses", "Microsoft.Compute/disks"):
        assert azure_peer.of_type(kind) == [], kind
    assert len(azure_peer.of_type("Microsoft.Network/virtualNetworks")) == 1


def test_an_unsold_zone_is_sku_not_available(azure_peer: AzurePeer, provider: AzureProvider) -> None:
    with pytest.raises(CapacityError) as info:
        provider.launch(_account(azure_peer), CREDS, _req("lg-two", zone="3", size=V100))
    assert info.value.code == "SkuNotAvailable" and "az vm list-skus" in info.value.hint()
    assert azure_peer.of_type("Microsoft.Network/networkInterfaces") == []


def test_power_states_and_what_bills(azure_peer: AzurePeer, provider: AzureProvider) -> None:
    account = _account(azure_peer)
    inst = provider.launch(account, CREDS, _req("lg-three", zone="2"))
    assert (inst.state, inst.zone, inst.spot) == (InstanceState.RUNNING, "2", False)
    assert inst.public_ip and inst.private_ip.startswith("10.77.0.")
    assert inst.tags["labgpu:ssh-user"] == "azureuser"
    # powered off from inside (or 'Power off'): still allocated, still billing — never shown as stopped
    vm = azure_peer.vm(inst.id)
    assert vm is not None
    vm["_power"] = "stopped"
    [listed] = provider.list_instances(account, CREDS)
    assert listed.state == InstanceState.STOPPED_BILLING
    note = provider.stop(account, CREDS, inst.id)
    assert "deallocates" in translate(note) and "still bill" in translate(note)
    stopped = provider.get_instance(account, CREDS, inst.id)
    assert stopped is not None and stopped.state == InstanceState.STOPPED
    provider.start(account, CREDS, inst.id)
    started = provider.get_instance(account, CREDS, inst.id)
    assert started is not None and started.state == InstanceState.RUNNING
    provider.terminate(account, CREDS, inst.id)
    assert provider.get_instance(account, CREDS, inst.id) is None
    provider.terminate(account, CREDS, inst.id)  # already gone: nothing to do, no error


def test_lists_follow_next_link_and_find_a_launch_by_its_token(azure_peer: AzurePeer, provider: AzureProvider) -> None:
    account = _account(azure_peer)
    ids = {provider.launch(account, CREDS, _req(f"lg-{n}", zone="1")).id for n in range(3)}
    listed = provider.list_instances(account, CREDS)
    assert {i.id for i in listed} == ids  # three VMs, two per page
    assert any(c.path.endswith("/virtualMachines") and "$skiptoken" in c.query for c in azure_peer.calls)
    found = provider.find_by_client_token(account, CREDS, "lg-1")
    assert found is not None and found.tags["labgpu-launch"] == "lg-1"
    assert provider.find_by_client_token(account, CREDS, "lg-none") is None
    # the same attempt token again: the same VM, nothing new
    again = provider.launch(account, CREDS, _req("lg-1", zone="1"))
    assert again.id == found.id and len(azure_peer.of_type("Microsoft.Compute/virtualMachines")) == 3


def test_a_throttled_call_is_retried_unseen_and_each_change_is_audited_with_arms_request_id(
        azure_peer: AzurePeer, provider: AzureProvider) -> None:
    account = _account(azure_peer)
    azure_peer.fail_next("GET resourcegroups", "TooManyRequests", 429, times=1)
    assert TEST_SUBSCRIPTION in provider.validate(account, CREDS)  # azure-core retried after Retry-After
    assert [c.path.rsplit("/", 1)[-1] for c in azure_peer.calls] == ["resourcegroups", "resourcegroups"]
    inst = provider.launch(account, CREDS, _req("lg-audit", zone="1"))
    with collect_calls() as calls:
        provider.stop(account, CREDS, inst.id)
    [(action, resource, request_id)] = calls
    assert (action, resource) == ("VirtualMachines.Deallocate", inst.id)
    assert len(request_id) == 36 and request_id.count("-") == 4  # the x-ms-request-id ARM answered with


def test_a_price_list_that_does_not_answer_is_said_with_its_next_step(azure_peer: AzurePeer, provider: AzureProvider,
                                                                      azure_prices_server: Any) -> None:
    account = _account(azure_peer, prices_endpoint=azure_prices_server.endpoint)
    # the price list has no meter for ND96isr H100 v5: no live row for it (its bundled price stays)
    [offer] = provider.refresh_prices(account, CREDS, [A100, "Standard_ND96isr_H100_v5"])
    assert (offer.price_on_demand, offer.live, offer.zone, offer.sold_out) == (3.69, True, "", False)
    assert offer.vcpu == 24 and offer.ram_gb == 220.0 and "zones 1, 2, 3" in offer.notes
    azure_prices_server.fail(503)
    with pytest.raises(CloudError) as info:
        provider.refresh_prices(account, CREDS, [A100])
    assert info.value.code == "AzurePricesUnavailable" and "HTTP 503" in info.value.text()
    assert "--azure-endpoint" in info.value.hint()


def test_operations_still_running_are_polled_without_waiting(azure_peer: AzurePeer, provider: AzureProvider,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import time as time_module

    waits: list[float] = []
    real_sleep = time_module.sleep
    def sleep(seconds: float) -> None:
        waits.append(seconds)
        real_sleep(0)

    monkeypatch.setattr(time_module, "sleep", sleep)
    azure_peer.lro_polls = 3
    inst = provider.launch(_account(azure_peer), CREDS, _req("lg-slow", zone="1"))
    assert inst.state == InstanceState.RUNNING
    assert waits and set(waits) == {0}  # the SDK polled again and again, each time at the interval LabGPU set


def test_an_operation_that_never_ends_is_a_timeout_naming_the_vm(azure_peer: AzurePeer,
                                                                provider: AzureProvider) -> None:
    account = _account(azure_peer)
    inst = provider.launch(account, CREDS, _req("lg-stuck", zone="1"))
    azure_peer.lro_polls = 10**9
    provider.operation_timeout = 0.2
    with pytest.raises(CloudError) as info:
        provider.stop(account, CREDS, inst.id)
    assert info.value.code == "OperationTimeout" and inst.id in info.value.text()


def test_the_importer_reads_the_service_principal_variables() -> None:
    env = {"AZURE_TENANT_ID": TEST_TENANT, "AZURE_CLIENT_ID": TEST_CLIENT_ID,
           "AZURE_CLIENT_SECRET": TEST_CLIENT_SECRET, "AZURE_SUBSCRIPTION_ID": TEST_SUBSCRIPTION}
    [cand] = import_candidates(env, region="westeurope")
    assert (cand.account.provider, cand.account.region, cand.account.name) == ("azure", "westeurope", "azure-0b1f6471")
    assert cand.account.extra == {"tenant_id": TEST_TENANT, "subscription_id": TEST_SUBSCRIPTION}
    assert (cand.credentials.key_id, cand.credentials.secret) == (TEST_CLIENT_ID, TEST_CLIENT_SECRET)
    assert TEST_CLIENT_SECRET not in repr(cand.account)
    assert import_candidates({k: v for k, v in env.items() if k != "AZURE_SUBSCRIPTION_ID"}) == []
    assert import_candidates({**env, "AZURE_SUBSCRIPTION_ID": "not-a-guid"}) == []
    assert import_candidates({"AZURE_CLIENT_CERTIFICATE_PATH": "/x.pem", "AZURE_TENANT_ID": TEST_TENANT}) == []
