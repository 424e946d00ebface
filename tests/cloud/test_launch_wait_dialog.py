"""The launch dialog's "keep trying while it is sold out" option against the Tencent peer: the type is sold out
in the chosen zone for two RunInstances, the dialog shows each refused round on one step line and lands once;
Stop waiting ends a wait that never frees up, cancelled in the store, with nothing launched. Real widgets, the
real SDK over HTTP to the peer; the backoff shortened through the module's constant."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY, TYPES

GN7 = "GN7.2XLARGE32"
ZONE = "ap-guangzhou-3"


@pytest.fixture
def ctx(qtbot, labgpu_home, monkeypatch, secret_service, tencent_server):
    import app.cloud.launch as launch
    import app.usecases.waitlaunch as waitlaunch
    from app.cloud import netaddr
    from app.cloud.launch import CloudService
    from app.cloud.tencent.provider import TencentProvider
    from app.core.accounts import Account, Credentials
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    monkeypatch.setattr(launch, "POLL_S", 0.05)
    monkeypatch.setattr(waitlaunch, "BACKOFF_FIRST_S", 0.05)
    monkeypatch.setattr(netaddr, "public_address", lambda timeout=4.0: "198.51.100.7")
    monkeypatch.setattr(TencentProvider, "poll_interval", 0.02)
    tencent_server.pending_seconds = 0.05
    svc = CloudService()
    svc.accounts.add(Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint, {"protocol": "http"}),
                     Credentials(TEST_SECRET_ID, TEST_SECRET_KEY))
    svc.close()
    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


def _offer():
    from app.core.models import Offer

    return Offer(provider="tencent", region="ap-guangzhou", instance_type=GN7, gpu_model="T4", gpu_count=1,
                 vram_gb=16, vcpu=8, ram_gb=32, network_gbps=3, price_on_demand=TYPES[GN7][4],
                 price_spot=TYPES[GN7][5], price_prepaid_month=None, currency="CNY", price_source="live",
                 price_date=None, spot_available=True, live=True, zone=ZONE)


def _dialog(qtbot, ctx):
    from app.ui.cloud.launch_dialog import open_launch_dialog

    launch = open_launch_dialog(ctx, _offer(), spot=False)
    qtbot.addWidget(launch)
    qtbot.waitUntil(lambda: launch.form.account_combo.count() == 1 and launch.form.zone_combo.count() > 1,
                    timeout=10000)
    qtbot.waitUntil(lambda: launch.form.cidr_edit.text() == "198.51.100.7/32", timeout=10000)
    launch.form.zone_combo.setCurrentIndex(launch.form.zone_combo.findData(ZONE))
    assert not launch.form.keep_trying_combo.isEnabled()
    launch.form.keep_trying_check.setChecked(True)
    assert launch.form.keep_trying_combo.isEnabled() and launch.form.keep_trying_combo.currentData() == "6h"
    return launch


def _steps(launch) -> list[str]:
    return [launch.form.steps_list.item(i).text() for i in range(launch.form.steps_list.count())]


def _waits():
    from app.core.launchwaits import LaunchWaits
    from app.core.paths import default_paths
    from app.core.store import Store

    store = Store(paths=default_paths())
    try:
        return LaunchWaits(store).all()
    finally:
        store.close()


def test_keep_trying_lands_once_after_the_type_frees_up(qtbot, ctx, tencent_server):
    tencent_server.sell_out(ZONE, 2)
    launch = _dialog(qtbot, ctx)
    with qtbot.waitSignal(launch.launched, timeout=30000):
        qtbot.mouseClick(launch.form.launch_button, Qt.MouseButton.LeftButton)
        assert launch.form.stop_wait_button.isVisible()
        assert launch.form.progress_title.text() == f"Waiting for {GN7} with lab-tc…"
    entry = launch.launch_result.entry
    assert (entry.zone, entry.state) == (ZONE, "running")
    waiting = [s for s in _steps(launch) if "Wait for a free GPU" in s]
    assert len(waiting) == 1 and "Attempt 2: still sold out" in waiting[0], _steps(launch)
    assert len(tencent_server.requests_of("RunInstances")) == 3 and list(tencent_server.instances) == [entry.id]
    [w] = _waits()
    assert (w.state, w.attempts, w.instance_id) == ("landed", 3, entry.id)
    assert not launch.form.stop_wait_button.isVisible()


def test_stop_waiting_cancels_the_wait_and_launches_nothing(qtbot, ctx, tencent_server):
    tencent_server.sell_out(ZONE, 10_000)
    launch = _dialog(qtbot, ctx)
    qtbot.mouseClick(launch.form.launch_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: any("still sold out" in s for s in _steps(launch)), timeout=15000)
    qtbot.mouseClick(launch.form.stop_wait_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not launch.running, timeout=15000)
    assert f"You stopped waiting for {GN7}; nothing was launched." in launch.form.outcome_label.text()
    assert not launch.form.stop_wait_button.isVisible()
    [w] = _waits()
    assert w.state == "cancelled"
    assert not tencent_server.instances
