"""The Sync page tells the truth (issues 8 and 9), driven like a user against the real sshd: the
details name the path chosen for the server, and a sync that left something behind says so
("Done, but incomplete", with the path and why) instead of a plain "Done"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")


@pytest.fixture
def host(sshd):
    cmd = f"ssh -p {sshd.port} -i {sshd.client_key} {sshd.user}@{sshd.host}"
    r = clirun.run(
        [sys.executable, "-m", "app", "hosts", "add", "gpu1", cmd, "--fingerprint", sshd.host_key_fingerprint],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ),
        stdin=subprocess.DEVNULL,
    )
    assert r.returncode == 0, r.stderr
    return "gpu1"


def test_details_show_server_path_and_incomplete_result(qtbot, app_window, host, sshd, tmp_path):
    _ctx, window = app_window
    assert window.show_page("sync")
    page = window.pages["sync"]
    remote = sshd.remote_dir("ui-truth")
    local = tmp_path / "data"
    local.mkdir()
    (local / "ok.txt").write_text("fine")
    os.mkfifo(local / "pipe")
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    dlg = page.dialog
    dlg.host_combo.setCurrentText("gpu1")
    dlg.local_edit.setText(str(local))
    dlg.remote_edit.setText(str(remote))
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    assert page.dialog is None
    qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.task is None, timeout=30_000)
    assert page.state_label.text() == "Done, but incomplete"
    assert "1 items were NOT transferred, e.g. pipe (not a regular file)" in page.preview_label.text()
    assert page.detail_label.text().startswith("Server: fast path (shell listing, tar streams)")
    assert (remote / "ok.txt").read_text() == "fine"
    assert page.history_table.item(0, 5).text() == "Incomplete"
