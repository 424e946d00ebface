"""Guard rules with a fake clock: idle (missing data counts as busy), budget, runtime, hints."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.errors import InputError
from app.core.gpumon import GpuProcess, GpuReading, HostSample
from app.core.guards import (
    GuardConfig,
    GuardStore,
    IdleRule,
    budget_level,
    process_present,
    runtime_exceeded,
    sample_is_idle,
    tuning_hints,
)
from app.core.store import Store

T0 = datetime(2026, 12, 2, 0, 0, tzinfo=timezone.utc)


def g(util: float | None, mem: float = 1000.0, uuid: str = "GPU-a", status: str = "ok") -> GpuReading:
    return GpuReading(uuid=uuid, index=0, name="A100", utilization_gpu=util, memory_used_mib=mem,
                      memory_total_mib=80000.0, temperature_c=40.0, power_w=60.0, power_limit_w=400.0, status=status)


def s(sec: float, *gpus: GpuReading, error: str | None = None, procs=()) -> HostSample:
    return HostSample("h", T0 + timedelta(seconds=sec), error, tuple(gpus), tuple(procs))


def feed(rule: IdleRule, seconds, make) -> None:
    for sec in seconds:
        rule.feed(make(sec))


def test_idle_only_after_the_whole_window_of_low_samples():
    rule = IdleRule(below_pct=30, window_s=600, max_gap_s=5)
    feed(rule, range(0, 600), lambda t: s(t, g(5), g(29.9, uuid="GPU-b")))
    assert not rule.is_idle(T0.timestamp() + 599)  # 599 s covered: not yet
    rule.feed(s(600, g(5), g(1, uuid="GPU-b")))
    assert rule.is_idle(T0.timestamp() + 600)


def test_one_busy_gpu_or_one_busy_sample_restarts_the_window():
    rule = IdleRule(below_pct=30, window_s=60)
    feed(rule, range(0, 50), lambda t: s(t, g(0), g(0, uuid="GPU-b")))
    rule.feed(s(50, g(0), g(30, uuid="GPU-b")))  # exactly the threshold is not "below"
    feed(rule, range(51, 110), lambda t: s(t, g(0), g(0, uuid="GPU-b")))
    assert not rule.is_idle(T0.timestamp() + 109)
    feed(rule, range(110, 112), lambda t: s(t, g(0), g(0, uuid="GPU-b")))
    assert rule.is_idle(T0.timestamp() + 111)


@pytest.mark.parametrize("bad", [
    lambda t: s(t, g(None)),  # MIG: utilization N/A
    lambda t: s(t, error="NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver"),
    lambda t: s(t),  # no GPU at all
    lambda t: s(t, g(0), g(0, uuid="bus:0000:17:00.0", status="lost: Unknown Error")),
])
def test_missing_data_counts_as_busy(bad):
    rule = IdleRule(below_pct=30, window_s=60)
    feed(rule, range(0, 100), lambda t: bad(t) if t % 10 == 0 else s(t, g(0)))
    assert not rule.is_idle(T0.timestamp() + 99)
    feed(rule, range(0, 100), bad)
    assert not rule.is_idle(T0.timestamp() + 99)


def test_a_dropped_connection_gap_restarts_and_silence_is_not_idle():
    rule = IdleRule(below_pct=30, window_s=60, max_gap_s=5)
    feed(rule, range(0, 40), lambda t: s(t, g(0)))
    feed(rule, range(50, 90), lambda t: s(t, g(0)))  # 10 s without samples in between
    assert not rule.is_idle(T0.timestamp() + 89)
    feed(rule, range(90, 111), lambda t: s(t, g(0)))
    assert rule.is_idle(T0.timestamp() + 110)
    assert not rule.is_idle(T0.timestamp() + 200)  # nothing heard for 90 s: not idle on stale data


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 8), st.one_of(st.none(), st.floats(0, 100))), min_size=1, max_size=80))
def test_idle_implies_every_sample_in_the_window_was_known_and_low(steps):
    rule = IdleRule(below_pct=30, window_s=20, max_gap_s=5)
    t = 0.0
    seen: list[tuple[float, float | None]] = []
    for dt, util in steps:
        t += dt
        rule.feed(s(t, g(util)))
        seen.append((t, util))
        if rule.is_idle(T0.timestamp() + t):
            window = [(ts, u) for ts, u in seen if ts >= t - 20]
            assert all(u is not None and u < 30 for _, u in window)
            times = [ts for ts, _ in seen]
            since = [ts for ts in times if ts >= t - 20]
            assert all(b - a <= 5 for a, b in zip(since, since[1:], strict=False))


def test_budget_runtime_and_process_rules():
    assert budget_level(79.9, 100) is None
    assert budget_level(80, 100) == "warn"
    assert budget_level(100, 100) == "stop"
    assert budget_level(None, 100) is None and budget_level(50, None) is None
    assert runtime_exceeded(3600 * 2, 2) and not runtime_exceeded(3599, 1) and not runtime_exceeded(1e9, None)
    smp = s(0, g(90), procs=[GpuProcess("GPU-a", 4242, "python train.py", 1000.0)])
    assert process_present(smp, "4242") is True
    assert process_present(smp, "train.py") is True
    assert process_present(smp, "4243") is False
    assert process_present(s(0, error="driver"), "4242") is None  # unknown, not "exited"


def test_guard_config_validation_and_store(tmp_path):
    store = Store(tmp_path / "db.sqlite3")
    gs = GuardStore(store)
    gs.set("ins-1", GuardConfig(idle_below_pct=20, idle_minutes=15, on_idle="stop", budget=50, currency="USD"))
    got = gs.get("ins-1")
    assert got is not None and got.on_idle == "stop" and got.budget == 50 and got.currency == "USD"
    for bad in (GuardConfig(idle_below_pct=0), GuardConfig(idle_minutes=0), GuardConfig(on_idle="kill"),
                GuardConfig(budget=-1), GuardConfig(currency="EUR"), GuardConfig(max_hours=float("nan"))):
        with pytest.raises(InputError):
            gs.set("x", bad)
    store.execute("INSERT INTO guard_configs VALUES('broken', '{not json', '')")
    assert gs.get("broken") is None and set(gs.all()) == {"ins-1"}  # damaged row ignored, no traceback
    assert gs.remove("ins-1") and gs.get("ins-1") is None


def test_sample_is_idle_edges():
    assert sample_is_idle(s(0, g(29.99)), 30)
    assert not sample_is_idle(s(0, g(30)), 30)


def test_tuning_hints_low_utilization_and_memory_full():
    low = [s(t, g(45)) for t in range(0, 700, 5)]
    ids = [h.id for h in tuning_hints(low)]
    assert ids == ["low-utilization"]
    assert tuning_hints([s(t, g(45)) for t in range(0, 300, 5)]) == []  # too short a stretch
    assert tuning_hints([s(t, g(0)) for t in range(0, 700, 5)]) == []  # idle is the idle guard's business
    assert tuning_hints([s(t, g(None)) for t in range(0, 700, 5)]) == []  # unknown is not "low"
    full = [s(t, g(95, mem=78000)) for t in range(0, 60, 5)]
    hints = tuning_hints(full)
    assert [h.id for h in hints] == ["memory-full"] and hints[0].params["pct"] == 98
    assert "mixed precision" in hints[0].text.lower()


def test_settings_guard_defaults_are_validated(labgpu_home):
    import json

    from app.core.paths import default_paths
    from app.core.settings import Settings, SettingsStore

    s = Settings()
    assert (s.guard_idle_below_pct, s.guard_idle_minutes, s.guard_on_idle) == (30.0, 10.0, "notify")
    assert s.keep_tray_when_closed is True and s.start_at_login is False and s.monitor_interval_s == 1.0
    store = SettingsStore(default_paths())
    store.file.write_text(json.dumps({"schema_version": 1, "guard_idle_below_pct": 0, "guard_idle_minutes": "x",
                                      "guard_on_idle": "explode", "monitor_interval_s": 0.01}))
    loaded = store.load()
    assert (loaded.guard_idle_below_pct, loaded.guard_idle_minutes, loaded.guard_on_idle) == (30.0, 10.0, "notify")
    assert loaded.monitor_interval_s == 1.0
    loaded.guard_idle_below_pct = 20
    store.save(loaded)
    assert store.load().guard_idle_below_pct == 20
