"""The cloud CLI with an Alibaba Cloud account, as a user or a script runs it: real subprocesses, the
official SDK over HTTP to the local ACS3-checking ECS server, a real Secret Service. A spot launch
whose first zone has no stock lands in the second zone with its price cap; the flow ends with a
scan of every file LabGPU wrote for the AccessKey."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.fixtures import clirun
from tests.fixtures.alibaba_ecs_data import TYPES
from tests.fixtures.alibaba_ecs_server import TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET

ROOT = Path(__file__).resolve().parents[2]
A10 = "ecs.gn7i-c8g1.2xlarge"
A100 = "ecs.gn7-c12g1.3xlarge"
LS_FIELDS = {"id", "account", "provider", "instance_type", "zone", "state", "spot", "public_ip",
             "price_per_hour", "currency", "started_at", "cost_so_far"}


def _cli(*args, stdin=None):
    return clirun.run([sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True,
                          env=dict(os.environ), cwd=ROOT, timeout=120)


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


def _add(server, name="lab", secret=TEST_ACCESS_KEY_SECRET):
    _ok("accounts", "add", "alibaba", name, "--region", "cn-hangzhou", "--endpoint", f"http://{server.endpoint}",
        stdin=f"{TEST_ACCESS_KEY_ID}\n{secret}\n")


def test_full_alibaba_flow_and_no_secret_anywhere(secret_service, alibaba_server, labgpu_home):
    _add(alibaba_server)
    [acc] = json.loads(_ok("accounts", "ls", "--json").stdout)
    assert (acc["provider"], acc["region"]) == ("alibaba", "cn-hangzhou")
    assert acc["endpoint"] == f"http://{alibaba_server.endpoint}"
    assert TEST_ACCESS_KEY_ID not in acc["key_id"]
    assert "LTAI5t" in _ok("accounts", "test", "lab").stdout
    assert alibaba_server.actions() == ["DescribeRegions"]

    # A wrong secret is refused by the server's signature check: one line, code and next step.
    _add(alibaba_server, "bad", "not-the-secret")
    line = _one_error_line(_cli("accounts", "test", "bad"), "SignatureDoesNotMatch")
    assert "AccessKey Secret" in line
    _ok("accounts", "rm", "bad")

    # Live prices with the account: per zone, the sold-out zone marked, the offers table shows them live.
    offers = json.loads(_ok("prices", "refresh", "--account", "lab", "--type", A10, "--type", A100, "--json").stdout)
    assert {(o["instance_type"], o["zone"]) for o in offers} == {
        (t, z) for t in (A10, A100) for z in ("cn-hangzhou-h", "cn-hangzhou-i", "cn-hangzhou-j")}
    assert all(o["live"] and o["fetched_at"] and o["currency"] == "CNY" for o in offers)
    a10 = next(o for o in offers if o["instance_type"] == A10)
    assert (a10["price_on_demand"], a10["price_spot"]) == (TYPES[A10].on_demand, TYPES[A10].spot)
    assert [o["sold_out"] for o in offers if o["instance_type"] == A100 and o["zone"] == "cn-hangzhou-j"] == [True]
    table = {(o["instance_type"]): o for o in json.loads(_ok("offers", "--provider", "alibaba", "--json").stdout)
             if o["live"]}
    assert set(table) == {A10, A100}
    assert table[A10]["fetched_at"] and table[A10]["price_on_demand"] == TYPES[A10].on_demand
    assert "live" in _ok("offers", "--provider", "alibaba").stdout  # the price_age column

    # Spot, default cap (80 % of the live on-demand price); the first zone has no stock right now.
    alibaba_server.fail_next("RunInstances", "OperationDenied.NoStock", zone="cn-hangzhou-h")
    r = _ok("launch", "--account", "lab", "--type", A10, "--spot", "--ssh-from", "198.51.100.7/32",
            "--json", "--progress")
    spot = json.loads(r.stdout)
    assert (spot["provider"], spot["spot"], spot["state"], spot["zone"]) == ("alibaba", True, "running",
                                                                             "cn-hangzhou-i")
    zone_lines = [ln for ln in r.stderr.splitlines() if ln.startswith("[zone]")]
    assert zone_lines and "no ecs.gn7i-c8g1.2xlarge left in cn-hangzhou-h" in zone_lines[0]
    for step in ("[key]", "[network]", "[security_group]", "[image]", "[request]", "[wait]"):
        assert step in r.stderr
    # a fresh account, no key given: the app's default key (RSA: ImportKeyPair takes rsa/dsa/ecdsa), and
    # the new VPC and vSwitch waited for while Pending, through the VPC API (never the deprecated ECS copies)
    [pair] = alibaba_server.key_pairs.values()
    assert pair["PublicKey"].startswith("ssh-rsa ")
    assert any("Waiting for vpc-" in ln for ln in r.stderr.splitlines())
    assert any("Waiting for vsw-" in ln for ln in r.stderr.splitlines())
    assert {c.version for c in alibaba_server.calls if c.action in ("CreateVpc", "CreateVSwitch")} == {"2016-04-28"}
    runs = alibaba_server.requests_of("RunInstances")
    assert [q["ZoneId"] for q in runs] == ["cn-hangzhou-h", "cn-hangzhou-i"]
    assert runs[0]["ClientToken"] != runs[1]["ClientToken"]
    cap = round(TYPES[A10].on_demand * 0.8, 3)
    assert all(q["SpotStrategy"] == "SpotWithPriceLimit" and float(q["SpotPriceLimit"]) == cap for q in runs)
    assert runs[1]["InternetMaxBandwidthOut"] == "100"
    assert alibaba_server.instance(spot["id"]).spot_price_limit == cap
    [sg] = alibaba_server.security_groups
    assert [r["SourceCidrIp"] for r in alibaba_server.ingress_rules(sg)] == ["198.51.100.7/32"]

    # On demand in a chosen zone: the VPC, key pair and security group are reused, the zone gets a vSwitch.
    od = json.loads(_ok("launch", "--account", "lab", "--type", A100, "--zone", "cn-hangzhou-h",
                        "--ssh-from", "198.51.100.7/32", "--json").stdout)
    assert (od["spot"], od["zone"], od["price_per_hour"], od["currency"]) == (False, "cn-hangzhou-h",
                                                                               TYPES[A100].on_demand, "CNY")
    assert len(alibaba_server.vpcs) == 1 and len(alibaba_server.key_pairs) == 1
    assert len(alibaba_server.security_groups) == 1
    assert sorted(v["ZoneId"] for v in alibaba_server.vswitches.values()) == ["cn-hangzhou-h", "cn-hangzhou-i"]
    token = alibaba_server.requests_of("RunInstances")[-1]["ClientToken"]
    again = json.loads(_ok("launch", "--account", "lab", "--type", A100, "--zone", "cn-hangzhou-h",
                           "--ssh-from", "198.51.100.7/32", "--client-token", token, "--json").stdout)
    assert again["id"] == od["id"]
    assert len(alibaba_server.instances) == 2

    rows = json.loads(_ok("ls", "--json").stdout)
    assert {x["id"] for x in rows} == {spot["id"], od["id"]}
    for x in rows:
        assert set(x) >= LS_FIELDS
        assert x["public_ip"] and x["started_at"]
        assert x["cost_so_far"] is not None and x["cost_so_far"] >= 0

    r = _ok("stop", od["id"])
    assert "disks still bill" in r.stderr
    assert (alibaba_server.instance(od["id"]).status, alibaba_server.instance(od["id"]).stopped_mode) == (
        "Stopped", "StopCharging")
    _ok("start", od["id"])
    assert alibaba_server.instance(od["id"]).status in ("Starting", "Running")
    for iid in (spot["id"], od["id"]):
        _ok("terminate", iid)
        assert iid not in alibaba_server.instances
    states = {x["id"]: x["state"] for x in json.loads(_ok("ls", "--json").stdout)}
    assert set(states.values()) <= {"terminating", "terminated"}

    # Errors: one stderr line with Alibaba's code and the next step.
    alibaba_server.fail_next("RunInstances", "InvalidAccountStatus.NotEnoughBalance")
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", A10, "--ssh-from", "198.51.100.7/32"),
                           "InvalidAccountStatus.NotEnoughBalance")
    assert "Top up" in line
    alibaba_server.fail_next("RunInstances", "QuotaExceed.ElasticQuota")
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", A10, "--zone", "cn-hangzhou-h",
                                "--ssh-from", "198.51.100.7/32"), "QuotaExceed.ElasticQuota")
    assert "vCPU quota" in line
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", A10, "--zone", "cn-hangzhou-h", "--spot",
                                "--max-price", "0.5", "--ssh-from", "198.51.100.7/32"),
                           "InvalidSpotPriceLimit.LowerThanPublicPrice")
    assert f"{TYPES[A10].spot:.3f}" in line  # names the current spot price
    alibaba_server.fail_next("DescribeRegions", "Throttling.User", times=2)  # retried, not shown
    _ok("accounts", "test", "lab")

    _ok("accounts", "rm", "lab")
    files = [p for p in labgpu_home.rglob("*") if p.is_file()]
    assert any(p.suffix == ".log" for p in files)
    for p in files:
        data = p.read_bytes()
        for secret in (TEST_ACCESS_KEY_SECRET, TEST_ACCESS_KEY_ID):
            assert secret.encode() not in data, f"{secret[:4]}… found in {p}"


def test_launch_killed_after_the_request_is_found_after_restart(secret_service, alibaba_server, labgpu_home):
    """kill -9 between "Alibaba accepted RunInstances" and "LabGPU recorded it": the next `labgpu ls`
    finds the instance by its tags, and retrying with the same token creates nothing."""
    _add(alibaba_server)
    hold = alibaba_server.hold_next_answer("RunInstances")
    p = subprocess.Popen(
        [sys.executable, "-m", "app", "launch", "--account", "lab", "--type", A10, "--zone", "cn-hangzhou-h",
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
    [iid] = list(alibaba_server.instances)
    [sent] = alibaba_server.requests_of("RunInstances")
    assert json.loads(_ok("ls", "--offline", "--json").stdout) == []
    [row] = json.loads(_ok("ls", "--json").stdout)
    assert (row["id"], row["provider"], row["client_token"]) == (iid, "alibaba", sent["ClientToken"])
    again = json.loads(_ok("launch", "--account", "lab", "--type", A10, "--zone", "cn-hangzhou-h",
                           "--ssh-from", "198.51.100.7/32", "--client-token", row["client_token"],
                           "--json").stdout)
    assert again["id"] == iid
    assert len(alibaba_server.requests_of("RunInstances")) == 1


def test_import_from_the_alibaba_cli_config_and_the_environment(secret_service, labgpu_home, tmp_path):
    """`labgpu accounts import alibaba` reads the Alibaba CLI's ~/.aliyun/config.json (AccessKey
    profiles; others skipped) and ALIBABA_CLOUD_ACCESS_KEY_ID/SECRET; the secrets go to the keyring."""
    home = tmp_path / "home"
    (home / ".aliyun").mkdir(parents=True)
    (home / ".aliyun" / "config.json").write_text(json.dumps({
        "current": "lab",
        "profiles": [
            {"name": "lab", "mode": "AK", "access_key_id": TEST_ACCESS_KEY_ID,
             "access_key_secret": TEST_ACCESS_KEY_SECRET, "region_id": "cn-beijing"},
            {"name": "sso", "mode": "CloudSSO", "region_id": "cn-shanghai"},
        ],
    }))
    env = dict(os.environ, HOME=str(home), ALIBABA_CLOUD_ACCESS_KEY_ID="LTAI5tEnvKeyId0000000000",
               ALIBABA_CLOUD_ACCESS_KEY_SECRET="env-secret-value-000000000000")
    r = clirun.run([sys.executable, "-m", "app", "accounts", "import", "alibaba"], capture_output=True,
                       text=True, env=env, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    accounts = {a["name"]: a for a in json.loads(_ok("accounts", "ls", "--json").stdout)}
    assert accounts["alibaba-lab"]["region"] == "cn-beijing"
    assert len(accounts) == 2, accounts  # the CloudSSO profile has no AccessKey: skipped
    assert all(a["provider"] == "alibaba" for a in accounts.values())
    for path in labgpu_home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert TEST_ACCESS_KEY_SECRET.encode() not in data and b"env-secret-value" not in data, path
