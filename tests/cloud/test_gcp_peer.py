"""The Google Cloud peer's own rules, through the plugin and by hand: the token endpoint refuses a forged or
over-long assertion (invalid_grant), Compute refuses a call without an issued bearer token (authError), lists
are paged, throttling is retried without being shown, and the Billing Catalog refuses a wrong API key."""

from __future__ import annotations

import base64
import json
import time
import urllib.error
import urllib.request

import pytest

from app.cloud.base import AuthError, CloudError, LaunchRequest, QuotaError
from app.cloud.gcp.provider import GcpProvider
from app.core.accounts import Account, AccountError, Credentials
from tests.fixtures.gcp_compute_server import API_KEY, PROJECT, SCOPE
from tests.fixtures.gcp_fixtures import peer_fixtures
from tests.fixtures.gcp_oauth import AUDIENCE, GRANT_TYPE, ServiceAccountKey, TokenRefused, check_assertion

gcp_server_module, gcp_server = peer_fixtures()

PUB = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDi1Jw1d8kq7l4o0mGm2mKk9bYqkq0yqUq6o2Zz0s8pD x"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _assertion(key: ServiceAccountKey, **claims) -> str:
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding

    now = int(time.time())
    body = {"iss": key.client_email, "scope": SCOPE, "aud": AUDIENCE, "iat": now, "exp": now + 3600, **claims}
    head = _b64(json.dumps({"alg": "RS256", "typ": "JWT", "kid": key.private_key_id}).encode())
    payload = _b64(json.dumps(body).encode())
    sig = key.private_key.sign(f"{head}.{payload}".encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{head}.{payload}.{_b64(sig)}"


def _account(server, **extra) -> tuple[Account, Credentials]:
    return (Account("lab", "gcp", "us-central1", server.url, extra=dict(extra)),
            Credentials(server.key.client_email, server.key.json_text(), API_KEY))


def _provider(sleeps: list[float] | None = None) -> GcpProvider:
    return GcpProvider(sleep=(sleeps.append if sleeps is not None else (lambda _s: None)))


def test_the_token_endpoint_checks_signature_audience_scope_and_lifetime(gcp_server):
    key = gcp_server.key
    keys = {key.client_email: key}
    form = {"grant_type": GRANT_TYPE, "assertion": _assertion(key)}
    assert check_assertion(form, keys, SCOPE)[0] is key
    forged = ServiceAccountKey.create(PROJECT, gcp_server.token_uri)  # same e-mail, another RSA key
    now = int(time.time())
    for bad, why in ((_assertion(forged), "Invalid JWT Signature."),
                     (_assertion(key, aud=gcp_server.token_uri), "audience"),
                     (_assertion(key, scope="https://www.googleapis.com/auth/devstorage.read_only"), "scope"),
                     (_assertion(key, iat=now, exp=now + 7200), "short-lived"),
                     (_assertion(key, iat=now - 7200, exp=now - 3600), "short-lived")):
        with pytest.raises(TokenRefused) as err:
            check_assertion({"grant_type": GRANT_TYPE, "assertion": bad}, keys, SCOPE)
        assert why in err.value.description
    # over HTTP: the documented 400 invalid_grant
    req = urllib.request.Request(gcp_server.token_uri, method="POST", data=urllib.parse.urlencode(
        {"grant_type": GRANT_TYPE, "assertion": _assertion(forged)}).encode())
    with pytest.raises(urllib.error.HTTPError) as http:
        urllib.request.urlopen(req, timeout=10)
    assert http.value.code == 400 and json.loads(http.value.read())["error"] == "invalid_grant"


def test_compute_refuses_a_call_without_an_issued_bearer_token(gcp_server):
    url = f"{gcp_server.url}/compute/v1/projects/{PROJECT}/zones"
    for headers in ({}, {"Authorization": "Bearer ya29.not-issued"}):
        with pytest.raises(urllib.error.HTTPError) as http:
            urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10)
        body = json.loads(http.value.read())
        assert http.value.code == 401 and body["error"]["errors"][0]["reason"] == "authError"


