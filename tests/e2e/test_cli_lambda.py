"""The cloud CLI with a Lambda account, as a user or a script runs it: real subprocesses, the plugin's REST
client over HTTP to the local Lambda peer (bearer key, the API reference's rules), a real Secret Service and a
real sshd standing in for the instance. add → test → prices (the offers rows live, with their age) → launch
after a capacity error in the first region → ls with cost → a guard whose stop terminates after pulling the
checkpoints (Lambda has no stop) → terminate → a scan of every file LabGPU wrote for the API key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import paramiko
import pytest

from app.core.paths import default_paths
from app.remote.hostkeys import KnownHosts
from tests.e2e.instance_support import ROOT, cli, ok
from tests.fixtures.lambda_server import TEST_API_KEY, LambdaPeer

A100 = "gpu_1x_a100_sxm4"  # the peer has capacity in us-east-1 and us-west-1
H100 = "gpu_1x_h100_sxm5"  # capacity in us-west-1 and us-south-1: none in the account's region
CAPACITY = "instance-operations/launch/insufficient-capacity"


@pytest.fixture
def lambda_peer() -> Iterator[LambdaPeer]:
    peer = LambdaPeer().start()
    try:
        yield peer
    finally:
        peer.stop()


def _one_error_line(r: subprocess.CompletedProcess, code: str) -> str:
    assert r.returncode != 0, r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert f"[{code}]" in lines[0] and " — " in lines[0]
    return lines[0]


def _serve_from(server, peer: LambdaPeer, private_home: Path) -> None:
    """The peer's instances answer on 127.0.0.1 (the test's sshd; ~/.ssh/config gives the port), logged into
    as the sshd's user with its key (instance tags, as a user would set them)."""
    peer.instance_ip = "127.0.0.1"
    peer.extra_tags = [{"key": "labgpu:ssh-user", "value": server.user},
                       {"key": "labgpu:ssh-key-path", "value": str(server.client_key)}]
    (private_home / ".ssh" / "config").write_text(f"Host 127.0.0.1\n    Port {server.port}\n")
    KnownHosts(default_paths()).add("127.0.0.1", server.port, paramiko.Ed25519Key.from_path(str(server.host_key)))


