"""``labgpu audit --cloud ACCOUNT`` as a user runs it, against the AWS peer (moto behind the strict proxy, which
records each EC2 call as a CloudTrail event and answers LookupEvents), with a real Secret Service."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.fixtures import clirun
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

ROOT = Path(__file__).resolve().parents[2]
FIELDS = {"time", "event", "resources", "actor", "source", "request_id", "by_labgpu", "foreign", "why", "region"}


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return clirun.run([sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True,
                          env=dict(os.environ), cwd=ROOT, timeout=120)


def _ok(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    r = _cli(*args, stdin=stdin)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


def _account(moto) -> str:
    _ok("accounts", "add", "aws", "lab", "--region", "us-east-1", "--endpoint", moto.url,
        stdin=f"{AWS_KEY_ID}\n{AWS_SECRET}\n")
    return json.loads(_ok("launch", "--account", "lab", "--type", "g4dn.xlarge", "--ssh-from", "198.51.100.7/32",
                          "--json").stdout)["id"]


def test_audit_cloud_json_marks_the_foreign_call_and_alerts_it_once(secret_service, moto, labgpu_home):
    iid = _account(moto)
    moto.strict.trail.inject("StopInstances", iid, user="mallory", source_ip="198.51.100.7")
    moto.strict.trail.console_login()

    first = _ok("audit", "--cloud", "lab", "--since", "1h", "--json")
    rows = json.loads(first.stdout)
    assert rows and all(set(r) == FIELDS for r in rows)
    assert all(r["time"].endswith("Z") for r in rows)
    foreign = [(r["event"], r["source"]) for r in rows if r["foreign"]]
    assert sorted(foreign) == [("ConsoleLogin", "203.0.113.99"), ("StopInstances", "198.51.100.7")]
    run = next(r for r in rows if r["event"] == "RunInstances")
    assert run["by_labgpu"] is True and run["foreign"] is False and iid in run["resources"]
    stop = next(r for r in rows if r["foreign"] and r["event"] == "StopInstances")
    assert stop["by_labgpu"] is False and "mallory" in stop["actor"] and stop["why"]

    second = _ok("audit", "--cloud", "lab", "--since", "1h", "--json")
    assert sorted((r["event"], r["source"]) for r in json.loads(second.stdout) if r["foreign"]) == sorted(foreign)
    alerts = [a for a in json.loads(_ok("audit", "--json", "--limit", "500").stdout)
              if a["action"] == "cloud-foreign-call"]
    assert len(alerts) == 2  # the StopInstances and the console login, each once after two runs
    assert {a["resource"] for a in alerts} == {iid, "-"}


def test_audit_cloud_table_says_who_made_each_call(secret_service, moto, labgpu_home):
    iid = _account(moto)
    moto.strict.trail.inject("StopInstances", iid)
    r = _ok("audit", "--cloud", "lab", "--since", "2h")
    assert "Made by LabGPU" in r.stdout and "NOT LABGPU" in r.stdout
    run_line = next(ln for ln in r.stdout.splitlines() if "RunInstances" in ln)
    assert " yes " in f" {run_line} "
    assert "Calls LabGPU did not make: 1 (1 alerted now)" in r.stderr
    again = _ok("audit", "--cloud", "lab", "--since", "2h")
    assert "(0 alerted now)" in again.stderr


def test_audit_cloud_refused_permission_is_one_line_with_the_next_step(secret_service, moto, labgpu_home):
    _account(moto)
    moto.strict.trail.denied = True
    r = _cli("audit", "--cloud", "lab")
    assert r.returncode != 0
    [line] = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert "[AccessDeniedException]" in line and "cloudtrail:LookupEvents" in line and " — " in line


def test_audit_without_cloud_is_the_local_log(secret_service, moto, labgpu_home):
    _account(moto)
    rows = json.loads(_ok("audit", "--json").stdout)
    assert "launch" in {r["action"] for r in rows}
