"""While a sync waits to reconnect, the Sync page names a VPN only when the pair's host is reached
through one: a plain host's pair says it waits for the connection (a real sync of a host where
nothing listens yet), a VPN host's pair names its VPN."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.core.hosts import HostRecord, HostStore
from app.core.syncpairs import SyncPair, SyncStore

pytestmark = pytest.mark.usefixtures("private_home")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens once the block ends: connections are refused


def test_waiting_names_a_vpn_only_for_a_vpn_host(app_window, qtbot, tmp_path):
    ctx, window = app_window
    hosts = HostStore(store=ctx.store)
    hosts.add(HostRecord(name="plain", hostname="127.0.0.1", port=_closed_port(), user="root"))
    hosts.add(HostRecord(name="campus-gpu", hostname="10.8.0.1", user="root", via_vpn="campus",
                         private_address="10.8.0.1"))
    local = tmp_path / "data"
    local.mkdir()
    (local / "a.txt").write_text("a")
    pairs = SyncStore(store=ctx.store)
    plain = pairs.save(SyncPair("plain", str(local), "/tmp/labgpu-waiting"))
    vpn_pair = pairs.save(SyncPair("campus-gpu", str(local), "/tmp/labgpu-waiting"))

    assert window.show_page("sync")
    page = window.pages["sync"]
    page.refresh()
    row = [p.id for p in page.pairs].index(plain.id)
    page.pairs_table.selectRow(row)
    qtbot.mouseClick(page.sync_button, Qt.MouseButton.LeftButton)
    # connection refused is transient: the sync waits and tries again by itself
    qtbot.waitUntil(lambda: page.state_label.text() == "Waiting for the connection…", timeout=20000)
    assert "VPN" not in page.state_label.text()
    assert "Cannot reach" in page.detail_label.toolTip()  # why it waits
    folder = os.environ.get("LABGPU_SHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        window.grab().save(str(Path(folder) / "sync-waiting-plain-en.png"))
    qtbot.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.task is None, timeout=20000)

    # the VPN host's pair: the same state names its VPN
    page.vpn = page._vpn_of(vpn_pair)
    from app.ui.remote.sync_texts import state_text

    assert state_text("waiting", page.vpn) == "Waiting for the VPN campus and the connection…"
    assert page._vpn_of(plain) == ""
    qtbot.waitUntil(ctx.runner.settled, timeout=5000)
