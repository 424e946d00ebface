"""The Google Cloud plugin against the local peer (tests/fixtures/gcp_compute_server.py): the official
google-cloud-compute SDK over REST, a bearer token from the peer's token endpoint for a JWT assertion signed
with the test's service-account key; operations polled with an instant sleep."""

from __future__ import annotations

import pytest

from app.cloud.base import AuthError, CapacityError, LaunchRequest, QuotaError
from app.cloud.gcp.provider import GcpProvider
from app.core.accounts import Account, Credentials
from tests.fixtures.gcp_compute_server import API_KEY, PROJECT
from tests.fixtures.gcp_fixtures import peer_fixtures

gcp_server_module, gcp_server = peer_fixtures()

T4 = "n1-standard-8 + 1x T4"
PUB = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDi1Jw1d8kq7l4o0mGm2mKk9bYqkq0yqUq6o2Zz0s8pD labgpu"


def _provider() -> GcpProvider:
    p = GcpProvider(sleep=lambda _s: None)
    return p


def _account(server, **extra) -> tuple[Account, Credentials]:
    acc = Account("lab", "gcp", "us-central1", server.url, extra=dict(extra))
    return acc, Credentials(server.key.client_email, server.key.json_text(), API_KEY)


def _req(**kw) -> LaunchRequest:
    base = {"instance_type": T4, "region": "us-central1", "public_key": PUB, "ssh_cidr": "198.51.100.7/32",
            "client_token": "lg-0123456789abcdef", "name": "labgpu-01234567",
            "tags": {"labgpu-launch": "lg-0123456789abcdef"}, "ssh_key_name": "labgpu-00112233aabbccdd"}
    base.update(kw)
    return LaunchRequest(**base)


def test_validate_gets_a_token_for_the_signed_assertion_and_lists_zones(gcp_server):
    acc, creds = _account(gcp_server)
    who = _provider().validate(acc, creds)
    assert gcp_server.key.client_email[:6] in who and PROJECT in who
    assert gcp_server.token_requests >= 1
    # zones.list was paged (2 per page): every page was read
    assert len(gcp_server.requests_of("zones_list")) == 5


def test_a_key_the_token_endpoint_does_not_know_is_invalid_grant(gcp_server):
    from tests.fixtures.gcp_oauth import ServiceAccountKey

    stranger = ServiceAccountKey.create(PROJECT, gcp_server.token_uri, "stranger")
    acc = Account("lab", "gcp", "us-central1", gcp_server.url)
    with pytest.raises(AuthError) as err:
        _provider().validate(acc, Credentials(stranger.client_email, stranger.json_text()))
    assert err.value.code == "invalid_grant"
    assert "create a new JSON key" in err.value.hint()


def test_a_user_login_is_refused_with_its_reason():
    acc = Account("lab", "gcp", "us-central1")
    with pytest.raises(AuthError) as err:
        _provider().validate(acc, Credentials("x", '{"type": "authorized_user", "client_id": "1"}'))
    assert err.value.code == "BadServiceAccountKey" and "authorized_user" in err.value.text()


def test_launch_spot_then_stock_out_moves_zone_and_lifecycle(gcp_server):
    acc, creds = _account(gcp_server)
    p = _provider()
    assert p.zones(acc, creds, T4) == ["us-central1-a", "us-central1-b", "us-central1-c", "us-central1-f"]
    assert p.zones(acc, creds, "g2-standard-4") == ["us-central1-a", "us-central1-b", "us-central1-c"]  # L4 zones
    assert p.zones(acc, creds) == ["us-central1-a", "us-central1-b", "us-central1-c", "us-central1-f"]
    gcp_server.fail_next("insert", "ZONE_RESOURCE_POOL_EXHAUSTED", zone="us-central1-a")
    with pytest.raises(CapacityError) as err:
        p.launch(acc, creds, _req(zone="us-central1-a", spot=True))
    assert "us-central1-a" in err.value.text() and err.value.code == "ZONE_RESOURCE_POOL_EXHAUSTED"
    inst = p.launch(acc, creds, _req(zone="us-central1-b", spot=True, client_token="lg-0123456789abcdef~1"))
    assert (inst.zone, inst.spot, inst.instance_type) == ("us-central1-b", True, T4)
    [fw] = gcp_server.firewalls.values()
    assert fw["sourceRanges"] == ["198.51.100.7/32"] and fw["allowed"] == [{"IPProtocol": "tcp", "ports": ["22"]}]
    body = gcp_server.instances[inst.id]
    assert body["scheduling"]["provisioningModel"] == "SPOT"
    assert body["scheduling"]["instanceTerminationAction"] == "STOP"
    assert body["tags"]["items"] == [fw["name"]]
    assert body["metadata"]["items"][0] == {"key": "ssh-keys", "value": f"labgpu:{' '.join(PUB.split()[:2])} labgpu"}
    # found again by either token
    assert p.find_by_client_token(acc, creds, "lg-0123456789abcdef").id == inst.id
    listed = {i.id: i for i in p.list_instances(acc, creds)}
    assert listed[inst.id].public_ip.startswith("203.0.113.")
    assert "disks" in p.stop(acc, creds, inst.id)
    assert gcp_server.instances[inst.id]["status"] == "TERMINATED"
    p.start(acc, creds, inst.id)
    p.terminate(acc, creds, inst.id)
    assert inst.id not in gcp_server.instances


