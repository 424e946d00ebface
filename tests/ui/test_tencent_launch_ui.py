"""The launch dialog with a Tencent Cloud account against the strict peer: no key given (LabGPU's
own key, RSA for Tencent), "any zone", the first zone's instance ends LAUNCH_FAILED after an accepted
RunInstances and the launch goes on in the next zone; the instance has exactly one inbound rule, SSH
from the given range. Real widgets, the real SDK over HTTP to the local TC3-checking peer."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY, TYPES

GN7 = "GN7.2XLARGE32"


@pytest.fixture
def ctx(qtbot, labgpu_home, monkeypatch):
    import app.cloud.launch as launch
    from app.cloud import netaddr
    from app.cloud.tencent.provider import TencentProvider
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    monkeypatch.setattr(launch, "POLL_S", 0.05)
    monkeypatch.setattr(netaddr, "public_address", lambda timeout=4.0: "198.51.100.7")
    monkeypatch.setattr(TencentProvider, "poll_interval", 0.02)
    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


def _offer():
    from app.core.models import Offer

    return Offer(provider="tencent", region="ap-guangzhou", instance_type=GN7, gpu_model="T4", gpu_count=1,
                 vram_gb=16, vcpu=8, ram_gb=32, network_gbps=3, price_on_demand=TYPES[GN7][4],
                 price_spot=TYPES[GN7][5], price_prepaid_month=None, currency="CNY", price_source="live",
                 price_date=None, spot_available=True, live=True, zone="ap-guangzhou-3")


def test_default_launch_moves_past_launch_failed_with_one_ssh_rule(qtbot, ctx, secret_service, tencent_server):
    from app.ui.cloud.accounts_page import AccountsPage
    from app.ui.cloud.launch_dialog import open_launch_dialog

    tencent_server.pending_seconds = 0.05
    tencent_server.launch_failed_zones = {"ap-guangzhou-3"}
    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.keyring_ok is True, timeout=10000)
    dialog = page.open_dialog()
    dialog.provider_combo.setCurrentIndex(dialog.provider_combo.findData("tencent"))
    qtbot.keyClicks(dialog.name_edit, "lab-tc")
    dialog.region_combo.setCurrentText("ap-guangzhou")
    qtbot.keyClicks(dialog.key_edit, TEST_SECRET_ID)
    qtbot.keyClicks(dialog.secret_edit, TEST_SECRET_KEY)
    qtbot.keyClicks(dialog.endpoint_edit, tencent_server.endpoint)
    with qtbot.waitSignal(dialog.saved, timeout=10000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: any(i.account.name == "lab-tc" for i in page.infos), timeout=5000)

    launch = open_launch_dialog(ctx, _offer())
    qtbot.addWidget(launch)
    qtbot.waitUntil(lambda: launch.form.account_combo.count() == 1 and launch.form.zone_combo.count() > 1,
                    timeout=10000)
    qtbot.waitUntil(lambda: launch.form.cidr_edit.text() == "198.51.100.7/32", timeout=10000)
    launch.form.zone_combo.setCurrentIndex(launch.form.zone_combo.findData(""))  # any zone
    with qtbot.waitSignal(launch.launched, timeout=20000):
        qtbot.mouseClick(launch.form.launch_button, Qt.MouseButton.LeftButton)
    entry = launch.launch_result.entry
    assert (entry.provider, entry.state, entry.zone) == ("tencent", "running", "ap-guangzhou-4")
    steps = [launch.form.steps_list.item(i).text() for i in range(launch.form.steps_list.count())]
    assert any("ap-guangzhou-3" in s and "ap-guangzhou-4" in s for s in steps), steps
    assert steps[-1].endswith(f"Guards of {entry.id} saved."), steps  # the guard step ends on what happened
    assert [q["Placement"]["Zone"] for q in tencent_server.requests_of("RunInstances")] == [
        "ap-guangzhou-3", "ap-guangzhou-4"
    ]
    assert tencent_server.key_pairs[0]["PublicKey"].startswith("ssh-rsa ")
    sg = tencent_server.requests_of("RunInstances")[-1]["SecurityGroupIds"][0]
    assert [(r["Protocol"], r["Port"], r["CidrBlock"]) for r in tencent_server.ingress_rules(sg)] == [
        ("TCP", "22", "198.51.100.7/32")
    ]
    assert tencent_server.ssh_allowed(entry.id, "198.51.100.7")
    launch.accept()
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)
