"""The cloud CLI with a Google Cloud account, as a user or a script runs it: real subprocesses, the official
google-cloud-compute SDK over REST to the local peer (a token endpoint that checks the service-account JWT
assertion with the key's public half, and Compute v1), a real Secret Service. A Spot launch whose first zone is
out of stock lands in the second zone; a guard stops it; the flow ends with a scan of every file LabGPU wrote
for the private key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.fixtures import clirun
from tests.fixtures.gcp_compute_server import API_KEY, PROJECT
from tests.fixtures.gcp_fixtures import peer_fixtures
from tests.fixtures.gcp_oauth import ServiceAccountKey

gcp_server_module, gcp_server = peer_fixtures()

ROOT = Path(__file__).resolve().parents[2]
T4 = "n1-standard-8 + 1x T4"
L4 = "g2-standard-4"
LS_FIELDS = {"id", "account", "provider", "instance_type", "zone", "state", "spot", "public_ip",
             "price_per_hour", "currency", "started_at", "cost_so_far"}


def _cli(*args, stdin=None, env=None):
    return clirun.run([sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True,
                          env=env or dict(os.environ), cwd=ROOT, timeout=120)


def _ok(*args, **kw):
    r = _cli(*args, **kw)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


def _one_error_line(r, code):
    assert r.returncode != 0, r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert f"[{code}]" in lines[0]
    assert " — " in lines[0]  # message — next step
    return lines[0]


def _add(server, name: str, key: ServiceAccountKey, *options: str, api_key: str = API_KEY):
    # the key id line, the JSON key as downloaded (pretty-printed), an empty line, the optional API key
    _ok("accounts", "add", "gcp", name, "--region", "us-central1", "--endpoint", server.url, *options,
        stdin=f"{key.client_email}\n{key.json_text()}\n\n{api_key}\n")


def _watch_until_stopped(iid: str) -> dict:
    watch = subprocess.Popen([sys.executable, "-m", "app", "watch", "--json", "--period", "0.2"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert watch.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = watch.stdout.readline()
            if not line:
                break
            ev = json.loads(line)
            if ev.get("target_id") == iid and ev["kind"] in ("stopped", "stop-failed", "stop-refused"):
                return ev
    finally:
        watch.terminate()
        watch.wait(timeout=60)
        watch.stdout.close()
        watch.stderr.close()
    raise AssertionError("the guard did not stop the instance")


def test_full_gcp_flow_and_no_private_key_anywhere(secret_service, gcp_server, labgpu_home):
    key = gcp_server.key
    _add(gcp_server, "lab", key, "--project", PROJECT)  # the project setting (the same as the key's here)
    [acc] = json.loads(_ok("accounts", "ls", "--json").stdout)
    assert (acc["provider"], acc["region"], acc["endpoint"]) == ("gcp", "us-central1", gcp_server.url)
    assert key.client_email not in acc["key_id"]  # masked
    out = _ok("accounts", "test", "lab").stdout
    assert key.client_email[:6] in out and PROJECT in out
    assert gcp_server.token_requests >= 1

    # A key the token endpoint does not know (deleted, or of another service account): invalid_grant.
    stranger = ServiceAccountKey.create(PROJECT, gcp_server.token_uri, "stranger")
    _add(gcp_server, "bad", stranger)
    line = _one_error_line(_cli("accounts", "test", "bad"), "invalid_grant")
    assert "JSON key" in line
    _ok("accounts", "rm", "bad")

    # Live prices with the account's API key (Billing Catalog, paged); the offers table shows them live.
    offers = json.loads(_ok("prices", "refresh", "--account", "lab", "--type", T4, "--type", L4, "--json").stdout)
    assert {o["instance_type"] for o in offers} == {T4, L4}
    assert all(o["live"] and o["fetched_at"] and o["currency"] == "USD" for o in offers)
    t4 = next(o for o in offers if o["instance_type"] == T4)
    assert abs(t4["price_on_demand"] - (8 * 0.031611 + 30 * 0.004237 + 0.35)) < 1e-4
    assert len(gcp_server.requests_of("skus.list")) > 1
    table = {o["instance_type"]: o for o in json.loads(_ok("offers", "--provider", "gcp", "--json").stdout)
             if o["live"]}
    assert set(table) == {T4, L4} and table[T4]["fetched_at"]
    assert "live" in _ok("offers", "--provider", "gcp").stdout

    # Spot; the first zone is out of stock right now: the launch moves on to the next zone of the region.
    gcp_server.fail_next("insert", "ZONE_RESOURCE_POOL_EXHAUSTED", zone="us-central1-a")
    r = _ok("launch", "--account", "lab", "--type", T4, "--spot", "--ssh-from", "198.51.100.7/32",
            "--json", "--progress")
    spot = json.loads(r.stdout)
    assert (spot["provider"], spot["spot"], spot["state"], spot["zone"]) == ("gcp", True, "running", "us-central1-b")
    zone_lines = [ln for ln in r.stderr.splitlines() if ln.startswith("[zone]")]
    assert zone_lines and "us-central1-a" in zone_lines[0] and "us-central1-b" in zone_lines[0]
    assert "no price cap" in r.stderr  # said where the bid cap is shown
    assert "Spot maximum" not in r.stderr  # …and no LabGPU cap is worked out or said for it
    inserts = gcp_server.requests_of("insert")
    assert [q.path.split("/")[6] for q in inserts] == ["us-central1-a", "us-central1-b"]
    body = gcp_server.instances[spot["id"]]
    assert body["scheduling"] == {"provisioningModel": "SPOT", "instanceTerminationAction": "STOP",
                                  "onHostMaintenance": "TERMINATE", "automaticRestart": False,
                                  **{k: v for k, v in body["scheduling"].items() if k == "nodeAffinities"}}
    assert body["guestAccelerators"][0]["acceleratorType"].endswith("/nvidia-tesla-t4")
    [fw] = gcp_server.firewalls.values()
    assert fw["sourceRanges"] == ["198.51.100.7/32"] and body["tags"]["items"] == [fw["name"]]

    # On demand, a type that carries its GPU, in a chosen zone: the firewall rule is reused.
    od = json.loads(_ok("launch", "--account", "lab", "--type", L4, "--zone", "us-central1-c",
                        "--ssh-from", "198.51.100.7/32", "--json").stdout)
    assert (od["spot"], od["zone"], od["currency"]) == (False, "us-central1-c", "USD")
    assert "guestAccelerators" not in gcp_server.instances[od["id"]] or \
        not gcp_server.instances[od["id"]]["guestAccelerators"]
    assert len(gcp_server.firewalls) == 1 and len(gcp_server.requests_of("firewall_insert")) == 1
    # The same launch again with its token (a retry after a crash): found by its label, nothing new is made.
    token = gcp_server.instances[od["id"]]["labels"]["labgpu-launch"]
    inserts_before = len(gcp_server.requests_of("insert"))
    again = json.loads(_ok("launch", "--account", "lab", "--type", L4, "--zone", "us-central1-c",
                           "--ssh-from", "198.51.100.7/32", "--client-token", token, "--json").stdout)
    assert again["id"] == od["id"]
    assert len(gcp_server.requests_of("insert")) == inserts_before and len(gcp_server.instances) == 2

    rows = json.loads(_ok("ls", "--json").stdout)
    assert {x["id"] for x in rows} == {spot["id"], od["id"]}
    for x in rows:
        assert set(x) >= LS_FIELDS
        assert x["public_ip"].startswith("203.0.113.") and x["started_at"]
        assert x["cost_so_far"] is not None and x["cost_so_far"] >= 0 and x["price_per_hour"]

    # A guard's stop: a max-runtime guard of about one second, `labgpu watch` stops the VM.
    _ok("guard", "set", od["id"], "--max-hours", "0.0003")
    ev = _watch_until_stopped(od["id"])
    assert ev["kind"] == "stopped", ev
    assert gcp_server.instances[od["id"]]["status"] in ("STOPPING", "TERMINATED")
    r = _ok("stop", spot["id"])
    assert "persistent disks" in r.stderr + r.stdout
    _ok("start", od["id"])
    assert gcp_server.instances[od["id"]]["status"] in ("STAGING", "RUNNING")
    for iid in (spot["id"], od["id"]):
        _ok("terminate", iid)
        assert iid not in gcp_server.instances
    states = {x["id"]: x["state"] for x in json.loads(_ok("ls", "--json").stdout)}
    assert set(states.values()) <= {"terminating", "terminated"}

    # A quota refusal is not a stock-out: no other zone is tried, the next step names the quota page.
    before = len(gcp_server.requests_of("insert"))
    gcp_server.fail_next("insert", "QUOTA_EXCEEDED")
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", T4, "--ssh-from", "198.51.100.7/32"),
                           "QUOTA_EXCEEDED")
    assert "Quotas" in line
    assert len(gcp_server.requests_of("insert")) == before + 1

    _ok("accounts", "rm", "lab")
    files = [p for p in labgpu_home.rglob("*") if p.is_file()]
    assert any(p.suffix == ".log" for p in files)
    body_lines = [ln for ln in key.pem.splitlines() if not ln.startswith("-----")]
    for p in files:
        data = p.read_bytes()
        assert key.pem_body.encode() not in data, f"the private key found in {p}"
        assert not any(ln.encode() in data for ln in body_lines), f"a line of the private key found in {p}"
        assert API_KEY.encode() not in data, f"the API key found in {p}"


def test_launch_killed_after_the_insert_is_found_after_restart(secret_service, gcp_server, labgpu_home):
    """kill -9 between "Google Cloud accepted instances.insert" and "LabGPU recorded it": the next `labgpu ls`
    finds the instance by its labels, and retrying with the same token creates nothing."""
    _add(gcp_server, "lab", gcp_server.key)
    hold = gcp_server.hold_next_answer("insert")
    p = subprocess.Popen(
        [sys.executable, "-m", "app", "launch", "--account", "lab", "--type", L4, "--zone", "us-central1-a",
         "--ssh-from", "198.51.100.7/32", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ), cwd=ROOT,
    )
    try:
        reached = hold.reached.wait(60)
    finally:
        p.kill()
        p.wait(10)
        hold.release()
        err = p.stderr.read()
        p.stdout.close()
        p.stderr.close()
    assert reached, err
    [name] = list(gcp_server.instances)
    token = gcp_server.instances[name]["labels"]["labgpu-launch"]
    assert json.loads(_ok("ls", "--offline", "--json").stdout) == []
    [row] = json.loads(_ok("ls", "--json").stdout)
    assert (row["id"], row["provider"], row["client_token"]) == (name, "gcp", token)
    again = json.loads(_ok("launch", "--account", "lab", "--type", L4, "--zone", "us-central1-a",
                           "--ssh-from", "198.51.100.7/32", "--client-token", row["client_token"],
                           "--json").stdout)
    assert again["id"] == name
    assert len(gcp_server.requests_of("insert")) == 1


def test_import_from_google_application_credentials(secret_service, gcp_server, labgpu_home, tmp_path):
    """`labgpu accounts import gcp` reads the file GOOGLE_APPLICATION_CREDENTIALS names, as google-auth does;
    the key goes to the keyring, the file is not copied; a user login (authorized_user) is refused, saying why."""
    key_file = tmp_path / "key.json"
    key_file.write_text(gcp_server.key.json_text())
    env = dict(os.environ, GOOGLE_APPLICATION_CREDENTIALS=str(key_file))
    _ok("accounts", "import", "gcp", env=env)
    [acc] = json.loads(_ok("accounts", "ls", "--json").stdout)
    assert (acc["provider"], acc["name"], acc["region"]) == ("gcp", f"gcp-{PROJECT}", "us-central1")
    _ok("accounts", "rm", acc["name"])

    user = tmp_path / "adc.json"
    user.write_text(json.dumps({"type": "authorized_user", "client_id": "1.apps.googleusercontent.com",
                                "client_secret": "d-not-a-secret", "refresh_token": "1//refresh"}))
    r = _cli("accounts", "import", "gcp", env=dict(os.environ, GOOGLE_APPLICATION_CREDENTIALS=str(user)))
    assert r.returncode != 0 and "authorized_user" in r.stderr and "[NotServiceAccountKey]" in r.stderr
    for path in labgpu_home.rglob("*"):
        if path.is_file():
            assert gcp_server.key.pem_body.encode() not in path.read_bytes(), path
