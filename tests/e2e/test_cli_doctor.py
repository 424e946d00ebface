"""``labgpu doctor`` as a user runs it: every check reported with a status and, where something is
missing, a next step; exit 1 only when a check fails."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"display", "keyring", "ssh_fast_path", "openvpn", "openvpn_privileges", "nvidia_smi", "settings", "data", "log",
        "clock"}


def doctor(*args: str, env: dict[str, str] | None = None, wrap: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*(wrap or []), sys.executable, "-m", "app", "doctor", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, env=env or dict(os.environ))


def _checks(r: subprocess.CompletedProcess) -> dict[str, dict]:
    assert "Traceback" not in r.stderr, r.stderr
    doc = json.loads(r.stdout)
    got = {c["key"]: c for c in doc["checks"]}
    assert set(got) == KEYS
    for c in got.values():
        assert c["status"] in ("ok", "warn", "fail") and c["name"] and c["detail"]
        if c["status"] != "ok":
            assert c["next_step"] or c["key"] == "openvpn_privileges", c
    assert doc["ok"] == (r.returncode == 0)
    return got


@pytest.mark.usefixtures("secret_service")
def test_doctor_reports_every_check_and_exits_0_when_nothing_fails():
    home = Path(os.environ["LABGPU_HOME"])
    r = doctor("--json")
    got = _checks(r)
    assert r.returncode == 0, r.stdout
    assert got["keyring"]["status"] == "ok" and "SecretService" in got["keyring"]["detail"]
    fast = got["ssh_fast_path"]
    assert fast["status"] == "ok" and "5.1.0" in fast["detail"]
    assert str(home) in got["data"]["detail"] and got["data"]["status"] == "ok"
    assert got["log"]["detail"].startswith(str(home)) and "labgpu.log" in got["log"]["detail"]
    assert str(home) in got["settings"]["detail"]
    assert got["nvidia_smi"]["status"] == "ok"  # informational on a computer without a GPU
    # the table says the same to a person
    t = doctor()
    assert t.returncode == 0
    for name in ("Keyring", "SSH fast paths", "OpenVPN", "nvidia-smi", "Settings file", "Data folder", "Log file"):
        assert name in t.stdout


def test_doctor_without_a_keyring_fails_with_a_next_step():
    env = dict(os.environ, PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")
    r = doctor("--json", env=env)
    got = _checks(r)
    assert r.returncode == 1
    assert got["keyring"]["status"] == "fail" and "keyring" in got["keyring"]["next_step"].lower()


@pytest.mark.usefixtures("secret_service")
def test_doctor_says_when_the_fast_paths_are_off():
    r = doctor("--json", env=dict(os.environ, LABGPU_STOCK_SSH="1"))
    got = _checks(r)
    assert r.returncode == 0  # slower, not broken
    fast = got["ssh_fast_path"]
    assert fast["status"] == "warn" and "LABGPU_STOCK_SSH" in fast["detail"] and fast["next_step"]


@pytest.mark.usefixtures("secret_service")
def test_doctor_without_openvpn_says_so_with_a_next_step():
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("hiding the installed openvpn needs root and unshare (a private mount namespace)")
    hide = [p for p in ("/usr/sbin/openvpn", "/usr/local/sbin/openvpn", "/opt/homebrew/sbin/openvpn")
            if os.path.exists(p)]
    mounts = " && ".join(f"mount --bind /dev/null {p}" for p in hide) or "true"
    env = dict(os.environ, PATH=os.pathsep.join(p for p in ("/usr/bin", "/bin") if os.path.isdir(p)))
    env.pop("LABGPU_OPENVPN", None)
    cmd = f'{mounts} && exec "$@"'
    r = doctor("--json", env=env, wrap=["unshare", "-m", "sh", "-c", cmd, "sh"])
    got = _checks(r)
    assert r.returncode == 0  # only VPN hosts need it
    ovpn = got["openvpn"]
    assert ovpn["status"] == "warn" and "not installed" in ovpn["detail"]
    assert "install" in ovpn["next_step"].lower() and "VPN" in ovpn["next_step"]
    assert got["openvpn_privileges"]["status"] == "warn"
