"""`labgpu run / jobs / logs` as a student types them, each a new process (an app restart every time),
against a real sshd running the training stand-in (real tqdm bars, tensorboardX event files)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun
from tests.fixtures.waits import wait_for
from tests.remote.jobs_support import jobs_server, saved, standin

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")


def labgpu(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return clirun.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ), stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def server():
    with jobs_server() as srv:
        yield srv


@pytest.fixture
def host(server):
    with saved(server, "trainbox") as name:
        yield name, server


def _jobs(name: str) -> dict[str, dict]:
    r = labgpu("jobs", name, "--json")
    assert r.returncode == 0, r.stderr
    return {j["id"]: j for j in json.loads(r.stdout)}


def _until_ended(name: str, job_id: str) -> dict:
    return wait_for(lambda: (lambda j: j if j["state"] != "running" else None)(_jobs(name)[job_id]), 180,
                    f"job {job_id} to end", interval=0.5)


def _printed_rate(job_id: str) -> float:
    r = labgpu("logs", job_id)
    assert r.returncode == 0, r.stderr
    m = re.search(r"standin: \d+ steps in [\d.]+ s = ([\d.]+) steps/s", r.stdout)
    assert m, r.stdout[-2000:]
    return float(m.group(1))


def test_run_survives_a_cut_connection_and_reports_exit_0_with_steps_per_s(host, host_tmp):
    name, server = host
    gate = host_tmp("labgpu-cli-gate")
    r = labgpu("run", name, "--name", "bert", "--then", "pull", "--stall-minutes", "30", "--",
               *standin("--steps", "60", "--sleep", "0.05", "--hold", gate, "--echo-argv"))  # "ARGV []", then holds
    assert r.returncode == 0, r.stderr
    job_id = r.stdout.split()[0]
    assert re.fullmatch(r"[0-9a-f]{16}", job_id) and "started on trainbox (tmux)" in r.stdout
    follower = subprocess.Popen([sys.executable, "-m", "app", "logs", job_id, "-f"], cwd=ROOT, env=dict(os.environ),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        listed = _jobs(name)[job_id]  # a new process: the store and the host agree it runs
        assert listed["state"] == "running" and listed["exit_code"] is None and listed["then"] == "pull"
        # the log's first line ("ARGV []", printed before the gate) has come through: `labgpu logs -f` is
        # connected and reading, not still starting (a cut during its first handshake is a failed start, not
        # the cut this test is about)
        assert follower.stdout is not None
        first = follower.stdout.readline()
        assert first.startswith("ARGV"), (first, follower.communicate(timeout=60)[1])
        assert server.drop_connections() > 0  # every connection is cut mid-run
        assert _jobs(name)[job_id]["state"] == "running"  # the job did not go with them
        Path(gate).touch()
        out, err = follower.communicate(timeout=180)
        out = first + out
    finally:
        if follower.poll() is None:
            follower.kill()
            follower.wait()
    assert follower.returncode == 0, err  # it connected again and read on from where it was
    assert "standin: 60 steps" in out and "60/60" in out
    assert "\r" not in out and "\\x0d" not in out  # each bar update on its own line, no escaped CR either
    done = _until_ended(name, job_id)
    assert done["state"] == "exited" and done["exit_code"] == 0
    assert done["name"] == "bert" and done["host"] == name and done["started"].endswith("Z")
    assert done["runtime_s"] >= 3  # 60 × 0.05 s
    assert done["step"] == 60 and done["total"] == 60 and "steps/s" in done["last_line"]
    printed = _printed_rate(job_id)
    assert done["steps_per_s"] == pytest.approx(printed, rel=0.10)
    for key in ("id", "name", "host", "state", "exit_code", "steps_per_s", "eta_s", "started", "last_line"):
        assert key in done


def test_steps_per_s_while_it_runs(host):
    name, _server = host
    r = labgpu("run", name, "--json", "--", *standin("--steps", "2000", "--sleep", "0.05"))
    job = json.loads(r.stdout)
    try:
        now = wait_for(lambda: (lambda j: j if (j["step"] or 0) >= 60 else None)(_jobs(name)[job["id"]]), 180,
                       "60 steps", interval=0.5)
        assert now["state"] == "running" and now["total"] == 2000 and now["eta_s"] > 0
        # the rate tqdm printed on the line LabGPU read (the job goes on meanwhile: under load its rate moves,
        # so the log's LAST line, read later, may print another one)
        at_read = [float(x) for x in re.findall(r"([\d.]+)it/s", now["last_line"])]
        assert at_read and now["steps_per_s"] == pytest.approx(at_read[-1], rel=0.10), now["last_line"]
        log_lines = labgpu("logs", job["id"]).stdout.splitlines()  # the log so far, each bar update a line
        assert now["last_line"].strip() in {ln.strip() for ln in log_lines}, (now["last_line"], log_lines[-5:])
    finally:
        labgpu("jobs", "stop", job["id"], "--grace", "0")


def test_tensorboard_steps_are_read(host, host_tmp):
    name, _server = host
    tb = os.path.basename(host_tmp("labgpu-tb"))
    r = labgpu("run", name, "--workdir", "/tmp", "--tb-logdir", tb, "--",
               *standin("--steps", "30", "--sleep", "0.02", "--no-bar", "--tb-logdir", f"/tmp/{tb}"))
    assert r.returncode == 0, r.stderr
    done = _until_ended(name, r.stdout.split()[0])
    assert done["state"] == "exited" and done["exit_code"] == 0 and done["step"] == 30  # from the events alone


def test_a_command_runs_exactly_as_typed_and_stop_ends_it(host):
    name, _server = host
    r = labgpu("run", name, "--", "sh", "-c", 'printf "%s|%s\\n" "$0" "$1"; exit 3', "a 'b' \"c\"", "$HOME; ls")
    assert r.returncode == 0, r.stderr
    job_id = r.stdout.split()[0]
    done = _until_ended(name, job_id)
    assert done["exit_code"] == 3
    r = labgpu("logs", job_id[:6])
    assert r.stdout == "a 'b' \"c\"|$HOME; ls\n"
    r = labgpu("run", name, "--json", "--", "sleep", "600")
    job = json.loads(r.stdout)
    assert job["state"] == "running" and job["exit_code"] is None
    r = labgpu("jobs", "stop", job["id"], "--grace", "20")
    assert r.returncode == 0, r.stderr
    assert "exited 143" in r.stdout
    assert _jobs(name)[job["id"]]["exit_code"] == 143


def test_a_hosts_escapes_are_shown_not_obeyed(host):
    name, _server = host
    evil = "\x1b]52;c;cm0gLXJmIH4vKg==\x07\x1b[2J\rbar 50%\n"
    r = labgpu("run", name, "--", "printf", "%s", evil)
    job_id = r.stdout.split()[0]
    _until_ended(name, job_id)
    logs = labgpu("logs", job_id).stdout
    assert "\x1b" not in logs and "\x07" not in logs and "\\x1b]52" in logs
    table = labgpu("jobs", name).stdout
    assert "\x1b" not in table and job_id in table


def test_bad_input_is_refused_before_anything_runs(host):
    name, _server = host
    for args, code in ((["run", name], "JobNoCommand"), (["run", name, "--name", "x"], "JobNoCommand"),
                       (["run", name, "--stall-minutes", "0", "--", "true"], "JobStall"),
                       (["run", name, "--progress-pattern", "(", "--", "true"], ""),
                       (["logs", "zzzz"], "NoJob"), (["jobs", "stop"], "JobsUsage")):
        r = labgpu(*args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert code in r.stderr and "Traceback" not in r.stderr
    # nothing started (the host's other jobs, another test's, are listed as found there)
    assert [j for j in json.loads(labgpu("jobs", name, "--json").stdout) if j["origin"] == "here"] == []


def test_sync_before_the_start(host, tmp_path):
    name, server = host
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "data.txt").write_text("uploaded before the start\n")
    remote = server.remote_dir("jobs-sync")
    r = labgpu("run", name, "--sync", f"{proj}={remote}", "--workdir", str(remote), "--", "cat", "data.txt")
    assert r.returncode == 0, r.stderr
    assert "Uploading" in r.stderr
    job_id = r.stdout.split()[0]
    assert _until_ended(name, job_id)["exit_code"] == 0
    assert labgpu("logs", job_id).stdout == "uploaded before the start\n"
    r = labgpu("run", name, "--sync", "not-a-pair", "--", "true")
    assert r.returncode == 2 and "JobSyncPair" in r.stderr
