"""pytest-qt on the real main window against the real sshd: add a host from an SSH command, accept
its fingerprint, see it connected, open a tunnel, and survive a changed host key."""

from __future__ import annotations

import http.server
import threading
import urllib.request

import pytest
from PySide6.QtCore import Qt

from app.ui.remote import hosts_page as hosts_page_module

pytestmark = pytest.mark.usefixtures("private_home")


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802
        self.send_response(200)
        self.send_header("Content-Length", "11")
        self.end_headers()
        self.wfile.write(b"tensorboard")

    def log_message(self, *a):
        pass


@pytest.fixture
def http_port():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    t = threading.Thread(target=srv.serve_forever, name="test-http", daemon=True)
    t.start()
    yield srv.server_address[1]
    srv.shutdown()
    srv.server_close()
    t.join(5)


def _page(window):
    assert window.show_page("hosts")
    return window.pages["hosts"]


def _state(page, name):
    row = page.model.row_of(name)
    return page.model.index(row, page.model.COLUMNS.index("state")).data() if row >= 0 else None


def _add(qtbot, page, command, password=""):
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    dlg = page.add_dialog
    assert dlg is not None
    assert dlg.isVisible()
    assert not dlg.ok_button.isEnabled()
    qtbot.keyClicks(dlg.command_edit, command)
    if password:
        qtbot.keyClicks(dlg.password_edit, password)
    assert dlg.ok_button.isEnabled(), dlg.parsed_label.text()
    name = dlg.name_edit.text()
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    return name


def _accept_key(qtbot, page, fingerprint):
    qtbot.waitUntil(lambda: page.key_dialog is not None and page.key_dialog.isVisible(), timeout=10000)
    dlg = page.key_dialog
    assert dlg.fingerprint_label.text() == fingerprint
    assert dlg.refuse_button.isDefault()  # Enter alone never trusts a key
    qtbot.mouseClick(dlg.accept_button, Qt.MouseButton.LeftButton)
    page.key_dialog = None


def test_add_accept_connect_tunnel_and_changed_key(app_window, qtbot, sshd, http_port, monkeypatch):
    ctx, window = app_window
    page = _page(window)
    opened = []
    page.open_url = lambda url: opened.append(url.toString())
    assert page.empty_label.isVisible()

    cmd = f"ssh -p {sshd.port} -i {sshd.client_key} {sshd.user}@{sshd.host}"
    name = _add(qtbot, page, cmd)
    assert name == f"127-{sshd.port}"
    _accept_key(qtbot, page, sshd.host_key_fingerprint)
    qtbot.waitUntil(lambda: _state(page, name) == "Connected", timeout=10000)
    row = page.model.row_of(name)
    assert page.model.index(row, page.model.COLUMNS.index("fingerprint")).data() == sshd.host_key_fingerprint
    assert page.model.index(row, page.model.COLUMNS.index("address")).data() == f"{sshd.host}:{sshd.port}"
    assert page.tensorboard_button.isEnabled()
    assert not page.connect_button.isEnabled()

    # The connection drops (server-side sessions killed): the watchdog reconnects by itself.
    conn = page.service.connections[name]
    assert sshd.drop_connections() >= 1
    qtbot.waitUntil(lambda: not conn.is_active, timeout=10000)
    page.service._on_timer_timeout()  # what the 5 s timer does
    qtbot.waitUntil(lambda: _state(page, name) == "Connected" and conn.is_active, timeout=15000)

    # "Open TensorBoard" tunnels to the host's 127.0.0.1 port (here our test server) and opens the browser.
    monkeypatch.setitem(hosts_page_module.SERVICES, "tensorboard", http_port)
    qtbot.mouseClick(page.tensorboard_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(opened), timeout=10000)
    with urllib.request.urlopen(opened[0], timeout=30) as resp:
        assert resp.read() == b"tensorboard"
    # Nothing listens on Jupyter's port there: the page says so (not "Opening a tunnel…" forever).
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed_port = s.getsockname()[1]
    monkeypatch.setitem(hosts_page_module.SERVICES, "jupyter", closed_port)
    qtbot.mouseClick(page.jupyter_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "No tunnel to port" in page.status_label.text(), timeout=15000)
    assert "Nothing listens" in page.status_label.text()
    assert len(opened) == 1

    qtbot.mouseClick(page.copy_button, Qt.MouseButton.LeftButton)
    from PySide6.QtGui import QGuiApplication

    assert (
        QGuiApplication.clipboard().text()
        == f"ssh -p {sshd.port} -i {sshd.client_key} {sshd.user}@{sshd.host}"
    )

    qtbot.mouseClick(page.disconnect_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _state(page, name) == "Disconnected", timeout=5000)
    qtbot.waitUntil(lambda: not page.service.forwards and not ctx.runner.active(), timeout=5000)

    with sshd.changed_host_key() as new_fp:
        qtbot.mouseClick(page.connect_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: page.changed_box is not None and page.changed_box.isVisible(), timeout=10000)
        assert new_fp in page.changed_box.text()
        assert _state(page, name) == "Error"
        assert page.key_dialog is None  # a changed key is never offered for acceptance
        qtbot.mouseClick(page.changed_box.forget_button, Qt.MouseButton.LeftButton)
        _accept_key(qtbot, page, new_fp)
        qtbot.waitUntil(lambda: _state(page, name) == "Connected", timeout=10000)
        qtbot.mouseClick(page.disconnect_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: not ctx.runner.active(), timeout=5000)


def test_password_host_and_refused_key(app_window, qtbot, sshd, secret_service):
    """As `labgpu hosts add` does: the host is saved only after it answered with a key the user
    accepted and let the user in; a refused key or a wrong password leaves nothing behind."""
    from app.core import secrets

    ctx, window = app_window
    page = _page(window)
    name = _add(qtbot, page, f"ssh -p {sshd.port} {sshd.user}@{sshd.host}", password=sshd.password)
    qtbot.waitUntil(lambda: page.key_dialog is not None and page.key_dialog.isVisible(), timeout=10000)
    assert _state(page, name) is None  # not saved while the key is being compared
    qtbot.mouseClick(page.key_dialog.refuse_button, Qt.MouseButton.LeftButton)
    page.key_dialog = None
    qtbot.waitUntil(lambda: "was not added" in page.status_label.text(), timeout=5000)
    assert _state(page, name) is None
    assert secrets.get_secret(f"host:{name}:password") is None  # no password left in the keyring
    assert page.add_dialog.isVisible() and page.add_dialog.error_label.isVisible()  # the input is kept
    page.add_dialog.reject()
    # a wrong password: the key is accepted, the login fails, nothing is saved and the page says why
    name = _add(qtbot, page, f"ssh -p {sshd.port} {sshd.user}@{sshd.host}", password="not-the-password")
    _accept_key(qtbot, page, sshd.host_key_fingerprint)
    qtbot.waitUntil(lambda: "was not added" in page.status_label.text(), timeout=15000)
    assert _state(page, name) is None
    assert secrets.get_secret(f"host:{name}:password") is None
    assert page.add_dialog.isVisible() and page.add_dialog.error_label.isVisible()  # the input is kept
    page.add_dialog.reject()
    qtbot.waitUntil(ctx.runner.settled, timeout=5000)
    # the right password: added, connected, its password in the keyring
    name = _add(qtbot, page, f"ssh -p {sshd.port} {sshd.user}@{sshd.host}", password=sshd.password)
    qtbot.waitUntil(lambda: _state(page, name) == "Connected", timeout=15000)  # the key is known now
    assert secrets.get_secret(f"host:{name}:password") == sshd.password
    secrets.delete_secret(f"host:{name}:password")
