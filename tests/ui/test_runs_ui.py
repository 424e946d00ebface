"""A recovered run on the instances page and in the monthly report: the reclaimed instance and its
relaunch each keep their line, each row names the run, its place in it and the run's total (the sum of
the rows' costs, the same rule), and the report adds the run's total under both lines."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from functools import partial

import pytest

from app.core import ledgerdb
from app.core.instances import Ledger
from app.core.runs import RunStore
from tests.fixtures.observed import Observed
from tests.ui import test_monitor_page as monitor_tests

NOW = datetime(2026, 12, 5, 12, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)

ctx = monitor_tests.ctx  # an English app context in a fresh LABGPU_HOME


Inst = partial(Observed, account="lab-tc", public_ip="203.0.113.7")


def seed_recovered_run(store, now: datetime = NOW) -> str:
    """ins-old ran 2 h at ¥7/h and was reclaimed; ins-new in another zone has run 1 h at ¥8/h."""
    led = Ledger(store)
    t0 = now - 3 * H
    led.observe(Inst("ins-0a1b2c3d", "ap-guangzhou-3", launched_at=t0), price_per_hour=7.0, currency="CNY", now=t0)
    led.observe(Inst("ins-0a1b2c3d", "ap-guangzhou-3", "terminated", t0), now=t0 + 2 * H)
    led.observe(Inst("ins-4e5f6a7b", "ap-guangzhou-6", launched_at=t0 + 2 * H), price_per_hour=8.0, currency="CNY",
                now=t0 + 2 * H)
    return RunStore(store).link("tencent", "ins-0a1b2c3d", "tencent", "ins-4e5f6a7b", now=t0 + 2 * H).id


@pytest.fixture
def frozen(monkeypatch):
    ledgerdb.CLOCK.reset()
    monkeypatch.setattr(ledgerdb.CLOCK, "wall", lambda: NOW.timestamp())
    yield NOW
    ledgerdb.CLOCK.reset()


def _cells(page, iid: str) -> dict[str, str]:
    from tests.ui.instance_cells import cell_texts

    for r in range(page.table.rowCount()):
        if page.table.item(r, 0).text() == iid:
            return cell_texts(page.table, r)
    return {}


def test_the_instances_page_shows_the_run_and_its_total(qtbot, ctx, frozen):
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage
    from app.ui.cloud.instances_table import COL_RUN

    run_id = seed_recovered_run(cloud_service(ctx).store)
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    page.mono = lambda: 100.0  # no time passes between the read and the tick
    page.reconcile_timer.stop()
    try:
        qtbot.waitUntil(lambda: bool(page.runs) and any(e.id == "ins-4e5f6a7b" for e in page.entries), timeout=10000)
        qtbot.waitUntil(lambda: not ctx.runner.active(), timeout=10000)
        page._on_tick_timer_timeout()
        new = _cells(page, "ins-4e5f6a7b")
        assert new["run"] == "2/2 · ¥22.00"  # 2 h × ¥7 + 1 h × ¥8
        assert _cells(page, "ins-0a1b2c3d") == {}  # terminated: hidden until asked for
        page.show_ended.setChecked(True)
        old = _cells(page, "ins-0a1b2c3d")
        assert old["run"] == "1/2 · ¥22.00" and old["cost"] == "¥14.0000"
        assert _cells(page, "ins-4e5f6a7b")["cost"] == "¥8.0000"
        r = next(r for r in range(page.table.rowCount()) if page.table.item(r, 0).text().startswith("ins-4e"))
        tip = page.table.item(r, COL_RUN).toolTip()
        assert f"Run {run_id}:" in tip and "1. ins-0a1b2c3d — launched" in tip
        assert "2. ins-4e5f6a7b — reclaimed → relaunched" in tip
        # an instance outside any run says so
        Ledger(cloud_service(ctx).store).observe(Inst("ins-alone", "ap-guangzhou-3", launched_at=NOW - H),
                                                 price_per_hour=1.0, now=NOW - H)
        page.load_ledger()
        qtbot.waitUntil(lambda: bool(_cells(page, "ins-alone")), timeout=10000)
        assert _cells(page, "ins-alone")["run"] == "—"
    finally:
        page.shutdown()


def test_the_monthly_report_shows_both_lines_and_the_runs_total(qtbot, ctx, frozen):
    from app.ui.cloud import cloud_service
    from app.ui.cloud.month_report import MonthReportDialog

    run_id = seed_recovered_run(cloud_service(ctx).store)
    report = MonthReportDialog(ctx, now=NOW)
    qtbot.addWidget(report)
    qtbot.waitUntil(lambda: bool(report.lines), timeout=10000)
    assert report.month() == "2026-12"
    rows = [[report.table.item(r, c).text() for c in range(6)] for r in range(report.table.rowCount())]
    names = [row[1] for row in rows]
    assert "ins-0a1b2c3d" in names and "ins-4e5f6a7b" in names
    run_row = next(row for row in rows if row[1].startswith("run "))
    assert run_row[1] == f"run {run_id}: ins-0a1b2c3d → ins-4e5f6a7b"
    assert run_row[3] == "3.0" and run_row[5] == "¥22.00"
    assert [r.run.id for r in report.runs] == [run_id]


def test_the_instances_page_edits_a_spot_instances_recovery_policy(qtbot, ctx, frozen):
    from app.core.recoverypolicy import INSTANCE, RecoveryPolicyStore
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage

    seed_recovered_run(cloud_service(ctx).store)
    Ledger(cloud_service(ctx).store).observe(Inst("ins-od", "ap-guangzhou-3", spot=False, launched_at=NOW - H),
                                             price_per_hour=1.0, now=NOW - H)
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    page.reconcile_timer.stop()
    try:
        qtbot.waitUntil(lambda: bool(_cells(page, "ins-od")) and bool(_cells(page, "ins-4e5f6a7b")), timeout=10000)
        page.select("ins-od")
        assert not page.recovery_button.isEnabled()  # on demand: never reclaimed
        page.select("ins-4e5f6a7b")
        assert page.recovery_button.isEnabled()
        dialog = page.edit_recovery()
        assert not dialog.editor.isChecked()
        dialog.editor.setChecked(True)
        dialog.editor.resume_edit.setText("python train.py --resume {checkpoint}")
        dialog.editor.regions_edit.setText("ap-shanghai")
        assert dialog.save()
        saved = RecoveryPolicyStore(ctx.store).get(INSTANCE, "ins-4e5f6a7b")
        assert saved.resume == "python train.py --resume {checkpoint}" and saved.regions == ("ap-shanghai",)
        again = page.edit_recovery()
        assert again.editor.isChecked() and again.editor.regions_edit.text() == "ap-shanghai"
        again.reject()
    finally:
        page.shutdown()
