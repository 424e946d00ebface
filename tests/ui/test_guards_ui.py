"""Guards and running cost in the UI, against the local Tencent TC3 peer and a real keyring.

The launch dialog's guards section saves the new instance's guard; the instances page shows it
(column) and edits it, shows per hour / so far / projected from the core cost function, and the
monthly report lists what ran. A Hosts-page server's guards say "notify only". Settings hold the
defaults, the tray setting and start-at-login (an XDG autostart file, read back).
"""

from __future__ import annotations

import configparser
import csv
import os
from datetime import datetime, timezone

import pytest

from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY, TYPES

GN7 = "GN7.2XLARGE32"


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
def tc_account(ctx, secret_service, tencent_server, monkeypatch):
    from app.cloud.tencent import TencentProvider
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service

    monkeypatch.setattr(TencentProvider, "poll_interval", 0.05)
    monkeypatch.setattr(TencentProvider, "retry_base_delay", 0.01)
    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", tencent_server.endpoint + "/_ip")
    cloud_service(ctx).accounts.add(
        Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint),
        Credentials(TEST_SECRET_ID, TEST_SECRET_KEY),
    )
    return "lab-tc"


def _offer():
    from app.core.models import Offer

    return Offer(provider="tencent", region="ap-guangzhou", instance_type=GN7, gpu_model="T4", gpu_count=1,
                 vram_gb=16, vcpu=8, ram_gb=32, network_gbps=3, price_on_demand=TYPES[GN7][4],
                 price_spot=TYPES[GN7][5], price_prepaid_month=None, currency="CNY", price_source="live",
                 price_date=None, spot_available=True, live=True)


def _wait_idle(qtbot, ctx, timeout=10000):
    qtbot.waitUntil(ctx.runner.settled, timeout=timeout)


def _cells(page, iid):
    from tests.ui.instance_cells import cell_texts

    for r in range(page.table.rowCount()):
        if page.table.item(r, 0).data(0x0100) == iid:
            return cell_texts(page.table, r)
    return {}


def _launch(qtbot, ctx, page, configure=None):
    dialog = page.open_launch(_offer())
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 1, timeout=10000)
    qtbot.waitUntil(lambda: dialog.form.cidr_edit.text() == "198.51.100.7/32", timeout=10000)
    qtbot.waitUntil(lambda: dialog.form.zone_combo.count() > 1, timeout=10000)
    dialog.form.spot_check.setChecked(False)
    if configure is not None:
        configure(dialog)
    with qtbot.waitSignal(dialog.launched, timeout=20000):
        dialog.form.launch_button.click()
    qtbot.waitUntil(lambda: dialog.guard_saved is not None or not dialog.form.guard_editor.isChecked(), timeout=10000)
    return dialog


