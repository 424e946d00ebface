"""Kill `labgpu launch` right after the cloud accepted the request: the next `labgpu ls` shows it.

The fault proxy in front of moto carries the RunInstances out and holds its answer back: the CLI
process is killed while it waits for it, between "request sent" and "recorded".
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.fixtures import clirun
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args, env, stdin=None, timeout=60):
    return clirun.run(
        [sys.executable, "-m", "app", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=timeout,
    )


def test_killed_launch_is_found_after_restart(secret_service, moto, aws_proxy, labgpu_home):
    env = dict(os.environ)
    r = _cli(
        "accounts",
        "add",
        "aws",
        "lab",
        "--region",
        "us-east-1",
        "--endpoint",
        aws_proxy.url,
        stdin=f"{AWS_KEY_ID}\n{AWS_SECRET}\n",
        env=env,
    )
    assert r.returncode == 0, r.stderr
    hold = aws_proxy.hold_next_answer("RunInstances")  # AWS launches it; the CLI never hears so
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
    [sent] = aws_proxy.params("RunInstances")
    [iid] = [
        i["InstanceId"] for res in moto.ec2().describe_instances()["Reservations"] for i in res["Instances"]
    ]
    offline = _cli("ls", "--offline", "--json", env=env)
    assert json.loads(offline.stdout) == []  # the crash really hit the window before the ledger write
    r = _cli("ls", "--json", env=env)
    assert r.returncode == 0, r.stderr
    [row] = json.loads(r.stdout)
    assert row["id"] == iid
    assert row["account"] == "lab"
    assert row["state"] == "running"
    assert row["client_token"].startswith("lg-")
    assert row["client_token"] == sent["ClientToken"]  # found by the token the killed launch sent
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
