"""`labgpu launch` with guard options, against the local Tencent CVM peer: the guard is saved by the launch
itself (the same options as `labgpu guard set`), --no-guard launches without one, and a guard that cannot
work is refused before anything is sent."""

from __future__ import annotations

import json

from tests.e2e.instance_support import GN7, cli, ok
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY


def _account(tencent_server) -> None:
    tencent_server.pending_seconds = 0.0
    tencent_server.operation_seconds = 0.05
    ok("accounts", "add", "tencent", "lab", "--region", "ap-guangzhou", "--endpoint", tencent_server.endpoint,
       stdin=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n")


def test_launch_with_idle_stop_saves_the_guard(secret_service, tencent_server, labgpu_home):
    _account(tencent_server)
    r = ok("launch", "--account", "lab", "--type", GN7, "--ssh-from", "198.51.100.7/32", "--idle-stop", "20",
           "--max-hours", "6", "--json")
    doc = json.loads(r.stdout)
    assert doc["guard"]["on_idle"] == "stop" and doc["guard"]["idle_minutes"] == 20.0
    assert doc["watchdog"] == "none"
    [g] = json.loads(ok("guard", "ls", "--json").stdout)
    assert (g["id"], g["on_idle"], g["idle_minutes"], g["max_hours"]) == (doc["id"], "stop", 20.0, 6.0)
    assert g["currency"] == "CNY"  # the budget's currency is the account's billing currency

    plain = ok("launch", "--account", "lab", "--type", GN7, "--ssh-from", "198.51.100.7/32", "--no-guard")
    assert "No guards:" in plain.stdout
    assert len(json.loads(ok("guard", "ls", "--json").stdout)) == 1


def test_a_guard_that_cannot_work_is_refused_before_the_launch(secret_service, tencent_server, labgpu_home):
    _account(tencent_server)
    r = cli("launch", "--account", "lab", "--type", GN7, "--ssh-from", "198.51.100.7/32", "--idle-below", "500")
    assert r.returncode != 0 and "[guard-value]" in r.stderr
    both = cli("launch", "--account", "lab", "--type", GN7, "--ssh-from", "198.51.100.7/32", "--no-guard",
               "--idle-stop", "5")
    assert both.returncode != 0 and "[NoGuardWithOptions]" in both.stderr and "--idle-stop" in both.stderr
    assert tencent_server.requests_of("RunInstances") == []
