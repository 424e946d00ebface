"""Exactly one watcher, always one: whoever wants to watch — `labgpu watch`, the
tray (`labgpu --tray`), the window — waits on the lock and takes over within seconds when the holder
exits or dies; `labgpu guard ls` and the tray say who watches (pid and kind).

Every process here is real: the CLI and the tray run as a student starts them (the tray offscreen),
and the measured case stops a real instance of the local Tencent peer whose GPUs a real sshd's fake
nvidia-smi reports idle.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from app.core.paths import default_paths
from tests.e2e.instance_support import GN7, ROOT, cli, ok, serve_instances_from
from tests.fixtures.fake_nvidia_smi import busy, idle, install_fake_nvidia_smi
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY
from tests.fixtures.waits import wait_for


def start_watch() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "app", "watch", "--json", "--period", "0.2"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))


def start_tray() -> subprocess.Popen:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.Popen([sys.executable, "-m", "app", "--tray", "--lang", "en"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)


def lock_text() -> str:
    try:
        return (default_paths().data_dir / "watch.lock").read_text()
    except FileNotFoundError:
        return ""


def watcher_line() -> str:
    return [ln for ln in ok("guard", "ls").stdout.splitlines() if ln.startswith("Watcher:")][0]


def end(proc: subprocess.Popen, sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
    try:
        proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=60)


def test_a_watch_waits_under_another_watch_and_takes_over(labgpu_home):
    a = start_watch()
    b = None
    try:
        assert a.stderr is not None
        assert "Watching 0 guarded target" in a.stderr.readline()
        b = start_watch()
        assert b.stderr is not None
        line = b.stderr.readline()
        assert f"applied by process {a.pid} (labgpu watch); waiting to take over" in line, line
        assert watcher_line() == f"Watcher: process {a.pid} (labgpu watch)"
        assert b.poll() is None  # it waits (it was refused with WatchLocked before)
        end(a)
        assert "Took over the guards" in b.stderr.readline()
        assert "Watching 0 guarded target" in b.stderr.readline()
        assert watcher_line() == f"Watcher: process {b.pid} (labgpu watch)"
        # `--no-wait` keeps the old refusal for scripts
        r = cli("watch", "--no-wait")
        assert r.returncode == 2 and "[WatchLocked]" in r.stderr
    finally:
        end(a)
        if b is not None:
            end(b)


def test_a_watch_waits_under_the_tray_and_takes_over_when_it_is_killed(secret_service, labgpu_home):
    tray = start_tray()
    w = None
    try:
        wait_for(lambda: lock_text() == f"{tray.pid} tray", 120, "the tray to take the watch lock")
        assert watcher_line() == f"Watcher: process {tray.pid} (the tray)"
        w = start_watch()
        assert w.stderr is not None
        line = w.stderr.readline()
        assert f"applied by process {tray.pid} (the tray); waiting" in line, line
        end(tray, signal.SIGKILL)  # the tray dies (no clean exit): the kernel drops its flock
        assert "Took over the guards" in w.stderr.readline()
        assert lock_text() == f"{w.pid} watch"
    finally:
        end(tray, signal.SIGKILL)
        if w is not None:
            end(w)


def test_the_tray_waiting_under_watch_stops_the_idle_instance_after_watch_exits(
        secret_service, tencent_server, private_home, labgpu_home, monkeypatch, instance_sshd):
    """The case of the issue: the tray started while `labgpu watch` held the lock; watch is closed;
    the tray takes over and its idle guard stops the instance within the window plus 10 s."""
    server = instance_sshd
    fake = install_fake_nvidia_smi(server, {"steps": [busy(2)] * 3 + [idle(2)]})
    fake.pin(0)  # busy until the test lets training finish
    serve_instances_from(server, tencent_server, private_home, monkeypatch)
    ok("accounts", "add", "tencent", "lab", "--region", "ap-guangzhou", "--endpoint", tencent_server.endpoint,
       stdin=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n")
    iid = json.loads(ok("launch", "--account", "lab", "--type", GN7, "--json").stdout)["id"]
    window_s = 5.0
    ok("guard", "set", iid, "--idle-minutes", str(window_s / 60), "--on-idle", "stop", "--no-sync-before-stop")

    watch = start_watch()
    tray = None
    try:
        assert watch.stderr is not None
        assert "Watching 1 guarded target" in watch.stderr.readline()
        tray = start_tray()
        log = default_paths().log_file
        wait_for(lambda: log.exists() and f"guards applied by process {watch.pid} (watch); waiting"
                 in log.read_text(errors="replace"), 120, "the tray to wait on the lock")
        fake.pin(None)  # training ends: the GPUs go idle
        end(watch)  # the student closes `labgpu watch`
        closed = time.monotonic()
        wait_for(lambda: lock_text() == f"{tray.pid} tray", 30, "the tray to take over")
        took_over = time.monotonic() - closed
        try:
            wait_for(lambda: tencent_server.requests_of("StopInstances"), 120, "the tray's idle guard to stop it")
        except AssertionError as exc:  # say what the tray decided meanwhile (its guard lines are in the log)
            text = log.read_text(errors="replace") if log.exists() else "(no log file)"
            calls = sorted({a for a, _params in tencent_server.calls})
            raise AssertionError(f"{exc}\nTencent calls seen: {calls}\n"
                                 f"the end of the app's log:\n{text[-6000:]}") from None
        stopped = time.monotonic() - closed
        print(f"tray took over {took_over:.2f} s after watch closed; StopInstances {stopped:.2f} s after "
              f"(window {window_s:g} s + 10 s = {window_s + 10:g} s)")
        assert watcher_line() == f"Watcher: process {tray.pid} (the tray)"
        assert len(tencent_server.requests_of("StopInstances")) == 1
        assert tencent_server.billing_state(iid)[0] in ("STOPPING", "STOPPED")
    finally:
        end(watch)
        if tray is not None:
            end(tray)