def test_launch_dialog_guards_use_settings_defaults_and_are_saved_for_the_instance(
        qtbot, ctx, tc_account, tencent_server):
    from app.core.guards import GuardStore
    from app.ui.cloud.instances_page import InstancesPage

    ctx.settings.guard_idle_below_pct = 25.0
    ctx.settings.guard_idle_minutes = 15.0
    ctx.settings.guard_on_idle = "stop"
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    _wait_idle(qtbot, ctx)

    def configure(dialog):
        ed = dialog.form.guard_editor
        assert ed.isChecked()
        assert ed.idle_pct.value() == 25 and ed.idle_minutes.value() == 15
        assert ed.on_idle.currentData() == "stop"
        assert not ed.notify_only.isVisible()  # a cloud instance: guards may stop it
        ed.budget.setValue(50)
        ed.max_hours.setValue(12)

    dialog = _launch(qtbot, ctx, page, configure)
    iid = dialog.launch_result.entry.id
    stored = GuardStore(ctx.store).get(iid)
    assert stored is not None
    assert (stored.idle_below_pct, stored.idle_minutes, stored.on_idle) == (25, 15, "stop")
    assert stored.budget == 50 and stored.currency == "CNY" and stored.max_hours == 12
    assert "Guards: idle <25% 15 min → stop · budget 50 CNY · max 12 h" in dialog.form.outcome_label.text()
    dialog.accept()
    page.load_ledger()
    qtbot.waitUntil(lambda: "budget 50 CNY" in _cells(page, iid).get("guards", ""), timeout=10000)
    cells = _cells(page, iid)
    # per hour, so far and projected come from the core cost function
    assert cells["price"] == f"¥{TYPES[GN7][4]:.4f}"
    assert cells["cost"].startswith("¥")
    assert cells["projected"].startswith("budget in ")

    # Edit guards…: switch the budget off, keep the rest
    page.select(iid)
    edit = page.edit_guards()  # the page owns it (deleted once it is done)
    assert edit.editor.budget.value() == 50
    edit.editor.budget.setValue(0)
    with qtbot.waitSignal(edit.saved, timeout=10000):
        edit.buttons.button(edit.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: "budget" not in _cells(page, iid).get("guards", "budget"), timeout=10000)
    assert GuardStore(ctx.store).get(iid).budget is None
    assert "at max. runtime" in _cells(page, iid)["projected"]
    # switching the whole section off removes the guard
    page.select(iid)
    edit = page.edit_guards()  # the page owns it (deleted once it is done)
    edit.editor.setChecked(False)
    with qtbot.waitSignal(edit.saved, timeout=10000):
        edit.buttons.button(edit.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: _cells(page, iid).get("guards") == "—", timeout=10000)
    assert GuardStore(ctx.store).get(iid) is None
    _wait_idle(qtbot, ctx)


def test_monthly_report_lists_the_instance_and_exports_csv(qtbot, ctx, tc_account, tencent_server, tmp_path):
    from app.ui.cloud.instances_page import InstancesPage

    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    _wait_idle(qtbot, ctx)
    dialog = _launch(qtbot, ctx, page, lambda d: d.form.guard_editor.setChecked(False))
    iid = dialog.launch_result.entry.id
    dialog.accept()
    qtbot.waitUntil(lambda: any(e.id == iid for e in page.entries), timeout=10000)
    page.select(iid)
    page.stop_button.click()
    qtbot.waitUntil(lambda: "stopped." in page.status_label.text(), timeout=10000)
    _wait_idle(qtbot, ctx)
    report = page.open_report()
    qtbot.addWidget(report)
    qtbot.waitUntil(lambda: bool(report.lines), timeout=10000)
    assert report.month() == datetime.now(timezone.utc).strftime("%Y-%m")
    line = next(ln for ln in report.lines if ln.id == iid)
    assert line.account == "lab-tc" and line.cost is not None and line.cost > 0
    texts = [report.table.item(r, 1).text() for r in range(report.table.rowCount())]
    assert iid in texts and "account total" in texts
    assert report.total_label.text().startswith(f"Total {report.month()}: ¥")
    out = tmp_path / "report.csv"
    assert report.export_csv(str(out)) == len(report.lines)
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert any(r["instance"] == iid and r["account"] == "lab-tc" and float(r["cost"]) > 0 for r in rows)


