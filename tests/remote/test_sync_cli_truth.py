"""`labgpu sync` says what it did not transfer (issue 8 item 6): special files and symlink loops
are named in the plain output and in --json, the exit status is non-zero; a non-UTF-8 local name
transfers and is recorded in the history; a LOCAL that is a file is called a file; the capability
path chosen shows in --json. Subprocesses against the real sshd, as a script runs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")
T0 = 1_700_000_000


def labgpu(*args: str, timeout: float = 90) -> subprocess.CompletedProcess:
    return subprocess.run(
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


def test_special_files_and_symlink_loops_are_named_and_fail_the_exit_status(sshd, host, tmp_path):
    remote = sshd.remote_dir("cli-truth-special")
    local = tmp_path / "proj"
    (local / "d").mkdir(parents=True)
    (local / "a.txt").write_bytes(b"a")
    os.mkfifo(local / "d" / "pipe")
    os.symlink("loop", local / "loop")
    r = labgpu("sync", str(local), f"{host}:{remote}")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "not transferred: d/pipe — not a regular file" in r.stderr
    assert "not transferred: loop — symbolic link not followed" in r.stderr
    assert "[Incomplete] 2 item(s)" in r.stderr
    assert (remote / "a.txt").read_bytes() == b"a"
    r = labgpu("sync", str(local), f"{host}:{remote}", "--json")
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["complete"] is False
    assert {x["path"] for x in out["not_transferred"]} == {"d/pipe", "loop"}
    assert out["server"]["mode"] == "fast"
    # a dry run lists them too, and stays a preview (exit 0)
    r = labgpu("sync", str(local), f"{host}:{remote}", "--dry-run")
    assert r.returncode == 0 and "not transferred: d/pipe" in r.stderr


def test_non_utf8_local_name_transfers_and_is_recorded(sshd, host, tmp_path):
    remote = sshd.remote_dir("cli-truth-utf8")
    local = tmp_path / "proj"
    local.mkdir()
    bad = os.fsdecode(b"caf\xe9.txt")
    (local / bad).write_bytes(b"latin-1 name")
    r = labgpu("sync", str(local), f"{host}:{remote}", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["files"] == 1
    assert os.path.exists(os.fsencode(remote) + b"/caf\xe9.txt")
    # the bad byte in the LOCAL folder's own name must not break the history either
    local2 = Path(os.fsdecode(os.fsencode(tmp_path) + b"/d\xff"))
    local2.mkdir()
    (local2 / "x").write_bytes(b"x")
    r = labgpu("sync", str(local2), f"{host}:{remote}/two", "--json")
    assert r.returncode == 0, r.stderr
    assert "UnicodeEncodeError" not in r.stderr


def test_local_that_is_a_file_is_called_a_file(sshd, host, tmp_path):
    remote = sshd.remote_dir("cli-truth-file")
    f = tmp_path / "model.bin"
    f.write_bytes(b"x")
    r = labgpu("sync", str(f), f"{host}:{remote}")
    assert r.returncode != 0
    assert "is a file, not a folder" in r.stderr
    assert "does not exist" not in r.stderr
