"""``labgpu vpn …`` as a user runs it, inside the client network namespace, against the real
OpenVPN server of tests/fixtures/openvpn.py. The CLI itself runs under ``ip netns exec`` so
everything it starts (openvpn, ssh, sync) can reach sshd at 10.8.0.1 only through the tunnel.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from app.core import secrets
from tests.fixtures import clirun

pytestmark = pytest.mark.netns

ROOT = Path(__file__).resolve().parents[2]


def _cli(lab, *args: str, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
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


def _ssh(lab) -> subprocess.CompletedProcess:
    s = lab.sshd
    return subprocess.run(
        lab.in_client(
            [
                "ssh",
                *s.openssh_args(),
                "-o",
                "ConnectTimeout=3",
                f"{s.user}@{lab.tunnel_server_ip}",
                "hostname",
            ]
        ),
        capture_output=True,
        text=True,
        timeout=20,
    )


def _one_stderr_line(r: subprocess.CompletedProcess) -> str:
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    return lines[0]


@pytest.fixture
def cleanup_profile(vpn_lab, secret_service):
    yield
    _cli(vpn_lab, "vpn", "rm", "lab")
    for what in ("username", "password", "key_passphrase"):
        secrets.delete_secret(f"vpn:lab:{what}")


def test_cli_add_up_status_ssh_down(vpn_lab, cleanup_profile, labgpu_home):
    r = _cli(vpn_lab, "vpn", "up", "lab")
    assert r.returncode != 0
    assert "no VPN profile named 'lab'" in _one_stderr_line(r)

    r = _cli(
        vpn_lab,
        "vpn",
        "add",
        "lab",
        str(vpn_lab.ovpn_path),
        "--username",
        vpn_lab.username,
        "--password-stdin",
        "--key-passphrase-stdin",
        stdin=f"{vpn_lab.password}\n{vpn_lab.key_passphrase}\n",
    )
    assert r.returncode == 0, r.stderr
    assert "needs username/password and key passphrase" in r.stdout
    assert r.stderr == ""
    stored = (labgpu_home / "data" / "vpn" / "profiles" / "lab.ovpn").read_text()
    assert vpn_lab.password not in stored
    assert vpn_lab.key_passphrase not in stored
    assert (labgpu_home / "data" / "vpn" / "profiles" / "lab.ovpn").stat().st_mode & 0o077 == 0

    assert _ssh(vpn_lab).returncode != 0, "sshd must be unreachable before the tunnel is up"
    r = _cli(vpn_lab, "vpn", "status", "lab", "--json")
    assert r.returncode == 0
    assert json.loads(r.stdout)["state"] == "DISCONNECTED"

    r = _cli(vpn_lab, "vpn", "up", "lab")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("lab: CONNECTED, address 10.8.0."), r.stdout
    # The command returned; openvpn keeps running detached, and nothing of the secret is in its argv.
    # The keeper (labgpu vpn keep lab) answers openvpn's prompts after reconnects.
    procs = {pid: Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") for pid in vpn_lab.client_pids()}
    openvpn = [a for a in procs.values() if a[0].endswith(b"openvpn")]
    keeper = [a for a in procs.values() if b"vpn" in a and b"keep" in a]
    assert len(openvpn) == 1, procs
    assert len(keeper) == 1, procs
    assert len(procs) == 2, procs
    argv = openvpn[0]
    assert b"--management-hold" in argv
    assert b"--auth-nocache" in argv
    assert not any(vpn_lab.password.encode() in a for a in (b" ".join(x) for x in procs.values()))

    r = _cli(vpn_lab, "vpn", "status", "lab", "--json")
    st = json.loads(r.stdout)
    assert r.returncode == 0
    assert st["state"] == "CONNECTED"
    assert st["up"] is True
    assert st["remote"].startswith(vpn_lab.server_ip)
    ssh = _ssh(vpn_lab)
    assert ssh.returncode == 0, ssh.stderr

    r = _cli(vpn_lab, "vpn", "ls", "--json")
    [row] = json.loads(r.stdout)
    assert row["profile"] == "lab"
    assert row["state"] == "CONNECTED"
    assert row["missing_credentials"] == []

    r = _cli(vpn_lab, "vpn", "down", "lab")
    assert r.returncode == 0
    assert r.stdout.strip() == "lab: DISCONNECTED"
    deadline = time.monotonic() + 30  # an upper bound: the keeper follows openvpn out
    while vpn_lab.client_pids() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert vpn_lab.client_pids() == []
    assert _ssh(vpn_lab).returncode != 0
    r = _cli(vpn_lab, "vpn", "status", "lab")
    assert r.returncode == 0
    assert r.stdout.strip() == "lab: DISCONNECTED"


def test_cli_refuses_script_profile_unless_allowed(vpn_lab, cleanup_profile, tmp_path):
    evil = tmp_path / "evil.ovpn"
    evil.write_text(vpn_lab.client_profile(extra="script-security 2\nup /tmp/not-here.sh"))
    r = _cli(vpn_lab, "vpn", "add", "lab", str(evil))
    assert r.returncode == 2
    line = _one_stderr_line(r)
    assert "runs programs" in line
    assert "up /tmp/not-here.sh" in line
    assert "--allow-scripts" in line
    r = _cli(vpn_lab, "vpn", "ls", "--json")
    assert json.loads(r.stdout) == []
    r = _cli(vpn_lab, "vpn", "add", "lab", str(evil), "--allow-scripts")
    assert r.returncode == 0, r.stderr
    assert "Not stored yet: username, password, key passphrase" in r.stderr


def test_cli_up_wrong_password_one_line(vpn_lab, cleanup_profile):
    r = _cli(
        vpn_lab,
        "vpn",
        "add",
        "lab",
        str(vpn_lab.ovpn_path),
        "--username",
        vpn_lab.username,
        "--password-stdin",
        "--key-passphrase-stdin",
        stdin=f"wrong\n{vpn_lab.key_passphrase}\n",
    )
    assert r.returncode == 0
    r = _cli(vpn_lab, "vpn", "up", "lab")
    assert r.returncode == 2
    assert "[VpnAuthFailed]" in _one_stderr_line(r)
    deadline = time.monotonic() + 30  # an upper bound: the refused openvpn exits by itself
    while vpn_lab.client_pids() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert vpn_lab.client_pids() == []


def _add_profile(lab) -> None:
    r = _cli(
        lab,
        "vpn",
        "add",
        "lab",
        str(lab.ovpn_path),
        "--username",
        lab.username,
        "--password-stdin",
        "--key-passphrase-stdin",
        stdin=f"{lab.password}\n{lab.key_passphrase}\n",
    )
    assert r.returncode == 0, r.stderr


def _status(lab) -> dict:
    r = _cli(lab, "vpn", "status", "lab", "--json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_cli_tunnel_comes_back_by_itself_after_server_restart(vpn_lab, cleanup_profile, labgpu_home):
    """The CLI returned long ago; the server goes away and comes back. OpenVPN reconnects and
    (auth-nocache) asks for the password again: LabGPU's keeper answers from the keyring. Only
    files are read while waiting, so no other LabGPU command can be the one that answered."""
    _add_profile(vpn_lab)
    assert _cli(vpn_lab, "vpn", "up", "lab").returncode == 0
    log = labgpu_home / "data" / "runtime" / "vpn" / "lab.log"
    assert log.read_text().count("Initialization Sequence Completed") == 1
    vpn_lab.restart_server(pause=1.0)
    deadline = time.monotonic() + 25
    while log.read_text().count("Initialization Sequence Completed") < 2:
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.1)
    text = log.read_text()
    assert text.count('MANAGEMENT: CMD \'username "Auth"') == 2, "asked again after the restart, and answered"
    assert "vpn-pass" not in text, "the password never reaches the log"
    st = _status(vpn_lab)
    assert st["state"] == "CONNECTED", st
    assert _ssh(vpn_lab).returncode == 0
    assert _cli(vpn_lab, "vpn", "down", "lab").returncode == 0


def _tree(root: Path, n: int, size: int) -> dict[str, str]:
    root.mkdir(parents=True, exist_ok=True)
    out = {}
    for i in range(n):
        data = hashlib.sha256(str(i).encode()).digest() * (size // 32)
        (root / f"part-{i:02d}.bin").write_bytes(data)
        out[f"part-{i:02d}.bin"] = hashlib.sha256(data).hexdigest()
    return out


def test_sync_via_vpn_host_pauses_while_tunnel_is_down_and_finishes(vpn_lab, cleanup_profile, tmp_path):
    """H5a's ``hosts add --via-vpn`` and H5b's ``labgpu sync``: the sync brings the tunnel up,
    the VPN server vanishes mid-transfer for a few seconds, the sync waits and finishes."""
    _add_profile(vpn_lab)
    s = vpn_lab.sshd
    assert _status(vpn_lab)["state"] == "DISCONNECTED"
    r = _cli(
        vpn_lab,
        "hosts",
        "add",
        "gpu-vpn",
        f"ssh -i {s.client_key} -p 22 {s.user}@{vpn_lab.tunnel_server_ip}",
        "--fingerprint",
        s.host_key_fingerprint,
        "--via-vpn",
        "lab",
    )
    assert r.returncode == 0, r.stderr
    assert _status(vpn_lab)["state"] == "CONNECTED", "adding the host brought the tunnel up"
    assert _cli(vpn_lab, "vpn", "down", "lab").returncode == 0

    local = tmp_path / "dataset"
    expected = _tree(local, 8, 512 * 1024)  # 4 MiB at 1 MiB/s: about 4 s of transfer
    remote = s.remote_dir("vpn-sync")
    proc = subprocess.Popen(
        vpn_lab.in_client(
            [
                sys.executable,
                "-m",
                "app",
                "sync",
                str(local),
                f"gpu-vpn:{remote}",
                "--json",
                "--bwlimit",
                "1024",
            ]
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 20
        while not any(p.name.startswith(".part") or p.name.endswith(".bin") for p in remote.iterdir()):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline
            time.sleep(0.05)
        # The sync itself brought the tunnel up (it was down): now take the server away mid-transfer.
        cut_at = time.monotonic()
        restart = threading.Thread(target=vpn_lab.restart_server, kwargs={"pause": 3.0}, name="vpn-restart")
        restart.start()
        out, err = proc.communicate(timeout=90)
        restart.join(30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    summary = json.loads(out)
    print("sync summary:", summary, "finished", round(time.monotonic() - cut_at, 1), "s after the cut")
    assert summary["files"] == 8, summary
    assert summary["bytes"] == 8 * 512 * 1024, summary
    assert time.monotonic() - cut_at > 3.0, "the sync could not have finished while the server was gone"
    got = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in remote.iterdir()}
    assert got == expected, "both trees byte-identical, no partial file under a final name"
    log = vpn_lab.server_log()
    assert log.count("Initialization Sequence Completed") >= 2


def test_cli_add_without_a_keyring_stores_nothing(vpn_lab, tmp_path, labgpu_home):
    """A profile that needs passwords is useless without a keyring: refused with what to
    install, and nothing is half-imported. A certificate-only profile needs no keyring."""
    env = dict(os.environ, PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")

    def cli(*args: str) -> subprocess.CompletedProcess:
        return clirun.run(
            [sys.executable, "-m", "app", "vpn", *args],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
            env=env,
        )

    r = cli("add", "lab", str(vpn_lab.ovpn_path))
    assert r.returncode == 2
    assert "[NoKeyring]" in _one_stderr_line(r)
    assert not (labgpu_home / "data" / "vpn" / "profiles" / "lab.ovpn").exists()
    cert_only = tmp_path / "cert.ovpn"
    cert_only.write_text(vpn_lab.client_profile(key_file="client.key", auth=False))
    r = cli("add", "cert", str(cert_only))
    assert r.returncode == 0, r.stderr
    assert json.loads(cli("ls", "--json").stdout)[0]["missing_credentials"] == []
    assert cli("rm", "cert").returncode == 0
