"""The tray cost monitor on both of Qt's tray paths, on a real X server (Xvfb), with real peers.

- XEmbed: ``trayer`` embeds the icon (its geometry is its place in the panel);
- StatusNotifierItem: ``status-notifier-watcher`` on the session D-Bus; the test reads the item
  and its exported menu (com.canonical.dbusmenu) over D-Bus as a panel would;
- late panel: the tray appears after the app started; the icon must still show.
The instance runs on the local Tencent TC3 peer; Stop from the tray menu reaches it.
The tray runs in a child process (tests/ui/tray_driver.py) on its own Xvfb display, because the
test process's Qt is on the offscreen platform.
"""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY

ROOT = Path(__file__).resolve().parents[2]
GN7 = "GN7.2XLARGE32"


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


@pytest.fixture
def xvfb():
    if not shutil.which("Xvfb"):
        pytest.fail("Xvfb is missing: run packaging/bootstrap.py (it installs xvfb, trayer and the SNI watcher)")
    for n in range(40):
        display = 300 + (os.getpid() * 7 + n) % 600
        if not Path(f"/tmp/.X11-unix/X{display}").exists() and not Path(f"/tmp/.X{display}-lock").exists():
            break
    proc = subprocess.Popen(["Xvfb", f":{display}", "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sock = Path(f"/tmp/.X11-unix/X{display}")
    deadline = time.monotonic() + 20
    while not sock.exists():
        assert proc.poll() is None, "Xvfb exited"
        assert time.monotonic() < deadline, "Xvfb did not start"
        time.sleep(0.05)
    yield f":{display}"
    _stop(proc)


@pytest.fixture
def running_instance(labgpu_home, secret_service, tencent_server, monkeypatch):
    """A running on-demand instance launched on the TC3 peer, in this test's LABGPU_HOME ledger."""
    import app.cloud.launch as launch
    from app.cloud.launch import CloudService
    from app.cloud.launch_plan import LaunchOptions
    from app.cloud.tencent import TencentProvider
    from app.core.accounts import Account, Credentials
    from app.core.paths import default_paths

    monkeypatch.setattr(launch, "POLL_S", 0.05)
    monkeypatch.setattr(TencentProvider, "poll_interval", 0.05)
    svc = CloudService(default_paths())
    svc.accounts.add(Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint),
                     Credentials(TEST_SECRET_ID, TEST_SECRET_KEY))
    result = svc.launch(LaunchOptions(account="lab-tc", instance_type=GN7, ssh_from="198.51.100.7/32"))
    svc.close()
    assert result.entry.state == "running"
    return result.entry.id


class Driver:
    def __init__(self, display: str, extra_env: dict[str, str] | None = None) -> None:
        env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT))
        env.pop("WAYLAND_DISPLAY", None)
        env.update(extra_env or {})
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.ui.tray_driver"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True)
        self.lines: queue.Queue[dict] = queue.Queue()
        self.err: list[str] = []
        threading.Thread(target=self._read, name="session-tray-out", daemon=True).start()
        threading.Thread(target=self._read_err, name="session-tray-err", daemon=True).start()

    def _read(self) -> None:
        for line in self.proc.stdout:  # type: ignore[union-attr]
            try:
                self.lines.put(json.loads(line))
            except ValueError:
                self.err.append(line)

    def _read_err(self) -> None:
        for line in self.proc.stderr:  # type: ignore[union-attr]
            self.err.append(line)

    def expect(self, event: str, timeout: float = 60.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or self.proc.poll() is not None and self.lines.empty():
                raise AssertionError(f"no {event!r} from the tray; stderr:\n{''.join(self.err[-40:])}")
            try:
                doc = self.lines.get(timeout=min(left, 0.5))
            except queue.Empty:
                continue
            if doc.get("event") == "error":
                raise AssertionError(doc)
            if doc.get("event") == event:
                return doc

    def send(self, text: str) -> None:
        self.proc.stdin.write(text + "\n")  # type: ignore[union-attr]
        self.proc.stdin.flush()  # type: ignore[union-attr]

    def close(self) -> None:
        try:
            self.send("quit")
            self.proc.wait(15)
        except (OSError, subprocess.TimeoutExpired):
            pass
        _stop(self.proc)


def _trayer(display: str) -> subprocess.Popen:
    """trayer's panel, shown: its window is on the screen before this returns. A trayer that died
    on start (a loaded machine, the X server still settling) is started again."""
    env = dict(os.environ, DISPLAY=display)
    for _attempt in range(3):
        proc = subprocess.Popen(["trayer", "--edge", "top", "--align", "right", "--widthtype", "request",
                                 "--height", "24", "--transparent", "false"],
                                env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30  # an upper bound on trayer showing its panel
        while proc.poll() is None and time.monotonic() < deadline:
            tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True,
                                  timeout=20).stdout
            if '("panel" "trayer")' in tree:
                return proc
            time.sleep(0.1)
        _stop(proc)
    pytest.fail("trayer did not show its panel (started three times)")


def _stop_and_check(driver: Driver, iid: str, tencent_server) -> None:
    driver.send(f"stop {iid}")
    confirm = driver.expect("confirm")
    assert iid in confirm["text"] and "/h" in confirm["text"]
    stopped = driver.expect("stopped")
    assert stopped["ok"] is True and stopped["id"] == iid, stopped
    assert tencent_server.billing_state(iid)[0] == "STOPPED"
    after = driver.expect("after")
    assert not any(iid in t for t in after["menu"])
    assert "Nothing is billing" in after["menu"]


def test_xembed_tray_shows_cost_lists_instances_and_stop_reaches_the_cloud(
        xvfb, running_instance, tencent_server):
    iid = running_instance
    panel = _trayer(xvfb)
    driver = Driver(xvfb, {"DBUS_SESSION_BUS_ADDRESS": os.environ["DBUS_SESSION_BUS_ADDRESS"]})
    try:
        shown = driver.expect("shown")
        x, y, w, h = shown["geometry"]
        assert w > 0 and h > 0  # embedded in trayer's panel
        assert any(t.startswith(iid) and " — ¥" in t and "/h" in t for t in shown["menu"]), shown["menu"]
        assert shown["menu"][0].startswith("Billing now: 1 instance(s), ¥")  # the instances page's line
        assert "Open LabGPU" in shown["menu"] and "Quit LabGPU" in shown["menu"]
        assert iid in shown["tooltip"] and "so far" in shown["tooltip"]
        _stop_and_check(driver, iid, tencent_server)
    finally:
        driver.close()
        _stop(panel)


def test_tray_appears_when_the_panel_starts_after_the_app(xvfb, running_instance, tencent_server):
    driver = Driver(xvfb, {"DBUS_SESSION_BUS_ADDRESS": os.environ["DBUS_SESSION_BUS_ADDRESS"]})
    panel = None
    try:
        started = driver.expect("started")
        assert started["available"] is False  # no panel yet: Qt has nowhere to put the icon
        panel = _trayer(xvfb)  # the panel comes up later (a login race)
        shown = driver.expect("shown")
        assert shown["geometry"][2] > 0
        assert any(running_instance in t for t in shown["menu"])
    finally:
        driver.close()
        if panel is not None:
            _stop(panel)


def _gdbus(*args: str) -> str:
    return subprocess.run(["gdbus", "call", "--session", *args], check=True, capture_output=True, text=True,
                          timeout=20).stdout


@pytest.fixture
def sni_watcher(secret_service):
    exe = shutil.which("status-notifier-watcher")
    if not exe:
        pytest.fail("status-notifier-watcher is missing: apt-get install haskell-status-notifier-item-utils "
                    "(packaging/bootstrap.py APT_TEST)")
    proc = subprocess.Popen([exe], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while True:
        names = _gdbus("--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                       "--method", "org.freedesktop.DBus.ListNames")
        if "org.kde.StatusNotifierWatcher" in names:
            break
        assert proc.poll() is None and time.monotonic() < deadline, "the SNI watcher did not start"
        time.sleep(0.1)
    yield
    _stop(proc)
    deadline = time.monotonic() + 10
    while "org.kde.StatusNotifierWatcher" in _gdbus(
            "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
            "--method", "org.freedesktop.DBus.ListNames") and time.monotonic() < deadline:
        time.sleep(0.1)


def test_status_notifier_item_tray_exports_the_menu_over_dbus_and_stop_works(
        xvfb, sni_watcher, running_instance, tencent_server):
    iid = running_instance
    driver = Driver(xvfb, {"LABGPU_TRAY_SNI": "1"})
    try:
        shown = driver.expect("shown")
        assert any(iid in t for t in shown["menu"])
        items = _gdbus("--dest", "org.kde.StatusNotifierWatcher", "--object-path", "/StatusNotifierWatcher",
                       "--method", "org.freedesktop.DBus.Properties.Get", "org.kde.StatusNotifierWatcher",
                       "RegisteredStatusNotifierItems")
        service = items.split("'")[1]  # the app's bus name (optionally with its object path)
        bus, _, path = service.partition("/")
        path = "/" + path if path else "/StatusNotifierItem"
        menu_path = _gdbus("--dest", bus, "--object-path", path, "--method", "org.freedesktop.DBus.Properties.Get",
                           "org.kde.StatusNotifierItem", "Menu").split("'")[1]
        tooltip = _gdbus("--dest", bus, "--object-path", path, "--method", "org.freedesktop.DBus.Properties.Get",
                         "org.kde.StatusNotifierItem", "ToolTip")
        assert iid in tooltip
        layout = ""
        deadline = time.monotonic() + 30
        while iid not in layout and time.monotonic() < deadline:
            layout = _gdbus("--dest", bus, "--object-path", menu_path, "--method",
                            "com.canonical.dbusmenu.GetLayout", "--", "0", "-1", "@as []")
        assert iid in layout and "Open LabGPU" in layout and "Quit LabGPU" in layout
        _stop_and_check(driver, iid, tencent_server)
    finally:
        driver.close()


def test_spot_notice_from_a_worker_thread_offers_relaunch_and_quit_names_the_instances(
        qtbot, running_instance, tencent_server):
    """In the test's own Qt (offscreen): the event marshalling, the relaunch path and the quit question."""
    from datetime import datetime, timezone

    from PySide6.QtWidgets import QPushButton

    from app.core.guards import GuardEvent
    from app.core.paths import default_paths
    from app.ui.context import AppContext
    from app.ui.tray import CostTray

    iid = running_instance
    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    quits: list[bool] = []
    tray = CostTray(ctx, open_window=lambda: None, quit_app=lambda: quits.append(True))
    try:
        tray.refresh()
        qtbot.waitUntil(lambda: any(r.id == iid for r in tray.rows), timeout=10000)
        ev = GuardEvent(datetime.now(timezone.utc), iid, "spot-notice",
                        f"{iid} will be reclaimed by the cloud at 12:00 UTC (terminate)", {})
        worker = threading.Thread(target=tray.post_event, args=(ev,), name="fake-watcher")
        worker.start()
        worker.join(10)
        qtbot.waitUntil(lambda: tray.action("relaunch") is not None, timeout=5000)
        assert GN7 in tray.action("relaunch").text()
        with qtbot.waitSignal(ctx.navigate_requested, timeout=5000) as nav:
            tray.action("relaunch").trigger()
        page, payload = nav.args
        assert page == "instances"
        assert payload["launch"].instance_type == GN7 and payload["launch"].zone
        assert payload["spot"] is False  # the same billing as the instance it replaces (on demand)
        # quitting while it bills asks, names it, and Cancel is the default
        box = tray.confirm_quit()
        qtbot.addWidget(box)
        assert iid in box.text()
        assert box.defaultButton() is not box.findChild(QPushButton, "quitAnyway")
        assert quits == []
        box.findChild(QPushButton, "quitAnyway").click()
        assert quits == [True]
    finally:
        tray.close()
        ctx.shutdown(5000)


def test_labgpu_tray_starts_in_the_tray_alone(xvfb, labgpu_home):
    """`labgpu --tray`: an icon embedded in the panel and no main window."""
    import re

    panel = _trayer(xvfb)
    env = dict(os.environ, DISPLAY=xvfb, QT_QPA_PLATFORM="xcb", LABGPU_HOME=str(labgpu_home),
               PYTHONPATH=str(ROOT), DBUS_SESSION_BUS_ADDRESS="unix:path=/nonexistent")
    app = subprocess.Popen([sys.executable, "-m", "app", "--tray"], cwd=ROOT, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        tree = ""
        while time.monotonic() < deadline:
            assert app.poll() is None, app.stderr.read()  # type: ignore[union-attr]
            tree = subprocess.run(["xwininfo", "-root", "-tree"], env=env, capture_output=True, text=True,
                                  timeout=20).stdout
            if re.search(r'"LabGPU": \("[^"]*" "LabGPU"\)\s+22x22', tree):
                break
            time.sleep(0.2)
        icon = re.search(r'"LabGPU": \("[^"]*" "LabGPU"\)\s+22x22\+\d+\+\d+\s+\+(\d+)\+(\d+)', tree)
        assert icon is not None, tree
        assert int(icon.group(2)) < 24  # inside trayer's 24-pixel panel at the top edge
        assert "LabGPU 0." not in tree  # the main window ("LabGPU <version>") was not created
    finally:
        _stop(app)
        _stop(panel)


def test_closing_the_window_while_an_instance_bills_asks_and_names_it(qtbot, running_instance, app_window):
    """Without a tray to stay in (offscreen), closing the window is quitting: it asks first."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    from app.ui.tray import TrayShell

    ctx, window = app_window
    quits: list[bool] = []
    shell = TrayShell(ctx, QApplication.instance(), window)
    shell.app = type("FakeQuit", (), {"quit": lambda self: quits.append(True),
                                      "setQuitOnLastWindowClosed": lambda self, on: None})()
    shell.tray.refresh()
    qtbot.waitUntil(lambda: any(r.id == running_instance for r in shell.tray.rows), timeout=10000)
    window.close()
    assert window.isVisible()  # not closed: the question is open
    box = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible())
    assert running_instance in box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert window.isVisible() and quits == []
    # Ctrl+Q asks the same way; "Quit anyway" quits
    box = shell.request_quit()
    box.findChild(type(box.buttons()[0]), "quitAnyway").click()
    assert quits == [True]
    shell.tray.close()
    QApplication.instance().setQuitOnLastWindowClosed(True)  # TrayShell turned it off for the tray


def test_vpn_and_guard_events_become_notifications(qtbot, labgpu_home):
    from datetime import datetime, timezone

    from app.core.guards import GuardEvent
    from app.core.paths import default_paths
    from app.remote.vpn import CONNECTED, FAILED, VpnStatus
    from app.ui.context import AppContext
    from app.ui.remote.vpn_watcher import VpnService
    from app.ui.tray import CostTray

    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    vpn = VpnService(ctx.paths)
    ctx.services.vpn = vpn
    opened: list[bool] = []
    tray = CostTray(ctx, open_window=lambda: opened.append(True), quit_app=lambda: None)
    try:
        tray.start()
        with qtbot.waitSignal(tray.notified, timeout=5000) as up:
            vpn.status_changed.emit("campus", VpnStatus(CONNECTED, local_ip="10.8.0.6"))
        assert up.args == ["VPN campus connected", "10.8.0.6"]
        with qtbot.waitSignal(tray.notified, timeout=5000) as down:
            vpn.status_changed.emit("campus", VpnStatus(FAILED, message="AUTH_FAILED"))
        assert down.args == ["VPN campus: FAILED", "AUTH_FAILED"]
        tray._on_icon_message_clicked()  # clicking the notification opens the window
        assert opened == [True]
        ev = GuardEvent(datetime.now(timezone.utc), "ins-1", "idle-notify", "ins-1: every GPU has been under 30 %", {})
        with qtbot.waitSignal(tray.notified, timeout=5000) as guard:
            threading.Thread(target=tray.post_event, args=(ev,), name="fake-watcher").start()
        assert guard.args == ["Guard: ins-1", "ins-1: every GPU has been under 30 %"]
    finally:
        tray.close()
        ctx.shutdown(5000)


def test_the_window_waits_under_labgpu_watch_says_who_watches_and_takes_over(qtbot, labgpu_home, secret_service):
    """The window's guards wait while `labgpu watch` (a real process) holds the lock; the tray menu names
    it; when watch exits the window takes over (within the 0.5 s poll) and the menu says so. Blind
    targets and a stop not yet confirmed are menu lines of their own."""
    from datetime import datetime, timezone

    from PySide6.QtWidgets import QApplication, QWidget

    from app.core.guards import GuardEvent
    from app.core.paths import default_paths
    from app.ui.context import AppContext
    from app.ui.tray import TrayShell

    root = Path(__file__).resolve().parents[2]
    watch = subprocess.Popen([sys.executable, "-m", "app", "watch"], cwd=root, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    window = QWidget()
    qtbot.addWidget(window)
    shell = TrayShell(ctx, QApplication.instance(), window)
    try:
        assert watch.stderr is not None
        assert "Watching" in watch.stderr.readline()
        shell.start_guards()
        assert shell.tray.action("guardsElsewhere").text() == (
            f"Guards are applied by labgpu watch (process {watch.pid}); this LabGPU takes over when it ends")
        svc = ctx.services.watch
        assert svc.kind == "window" and not svc.active
        with qtbot.waitSignal(svc.state_changed, timeout=30000):
            _stop(watch)
        qtbot.waitUntil(lambda: shell.tray.action("guardsHere") is not None, timeout=5000)
        assert shell.tray.action("guardsElsewhere") is None
        assert (default_paths().data_dir / "watch.lock").read_text() == f"{os.getpid()} window"
        now = datetime.now(timezone.utc)
        shell.tray.show_event(GuardEvent(now, "ins-9", "blind", "ins-9: the idle guard is blind — …",
                                         {"why": "GPU 0 reports no utilization (MIG mode or an unsupported GPU)"}))
        assert shell.tray.action("blind:ins-9").text().startswith("ins-9: idle guard blind — GPU 0 reports no")
        shell.tray.show_event(GuardEvent(now, "ins-9", "sighted", "ins-9: the idle guard sees the GPUs again", {}))
        assert shell.tray.action("blind:ins-9") is None
        shell.tray.show_event(GuardEvent(now, "ins-9", "stop-failed", "ins-9 could NOT be stopped: …", {}))
        assert shell.tray.action("stopPending:ins-9").text() == "ins-9: NOT stopped yet — still billing"
        shell.tray.show_event(GuardEvent(now, "ins-9", "stopped", "ins-9 was stopped by its idle-stop guard", {}))
        assert shell.tray.action("stopPending:ins-9") is None
    finally:
        _stop(watch)
        shell.close()
        if ctx.services.watch is not None:
            ctx.services.watch.close()
        ctx.shutdown(5000)


def test_labgpu_watch_waits_under_the_window_and_takes_over_when_it_closes(qtbot, labgpu_home, secret_service):
    """The window holds the guards; a `labgpu watch` started then waits, naming the window, and takes
    over when the window's guards close (the student quits LabGPU)."""
    from PySide6.QtWidgets import QApplication, QWidget

    from app.core.paths import default_paths
    from app.ui.context import AppContext
    from app.ui.tray import TrayShell

    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    window = QWidget()
    qtbot.addWidget(window)
    shell = TrayShell(ctx, QApplication.instance(), window)
    watch = None
    try:
        shell.start_guards()
        assert shell.tray.action("guardsHere") is not None
        assert (default_paths().data_dir / "watch.lock").read_text() == f"{os.getpid()} window"
        root = Path(__file__).resolve().parents[2]
        watch = subprocess.Popen([sys.executable, "-m", "app", "watch"], cwd=root, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True, env=dict(os.environ))
        assert watch.stderr is not None
        line = watch.stderr.readline()
        assert f"applied by process {os.getpid()} (the LabGPU window); waiting to take over" in line, line
        ctx.services.watch.close()  # the window's guards end (LabGPU quits)
        assert "Took over the guards" in watch.stderr.readline()
        assert (default_paths().data_dir / "watch.lock").read_text() == f"{watch.pid} watch"
    finally:
        if watch is not None:
            _stop(watch)
        shell.close()
        if ctx.services.watch is not None:
            ctx.services.watch.close()
        ctx.shutdown(5000)
