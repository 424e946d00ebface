"""The Sync page driven like a user (pytest-qt), against the real sshd: add a pair, preview,
sync with the progress bar moving to the end, mirror deletions only after a preview, cancel."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")


def _add_host(sshd, name: str) -> str:
    cmd = f"ssh -p {sshd.port} -i {sshd.client_key} {sshd.user}@{sshd.host}"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "app",
            "hosts",
            "add",
            name,
            cmd,
            "--fingerprint",
            sshd.host_key_fingerprint,
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ),
        stdin=subprocess.DEVNULL,
    )
    assert r.returncode == 0, r.stderr
    return name


@pytest.fixture
def host(sshd):
    return _add_host(sshd, "gpu1")


def _page(app_window):
    ctx, window = app_window
    assert window.show_page("sync")
    return window.pages["sync"]


def _add_pair(qtbot, page, local, remote, *, mirror=False, bwlimit=0, down=False, host="gpu1"):
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    dlg = page.dialog
    assert dlg is not None
    assert dlg.isVisible()
    assert host in [dlg.host_combo.itemText(i) for i in range(dlg.host_combo.count())]
    dlg.host_combo.setCurrentText(host)
    dlg.local_edit.setText(str(local))
    dlg.remote_edit.setText(str(remote))
    dlg.excludes_edit.setPlainText("*.tmp")
    dlg.delete_check.setChecked(mirror)
    if down:
        dlg.down_radio.setChecked(True)
    dlg.bw_spin.setValue(bwlimit)
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    assert page.dialog is None


def _wait_idle(qtbot, page, timeout=30_000):
    qtbot.waitUntil(lambda: page.task is None, timeout=timeout)


def test_add_preview_and_sync_with_progress(qtbot, app_window, host, sshd, tmp_path):
    page = _page(app_window)
    remote = sshd.remote_dir("ui-sync")
    local = tmp_path / "data"
    local.mkdir()
    (local / "weights.bin").write_bytes(os.urandom(3 * 1024 * 1024))
    (local / "notes.txt").write_text("hello")
    (local / "scratch.tmp").write_text("skip me")
    # 2 MiB/s: past the limiter's first burst every 252 KiB write waits 0.12 s, longer than the
    # engine's 0.1 s between progress reports, so the bar gets a report per write (a lower bound)
    _add_pair(qtbot, page, local, remote, bwlimit=2048)
    assert page.pairs_table.rowCount() == 1
    assert page.pairs_table.item(0, 0).text() == "gpu1"

    qtbot.mouseClick(page.preview_button, Qt.MouseButton.LeftButton)
    _wait_idle(qtbot, page)
    paths = {page.preview_model.items[i].path for i in range(page.preview_model.rowCount())}
    assert paths == {"weights.bin", "notes.txt"}
    assert not (remote / "weights.bin").exists()  # preview changes nothing
    assert "2 files to transfer" in page.preview_label.text()

    values: list[int] = []
    page.progress_bar.valueChanged.connect(values.append)
    qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)
    assert page.cancel_button.isEnabled()
    assert not page.sync_button.isEnabled()
    _wait_idle(qtbot, page)
    assert page.state_label.text() == "Done"
    assert page.progress_bar.value() == page.progress_bar.maximum() == 1000
    moving = [v for v in values if 0 < v < 1000]
    assert len(moving) >= 2, values  # the bar moved through the transfer
    assert moving == sorted(moving)
    assert (remote / "weights.bin").read_bytes() == (local / "weights.bin").read_bytes()
    assert not (remote / "scratch.tmp").exists()
    assert page.last_progress is not None
    assert page.last_progress.files_total == 2
    assert page.history_table.rowCount() == 2
    assert page.history_table.item(0, 5).text() == "OK"
    assert page.history_table.item(1, 5).text() == "Preview"
    assert page.history_table.item(0, 2).text() == "2"


def test_mirror_deletes_only_after_a_preview(qtbot, app_window, host, sshd, tmp_path):
    page = _page(app_window)
    remote = sshd.remote_dir("ui-mirror")
    (remote / "stale.txt").write_text("old")
    local = tmp_path / "m"
    local.mkdir()
    (local / "a.txt").write_text("a")
    _add_pair(qtbot, page, local, remote, mirror=True)
    qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)
    _wait_idle(qtbot, page)
    assert (remote / "stale.txt").exists()  # first press only previewed
    assert any(i.path == "stale.txt" and i.action == "delete" for i in page.preview_model.items)
    assert "press Sync now again" in page.preview_label.text()
    qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)
    _wait_idle(qtbot, page)
    assert not (remote / "stale.txt").exists()
    assert (remote / "a.txt").read_text() == "a"


def test_cancel_stops_and_leaves_no_partial_file(qtbot, app_window, gated_sshd, tmp_path):
    """Cancel while the upload is in flight: the test's SFTP gate holds it after 2 MiB, so the
    click always lands mid-transfer."""
    host = _add_host(gated_sshd, "gated")
    page = _page(app_window)
    remote = gated_sshd.remote_dir("ui-cancel")
    local = tmp_path / "c"
    local.mkdir()
    (local / "big.bin").write_bytes(os.urandom(6 * 1024 * 1024))
    _add_pair(qtbot, page, local, remote, host=host)
    gated_sshd.gate.hold(in_bytes=2 * 1024 * 1024)
    qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(gated_sshd.gate.stalled()) >= 1, timeout=60_000)
    assert page.cancel_button.isEnabled()
    qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
    _wait_idle(qtbot, page, 60_000)
    assert page.state_label.text() == "Cancelled"
    assert not (remote / "big.bin").exists()
    assert page.history_table.item(0, 5).text() == "Cancelled"
    assert page.sync_button.isEnabled()


def test_new_pair_refuses_a_local_folder_that_does_not_exist(qtbot, app_window, host, tmp_path):
    page = _page(app_window)
    qtbot.mouseClick(page.add_button, Qt.MouseButton.LeftButton)
    dlg = page.dialog
    dlg.host_combo.setCurrentText("gpu1")
    dlg.local_edit.setText(str(tmp_path / "no-such-folder"))
    dlg.remote_edit.setText("~/data")
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    assert page.dialog is dlg and dlg.isVisible()  # not accepted
    assert "does not exist on this computer" in dlg.error_label.text()
    assert page.pairs_table.rowCount() == 0
    # A download may create its folder, inside one that exists.
    dlg.down_radio.setChecked(True)
    qtbot.mouseClick(dlg.ok_button, Qt.MouseButton.LeftButton)
    assert page.dialog is None
    assert page.pairs_table.rowCount() == 1


def test_a_failed_preview_is_not_history_and_errors_show_without_their_code(qtbot, app_window, host, sshd,
                                                                              tmp_path):
    ctx, _window = app_window
    page = _page(app_window)
    local = tmp_path / "gone"
    local.mkdir()
    _add_pair(qtbot, page, local, sshd.remote_dir("ui-gone"))
    local.rmdir()  # the folder goes away after the pair was saved
    reported: list[BaseException] = []
    ctx.errors.reported.connect(reported.append)
    qtbot.mouseClick(page.preview_button, Qt.MouseButton.LeftButton)
    _wait_idle(qtbot, page)
    assert [getattr(e, "code", "") for e in reported] == ["LocalMissing"]
    assert page.history_table.rowCount() == 0  # a preview that failed is no failed upload
    qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)
    _wait_idle(qtbot, page)
    assert page.history_table.rowCount() == 1
    assert page.history_table.item(0, 5).text() == "Failed"
    details = page.history_table.item(0, 6).text()
    assert "does not exist" in details
    assert "[LocalMissing]" not in details


def test_columns_keep_their_width_once_rows_arrive(qtbot, app_window, host, sshd, tmp_path):
    from app.ui.remote.sync_history import HISTORY_MIN_WIDTH, MIN_COLUMN_WIDTH

    page = _page(app_window)
    local = tmp_path / "d"
    local.mkdir()
    _add_pair(qtbot, page, local, sshd.remote_dir("ui-w"))
    widths = [page.pairs_table.columnWidth(c) for c in range(page.pairs_table.columnCount() - 1)]
    assert min(widths) >= MIN_COLUMN_WIDTH, widths
    # the history's short columns are as wide as their header and numbers (its details get the rest)
    table = page.history_table
    header = table.horizontalHeader()
    for c in range(table.columnCount() - 1):
        assert table.columnWidth(c) >= max(HISTORY_MIN_WIDTH, header.sectionSizeFromContents(c).width()), c
