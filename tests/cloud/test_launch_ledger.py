"""The instances ledger (core): billing segments, costs with the AWS 60 s minimum, reconcile,
pending launches."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone

import pytest

from app.core.instances import Ledger
from app.core.paths import default_paths
from app.core.pendinglaunches import PendingLaunches
from app.core.store import Store

T0 = datetime(2026, 3, 1, 12, 0, 0, tzinfo=timezone.utc)


@dataclass(frozen=True)
class Inst:
    id: str = "i-1"
    account: str = "lab"
    provider: str = "aws"
    region: str = "us-east-1"
    zone: str = "us-east-1a"
    instance_type: str = "g5.xlarge"
    state: str = "running"
    spot: bool = False
    public_ip: str = "203.0.113.5"
    private_ip: str = "10.0.0.5"
    price_per_hour: float | None = None
    currency: str = "USD"
    launched_at: datetime | None = T0
    name: str = ""
    image_id: str = "ami-1"
    key_name: str = "labgpu-k"
    raw_state: str = "running"
    tags: dict = field(default_factory=lambda: {"labgpu": "1", "labgpu-launch": "lg-abc"})


@dataclass(frozen=True)
class Acc:
    name: str = "lab"
    provider: str = "aws"
    region: str = "us-east-1"


@pytest.fixture
def ledger(labgpu_home):
    store = Store(paths=default_paths())
    yield Ledger(store)
    store.close()


def test_cost_follows_running_segments(ledger):
    e = ledger.observe(Inst(), price_per_hour=3.6, now=T0 + timedelta(seconds=10))
    assert e.client_token == "lg-abc"
    assert e.started_at == T0
    assert e.cost_so_far == pytest.approx(3.6 * 60 / 3600)  # 10 s billed as AWS's 60 s minimum
    e = ledger.observe(replace(Inst(), state="stopped", raw_state="stopped"), now=T0 + timedelta(hours=1))
    assert e.cost_so_far == pytest.approx(3.6)
    assert e.uptime_s == 0
    assert e.billing is False
    # Started again 2 h later: AWS reports the new LaunchTime.
    t2 = T0 + timedelta(hours=2)
    e = ledger.observe(replace(Inst(), launched_at=t2), now=t2 + timedelta(minutes=30))
    assert e.started_at == t2
    assert e.uptime_s == pytest.approx(1800)
    assert e.cost_so_far == pytest.approx(3.6 * 1.5)
    later = ledger.get("i-1", now=t2 + timedelta(hours=1))
    assert later.cost_so_far == pytest.approx(3.6 * 2)
    e = ledger.mark_state("aws", "i-1", "terminated", now=t2 + timedelta(hours=1))
    assert e.ended_at == t2 + timedelta(hours=1)
    assert ledger.get("i-1", now=t2 + timedelta(hours=5)).cost_so_far == pytest.approx(3.6 * 2)


def test_a_stop_that_keeps_charging_keeps_billing(ledger):
    """Tencent KEEP_CHARGING / Alibaba KeepCharging: stopped, but compute bills — the cost goes on and the
    entry says it bills; a later stop without charging ends the segment."""
    tc = Inst(provider="tencent", id="ins-1", currency="CNY", raw_state="RUNNING")
    ledger.observe(tc, price_per_hour=10.0, now=T0)
    e = ledger.observe(replace(tc, state="stopped_billing", raw_state="STOPPED/KEEP_CHARGING"),
                       now=T0 + timedelta(hours=1))
    assert e.billing is True
    later = ledger.get("ins-1", now=T0 + timedelta(hours=3))
    assert later.cost_so_far == pytest.approx(30.0)  # three hours of compute, two of them stopped
    e = ledger.observe(replace(tc, state="stopped", raw_state="STOPPED/STOP_CHARGING"),
                       now=T0 + timedelta(hours=3))
    assert e.billing is False
    assert ledger.get("ins-1", now=T0 + timedelta(hours=9)).cost_so_far == pytest.approx(30.0)


def test_unknown_price_is_unknown_not_zero(ledger):
    e = ledger.observe(Inst(), now=T0 + timedelta(minutes=5))
    assert e.price_per_hour is None
    assert e.cost_so_far is None
    assert e.to_json()["cost_so_far"] is None


def test_reconcile_updates_marks_gone_and_keeps_failed_accounts(ledger):
    ledger.observe(Inst(), price_per_hour=1.0, now=T0)
    ledger.observe(replace(Inst(), id="i-2"), price_per_hour=1.0, now=T0)
    ledger.observe(replace(Inst(), id="t-1", account="tc", provider="tencent", currency="CNY"), now=T0)
    later = T0 + timedelta(minutes=10)

    def list_fn(acc):
        if acc.name == "tc":
            raise RuntimeError("endpoint down")
        return [replace(Inst(), state="stopped", raw_state="stopped")]

    res = ledger.reconcile([Acc(), Acc("tc", "tencent", "us-east-1")], list_fn, now=later)
    by_id = {e.id: e for e in res.entries}
    assert by_id["i-1"].state == "stopped"
    assert by_id["i-2"].state == "terminated"
    assert by_id["i-2"].raw_state == "gone"
    assert res.gone == ["i-2"]
    assert by_id["t-1"].state == "running"  # its cloud could not be asked: kept as last seen
    assert "tc" in res.errors


def test_a_terminate_is_final_but_a_row_marked_gone_comes_back_when_seen(ledger):
    ledger.observe(Inst(), price_per_hour=1.0, now=T0)
    ledger.mark_state("aws", "i-1", "terminated", "terminated", now=T0 + timedelta(minutes=5))
    # a listing taken just before the terminate arrives after it: it must not revive the row
    again = ledger.observe(Inst(), now=T0 + timedelta(minutes=6))
    assert again.state == "terminated"
    assert again.cost_so_far == pytest.approx(5 / 60)  # billing stopped at the terminate
    # a row marked gone only because a listing missed it is alive again when the cloud lists it
    ledger.observe(replace(Inst(), id="i-2"), price_per_hour=1.0, now=T0)
    res = ledger.reconcile([Acc()], lambda a: [Inst()], now=T0 + timedelta(minutes=10))
    assert {e.id: e.state for e in res.entries}["i-2"] == "terminated"
    back = ledger.observe(replace(Inst(), id="i-2"), now=T0 + timedelta(minutes=11))
    assert back.state == "running"


def test_reconcile_fills_missing_price(ledger):
    res = ledger.reconcile(
        [Acc()], lambda a: [Inst()], price_fn=lambda i: (0.5, "USD", "catalog"), now=T0 + timedelta(hours=1)
    )
    [e] = res.entries
    assert e.price_per_hour == 0.5
    assert e.price_source == "catalog"
    assert e.cost_so_far == pytest.approx(0.5)


def test_just_launched_instance_not_marked_gone(ledger):
    ledger.observe(Inst(), now=T0)
    res = ledger.reconcile([Acc()], lambda a: [], now=T0 + timedelta(seconds=30))
    assert res.entries[0].state == "running"
    assert res.gone == []


def test_pending_launch_lifecycle(labgpu_home):
    store = Store(paths=default_paths())
    p = PendingLaunches(store)
    p.begin(
        client_token="lg-1",
        account="lab",
        provider="aws",
        region="us-east-1",
        zone="",
        instance_type="g5.xlarge",
        spot=True,
        max_price=0.8,
    )
    assert [x.client_token for x in p.open()] == ["lg-1"]
    p.finish("lg-1", "i-9")
    assert p.open() == []
    assert p.get("lg-1").instance_id == "i-9"
    p.begin(
        client_token="lg-1",
        account="lab",
        provider="aws",
        region="us-east-1",
        zone="",
        instance_type="g5.xlarge",
        spot=True,
        max_price=0.8,
    )
    assert p.get("lg-1").status == "done"  # a retry of a finished launch stays finished
    store.close()
