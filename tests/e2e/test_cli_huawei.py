"""The cloud CLI with a Huawei Cloud account, as a user or a script runs it: real subprocesses, the official
SDKs over HTTP to the local SDK-HMAC-SHA256-checking peer, a real Secret Service. The whole journey: add → test
→ live prices (BSS, with their age in the offers table) → a spot launch whose first zone is out of capacity
(Ecs.0319) landing in the second zone with its price cap → an on-demand launch in a chosen zone reusing the
network → `labgpu ls` with cost → a guard's stop (the spot instance, which Huawei does not document as free when
stopped, is terminated instead) → start → terminate, with the errors on one line each; then a scan of every file
LabGPU wrote for the secret. And the importer from KooCLI's config and the HUAWEICLOUD_SDK_* variables."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures import clirun
from tests.fixtures.huawei_ecs_server import HuaweiPeer

ROOT = Path(__file__).resolve().parents[2]
AK = "HPUAE2ETESTKEY000001"
SK = "e2e-huawei-sk-5f1c0b7e9a2d4c68"
V100 = "p2s.2xlarge.8"
T4 = "pi2.2xlarge.4"
PRICES = {V100: 21.5, T4: 6.8}
LS_FIELDS = {"id", "account", "provider", "instance_type", "zone", "state", "spot", "public_ip",
             "price_per_hour", "currency", "started_at", "cost_so_far"}


@pytest.fixture
def huawei_peer() -> Iterator[HuaweiPeer]:
    peer = HuaweiPeer().start()
    peer.add_key(AK, SK)
    peer.sell(V100, PRICES[V100], ("cn-north-4a", "cn-north-4b", "cn-north-4c"))
    peer.sell(T4, PRICES[T4], ("cn-north-4a", "cn-north-4c"))
    try:
        yield peer
    finally:
        peer.stop()


def _cli(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return clirun.run([sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True,
                          env=env or dict(os.environ), cwd=ROOT, timeout=120)


def _ok(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    r = _cli(*args, stdin=stdin)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


def _one_error_line(r: subprocess.CompletedProcess[str], code: str) -> str:
    assert r.returncode != 0, r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert f"[{code}]" in lines[0] and " — " in lines[0]  # message — next step
    return lines[0]


def _add(peer: HuaweiPeer, name: str, secret: str = SK, region: str = "cn-north-4") -> None:
    _ok("accounts", "add", "huawei", name, "--region", region, "--endpoint", peer.endpoint, stdin=f"{AK}\n{secret}\n")


def test_add_test_wrong_secret_and_no_secret_anywhere(secret_service: object, huawei_peer: HuaweiPeer,
                                                      labgpu_home: Path) -> None:
    _add(huawei_peer, "lab")
    [acc] = json.loads(_ok("accounts", "ls", "--json").stdout)
    assert (acc["provider"], acc["region"], acc["endpoint"]) == ("huawei", "cn-north-4", huawei_peer.endpoint)
    assert AK not in acc["key_id"] and acc["storage_only"] is False

    out = _ok("accounts", "test", "lab").stdout
    assert "HPUAE2" in out and "4 availability zones" in out and AK not in out
    project = huawei_peer.keys[AK].projects["cn-north-4"]
    assert [(c.method, c.path) for c in huawei_peer.calls] == [
        ("GET", "/v3/projects"), ("GET", f"/v1/{project}/availability-zones")]
    assert huawei_peer.calls[0].query == {"name": "cn-north-4"}
    assert huawei_peer.refused == []

    # The project id as an account setting (--project-id): no IAM look-up, ECS straight away; a malformed one
    # is refused before anything is saved.
    _ok("accounts", "add", "huawei", "proj", "--region", "cn-north-4", "--endpoint", huawei_peer.endpoint,
        "--project-id", project, stdin=f"{AK}\n{SK}\n")
    before = len(huawei_peer.calls)
    _ok("accounts", "test", "proj")
    assert [c.path for c in huawei_peer.calls[before:]] == [f"/v1/{project}/availability-zones"]
    bad = _cli("accounts", "add", "huawei", "proj2", "--region", "cn-north-4", "--project-id", "not-hex",
               stdin=f"{AK}\n{SK}\n")
    assert bad.returncode != 0 and "proj2" not in _ok("accounts", "ls").stdout
    _ok("accounts", "rm", "proj")

    # A wrong SK: the peer's signature check refuses it; one line with the code and the next step.
    _add(huawei_peer, "bad", "not-the-secret-key", region="cn-east-3")
    line = _one_error_line(_cli("accounts", "test", "bad"), "APIGW.0301")
    assert "paste the AK and SK again" in line
    assert ("APIGW.0301", "verify aksk signature fail") in huawei_peer.refused
    _ok("accounts", "rm", "bad")

    # The secret is in the keyring only: no file LabGPU wrote holds it (nor the wrong one).
    files = [p for p in labgpu_home.rglob("*") if p.is_file()]
    assert files
    for path in files:
        data = path.read_bytes()
        assert SK.encode() not in data and b"not-the-secret-key" not in data, path


def test_the_whole_journey_spot_after_a_stock_out_guard_stop_terminate(secret_service: object, huawei_peer: HuaweiPeer,
                                                                       labgpu_home: Path) -> None:
    peer = huawei_peer
    _add(peer, "lab")
    _ok("accounts", "test", "lab")

    # Live prices with the account (BSS), then the offers table shows them live, with their age.
    offers = json.loads(_ok("prices", "refresh", "--account", "lab", "--type", V100, "--type", T4, "--json").stdout)
    assert {o["instance_type"]: o["price_on_demand"] for o in offers} == PRICES
    assert all(o["live"] and o["fetched_at"] and o["currency"] == "CNY" for o in offers)
    table = {o["instance_type"]: o for o in json.loads(_ok("offers", "--provider", "huawei", "--json").stdout)
             if o["live"]}
    assert set(table) == {V100, T4} and table[V100]["fetched_at"] and table[V100]["price_on_demand"] == PRICES[V100]
    assert "live" in _ok("offers", "--provider", "huawei").stdout  # the price_age column

    # Spot, default cap (80 % of the live pay-per-use price); the first zone has no capacity right now.
    peer.ecs.stock_out[("cn-north-4a", V100)] = "job"
    r = _ok("launch", "--account", "lab", "--type", V100, "--spot", "--ssh-from", "198.51.100.7/32", "--json",
            "--progress")
    spot = json.loads(r.stdout)
    assert (spot["provider"], spot["spot"], spot["state"], spot["zone"]) == ("huawei", True, "running", "cn-north-4b")
    zone_lines = [ln for ln in r.stderr.splitlines() if ln.startswith("[zone]")]
    assert zone_lines and f"no {V100} left in cn-north-4a" in zone_lines[0] and "Ecs.0319" in zone_lines[0]
    for step in ("[key]", "[network]", "[security_group]", "[image]", "[request]", "[wait]"):
        assert step in r.stderr
    assert "Tesla Driver" in r.stderr  # the public GPU image for the flavor
    # a fresh account: LabGPU's own RSA key (KPS imports ssh-rsa), the new subnet waited for while UNKNOWN
    [pair] = peer.net.keypairs.values()
    assert pair["public_key"].startswith("ssh-rsa ")
    assert any("to become ACTIVE" in ln for ln in r.stderr.splitlines())
    sent = peer.ecs.requests
    assert [q["availability_zone"] for q in sent] == ["cn-north-4a", "cn-north-4b"]
    cap = f"{PRICES[V100] * 0.8:.4f}"
    assert all(q["extendparam"] == {"marketType": "spot", "spotPrice": cap, "interruption_policy": "immediate"}
               for q in sent)
    tokens = [c.headers.get("x-client-token") for c in peer.calls_to("POST", "/cloudservers")]
    assert len(tokens) == 2 and tokens[0] != tokens[1] and all(tokens)
    assert sent[1]["publicip"]["eip"]["bandwidth"] == {"size": 100, "sharetype": "PER", "chargemode": "traffic"}
    [sg] = peer.net.groups
    assert [(x["protocol"], x["multiport"], x["remote_ip_prefix"]) for x in peer.net.ingress(sg)] == [
        ("tcp", "22", "198.51.100.7/32")]
    assert any("Stop and the guards terminate it" in n for n in spot["notes"])  # the spot rule, said at launch

    # On demand in a chosen zone: the VPC, subnet, key pair and security group are reused.
    od = json.loads(_ok("launch", "--account", "lab", "--type", T4, "--zone", "cn-north-4c",
                        "--ssh-from", "198.51.100.7/32", "--json").stdout)
    assert (od["spot"], od["zone"], od["price_per_hour"], od["currency"]) == (False, "cn-north-4c", PRICES[T4], "CNY")
    assert (len(peer.net.vpcs), len(peer.net.subnets), len(peer.net.keypairs), len(peer.net.groups)) == (1, 1, 1, 1)
    token = peer.ecs.servers[od["id"]].tags["labgpu-launch"]  # the launch's own token, on the server's tags
    again = json.loads(_ok("launch", "--account", "lab", "--type", T4, "--zone", "cn-north-4c", "--ssh-from",
                           "198.51.100.7/32", "--client-token", token, "--json").stdout)
    assert again["id"] == od["id"]
    assert len(peer.ecs.servers) == 2 and len(peer.ecs.requests) == 3  # found by its tag: nothing sent again

    rows = json.loads(_ok("ls", "--json").stdout)
    assert {x["id"] for x in rows} == {spot["id"], od["id"]}
    for x in rows:
        assert set(x) >= LS_FIELDS
        assert x["public_ip"] and x["started_at"]
        assert x["cost_so_far"] is not None and x["cost_so_far"] >= 0
    by_id = {x["id"]: x for x in rows}
    assert by_id[od["id"]]["price_per_hour"] == PRICES[T4]
    assert by_id[spot["id"]]["price_per_hour"] == pytest.approx(PRICES[V100] * 0.8)  # the cap: an upper bound

    # A guard's stop: max runtime reached on both; the pay-per-use one is stopped (SOFT), the spot one
    # terminated (Huawei does not document that a stopped spot instance stops billing).
    for iid in (spot["id"], od["id"]):
        _ok("guard", "set", iid, "--max-hours", "0.0003")  # about one second
    done = _watch_until_two_ended()
    assert done == {od["id"]: "stopped", spot["id"]: "terminated"}
    assert peer.ecs.servers[od["id"]].status == "SHUTOFF"
    assert spot["id"] not in peer.ecs.servers
    assert [b["os-stop"]["type"] for b in peer.ecs.actions if "os-stop" in b] == ["SOFT"]
    audit = json.loads(_ok("audit", "--json", "--limit", "500").stdout)
    guard = {(a["resource"], a["result"].split(" (")[0]) for a in audit if a["action"] == "guard-stop"}
    assert (od["id"], "ok") in guard
    assert any(res == spot["id"] and "does not document" in result for res, result in
               {(a["resource"], a["result"]) for a in audit if a["action"] == "guard-stop"})
    _ok("guard", "rm", od["id"])

    # Start it again by hand, stop it by hand (the sentence says what still bills), terminate it.
    _ok("start", od["id"])
    assert peer.ecs.servers[od["id"]].status == "ACTIVE"
    r = _ok("stop", od["id"])
    assert "disks" in r.stderr and "still bill" in r.stderr
    _ok("start", od["id"])
    _ok("terminate", od["id"])
    assert od["id"] not in peer.ecs.servers
    assert len(peer.ecs.released_eips) == 2  # delete_publicip: both EIPs went with their servers
    states = {x["id"]: x["state"] for x in json.loads(_ok("ls", "--json").stdout)}
    assert set(states.values()) <= {"terminating", "terminated"}

    # Errors: one stderr line with Huawei's code and the next step.
    peer.fail_next(400, "Ecs.0001", "Insufficient ECS quota.", path="/cloudservers")
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", T4, "--zone", "cn-north-4a",
                                "--ssh-from", "198.51.100.7/32"), "Ecs.0001")
    assert "My Quotas" in line
    peer.ecs.stock_out[("cn-north-4a", T4)] = "answer"  # a chosen zone is kept: no other zone tried
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", T4, "--zone", "cn-north-4a",
                                "--ssh-from", "198.51.100.7/32"), "Ecs.0319")
    assert "cn-north-4a" in line and "you chose it" in line
    peer.fail_next(429, "APIGW.0308", "throttled", path="/availability-zones")  # retried, not shown
    _ok("accounts", "test", "lab")

    _ok("accounts", "rm", "lab")
    files = [p for p in labgpu_home.rglob("*") if p.is_file()]
    assert any(p.suffix == ".log" for p in files)
    for p in files:
        data = p.read_bytes()
        for secret in (SK, AK):
            assert secret.encode() not in data, f"{secret[:4]}… found in {p}"


def test_launch_killed_after_huawei_accepted_it_is_found_after_restart(secret_service: object,
                                                                      huawei_peer: HuaweiPeer,
                                                                      labgpu_home: Path) -> None:
    """kill -9 between "Huawei accepted CreatePostPaidServers" and "LabGPU recorded it": the next `labgpu ls` finds
    the server by its tags, and retrying with the same token creates nothing."""
    peer = huawei_peer
    _add(peer, "lab")
    hold = peer.hold_next_answer("POST", "/cloudservers")
    p = subprocess.Popen(
        [sys.executable, "-m", "app", "launch", "--account", "lab", "--type", T4, "--zone", "cn-north-4a",
         "--ssh-from", "198.51.100.7/32", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ), cwd=ROOT)
    try:
        reached = hold.reached.wait(60)
    finally:
        p.kill()
        p.wait(10)
        hold.release()
        err = p.stderr.read() if p.stderr else ""
        for stream in (p.stdout, p.stderr):
            if stream:
                stream.close()
    assert reached, err
    [sid] = list(peer.ecs.servers)
    assert json.loads(_ok("ls", "--offline", "--json").stdout) == []
    [row] = json.loads(_ok("ls", "--json").stdout)
    token = peer.ecs.servers[sid].tags["labgpu-launch"]
    assert (row["id"], row["provider"], row["client_token"]) == (sid, "huawei", token)
    again = json.loads(_ok("launch", "--account", "lab", "--type", T4, "--zone", "cn-north-4a", "--ssh-from",
                           "198.51.100.7/32", "--client-token", token, "--json").stdout)
    assert again["id"] == sid and len(peer.ecs.requests) == 1


def _watch_until_two_ended() -> dict[str, str]:
    """`labgpu watch --json` until two targets were stopped or terminated (or failed); what each ended as."""
    watch = subprocess.Popen([sys.executable, "-m", "app", "watch", "--json", "--period", "0.2"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    done: dict[str, str] = {}
    try:
        assert watch.stdout is not None
        deadline = time.monotonic() + 120
        while len(done) < 2 and time.monotonic() < deadline:
            line = watch.stdout.readline()
            if not line:
                break
            ev = json.loads(line)
            if ev["kind"] in ("stopped", "terminated", "stop-failed", "stop-refused", "terminate-failed"):
                done[ev["target_id"]] = ev["kind"]
    finally:
        watch.terminate()
        watch.wait(timeout=60)
    return done


def test_import_from_koocli_config_and_the_environment(secret_service: object, labgpu_home: Path,
                                                       tmp_path: Path) -> None:
    """`labgpu accounts import huawei` reads KooCLI's ~/.hcloud/config.json (AKSK profiles stored readable;
    others skipped) and HUAWEICLOUD_SDK_AK/SK; the secrets go to the keyring."""
    home = tmp_path / "home"
    (home / ".hcloud").mkdir(parents=True)
    project = "0a" * 16
    (home / ".hcloud" / "config.json").write_text(json.dumps({
        "language": "en",
        "profiles": [
            {"name": "lab", "mode": "AKSK", "accessKeyId": AK, "secretAccessKey": SK, "region": "cn-east-3",
             "projectId": {"isEncrypted": False, "value": project}},
            {"name": "default", "mode": "AKSK", "accessKeyId": {"isEncrypted": False, "value": "HPUADEFAULT000000001"},
             "secretAccessKey": {"isEncrypted": False, "value": "default-profile-sk-0000"}, "region": ""},
            {"name": "vm", "mode": "ecsAgency", "region": "cn-south-1"},
            {"name": "locked", "mode": "AKSK", "accessKeyId": {"isEncrypted": True, "value": "x9f0"},
             "secretAccessKey": {"isEncrypted": True, "value": "y8e1"}},
        ],
    }))
    env = dict(os.environ, HOME=str(home), HUAWEICLOUD_SDK_AK="HPUAENVKEY0000000001",
               HUAWEICLOUD_SDK_SK="env-secret-value-000000000000")
    r = _cli("accounts", "import", "huawei", env=env)
    assert r.returncode == 0, r.stderr
    accounts = {a["name"]: a for a in json.loads(_ok("accounts", "ls", "--json").stdout)}
    assert set(accounts) == {"huawei-lab", "huawei-default", "huawei-env"}  # ecsAgency and encrypted: skipped
    assert accounts["huawei-lab"]["region"] == "cn-east-3"
    assert accounts["huawei-default"]["region"] == "cn-north-4"
    assert all(a["provider"] == "huawei" for a in accounts.values())
    for path in labgpu_home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert SK.encode() not in data and b"env-secret-value" not in data and b"default-profile-sk" not in data

    # Only encrypted profiles: the import says why and how to store them readable.
    (home / ".hcloud" / "config.json").write_text(json.dumps({"profiles": [
        {"name": "default", "mode": "AKSK", "accessKeyId": {"isEncrypted": True, "value": "x"},
         "secretAccessKey": {"isEncrypted": True, "value": "y"}}]}))
    bare = {k: v for k, v in env.items() if not k.startswith("HUAWEICLOUD_SDK")}
    r = _cli("accounts", "import", "huawei", env=bare)
    assert r.returncode != 0 and "[HcloudEncrypted]" in r.stderr and "--cli-auth-encrypt=false" in r.stderr