def test_a_hosts_page_server_guard_is_notify_only_and_says_so(qtbot, ctx):
    from app.core.guards import GuardStore
    from app.ui.monitor.page import MonitorPage
    from tests.ui.monitor_data import FeedSource

    src = FeedSource()
    page = MonitorPage(ctx, hub=src, autostart=False)
    qtbot.addWidget(page)
    page.available = [("lab-server", "host")]
    page.watch("lab-server", remember=False)
    panel = page.panels["lab-server"]
    assert "none" in panel.guard_label.text() or "(notify only)" in panel.guard_label.text()
    dialog = page.edit_guards("lab-server")
    qtbot.addWidget(dialog)
    ed = dialog.editor
    assert ed.notify_only.isVisibleTo(dialog)
    assert "only notify" in ed.notify_only.text()
    assert not ed.on_idle.isEnabled() and ed.on_idle.currentData() == "notify"
    assert not ed.max_hours.isEnabled() and not ed.watchdog.isEnabled()
    ed.setChecked(True)
    ed.idle_minutes.setValue(20)
    with qtbot.waitSignal(dialog.saved, timeout=10000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    stored = GuardStore(ctx.store).get("lab-server")
    assert stored.on_idle == "notify" and stored.idle_minutes == 20 and stored.max_hours is None
    assert panel.guard_label.text() == "Guards: idle <30% 20 min → notify (notify only)"


def test_settings_hold_guard_defaults_tray_choice_and_start_at_login(qtbot, ctx, tmp_path, monkeypatch):
    from app.core.settings import SettingsStore
    from app.ui.settings_page import SettingsPage

    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    page = SettingsPage(ctx)
    qtbot.addWidget(page)
    page.idle_pct_spin.setValue(20)
    page.idle_pct_spin.editingFinished.emit()
    page.on_idle_combo.setCurrentIndex(page.on_idle_combo.findData("stop"))
    page.keep_tray_check.setChecked(False)
    saved = SettingsStore(ctx.paths).load()
    assert saved.guard_idle_below_pct == 20 and saved.guard_on_idle == "stop"
    assert saved.keep_tray_when_closed is False

    page.login_check.setChecked(True)
    entry = tmp_path / "xdg" / "autostart" / "labgpu.desktop"
    assert entry.exists()
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read_string(entry.read_text(encoding="utf-8"))
    assert parser["Desktop Entry"]["Exec"].endswith("--tray")
    assert str(entry) in page.login_label.text()
    assert SettingsStore(ctx.paths).load().start_at_login is True
    page.login_check.setChecked(False)
    assert not entry.exists()
    assert SettingsStore(ctx.paths).load().start_at_login is False


def test_start_at_login_failure_is_a_sentence_and_the_box_stays_off(qtbot, ctx, tmp_path, monkeypatch):
    from app.ui.settings_page import SettingsPage

    blocker = tmp_path / "xdg"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(blocker))
    page = SettingsPage(ctx)
    qtbot.addWidget(page)
    page.login_check.setChecked(True)
    assert not page.login_check.isChecked()
    assert "Could not change the start-at-login entry" in page.login_label.text()
    assert ctx.settings.start_at_login is False


def test_the_app_runs_the_guards_and_an_idle_server_notifies_only(qtbot, ctx):
    """WatchService: the Watcher in a thread of the app, fed by the monitor hub, its events as a Qt signal."""

    from app.core.guards import GuardConfig, GuardStore
    from app.ui.monitor.watch_service import WatchService
    from tests.ui.monitor_data import FeedSource

    GuardStore(ctx.store).set("lab-server", GuardConfig(idle_below_pct=30, idle_minutes=0.5, on_idle="notify"))
    src = FeedSource()
    svc = WatchService(ctx, src)
    ctx.services.watch = svc  # closed (thread joined, lock released) by ctx.shutdown
    assert svc.start() is True
    assert "lab-server" in src.watching  # guarded hosts are monitored
    qtbot.waitUntil(lambda: len(src._subs) == 1, timeout=10000)  # the watcher listens to the hub
    other = WatchService(ctx, src)  # a second watcher (another LabGPU) stays passive: it waits to take over
    assert other.start() is False and other.holder == os.getpid()
    try:
        _idle_notify(qtbot, svc, src)
    finally:
        other.close()  # it would take over when svc closes (ctx.shutdown): this test ends it first


def _idle_notify(qtbot, svc, src) -> None:
    import time

    from tests.ui.monitor_data import sample

    now = time.time()
    with qtbot.waitSignal(svc.event, timeout=20000,
                          check_params_cb=lambda ev: ev.kind == "idle-notify") as got:
        for k in range(45):
            src.feed(sample("lab-server", now - 44 + k, gpus=2, util=5.0))
    ev = got.args[0]
    assert ev.target_id == "lab-server"
    assert "no cloud API" in ev.message and "only notifies" in ev.message
