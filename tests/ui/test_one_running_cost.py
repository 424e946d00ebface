"""One running cost: the tray, the instances page and `labgpu cost` count the same instances as billing,
show the same total, and name the instance whose price is unknown (never summed as 0, never turning the
whole total unknown). And a stop from the tray shows on the instances page at once, on the change event,
with every poll pushed an hour away.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.core import ledgerdb
from app.core.currency import effective_rate
from app.core.instances import Ledger
from app.core.models import Instance
from tests.ui import test_monitor_page as monitor_tests

HOUR = timedelta(hours=1)


def tc(iid: str, launched_at: datetime, state: str = "running") -> Instance:
    return Instance(iid, "lab-tc", "tencent", "ap-guangzhou", "ap-guangzhou-3", "GN7.2XLARGE32", state, False,
                    launched_at=launched_at, raw_state=state.upper())


def aws(iid: str, launched_at: datetime, state: str = "running") -> Instance:
    return Instance(iid, "lab-aws", "aws", "us-east-1", "us-east-1a", "g5.xlarge", state, False,
                    launched_at=launched_at, raw_state=state)


@pytest.fixture
def frozen(monkeypatch):
    """The ledger's clock stopped at one moment, so the three readers bill the same seconds."""
    ledgerdb.CLOCK.reset()
    now = datetime.now(timezone.utc).replace(microsecond=0)
    monkeypatch.setattr(ledgerdb.CLOCK, "wall", lambda: now.timestamp())
    yield now
    ledgerdb.CLOCK.reset()


ctx = monitor_tests.ctx  # the monitor page tests' fixture: an English app context in a fresh LABGPU_HOME


def _ledger(store, now: datetime) -> None:
    led = Ledger(store)
    # running, known prices in two currencies
    led.observe(tc("ins-a", now - 2 * HOUR), price_per_hour=7.0, currency="CNY", now=now - 2 * HOUR)
    led.observe(aws("i-b", now - HOUR), price_per_hour=1.0, currency="USD", now=now - HOUR)
    # running, price unknown
    led.observe(tc("ins-c", now - HOUR), currency="CNY", now=now - HOUR)
    # stopped without charging: costs what it ran, is not billing
    led.observe(tc("ins-d", now - 3 * HOUR), price_per_hour=7.0, currency="CNY", now=now - 3 * HOUR)
    led.observe(tc("ins-d", now - 3 * HOUR, "stopped"), now=now - 2 * HOUR)
    # stopped by the OS, still charging for compute: billing
    led.observe(tc("ins-e", now - 2 * HOUR), price_per_hour=3.5, currency="CNY", now=now - 2 * HOUR)
    led.observe(tc("ins-e", now - 2 * HOUR, "stopped_billing"), now=now - HOUR)
    # terminated
    led.observe(aws("i-f", now - 3 * HOUR), price_per_hour=1.0, currency="USD", now=now - 3 * HOUR)
    led.observe(aws("i-f", now - 3 * HOUR, "terminated"), now=now - 2 * HOUR)


