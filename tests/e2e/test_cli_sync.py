"""`labgpu sync LOCAL NAME:REMOTE …` as a script runs it (subprocesses), to a host added with
`labgpu hosts add`, against the real sshd."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun
from tests.fixtures.terminal import sigint_as_in_a_terminal
from tests.fixtures.waits import wait_for

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")
T0 = 1_700_000_000


def labgpu(*args: str, timeout: float = 90) -> subprocess.CompletedProcess:
    return clirun.run(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ),
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture
def host(sshd):
    cmd = f"ssh -p {sshd.port} -i {sshd.client_key} {sshd.user}@{sshd.host}"
    r = labgpu("hosts", "add", "gpu1", cmd, "--fingerprint", sshd.host_key_fingerprint)
    assert r.returncode == 0, r.stderr
    return "gpu1"


def _tree(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
        os.utime(p, (T0, T0))


def test_sync_up_json_resync_dry_run_delete_and_down(sshd, host, tmp_path):
    remote = sshd.remote_dir("cli-sync")
    local = tmp_path / "proj"
    _tree(
        local,
        {
            "train.py": b"print('hi')\n",
            "data/a.csv": b"1,2\n" * 100,
            ".git/HEAD": b"ref",
            "out/x.log": b"log",
        },
    )
    r = labgpu("sync", str(local), f"{host}:{remote}", "--json", "--exclude", "*.log")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)  # exactly one JSON object on stdout
    assert (s["files"], s["bytes"], s["skipped"], s["deleted"], s["conflicts"]) == (2, 412, 0, 0, 0)
    assert s["seconds"] >= 0
    assert sorted(str(p.relative_to(remote)) for p in remote.rglob("*") if p.is_file()) == [
        "data/a.csv",
        "train.py",
    ]
    assert os.stat(remote / "train.py").st_mtime == T0

    r = labgpu("sync", str(local), f"{host}:{remote}", "--json", "--exclude", "*.log")
    assert (json.loads(r.stdout)["files"], json.loads(r.stdout)["skipped"]) == (0, 2)

    # a stale remote file: dry-run previews the deletion, then --delete does it
    (remote / "stale.bin").write_bytes(b"s")
    r = labgpu("sync", str(local), f"{host}:{remote}", "--delete", "--dry-run", "--exclude", "*.log")
    assert r.returncode == 0, r.stderr
    assert "stale.bin" in r.stdout
    assert "delete" in r.stdout
    assert (remote / "stale.bin").exists()
    r = labgpu("sync", str(local), f"{host}:{remote}", "--delete", "--json", "--exclude", "*.log")
    assert json.loads(r.stdout)["deleted"] == 1
    assert not (remote / "stale.bin").exists()

    down = tmp_path / "back"
    r = labgpu("sync", str(down), f"{host}:{remote}", "--down", "--verify", "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["files"] == 2
    assert s["verified"] == 2
    assert (down / "data/a.csv").read_bytes() == b"1,2\n" * 100


def test_sync_conflict_is_reported_and_kept(sshd, host, tmp_path):
    remote = sshd.remote_dir("cli-conflict")
    local = tmp_path / "p"
    _tree(local, {"n.txt": b"old"})
    (remote / "n.txt").write_bytes(b"newer on server")
    os.utime(remote / "n.txt", (T0 + 60, T0 + 60))
    r = labgpu("sync", str(local), f"{host}:{remote}", "--json")
    assert r.returncode == 0
    s = json.loads(r.stdout)
    assert (s["files"], s["conflicts"], s["conflict_paths"]) == (0, 1, ["n.txt"])
    assert (remote / "n.txt").read_bytes() == b"newer on server"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["{local}", "nohost:/tmp/x"], "No host named"),
        (["{local}", "no-colon"], "NAME:REMOTE"),
        (["{missing}", "gpu1:/tmp/x"], "does not exist"),
        (["{local}", "gpu1:/nonexistent/labgpu-sync-test", "--down"], "does not exist"),
    ],
)
def test_sync_errors_are_one_clear_line(sshd, host, tmp_path, args, needle):
    (tmp_path / "l").mkdir()
    argv = [a.format(local=tmp_path / "l", missing=tmp_path / "missing") for a in args]
    r = labgpu("sync", *argv)
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert needle in lines[0]
    assert r.stdout == ""


def test_ctrl_c_stops_cleanly_without_partial_final_file(gated_sshd, tmp_path):
    """Ctrl+C while the upload is in flight: the test's SFTP gate holds it after 2 MiB, so the
    signal always lands mid-transfer; the next run resumes from what the server kept."""
    import signal

    cmd = f"ssh -p {gated_sshd.port} -i {gated_sshd.client_key} {gated_sshd.user}@{gated_sshd.host}"
    r = labgpu("hosts", "add", "gated", cmd, "--fingerprint", gated_sshd.host_key_fingerprint)
    assert r.returncode == 0, r.stderr
    remote = gated_sshd.remote_dir("cli-sigint")
    local = tmp_path / "big"
    local.mkdir()
    data = os.urandom(8 * 1024 * 1024)
    (local / "model.bin").write_bytes(data)
    temps = lambda: sorted(remote.glob(".model.bin.*.labgpu-part"))  # noqa: E731
    gated_sshd.gate.hold(in_bytes=2 * 1024 * 1024)
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", "sync", str(local), f"gated:{remote}"],
        cwd=ROOT,
        env=dict(os.environ),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_as_in_a_terminal,
    )
    try:
        gated_sshd.gate.wait_stalled(1)
        wait_for(lambda: temps() and temps()[0].stat().st_size >= 1024 * 1024, 60, "1 MiB on the server")
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=180)  # an upper bound (the CLI itself gives up after 30 s)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "interrupted" in err
    gated_sshd.cut_sessions()  # no server process of the interrupted run writes after this
    assert not (remote / "model.bin").exists()
    [part] = temps()
    kept = part.stat().st_size
    assert 1024 * 1024 <= kept < len(data)
    # the next run resumes and finishes
    gated_sshd.gate.open()
    r = labgpu("sync", str(local), f"gated:{remote}", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["bytes"] == len(data) - kept
    assert (remote / "model.bin").read_bytes() == data
