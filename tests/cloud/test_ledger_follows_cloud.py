"""The ledger follows the cloud, and no cost comes from a wrong wall clock.

- An instance started from the cloud console (moto's own StartInstances, not LabGPU's) after its idle
  guard stopped it is seen by the watcher's background reconcile and stopped again by its idle guard
  within the reconcile interval (60 s) plus the window. Fake clock: the watcher's, the samples' and the
  reconciler's seconds are the test's, so the bound is measured exactly, with no waiting.
- A laptop clock 4 minutes ahead or behind changes no cost by more than a second of billing: the real
  Tencent peer launches the instance and answers with its own Date; the laptop's wall clock (and the
  monotonic clock that carries the cloud's time between answers) are injected into app.core.ledgerdb.CLOCK.
- A clock more than a minute off is named: from the cloud's answer to a refused request.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta, timezone

import pytest

from app.cloud.base import LABGPU_TAG_KEY, LABGPU_TAG_VALUE
from app.cloud.errors import ClockSkewError
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core import ledgerdb
from app.core.accounts import Account, Credentials
from app.core.gpumon import GpuReading, HostSample
from app.core.guards import GuardConfig, GuardStore
from app.watch import Watcher
from app.watch import reconcile as bg
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET, UBUNTU_AMI

GN7 = "GN7.2XLARGE32"
WINDOW_S = 30.0
INTERVAL_S = 60.0


class Laptop:
    """The laptop's clocks as CLOCK reads them: the wall is `skew` off the true time; `ahead` seconds of
    simulated running are added to both (the cloud's Date stays real: it is the cloud's clock)."""

    def __init__(self, skew: float) -> None:
        self.skew = skew
        self.ahead = 0.0

    def wall(self) -> float:
        return time.time() + self.skew + self.ahead

    def mono(self) -> float:
        return time.monotonic() + self.ahead


@pytest.fixture
def cloud_clock(monkeypatch):
    """CLOCK with fresh anchors; the test sets its wall/mono; reset again afterwards."""
    ledgerdb.CLOCK.reset()
    yield ledgerdb.CLOCK
    monkeypatch.undo()
    ledgerdb.CLOCK.reset()


def _idle(host: str, t: float) -> HostSample:
    g = GpuReading("GPU-a", 0, "A10G", 0.0, 3.0, 24000.0, 35.0, 30.0, 150.0)
    return HostSample(host, datetime.fromtimestamp(t, timezone.utc), None, (g,))


# -- started from the console ------------------------------------------------------------------------
@pytest.fixture
def aws(secret_service, moto, labgpu_home, cloud_clock):
    s = CloudService()
    s.accounts.add(Account("lab", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    yield s
    s.close()


def _aws_state(moto, iid: str) -> str:
    resp = moto.ec2().describe_instances(InstanceIds=[iid])
    return str(resp["Reservations"][0]["Instances"][0]["State"]["Name"])


def test_an_instance_started_from_the_console_is_stopped_by_its_idle_guard(aws, moto):
    resp = moto.ec2().run_instances(
        ImageId=UBUNTU_AMI, MinCount=1, MaxCount=1, InstanceType="g5.xlarge",
        TagSpecifications=[{"ResourceType": "instance", "Tags": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]}])
    iid = str(resp["Instances"][0]["InstanceId"])
    GuardStore(aws.store).set(iid, GuardConfig(idle_below_pct=10, idle_minutes=WINDOW_S / 60, on_idle="stop",
                                                sync_before_stop=False))
    sim = {"t": time.time()}
    t0 = sim["t"]
    w = Watcher(store=aws.store, clock=lambda: sim["t"], sleep=lambda _s: None)
    rec = bg.attach(w, interval_s=INTERVAL_S, mono=lambda: sim["t"])
    stops: list[float] = []
    console_at: float | None = None

    def second(s: int, samples: bool) -> None:
        sim["t"] = t0 + s
        if samples:
            w.on_sample(_idle(iid, sim["t"]))
        before = dict(rec.runs)
        for name in bg.reconciler_of(w).poll() if bg.reconciler_of(w) else []:  # what the loop does
            assert rec.wait_runs(name, before.get(name, 0) + 1)
        stops.extend(sim["t"] for e in w.tick() if e.kind == "stopped" and e.target_id == iid)

    bg.poll(w)  # the loop's call: the first reconcile sees it running
    assert rec.wait_runs("lab", 1) and aws.ledger.get(iid).state == "running"
    for s in range(0, 40):  # idle from the start: the guard stops it after its window
        second(s, samples=not stops)
    assert len(stops) == 1 and stops[0] - t0 <= WINDOW_S + 2
    assert _aws_state(moto, iid) in ("stopping", "stopped")
    moto.ec2().start_instances(InstanceIds=[iid])  # the console, behind LabGPU's back
    console_at = sim["t"]
    s = 40
    while len(stops) < 2 and s < 40 + INTERVAL_S + WINDOW_S + 10:
        s += 1
        second(s, samples=True)  # the host is up again, idle
    assert len(stops) == 2, "the idle guard never acted on the instance started from the console"
    # within a minute (the reconcile interval) plus the window
    assert stops[1] - console_at <= INTERVAL_S + WINDOW_S + 2
    assert _aws_state(moto, iid) in ("stopping", "stopped")
    assert aws.ledger.get(iid).state in ("stopping", "stopped")
    assert rec.runs["lab"] >= 2 and not rec.errors


def test_the_watch_loop_reconciles_in_the_background(aws, moto):
    """Watcher.run calls the reconciler; a reconcile in flight never holds the loop up."""
    resp = moto.ec2().run_instances(
        ImageId=UBUNTU_AMI, MinCount=1, MaxCount=1, InstanceType="g5.xlarge",
        TagSpecifications=[{"ResourceType": "instance", "Tags": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]}])
    iid = str(resp["Instances"][0]["InstanceId"])
    import threading

    release = threading.Event()
    entered = threading.Event()

    def slow(name: str) -> object:
        entered.set()
        release.wait(30)
        return CloudService(store=aws.store).reconcile([name])

    w = Watcher(store=aws.store, sleep=lambda _s: None)
    assert w.acquire()
    rec = bg.attach(w, interval_s=0.0, reconcile_fn=slow)
    ticks = {"n": 0}  # passes of the loop (each asks the reconciler once)
    real_poll = rec.poll

    def counting_poll() -> list[str]:
        ticks["n"] += 1
        return real_poll()

    rec.poll = counting_poll  # type: ignore[method-assign]
    done = threading.Event()
    th = threading.Thread(target=w.run, kwargs={"period_s": 0.01, "until": done}, daemon=True)
    th.start()
    try:
        assert entered.wait(30)
        n = ticks["n"]
        deadline = time.monotonic() + 30
        while ticks["n"] < n + 5 and time.monotonic() < deadline:  # the loop goes on while it hangs
            time.sleep(0.01)
        assert ticks["n"] >= n + 5 and rec.in_flight() == {"lab"}
        release.set()
        assert rec.wait_runs("lab", 1)
        assert aws.ledger.get(iid).state == "running"
    finally:
        release.set()
        done.set()
        th.join(30)
        w.close()


# -- the laptop's clock off ----------------------------------------------------------------------------
@pytest.fixture
def tencent(cloud_clock, tencent_service):
    return tencent_service


@pytest.mark.parametrize("skew", [240.0, -240.0], ids=["4-min-ahead", "4-min-behind"])
def test_a_laptop_clock_four_minutes_off_changes_no_cost(tencent, tencent_server, monkeypatch, skew):
    """Today: 4 min ahead, a 0.70 CNY budget (4.8 min) stopped the instance after 50 s of real running;
    4 min behind, the ledger showed 0.0. Now: 50 s of running cost 50 s, within a second of billing."""
    laptop = Laptop(skew)
    monkeypatch.setattr(ledgerdb.CLOCK, "wall", laptop.wall)
    monkeypatch.setattr(ledgerdb.CLOCK, "mono", laptop.mono)
    res = tencent.launch(LaunchOptions(account="lab", instance_type=GN7, ssh_from="198.51.100.7/32"))
    iid = res.entry.id
    price = res.entry.price_per_hour
    assert price and res.entry.currency == "CNY"
    created = float(int(tencent_server.instances[iid].created))  # CreatedTime, whole seconds
    budget = round(price * 4.8 / 60, 4)  # 4.8 minutes of billing
    GuardStore(tencent.store).set(iid, GuardConfig(budget=budget, currency="CNY", sync_before_stop=False))
    w = Watcher(store=tencent.store, clock=laptop.wall, sleep=lambda _s: None)
    laptop.ahead = 50.0  # 50 s of real running later
    events = w.tick()
    true_now = time.time() + laptop.ahead
    expected = price * (true_now - created) / 3600.0
    second = price / 3600.0
    assert not [e for e in events if e.kind == "budget-stop"], [e.message for e in events]
    cost = next(c for c in w.running_costs() if c.id == iid)
    assert cost.so_far == pytest.approx(expected, abs=second * 1.05)  # not more than a second of billing
    entry = tencent.ledger.get(iid)
    assert entry.cost_so_far == pytest.approx(expected, abs=second * 1.05)
    assert entry.uptime_s == pytest.approx(true_now - created, abs=1.05)
    assert tencent_server.instances[iid].state == "RUNNING"
    # a reconcile (a fresh answer, the skew still there; back in the real present) agrees with the cloud
    laptop.ahead = 0.0
    tencent.reconcile()
    again = tencent.ledger.get(iid)
    assert again.cost_so_far == pytest.approx(price * (time.time() - created) / 3600.0, abs=second * 1.05)


def test_a_clock_off_is_named_from_the_clouds_answer(tencent, tencent_server):
    """The cloud refuses a request signed 400 s off its clock; its answer's Date says by how much."""
    tencent_server.clock_offset = 400.0  # the cloud's clock 400 s ahead: the laptop is 400 s behind
    with pytest.raises(ClockSkewError):
        tencent.test_connection("lab")
    skew = ledgerdb.clock_skew()
    assert skew is not None and skew.provider == "tencent" and not skew.ahead
    assert skew.offset_s == pytest.approx(400.0, abs=2.0)
    text, hint = ledgerdb.skew_text(skew)
    assert "6.7 minutes behind" in text and "Tencent" in text and hint
    tencent_server.clock_offset = 0.0
    tencent.reconcile()  # a later answer measures again, and keeps it for the tray and `labgpu doctor`
    assert ledgerdb.clock_skew(tencent.store) is None
    assert ledgerdb.read_stored_skew(tencent.store.path, limit_s=60.0) is None


