"""Smaller CLI fixes, as a user runs them: clear errors instead of tracebacks, hints that name
commands that exist (real sshd)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]


def labgpu(*args: str, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess:
    return clirun.run([sys.executable, "-m", "app", *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=dict(os.environ))


def _add(sshd, name: str) -> None:
    cmd = f"ssh -p {sshd.port} -i {sshd.client_key} {sshd.user}@{sshd.host}"
    r = labgpu("hosts", "add", name, cmd, "--fingerprint", sshd.host_key_fingerprint)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN"])
def test_offers_max_price_not_a_number_is_said_plainly(value):
    r = labgpu("offers", f"--max-price={value}")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "must be a number" in r.stderr and "zero or more" not in r.stderr


@pytest.mark.usefixtures("private_home")
@pytest.mark.parametrize("port", ["70000", "-5", "abc"])
def test_forward_local_port_out_of_range_is_a_clear_error(sshd, port):
    _add(sshd, "fw")
    r = labgpu("hosts", "forward", "fw", "tensorboard", "--local-port", port, timeout=60)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "OverflowError" not in r.stderr
    assert "--local-port" in r.stderr and ("1–65535" in r.stderr)


@pytest.mark.usefixtures("private_home")
def test_after_forget_key_the_hints_name_a_command_that_exists(sshd, tmp_path):
    from app.remote.hostkeys import forget_host_key

    _add(sshd, "gpu")
    local = tmp_path / "src"
    local.mkdir()
    (local / "a.txt").write_text("a")
    try:
        with sshd.changed_host_key() as new_fp:
            r = labgpu("hosts", "forget-key", "gpu")
            assert r.returncode == 0
            assert "labgpu hosts trust gpu --fingerprint" in r.stdout
            r = labgpu("sync", str(local), "gpu:data")
            assert r.returncode != 0 and new_fp in r.stderr
            assert f"labgpu hosts trust gpu --fingerprint {new_fp}" in r.stderr  # sync has no --fingerprint
            assert "CLI: --fingerprint" not in r.stderr

            wrong = "SHA256:" + "C" * 43
            r = labgpu("hosts", "trust", "gpu", "--fingerprint", wrong)
            assert r.returncode != 0 and new_fp in r.stderr
            assert json.loads(labgpu("hosts", "ls", "--json").stdout)[0]["known_host_keys"] == []

            r = labgpu("hosts", "trust", "gpu", "--fingerprint", new_fp)  # the step the hint names
            assert r.returncode == 0, r.stderr
            hosts = json.loads(labgpu("hosts", "ls", "--json").stdout)
            assert hosts[0]["known_host_keys"] == [new_fp] and hosts[0]["fingerprint"] == new_fp
            r = labgpu("sync", str(local), "gpu:data", "--dry-run")
            assert "HostKey" not in r.stderr, r.stderr
    finally:
        forget_host_key(sshd.host, sshd.port)
