"""One run across instances (app.core.runs): a reclaimed spot instance and its relaunch are linked in
order; the run costs the sum of its instances' costs under the one billing rule (app.usecases.costs);
the monthly report shows both lines and the run's total; bad links are refused with a next step."""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from functools import partial

import pytest

from app.core.currency import ExchangeRate
from app.core.errors import InputError
from app.core.instances import Ledger
from app.core.monthreport import month_report, month_runs
from app.core.paths import default_paths
from app.core.runs import REASON_FIRST, REASON_RELAUNCHED, RunStore, reason_text, run_cost
from app.core.store import Store
from app.usecases.costs import running_costs
from tests.fixtures.observed import Observed

RATE = ExchangeRate(7.0, "test", date(2026, 12, 1))
T0 = datetime(2026, 12, 2, 8, 0, tzinfo=timezone.utc)
H = timedelta(hours=1)


Inst = partial(Observed, account="tc", public_ip="203.0.113.5", private_ip="10.0.0.5", image_id="img-1",
               key_name="labgpu-k", raw_state="RUNNING")


@pytest.fixture
def store(labgpu_home):
    s = Store(paths=default_paths())
    yield s
    s.close()


def _reclaimed_and_relaunched(store: Store) -> Ledger:
    """ins-old ran 2 h at ¥7/h and was reclaimed; ins-new (another zone) runs 1 h at ¥8/h so far."""
    led = Ledger(store)
    led.observe(Inst("ins-old", launched_at=T0), price_per_hour=7.0, currency="CNY", now=T0)
    led.observe(Inst("ins-old", state="terminated", launched_at=T0, raw_state="gone"), now=T0 + 2 * H)
    led.observe(Inst("ins-new", zone="ap-guangzhou-6", launched_at=T0 + 2 * H), price_per_hour=8.0,
                currency="CNY", now=T0 + 2 * H)
    return led


def test_link_orders_the_members_and_is_idempotent(store):
    runs = RunStore(store)
    assert runs.run_of("ins-old") is None and runs.all() == []
    run = runs.link("tencent", "ins-old", "tencent", "ins-new", now=T0 + 2 * H)
    assert run.instance_ids == ("ins-old", "ins-new")
    assert [m.reason for m in run.members] == [REASON_FIRST, REASON_RELAUNCHED]
    assert reason_text(REASON_RELAUNCHED) == "reclaimed → relaunched"
    assert runs.link("tencent", "ins-old", "tencent", "ins-new") == run  # the same pair again: nothing new
    third = runs.link("tencent", "ins-new", "alibaba", "i-third")  # the relaunch was reclaimed too
    assert third.id == run.id and third.instance_ids == ("ins-old", "ins-new", "i-third")
    assert runs.run_of("i-third", "alibaba") == third and runs.run_of("i-third", "tencent") is None
    assert set(runs.by_instance()) == {"ins-old", "ins-new", "i-third"}
    assert runs.get(run.id) == third and len(runs.all()) == 1
    assert third.text() == f"Run {run.id}: ins-old → ins-new → i-third"


def test_bad_links_are_refused_with_a_next_step(store):
    runs = RunStore(store)
    runs.link("tencent", "a", "tencent", "b")
    other = runs.link("tencent", "x", "tencent", "y")
    with pytest.raises(InputError) as exc:
        runs.link("tencent", "a", "tencent", "y")  # y goes on from x already
    assert exc.value.code == "InstanceInOtherRun" and other.id in exc.value.one_line()
    with pytest.raises(InputError) as exc:
        runs.link("tencent", "a", "tencent", "a")
    assert exc.value.code == "RunSelfLink"
    assert runs.run_of("y").instance_ids == ("x", "y")  # nothing changed by the refusals


def test_the_run_costs_the_sum_of_its_instances_under_the_one_billing_rule(store):
    led = _reclaimed_and_relaunched(store)
    run = RunStore(store).link("tencent", "ins-old", "tencent", "ins-new", now=T0 + 2 * H)
    now = T0 + 3 * H
    entries = led.list(include_terminated=True, now=now)
    costs = running_costs(entries, {}, RATE, now)
    rc = run_cost(run, costs.instances, RATE)
    assert [c.id for c in rc.members] == ["ins-old", "ins-new"]
    assert rc.so_far("CNY") == pytest.approx(2 * 7.0 + 1 * 8.0)
    assert rc.so_far("USD") == pytest.approx((2 * 7.0 + 8.0) / 7.0)
    assert rc.so_far("CNY") == pytest.approx(sum(costs.get(i).so_far for i in ("ins-old", "ins-new")))
    assert rc.unknown == ()
    # a member the costs do not hold is named, never summed as 0
    partial = run_cost(run, [costs.get("ins-new")], RATE)
    assert partial.missing == ("ins-old",) and partial.so_far("CNY") == pytest.approx(8.0)
    doc = rc.to_json()
    assert [m["id"] for m in doc["instances"]] == ["ins-old", "ins-new"] and doc["so_far_cny"] == pytest.approx(22.0)


def test_the_monthly_report_shows_both_lines_and_the_runs_total(store):
    _reclaimed_and_relaunched(store)
    Ledger(store).observe(Inst("ins-alone", spot=False, launched_at=T0), price_per_hour=5.0, currency="CNY",
                          now=T0)
    run = RunStore(store).link("tencent", "ins-old", "tencent", "ins-new", now=T0 + 2 * H)
    lines = month_report(store, "2026-12", now=T0 + 3 * H)
    by_id = {ln.id: ln for ln in lines}
    assert by_id["ins-old"].run_id == run.id and by_id["ins-new"].run_id == run.id
    assert by_id["ins-alone"].run_id == ""
    assert by_id["ins-old"].cost == pytest.approx(14.0) and by_id["ins-new"].cost == pytest.approx(8.0)
    [total] = month_runs(store, lines, RATE)
    assert total.run.id == run.id and [ln.id for ln in total.lines] == ["ins-old", "ins-new"]
    assert total.cost_cny == pytest.approx(22.0) and total.hours == pytest.approx(3.0)
    assert total.unknown == ()
    assert month_runs(store, month_report(store, "2026-11", now=T0 + 3 * H), RATE) == []


def test_runs_are_kept_and_an_older_store_gets_the_tables(labgpu_home):
    store = Store(paths=default_paths())
    store.execute("DROP TABLE run_members")
    store.execute("DROP TABLE runs")
    store.execute("DELETE FROM schema_versions WHERE feature='runs'")
    RunStore(store).link("tencent", "a", "tencent", "b")  # migrates what is missing
    store.close()
    again = Store(paths=default_paths())
    try:
        assert RunStore(again).run_of("b").instance_ids == ("a", "b")
    finally:
        again.close()
