"""VpnManager against a real OpenVPN server in a network namespace (see tests/fixtures/openvpn.py).

The client openvpn runs in the client namespace (``VpnManager(netns=...)``, the tests-only
LABGPU_VPN_NETNS); the sshd listens only on the server's tunnel address, so a connection to it
proves the traffic went through the tunnel LabGPU brought up.
"""

from __future__ import annotations

import subprocess
import time

import pytest

from app.core import secrets
from app.core.paths import default_paths
from app.remote.vpn import CONNECTED, DISCONNECTED, VpnError, VpnManager, VpnStatus
from tests.fixtures.spy import MONITOR_PASSES_TO_DECIDE, monitor_decisions

pytestmark = pytest.mark.netns


def _ssh_echo(lab, text: str = "through-the-tunnel", timeout: float = 15) -> subprocess.CompletedProcess:
    s = lab.sshd
    return subprocess.run(
        lab.in_client(
            [
                "ssh",
                *s.openssh_args(),
                "-o",
                "ConnectTimeout=3",
                f"{s.user}@{lab.tunnel_server_ip}",
                "echo",
                text,
            ]
        ),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def manager(vpn_lab, secret_service):
    mgr = VpnManager(default_paths(), netns=vpn_lab.cli_ns)
    mgr.add_profile(
        "lab",
        vpn_lab.ovpn_path,
        username=vpn_lab.username,
        password=vpn_lab.password,
        key_passphrase=vpn_lab.key_passphrase,
    )
    yield mgr
    mgr.down("lab")
    for what in ("username", "password", "key_passphrase"):
        secrets.delete_secret(f"vpn:lab:{what}")


def test_up_status_ssh_down(vpn_lab, manager):
    before = _ssh_echo(vpn_lab)
    assert before.returncode != 0, "sshd must be unreachable before the tunnel is up"
    states: list[VpnStatus] = []
    st = manager.up("lab", timeout=20, on_status=states.append)  # returns once CONNECTED
    assert st.state == CONNECTED
    assert st.local_ip.startswith("10.8.0.")
    seen = [s.state for s in states]
    assert "AUTH" in seen or "GET_CONFIG" in seen, seen
    status = manager.status("lab")
    assert status.is_up
    assert status.local_ip == st.local_ip
    assert status.remote.startswith(vpn_lab.server_ip)
    r = _ssh_echo(vpn_lab)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "through-the-tunnel"
    pid = manager.pid("lab")
    assert pid
    manager.down("lab")
    assert manager.pid("lab") == 0
    assert manager.status("lab").state == DISCONNECTED
    assert _ssh_echo(vpn_lab).returncode != 0


def _wait_for(pred, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = pred()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_server_restart_then_ensure_up_reconnects(vpn_lab, manager):
    """No LabGPU process attached: openvpn reconnects by itself and, with --auth-nocache, asks
    again for the password; the next ensure_up() (what ssh/sync call) answers and waits."""
    manager.up("lab", timeout=20)
    pid = manager.pid("lab")
    vpn_lab.restart_server(pause=0.5)
    st = manager.ensure_up("lab", timeout=20)
    assert st.is_up
    assert manager.pid("lab") == pid, "the same openvpn process reconnected"
    assert _ssh_echo(vpn_lab).returncode == 0


def test_monitor_streams_states_and_reconnects_unless_user_disconnected(vpn_lab, manager, monkeypatch):
    decisions = monitor_decisions(monkeypatch, manager)
    seen: list[VpnStatus] = []
    mon = manager.watch("lab", seen.append)
    try:
        mon.connect()
        _wait_for(lambda: mon.last.is_up, 60, "CONNECTED")
        assert _ssh_echo(vpn_lab).returncode == 0
        mark = len(seen)
        vpn_lab.restart_server(pause=0.5)
        _wait_for(lambda: any(s.state == "RECONNECTING" for s in seen[mark:]), 60, "RECONNECTING")
        _wait_for(lambda: mon.last.is_up and len(seen) > mark, 60, "CONNECTED again")
        assert _ssh_echo(vpn_lab).returncode == 0
        # openvpn dies under us (OOM killer, crash): the monitor starts it again.
        pid = manager.pid("lab")
        import os
        import signal

        os.kill(pid, signal.SIGKILL)
        _wait_for(lambda: manager.pid("lab") not in (0, pid) and mon.last.is_up, 60, "restarted process")
        assert mon.reconnects >= 1
        # The user disconnects: it stays down.
        mon.disconnect()
        _wait_for(lambda: mon.last.state == DISCONNECTED and manager.pid("lab") == 0, 60, "DISCONNECTED")
        mark = decisions.count  # the monitor looks again and decides (see tests/fixtures/spy.py)
        _wait_for(lambda: decisions.count >= mark + MONITOR_PASSES_TO_DECIDE, 30, "the monitor's decision")
        assert manager.pid("lab") == 0
        assert vpn_lab.client_pids() == []
        assert mon.last.state == DISCONNECTED
        assert _ssh_echo(vpn_lab).returncode != 0
    finally:
        mon.close()


def test_wrong_password_is_a_clear_error_and_nothing_keeps_running(vpn_lab, manager):
    manager.set_credentials("lab", password="not-the-password")
    with pytest.raises(VpnError) as info:
        manager.up("lab", timeout=20)
    assert info.value.code == "VpnAuthFailed"
    assert "username or password" in info.value.text()
    assert "labgpu vpn add" in info.value.hint()
    assert manager.pid("lab") == 0
    # openvpn exits by itself on a refused login: wait until it is gone (an upper bound; it exits)
    _wait_for(lambda: vpn_lab.client_pids() == [], 30, "the refused openvpn to exit")


def test_wrong_key_passphrase(vpn_lab, manager):
    manager.set_credentials("lab", key_passphrase="wrong")
    with pytest.raises(VpnError) as info:
        manager.up("lab", timeout=20)
    assert info.value.code == "VpnKeyPassphrase", info.value.one_line()
    assert manager.pid("lab") == 0
    _wait_for(lambda: vpn_lab.client_pids() == [], 30, "the refused openvpn to exit")  # it exits by itself


def test_missing_credentials_refused_before_starting(vpn_lab, manager):
    secrets.delete_secret("vpn:lab:password")
    with pytest.raises(VpnError) as info:
        manager.up("lab", timeout=5)
    assert info.value.code == "VpnCredentialsMissing"
    assert "password" in info.value.text()
    assert vpn_lab.client_pids() == []


def test_unreachable_server_times_out_as_vpn_down_and_cleans_up(vpn_lab, secret_service, tmp_path):
    """Nothing answers on the profile's port (inside the server namespace): a VpnDown error
    (the code the sync engine retries) after the timeout, and no openvpn left behind."""
    mgr = VpnManager(default_paths(), netns=vpn_lab.cli_ns)
    ovpn = tmp_path / "dead.ovpn"
    ovpn.write_text(vpn_lab.client_profile(key_file="client.key", auth=False).replace(" 1194\n", " 1999\n"))
    mgr.add_profile("dead", ovpn)
    t0 = time.monotonic()
    with pytest.raises(VpnError) as info:
        mgr.up("dead", timeout=2.5)
    took = time.monotonic() - t0
    assert took >= 2.4  # it waited for the timeout (a lower bound: load only makes it longer)
    assert info.value.code == "VpnDown"
    assert (
        "did not connect within 2 s" in info.value.text() or "did not connect within 3 s" in info.value.text()
    )
    assert mgr.pid("dead") == 0
    assert vpn_lab.client_pids() == []
    assert mgr.status("dead").state == DISCONNECTED
    mgr.remove_profile("dead")