def test_quota_is_not_a_capacity_error(gcp_server):
    acc, creds = _account(gcp_server)
    gcp_server.fail_next("insert", "QUOTA_EXCEEDED")
    with pytest.raises(QuotaError) as err:
        _provider().launch(acc, creds, _req(zone="us-central1-a"))
    assert "Quotas" in err.value.hint()


def test_live_prices_from_the_billing_catalog(gcp_server):
    acc, creds = _account(gcp_server)
    offers = {o.instance_type: o for o in _provider().refresh_prices(acc, creds, [])}
    t4 = offers[T4]
    assert t4.live and t4.fetched_at is not None
    assert t4.price_on_demand == pytest.approx(8 * 0.031611 + 30 * 0.004237 + 0.35, abs=1e-4)
    assert t4.price_spot == pytest.approx(8 * 0.00698 + 30 * 0.00094 + 0.14, abs=1e-4)
    assert set(offers) == {"a2-highgpu-1g", "g2-standard-4", T4, "n1-standard-8 + 1x V100"}
    assert len(gcp_server.requests_of("skus.list")) > 1  # paged


def test_the_same_attempt_sent_twice_is_one_instance(gcp_server):
    """The insert's requestId is derived from the attempt's token: a retry of the same attempt (an answer
    lost on the way back) is the same request, so Google Cloud makes one instance."""
    acc, creds = _account(gcp_server)
    p = _provider()
    first = p.launch(acc, creds, _req(zone="us-central1-a", instance_type="g2-standard-4"))
    second = p.launch(acc, creds, _req(zone="us-central1-a", instance_type="g2-standard-4"))
    assert first.id == second.id and len(gcp_server.instances) == 1
    ids = {c.query["requestId"] for c in gcp_server.requests_of("insert")}
    assert len(ids) == 1


def test_a_google_cloud_call_imports_the_services_it_uses_not_the_whole_sdk():
    """google.cloud.compute_v1's own __init__ imports all ~90 service clients (1.4 s in every `labgpu` process that
    calls Google Cloud); LabGPU imports the types and the clients it names (~0.5 s). The package still works whole
    for any code that imports it so, and a missing SDK is still said as SdkMissing."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = (
        "import sys\n"
        "from app.cloud.gcp.client import sdk, service_module\n"
        "c = sdk()\n"
        "assert c.InstancesClient.__name__ == 'InstancesClient' and c.Instance.__name__ == 'Instance'\n"
        "assert service_module('ZoneOperationsClient', 'transports').ZoneOperationsRestTransport\n"
        "loaded = sorted(m.rsplit('.', 1)[1] for m in sys.modules\n"
        "                if m.count('.') == 4 and m.startswith('google.cloud.compute_v1.services.'))\n"
        "print('LOADED', ' '.join(loaded))\n"
        "import google.cloud.compute_v1 as whole\n"
        "from google.cloud import compute_v1\n"
        "from google.cloud.compute_v1 import DisksClient\n"
        "print('WHOLE', whole is compute_v1, DisksClient.__name__, bool(whole.__version__))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    loaded = r.stdout.split("LOADED", 1)[1].splitlines()[0].split()
    assert loaded == ["instances", "zone_operations"]
    assert "WHOLE True DisksClient True" in r.stdout
    missing = ("import sys\n"
               "class NoSdk:  # as if google-cloud-compute were not installed\n"
               "    def find_spec(self, name, path=None, target=None):\n"
               "        if name.startswith('google.cloud.compute_v1'):\n"
               "            raise ModuleNotFoundError(f'No module named {name!r}', name=name)\n"
               "sys.meta_path.insert(0, NoSdk())\n"
               "from app.cloud.gcp.client import sdk\n"
               "from app.cloud.base import SdkMissingError\n"
               "try:\n"
               "    sdk()\n"
               "except SdkMissingError as exc:\n"
               "    print('MISSING', exc.code)\n")
    r = subprocess.run([sys.executable, "-c", missing], cwd=root, capture_output=True, text=True, timeout=120,
                       check=False)
    assert "MISSING SdkMissing" in r.stdout, r.stdout + r.stderr[-2000:]
