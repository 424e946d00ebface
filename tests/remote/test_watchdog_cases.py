"""The watchdog against a real sshd: a guard removed or changed, a hung
nvidia-smi, a warning line before the CSV, a wall clock stepped back an hour, a `sudo` that wants
a password (at install and later), the process gone after a stop/start.

On the server user's PATH (SshdServer.install_executable): the scripted nvidia-smi, a fake `sudo`
(runs the command, or answers like sudo -n when a password is needed), a `shutdown` that records
its call instead of powering off, and where a case needs it a `date` whose `+%s` answers an hour
early or a `timeout` that does not work. Every wait is on an event (a file, a process ending, a
status line) with an upper bound; nothing sleeps and then asserts that nothing happened.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.core.errors import LabGpuError
from app.core.guards import GuardConfig, GuardStore
from app.core.paths import default_paths
from app.core.store import Store
from app.remote import watchdog
from app.remote.ssh import open_connection
from tests.fixtures import clirun
from tests.fixtures.fake_nvidia_smi import busy, hang, idle, warned
from tests.remote.gpu_support import gpu_server

pytestmark = pytest.mark.usefixtures("private_home")

ROOT = Path(__file__).resolve().parents[2]
FAKE_SUDO = '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n'
# sudo -n where the user's sudoers entry needs a password: sudo's own words, exit 1
FAKE_SUDO_PASSWORD = ('#!/bin/sh\nif [ "$1" = -n ]; then echo "sudo: a password is required" >&2; exit 1; fi\n'
                      'echo "[sudo] password for $(id -un): " >&2\nexit 1\n')
FAKE_SHUTDOWN = '#!/bin/sh\necho "$0 $*" > "$(dirname "$0")/shutdown.called"\n'
# the wall clock stepped back one hour: `date +%s` answers an hour early from its second call on
FAKE_DATE_BACK = ('#!/bin/sh\nif [ "$1" = "+%s" ]; then\n  f="$(dirname "$0")/date.calls"\n'
                  '  n=$(cat "$f" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "$f"\n'
                  '  t=$(/bin/date +%s); [ "$n" -ge 2 ] && t=$((t - 3600)); echo "$t"; exit 0\nfi\n'
                  'exec /bin/date "$@"\n')
# a `timeout` that is there but does not work (a BusyBox built without the applet answers so)
BROKEN_TIMEOUT = '#!/bin/sh\necho "timeout: applet not found" >&2\nexit 127\n'


def _until(pred: Callable[[], object], what: str, timeout: float = 45.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = pred()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"{what}: not within {timeout} s")


def _shutdown_called(server) -> str:
    path = server.bin_dir / "shutdown.called"
    text = str(_until(lambda: path.exists() and path.read_text().strip(), "the watchdog shut the machine down"))
    return text


def _fakes(server, sudo: str = FAKE_SUDO) -> None:
    server.install_executable("sudo", sudo)
    server.install_executable("shutdown", FAKE_SHUTDOWN)
    server.chown_to_user(server.bin_dir)


def _alive(pid: int) -> bool:
    try:
        return "watchdog.sh" in Path(f"/proc/{pid}/cmdline").read_text()
    except OSError:
        return False


def _home(server) -> Path:
    return Path(server.pw.pw_dir) / ".labgpu"


def _log(server) -> str:
    try:
        return (_home(server) / "watchdog.log").read_text()
    except OSError:
        return ""


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return clirun.run([sys.executable, "-m", "app", *argv], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ))


@pytest.fixture(autouse=True)
def _fresh_watchdog_files():
    """The test user's ~/.labgpu is shared by every sshd of the suite (and every worker): one watchdog test at a
    time, starting from no watchdog."""
    import pwd

    from tests.fixtures.sshd import TEST_USER, shared_home_turn

    d = Path(pwd.getpwnam(TEST_USER).pw_dir) / ".labgpu"
    with shared_home_turn():
        for name in ("watchdog.conf", "watchdog.status", "watchdog.log", "watchdog.pid"):
            (d / name).unlink(missing_ok=True)
        yield
        # a test that failed half-way leaves nothing acting: without its configuration a watchdog exits
        (d / "watchdog.conf").unlink(missing_ok=True)
        try:
            pid = int((d / "watchdog.pid").read_text().strip())
        except (OSError, ValueError):
            return
        if _alive(pid):
            os.kill(pid, signal.SIGTERM)


# -- removed with its guard ------------------------------------------------------------------------

def test_guard_rm_removes_the_watchdog_and_it_never_fires():
    with gpu_server("wdrm", {"steps": [busy(2), idle(2)]}) as (server, fake):
        _fakes(server)
        fake.pin(0)  # busy until the guard is gone
        r = _cli("guard", "set", "wdrm", "--idle-minutes", "0.05", "--watchdog")
        assert r.returncode == 0, r.stderr
        pid = int((_home(server) / "watchdog.pid").read_text())
        assert _alive(pid)
        r = _cli("guard", "rm", "wdrm")
        assert r.returncode == 0, r.stderr
        assert "Removed the watchdog on wdrm" in r.stdout
        fake.pin(1)  # the GPUs go idle now
        _until(lambda: not _alive(pid), "the watchdog process ended with its guard", timeout=20)
        assert not (_home(server) / "watchdog.conf").exists()
        assert not (server.bin_dir / "shutdown.called").exists()


def test_guard_rm_on_an_unreachable_host_says_the_watchdog_is_still_there_and_retries():
    with gpu_server("wdaway", {"steps": [busy(2)]}) as (server, _fake):
        _fakes(server)
        r = _cli("guard", "set", "wdaway", "--idle-minutes", "0.5", "--watchdog")
        assert r.returncode == 0, r.stderr
        pid = int((_home(server) / "watchdog.pid").read_text())
        server.stop()  # the host cannot be reached
        r = _cli("guard", "rm", "wdaway")
        assert r.returncode != 0 and "Traceback" not in r.stderr
        assert "Removed the guards of wdaway" in r.stdout
        assert "its watchdog could not be removed" in r.stderr and "guard rm wdaway` again" in r.stderr
        assert watchdog.WatchdogBook.default().get("wdaway")["state"] == "removal-pending"  # type: ignore[index]
        assert _alive(pid)
        server.start()
        r = _cli("guard", "rm", "wdaway")  # no guard left, but the watchdog still to remove
        assert r.returncode == 0, r.stderr
        assert "Removed the watchdog on wdaway" in r.stdout
        _until(lambda: not _alive(pid), "the watchdog process ended", timeout=20)
        assert watchdog.WatchdogBook.default().get("wdaway") is None


def test_a_watchdog_the_kill_misses_exits_without_acting():
    """The configuration goes first: a process that survives the kill (its pid file lost) sees it
    gone at its next poll and exits instead of shutting the machine down."""
    with gpu_server("wdmiss", {"steps": [busy(2), idle(2)]}) as (server, fake):
        _fakes(server)
        fake.pin(0)
        conn = open_connection("wdmiss")
        try:
            pid = watchdog.install(conn, below_pct=30, window_s=2, interval_s=1, smi_timeout_s=5)
            pidfile = _home(server) / "watchdog.pid"
            pidfile.write_text("1\n")  # the kill in remove() finds no watchdog there
            assert watchdog.remove(conn)
            fake.pin(1)
            _until(lambda: not _alive(pid), "the missed watchdog exited by itself", timeout=20)
            assert "configuration removed or replaced: exiting" in _log(server)
            assert not (server.bin_dir / "shutdown.called").exists()
        finally:
            watchdog.remove(conn)
            conn.close()


# -- updated when the guard changes ----------------------------------------------------------------

def test_a_changed_guard_replaces_the_window():
    with gpu_server("wdchg", {"steps": [busy(2)]}) as (server, _fake):
        _fakes(server)
        r = _cli("guard", "set", "wdchg", "--idle-minutes", "0.5", "--watchdog")
        assert r.returncode == 0, r.stderr
        first = int((_home(server) / "watchdog.pid").read_text())
        # a later change without --watchdog: the guard still has it, so it follows the new window
        r = _cli("guard", "set", "wdchg", "--idle-minutes", "60")
        assert r.returncode == 0, r.stderr
        assert "Watchdog running on wdchg" in r.stdout and "after 60 min" in r.stdout
        _until(lambda: not _alive(first), "the 30-second watchdog ended", timeout=20)
        conn = open_connection("wdchg")
        try:
            st = watchdog.status(conn)
            assert st.running and st.pid != first
            assert st.conf["window"] == 3600 and st.conf["below"] == 30
            assert "window=3600s" in _log(server)
        finally:
            watchdog.remove(conn)
            conn.close()


# -- nvidia-smi: hangs and warning lines -------------------------------------------------------------

@pytest.mark.parametrize("timeout_tool", ["coreutils", "shell-fallback"])
def test_a_hung_nvidia_smi_counts_as_busy_and_the_loop_goes_on(timeout_tool):
    with gpu_server("wdhang", {"steps": [hang(600), hang(600), idle(2)]}) as (server, fake):
        _fakes(server)
        if timeout_tool == "shell-fallback":
            server.install_executable("timeout", BROKEN_TIMEOUT)
            server.chown_to_user(server.bin_dir)
        conn = open_connection("wdhang")
        try:
            watchdog.install(conn, below_pct=30, window_s=2, interval_s=1, smi_timeout_s=1)
            called = _shutdown_called(server)
            assert called.split()[1:] == ["-h", "now"]
            log = _log(server)
            assert log.count("counted as busy") >= 2, log
            assert fake.position() >= 3  # both hung calls ended, the loop went on to the idle ones
        finally:
            watchdog.remove(conn)
            conn.close()
        # nothing of the hung calls is left behind
        out = subprocess.run(["pgrep", "-f", str(server.bin_dir / "nvidia-smi")], capture_output=True, text=True)
        assert out.stdout.strip() == ""


def test_a_warning_line_before_the_csv_is_ignored():
    with gpu_server("wdwarn", {"steps": [warned(idle(2))]}) as (server, _fake):
        _fakes(server)
        conn = open_connection("wdwarn")
        try:
            watchdog.install(conn, below_pct=30, window_s=2, interval_s=1)
            assert _shutdown_called(server).split()[1:] == ["-h", "now"]
        finally:
            watchdog.remove(conn)
            conn.close()


def test_a_warning_line_does_not_hide_a_busy_gpu():
    """Ignoring the warning must not make the host look idle: a busy record still counts."""
    with gpu_server("wdwarnb", {"steps": [warned(busy(2))] * 6 + [idle(2)]}) as (server, fake):
        _fakes(server)
        conn = open_connection("wdwarnb")
        try:
            watchdog.install(conn, below_pct=30, window_s=1, interval_s=1)
            _shutdown_called(server)
            assert fake.position() >= 7  # it fired only after the busy steps
        finally:
            watchdog.remove(conn)
            conn.close()


# -- monotonic window ------------------------------------------------------------------------------

def test_a_clock_stepped_back_an_hour_does_not_stretch_the_window():
    with gpu_server("wdclock", {"steps": [idle(2)]}) as (server, _fake):
        _fakes(server)
        server.install_executable("date", FAKE_DATE_BACK)
        server.chown_to_user(server.bin_dir)
        conn = open_connection("wdclock")
        try:
            watchdog.install(conn, below_pct=30, window_s=3, interval_s=1)
            assert _shutdown_called(server).split()[1:] == ["-h", "now"]
            assert "clock=uptime" in _log(server)
        finally:
            watchdog.remove(conn)
            conn.close()


# -- the shutdown must be permitted ----------------------------------------------------------------

def test_install_refuses_where_sudo_wants_a_password():
    with gpu_server("wdsudo", {"steps": [idle(2)]}) as (server, _fake):
        _fakes(server, sudo=FAKE_SUDO_PASSWORD)
        conn = open_connection("wdsudo")
        try:
            with pytest.raises(LabGpuError) as err:
                watchdog.install(conn, below_pct=30, window_s=1, interval_s=1)
            assert err.value.code == "WatchdogNoPermission"
            assert "a password is required" in err.value.text() and server.user in err.value.text()
            assert "NOPASSWD" in err.value.hint()
            st = watchdog.status(conn)
            assert not st.running and not st.configured
        finally:
            watchdog.remove(conn)
            conn.close()
        # the CLI says so, exits non-zero, never "Watchdog running", and the guard keeps no watchdog
        r = _cli("guard", "set", "wdsudo", "--idle-minutes", "0.05", "--watchdog")
        assert r.returncode != 0
        assert "Watchdog running" not in r.stdout
        assert "a password is required" in r.stderr and "NOPASSWD" in r.stderr
        assert "Traceback" not in r.stderr
        r = _cli("guard", "ls", "--json")
        item = next(i for i in json.loads(r.stdout) if i["id"] == "wdsudo")
        assert item["watchdog"] is False and item["watchdog_state"] == "gone"


def test_a_shutdown_refused_later_reaches_the_app():
    """sudo loses its NOPASSWD after the install: the watchdog writes why to its status file; the
    next connection reads it and `guard ls` says the watchdog failed, with its words."""
    cfg = GuardConfig(idle_minutes=1 / 60, watchdog=True)
    with gpu_server("wdlate", {"steps": [idle(2)]}) as (server, _fake):
        _fakes(server)
        GuardStore(_store()).set("wdlate", cfg)
        conn = open_connection("wdlate")
        try:
            watchdog.install_params(conn, watchdog.params_for_guard(cfg))
            server.install_executable("sudo", FAKE_SUDO_PASSWORD)
            server.chown_to_user(server.bin_dir)
            st = _until(lambda: (s := watchdog.status(conn)).failed and s, "the refused shutdown in the status file")
            assert "a password is required" in st.message  # type: ignore[attr-defined]
            book = watchdog.WatchdogBook.default()
            report = watchdog.reconcile(conn, "wdlate", cfg, book)
            assert report.state == "failed"
            assert "could not shut the machine down" in report.text() and "a password is required" in report.text()
            assert book.get("wdlate")["state"] == "failed"  # type: ignore[index]
            r = _cli("guard", "ls", "--json")
            item = next(i for i in json.loads(r.stdout) if i["id"] == "wdlate")
            assert item["watchdog"] is False and item["watchdog_state"] == "failed"
            assert "a password is required" in item["watchdog_message"]
            r = _cli("guard", "ls")
            assert "watchdog: failed" in r.stdout
        finally:
            watchdog.remove(conn)
            conn.close()


# -- after a stop/start ----------------------------------------------------------------------------

def test_gone_after_a_stop_start_it_is_started_again_or_said_to_be_gone():
    cfg = GuardConfig(idle_minutes=10, watchdog=True)
    with gpu_server("wdboot", {"steps": [busy(2)]}) as (server, _fake):
        _fakes(server)
        GuardStore(_store()).set("wdboot", cfg)
        book = watchdog.WatchdogBook.default()
        conn = open_connection("wdboot")
        try:
            first = watchdog.install_params(conn, watchdog.params_for_guard(cfg))
            book.set("wdboot", "running")
            os.kill(first, signal.SIGKILL)  # what a stop/start does to it: the files stay, the process is gone
            _until(lambda: not _alive(first), "the watchdog process gone")
            report = watchdog.reconcile(conn, "wdboot", cfg, book)
            assert report.state == "running" and "started it again" in report.text()
            st = watchdog.status(conn)
            assert st.running and st.pid != first
            # the next stop/start, and this time sudo wants a password: said to be gone, with why
            os.kill(st.pid, signal.SIGKILL)  # type: ignore[arg-type]
            _until(lambda: not _alive(st.pid), "the watchdog process gone")  # type: ignore[arg-type]
            server.install_executable("sudo", FAKE_SUDO_PASSWORD)
            server.chown_to_user(server.bin_dir)
            report = watchdog.reconcile(conn, "wdboot", cfg, book)
            assert report.state == "gone" and "a password is required" in report.text()
            r = _cli("guard", "ls", "--json")
            item = next(i for i in json.loads(r.stdout) if i["id"] == "wdboot")
            assert item["watchdog"] is False and item["watchdog_state"] == "gone"
            # the guard removed: the watchdog left on the host is removed by the next reconcile
            report = watchdog.reconcile(conn, "wdboot", None, book)
            assert report.state == "removed" and book.get("wdboot") is None
            assert not watchdog.status(conn).configured
        finally:
            watchdog.remove(conn)
            conn.close()


def _store() -> Store:
    store = Store(paths=default_paths())
    store.migrate()
    return store


def test_the_watcher_starts_a_gone_watchdog_again_and_says_so():
    """The watcher's scan (check_watchdogs, every 30 s while it watches) finds the watchdog's process gone
    on a guarded host (what a stop/start does), starts it again and says so in an event — once per run and
    guard setting, not on every scan."""
    from app.watch import Watcher

    cfg = GuardConfig(idle_minutes=10, watchdog=True)
    with gpu_server("wdscan", {"steps": [busy(2)]}) as (server, _fake):
        _fakes(server)
        store = _store()
        GuardStore(store).set("wdscan", cfg)
        conn = open_connection("wdscan")
        w = Watcher(store=store, sleep=lambda _s: None)
        assert w.acquire()
        try:
            first = watchdog.install_params(conn, watchdog.params_for_guard(cfg))
            os.kill(first, signal.SIGKILL)  # the files stay, the process is gone
            _until(lambda: not _alive(first), "the watchdog process gone")
            for th in w.check_watchdogs(lambda _target: conn):
                th.join(60)
            [ev] = [e for e in w.events if e.kind == "watchdog"]
            assert ev.target_id == "wdscan" and "started it again" in ev.message
            st = watchdog.status(conn)
            assert st.running and st.pid != first
            assert w.check_watchdogs(lambda _target: conn) == []  # checked for this run already
        finally:
            w.close()
            watchdog.remove(conn)
            conn.close()
            store.close()
