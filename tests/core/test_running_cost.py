"""Running cost (so far, per hour/day, until budget/max runtime), totals in CNY and USD, the month
report across restarts and month boundaries, and `labgpu cost`."""

from __future__ import annotations

import csv
import json
import os
import sys
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.core.costs import instance_cost, totals
from app.core.currency import ExchangeRate
from app.core.instances import Ledger
from app.core.monthreport import month_report
from app.core.paths import default_paths
from app.core.store import Store
from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
RATE = ExchangeRate(7.0, "test", date(2026, 12, 1))
T0 = datetime(2026, 11, 30, 22, 0, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Inst:
    id: str = "ins-1"
    account: str = "tc"
    provider: str = "tencent"
    region: str = "ap-guangzhou"
    zone: str = "ap-guangzhou-3"
    instance_type: str = "GN7.2XLARGE32"
    state: str = "running"
    spot: bool = False
    public_ip: str = "203.0.113.5"
    private_ip: str = "10.0.0.5"
    price_per_hour: float | None = None
    currency: str = "CNY"
    launched_at: datetime | None = T0
    name: str = ""
    image_id: str = "img-1"
    key_name: str = "labgpu-k"
    raw_state: str = "running"
    tags: dict = field(default_factory=dict)


@pytest.fixture
def ledger(labgpu_home):
    store = Store(paths=default_paths())
    yield Ledger(store)
    store.close()


def test_instance_cost_projection_and_budget(ledger):
    e = ledger.observe(Inst(), price_per_hour=7.0, currency="CNY", now=T0 + timedelta(hours=2))
    c = instance_cost(e, T0 + timedelta(hours=2), RATE, budget=10.0, budget_currency="USD", max_hours=5)
    assert c.so_far == pytest.approx(14.0) and c.per_hour == 7.0 and c.per_day == 168.0
    assert c.budget == pytest.approx(70.0)  # 10 USD in CNY at the shown rate
    assert c.hours_to_budget == pytest.approx((70 - 14) / 7)
    assert c.hours_to_max_runtime == pytest.approx(3.0) and c.cost_at_max_runtime == pytest.approx(35.0)
    assert c.so_far_usd == pytest.approx(2.0) and c.per_hour_usd == pytest.approx(1.0)
    assert any("disk" in n for n in c.notes)  # disk price unknown: said, not counted as 0
    assert c.projected_to_budget_h == c.hours_to_budget == c.projected_hours and c.projected == pytest.approx(70.0)
    no_budget = instance_cost(e, T0 + timedelta(hours=2), RATE, max_hours=5)
    assert no_budget.projected_hours == pytest.approx(3.0) and no_budget.projected == pytest.approx(35.0)


def test_unknown_price_stays_unknown_and_totals_say_so(ledger):
    known = ledger.observe(Inst(), price_per_hour=7.0, now=T0 + timedelta(hours=1))
    unknown = ledger.observe(replace(Inst(), id="ins-2"), now=T0 + timedelta(hours=1))
    aws = ledger.observe(replace(Inst(), id="i-3", provider="aws", currency="USD", account="aws"),
                         price_per_hour=1.0, currency="USD", now=T0 + timedelta(hours=1))
    cs = [instance_cost(x, T0 + timedelta(hours=1), RATE) for x in (known, unknown, aws)]
    assert cs[1].so_far is None and cs[1].per_hour is None and cs[1].so_far_cny is None
    tot = totals(cs, RATE)
    assert tot.unknown == ("ins-2",)
    assert tot.so_far_cny == pytest.approx(7.0 + 7.0) and tot.so_far_usd == pytest.approx(1.0 + 1.0)
    assert tot.per_hour_cny == pytest.approx(14.0)


def test_spot_price_note_says_it_is_not_re_read(ledger):
    e = ledger.observe(replace(Inst(), spot=True), price_per_hour=1.74, now=T0 + timedelta(minutes=10))
    c = instance_cost(e, T0 + timedelta(minutes=10), RATE)
    assert any("not re-read" in n for n in c.notes)


def test_month_report_splits_a_run_across_months_and_survives_a_restart(labgpu_home):
    store = Store(paths=default_paths())
    led = Ledger(store)
    led.observe(Inst(), price_per_hour=6.0, now=T0 + timedelta(minutes=1))  # started Nov 30 22:00
    led.observe(replace(Inst(), state="stopped", raw_state="stopped"), now=T0 + timedelta(hours=5))  # Dec 1 03:00
    store.close()
    store2 = Store(paths=default_paths())  # as after a crash and a restart
    nov = month_report(store2, "2026-11", now=T0 + timedelta(days=3))
    dec = month_report(store2, "2026-12", now=T0 + timedelta(days=3))
    assert [(m.id, round(m.hours, 3)) for m in nov] == [("ins-1", 2.0)]
    assert [(m.id, round(m.hours, 3)) for m in dec] == [("ins-1", 3.0)]
    assert nov[0].cost == pytest.approx(12.0) and dec[0].cost == pytest.approx(18.0)
    assert month_report(store2, "2026-10") == []
    with pytest.raises(ValueError):
        month_report(store2, "2026-13x")


def test_cli_cost_json_and_csv(labgpu_home, tmp_path):
    store = Store(paths=default_paths())
    led = Ledger(store)
    led.observe(Inst(), price_per_hour=6.0, now=T0 + timedelta(minutes=1))
    led.observe(replace(Inst(), state="stopped", raw_state="stopped"), now=T0 + timedelta(hours=5))
    led.observe(replace(Inst(), id="i-9", provider="aws", account="aws", currency="USD",
                        launched_at=T0 + timedelta(hours=3)), price_per_hour=2.0, currency="USD",
                now=T0 + timedelta(hours=3, minutes=1))
    led.observe(replace(Inst(), id="i-9", provider="aws", account="aws", currency="USD", state="stopped",
                        raw_state="stopped", launched_at=T0 + timedelta(hours=3)), now=T0 + timedelta(hours=4))
    store.close()
    out = tmp_path / "dec.csv"
    r = clirun.run([sys.executable, "-m", "app", "cost", "--month", "2026-12", "--json", "--csv", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    by_id = {i["id"]: i for i in doc["instances"]}
    assert by_id["ins-1"]["cost"] == pytest.approx(18.0) and by_id["ins-1"]["currency"] == "CNY"
    assert by_id["i-9"]["cost"] == pytest.approx(2.0) and by_id["i-9"]["currency"] == "USD"
    assert {a["account"] for a in doc["accounts"]} == {"tc", "aws"}
    rate = float(doc["rate"].split("=")[1].split("CNY")[0])
    assert doc["total"]["cost_cny"] == pytest.approx(18.0 + 2.0 * rate, rel=1e-4)
    rows = list(csv.reader(out.open()))
    assert rows[0][:3] == ["month", "account", "instance"] and rows[-1][1] == "TOTAL"
    table = clirun.run([sys.executable, "-m", "app", "cost", "--month", "2026-12"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert "ins-1" in table.stdout and "Total:" in table.stdout
    bad = clirun.run([sys.executable, "-m", "app", "cost", "--month", "December"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60, env=dict(os.environ))
    assert bad.returncode == 2 and "[BadMonth]" in bad.stderr and " — " in bad.stderr


def test_a_total_names_a_few_unknown_priced_instances_and_counts_all():
    """Ids come from a cloud: a total line names the first three, counts every one, and cuts an id."""
    from app.usecases.costs import unknown_text

    line = unknown_text([f"ins-{n}" for n in range(10)])
    assert line.startswith("10 instances with unknown price (ins-0, ins-1, ins-2, …)"), line
    assert "ins-3" not in line
    assert len(unknown_text(["i-" + "x" * 500])) < 120
