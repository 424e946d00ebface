"""The Watcher applies guards to a real (local) Tencent CVM peer with a fake clock.

Samples are fed as the monitor would deliver them; the stop goes through CloudService to the
peer, which must see StopInstances; a failing stop is retried and never reported as done.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.cloud.launch_plan import LaunchOptions
from app.core.gpumon import GpuReading, HostSample
from app.core.guards import GuardConfig, GuardStore
from app.core.hosts import HostRecord, HostStore
from app.watch import Watcher
from app.watch.lock import WatchLock
from tests.fixtures.tencent_cvm_server import TYPES

GN7 = "GN7.2XLARGE32"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def svc(tencent_service):
    return tencent_service


def _launch(svc) -> tuple[str, datetime]:
    res = svc.launch(LaunchOptions(account="lab", instance_type=GN7, ssh_from="198.51.100.7/32"))
    assert res.entry.state == "running"
    return res.entry.id, res.entry.started_at or datetime.now(timezone.utc)


def _idle(host: str, t: datetime) -> HostSample:
    g = GpuReading("GPU-a", 0, "A10", 0.0, 3.0, 24000.0, 35.0, 30.0, 150.0)
    return HostSample(host, t, None, (g,))


def _feed_idle(w: Watcher, host: str, start: datetime, seconds: int) -> datetime:
    t = start
    for i in range(seconds + 1):
        t = start + timedelta(seconds=i)
        w.on_sample(_idle(host, t))
    return t


def test_idle_guard_pulls_then_stops_at_the_cloud(svc, tencent_server):
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(idle_below_pct=30, idle_minutes=1, on_idle="stop"))
    order: list[str] = []

    def sync(host: str, purpose: str) -> None:
        order.append(f"sync:{host}:{purpose}:{len(tencent_server.requests_of('StopInstances'))}")

    events = []
    w = Watcher(store=svc.store, notify=events.append, sync_fn=sync, sleep=lambda _s: None)
    t0 = started + timedelta(minutes=5)
    end = _feed_idle(w, iid, t0, 59)
    assert w.tick(end.timestamp()) == []  # 59 s covered: not yet
    end = _feed_idle(w, iid, end + timedelta(seconds=1), 1)
    got = w.tick(end.timestamp())
    assert [e.kind for e in got] == ["idle-notify", "idle-stop", "stopped"]
    assert order == [f"sync:{iid}:before-stop:0"]  # checkpoints pulled before the stop call
    assert len(tencent_server.requests_of("StopInstances")) == 1
    assert tencent_server.billing_state(iid)[0] in ("STOPPING", "STOPPED")
    assert [e.kind for e in events] == ["idle-notify", "idle-stop", "stopped"]
    actions = [a.action for a in svc.audit.list()]
    assert "guard-idle-stop" in actions and "guard-stop" in actions
    assert w.tick((end + timedelta(seconds=1)).timestamp()) == []  # nothing is stopped twice
    # started again later: the guard watches the new run from scratch
    import time as _time

    deadline = _time.monotonic() + 30
    while tencent_server.billing_state(iid)[0] != "STOPPED" and _time.monotonic() < deadline:
        _time.sleep(0.05)
    svc.start(iid)
    entry = svc.ledger.get(iid)
    assert entry is not None and entry.state == "running"
    t1 = entry.started_at + timedelta(seconds=1)
    end = _feed_idle(w, iid, t1, 61)
    assert [e.kind for e in w.tick(end.timestamp())] == ["idle-notify", "idle-stop", "stopped"]
    assert len(tencent_server.requests_of("StopInstances")) == 2


def test_failed_stop_is_retried_and_never_reported_as_done(svc, tencent_server):
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(idle_minutes=1, on_idle="stop", sync_before_stop=False))
    tencent_server.fail_next("StopInstances", "InternalError", "backend busy", times=3)
    sleeps: list[float] = []
    w = Watcher(store=svc.store, stop_retries=3, retry_delay_s=7, sleep=sleeps.append)
    end = _feed_idle(w, iid, started + timedelta(minutes=1), 61)
    got = w.tick(end.timestamp())
    kinds = [e.kind for e in got]
    assert "stopped" not in kinds and kinds[-1] == "stop-failed"
    assert "still billing" in got[-1].message and "InternalError" in got[-1].message
    assert sleeps == [7, 7]
    assert tencent_server.billing_state(iid)[0] == "RUNNING"
    failed = [a for a in svc.audit.list() if a.action == "guard-stop"]
    assert len(failed) == 3 and all("failed" in a.result for a in failed)
    # the next round comes after the back-off (15 s), not on the next tick; the cloud answers now
    assert w.tick((end + timedelta(seconds=1)).timestamp()) == []
    end = _feed_idle(w, iid, end + timedelta(seconds=1), 15)
    again = w.tick(end.timestamp())
    assert again[-1].kind == "stopped"
    assert tencent_server.billing_state(iid)[0] in ("STOPPING", "STOPPED")


def test_budget_warns_at_80_and_stops_at_100_percent(svc, tencent_server):
    iid, started = _launch(svc)
    price = TYPES[GN7][4]  # CNY per hour, as launched
    GuardStore(svc.store).set(iid, GuardConfig(budget=price * 2, currency="CNY", sync_before_stop=False))
    w = Watcher(store=svc.store, sleep=lambda _s: None)
    assert w.tick((started + timedelta(hours=1.5)).timestamp()) == []  # 75 %
    got = w.tick((started + timedelta(hours=1.7)).timestamp())
    assert [e.kind for e in got] == ["budget-warn"] and "85 %" in got[0].message
    assert w.tick((started + timedelta(hours=1.8)).timestamp()) == []  # warned once
    got = w.tick((started + timedelta(hours=2.01)).timestamp())
    assert [e.kind for e in got] == ["budget-stop", "stopped"]
    assert tencent_server.billing_state(iid)[0] in ("STOPPING", "STOPPED")


def test_budget_in_another_currency_and_max_runtime(svc, tencent_server):
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(max_hours=3, budget=1000, currency="USD", sync_before_stop=False))
    w = Watcher(store=svc.store, sleep=lambda _s: None)
    assert w.tick((started + timedelta(hours=2.9)).timestamp()) == []
    got = w.tick((started + timedelta(hours=3, seconds=1)).timestamp())
    assert [e.kind for e in got] == ["max-runtime", "stopped"]
    [cost] = w.running_costs((started + timedelta(hours=3, seconds=2)).timestamp())
    assert cost.id == iid and cost.currency == "CNY" and not cost.running and cost.per_hour == 0.0
    assert cost.so_far is not None and cost.so_far_usd is not None and cost.so_far_usd < cost.so_far


def test_host_without_api_notifies_only(labgpu_home):
    HostStore().add(HostRecord(name="labbox", hostname="192.0.2.10", user="me"))
    w = Watcher(sleep=lambda _s: None)
    GuardStore(w.store).set("labbox", GuardConfig(idle_minutes=1, on_idle="stop"))
    t0 = datetime(2026, 12, 2, 1, 0, tzinfo=timezone.utc)
    end = _feed_idle(w, "labbox", t0, 61)
    got = w.tick(end.timestamp())
    assert [e.kind for e in got] == ["idle-notify"]
    assert "only notifies" in got[0].message


def test_mig_host_is_never_idle(svc, tencent_server):
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(idle_minutes=1, on_idle="stop"))
    w = Watcher(store=svc.store, sleep=lambda _s: None)
    for i in range(300):
        g = GpuReading("GPU-m", 0, "A800", None, 25.0, 81920.0, 33.0, 87.0, 400.0, "mig: utilization not reported")
        w.on_sample(HostSample(iid, started + timedelta(seconds=i), None, (g,)))
    assert w.tick((started + timedelta(seconds=299)).timestamp()) == []
    assert tencent_server.requests_of("StopInstances") == []


def test_exactly_one_watcher_and_a_stale_lock_is_taken_over(labgpu_home, tmp_path):
    a, b = Watcher(), Watcher()
    try:
        assert a.acquire()
        assert not b.acquire()
        assert b.lock.holder() == os.getpid()
        a.close()
        assert b.acquire()
    finally:
        a.close()
        b.close()
    # a watcher that died (kill -9) leaves its pid behind: the next one takes over
    lock_path = tmp_path / "watch.lock"
    code = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(ROOT)!r})
        from app.watch.lock import WatchLock
        assert WatchLock({str(lock_path)!r}).acquire()
        print(os.getpid(), flush=True)
        os._exit(0)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    dead_pid = int(out.stdout.strip())
    assert lock_path.read_text() == f"{dead_pid} watch"
    lock = WatchLock(lock_path)
    assert lock.holder() is None
    assert lock.acquire() and lock_path.read_text() == f"{os.getpid()} watch"
    lock.release()


def test_spot_notice_pulls_at_once_and_relaunches_the_same_offer(svc, tencent_server, monkeypatch):
    from app.remote.spotwatch import SpotNotice

    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", tencent_server.endpoint + "/_ip")
    svc.refresh_prices("lab", [GN7])  # the default spot maximum comes from the live on-demand price
    res = svc.launch(LaunchOptions(account="lab", instance_type=GN7, zone="ap-guangzhou-4", spot=True,
                                   ssh_from="198.51.100.7/32"))
    iid = res.entry.id
    pulled: list[str] = []
    events = []
    w = Watcher(store=svc.store, notify=events.append, sync_fn=lambda h, p: pulled.append(f"{h}:{p}"))
    notice = SpotNotice("tencent", "terminate", datetime(2026, 12, 2, 12, 5, 33, tzinfo=timezone.utc),
                        "2026-12-02 20:05:33")
    ev = w.spot_notice(iid, notice, wait=True)
    assert ev.kind == "spot-notice" and "2026-12-02 12:05:33 UTC" in ev.message
    assert pulled == [f"{iid}:on-interruption"]
    assert [e.kind for e in events] == ["spot-notice", "sync-done"]
    relaunch = ev.detail["relaunch"]
    assert relaunch["instance_type"] == GN7 and relaunch["zone"] == "ap-guangzhou-4" and relaunch["spot"]
    again = w.relaunch(iid)
    assert again.entry.id != iid and again.entry.spot and again.entry.zone == "ap-guangzhou-4"
    run = tencent_server.requests_of("RunInstances")[-1]
    assert run["InstanceChargeType"] == "SPOTPAID" and run["InstanceType"] == GN7
    assert "guard-spot-notice" in [a.action for a in svc.audit.list()]
    w.close()


def test_stop_when_the_chosen_process_exits_but_not_on_unknown(svc, tencent_server):
    from app.core.gpumon import GpuProcess

    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(stop_on_process_exit="4242", sync_before_stop=False))
    w = Watcher(store=svc.store, sleep=lambda _s: None)
    g = GpuReading("GPU-a", 0, "A10", 95.0, 20000.0, 24000.0, 70.0, 140.0, 150.0)
    t = started + timedelta(seconds=5)
    w.on_sample(HostSample(iid, t, None, (g,), (GpuProcess("GPU-a", 4242, "python train.py", 19000.0),)))
    assert w.tick(t.timestamp()) == []
    w.on_sample(HostSample(iid, t + timedelta(seconds=1), "driver error"))  # unknown: not "exited"
    assert w.tick((t + timedelta(seconds=1)).timestamp()) == []
    w.on_sample(HostSample(iid, t + timedelta(seconds=2), None, (g,), ()))
    got = w.tick((t + timedelta(seconds=2)).timestamp())
    assert [e.kind for e in got] == ["process-exit", "stopped"]
    assert "4242" in got[0].message
    assert tencent_server.billing_state(iid)[0] in ("STOPPING", "STOPPED")


def test_running_spot_price_is_re_read_for_the_projection(svc, tencent_server, monkeypatch):
    import tests.fixtures.tencent_cvm_server as peer

    svc.refresh_prices("lab", [GN7])
    res = svc.launch(LaunchOptions(account="lab", instance_type=GN7, zone="ap-guangzhou-4", spot=True,
                                   ssh_from="198.51.100.7/32"))
    w = Watcher(store=svc.store)
    fam, cpu, mem, gpus, od, _spot = peer.TYPES[GN7]
    monkeypatch.setitem(peer.TYPES, GN7, (fam, cpu, mem, gpus, od, 2.22))  # the market moved
    assert w.refresh_spot_prices(force=True) == [res.entry.id]
    assert w.refresh_spot_prices() == []  # not again within 30 min
    [cost] = w.running_costs()
    assert cost.per_hour == pytest.approx(2.22)
    assert any("re-read" in n for n in cost.notes)
    assert cost.so_far is not None and cost.so_far < 2.22  # the cost so far keeps the ledger's price


def test_stop_without_a_pull_pair_says_nothing_was_pulled(svc, tencent_server):
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(idle_minutes=1, on_idle="stop"))
    w = Watcher(store=svc.store, sleep=lambda _s: None)  # the real sync engine: no pairs for this host
    end = _feed_idle(w, iid, started + timedelta(minutes=1), 61)
    got = w.tick(end.timestamp())
    assert [e.kind for e in got] == ["idle-notify", "idle-stop", "sync-none", "stopped"]
    assert "--pull" in got[2].message
