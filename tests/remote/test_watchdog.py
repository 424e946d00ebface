"""The on-instance watchdog against a real sshd: scripted nvidia-smi, and a fake `sudo`/`shutdown`
first on the user's PATH that record the call instead of powering anything off."""

from __future__ import annotations

import time

import pytest

from app.core.errors import InputError
from app.remote import watchdog
from app.remote.ssh import open_connection
from tests.fixtures import clirun
from tests.fixtures.fake_nvidia_smi import MIG_STEP, busy, idle
from tests.remote.gpu_support import gpu_server
from tests.remote.test_watchdog_cases import _fresh_watchdog_files  # noqa: F401 - one watchdog test at a time

pytestmark = pytest.mark.usefixtures("private_home", "_fresh_watchdog_files")

FAKE_SUDO = '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n'
FAKE_SHUTDOWN = '#!/bin/sh\necho "$0 $*" > "$(dirname "$0")/shutdown.called"\n'


def _wait_file(path, timeout=60.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_text().strip():
            return path.read_text()
        time.sleep(0.1)
    raise AssertionError(f"{path} never appeared")


def _install_fakes(server) -> None:
    server.install_executable("sudo", FAKE_SUDO)
    server.install_executable("shutdown", FAKE_SHUTDOWN)
    server.chown_to_user(server.bin_dir)


def test_idle_instance_shuts_itself_down():
    with gpu_server("wd", {"steps": [busy(2)] * 2 + [idle(2)]}) as (server, _fake):
        _install_fakes(server)
        conn = open_connection("wd")
        try:
            pid = watchdog.install(conn, below_pct=30, window_s=2, interval_s=1)
            assert pid > 0
            called = _wait_file(server.bin_dir / "shutdown.called")
            assert called.split()[1:] == ["-h", "now"]
            st = watchdog.status(conn)
            assert any("shutting down" in ln for ln in st.log_tail)
            assert any("started: below=30%" in ln for ln in st.log_tail)
            home_script = server.pw.pw_dir + "/.labgpu/watchdog.sh"
            rc, out, _ = conn.exec(["stat", "-c", "%a", home_script])
            assert rc == 0 and out.strip() == "700"
        finally:
            watchdog.remove(conn)
            conn.close()


def test_mig_na_counts_as_busy_and_reinstall_replaces_the_running_one():
    with gpu_server("wdmig", {"steps": [MIG_STEP]}) as (server, fake):
        _install_fakes(server)
        conn = open_connection("wdmig")
        try:
            first = watchdog.install(conn, below_pct=30, window_s=1, interval_s=1)
            # wait until it has polled several times (the fake's position advances per call)
            deadline = time.monotonic() + 60
            while fake.position() < 4 and time.monotonic() < deadline:
                time.sleep(0.1)
            assert fake.position() >= 4
            assert not (server.bin_dir / "shutdown.called").exists()  # N/A is not idle
            second = watchdog.install(conn, below_pct=30, window_s=1, interval_s=1)
            assert second != first
            st = watchdog.status(conn)
            assert st.running and st.pid == second
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:  # the old one was stopped (a zombie has no cmdline)
                rc, _, _ = conn.exec(["grep", "-q", "watchdog.sh", f"/proc/{first}/cmdline"])
                if rc != 0:
                    break
                time.sleep(0.1)
            assert rc != 0
        finally:
            watchdog.remove(conn)
            assert not watchdog.status(conn).running
            conn.close()


def test_values_are_checked_before_anything_is_sent():
    with pytest.raises(InputError):
        watchdog.install(object(), below_pct=0, window_s=60)
    with pytest.raises(InputError):
        watchdog.install(object(), below_pct=30, window_s=float("nan"))


def test_guard_set_watchdog_installs_it_from_the_cli():
    import os
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    with gpu_server("wdcli", {"steps": [idle(1)]}) as (server, _fake):
        _install_fakes(server)
        r = clirun.run([sys.executable, "-m", "app", "guard", "set", "wdcli", "--idle-minutes", "0.05",
                            "--watchdog"], cwd=root, capture_output=True, text=True, timeout=120, env=dict(os.environ))
        conn = open_connection("wdcli")
        try:
            assert r.returncode == 0, r.stderr
            assert "Watchdog running on wdcli" in r.stdout and "notify only" in r.stdout
            called = _wait_file(server.bin_dir / "shutdown.called")
            assert called.split()[1:] == ["-h", "now"]
        finally:
            watchdog.remove(conn)
            conn.close()
