"""`labgpu launch --max-hours H` hands the maximum runtime to the cloud and says what the cloud accepted: a real
subprocess, the real SDK over HTTP to the local Tencent peer, a real Secret Service."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from tests.fixtures import clirun
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY

ROOT = Path(__file__).resolve().parents[2]
GN7 = "GN7.2XLARGE32"


def _ok(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    r = clirun.run([sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True,
                       env=dict(os.environ), cwd=ROOT, timeout=120)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


def test_launch_max_hours_goes_to_the_cloud_and_json_says_it_is_enforced(secret_service, tencent_server,
                                                                         labgpu_home):
    tencent_server.pending_seconds = 0.05
    _ok("accounts", "add", "tencent", "lab", "--region", "ap-guangzhou", "--endpoint", tencent_server.endpoint,
        stdin=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n")
    doc = json.loads(_ok("launch", "--account", "lab", "--type", GN7, "--ssh-from", "198.51.100.7/32",
                         "--max-hours", "3", "--json").stdout)
    [run] = tencent_server.requests_of("RunInstances")
    sent = datetime.strptime(run["ActionTimer"]["ActionTime"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    assert abs((sent - datetime.now(timezone.utc) - timedelta(hours=3)).total_seconds()) < 120
    backstop = doc["backstop"]
    assert backstop["enforced_by_cloud"] is True and backstop["action"] == "terminate"
    assert datetime.fromisoformat(backstop["at"]) == sent and backstop["reason"] == ""
    assert doc["guard"]["max_hours"] == 3
    assert any("Maximum runtime enforced by the cloud: terminate at" in n for n in doc["notes"])

    plain = _ok("launch", "--account", "lab", "--type", GN7, "--ssh-from", "198.51.100.7/32")  # no --max-hours
    assert "ActionTimer" not in tencent_server.requests_of("RunInstances")[-1]
    assert "enforced by the cloud" not in plain.stdout
    none = json.loads(_ok("launch", "--account", "lab", "--type", GN7, "--ssh-from", "198.51.100.7/32",
                          "--no-guard", "--json").stdout)
    assert none["backstop"] is None and "ActionTimer" not in tencent_server.requests_of("RunInstances")[-1]
