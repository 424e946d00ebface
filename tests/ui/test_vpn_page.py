"""pytest-qt: the VPN page imports a profile, connects through the real OpenVPN server of
tests/fixtures/openvpn.py (client openvpn in the client namespace via LABGPU_VPN_NETNS) and shows
the live state; screenshots of the connected page in English and Chinese go to $LABGPU_SHOTS
(default: the test's own temporary folder) for a person to look at."""

from __future__ import annotations

import os
import subprocess

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QMessageBox

from app.core import secrets
from tests.fixtures import clirun
from tests.fixtures.spy import MONITOR_PASSES_TO_DECIDE, monitor_decisions

pytestmark = pytest.mark.netns



def _shots(tmp_path) -> str:
    return os.environ.get("LABGPU_SHOTS", "") or str(tmp_path)


@pytest.fixture
def vpn_env(vpn_lab, secret_service, monkeypatch):
    monkeypatch.setenv("LABGPU_VPN_NETNS", vpn_lab.cli_ns)
    yield vpn_lab
    for what in ("username", "password", "key_passphrase"):
        secrets.delete_secret(f"vpn:lab:{what}")


def _ssh_ok(lab) -> bool:
    s = lab.sshd
    r = subprocess.run(
        lab.in_client(
            ["ssh", *s.openssh_args(), "-o", "ConnectTimeout=3", f"{s.user}@{lab.tunnel_server_ip}", "true"]
        ),
        capture_output=True,
        timeout=20,
    )
    return r.returncode == 0


def _page(window):
    window.show_page("vpn")
    return window.pages["vpn"]


def _state_cell(page, row: int = 0):
    return page.model.index(row, page.model.COLUMNS.index("state"))


def _wait_monitor_decided(qtbot, decisions) -> None:
    """Wait (upper bound only) until the page's monitor has looked at the stopped tunnel and
    decided, so "it stays down" is a fact, not a hope (see tests/fixtures/spy.py)."""
    mark = decisions.count
    qtbot.waitUntil(lambda: decisions.count >= mark + MONITOR_PASSES_TO_DECIDE, timeout=30000)


def test_import_connect_shows_connected_then_disconnect(qtbot, vpn_env, app_window, monkeypatch, tmp_path):
    ctx, window = app_window
    page = _page(window)
    lab = vpn_env
    decisions = monitor_decisions(monkeypatch, page.service.manager)
    monkeypatch.setattr(
        QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (str(lab.ovpn_path), ""))
    )
    qtbot.mouseClick(page.import_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.import_dialog is not None, timeout=30000)
    dlg = page.import_dialog
    assert dlg.user_edit.isVisible()
    assert dlg.pass_edit.isVisible()
    assert dlg.key_edit.isVisible()
    dlg.name_edit.setText("lab")
    qtbot.keyClicks(dlg.user_edit, lab.username)
    dlg.pass_edit.setText(lab.password)
    dlg.key_edit.setText(lab.key_passphrase)
    qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.model.rowCount() == 1 and page.model.missing.get("lab") == [], timeout=30000)
    assert page.model.index(0, 4).data() == "stored in keyring"
    assert secrets.get_secret("vpn:lab:password") == lab.password
    assert page.selected() == "lab"
    assert not _ssh_ok(lab)

    qtbot.mouseClick(page.connect_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _state_cell(page).data() == "Connected", timeout=20000)
    cell = _state_cell(page)
    assert cell.data(Qt.ItemDataRole.ForegroundRole).name() == "#2e7d32"
    assert page.model.index(0, 2).data().startswith("10.8.0.")
    qtbot.waitUntil(lambda: "lab: Connected — address 10.8.0." in page.log_view.toPlainText(), timeout=30000)
    log = page.log_view.toPlainText()
    assert "lab: Connected — address 10.8.0." in log
    assert "Authenticating" in log
    assert not page.connect_button.isEnabled()
    assert page.disconnect_button.isEnabled()
    assert "Connected" in page.details.text()
    assert _ssh_ok(lab)
    window.grab().save(os.path.join(_shots(tmp_path), "labgpu-vpn-connected-en.png"))

    # The server vanishes: the page shows it and the tunnel comes back by itself.
    lab.restart_server(pause=0.5)
    qtbot.waitUntil(lambda: "Reconnecting" in page.log_view.toPlainText(), timeout=30000)
    qtbot.waitUntil(lambda: page.log_view.toPlainText().count("lab: Connected") >= 2, timeout=20000)
    assert _ssh_ok(lab)

    qtbot.mouseClick(page.disconnect_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _state_cell(page).data() == "Disconnected", timeout=30000)
    assert cell.data(Qt.ItemDataRole.ForegroundRole).name() == "#757575"
    qtbot.waitUntil(lambda: lab.client_pids() == [], timeout=30000)
    _wait_monitor_decided(qtbot, decisions)  # stays down: the user disconnected
    assert lab.client_pids() == []
    assert _state_cell(page).data() == "Disconnected"
    assert page.connect_button.isEnabled()


