"""Guards under failure: a stop that keeps failing is one episode, a frozen
account delays no other account's guard, a budget guard never goes silently off, the student's own
exchange rate, the idle window across a watcher restart, and a blind host said.

Real peers: the local Tencent CVM server (TC3-checked; its clock knob makes it refuse signatures as
Tencent does for a computer whose clock is off: AuthFailure.SignatureExpire,
tencentcloud/cvm/v20170312/errorcodes.py / https://cloud.tencent.com/document/api/213/15694) and
moto behind the strict EC2 proxy. Time runs on fake clocks (``tick(now)``) except where the test is
about threads, and there it waits on events.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta, timezone

import pytest

from app.cloud.launch_plan import LaunchOptions
from app.core.accounts import Account, Credentials
from app.core.gpumon import GpuReading, HostSample
from app.core.guards import GuardConfig, GuardStore
from app.watch import Watcher
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

GN7 = "GN7.2XLARGE32"


@pytest.fixture
def svc(tencent_service):
    return tencent_service


def _launch(svc, account: str = "lab", itype: str = GN7) -> tuple[str, datetime]:
    res = svc.launch(LaunchOptions(account=account, instance_type=itype, ssh_from="198.51.100.7/32"))
    assert res.entry.state == "running"
    return res.entry.id, res.entry.started_at or datetime.now(timezone.utc)


def _idle(host: str, t: datetime) -> HostSample:
    g = GpuReading("GPU-a", 0, "A10", 0.0, 3.0, 24000.0, 35.0, 30.0, 150.0)
    return HostSample(host, t, None, (g,))


def test_a_stop_refused_for_70_s_pulls_once_and_notifies_once(svc, tencent_server):
    """The laptop's clock is 10 minutes off: Tencent refuses every call (SignatureExpire). Over 70 s of
    ticks the checkpoints are pulled once, the student is told once (the cause: the clock, and what
    to do), the rounds back off (15 s, 30 s, …); once the clock is right the next round stops it."""
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(idle_minutes=1, on_idle="stop"))
    pulls: list[str] = []
    events = []
    w = Watcher(store=svc.store, notify=events.append, sync_fn=lambda h, p: pulls.append(p) or 1,
                sleep=lambda _s: None, stop_retries=3)
    tencent_server.clock_offset = 600.0  # the server's "now" is 10 minutes from the laptop's
    t0 = started + timedelta(minutes=2)
    for i in range(61):
        w.on_sample(_idle(iid, t0 + timedelta(seconds=i)))
    fire = t0 + timedelta(seconds=60)
    for s in range(71):  # one tick a second for 70 s, idle samples all the way
        t = fire + timedelta(seconds=s)
        w.on_sample(_idle(iid, t))
        w.tick(t.timestamp())
    kinds = [e.kind for e in events]
    assert pulls == ["before-stop"], pulls  # one pull for the whole episode (was: one per round)
    assert kinds.count("idle-stop") == 1 and kinds.count("stop-failed") == 1, kinds
    [failed] = [e for e in events if e.kind == "stop-failed"]
    assert failed.detail["cause"] == "clock" and "clock is off" in failed.message
    assert "automatic time" in failed.message and "keeps trying" in failed.message
    assert "stopped" not in kinds
    # rounds at +0, +15 and +45 s (back-off 15, 30), 3 tries each; never a round per tick (the peer
    # refuses the signature before it records an action, so the tries are counted in the audit log)
    tries = [a for a in svc.audit.list() if a.action == "guard-stop" and a.result.startswith("failed try")]
    assert len(tries) == 9, len(tries)
    print(f"refused for 70 s: {len(pulls)} pull, {kinds.count('stop-failed')} notification, "
          f"{len(tries)} stop calls in {w.stop_pending()[iid]['rounds']} rounds")
    rounds = [a.result for a in svc.audit.list() if a.action == "guard-stop" and "still not stopped" in a.result]
    assert [r.split(")")[0] for r in reversed(rounds)] == [  # the audit list is newest first
        "still not stopped (round 2, clock; next try in 30 s", "still not stopped (round 3, clock; next try in 60 s"]
    assert w.stop_pending()[iid]["rounds"] == 3
    # the student fixes the clock: the next round (due at +105 s) stops it, said once
    tencent_server.clock_offset = 0.0
    t = fire + timedelta(seconds=105)
    w.on_sample(_idle(iid, t))
    w.tick(t.timestamp())
    assert [e.kind for e in events].count("stopped") == 1
    assert tencent_server.billing_state(iid)[0] in ("STOPPING", "STOPPED")
    assert pulls == ["before-stop"] and w.stop_pending() == {}


def test_a_stop_the_student_did_by_hand_ends_the_episode(svc, tencent_server):
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(max_hours=1, sync_before_stop=False))
    events = []
    w = Watcher(store=svc.store, notify=events.append, sleep=lambda _s: None, stop_retries=1)
    tencent_server.fail_next("StopInstances", "InternalError", "backend busy", times=1)
    t = started + timedelta(hours=1, seconds=1)
    w.tick(t.timestamp())
    assert [e.kind for e in events] == ["max-runtime", "stop-failed"]
    assert events[-1].detail["cause"] == "refused"
    svc.stop(iid)  # the student stops it in LabGPU (or the console; the ledger follows)
    [ended] = w.tick((t + timedelta(seconds=20)).timestamp())
    assert ended.kind == "stopped" and "its guard stops trying" in ended.message  # the tray's "still billing" ends
    assert w.stop_pending() == {}
    assert w.tick((t + timedelta(seconds=60)).timestamp()) == []
    assert len(tencent_server.requests_of("StopInstances")) == 2  # the failed one and the student's


def test_a_frozen_tencent_account_does_not_delay_an_aws_max_runtime_stop(svc, tencent_server, moto):
    """A Tencent StopInstances whose answer never comes (the peer holds it) while an AWS (moto)
    instance's max-runtime guard comes due 3 s later: the AWS stop happens while Tencent is still
    frozen, no later than one loop period after it is due plus the AWS calls themselves."""
    svc.accounts.add(Account("aws1", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    aws_id, _ = _launch(svc, "aws1", "g5.xlarge")
    tc_id, _ = _launch(svc)
    now = datetime.now(timezone.utc)
    aws_up = svc.ledger.get(aws_id, now=now).uptime_s
    tc_up = svc.ledger.get(tc_id, now=now).uptime_s
    guards = GuardStore(svc.store)
    guards.set(tc_id, GuardConfig(max_hours=(tc_up + 0.5) / 3600, sync_before_stop=False))
    aws_due = time.time() + 3.0
    guards.set(aws_id, GuardConfig(max_hours=(aws_up + 3.0) / 3600, sync_before_stop=False))
    hold = tencent_server.hold_next_answer("StopInstances")
    aws_stopped = threading.Event()
    stopped_at: list[float] = []

    tc_tries_then: list[list[str]] = []

    def notify(ev):
        if ev.target_id == aws_id and ev.kind == "stopped":
            stopped_at.append(time.time())
            # what the Tencent guard had done by then: a failed (timed-out) try means AWS waited for it
            tc_tries_then.append([a.result for a in svc.audit.list()
                                  if a.resource == tc_id and a.action == "guard-stop"])
            aws_stopped.set()

    w = Watcher(store=svc.store, notify=notify, sleep=lambda _s: None)
    until = threading.Event()
    loop = threading.Thread(target=w.run, kwargs={"period_s": 0.2, "until": until}, name="test-watch-loop")
    loop.start()
    try:
        assert hold.reached.wait(60), "the Tencent guard never fired"
        assert aws_stopped.wait(60), "the AWS guard did not act while the Tencent account was frozen"
        delay = stopped_at[0] - aws_due
        print(f"AWS max-runtime stop {delay:+.2f} s after it was due, the Tencent stop frozen; Tencent's "
              f"guard-stop rows by then: {tc_tries_then[0]}")
        assert not hold.released.is_set()  # Tencent is still frozen…
        assert tc_tries_then == [[]]  # …and its call had not even timed out: AWS did not wait for it
    finally:
        hold.release()
        until.set()
        loop.join(60)
        w.close()
    ec2 = moto.ec2()
    [inst] = [i for r in ec2.describe_instances(InstanceIds=[aws_id])["Reservations"] for i in r["Instances"]]
    assert inst["State"]["Name"] in ("stopping", "stopped")


def test_a_cloud_call_past_its_deadline_is_a_network_failure(svc, tencent_server):
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(max_hours=1, sync_before_stop=False))
    hold = tencent_server.hold_next_answer("StopInstances")
    look = tencent_server.hold_next_answer("DescribeInstances")  # the look at the account after it hangs too
    events = []
    w = Watcher(store=svc.store, notify=events.append, sleep=lambda _s: None, stop_retries=1,
                target_deadline_s=0.5)
    try:
        w.tick((started + timedelta(hours=1, seconds=1)).timestamp())
    finally:
        hold.release()
        look.release()
    [failed] = [e for e in events if e.kind == "stop-failed"]
    assert failed.detail["cause"] == "network" and "no answer from the cloud within 0.5 s" in failed.message
    assert "Check the network" in failed.message
    w.close()


def test_a_budget_guard_with_an_unknown_price_says_so_then_uses_the_price(svc, tencent_server, monkeypatch,
                                                                          capsys):
    from tests.fixtures import tencent_cvm_server as peer

    # the cloud sells a type the bundled catalog does not list, and no price was fetched yet
    monkeypatch.setitem(peer.TYPES, "GN7.8XLARGE128", ("GN7", 32, 128, 4, 34.72, 6.94))
    iid, started = _launch(svc, itype="GN7.8XLARGE128")
    # as an instance launched from another computer and found by reconcile: no price in the ledger, none
    # fetched on this one
    from app.core import live_prices
    from app.core.paths import default_paths

    svc.store.execute("UPDATE instance_ledger SET price_per_hour=NULL WHERE id=?", (iid,))
    (default_paths().cache_dir / live_prices.CACHE_NAME).unlink(missing_ok=True)
    assert svc.ledger.get(iid).price_per_hour is None
    GuardStore(svc.store).set(iid, GuardConfig(budget=10, currency="CNY", sync_before_stop=False))
    events = []
    w = Watcher(store=svc.store, notify=events.append, sleep=lambda _s: None)
    w.tick((started + timedelta(hours=5)).timestamp())
    assert [e.kind for e in events] == ["budget-unknown"]
    assert "cannot act" in events[0].message and "prices refresh --account lab" in events[0].message
    w.tick((started + timedelta(hours=5, seconds=1)).timestamp())
    assert len(events) == 1  # said once
    assert _guard_ls(capsys) == (False, True)  # `labgpu guard ls` says the budget guard is off, and why
    # the account's price appears (a price refresh): the guard acts on it (34.72 CNY/h × 2 h > 10)
    svc.refresh_prices("lab", ["GN7.8XLARGE128"])
    w.tick((started + timedelta(hours=2)).timestamp())
    kinds = [e.kind for e in events]
    assert kinds[1] == "budget-priced" and "budget-stop" in kinds and kinds[-1] == "stopped", kinds
    assert _guard_ls(capsys) == (True, False)


def _guard_ls(capsys) -> tuple[bool, bool]:
    """(budget_price_known in `guard ls --json`, the table says BUDGET GUARD OFF)."""
    import argparse
    import json

    from app.cli.guardcmd import cmd_guard_ls

    capsys.readouterr()
    cmd_guard_ls(argparse.Namespace(json=True))
    [item] = json.loads(capsys.readouterr().out)
    cmd_guard_ls(argparse.Namespace(json=False))
    table = capsys.readouterr().out
    return item["budget_price_known"], "BUDGET GUARD OFF: the price per hour is unknown" in table


def test_guards_use_the_students_own_exchange_rate(svc, tencent_server):
    from app.core.settings import SettingsStore

    iid, started = _launch(svc)
    price = svc.ledger.get(iid).price_per_hour  # CNY/h
    store = SettingsStore()
    s = store.load()
    s.usd_cny_rate_override = 2.0  # the student's rate: 1 USD = 2 CNY (the bundled one is about 7)
    store.save(s)
    # 1 USD budget = 2 CNY with the student's rate; 14-ish CNY with the bundled one
    GuardStore(svc.store).set(iid, GuardConfig(budget=1, currency="USD", sync_before_stop=False))
    w = Watcher(store=svc.store, sleep=lambda _s: None)
    hours = 3.0 / price  # 3 CNY spent: over 2 CNY, under the bundled rate's budget
    kinds = [e.kind for e in w.tick((started + timedelta(hours=hours)).timestamp())]
    assert kinds == ["budget-stop", "stopped"], kinds


def test_the_idle_window_survives_a_watcher_restart(svc, tencent_server):
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(idle_minutes=1, on_idle="stop", sync_before_stop=False))
    t0 = started + timedelta(minutes=1)
    a = Watcher(store=svc.store, sleep=lambda _s: None)
    for i in range(41):  # 40 s of the 60 s window
        a.on_sample(_idle(iid, t0 + timedelta(seconds=i)))
    assert a.tick((t0 + timedelta(seconds=40)).timestamp()) == []
    a.close()  # the watcher exits (the tray takes over 5 s later)
    b = Watcher(store=svc.store, sleep=lambda _s: None)
    t1 = t0 + timedelta(seconds=45)
    for i in range(21):  # 20 s more: 40 + 20 = 60 s of idle seen (the 5 s without samples not counted)
        b.on_sample(_idle(iid, t1 + timedelta(seconds=i)))
    kinds = [e.kind for e in b.tick((t1 + timedelta(seconds=20)).timestamp())]
    assert kinds == ["idle-notify", "idle-stop", "stopped"], kinds
    b.close()


def test_a_long_silence_between_watchers_starts_the_window_over(svc, tencent_server):
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(idle_minutes=1, on_idle="stop", sync_before_stop=False))
    t0 = started + timedelta(minutes=1)
    a = Watcher(store=svc.store, sleep=lambda _s: None)
    for i in range(41):
        a.on_sample(_idle(iid, t0 + timedelta(seconds=i)))
    a.close()
    b = Watcher(store=svc.store, sleep=lambda _s: None)
    t1 = t0 + timedelta(seconds=40 + 120)  # nobody watched for two minutes: missing data is busy
    for i in range(21):
        b.on_sample(_idle(iid, t1 + timedelta(seconds=i)))
    assert b.tick((t1 + timedelta(seconds=20)).timestamp()) == []
    b.close()


def test_a_blind_host_is_said_when_it_goes_blind_and_when_it_sees_again(svc, tencent_server):
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(idle_minutes=1, on_idle="stop"))
    events = []
    w = Watcher(store=svc.store, notify=events.append, sleep=lambda _s: None)
    t = started + timedelta(minutes=1)
    w.on_sample(_idle(iid, t))
    w.on_sample(HostSample(iid, t + timedelta(seconds=1), "NVIDIA-SMI has failed because it couldn't "
                                                          "communicate with the NVIDIA driver", ()))
    w.on_sample(HostSample(iid, t + timedelta(seconds=2), "NVIDIA-SMI has failed", ()))  # still blind: no repeat
    mig = GpuReading("GPU-m", 0, "A800", None, 25.0, 81920.0, 33.0, 87.0, 400.0, "mig: utilization not reported")
    w.on_sample(HostSample(iid, t + timedelta(seconds=3), None, (mig,)))
    w.on_sample(_idle(iid, t + timedelta(seconds=4)))
    # then the link drops: no sample for more than 15 s
    w.tick((t + timedelta(seconds=30)).timestamp())
    w.on_sample(_idle(iid, t + timedelta(seconds=31)))
    kinds = [e.kind for e in events]
    assert kinds == ["blind", "sighted", "blind", "sighted"], kinds
    assert "couldn't communicate with the NVIDIA driver" in events[0].message
    assert "no GPU samples for 26 s" in events[2].message and "counts as busy" in events[2].message
    assert w.blind() == {}
    assert tencent_server.requests_of("StopInstances") == []


def test_an_unreachable_guarded_host_is_said_blind_with_the_reason(labgpu_home, private_home):
    """The link is down from the start (nothing listens on the host's port): the watch says the idle
    guard is blind, with the connection's own error, instead of staying silent."""
    import socket

    from app.core.hosts import HostRecord, HostStore
    from app.watch import MonitorHub

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    HostStore().add(HostRecord(name="gone", hostname="127.0.0.1", port=port, user="me"))
    blind = threading.Event()
    events = []

    def notify(ev):
        events.append(ev)
        if ev.kind == "blind":
            blind.set()

    w = Watcher(notify=notify, sleep=lambda _s: None)
    GuardStore(w.store).set("gone", GuardConfig(idle_minutes=10))
    hub = MonitorHub(w.paths, store=w.store, retry_s=0.2)
    until = threading.Event()
    loop = threading.Thread(target=w.run, kwargs={"hub": hub, "period_s": 0.1, "until": until}, name="test-loop")
    loop.start()
    try:
        assert blind.wait(60), [e.kind for e in events]
    finally:
        until.set()
        loop.join(60)
        hub.close()
        w.close()
    [ev] = [e for e in events if e.kind == "blind"]
    assert "gone: the idle guard is blind — the host reports no GPU data" in ev.message
    assert str(port) in ev.message or "refused" in ev.message.lower() or "connect" in ev.message.lower()


def test_a_stop_whose_answer_was_lost_ends_at_the_next_round(svc, tencent_server):
    """The StopInstances call is carried out but its answer never arrives (the peer drops it): the
    round fails as "network"; the account is then read again and the instance is seen stopping, so the
    episode ends — no stop call is repeated against an instance that is already stopping."""
    iid, started = _launch(svc)
    GuardStore(svc.store).set(iid, GuardConfig(max_hours=1, sync_before_stop=False))
    from tests.fixtures.tencent_cvm_server import DROP

    tencent_server.fail_next("StopInstances", DROP)
    events = []
    w = Watcher(store=svc.store, notify=events.append, sleep=lambda _s: None, stop_retries=1)
    w.tick((started + timedelta(hours=1, seconds=1)).timestamp())
    kinds = [e.kind for e in events]
    assert kinds == ["max-runtime", "stopped"], [(e.kind, e.message) for e in events]
    assert "its guard stops trying" in events[-1].message
    assert len(tencent_server.requests_of("StopInstances")) == 1
    assert w.stop_pending() == {}
