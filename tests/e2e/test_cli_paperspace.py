"""The cloud CLI with a Paperspace account, as a user or a script runs it: real subprocesses, the plugin's HTTP to
the local bearer-key-checking Paperspace peer (tests/fixtures/paperspace_server.py), a real Secret Service.

add → test → prices (the API has none: the catalog's, with their age) → launch (no availability in the first
region, so the next one) → ls with cost → a guard's stop (`labgpu watch`) → start (a new dynamic IP, and the host
LabGPU keeps follows it) → terminate, then a scan of every file LabGPU wrote for the API key."""

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
from tests.fixtures.paperspace_server import TEST_API_KEY, TEST_TEAM, PaperspaceServer

ROOT = Path(__file__).resolve().parents[2]
A100 = "A100-80G"
SSH_FROM = "198.51.100.7/32"


@pytest.fixture(scope="module")
def peer_session() -> Iterator[PaperspaceServer]:
    server = PaperspaceServer().start()
    yield server
    server.stop()


@pytest.fixture
def peer(peer_session: PaperspaceServer) -> Iterator[PaperspaceServer]:
    peer_session.reset()
    yield peer_session
    peer_session.reset()


def _cli(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return clirun.run([sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True,
                          env=env or dict(os.environ), cwd=ROOT, timeout=120)


def _ok(*args: str, **kw) -> subprocess.CompletedProcess:
    r = _cli(*args, **kw)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


def _one_error_line(r: subprocess.CompletedProcess, code: str) -> str:
    assert r.returncode != 0, r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert f"[{code}]" in lines[0] and " — " in lines[0]  # message — next step
    return lines[0]


def _host(instance_id: str) -> dict:
    [host] = [h for h in json.loads(_ok("hosts", "ls", "--json").stdout) if h.get("instance_id") == instance_id]
    return host


def _guard_stops(instance_id: str) -> str:
    """`labgpu watch` with a max-runtime guard of about one second: the kind of event it ends with."""
    watch = subprocess.Popen([sys.executable, "-m", "app", "watch", "--json", "--period", "0.2"], cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    kind = ""
    try:
        assert watch.stdout is not None
        deadline = time.monotonic() + 120
        while not kind and time.monotonic() < deadline:
            line = watch.stdout.readline()
            if not line:
                break
            ev = json.loads(line)
            if ev.get("target_id") == instance_id and ev["kind"] in ("stopped", "stop-failed", "stop-refused",
                                                                     "terminated"):
                kind = ev["kind"]
    finally:
        watch.terminate()
        watch.wait(timeout=60)
        if watch.stdout:
            watch.stdout.close()
        if watch.stderr:
            watch.stderr.close()
    return kind


def test_full_paperspace_flow_and_no_key_anywhere(secret_service, peer, labgpu_home):
    _ok("accounts", "add", "paperspace", "lab", "--region", "ny2", "--endpoint", peer.endpoint,
        stdin=f"{TEST_API_KEY}\n")  # an API key alone: one line
    [acc] = json.loads(_ok("accounts", "ls", "--json").stdout)
    assert (acc["provider"], acc["region"], acc["endpoint"]) == ("paperspace", "ny2", peer.endpoint)
    assert f"Paperspace team {TEST_TEAM}" in _ok("accounts", "test", "lab").stdout
    assert [c.path for c in peer.calls] == ["/v1/auth/session"] and peer.calls[0].authorized

    # A wrong key: the peer's 401, one line with the API's code and the next step.
    _ok("accounts", "add", "paperspace", "bad", "--region", "ny2", "--endpoint", peer.endpoint,
        stdin="ps-not-the-key\n")
    assert "API key" in _one_error_line(_cli("accounts", "test", "bad"), "UNAUTHORIZED")
    _ok("accounts", "rm", "bad")
    # the public IP type is an account setting, checked before anything is stored
    _one_error_line(_cli("accounts", "add", "paperspace", "fixed", "--region", "ny2", "--public-ip-type", "fixed",
                         stdin=f"{TEST_API_KEY}\n"), "BadSetting")

    # Prices: the API publishes none, so the refresh says so and the offers keep the catalog's, with their age.
    line = _one_error_line(_cli("prices", "refresh", "--account", "lab"), "NoPriceApi")
    assert "bundled catalog" in line
    offers = {o["instance_type"]: o for o in json.loads(_ok("offers", "--provider", "paperspace", "--json").stdout)}
    assert offers[A100]["price_on_demand"] == 3.18 and offers[A100]["currency"] == "USD"
    assert not offers[A100]["live"] and offers["V100"]["price_date"] == "2026-09-20"
    table = _ok("offers", "--provider", "paperspace").stdout
    assert "2026-09-20" in table and "undated" in table  # the price_age column: a dated price and a snapshot

    # Launch: no A100-80G in ny2 right now, so ca1; the key goes in with a run-once startup script.
    peer.no_capacity("ny2", A100)
    r = _ok("launch", "--account", "lab", "--type", A100, "--ssh-from", SSH_FROM, "--json", "--progress")
    inst = json.loads(r.stdout)
    assert (inst["provider"], inst["spot"], inst["state"], inst["zone"]) == ("paperspace", False, "running", "ca1")
    zone_lines = [ln for ln in r.stderr.splitlines() if ln.startswith("[zone]")]
    assert zone_lines and "ny2" in zone_lines[0] and "ca1" in zone_lines[0]
    for step in ("[key]", "[image]", "[request]", "[wait]"):
        assert step in r.stderr
    assert [c.query["region"] for c in peer.calls if c.path == "/v1/machine-availability"] == ["ny2", "ca1"]
    [body] = peer.requests("POST", "/v1/machines")
    assert (body["region"], body["templateId"], body["publicIpType"]) == ("ca1", "tml2204a", "dynamic")
    [script] = peer.scripts.values()
    assert script["script"].count("ssh-") == 1 and body["startupScriptId"] == script["id"]

    [row] = json.loads(_ok("ls", "--json").stdout)
    assert row["id"] == inst["id"] and row["public_ip"] and row["started_at"]
    assert (row["price_per_hour"], row["currency"]) == (3.18, "USD")
    assert row["cost_so_far"] is not None and row["cost_so_far"] >= 0
    first_ip = row["public_ip"]
    assert (_host(inst["id"])["hostname"], _host(inst["id"])["user"]) == (first_ip, "paperspace")

    # A guard's stop: the max-runtime guard ends the bill; the disk (and a static IP) still bill, said by stop.
    _ok("guard", "set", inst["id"], "--max-hours", "0.0003")  # about one second
    assert _guard_stops(inst["id"]) == "stopped"
    assert peer.machines[inst["id"]].state == "off" and not peer.machines[inst["id"]].public_ip
    audit = json.loads(_ok("audit", "--json", "--limit", "200").stdout)
    assert any(a["action"] == "guard-stop" and a["resource"] == inst["id"] and a["result"].startswith("ok")
               for a in audit)
    _ok("guard", "rm", inst["id"])

    # Start: a dynamic IP is new on every start; the instance's host follows it.
    _ok("start", inst["id"])
    [row] = json.loads(_ok("ls", "--json").stdout)
    assert row["state"] == "running" and row["public_ip"] and row["public_ip"] != first_ip
    assert row["public_ip"] == peer.machines[inst["id"]].public_ip
    assert _host(inst["id"])["hostname"] == row["public_ip"]

    r = _ok("stop", inst["id"])
    assert "disk still bills" in r.stderr + r.stdout
    _ok("terminate", inst["id"])
    assert peer.machines[inst["id"]].deleted
    assert {x["state"] for x in json.loads(_ok("ls", "--json").stdout)} <= {"terminating", "terminated"}

    # Errors: one stderr line with the API's code and the next step.
    peer.fail_next("POST", "/v1/machines", 412, "PRECONDITION_FAILED", "This machine type requires approval")
    line = _one_error_line(_cli("launch", "--account", "lab", "--type", A100, "--zone", "ams1",
                                "--ssh-from", SSH_FROM), "PRECONDITION_FAILED")
    assert "approval" in line
    peer.fail_next("GET", "/v1/auth/session", 429, "TOO_MANY_REQUESTS", "slow down", times=2)  # retried, not shown
    _ok("accounts", "test", "lab")

    _ok("accounts", "rm", "lab")
    files = [p for p in labgpu_home.rglob("*") if p.is_file()]
    assert any(p.suffix == ".log" for p in files)
    for p in files:
        assert TEST_API_KEY.encode() not in p.read_bytes(), f"the API key found in {p}"


def test_import_from_the_pspace_files_and_the_environment(secret_service, peer, labgpu_home, tmp_path):
    """`labgpu accounts import paperspace` reads ~/.paperspace (what `pspace login` wrote: the current team's key
    first) and PAPERSPACE_API_KEY; the keys go to the keyring and are found in no file LabGPU wrote."""
    home = tmp_path / "home"
    (home / ".paperspace").mkdir(parents=True)
    (home / ".paperspace" / "credentials.toml").write_text(f'version = 1\n\n[keys]\n{TEST_TEAM} = "{TEST_API_KEY}"\n')
    (home / ".paperspace" / "config.toml").write_text(f'version = 1\nteam = "{TEST_TEAM}"\n')
    env = dict(os.environ, HOME=str(home), PAPERSPACE_API_KEY="ps-env-key-000000000000",
               PAPERSPACE_API_URL=peer.endpoint)
    _ok("accounts", "import", "paperspace", env=env)
    accounts = {a["name"]: a for a in json.loads(_ok("accounts", "ls", "--json").stdout)}
    assert set(accounts) == {f"paperspace-{TEST_TEAM}", "paperspace-env"}
    assert all(a["provider"] == "paperspace" and a["region"] == "ny2" and a["endpoint"] == peer.endpoint
               for a in accounts.values())
    assert TEST_TEAM in _ok("accounts", "test", f"paperspace-{TEST_TEAM}").stdout
    for p in labgpu_home.rglob("*"):
        if p.is_file():
            data = p.read_bytes()
            assert TEST_API_KEY.encode() not in data and b"ps-env-key" not in data, p
