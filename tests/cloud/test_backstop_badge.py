"""The guard badge says "enforced by the cloud" only when the cloud accepted the maximum runtime (read back after
a launch on the local Tencent peer); a refused one leaves it off with the reason, in the instances table, the
Edit guards dialog and the launch dialog's outcome; a guard without a maximum runtime says nothing of the cloud."""

from __future__ import annotations

import pytest

from app.cloud.launch_plan import LaunchOptions
from app.core.guards import GuardConfig, GuardStore
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY

GN7 = "GN7.2XLARGE32"
SSH_FROM = "198.51.100.7/32"


@pytest.fixture
def ctx(qtbot, labgpu_home, monkeypatch):
    import app.cloud.launch as launch
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    monkeypatch.setattr(launch, "POLL_S", 0.05)
    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


@pytest.fixture
def svc(ctx, secret_service, tencent_server, monkeypatch):
    from app.cloud.tencent import TencentProvider
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service

    monkeypatch.setattr(TencentProvider, "poll_interval", 0.05)
    tencent_server.pending_seconds = tencent_server.operation_seconds = 0.0
    service = cloud_service(ctx)
    service.accounts.add(Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint),
                         Credentials(TEST_SECRET_ID, TEST_SECRET_KEY))
    return service


def _launch(svc, ctx, hours):
    cfg = GuardConfig(max_hours=hours)
    res = svc.launch(LaunchOptions(account="lab-tc", instance_type=GN7, ssh_from=SSH_FROM, guard=cfg))
    GuardStore(ctx.store).set(res.entry.id, cfg)
    return res


def _guards_cell(page, iid):
    from app.ui.cloud.instances_table import COL_GUARDS

    for r in range(page.table.rowCount()):
        if page.table.item(r, 0).data(0x0100) == iid:
            item = page.table.item(r, COL_GUARDS)
            return item.text(), item.toolTip()
    return "", ""


def test_badge_says_enforced_only_when_the_cloud_accepted_it(qtbot, ctx, svc, tencent_server):
    from app.ui.cloud.instances_page import InstancesPage

    held = _launch(svc, ctx, 4.0)
    tencent_server.fail_next("RunInstances", "InvalidParameterValue.InvalidTimeFormat", "ActionTime is malformed")
    refused = _launch(svc, ctx, 4.0)
    plain = _launch(svc, ctx, None)
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    page.load_ledger()
    page.load_guards()
    qtbot.waitUntil(lambda: "cloud" in _guards_cell(page, refused.entry.id)[0], timeout=10000)
    qtbot.waitUntil(lambda: "enforced" in _guards_cell(page, held.entry.id)[0], timeout=10000)
    text, tip = _guards_cell(page, held.entry.id)
    assert held.backstop is not None
    assert f"max 4 h (enforced by the cloud: {held.backstop.what()})" in text and "terminate at" in text
    text, tip = _guards_cell(page, refused.entry.id)
    assert "enforced by the cloud" not in text
    assert "max 4 h (cloud backstop off: Tencent Cloud refused it (InvalidParameterValue.InvalidTimeFormat)" in text
    assert "ActionTime is malformed" in tip  # the whole reason in the cell's tooltip
    text, _tip = _guards_cell(page, plain.entry.id)
    assert "cloud" not in text and "max" not in text

    # the Edit guards dialog says the same, in a sentence
    page.select(refused.entry.id)
    edit = page.edit_guards()
    assert edit.editor.backstop_note.text().startswith("Not enforced by the cloud: Tencent Cloud refused it")
    edit.reject()
    page.select(held.entry.id)
    edit = page.edit_guards()
    assert edit.editor.backstop_note.text().startswith("Enforced by the cloud, even when this computer is off: "
                                                       "terminate at ")
    edit.reject()
    qtbot.waitUntil(ctx.runner.settled, timeout=10000)


def test_badge_in_chinese_says_cloud_enforced(qtbot, qapp, ctx, svc, tencent_server):
    from app.core.backstops import BackstopStore
    from app.ui import i18n
    from app.ui.shared.guards_ui import badge

    res = _launch(svc, ctx, 2.0)
    rec = BackstopStore(ctx.store).get(res.entry.id)
    i18n.install(qapp, "zh_CN")
    try:
        text = badge(GuardConfig(max_hours=2.0), True, backstop=rec)
        assert "云端强制" in text and "终止" in text
    finally:
        i18n.install(qapp, "en")
