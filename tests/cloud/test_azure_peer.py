"""The Azure peer holds the rules it cites: what the real SDKs send is accepted, everything else refused the way
Entra ID and ARM refuse it (tokens, api-version, subscription, paging, long-running operations)."""

from __future__ import annotations

import pytest
import requests

from tests.fixtures import azure_arm_server
from tests.fixtures.azure_arm_server import (
    SCOPE,
    TEST_CLIENT_ID,
    TEST_CLIENT_SECRET,
    TEST_SUBSCRIPTION,
    TEST_TENANT,
    AzurePeer,
)

# the peer's fixtures (tests/fixtures/azure_arm_server.py), used by name below
azure_peer_session = azure_arm_server.azure_peer_session
azure_peer = azure_arm_server.azure_peer


def _token(peer: AzurePeer, **form: str) -> requests.Response:
    data = {"grant_type": "client_credentials", "client_id": TEST_CLIENT_ID, "client_secret": TEST_CLIENT_SECRET,
            "scope": SCOPE, **form}
    assert peer.ca is not None
    return requests.post(f"{peer.endpoint}/{TEST_TENANT}/oauth2/v2.0/token", data=data, verify=str(peer.ca.ca_path),
                         timeout=10)


def _arm(peer: AzurePeer, path: str, token: str | None, **params: str) -> requests.Response:
    assert peer.ca is not None
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.get(f"{peer.endpoint}/subscriptions/{TEST_SUBSCRIPTION}{path}", params=params, headers=headers,
                        verify=str(peer.ca.ca_path), timeout=10)


def test_the_azure_identity_sdk_gets_a_token_and_a_wrong_secret_does_not(azure_peer: AzurePeer) -> None:
    from azure.core.exceptions import ClientAuthenticationError
    from azure.identity import ClientSecretCredential

    good = ClientSecretCredential(TEST_TENANT, TEST_CLIENT_ID, TEST_CLIENT_SECRET, authority=azure_peer.endpoint,
                                  disable_instance_discovery=True)
    token = good.get_token(SCOPE)
    assert token.token in azure_peer.tokens
    bad = ClientSecretCredential(TEST_TENANT, TEST_CLIENT_ID, "wrong", authority=azure_peer.endpoint,
                                 disable_instance_discovery=True)
    with pytest.raises(ClientAuthenticationError, match="AADSTS7000215"):
        bad.get_token(SCOPE)
    good.close()
    bad.close()


def test_the_token_endpoint_refuses_a_wrong_client_tenant_or_scope(azure_peer: AzurePeer) -> None:
    assert _token(azure_peer).status_code == 200
    r = _token(azure_peer, client_id="00000000-0000-0000-0000-000000000000")
    assert (r.status_code, r.json()["error"]) == (400, "unauthorized_client") and "AADSTS700016" in r.text
    assert "AADSTS70011" in _token(azure_peer, scope="https://graph.microsoft.com/.default").text
    assert _token(azure_peer, grant_type="password").status_code == 400
    assert azure_peer.ca is not None
    r = requests.get(f"{azure_peer.endpoint}/not-a-tenant/v2.0/.well-known/openid-configuration",
                     verify=str(azure_peer.ca.ca_path), timeout=10)
    assert r.status_code == 400 and "AADSTS90002" in r.text


def test_arm_refuses_a_missing_or_unknown_token_a_wrong_version_or_subscription(azure_peer: AzurePeer) -> None:
    token = _token(azure_peer).json()["access_token"]
    assert _arm(azure_peer, "/resourcegroups", token, **{"api-version": "2025-04-01"}).status_code == 200
    r = _arm(azure_peer, "/resourcegroups", None, **{"api-version": "2025-04-01"})
    assert (r.status_code, r.json()["error"]["code"]) == (401, "AuthenticationFailed")
    r = _arm(azure_peer, "/resourcegroups", "forged", **{"api-version": "2025-04-01"})
    assert (r.status_code, r.json()["error"]["code"]) == (401, "InvalidAuthenticationToken")
    assert "WWW-Authenticate" in r.headers
    r = _arm(azure_peer, "/resourcegroups", token)
    assert r.json()["error"]["code"] == "MissingApiVersionParameter"
    r = _arm(azure_peer, "/resourcegroups", token, **{"api-version": "2014-04-01"})
    assert r.json()["error"]["code"] == "InvalidApiVersionParameter"
    assert azure_peer.ca is not None
    r = requests.get(f"{azure_peer.endpoint}/subscriptions/00000000-1111-2222-3333-444444444444/resourcegroups",
                     params={"api-version": "2025-04-01"}, headers={"Authorization": f"Bearer {token}"},
                     verify=str(azure_peer.ca.ca_path), timeout=10)
    assert (r.status_code, r.json()["error"]["code"]) == (404, "SubscriptionNotFound")


def test_lists_page_with_next_link(azure_peer: AzurePeer) -> None:
    token = _token(azure_peer).json()["access_token"]
    r = _arm(azure_peer, "/providers/Microsoft.Compute/skus", token, **{"api-version": "2021-07-01",
                                                                          "$filter": "location eq 'eastus'"})
    first = r.json()
    assert len(first["value"]) == azure_peer.page_size and first["nextLink"].startswith(azure_peer.endpoint)
    names = [s["name"] for s in first["value"]]
    link = first["nextLink"]
    while link:
        assert azure_peer.ca is not None
        page = requests.get(link, headers={"Authorization": f"Bearer {token}"}, verify=str(azure_peer.ca.ca_path),
                            timeout=10).json()
        names += [s["name"] for s in page["value"]]
        link = page.get("nextLink")
    assert len(names) == len(set(names)) == 4


def test_an_operation_is_in_progress_then_done_and_a_stock_out_fails_it(azure_peer: AzurePeer) -> None:
    calls = []
    headers = azure_peer._start_operation(lambda: calls.append("done"))
    op_path = headers["Azure-AsyncOperation"].split(azure_peer.endpoint)[1].split("?")[0]
    assert azure_peer._operation(op_path)[1]["status"] == "InProgress"
    assert azure_peer._operation(op_path)[1]["status"] == "Succeeded" and calls == ["done"]
    failed = azure_peer._start_operation(lambda: calls.append("no"), error={"code": "ZonalAllocationFailed",
                                                                           "message": "no capacity"})
    path = failed["Azure-AsyncOperation"].split(azure_peer.endpoint)[1].split("?")[0]
    azure_peer._operation(path)
    status = azure_peer._operation(path)[1]
    assert (status["status"], status["error"]["code"]) == ("Failed", "ZonalAllocationFailed") and calls == ["done"]
