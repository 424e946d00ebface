"""The cloud pages with an Alibaba Cloud account: the accounts dialog asks for its AccessKey, the launch
dialog launches on it (spot, with the default cap; "any zone" past a stock-out), the instances page shows
the instance with its cost and stops, starts and terminates it, all against the local
ACS3-checking ECS server through the official SDK; nothing is mocked between the widgets and HTTP.
Afterwards no file LabGPU wrote holds the AccessKey."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.fixtures.alibaba_ecs_data import TYPES
from tests.fixtures.alibaba_ecs_server import TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET
from tests.ui.instance_cells import cell_texts

A10 = "ecs.gn7i-c8g1.2xlarge"


@pytest.fixture
def ctx(qtbot, labgpu_home, monkeypatch):
    import app.cloud.launch as launch
    from app.cloud import netaddr
    from app.cloud.alibaba.provider import AlibabaProvider
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    monkeypatch.setattr(launch, "POLL_S", 0.05)
    monkeypatch.setattr(netaddr, "public_address", lambda timeout=4.0: "198.51.100.7")
    monkeypatch.setattr(AlibabaProvider, "poll_interval", 0.02)
    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


def _offer():
    from app.core.models import Offer

    return Offer(provider="alibaba", region="cn-hangzhou", instance_type=A10, gpu_model="A10", gpu_count=1,
                 vram_gb=24, vcpu=8, ram_gb=30, network_gbps=16, price_on_demand=TYPES[A10].on_demand,
                 price_spot=TYPES[A10].spot, price_prepaid_month=None, currency="CNY", price_source="live",
                 price_date=None, spot_available=True, live=True, zone="cn-hangzhou-i")


def test_account_dialog_launch_dialog_and_instances_page_on_alibaba(qtbot, ctx, secret_service, alibaba_server,
                                                                    labgpu_home):
    from app.core import secrets
    from app.ui.cloud import cloud_service
    from app.ui.cloud.accounts_page import AccountsPage
    from app.ui.cloud.instances_page import InstancesPage
    from app.ui.cloud.launch_dialog import open_launch_dialog

    # Accounts dialog: Alibaba Cloud with its AccessKey fields and regions, the custom endpoint.
    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.keyring_ok is True, timeout=10000)
    dialog = page.open_dialog()
    index = dialog.provider_combo.findData("alibaba")
    assert index >= 0 and dialog.provider_combo.itemText(index) == "Alibaba Cloud"
    dialog.provider_combo.setCurrentIndex(index)
    assert (dialog.key_label.text(), dialog.secret_label.text()) == ("AccessKey ID", "AccessKey Secret")
    assert not dialog.token_edit.isVisibleTo(dialog)
    regions = [dialog.region_combo.itemText(i) for i in range(dialog.region_combo.count())]
    assert regions[0] == "cn-hangzhou" and "cn-shanghai" in regions
    qtbot.keyClicks(dialog.name_edit, "lab-ali")
    dialog.region_combo.setCurrentText("cn-hangzhou")
    qtbot.keyClicks(dialog.key_edit, TEST_ACCESS_KEY_ID)
    qtbot.keyClicks(dialog.secret_edit, TEST_ACCESS_KEY_SECRET)
    qtbot.keyClicks(dialog.endpoint_edit, f"http://{alibaba_server.endpoint}")
    with qtbot.waitSignal(dialog.saved, timeout=10000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: any(i.account.name == "lab-ali" for i in page.infos), timeout=5000)
    row = [page.table.item(0, c).text() for c in range(page.table.columnCount())]
    assert row[:2] == ["lab-ali", "Alibaba Cloud"]
    assert TEST_ACCESS_KEY_ID not in row[4]
    assert secrets.get_secret("account:lab-ali:secret") == TEST_ACCESS_KEY_SECRET
    page.select("lab-ali")
    qtbot.waitUntil(page.test_button.isEnabled, timeout=5000)
    page.test_button.click()
    qtbot.waitUntil(lambda: "Connected" in page.result_label.text(), timeout=10000)
    assert "DescribeRegions" in alibaba_server.actions()

    # Live prices with the account, then the launch dialog: spot with the default cap, in the offer's zone.
    cloud_service(ctx).refresh_prices("lab-ali", [A10])
    launch = open_launch_dialog(ctx, _offer())
    qtbot.addWidget(launch)
    qtbot.waitUntil(lambda: launch.form.account_combo.count() == 1, timeout=10000)
    assert "Alibaba Cloud" in launch.form.account_combo.itemText(0)
    qtbot.waitUntil(lambda: launch.form.cidr_edit.text() == "198.51.100.7/32", timeout=10000)
    qtbot.waitUntil(lambda: launch.form.zone_combo.currentData() == "cn-hangzhou-i", timeout=10000)
    launch.form.spot_check.setChecked(True)
    assert launch.form.max_price_spin.value() == pytest.approx(round(TYPES[A10].on_demand * 0.8, 4))
    with qtbot.waitSignal(launch.launched, timeout=20000):
        qtbot.mouseClick(launch.form.launch_button, Qt.MouseButton.LeftButton)
    entry = launch.launch_result.entry
    assert (entry.provider, entry.state, entry.zone, entry.spot) == ("alibaba", "running", "cn-hangzhou-i", True)
    [run] = alibaba_server.requests_of("RunInstances")
    assert run["SpotStrategy"] == "SpotWithPriceLimit"
    steps = [launch.form.steps_list.item(i).text() for i in range(launch.form.steps_list.count())]
    assert all(s.startswith("✓") for s in steps), steps
    assert any("198.51.100.7/32" in s for s in steps)
    # a fresh account with the default key (RSA for Alibaba) and a network that was Pending for a while
    [pair] = alibaba_server.key_pairs.values()
    assert pair["PublicKey"].startswith("ssh-rsa ")
    assert all(v["Status"] == "Available" for v in (*alibaba_server.vpcs.values(), *alibaba_server.vswitches.values()))
    assert len(alibaba_server.requests_of("DescribeVpcAttribute", "2016-04-28")) >= 2  # waited while Pending
    launch.accept()

    # Instances page: the instance, its account, spot price and running cost; stop says what still bills.
    instances = InstancesPage(ctx)
    qtbot.addWidget(instances)
    qtbot.waitUntil(lambda: any(e.id == entry.id for e in instances.entries), timeout=10000)
    instances.select(entry.id)
    cells = cell_texts(instances.table, 0)
    assert (cells["account"], cells["zone"]) == ("lab-ali", "Alibaba Cloud · cn-hangzhou-i")
    assert cells["price"] == f"¥{TYPES[A10].spot:.4f}"
    assert cells["ip"]
    cost = instances.costs_now().get(entry.id).so_far
    assert cost is not None and cost >= 0
    assert instances.copy_ssh_command().startswith("ssh ")
    assert "root@" in instances.copy_ssh_command()  # Alibaba's public images log in as root
    qtbot.waitUntil(lambda: not ctx.runner.active(), timeout=10000)
    instances.select(entry.id)
    instances.stop_button.click()
    qtbot.waitUntil(lambda: "stopped." in instances.status_label.text(), timeout=10000)
    assert "disks still bill" in instances.status_label.text()
    assert alibaba_server.instance(entry.id).stopped_mode == "StopCharging"
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)

    # Start it again, then terminate (the id must be typed); the released instance leaves the list.
    from app.ui.cloud.instances_page import TerminateConfirmDialog

    instances.select(entry.id)
    instances.start_button.click()
    qtbot.waitUntil(lambda: alibaba_server.instance(entry.id).status == "Running", timeout=10000)
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)
    instances.reconcile()
    qtbot.waitUntil(lambda: instances.selected_entry() is not None
                    and instances.selected_entry().state == "running", timeout=10000)
    instances.select(entry.id)
    confirm = instances.terminate_selected()
    assert isinstance(confirm, TerminateConfirmDialog) and not confirm.ok_button.isEnabled()
    confirm.id_edit.setText(entry.id)
    confirm.ok_button.click()
    qtbot.waitUntil(lambda: entry.id not in alibaba_server.instances, timeout=10000)
    qtbot.waitUntil(lambda: "no longer bills" in instances.status_label.text(), timeout=10000)
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)
    assert all(e.id != entry.id for e in instances.visible_entries()), [
        (e.id, e.state) for e in instances.visible_entries()]

    # "Any zone": the first zone with stock has none left at the moment of the launch (a stock-out
    # the price check could not see); the launch goes on in the next zone, with the spot cap.
    alibaba_server.fail_next("RunInstances", "OperationDenied.NoStock", zone="cn-hangzhou-h")
    again = open_launch_dialog(ctx, _offer())
    qtbot.addWidget(again)
    qtbot.waitUntil(lambda: again.form.account_combo.count() == 1 and again.form.zone_combo.count() > 1, timeout=10000)
    qtbot.waitUntil(lambda: again.form.cidr_edit.text() == "198.51.100.7/32", timeout=10000)
    again.form.zone_combo.setCurrentIndex(again.form.zone_combo.findData(""))
    again.form.spot_check.setChecked(True)
    with qtbot.waitSignal(again.launched, timeout=20000):
        qtbot.mouseClick(again.form.launch_button, Qt.MouseButton.LeftButton)
    moved = again.launch_result.entry
    assert moved.zone not in ("", "cn-hangzhou-h") and moved.spot, moved
    runs = alibaba_server.requests_of("RunInstances")
    assert runs[-2].get("ZoneId") == "cn-hangzhou-h"  # refused: no stock; the next zone took it
    assert all(float(r["SpotPriceLimit"]) == pytest.approx(round(TYPES[A10].on_demand * 0.8, 4))
               for r in runs[-2:])
    again.accept()
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)

    for path in labgpu_home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for secret in (TEST_ACCESS_KEY_SECRET, TEST_ACCESS_KEY_ID):
                assert secret.encode() not in data, path
