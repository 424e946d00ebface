"""`labgpu cost` as a student runs it, after a spot instance was reclaimed and relaunched: one run with
both instances (the old one, then the relaunch), each instance's line, and the run's total — in the
text and in --json. The ledger is seeded as spot recovery leaves it (the reclaimed instance terminated,
the new one in another zone, linked in app.core.runs)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest

from app.core.instances import Ledger
from app.core.paths import default_paths
from app.core.runs import RunStore
from app.core.store import Store
from tests.e2e.instance_support import ok
from tests.fixtures.observed import Observed

T0 = datetime(2026, 11, 10, 8, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)


Inst = Observed


@pytest.fixture
def recovered(labgpu_home) -> str:
    store = Store(paths=default_paths())
    try:
        led = Ledger(store)
        led.observe(Inst("ins-old", "ap-guangzhou-3", launched_at=T0), price_per_hour=7.0, currency="CNY", now=T0)
        led.observe(Inst("ins-old", "ap-guangzhou-3", "terminated", T0), now=T0 + 2 * H)  # reclaimed
        led.observe(Inst("ins-new", "ap-guangzhou-6", launched_at=T0 + 2 * H), price_per_hour=8.0, currency="CNY",
                    now=T0 + 2 * H)
        led.observe(Inst("ins-new", "ap-guangzhou-6", "terminated", T0 + 2 * H), now=T0 + 5 * H)
        led.observe(Inst("ins-other", "ap-guangzhou-3", launched_at=T0, spot=False), price_per_hour=5.0,
                    currency="CNY", now=T0)
        led.observe(Inst("ins-other", "ap-guangzhou-3", "terminated", T0, spot=False), now=T0 + H)
        return RunStore(store).link("tencent", "ins-old", "tencent", "ins-new", now=T0 + 2 * H).id
    finally:
        store.close()


def test_cost_json_shows_one_run_with_both_instances_and_its_total(recovered):
    doc = json.loads(ok("cost", "--month", "2026-11", "--json").stdout)
    lines = {i["id"]: i for i in doc["instances"]}
    assert lines["ins-old"]["run"] == recovered and lines["ins-new"]["run"] == recovered
    assert lines["ins-other"]["run"] is None
    assert lines["ins-old"]["cost"] == pytest.approx(14.0) and lines["ins-new"]["cost"] == pytest.approx(24.0)
    [run] = doc["runs"]
    assert run["id"] == recovered
    assert [(m["id"], m["reason"]) for m in run["instances"]] == [("ins-old", "launched"), ("ins-new", "relaunched")]
    assert run["cost_cny"] == pytest.approx(38.0) and run["hours"] == pytest.approx(5.0)
    assert run["so_far_cny"] == pytest.approx(38.0) and run["unknown"] == [] and run["so_far_unknown"] == []
    assert doc["total"]["cost_cny"] == pytest.approx(43.0)  # the run counted once, with the other instance


def test_cost_text_shows_the_run_line_under_the_table(recovered):
    out = ok("cost", "--month", "2026-11").stdout
    assert f"Run {recovered}: ins-old -> ins-new (reclaimed, relaunched)" in out
    assert "in 2026-11: 38.00 CNY" in out and "5.00 h" in out
    assert "so far in all: 38.00 CNY" in out
    table = [ln for ln in out.splitlines() if ln.startswith(("ins-old", "ins-new", "ins-other"))]
    assert len(table) == 3 and all(ln.rstrip().endswith(recovered) for ln in table if "ins-other" not in ln)


def test_cost_csv_names_each_instances_run_and_the_runs_total(recovered, tmp_path):
    import csv

    out = tmp_path / "nov.csv"
    ok("cost", "--month", "2026-11", "--csv", str(out))
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    runs = {r["instance"]: r["run"] for r in rows if r["account"] == "lab"}
    assert runs == {"ins-old": recovered, "ins-new": recovered, "ins-other": ""}
    [total] = [r for r in rows if r["account"] == "RUN"]
    assert total["instance"] == "ins-old -> ins-new" and total["run"] == recovered
    assert float(total["cost_cny"]) == pytest.approx(38.0) and float(total["hours"]) == pytest.approx(5.0)
    assert rows[-1]["account"] == "TOTAL" and float(rows[-1]["cost_cny"]) == pytest.approx(43.0)


def test_cost_without_runs_has_an_empty_runs_list(labgpu_home):
    doc = json.loads(ok("cost", "--month", "2026-11", "--json").stdout)
    assert doc["runs"] == [] and doc["instances"] == []