def test_tray_instances_page_and_labgpu_cost_agree_and_name_the_unknown_price(qtbot, ctx, frozen):
    from app.cli.costcmd import month_report_doc
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage
    from app.ui.tray import CostTray

    _ledger(cloud_service(ctx).store, frozen)
    usd_cny = effective_rate(ctx.settings).usd_cny
    billing = {"ins-a", "i-b", "ins-c", "ins-e"}
    so_far = 14.0 + 1.0 * usd_cny + 7.0  # ins-a 2 h × ¥7, i-b 1 h × $1, ins-e 2 h × ¥3.5 (its stop still bills)
    per_hour = 7.0 + 1.0 * usd_cny + 3.5
    said = (f"Billing now: 4 instance(s), ¥{per_hour:,.2f}/h, ¥{so_far:,.2f} so far "
            "+ 1 instance with unknown price (ins-c)")

    tray = CostTray(ctx, open_window=lambda: None, quit_app=lambda: None, refresh_ms=3_600_000)
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    page.mono = lambda: 100.0  # the page's tick sees no time pass since its read
    page.reconcile_timer.stop()
    try:
        tray.refresh()
        qtbot.waitUntil(lambda: tray.costs is not None, timeout=10000)
        qtbot.waitUntil(lambda: {e.id for e in page.entries} >= billing | {"ins-d"}, timeout=10000)
        page._on_tick_timer_timeout()

        # the tray: its rows, its menu's first line and its tooltip
        assert {r.id for r in tray.rows} == billing
        assert tray.action("billingNow").text() == said
        assert said in tray.icon.toolTip()
        # the instances page: its totals line, and every entry's cost from the same rule
        costs = page.costs_now()
        assert {c.id for c in costs.billing} == billing and costs.unknown == ("ins-c",)
        assert page.summary_label.text() == said
        assert costs.so_far("CNY") == pytest.approx(so_far) and costs.per_hour("CNY") == pytest.approx(per_hour)
        assert costs.get("ins-d").so_far == pytest.approx(7.0)  # its row still shows what it cost
        # `labgpu cost --json`
        doc = month_report_doc(frozen.strftime("%Y-%m"))["running"]
        assert {i["id"] for i in doc["instances"]} == billing
        assert doc["unknown"] == ["ins-c"]
        assert doc["text"] == said
        assert doc["so_far_cny"] == pytest.approx(so_far) and doc["per_hour_cny"] == pytest.approx(per_hour)
        assert tray.costs.so_far("CNY") == pytest.approx(doc["so_far_cny"])
    finally:
        tray.close()
        page.shutdown()


def test_a_stop_from_the_tray_shows_on_the_instances_page_at_once(qtbot, ctx, secret_service, monkeypatch):
    import app.cloud.launch as launch
    from app.cloud.launch_plan import LaunchOptions
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage
    from app.ui.tray import CostTray
    from app.usecases.changes import Change
    from tests.cloud.toy_provider import TOY_KEY_ID, TOY_REGION, TOY_SECRET, TOY_TYPE, register_toy, unregister_toy

    monkeypatch.setattr(launch, "POLL_S", 0.05)
    register_toy()
    tray = page = None
    try:
        svc = cloud_service(ctx)
        svc.accounts.add(Account("lab-toy", "toy", TOY_REGION, ""), Credentials(TOY_KEY_ID, TOY_SECRET))
        iid = svc.launch(LaunchOptions(account="lab-toy", instance_type=TOY_TYPE, ssh_from="198.51.100.7/32")).entry.id
        tray = CostTray(ctx, open_window=lambda: None, quit_app=lambda: None, refresh_ms=3_600_000)
        page = InstancesPage(ctx)
        qtbot.addWidget(page)
        page.reconcile_timer.setInterval(3_600_000)  # no poll within the test: only the change event reloads
        tray.refresh()
        qtbot.waitUntil(lambda: any(r.id == iid for r in tray.rows), timeout=10000)
        qtbot.waitUntil(lambda: page.last_reconcile != "" and not ctx.runner.active(), timeout=15000)
        assert "Billing now: 1 instance(s)" in page.summary_label.text()

        with qtbot.waitSignal(ctx.changed, timeout=15000, check_params_cb=lambda k: Change.LEDGER in k):
            tray.stop(iid)
        qtbot.waitUntil(lambda: next(e for e in page.entries if e.id == iid).state == "stopped", timeout=10000)
        qtbot.waitUntil(lambda: page.summary_label.text() == "Nothing is billing for compute right now.",
                        timeout=5000)
        qtbot.waitUntil(lambda: tray.rows == [] and tray.action("billingNow") is None, timeout=10000)
        assert page.reconcile_timer.interval() == 3_600_000 and tray.refresh_timer.interval() == 3_600_000
    finally:
        if tray is not None:
            tray.close()
        if page is not None:
            page.shutdown()
        qtbot.waitUntil(lambda: not ctx.runner.active(), timeout=10000)
        unregister_toy()