def test_the_cloud_start_time_is_read_for_each_provider(tencent, tencent_server):
    """Tencent has no start time: a restarted instance (LatestOperation StartInstances) starts its run
    at the answer that showed it running, not at CreatedTime (which would bill the stopped time)."""
    res = tencent.launch(LaunchOptions(account="lab", instance_type=GN7, ssh_from="198.51.100.7/32"))
    iid = res.entry.id
    tencent_server.instances[iid].created -= 3600  # created an hour ago
    tencent.stop(iid)
    before = datetime.now(timezone.utc)
    tencent.start(iid)
    e = tencent.ledger.get(iid)
    assert e.state == "running" and e.started_at is not None
    assert e.started_at >= before - timedelta(seconds=2)
    assert e.uptime_s < 60


# -- every plugin reads its cloud's clock ----------------------------------------------------------------
def _aws_call(moto):  # noqa: ANN202
    from app.cloud.aws import AwsProvider

    return lambda: AwsProvider().list_instances(Account("lab", "aws", "us-east-1", moto.url),
                                                Credentials(AWS_KEY_ID, AWS_SECRET))


@pytest.mark.parametrize("cloud", ["aws", "tencent", "alibaba"])
def test_each_clouds_answer_sets_its_clock(request, cloud_clock, monkeypatch, cloud):
    """The laptop's clock 4 min ahead: one listing of each cloud (its real peer) measures -240 s."""
    laptop = Laptop(240.0)
    monkeypatch.setattr(ledgerdb.CLOCK, "wall", laptop.wall)
    monkeypatch.setattr(ledgerdb.CLOCK, "mono", laptop.mono)
    if cloud == "aws":
        moto = request.getfixturevalue("moto")
        call = _aws_call(moto)
    elif cloud == "tencent":
        from app.cloud.tencent import TencentProvider
        from tests.fixtures.tencent_server import tencent_account, tencent_creds

        server = request.getfixturevalue("tencent_server")
        call = lambda: TencentProvider().list_instances(tencent_account(server), tencent_creds())  # noqa: E731
    else:
        from app.cloud.alibaba import AlibabaProvider
        from tests.fixtures.alibaba_ecs_server import TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET

        server = request.getfixturevalue("alibaba_server")
        acc = Account("ali", "alibaba", "cn-hangzhou", f"http://{server.endpoint}")
        call = lambda: AlibabaProvider().list_instances(  # noqa: E731
            acc, Credentials(TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET))
    assert ledgerdb.CLOCK.offset(cloud) == 0.0
    call()  # type: ignore[operator]
    assert ledgerdb.CLOCK.offset(cloud) == pytest.approx(-240.0, abs=1.5)
    skew = ledgerdb.clock_skew()
    assert skew is not None and skew.provider == cloud and skew.ahead
