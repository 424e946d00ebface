"""The instances page bills as the provider does, with the core's rule, and shows what the CLI shows.

AWS bills each start for at least 60 s (then per second): two short starts of one instance cost
2 × 60 s, not the few seconds they ran. The instance runs on moto's HTTP server; the page, the
core ledger and ``labgpu ls --json`` (a real CLI process) must give one number.
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

import pytest

from app.core.costs import billed_seconds, instance_cost
from tests.fixtures import clirun
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET
from tests.ui.instance_cells import cell_texts

ROOT = Path(__file__).resolve().parents[2]


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


def _shown(page, iid: str) -> float:
    row = next(r for r in range(page.table.rowCount()) if page.table.item(r, 0).text().startswith(iid))
    text = cell_texts(page.table, row)["cost"]
    assert text.startswith("$"), text
    return float(text[1:].replace(",", ""))


def _cli_cost(iid: str) -> float:
    r = clirun.run([sys.executable, "-m", "app", "ls", "--offline", "--json"], capture_output=True, text=True,
                       env=dict(os.environ), cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    [row] = [x for x in json.loads(r.stdout) if x["id"] == iid]
    return float(row["cost_so_far"])


def test_two_short_aws_starts_bill_60_s_each_on_the_page_as_in_the_core_and_cli(qtbot, ctx, secret_service, moto):
    from app.cloud.launch_plan import LaunchOptions
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage

    svc = cloud_service(ctx)
    svc.accounts.add(Account("lab-aws", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    iid = svc.launch(LaunchOptions(account="lab-aws", instance_type="g5.xlarge", ssh_from="198.51.100.7/32")).entry.id
    svc.stop(iid)
    assert svc.start(iid).state == "running"

    # While the second start runs (for seconds), it is already billed its 60 s minimum.
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    page.reconcile_timer.stop()
    qtbot.waitUntil(lambda: any(e.id == iid and e.state == "running" for e in page.entries), timeout=15000)
    e = next(x for x in page.entries if x.id == iid)
    price = e.price_per_hour
    assert price and price > 0
    assert billed_seconds("aws", 5) == 60.0
    minute = 60 / 3600 * price
    # the first start's 60 s + the running one's 60 s
    assert page.costs_now().get(iid).so_far == pytest.approx(2 * minute)
    qtbot.waitUntil(lambda: _shown(page, iid) == round(2 * minute, 4), timeout=10000)

    svc.stop(iid)
    page.load_ledger()
    qtbot.waitUntil(lambda: any(x.id == iid and x.state == "stopped" for x in page.entries), timeout=15000)
    core = svc.ledger.get(iid)
    assert core is not None and core.state == "stopped"
    segments = svc.ledger.store.query("SELECT started_at, ended_at FROM instance_segments WHERE id=?", (iid,))
    assert len(segments) == 2  # two starts, each a few seconds long
    core_cost = instance_cost(core).so_far
    assert core_cost == pytest.approx(2 * minute)  # not the few seconds they ran: 60 s each
    assert page.costs_now().get(iid).so_far == pytest.approx(core_cost)
    qtbot.waitUntil(lambda: _shown(page, iid) == round(core_cost, 4), timeout=10000)
    assert _cli_cost(iid) == pytest.approx(core_cost, abs=1e-6)


def test_tencent_bills_the_seconds_run_on_the_page_as_in_the_core_and_cli(qtbot, ctx, secret_service, tencent_server):
    """Tencent bills pay-as-you-go per second with no minimum: a short run costs its seconds."""
    from datetime import datetime

    from app.cloud.launch_plan import LaunchOptions
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage
    from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY

    svc = cloud_service(ctx)
    svc.accounts.add(Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint, {"protocol": "http"}),
                     Credentials(TEST_SECRET_ID, TEST_SECRET_KEY))
    opts = LaunchOptions(account="lab-tc", instance_type="GN7.2XLARGE32", ssh_from="198.51.100.7/32")
    iid = svc.launch(opts).entry.id
    svc.stop(iid)
    qtbot.waitUntil(lambda: svc.reconcile() and svc.ledger.get(iid).state == "stopped", timeout=15000)
    core = svc.ledger.get(iid)
    [seg] = svc.ledger.store.query("SELECT started_at, ended_at FROM instance_segments WHERE id=?", (iid,))
    ran = (datetime.fromisoformat(seg["ended_at"]) - datetime.fromisoformat(seg["started_at"])).total_seconds()
    assert 0 < ran < 60
    core_cost = instance_cost(core).so_far
    # per started second, no minimum
    assert core_cost == pytest.approx(math.ceil(ran - 1e-9) / 3600 * core.price_per_hour)
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    page.reconcile_timer.stop()
    qtbot.waitUntil(lambda: any(x.id == iid and x.state == "stopped" for x in page.entries), timeout=15000)
    assert page.costs_now().get(iid).so_far == pytest.approx(core_cost)
    qtbot.waitUntil(lambda: page.table.rowCount() > 0 and cell_texts(page.table, 0)["cost"] == f"¥{core_cost:,.4f}",
                    timeout=10000)
    assert _cli_cost(iid) == pytest.approx(core_cost, abs=1e-6)


def test_a_budget_guard_whose_price_is_unknown_is_shown_off(qtbot, ctx):
    """The Guards column never shows a budget as if it guarded while the instance's price is unknown (the
    budget cannot act until a price is known): it says OFF and why; with a price it is the plain budget."""
    from app.core.guards import GuardConfig, GuardStore
    from app.core.models import Instance
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import COLUMNS, InstancesPage

    svc = cloud_service(ctx)
    for iid, price in (("i-unpriced", None), ("i-priced", 1.006)):
        svc.ledger.observe(Instance(iid, "lab-aws", "aws", "us-east-1", "us-east-1a", "g5.xlarge", "running", False,
                                    raw_state="running"), price_per_hour=price, currency="USD")
        GuardStore(svc.store).set(iid, GuardConfig(budget=5.0, currency="USD"))
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    page.reconcile_timer.stop()
    qtbot.waitUntil(lambda: len(page.entries) == 2 and len(page.guards) == 2, timeout=15000)
    col = COLUMNS.index("guards")

    def guards_cell(iid: str) -> str:
        row = next(r for r in range(page.table.rowCount()) if page.table.item(r, 0).text().startswith(iid))
        return page.table.item(row, col).text()

    assert "budget 5 USD OFF: price unknown" in guards_cell("i-unpriced")
    assert "budget 5 USD" in guards_cell("i-priced") and "OFF" not in guards_cell("i-priced")
