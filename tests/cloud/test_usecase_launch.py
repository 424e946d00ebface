"""The launch journey (app/usecases/launch.py) against the local Tencent CVM peer and moto: the defaults
come from the settings it is given, the price and the zones are looked up once, the guard is saved in
the same workflow, and a crash between "instance created" and "guard saved" loses no guard."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.cloud import pricing
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core.errors import InputError, LabGpuError
from app.core.guards import GuardConfig, GuardStore
from app.core.settings import Settings
from app.usecases.changes import Change, Changes
from app.usecases.guards import WatchdogResult
from app.usecases.launch import launch, plan_launch
from tests.fixtures import clirun
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET
from tests.fixtures.spy import CallCounter
from tests.fixtures.tencent_cvm_server import TYPES

GN7 = "GN7.2XLARGE32"
SSH_FROM = "198.51.100.7/32"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def svc(tencent_service):
    return tencent_service


def _kinds(changes: Changes) -> list[frozenset[Change]]:
    seen: list[frozenset[Change]] = []
    changes.subscribe(seen.append)
    return seen


def test_spot_cap_from_the_given_settings_with_one_price_lookup_and_one_zone_list(svc, tencent_server, monkeypatch):
    svc.refresh_prices("lab", [GN7])
    prices = CallCounter(monkeypatch, pricing, "on_demand_price")
    zones_before = len(tencent_server.requests_of("DescribeZones"))
    settings = Settings(spot_bid_fraction=0.6)
    plan = plan_launch(svc, settings, "lab", GN7)
    assert plan.on_demand == TYPES[GN7][4] and plan.price_source == "live"
    assert plan.default_cap is not None and plan.default_cap.price == round(TYPES[GN7][4] * 0.6, 4)
    assert plan.zones and plan.account.region == "ap-guangzhou"
    out = launch(svc, settings, LaunchOptions(account="lab", instance_type=GN7, spot=True, ssh_from=SSH_FROM),
                 guard=None, plan=plan)
    run = tencent_server.requests_of("RunInstances")[-1]
    assert run["InstanceMarketOptions"]["SpotOptions"]["MaxPrice"] == f"{TYPES[GN7][4] * 0.6:.4f}"
    assert any("60 %" in n for n in out.result.notes)  # the note says the share the launch used
    assert prices.count == 1  # looked up by the plan, handed to CloudService
    assert len(tencent_server.requests_of("DescribeZones")) - zones_before == 1  # the plan's list is the launch's
    assert out.guard is None and GuardStore(svc.store).get(out.result.entry.id) is None


def test_a_zone_list_given_by_the_caller_is_not_asked_for_again(svc, tencent_server):
    before = len(tencent_server.requests_of("DescribeZones"))
    plan = plan_launch(svc, Settings(), "lab", GN7, zones=["ap-guangzhou-4"])
    out = launch(svc, Settings(), LaunchOptions(account="lab", instance_type=GN7, ssh_from=SSH_FROM),
                 guard=None, plan=plan)
    assert out.result.entry.zone == "ap-guangzhou-4"
    assert len(tencent_server.requests_of("DescribeZones")) == before


def test_the_guard_is_saved_in_the_same_workflow_and_views_are_told(svc):
    changes = Changes()
    seen = _kinds(changes)
    cfg = GuardConfig(idle_minutes=20, on_idle="stop", budget=50.0, currency="CNY")
    out = launch(svc, Settings(), LaunchOptions(account="lab", instance_type=GN7, ssh_from=SSH_FROM),
                 guard=cfg, changes=changes)
    iid = out.result.entry.id
    assert GuardStore(svc.store).get(iid) == cfg
    assert out.guard is not None and out.guard.watchdog == WatchdogResult.NONE
    assert {Change.LEDGER, Change.GUARDS} <= set().union(*seen)
    assert svc.pending.unapplied_guards() == []  # applied: nothing left for the recovery


def test_an_unreachable_instance_gets_its_guard_without_the_watchdog_and_says_so(svc):
    def unreachable(target: str):
        raise LabGpuError("Connection refused by {host}.", host=target)

    cfg = GuardConfig(idle_minutes=15, on_idle="stop", watchdog=True)
    out = launch(svc, Settings(), LaunchOptions(account="lab", instance_type=GN7, ssh_from=SSH_FROM),
                 guard=cfg, connect=unreachable, reach_timeout_s=0)
    iid = out.result.entry.id
    saved = GuardStore(svc.store).get(iid)
    assert saved is not None and saved.on_idle == "stop" and saved.watchdog is False
    assert out.guard is not None and out.guard.watchdog == WatchdogResult.FAILED
    assert "did not answer over SSH" in out.guard.text() and "Connection refused" in out.guard.text()


def test_a_guard_that_cannot_work_sends_nothing(svc, tencent_server):
    with pytest.raises(InputError):
        launch(svc, Settings(), LaunchOptions(account="lab", instance_type=GN7, ssh_from=SSH_FROM),
               guard=GuardConfig(idle_below_pct=500))
    assert tencent_server.requests_of("RunInstances") == []


def test_guard_recorded_with_the_launch_is_applied_by_the_recovery(svc, labgpu_home):
    # The launch reached the cloud and the ledger, then LabGPU stopped before the guard step.
    cfg = GuardConfig(idle_minutes=25, on_idle="stop")
    res = svc.launch(LaunchOptions(account="lab", instance_type=GN7, ssh_from=SSH_FROM, guard=cfg))
    assert GuardStore(svc.store).get(res.entry.id) is None
    again = CloudService()  # the restart
    try:
        again.reconcile()
        assert GuardStore(again.store).get(res.entry.id) == cfg
        assert "recover-guard" in [a.action for a in again.audit.list()]
        assert again.pending.unapplied_guards() == []
    finally:
        again.close()


def test_killed_launch_with_idle_stop_is_guarded_after_restart(secret_service, moto, aws_proxy, labgpu_home):
    """`labgpu launch --idle-stop 30` killed while the cloud's answer to RunInstances is held back: the
    instance exists, nothing was recorded but the pending launch; the next `labgpu ls` finds it and the
    guard chosen at launch is on it."""
    env = dict(os.environ)

    def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return clirun.run([sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True,
                              env=env, cwd=ROOT, timeout=60)

    r = cli("accounts", "add", "aws", "lab", "--region", "us-east-1", "--endpoint", aws_proxy.url,
            stdin=f"{AWS_KEY_ID}\n{AWS_SECRET}\n")
    assert r.returncode == 0, r.stderr
    hold = aws_proxy.hold_next_answer("RunInstances")
    p = subprocess.Popen([sys.executable, "-m", "app", "launch", "--account", "lab", "--type", "g5.xlarge",
                          "--ssh-from", SSH_FROM, "--idle-stop", "30", "--budget", "40", "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
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
    assert json.loads(cli("guard", "ls", "--json").stdout) == []  # killed before any guard was saved
    r = cli("ls", "--json")
    assert r.returncode == 0, r.stderr
    [row] = json.loads(r.stdout)
    [g] = json.loads(cli("guard", "ls", "--json").stdout)
    assert g["id"] == row["id"]
    assert (g["on_idle"], g["idle_minutes"], g["budget"], g["currency"]) == ("stop", 30.0, 40.0, "USD")
