"""The cloud CLI with a Tencent account, as a user or a script runs it: real subprocesses, the real
SDK over HTTP to the local TC3-checking CVM server, a real Secret Service. Ends with a scan of
every file LabGPU wrote for the secret values."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.fixtures import clirun
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY, TYPES

ROOT = Path(__file__).resolve().parents[2]
LS_FIELDS = {
    "id",
    "account",
    "provider",
    "instance_type",
    "zone",
    "state",
    "spot",
    "public_ip",
    "price_per_hour",
    "currency",
    "started_at",
    "cost_so_far",
}
GN7 = "GN7.2XLARGE32"


def _cli(*args, stdin=None, env=None):
    return clirun.run(
        [sys.executable, "-m", "app", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env or dict(os.environ),
        cwd=ROOT,
        timeout=120,
    )


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


def test_full_tencent_flow_and_no_secret_anywhere(
    secret_service, tencent_server, labgpu_home, tmp_path, monkeypatch
):
    tencent_server.pending_seconds = 0.0
    tencent_server.operation_seconds = 0.05
    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", tencent_server.endpoint + "/_ip")
    _ok(
        "accounts",
        "add",
        "tencent",
        "lab",
        "--region",
        "ap-guangzhou",
        "--endpoint",
        tencent_server.endpoint,
        stdin=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n",
    )
    [acc] = json.loads(_ok("accounts", "ls", "--json").stdout)
    assert acc["provider"] == "tencent"
    assert acc["endpoint"] == tencent_server.endpoint
    assert acc["protocol"] == "http"
    assert TEST_SECRET_ID not in acc["key_id"]
    assert "AKIDla" in _ok("accounts", "test", "lab").stdout

    # A wrong SecretKey is refused by the server's signature check: one line, code and next step.
    _ok(
        "accounts",
        "add",
        "tencent",
        "bad",
        "--region",
        "ap-guangzhou",
        "--endpoint",
        tencent_server.endpoint,
        stdin=f"{TEST_SECRET_ID}\nnot-the-secret-key\n",
    )
    line = _one_error_line(_cli("accounts", "test", "bad"), "AuthFailure.SignatureFailure")
    assert "SecretKey" in line
    _ok("accounts", "rm", "bad")

    offers = json.loads(
        _ok(
            "prices", "refresh", "--account", "lab", "--type", GN7, "--type", "GT4.4XLARGE96", "--json"
        ).stdout
    )
    assert {o["instance_type"] for o in offers} == {GN7, "GT4.4XLARGE96"}
    assert all(o["live"] and o["fetched_at"] and o["currency"] == "CNY" for o in offers)

    # spot with the default maximum (80 % of the live on-demand price), SSH from the detected address
    r = _ok("launch", "--account", "lab", "--type", GN7, "--spot", "--json", "--progress")
    spot = json.loads(r.stdout)
    assert spot["spot"] is True
    assert spot["state"] == "running"
    assert spot["provider"] == "tencent"
    for step in ("[key]", "[security_group]", "[image]", "[request]", "[wait]"):
        assert step in r.stderr
    run = tencent_server.requests_of("RunInstances")[-1]
    assert run["InstanceChargeType"] == "SPOTPAID"
    assert run["InstanceMarketOptions"]["SpotOptions"]["MaxPrice"] == f"{TYPES[GN7][4] * 0.8:.4f}"
    assert tencent_server.ingress_rules(run["SecurityGroupIds"][0])[0]["CidrBlock"] == "198.51.100.7/32"

    r = _ok(
        "launch",
        "--account",
        "lab",
        "--type",
        "GN10X.2XLARGE40",
        "--zone",
        "ap-guangzhou-4",
        "--ssh-from",
        "198.51.100.0/24",
        "--json",
    )
    od = json.loads(r.stdout)
    assert od["spot"] is False
    assert od["price_per_hour"] == TYPES["GN10X.2XLARGE40"][4]
    assert od["currency"] == "CNY"
    assert od["zone"] == "ap-guangzhou-4"

    # a retry with the same client token gives the same instance
    token = tencent_server.requests_of("RunInstances")[-1]["ClientToken"]
    again = json.loads(
        _ok(
            "launch",
            "--account",
            "lab",
            "--type",
            "GN10X.2XLARGE40",
            "--zone",
            "ap-guangzhou-4",
            "--ssh-from",
            "198.51.100.0/24",
            "--client-token",
            token,
            "--json",
        ).stdout
    )
    assert again["id"] == od["id"]

    rows = json.loads(_ok("ls", "--json").stdout)
    assert {x["id"] for x in rows} == {spot["id"], od["id"]}
    for x in rows:
        assert set(x) >= LS_FIELDS
        assert x["public_ip"]
        assert x["cost_so_far"] is not None
        assert x["started_at"]

    r = _ok("stop", od["id"])
    assert "disks still bill" in r.stderr
    assert tencent_server.billing_state(od["id"]) == ("STOPPED", "STOP_CHARGING")
    _ok("start", od["id"])
    assert tencent_server.billing_state(od["id"])[0] == "RUNNING"
    for iid in (spot["id"], od["id"]):
        _ok("terminate", iid)
        assert tencent_server.billing_state(iid)[0] == "SHUTDOWN"
    states = {x["id"]: x["state"] for x in json.loads(_ok("ls", "--json").stdout)}
    assert set(states.values()) <= {"terminating", "terminated"}

    # Errors: one stderr line with Tencent's code and the next step.
    tencent_server.fail_next("RunInstances", "InvalidParameterValue.InsufficientPrice", "bid too low")
    line = _one_error_line(
        _cli(
            "launch",
            "--account",
            "lab",
            "--type",
            GN7,
            "--spot",
            "--max-price",
            "0.5",
            "--ssh-from",
            "198.51.100.7/32",
        ),
        "InvalidParameterValue.InsufficientPrice",
    )
    assert f"{TYPES[GN7][5]:.4f}" in line  # names the current spot price
    tencent_server.fail_next("RunInstances", "LimitExceeded.SpotQuota")
    line = _one_error_line(
        _cli("launch", "--account", "lab", "--type", GN7, "--spot", "--ssh-from", "198.51.100.7/32"),
        "LimitExceeded.SpotQuota",
    )
    assert "quota" in line
    tencent_server.fail_next("DescribeRegions", "RequestLimitExceeded", times=2)  # retried, not shown
    _ok("accounts", "test", "lab")
    env = dict(os.environ, LABGPU_PUBLIC_IP_URLS="http://127.0.0.1:9/")
    runs = len(tencent_server.requests_of("RunInstances"))
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", GN7, env=env), "PublicAddressUnknown")
    assert "--ssh-from" in line
    assert len(tencent_server.requests_of("RunInstances")) == runs  # failed before touching the cloud

    export = tmp_path / "audit.csv"
    _ok("audit", "--csv", str(export))
    with export.open(encoding="utf-8") as fh:
        audit = list(csv.DictReader(fh))
    actions = [a["action"] for a in audit]
    assert actions.count("terminate") == 2
    assert "stop" in actions
    assert "start" in actions
    assert all(
        a["request_id"]
        for a in audit
        if a["action"] in ("stop", "start", "terminate") and a["result"] == "ok"
    )

    _ok("accounts", "rm", "lab")
    files = [p for p in labgpu_home.rglob("*") if p.is_file()] + [export]
    assert any(p.suffix == ".log" for p in files)
    for p in files:
        data = p.read_bytes()
        for secret in (TEST_SECRET_KEY, TEST_SECRET_ID):
            assert secret.encode() not in data, f"{secret[:4]}… found in {p}"


def test_launch_killed_after_the_request_is_found_after_restart(secret_service, tencent_server, labgpu_home):
    """kill -9 between "Tencent accepted RunInstances" and "LabGPU recorded it" (the server carries
    the launch out and holds its answer while the CLI is killed): the next `labgpu ls` finds the
    instance by its tags, and retrying the launch with the same token creates nothing."""
    tencent_server.pending_seconds = 0.0
    env = dict(os.environ)
    _ok(
        "accounts",
        "add",
        "tencent",
        "lab",
        "--region",
        "ap-guangzhou",
        "--endpoint",
        tencent_server.endpoint,
        stdin=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n",
    )
    hold = tencent_server.hold_next_answer("RunInstances")
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "launch",
            "--account",
            "lab",
            "--type",
            GN7,
            "--ssh-from",
            "198.51.100.7/32",
            "--json",
            "--progress",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    try:
        reached = hold.reached.wait(60)
    finally:
        p.kill()  # while it waits for the RunInstances answer
        p.wait(10)
        hold.release()
        err = p.stderr.read()
        p.stdout.close()
        p.stderr.close()
    assert reached, err
    [iid] = list(tencent_server.instances)  # the cloud carried the launch out
    assert iid.startswith("ins-")
    [sent] = tencent_server.requests_of("RunInstances")
    assert json.loads(_ok("ls", "--offline", "--json").stdout) == []  # killed before the ledger write
    [row] = json.loads(_ok("ls", "--json").stdout)
    assert row["id"] == iid
    assert row["provider"] == "tencent"
    assert row["state"] == "running"
    assert row["client_token"].startswith("lg-")
    assert row["client_token"] == sent["ClientToken"]  # found by the token the killed launch sent
    again = json.loads(
        _ok(
            "launch",
            "--account",
            "lab",
            "--type",
            GN7,
            "--ssh-from",
            "198.51.100.7/32",
            "--client-token",
            row["client_token"],
            "--json",
        ).stdout
    )
    assert again["id"] == iid
    assert len(tencent_server.requests_of("RunInstances")) == 1
    assert len(tencent_server.instances) == 1


def test_sold_out_zone_moves_to_another_zone_and_says_so_unless_the_zone_was_chosen(
    secret_service, tencent_server, labgpu_home
):
    tencent_server.pending_seconds = 0.0
    _ok(
        "accounts",
        "add",
        "tencent",
        "lab",
        "--region",
        "ap-guangzhou",
        "--endpoint",
        tencent_server.endpoint,
        stdin=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n",
    )
    # A zone the student chose is kept: sold out there is an error naming it, with the way to let LabGPU move.
    kept = _cli("launch", "--account", "lab", "--type", "GT4.4XLARGE96", "--zone", "ap-guangzhou-3",
                "--ssh-from", "198.51.100.7/32")
    line = _one_error_line(kept, "ResourcesSoldOut.SpecifiedInstanceType")
    assert "ap-guangzhou-3" in line and "kept to ap-guangzhou-3 because you chose it" in line
    assert "no --zone" in line
    assert [q["Placement"]["Zone"] for q in tencent_server.requests_of("RunInstances")] == ["ap-guangzhou-3"]
    assert not tencent_server.instances
    asked_before = len(tencent_server.requests_of("RunInstances"))
    # Any zone (no --zone): LabGPU starts in a zone whose price list says SELL (ap-guangzhou-3 is SOLD_OUT
    # there); when that zone then answers with a stock code, it moves on and says so.
    tencent_server.zone_errors["ap-guangzhou-4"] = "ResourceInsufficient.SpecifiedInstanceType"
    r = _ok(
        "launch",
        "--account",
        "lab",
        "--type",
        "GT4.4XLARGE96",
        "--ssh-from",
        "198.51.100.7/32",
        "--json",
        "--progress",
    )
    doc = json.loads(r.stdout)
    tried = [(q["Placement"]["Zone"], q["ClientToken"])
             for q in tencent_server.requests_of("RunInstances")[asked_before:]]
    assert tried[0][0] == "ap-guangzhou-4" and doc["zone"] not in ("ap-guangzhou-3", "ap-guangzhou-4")
    assert [z for z, _ in tried] == ["ap-guangzhou-4", doc["zone"]]
    zone_lines = [ln for ln in r.stderr.splitlines() if ln.startswith("[zone]")]
    assert len(zone_lines) == 1
    assert "ap-guangzhou-4" in zone_lines[0] and doc["zone"] in zone_lines[0]
    assert tried[0][1] != tried[1][1]  # another zone is another request


def test_default_launch_against_the_strict_peer_fails_over_launch_failed_and_reuses_the_group(
    secret_service, tencent_server, labgpu_home
):
    """No key and no zone given: LabGPU's own key (RSA: ImportKeyPair takes "OpenSSH RSA" only), one
    inbound rule for SSH from the range, an instance that ends LAUNCH_FAILED in the first zone is
    followed by a launch in the next one, and a second launch reuses the group that still has its rule."""
    tencent_server.pending_seconds = 0.05
    tencent_server.launch_failed_zones = {"ap-guangzhou-3"}
    _ok(
        "accounts", "add", "tencent", "lab", "--region", "ap-guangzhou", "--endpoint", tencent_server.endpoint,
        stdin=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n",
    )
    r = _ok("launch", "--account", "lab", "--type", GN7, "--ssh-from", "198.51.100.7/32", "--json", "--progress")
    doc = json.loads(r.stdout)
    assert doc["zone"] == "ap-guangzhou-4"
    zone_lines = [ln for ln in r.stderr.splitlines() if ln.startswith("[zone]")]
    assert zone_lines and "ap-guangzhou-3" in zone_lines[0] and "ap-guangzhou-4" in zone_lines[0]
    assert [q["Placement"]["Zone"] for q in tencent_server.requests_of("RunInstances")] == [
        "ap-guangzhou-3", "ap-guangzhou-4"
    ]
    assert tencent_server.key_pairs[0]["PublicKey"].startswith("ssh-rsa ")
    sg = tencent_server.requests_of("RunInstances")[-1]["SecurityGroupIds"][0]
    assert [(x["Protocol"], x["Port"], x["CidrBlock"]) for x in tencent_server.ingress_rules(sg)] == [
        ("TCP", "22", "198.51.100.7/32")
    ]
    assert tencent_server.ssh_allowed(doc["id"], "198.51.100.7")
    tencent_server.launch_failed_zones = set()
    r2 = _ok("launch", "--account", "lab", "--type", GN7, "--ssh-from", "198.51.100.7/32", "--json")
    assert tencent_server.requests_of("RunInstances")[-1]["SecurityGroupIds"] == [sg]
    assert tencent_server.actions().count("CreateSecurityGroup") == 1
    assert len(tencent_server.ingress_rules(sg)) == 1
    assert json.loads(r2.stdout)["id"] != doc["id"]
