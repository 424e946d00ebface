"""The environment as a student meets it, run for real: no display (SSH, WSL, a container), a real X
server (Xvfb), a tray-only start with no tray, and the keyring over SSH (no D-Bus session), inside a
D-Bus session with gnome-keyring locked, and unlocked by the very command LabGPU advises."""

from __future__ import annotations

import contextlib
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]


def _env(labgpu_home: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env.update(LABGPU_HOME=str(labgpu_home), PYTHONPATH=str(ROOT))
    env.update(extra)
    return env


def _doctor(env: dict[str, str]) -> dict[str, dict]:
    r = clirun.run([sys.executable, "-m", "app", "doctor", "--json"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=180)
    assert "Traceback" not in r.stderr, r.stderr
    return {c["key"]: c for c in json.loads(r.stdout)["checks"]}


@pytest.fixture
def xvfb() -> Iterator[str]:
    """A real X server; -displayfd says its number once it accepts connections."""
    if not shutil.which("Xvfb"):
        pytest.fail("Xvfb is missing: run packaging/bootstrap.py test (it installs xvfb)")
    read, write = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    try:
        assert select.select([read], [], [], 60)[0], "Xvfb did not start"
        number = os.read(read, 32).decode().strip()
        assert number.isdigit(), f"Xvfb said {number!r}"
        yield f":{number}"
    finally:
        os.close(read)
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _free_display() -> str:
    n = next(n for n in range(900, 999) if not Path(f"/tmp/.X11-unix/X{n}").exists()
             and not Path(f"/tmp/.X{n}-lock").exists())
    return f":{n}"


# --- the window without a display -------------------------------------------------------------------

def test_without_a_display_main_py_says_so_and_names_the_command_line(labgpu_home):
    r = subprocess.run([sys.executable, "main.py"], cwd=ROOT, env=_env(labgpu_home), capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 3
    assert "LabGPU cannot open its window. There is no graphical display here" in r.stderr
    assert "'python3 main.py --help' lists them" in r.stderr and "'python3 main.py doctor'" in r.stderr
    assert "ssh -X" in r.stderr
    assert "xcb-cursor" not in r.stderr and "Traceback" not in r.stderr and "platform plugin" not in r.stderr
    assert r.stdout == ""


def test_without_a_display_the_message_follows_the_users_language(labgpu_home):
    r = subprocess.run([sys.executable, "main.py"], cwd=ROOT, env=_env(labgpu_home, LANG="zh_CN.UTF-8", LC_ALL=""),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 3
    assert r.stderr.startswith("LabGPU 无法打开窗口。这里没有图形显示：DISPLAY 和 WAYLAND_DISPLAY 都未设置"), r.stderr
    assert "'python3 main.py --help' 列出全部命令" in r.stderr
    doctor = _doctor(_env(labgpu_home, LANG="zh_CN.UTF-8", LC_ALL=""))["display"]
    assert doctor["name"] == "显示" and "这里没有图形显示" in doctor["detail"]


def test_a_display_that_does_not_answer_is_named_and_the_tray_start_says_so_too(labgpu_home):
    gone = _free_display()
    r = clirun.run([sys.executable, "-m", "app", "--tray"], cwd=ROOT, env=_env(labgpu_home, DISPLAY=gone),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 3
    assert f"The display {gone} (DISPLAY) does not answer, or refuses this user." in r.stderr
    assert "'python3 -m app --help'" in r.stderr
    assert "xcb-cursor" not in r.stderr and "Traceback" not in r.stderr


def test_a_screenshot_still_renders_without_a_display(labgpu_home, tmp_path):
    shot = tmp_path / "offers.png"
    r = clirun.run([sys.executable, "-m", "app", "--screenshot", str(shot), "--page", "offers"], cwd=ROOT,
                       env=_env(labgpu_home), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert shot.stat().st_size > 1000


# --- doctor's display row ---------------------------------------------------------------------------

def test_doctor_display_row_without_with_a_dead_and_with_a_real_display(labgpu_home, xvfb):
    none = _doctor(_env(labgpu_home))["display"]
    assert none["status"] == "warn" and "DISPLAY and WAYLAND_DISPLAY are not set" in none["detail"]
    assert "--help" in none["next_step"] and "ssh -X" in none["next_step"]

    gone = _free_display()
    dead = _doctor(_env(labgpu_home, DISPLAY=gone))["display"]
    assert dead["status"] == "warn" and gone in dead["detail"] and "unset DISPLAY" in dead["next_step"]

    off = _doctor(_env(labgpu_home, QT_QPA_PLATFORM="offscreen"))["display"]
    assert off["status"] == "warn" and "offscreen" in off["detail"] and "QT_QPA_PLATFORM" in off["next_step"]

    real = _doctor(_env(labgpu_home, DISPLAY=xvfb))["display"]
    assert real["status"] == "ok", real
    assert real["detail"] == f"X11 display {xvfb}: Qt opens it (xcb, 1024×768)"
    # and the window really starts there: it is not stopped by the display check
    app = subprocess.Popen([sys.executable, "-m", "app", "--lang", "en"], cwd=ROOT,
                           env=_env(labgpu_home, DISPLAY=xvfb, LABGPU_STARTUP_PROBE="1"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = app.communicate(timeout=180)
    finally:
        if app.poll() is None:
            app.kill()
            app.wait()
    assert app.returncode == 0 and "LABGPU_SHOWN" in out, err


# --- labgpu --tray without a tray -------------------------------------------------------------------

def test_tray_only_start_without_a_tray_says_so_once_until_a_tray_appears(labgpu_home, xvfb):
    env = _env(labgpu_home, DISPLAY=xvfb, QT_QPA_PLATFORM="xcb", DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent")
    app = subprocess.Popen([sys.executable, "-m", "app", "--tray", "--lang", "en"], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    panel = None
    try:
        assert app.stderr is not None
        first = app.stderr.readline()
        assert first.startswith("LabGPU: there is no system tray here, so the cost monitor runs without its icon")
        assert "'python3 -m app cost'" in first
        panel = subprocess.Popen(["trayer", "--edge", "top", "--align", "right", "--widthtype", "request",
                                  "--height", "24", "--SetDockType", "true", "--expand", "true"],
                                 env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 90  # an upper bound: the tray polls every 2 s
        tree = ""
        while not re.search(r'"LabGPU": \("[^"]*" "LabGPU"\)\s+22x22', tree):
            assert app.poll() is None and time.monotonic() < deadline, tree
            tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True,
                                  timeout=20).stdout
            time.sleep(0.2)
    finally:
        for proc in (app, panel):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    rest = app.stderr.read()  # type: ignore[union-attr]
    assert "no system tray" not in rest, rest  # said once, not at each poll before the tray came


# --- the keyring's advice ---------------------------------------------------------------------------

@pytest.fixture
def keyring_home() -> Iterator[dict[str, str]]:
    """A throwaway XDG data and runtime folder (no one's real keyring); gnome-keyring daemons that used it
    are gone afterwards."""
    tmp = tempfile.mkdtemp(prefix="labgpu-keyring-advice-")
    keys = {"XDG_DATA_HOME": os.path.join(tmp, "data"), "XDG_RUNTIME_DIR": os.path.join(tmp, "run")}
    os.makedirs(keys["XDG_RUNTIME_DIR"], mode=0o700)
    yield keys
    for pid in _pids_with(keys["XDG_RUNTIME_DIR"]):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 15)
    shutil.rmtree(tmp, ignore_errors=True)


def _pids_with(marker: str) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if marker.encode() in (entry / "environ").read_bytes():
                    pids.append(int(entry.name))
    return pids


def _no_session_env(labgpu_home: Path, keyring_home: dict[str, str], **extra: str) -> dict[str, str]:
    env = _env(labgpu_home, **keyring_home, **extra)
    for k in ("DBUS_SESSION_BUS_ADDRESS", "PYTHON_KEYRING_BACKEND"):
        env.pop(k, None)
    return env


def test_keyring_not_installed_says_install(labgpu_home, keyring_home, tmp_path):
    bare = tmp_path / "bin"  # a PATH without gnome-keyring-daemon
    bare.mkdir()
    got = _doctor(_no_session_env(labgpu_home, keyring_home, PATH=str(bare)))["keyring"]
    assert got["status"] == "fail" and "No secure keyring is available" in got["detail"]
    assert "sudo apt install gnome-keyring" in got["next_step"]


def test_keyring_over_ssh_names_the_session_command_and_that_command_works(labgpu_home, keyring_home):
    if not shutil.which("gnome-keyring-daemon") or not shutil.which("dbus-run-session"):
        pytest.fail("gnome-keyring and dbus are missing: run packaging/bootstrap.py test")
    env = _no_session_env(labgpu_home, keyring_home)
    got = _doctor(env)["keyring"]
    assert got["status"] == "fail"
    assert got["detail"] == ("The keyring (gnome-keyring) is installed, but there is no D-Bus session here to reach "
                             "it (as over SSH, in WSL or on a virtual display).")
    command = re.search(r"inside it: (dbus-run-session .*exec bash') \(", got["next_step"])
    assert command, got["next_step"]
    # the student pastes it, types a password, and runs LabGPU in the shell it opens
    r = subprocess.run(["bash", "-c", command.group(1)], cwd=ROOT, env=env, text=True, capture_output=True,
                       timeout=180, input=f"a-password\n{sys.executable} -m app doctor --json\n")
    inside = {c["key"]: c for c in json.loads(r.stdout[r.stdout.index("{"):])["checks"]}
    assert inside["keyring"]["status"] == "ok", inside["keyring"]
    assert inside["keyring"]["detail"] == "keyring.backends.SecretService.Keyring"


def test_keyring_locked_in_a_session_names_the_unlock_command_and_it_works(labgpu_home, keyring_home):
    """Inside a D-Bus session (dbus-run-session, no desktop) gnome-keyring starts locked and nothing can ask
    for its password: doctor says locked, and the command it gives unlocks it in that session."""
    env = _no_session_env(labgpu_home, keyring_home)
    script = (f'{sys.executable} -m app doctor --json > "$1/before.json"; '
              f'eval "$(cat "$1/command")"; '
              f'{sys.executable} -m app doctor --json > "$1/after.json"')
    work = Path(keyring_home["XDG_RUNTIME_DIR"]).parent
    # the command is what doctor says; read here from the module that says it (the same text)
    from app.core import secrets

    (work / "command").write_text(secrets._UNLOCK)
    r = subprocess.run(["dbus-run-session", "--", "bash", "-c", script, "bash", str(work)], cwd=ROOT, env=env,
                       text=True, capture_output=True, timeout=240, input="a-password\n")
    before = {c["key"]: c for c in json.loads((work / "before.json").read_text())["checks"]}["keyring"]
    after = {c["key"]: c for c in json.loads((work / "after.json").read_text())["checks"]}["keyring"]
    assert before["status"] == "fail", (before, r.stderr[-2000:])
    assert before["detail"].startswith("The keyring is locked (or not created yet)")
    assert secrets._UNLOCK in before["next_step"]
    assert after["status"] == "ok", (after, r.stderr[-2000:])