def test_unsafe_profile_asks_and_cancel_imports_nothing(qtbot, vpn_env, app_window, tmp_path):
    ctx, window = app_window
    page = _page(window)
    evil = tmp_path / "evil.ovpn"
    evil.write_text(vpn_env.client_profile(extra="script-security 2\nup /tmp/not-here.sh"))
    page.start_import(str(evil))
    qtbot.waitUntil(lambda: page.findChild(QMessageBox, "vpnUnsafeBox") is not None, timeout=30000)
    box = page.findChild(QMessageBox, "vpnUnsafeBox")
    assert "up /tmp/not-here.sh" in box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()  # handled in the click: nothing started
    assert not box.isVisible()
    assert not ctx.runner.active()
    assert page.import_dialog is None
    assert page.model.rowCount() == 0


def test_connected_page_in_chinese(qtbot, vpn_env, labgpu_home, tmp_path):
    from app.ui.app import build_main_window

    _app, ctx, window = build_main_window("zh_CN")
    ctx.errors.interactive = False
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    try:
        page = _page(window)
        lab = vpn_env
        page.service.manager.add_profile(
            "lab",
            lab.ovpn_path,
            username=lab.username,
            password=lab.password,
            key_passphrase=lab.key_passphrase,
        )
        page.refresh()
        qtbot.waitUntil(
            lambda: page.model.rowCount() == 1 and page.model.missing.get("lab") == [], timeout=10000
        )
        page.select("lab")
        page._on_connect_clicked()
        qtbot.waitUntil(lambda: page.service.status("lab").is_up, timeout=20000)
        qtbot.waitUntil(lambda: _state_cell(page).data() == "已连接", timeout=30000)
        assert page.connect_button.text() == "连接"
        window.grab().save(os.path.join(_shots(tmp_path), "labgpu-vpn-connected-zh_CN.png"))
    finally:
        window.close()
        ctx.shutdown(5000)
    # Connected from this window: it goes down with the window (clean teardown on exit), no keeper.
    qtbot.waitUntil(lambda: vpn_env.client_pids() == [], timeout=30000)
    assert page.service.manager.keeper_pid("lab") == 0


def test_page_adopts_a_tunnel_started_by_the_cli_and_leaves_it_up(qtbot, vpn_env, labgpu_home):
    """``labgpu vpn up`` earlier (its keeper answers prompts); the app opens, shows it live and
    takes over the management socket; on exit the tunnel stays up, handed back to a keeper."""
    from app.core.paths import default_paths
    from app.remote.vpn import VpnManager
    from app.ui.app import build_main_window

    lab = vpn_env
    cli = VpnManager(default_paths())
    cli.add_profile(
        "lab", lab.ovpn_path, username=lab.username, password=lab.password, key_passphrase=lab.key_passphrase
    )
    cli.up("lab", timeout=20)
    first_keeper = cli.keeper_pid("lab")
    assert first_keeper
    _app, ctx, window = build_main_window("en")
    ctx.errors.interactive = False
    qtbot.addWidget(window)
    window.show()
    try:
        page = _page(window)
        qtbot.waitUntil(lambda: _state_cell(page).data() == "Connected", timeout=30000)
        qtbot.waitUntil(lambda: cli.keeper_pid("lab") == 0, timeout=30000)
        # The app's monitor now streams states: a server restart shows up in its log.
        lab.restart_server(pause=0.3)
        qtbot.waitUntil(lambda: "Reconnecting" in page.log_view.toPlainText(), timeout=30000)
        qtbot.waitUntil(lambda: page.log_view.toPlainText().count("lab: Connected") >= 2, timeout=20000)
    finally:
        window.close()
        ctx.shutdown(5000)
    assert cli.is_running("lab")
    assert cli.keeper_pid("lab") not in (0, first_keeper)
    assert _ssh_ok(lab)
    cli.down("lab")
    qtbot.waitUntil(lambda: cli.keeper_pid("lab") == 0 and lab.client_pids() == [], timeout=30000)


