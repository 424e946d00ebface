"""The cloud CLI as a user (or a script) runs it, against moto behind the fault proxy, with a real
Secret Service. Ends with a scan of every file LabGPU wrote for the secret values."""

from __future__ import annotations

import csv
import json
import os
import sys
from pathlib import Path

from tests.fixtures import clirun
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

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
    assert r.returncode != 0
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert f"[{code}]" in lines[0]
    assert " — " in lines[0]
    return lines[0]


def test_full_aws_flow_and_no_secret_anywhere(secret_service, aws_proxy, moto, labgpu_home, tmp_path):
    _ok(
        "accounts",
        "add",
        "aws",
        "lab",
        "--region",
        "us-east-1",
        "--endpoint",
        aws_proxy.url,
        stdin=f"{AWS_KEY_ID}\n{AWS_SECRET}\n",
    )
    [acc] = json.loads(_ok("accounts", "ls", "--json").stdout)
    assert acc["name"] == "lab"
    assert acc["key_id"] == "AKIA…0001"
    assert acc["endpoint"] == aws_proxy.url
    assert "connection ok: arn:aws:" in _ok("accounts", "test", "lab").stdout

    r = _ok("prices", "refresh", "--account", "lab", "--type", "g5.xlarge", "--type", "g4dn.xlarge", "--json")
    offers = json.loads(r.stdout)
    assert {o["instance_type"] for o in offers} == {"g5.xlarge", "g4dn.xlarge"}
    assert all(o["live"] and o["fetched_at"] for o in offers)

    r = _ok(
        "launch",
        "--account",
        "lab",
        "--type",
        "g5.xlarge",
        "--spot",
        "--ssh-from",
        "198.51.100.7/32",
        "--json",
        "--progress",
    )
    spot = json.loads(r.stdout)
    assert spot["spot"] is True
    assert spot["state"] == "running"
    assert any("PyTorch" in n for n in spot["notes"])  # says which image it picked
    for step in ("[key]", "[security_group]", "[image]", "[request]", "[wait]"):
        assert step in r.stderr
    assert aws_proxy.params("RunInstances")[-1]["InstanceMarketOptions.SpotOptions.MaxPrice"] == "0.8048"
    r = _ok("launch", "--account", "lab", "--type", "g4dn.xlarge", "--ssh-from", "198.51.100.7/32", "--json")
    assert r.stderr == ""  # no progress chatter for scripts
    od = json.loads(r.stdout)
    assert od["spot"] is False
    assert od["price_per_hour"] == 0.526
    assert od["currency"] == "USD"

    rows = json.loads(_ok("ls", "--json").stdout)
    assert {x["id"] for x in rows} == {spot["id"], od["id"]}
    for x in rows:
        assert set(x) >= LS_FIELDS
        assert x["provider"] == "aws"
        assert x["public_ip"]
        assert x["cost_so_far"] is not None
        assert x["started_at"]
    assert "COST SO FAR" in _ok("ls").stdout

    r = _ok("stop", od["id"])
    assert "EBS" in r.stderr
    assert od["id"] in r.stdout
    _ok("start", od["id"])
    for iid in (spot["id"], od["id"]):
        _ok("terminate", iid)
    states = {x["id"]: x["state"] for x in json.loads(_ok("ls", "--json").stdout)}
    assert set(states.values()) <= {"terminating", "terminated"}

    export = tmp_path / "audit.csv"
    _ok("audit", "--csv", str(export))
    with export.open(encoding="utf-8") as fh:
        audit = list(csv.DictReader(fh))
    actions = [a["action"] for a in audit]
    assert actions.count("launch") == 2
    assert actions.count("terminate") == 2
    assert "stop" in actions
    assert all(a["account"] == "lab" and a["time"] for a in audit)
    assert all(a["request_id"] for a in audit if a["action"] in ("launch", "stop", "start", "terminate"))

    # Errors: one stderr line with the provider's code and the next step.
    aws_proxy.inject(
        "RunInstances",
        "VcpuLimitExceeded",
        "You have requested more vCPU capacity than your "
        "current vCPU limit of 0 allows for the instance bucket that the specified instance type "
        "belongs to.",
    )
    line = _one_error_line(
        _cli("launch", "--account", "lab", "--type", "g5.xlarge", "--ssh-from", "198.51.100.7/32"),
        "VcpuLimitExceeded",
    )
    assert "Running On-Demand G and VT instances" in line
    env = dict(os.environ, LABGPU_PUBLIC_IP_URLS="http://127.0.0.1:9/")
    line = _one_error_line(
        _cli("launch", "--account", "lab", "--type", "g5.xlarge", env=env), "PublicAddressUnknown"
    )
    assert "--ssh-from" in line
    _one_error_line(_cli("start", "i-doesnotexist"), "NoSuchInstance")

    _ok("accounts", "rm", "lab")
    assert json.loads(_ok("accounts", "ls", "--json").stdout) == []

    # The scan: every file under LABGPU_HOME (database, WAL, settings, caches, logs) and the export.
    files = [p for p in labgpu_home.rglob("*") if p.is_file()] + [export]
    assert any(p.suffix == ".log" for p in files)
    assert any("sqlite" in p.name for p in files)
    for p in files:
        data = p.read_bytes()
        for secret in (AWS_SECRET, AWS_KEY_ID):
            assert secret.encode() not in data, f"{secret[:4]}… found in {p}"


