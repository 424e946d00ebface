"""The Sync page and a guard's pull of the same pair in the same app (pytest-qt, real sshd): the
user's Sync waits for the pull (saying so) instead of running beside it, and the pull's history row
appears on the page as soon as it is written (Change.SYNC)."""

from __future__ import annotations

import os
import threading

import pytest
from PySide6.QtCore import Qt

from app.core.syncmodel import DOWN
from app.core.syncpairs import SyncPair
from app.usecases.sync import JOBS, pull_for_guard
from tests.remote.sync_support import plain_connect, write_tree
from tests.ui.test_sync_page import _add_host, _page, _wait_idle

pytestmark = pytest.mark.usefixtures("private_home")
MiB = 1024 * 1024


def test_sync_waits_for_a_guard_pull_of_the_same_pair_and_shows_its_row(qtbot, app_window, gated_sshd, tmp_path):
    ctx, _window = app_window
    host = _add_host(gated_sshd, "gated")
    page = _page(app_window)
    remote = gated_sshd.remote_dir("ui-guard")
    ckpt = os.urandom(4 * MiB)
    write_tree(remote, {"ckpt.pt": ckpt})
    local = tmp_path / "ckpts"
    pair = page.sync_store.save(SyncPair(host=host, local_path=str(local), remote_path=str(remote), direction=DOWN))
    page.refresh()
    assert page.history_table.rowCount() == 0

    gated_sshd.gate.hold(out_bytes=MiB)
    box: dict[str, object] = {}

    def guard() -> None:
        try:
            box["n"] = pull_for_guard(ctx.paths, ctx.store, host, "before-stop", connect=plain_connect(gated_sshd),
                                      changes=ctx.changes)
        except BaseException as exc:  # noqa: BLE001 - checked below
            box["error"] = exc

    th = threading.Thread(target=guard, daemon=True)
    th.start()
    try:
        gated_sshd.gate.wait_stalled(1)
        pull = JOBS.job_for(host, pair.local_path, pair.remote_path)
        assert pull is not None and pull.request.purpose == "before-stop"
        qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: page.state_label.text() == "Waiting for the other sync of this pair…", timeout=30_000)
        assert page.cancel_button.isEnabled()
    finally:
        gated_sshd.gate.open()
    th.join(120)
    assert not th.is_alive() and box == {"n": 1}, box
    _wait_idle(qtbot, page, 120_000)
    assert page.state_label.text() == "Done"
    assert (local / "ckpt.pt").read_bytes() == ckpt
    assert page.history_table.rowCount() == 2  # the user's run on top of the guard's pull
    assert page.history_table.item(0, 5).text() == "OK"
    assert page.history_table.item(1, 6).text().startswith("before-stop pull: 1 new or changed file(s)")


def test_a_guard_pulls_row_appears_on_the_page_by_itself(qtbot, app_window, sshd, tmp_path):
    ctx, _window = app_window
    page = _page(app_window)
    remote = sshd.remote_dir("ui-guard-row")
    write_tree(remote, {"ckpt.pt": b"weights"})
    local = tmp_path / "c"
    page.sync_store.save(SyncPair(host="pullhost", local_path=str(local), remote_path=str(remote), direction=DOWN))
    page.refresh()
    th = threading.Thread(
        target=pull_for_guard,
        args=(ctx.paths, ctx.store, "pullhost", "on-interruption"),
        kwargs={"connect": plain_connect(sshd), "changes": ctx.changes},
        daemon=True,
    )
    th.start()
    qtbot.waitUntil(lambda: page.history_table.rowCount() == 1, timeout=60_000)  # nothing pressed
    th.join(60)
    assert page.history_table.item(0, 6).text().startswith("on-interruption pull: 1 new or changed file(s)")
    assert (local / "ckpt.pt").read_bytes() == b"weights"