def test_connect_without_stored_credentials_asks_for_them_then_connects(qtbot, vpn_env, app_window):
    ctx, window = app_window
    page = _page(window)
    lab = vpn_env
    page.service.manager.add_profile("lab", lab.ovpn_path)  # imported from the CLI without credentials
    page.refresh()
    qtbot.waitUntil(
        lambda: page.model.missing.get("lab") == ["username", "password", "key_passphrase"], timeout=10000
    )
    assert page.model.index(0, 4).data() == "missing"
    assert page.model.index(0, 4).data(Qt.ItemDataRole.ForegroundRole).name() == "#c62828"
    page.select("lab")
    qtbot.mouseClick(page.connect_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.credentials_dialog is not None, timeout=30000)
    dlg = page.credentials_dialog
    assert not dlg.name_edit.isEnabled()
    dlg.user_edit.setText(lab.username)
    dlg.pass_edit.setText(lab.password)
    dlg.key_edit.setText(lab.key_passphrase)
    qtbot.mouseClick(dlg.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _state_cell(page).data() == "Connected", timeout=20000)
    assert secrets.get_secret("vpn:lab:key_passphrase") == lab.key_passphrase
    qtbot.waitUntil(lambda: page.model.index(0, 4).data() == "stored in keyring", timeout=30000)
    page._on_disconnect_clicked()
    qtbot.waitUntil(lambda: lab.client_pids() == [], timeout=30000)


def test_wrong_password_shows_failed_with_next_step_and_does_not_retry(qtbot, vpn_env, app_window, monkeypatch):
    ctx, window = app_window
    page = _page(window)
    lab = vpn_env
    decisions = monitor_decisions(monkeypatch, page.service.manager)
    page.service.manager.add_profile(
        "lab",
        lab.ovpn_path,
        username=lab.username,
        password="wrong-password",
        key_passphrase=lab.key_passphrase,
    )
    page.refresh()
    qtbot.waitUntil(lambda: page.model.missing.get("lab") == [], timeout=30000)
    page.select("lab")
    with qtbot.waitSignal(ctx.errors.reported, timeout=20000) as reported:
        qtbot.mouseClick(page.connect_button, Qt.MouseButton.LeftButton)
    assert "[VpnAuthFailed]" in reported.args[0].text()
    qtbot.waitUntil(lambda: lab.client_pids() == [], timeout=30000)
    _wait_monitor_decided(qtbot, decisions)  # no retry loop against the server with wrong credentials
    assert lab.client_pids() == []
    cell = _state_cell(page)
    assert cell.data() == "Failed"
    assert cell.data(Qt.ItemDataRole.ForegroundRole).name() == "#c62828"
    assert "username or password" in page.details.text()
    assert "Credentials…" in page.details.text()


def test_cli_status_and_down_while_the_app_holds_the_tunnel(qtbot, vpn_env, app_window, monkeypatch):
    """One management client at a time: with the app attached, `vpn status` reports what the app
    recorded and `vpn down` still stops the tunnel; the app shows it and does not reconnect."""
    import json
    import sys
    from pathlib import Path

    ctx, window = app_window
    page = _page(window)
    lab = vpn_env
    decisions = monitor_decisions(monkeypatch, page.service.manager)
    page.service.manager.add_profile(
        "lab", lab.ovpn_path, username=lab.username, password=lab.password, key_passphrase=lab.key_passphrase
    )
    page.refresh()
    qtbot.waitUntil(lambda: page.model.missing.get("lab") == [], timeout=30000)
    page.select("lab")
    page._on_connect_clicked()
    qtbot.waitUntil(lambda: _state_cell(page).data() == "Connected", timeout=20000)
    root = Path(__file__).resolve().parents[2]

    def cli(*args: str) -> subprocess.CompletedProcess:
        return clirun.run(
            [sys.executable, "-m", "app", "vpn", *args], capture_output=True, text=True, timeout=60, cwd=root
        )

    r = cli("status", "lab", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["state"] == "CONNECTED"
    r = cli("down", "lab")
    assert r.returncode == 0, r.stderr
    qtbot.waitUntil(lambda: _state_cell(page).data() == "Disconnected", timeout=30000)
    qtbot.waitUntil(lambda: lab.client_pids() == [], timeout=30000)
    _wait_monitor_decided(qtbot, decisions)
    assert lab.client_pids() == []
    assert _state_cell(page).data() == "Disconnected"