def test_full_lambda_flow_and_no_secret_anywhere(secret_service, lambda_peer, private_home, instance_sshd,
                                                 tmp_path, labgpu_home):
    peer, server = lambda_peer, instance_sshd
    _serve_from(server, peer, private_home)
    ok("accounts", "add", "lambda", "lab", "--region", "us-east-1", "--endpoint", peer.endpoint,
       stdin=f"{TEST_API_KEY}\n")  # an API key alone: one line
    [acc] = json.loads(ok("accounts", "ls", "--json").stdout)
    assert (acc["provider"], acc["region"], acc["endpoint"]) == ("lambda", "us-east-1", peer.endpoint)
    assert "accepted" in ok("accounts", "test", "lab").stdout
    assert {c.auth for c in peer.calls} == {"bearer"}

    ok("accounts", "add", "lambda", "bad", "--region", "us-east-1", "--endpoint", peer.endpoint,
       stdin="secret_not-the-key.x\n")
    line = _one_error_line(cli("accounts", "test", "bad"), "global/invalid-api-key")
    assert "api-keys" in line and "secret_not-the-key" not in line
    ok("accounts", "rm", "bad")

    # Live prices: one per type (the same in all regions), replacing the catalog's rows, with their age.
    offers = json.loads(ok("prices", "refresh", "--account", "lab", "--json").stdout)
    assert {o["instance_type"] for o in offers} == {A100, H100, "gpu_8x_a100_80gb_sxm4"}
    assert all(o["live"] and o["fetched_at"] and o["region"] == "all regions" for o in offers)
    table = {o["instance_type"]: o for o in json.loads(ok("offers", "--provider", "lambda", "--json").stdout)}
    assert table[A100]["live"] and table[A100]["price_on_demand"] == 1.29
    assert table[H100]["live"] and table[H100]["price_on_demand"] == 3.29
    assert not table["gpu_1x_h100_pcie"]["live"]  # not sold by the peer: the bundled row stays
    assert "live" in ok("offers", "--provider", "lambda").stdout  # the price age column

    # Launch: no H100 in the account's region (the peer's capacity rule), so the next region with capacity,
    # after the 12-second launch spacing the API asks for.
    r = ok("launch", "--account", "lab", "--type", H100, "--ssh-from", "198.51.100.7/32", "--json", "--progress")
    inst = json.loads(r.stdout)
    iid = inst["id"]
    assert (inst["provider"], inst["zone"], inst["state"], inst["spot"]) == ("lambda", "us-west-1", "running", False)
    assert (inst["price_per_hour"], inst["currency"], inst["public_ip"]) == (3.29, "USD", "127.0.0.1")
    zone_lines = [ln for ln in r.stderr.splitlines() if ln.startswith("[zone]")]
    assert zone_lines and "us-east-1" in zone_lines[0] and "us-west-1" in zone_lines[0]
    launches = peer.calls_of("launchInstance")
    assert [(c.body["region_name"], c.status) for c in launches] == [("us-east-1", 400), ("us-west-1", 200)]
    assert len(peer.ssh_keys) == 1

    rows = {x["id"]: x for x in json.loads(ok("ls", "--json").stdout)}
    assert rows[iid]["cost_so_far"] is not None and rows[iid]["cost_so_far"] >= 0 and rows[iid]["started_at"]

    # Stop by hand: refused with what to do instead, nothing sent.
    line = _one_error_line(cli("stop", iid), "NoStop")
    assert f"labgpu terminate {iid}" in line and "Lambda has no stop" in line
    assert peer.calls_of("terminateInstance") == []

    # A guard: the checkpoints are pulled, then the instance is terminated (its stop).
    ckpt_remote = server.remote_dir("checkpoints")
    (ckpt_remote / "epoch-3.pt").write_bytes(b"weights" * 500)
    server.chown_to_user(ckpt_remote)
    ckpt_local = tmp_path / "ckpt"
    ok("guard", "set", iid, "--max-hours", "0.0003", "--pull", f"{ckpt_remote}={ckpt_local}")
    [g] = json.loads(ok("guard", "ls", "--json").stdout)
    assert g["id"] == iid and g["can_stop"] and g["stop_terminates"]  # said before the fact
    assert "terminate" in ok("guard", "ls").stdout
    watch = subprocess.Popen([sys.executable, "-m", "app", "watch", "--json", "--period", "0.2"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    events: list[dict] = []
    try:
        assert watch.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not any(
                e["kind"] in ("terminated", "stop-refused", "terminate-failed") for e in events):
            line = watch.stdout.readline()
            if not line:
                break
            events.append(json.loads(line))
    finally:
        watch.terminate()
        watch.wait(timeout=60)
    kinds = [e["kind"] for e in events]
    assert kinds[-1] == "terminated", events
    assert "Lambda has no stop" in events[-1]["message"] and "checkpoints were pulled first" in events[-1]["message"]
    assert (ckpt_local / "epoch-3.pt").read_bytes() == b"weights" * 500
    assert peer.calls_of("terminateInstance")[-1].body == {"instance_ids": [iid]}
    audit = list(reversed(json.loads(ok("audit", "--json", "--limit", "500").stdout)))
    names = [a["action"] for a in audit if a["resource"] == iid]
    assert names.index("sync-before-stop") < names.index("terminate")

    # Terminate by hand, in the account's region (chosen: kept); the cross-process launch limit is the
    # peer's rule alone here (the plugin's wait for it is tested in tests/cloud/test_lambda_launch.py).
    peer.launch_interval_s = 0.0
    second = json.loads(ok("launch", "--account", "lab", "--type", A100, "--zone", "us-east-1",
                           "--ssh-from", "198.51.100.7/32", "--json").stdout)
    assert second["zone"] == "us-east-1" and len(peer.ssh_keys) == 1  # the key reused by name
    ok("terminate", second["id"])
    states = {x["id"]: x["state"] for x in json.loads(ok("ls", "--json").stdout)}
    assert states[iid] in ("terminating", "terminated") and states[second["id"]] in ("terminating", "terminated")

    # A chosen region without capacity is kept, and said in one line.
    line = _one_error_line(cli("launch", "--account", "lab", "--type", H100, "--zone", "us-east-1",
                               "--ssh-from", "198.51.100.7/32"), CAPACITY)
    assert "because you chose it" in line
    peer.fail_next("launchInstance", "global/quota-exceeded")
    line = _one_error_line(cli("launch", "--account", "lab", "--type", A100, "--zone", "us-east-1",
                               "--ssh-from", "198.51.100.7/32"), "global/quota-exceeded")
    assert "Lambda Support" in line

    ok("accounts", "rm", "lab")
    files = [p for p in labgpu_home.rglob("*") if p.is_file()]
    assert any(p.suffix == ".log" for p in files)
    for p in files:
        assert TEST_API_KEY.encode() not in p.read_bytes(), f"the API key found in {p}"


def test_import_from_lambda_api_key(secret_service, labgpu_home, monkeypatch):
    monkeypatch.setenv("LAMBDA_API_KEY", TEST_API_KEY)
    r = ok("accounts", "import", "lambda", "--region", "us-west-1")
    assert "lambda-env" in r.stdout
    [acc] = json.loads(ok("accounts", "ls", "--json").stdout)
    assert (acc["name"], acc["provider"], acc["region"]) == ("lambda-env", "lambda", "us-west-1")
    for p in (p for p in labgpu_home.rglob("*") if p.is_file()):
        assert TEST_API_KEY.encode() not in p.read_bytes(), p


def test_a_persistent_file_system_takes_the_launch_to_its_region(secret_service, lambda_peer, labgpu_home):
    peer = lambda_peer
    peer.add_file_system("datasets", "us-west-1")
    ok("accounts", "add", "lambda", "lab", "--region", "us-east-1", "--endpoint", peer.endpoint,
       "--file-system", "datasets", stdin=f"{TEST_API_KEY}\n")
    inst = json.loads(ok("launch", "--account", "lab", "--type", A100, "--ssh-from", "198.51.100.7/32",
                         "--json").stdout)
    assert inst["zone"] == "us-west-1"
    [sent] = peer.calls_of("launchInstance")
    assert (sent.body["region_name"], sent.body["file_system_names"]) == ("us-west-1", ["datasets"])
    ok("accounts", "add", "lambda", "typo", "--region", "us-east-1", "--endpoint", peer.endpoint,
       "--file-system", "datsets", stdin=f"{TEST_API_KEY}\n")
    line = _one_error_line(cli("accounts", "test", "typo"), "NoSuchFileSystem")
    assert "datsets" in line