def test_secrets_never_from_argv():
    r = _cli("accounts", "add", "aws", "x", "--region", "us-east-1", "--secret", "abc")
    assert r.returncode != 0
    assert "unrecognized arguments" in r.stderr


def test_add_needs_two_lines_on_stdin(secret_service, labgpu_home):
    _one_error_line(
        _cli("accounts", "add", "aws", "x", "--region", "us-east-1", stdin=f"{AWS_KEY_ID}\n"), "MissingSecret"
    )


def test_import_aws_profile(secret_service, labgpu_home, tmp_path):
    creds = tmp_path / "credentials"
    creds.write_text(f"[lab]\naws_access_key_id = {AWS_KEY_ID}\naws_secret_access_key = {AWS_SECRET}\n")
    env = dict(os.environ, AWS_SHARED_CREDENTIALS_FILE=str(creds), AWS_CONFIG_FILE=str(tmp_path / "none"))
    for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        env.pop(k, None)
    assert "added aws-lab" in _ok("accounts", "import-aws", "--profile", "lab", env=env).stdout
    assert [a["name"] for a in json.loads(_ok("accounts", "ls", "--json").stdout)] == ["aws-lab"]


def test_ls_exit_3_when_a_cloud_cannot_be_asked(secret_service, labgpu_home):
    _ok(
        "accounts",
        "add",
        "aws",
        "down",
        "--region",
        "us-east-1",
        "--endpoint",
        "http://127.0.0.1:9",
        stdin=f"{AWS_KEY_ID}\n{AWS_SECRET}\n",
    )
    r = _cli("ls", "--json", env=dict(os.environ, LABGPU_AWS_MAX_ATTEMPTS="1"))
    assert r.returncode == 3
    assert json.loads(r.stdout) == []
    assert "account down not refreshed" in r.stderr
    assert "[NetworkError]" in r.stderr


def test_prices_refresh_goes_on_when_one_account_fails(secret_service, moto, labgpu_home):
    for name, url in (("down", "http://127.0.0.1:9"), ("up", moto.url)):
        _ok(
            "accounts",
            "add",
            "aws",
            name,
            "--region",
            "us-east-1",
            "--endpoint",
            url,
            stdin=f"{AWS_KEY_ID}\n{AWS_SECRET}\n",
        )
    r = _cli(
        "prices",
        "refresh",
        "--type",
        "g5.xlarge",
        "--json",
        env=dict(os.environ, LABGPU_AWS_MAX_ATTEMPTS="1"),
    )
    assert r.returncode == 3
    assert {o["instance_type"] for o in json.loads(r.stdout)} == {"g5.xlarge"}
    assert "account down: [NetworkError]" in r.stderr


