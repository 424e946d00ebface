"""Running time and cost on the cloud's clock: the ledger counts from the clouds' answer
times (HTTP Date) run forward on a monotonic clock, never from a laptop wall clock that is off or steps.

Fake wall and monotonic clocks; the instance is a plain record as a provider returns it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pytest

from app.core import ledgerdb
from app.core.instances import Ledger
from app.core.paths import default_paths
from app.core.store import Store

REAL0 = datetime(2026, 3, 1, 12, 0, 0, tzinfo=timezone.utc)  # the true time (the cloud's) at the start
PRICE = 3.6  # per hour: 0.001 per second of billing
SECOND = PRICE / 3600 * 1.0001  # one second of billing (and float rounding)


@dataclass(frozen=True)
class Inst:
    id: str = "ins-1"
    account: str = "lab"
    provider: str = "tencent"  # billed per second, no minimum
    region: str = "ap-guangzhou"
    zone: str = "ap-guangzhou-3"
    instance_type: str = "GN7.2XLARGE32"
    state: str = "running"
    spot: bool = False
    public_ip: str = "203.0.113.5"
    private_ip: str = "10.0.0.5"
    price_per_hour: float | None = PRICE
    currency: str = "CNY"
    launched_at: datetime | None = REAL0
    name: str = ""
    image_id: str = "img-1"
    key_name: str = ""
    raw_state: str = "RUNNING"
    tags: dict = field(default_factory=dict)


class World:
    """The true time advances; the laptop's wall clock is `skew` off it (and may step); the monotonic
    clock only advances."""

    def __init__(self, skew: float) -> None:
        self.elapsed = 0.0
        self.skew = skew
        self.mono0 = 1000.0

    def real(self) -> float:
        return REAL0.timestamp() + self.elapsed

    def wall(self) -> float:
        return self.real() + self.skew

    def mono(self) -> float:
        return self.mono0 + self.elapsed

    def date_header(self) -> str:
        return format_datetime(datetime.fromtimestamp(int(self.real()), timezone.utc), usegmt=True)

    def wall_dt(self) -> datetime:
        return datetime.fromtimestamp(self.wall(), timezone.utc)


@pytest.fixture
def store(labgpu_home):
    s = Store(paths=default_paths())
    yield s
    s.close()


def _ledger(store, world: World) -> tuple[Ledger, ledgerdb.CloudClock]:
    clock = ledgerdb.CloudClock(wall=world.wall, mono=world.mono)
    return Ledger(store, clock=clock), clock


@pytest.mark.parametrize("skew", [240.0, -240.0, 0.0])
def test_cost_is_the_clouds_with_a_laptop_clock_four_minutes_off(store, skew):
    """Today: 4 min ahead, 50 s of running cost 290 s; behind, 0.0. Now: 50 s, within a second."""
    world = World(skew)
    ledger, clock = _ledger(store, world)
    clock.note_date("tencent", world.date_header())  # the launch's answer
    ledger.observe(Inst())  # the cloud says it started at REAL0 (CreatedTime)
    world.elapsed = 50.0
    clock.note_date("tencent", world.date_header())  # a reconcile's answer
    e = ledger.observe(Inst())
    assert e.uptime_s == pytest.approx(50.0, abs=1.0)
    assert e.cost_so_far == pytest.approx(50 * SECOND, abs=SECOND)  # no more than a second of billing off
    # the laptop's own "now" (what the watcher passes) gives the same cost
    at = ledger.get("ins-1", now=world.wall_dt())
    assert at is not None and at.cost_so_far == pytest.approx(50 * SECOND, abs=SECOND)
    # and the start is shown on the laptop's clock, so it compares with the app's other times
    assert at.started_at is not None
    assert abs((at.started_at - (REAL0 + timedelta(seconds=skew))).total_seconds()) <= 1.0


def test_between_answers_time_runs_on_the_monotonic_clock_not_the_wall(store):
    """The wall clock steps back an hour after the last answer: the running time does not shrink."""
    world = World(0.0)
    ledger, clock = _ledger(store, world)
    clock.note_date("tencent", world.date_header())
    ledger.observe(Inst())
    world.elapsed = 120.0
    world.skew = -3600.0  # stepped back one hour (NTP, a user, a dual boot)
    e = ledger.get("ins-1")
    assert e is not None
    assert e.uptime_s == pytest.approx(120.0, abs=1.0)
    assert e.cost_so_far == pytest.approx(120 * SECOND, abs=SECOND)


def test_a_start_the_cloud_does_not_date_begins_at_the_answer_that_showed_it(store):
    """Started again from the console (Tencent: LatestOperation StartInstances, no start time): the run
    begins at the cloud's time of the answer that first showed it running, not at the laptop's."""
    world = World(240.0)
    ledger, clock = _ledger(store, world)
    clock.note_date("tencent", world.date_header())
    ledger.observe(Inst())
    world.elapsed = 60.0
    clock.note_date("tencent", world.date_header())
    ledger.observe(replace(Inst(), state="stopped", raw_state="STOPPED"))  # 60 s billed
    world.elapsed = 600.0
    clock.note_date("tencent", world.date_header())
    e = ledger.observe(replace(Inst(), launched_at=None))  # running again, seen now
    world.elapsed = 630.0
    e = ledger.get("ins-1")
    assert e is not None and e.uptime_s == pytest.approx(30.0, abs=1.0)
    assert e.cost_so_far == pytest.approx(90 * SECOND, abs=SECOND)


def test_a_stop_ends_the_run_at_the_clouds_time(store):
    world = World(-240.0)
    ledger, clock = _ledger(store, world)
    clock.note_date("tencent", world.date_header())
    ledger.observe(Inst())
    world.elapsed = 300.0
    e = ledger.mark_state("tencent", "ins-1", "stopped")  # LabGPU's own stop, no answer since
    assert e is not None and e.cost_so_far == pytest.approx(300 * SECOND, abs=SECOND)
    world.elapsed = 900.0
    e = ledger.get("ins-1")
    assert e is not None and e.cost_so_far == pytest.approx(300 * SECOND, abs=SECOND)


def test_the_month_report_counts_on_the_clouds_clock(store, monkeypatch):
    world = World(240.0)
    clock = ledgerdb.CloudClock(wall=world.wall, mono=world.mono)
    monkeypatch.setattr(ledgerdb, "CLOCK", clock)
    import app.core.monthreport as monthreport

    monkeypatch.setattr(monthreport, "CLOCK", clock)
    ledger = Ledger(store, clock=clock)
    clock.note_date("tencent", world.date_header())
    ledger.observe(Inst())
    world.elapsed = 50.0
    lines = monthreport.month_report(store, "2026-03")
    assert len(lines) == 1 and lines[0].cost == pytest.approx(50 * SECOND, abs=SECOND)


def test_skew_is_measured_named_and_kept_for_other_processes(store):
    world = World(240.0)  # the laptop is 4 minutes ahead
    ledger, clock = _ledger(store, world)
    clock.note_date("aws", world.date_header())
    skew = clock.skew()
    assert skew is not None and skew.ahead and skew.offset_s == pytest.approx(-240.0, abs=1.0)
    text, hint = ledgerdb.skew_text(skew)
    assert "4.0 minutes ahead" in text and "AWS" in text
    assert "automatic date and time" in hint
    ledger.reconcile([], lambda a: [])  # keeps the offsets it knows
    other = ledgerdb.CloudClock(wall=world.wall, mono=world.mono)  # another process, no answer yet
    other.load(store)
    kept = other.skew()
    assert kept is not None and kept.offset_s == pytest.approx(-240.0, abs=1.0)
    assert other.offset("aws") == pytest.approx(-240.0, abs=1.0)
    assert ledgerdb.read_stored_skew(store.path) is not None


def test_a_small_or_unreadable_date_changes_nothing(store):
    world = World(0.5)
    ledger, clock = _ledger(store, world)
    for bad in ("", "yesterday", None, 12, "Sun, 99 Foo 2026 99:99:99 GMT", "x" * 500):
        clock.note_date("aws", bad)
    assert clock.skew() is None and clock.offset("aws") == 0.0
    clock.note_date("aws", world.date_header())
    assert clock.offset("aws") == 0.0  # under what a Date header can tell apart from exact
