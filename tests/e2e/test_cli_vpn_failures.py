"""``labgpu vpn up`` when OpenVPN refuses the profile: a failure with OpenVPN's own words, every time.

Seen before: a profile whose cipher OpenVPN refuses gave exit status 0 and no output in 2 of 4
runs (a BrokenPipeError from the management socket was taken for a closed stdout) and an
EOFError traceback in the others. The failure is a race between OpenVPN exiting and LabGPU
talking to its management socket, so each case runs many times. Real OpenVPN, real CLI, inside
the lab's client network namespace (tests/fixtures/openvpn.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.core import secrets
from tests.fixtures import clirun

pytestmark = pytest.mark.netns

ROOT = Path(__file__).resolve().parents[2]
RUNS = 6


def _cli(lab, *args: str, stdin: str | None = None, timeout: float = 90) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env.pop("LABGPU_VPN_NETNS", None)  # the CLI already runs inside the namespace
    return subprocess.run(
        lab.in_client([sys.executable, "-m", "app", *args]),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env=env,
    )


@pytest.fixture
def refused_profile(vpn_lab, secret_service, tmp_path):
    def add(extra: str) -> None:
        ovpn = tmp_path / "refused.ovpn"
        ovpn.write_text(vpn_lab.client_profile(extra=extra))
        r = _cli(
            vpn_lab,
            "vpn",
            "add",
            "bad",
            str(ovpn),
            "--username",
            vpn_lab.username,
            "--password-stdin",
            "--key-passphrase-stdin",
            stdin=f"{vpn_lab.password}\n{vpn_lab.key_passphrase}\n",
        )
        assert r.returncode == 0, r.stderr

    yield add
    _cli(vpn_lab, "vpn", "rm", "bad")
    for what in ("username", "password", "key_passphrase"):
        secrets.delete_secret(f"vpn:bad:{what}")


@pytest.mark.parametrize(
    ("extra", "openvpn_says"),
    [
        # refused while reading options, before the management socket exists
        ("data-ciphers BF-CBC", "data-ciphers"),
        # refused after LabGPU attached and released the hold: the socket closes under it
        ("tls-cipher LABGPU-NO-SUCH-CIPHER", "cipher"),
    ],
)
def test_vpn_up_with_a_profile_openvpn_refuses_fails_plainly_every_time(vpn_lab, refused_profile, extra, openvpn_says):
    refused_profile(extra)
    for run in range(RUNS):
        r = _cli(vpn_lab, "vpn", "up", "bad", "--timeout", "60")
        assert r.returncode == 2, f"run {run}: exit {r.returncode}, stdout {r.stdout!r}, stderr {r.stderr!r}"
        assert r.stdout == ""
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        assert len(lines) == 1, r.stderr  # one line, no traceback
        line = lines[0]
        assert line.startswith("labgpu: [Vpn"), line
        assert "Traceback" not in r.stderr and "EOFError" not in r.stderr and "BrokenPipe" not in r.stderr
        assert openvpn_says in line.lower(), line  # OpenVPN's own words are in the message
        assert vpn_lab.client_pids() == [], f"run {run}: openvpn left running"
        st = _cli(vpn_lab, "vpn", "status", "bad", "--json")
        assert st.returncode == 0
        doc = json.loads(st.stdout)
        assert doc["state"] == "DISCONNECTED" and doc["up"] is False


def test_cli_output_into_a_closed_pipe_is_still_quiet_and_zero(tmp_path):
    """The other BrokenPipeError: ``labgpu … | head -1`` closes stdout early; that stays exit 0
    without a traceback (the distinction must not break pipelines). The reader is gone before
    the CLI writes anything, so every write fails: deterministic."""
    env = dict(os.environ, LABGPU_HOME=str(tmp_path / "home"))
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        r = clirun.run(
            [sys.executable, "-m", "app", "offers"],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