def test_add_prompts_without_echo_on_a_terminal(secret_service, labgpu_home):
    """On a terminal the secrets are prompted for (getpass: not echoed, not in argv)."""
    import pty
    import select
    import time

    pid, fd = pty.fork()
    if pid == 0:  # child: the CLI with the pty as its controlling terminal
        os.chdir(ROOT)
        os.execve(
            sys.executable,
            [sys.executable, "-m", "app", "accounts", "add", "aws", "tty", "--region", "us-east-1"],
            dict(os.environ),
        )
    out = b""
    # Answer each prompt only once it is shown (typed-ahead input is echoed by any terminal).
    answers = [
        (b"Access key id:", f"{AWS_KEY_ID}\n".encode()),
        (b"Secret access key:", f"{AWS_SECRET}\n".encode()),
        (b"Session token", b"\n"),
    ]
    deadline = time.monotonic() + 30
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            while answers and answers[0][0] in out and out.rstrip().endswith(b":"):
                os.write(fd, answers.pop(0)[1])
    finally:
        for _ in range(100):  # never hang the suite on a child that waits for input
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.1)
        else:
            os.kill(pid, 9)
            _, status = os.waitpid(pid, 0)
        os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 0, out
    text = out.decode("utf-8", "replace")
    assert "Access key id:" in text
    assert "Secret access key:" in text
    assert "added aws account tty" in text
    assert AWS_SECRET not in text
    assert AWS_KEY_ID not in text
    [acc] = json.loads(_ok("accounts", "ls", "--json").stdout)
    assert acc["key_id"] == "AKIA…0001"


def test_watch_ends_the_bill_of_aws_spot_instances(secret_service, moto, labgpu_home):
    """`labgpu watch` with a max-runtime guard on two AWS spot instances, against moto behind the strict
    EC2 proxy: the one LabGPU launches (persistent request) is stopped; a one-time one (an older
    LabGPU's, which AWS refuses to stop) is terminated. Neither bills compute afterwards, and the audit
    log says which."""
    import subprocess as sp
    import time

    _ok("accounts", "add", "aws", "lab", "--region", "us-east-1", "--endpoint", moto.url,
        stdin=f"{AWS_KEY_ID}\n{AWS_SECRET}\n")
    r = _ok("launch", "--account", "lab", "--type", "g5.xlarge", "--spot", "--max-price", "0.9",
            "--ssh-from", "198.51.100.7/32")
    assert "persistent spot request" in r.stdout  # the rule, said at launch
    persistent = json.loads(_ok("ls", "--json").stdout)[0]["id"]
    legacy = moto.ec2().run_instances(
        ImageId="ami-0ub0000000000c3", MinCount=1, MaxCount=1, InstanceType="g5.xlarge",
        InstanceMarketOptions={"MarketType": "spot", "SpotOptions": {"SpotInstanceType": "one-time"}},
        TagSpecifications=[{"ResourceType": "instance", "Tags": [{"Key": "labgpu", "Value": "1"}]}],
    )["Instances"][0]["InstanceId"]
    assert {x["id"] for x in json.loads(_ok("ls", "--json").stdout)} == {persistent, legacy}
    for iid in (persistent, legacy):
        _ok("guard", "set", iid, "--max-hours", "0.0003")  # about one second

    watch = sp.Popen([sys.executable, "-m", "app", "watch", "--json", "--period", "0.2"], cwd=ROOT,
                     stdout=sp.PIPE, stderr=sp.PIPE, text=True, env=dict(os.environ))
    done: dict[str, str] = {}
    try:
        assert watch.stdout is not None
        deadline = time.monotonic() + 120
        while len(done) < 2 and time.monotonic() < deadline:
            line = watch.stdout.readline()
            if not line:
                break
            ev = json.loads(line)
            if ev["kind"] in ("stopped", "terminated", "stop-failed", "stop-refused", "terminate-failed"):
                done[ev["target_id"]] = ev["kind"]
                if ev["kind"] == "terminated":
                    assert "AWS cannot stop a one-time spot instance" in ev["message"]
    finally:
        watch.terminate()
        watch.wait(timeout=60)
    assert done == {persistent: "stopped", legacy: "terminated"}

    states = {i["InstanceId"]: i["State"]["Name"]
              for res in moto.ec2().describe_instances(InstanceIds=[persistent, legacy])["Reservations"]
              for i in res["Instances"]}
    assert states[persistent] in ("stopping", "stopped")
    assert states[legacy] in ("shutting-down", "terminated")
    assert moto.strict.request_of(persistent).state == "disabled"
    assert moto.strict.replacements == []
    audit = json.loads(_ok("audit", "--json", "--limit", "500").stdout)
    guard = {(a["resource"], a["result"]) for a in audit if a["action"] == "guard-stop"}
    assert any(res == persistent and result.startswith("ok (max-runtime") for res, result in guard)
    assert (legacy, "terminated: AWS cannot stop a one-time spot instance") in guard