def test_lists_are_read_page_after_page(gcp_server):
    acc, creds = _account(gcp_server)
    p = _provider()
    made = [p.launch(acc, creds, LaunchRequest(
        instance_type="g2-standard-4", region="us-central1", zone="us-central1-a", public_key=PUB,
        ssh_cidr="198.51.100.7/32", client_token=f"lg-{i:032x}", name=f"labgpu-{i}")).id for i in range(5)]
    before = len(gcp_server.requests_of("aggregated"))
    assert sorted(i.id for i in p.list_instances(acc, creds)) == sorted(made)
    assert len(gcp_server.requests_of("aggregated")) - before == 3  # 5 instances, 2 a page
    pages = [c.query.get("pageToken", "") for c in gcp_server.requests_of("aggregated")[before:]]
    assert pages == ["", "2", "4"]


def test_throttling_is_retried_with_backoff_and_not_shown(gcp_server):
    acc, creds = _account(gcp_server)
    sleeps: list[float] = []
    gcp_server.fail_next("insert", "rateLimitExceeded", times=2)
    inst = _provider(sleeps).launch(acc, creds, LaunchRequest(
        instance_type="g2-standard-4", region="us-central1", zone="us-central1-a", public_key=PUB,
        ssh_cidr="198.51.100.7/32", client_token="lg-throttled"))
    assert inst.id in gcp_server.instances
    assert sleeps[:2] == [0.5, 1.0]


def test_an_http_quota_refusal_and_an_unknown_project(gcp_server):
    acc, creds = _account(gcp_server)
    gcp_server.fail_next("insert", "quotaExceeded")
    with pytest.raises(QuotaError):
        _provider().launch(acc, creds, LaunchRequest(instance_type="g2-standard-4", region="us-central1",
                                                     zone="us-central1-a", public_key=PUB, ssh_cidr="198.51.100.7/32"))
    other, creds = _account(gcp_server, project="someone-elses-project")
    with pytest.raises(CloudError) as err:
        _provider().validate(other, creds)
    assert err.value.code == "notFound" and "project" in err.value.hint()


def test_prices_need_the_api_key_and_a_wrong_one_is_refused(gcp_server):
    acc, creds = _account(gcp_server)
    with pytest.raises(CloudError) as err:
        _provider().refresh_prices(acc, Credentials(creds.key_id, creds.secret), [])
    assert err.value.code == "NoPriceApiKey" and "bundled" in err.value.text()
    with pytest.raises(CloudError) as err:
        _provider().refresh_prices(acc, Credentials(creds.key_id, creds.secret, "AIza-wrong"), [])
    assert err.value.code == "API_KEY_INVALID"


def test_a_key_for_another_service_account_than_the_account_names(gcp_server):
    acc, creds = _account(gcp_server)
    with pytest.raises(AuthError) as err:
        _provider().validate(acc, Credentials("someone@else.iam.gserviceaccount.com", creds.secret))
    assert err.value.code == "BadServiceAccountKey"


def test_the_importer_says_when_the_named_file_is_missing(tmp_path):
    from app.cloud.gcp.importer import import_candidates

    assert import_candidates(env={}) == []
    with pytest.raises(AccountError) as err:
        import_candidates(env={"GOOGLE_APPLICATION_CREDENTIALS": str(tmp_path / "gone.json")})
    assert err.value.code == "NoKeyFile"


def test_a_zone_without_the_gpu_refuses_the_insert_as_invalid_so_zones_leaves_it_out(gcp_server):
    from app.cloud.errors import InvalidRequestError

    acc, creds = _account(gcp_server)
    p = _provider()
    assert "us-central1-f" not in p.zones(acc, creds, "g2-standard-4")
    with pytest.raises(InvalidRequestError) as err:
        p.launch(acc, creds, LaunchRequest(instance_type="g2-standard-4", region="us-central1", zone="us-central1-f",
                                           public_key=PUB, ssh_cidr="198.51.100.7/32"))
    assert err.value.code == "invalid" and "us-central1-f" in err.value.text()


def test_an_endpoint_that_does_not_answer_is_a_network_error_without_the_key(gcp_server):
    import socket

    from app.cloud.errors import NetworkError

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    acc = Account("lab", "gcp", "us-central1", f"http://127.0.0.1:{port}")
    creds = Credentials(gcp_server.key.client_email, gcp_server.key.json_text())
    with pytest.raises(NetworkError) as err:
        _provider().validate(acc, creds)
    text = err.value.text() + err.value.hint()
    assert gcp_server.key.pem_body[:40] not in text and "PRIVATE" not in text
