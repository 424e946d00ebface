"""Kill `labgpu launch` right after the cloud accepted the request: the next `labgpu ls` shows it."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args, env, stdin=None, timeout=60):
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=timeout,
    )


def test_killed_launch_is_found_after_restart(secret_service, moto, labgpu_home):
    env = dict(os.environ)
    r = _cli(
        "accounts",
        "add",
        "aws",
        "lab",
        "--region",
        "us-east-1",
        "--endpoint",
        moto.url,
        stdin=f"{AWS_KEY_ID}\n{AWS_SECRET}\n",
        env=env,
    )
    assert r.returncode == 0, r.stderr
    env["LABGPU_TEST_PAUSE_AFTER_REQUEST"] = "60"  # the launch stops between "sent" and "recorded"
    p = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "app",
            "launch",
            "--account",
            "lab",
            "--type",
            "g5.xlarge",
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
    seen, iid = [], ""
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and not iid:
            ready, _, _ = select.select([p.stderr], [], [], 1)
            if ready:
                line = p.stderr.readline()
                if not line:
                    break
                seen.append(line)
                if "request sent:" in line:
                    iid = line.rsplit(":", 1)[1].strip()
    finally:
        p.kill()
        p.wait(10)
        p.stdout.close()
        p.stderr.close()
    assert iid.startswith("i-"), seen
    del env["LABGPU_TEST_PAUSE_AFTER_REQUEST"]
    offline = _cli("ls", "--offline", "--json", env=env)
    assert json.loads(offline.stdout) == []  # the crash really hit the window before the ledger write
    r = _cli("ls", "--json", env=env)
    assert r.returncode == 0, r.stderr
    [row] = json.loads(r.stdout)
    assert row["id"] == iid
    assert row["account"] == "lab"
    assert row["state"] == "running"
    assert row["client_token"].startswith("lg-")
    ids = [
        i["InstanceId"] for res in moto.ec2().describe_instances()["Reservations"] for i in res["Instances"]
    ]
    assert ids == [iid]
    # Retrying the same launch (same token) gives the same instance, not a second one.
    r = _cli(
        "launch",
        "--account",
        "lab",
        "--type",
        "g5.xlarge",
        "--ssh-from",
        "198.51.100.7/32",
        "--client-token",
        row["client_token"],
        "--json",
        env=env,
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["id"] == iid
    assert len(moto.ec2().describe_instances()["Reservations"]) == 1
