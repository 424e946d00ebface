"""Waiting for a GPU (蹲卡) against the Tencent peer: a type sold out for N RunInstances lands once, after N
refused rounds on a fake clock, and is announced once on a real ntfy stand-in; a restart mid-wait resumes
with the stored client token (no second instance); the deadline, the price cap and a non-capacity error
end the wait with a clear sentence."""

from __future__ import annotations

import random

import pytest

from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core.accounts import Account, Credentials
from app.core.launchwaits import GAVE_UP, LANDED, WAITING, LaunchWaits
from app.core.paths import default_paths
from app.core.settings import Settings, SettingsStore
from app.core.vocab import GuardEventKind
from app.notify.config import ChannelConfig
from app.notify.dispatch import notifier_for
from app.notify.manage import save_channel
from app.usecases.waitlaunch import (
    BACKOFF_FIRST_S,
    BACKOFF_MAX_S,
    WaitLauncher,
    backoff_s,
    notify_announce,
    parse_duration,
)
from app.usecases.waitlaunch import (
    LEASE_S as LEASE,
)
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY
from tests.notify import peers as P

SSH_FROM = "198.51.100.7/32"
ZONE = "ap-guangzhou-3"
TYPE = "GN7.2XLARGE32"


class Clock:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.t

    def sleep(self, s: float) -> None:
        self.slept.append(s)
        self.t += s


@pytest.fixture
def svc(secret_service, tencent_server, labgpu_home):
    s = CloudService()
    s.accounts.add(
        Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint, {"protocol": "http"}),
        Credentials(TEST_SECRET_ID, TEST_SECRET_KEY),
    )
    yield s
    s.close()


@pytest.fixture
def ntfy():
    peer = P.NotifyPeer()
    store = SettingsStore(default_paths())
    st = store.load()
    save_channel(st, ChannelConfig(name="phone", kind="ntfy"), {"url": peer.base + P.NTFY_TOPIC, "token": P.NTFY_TOKEN})
    store.save(st)
    yield peer
    notifier_for(default_paths()).flush(30)
    peer.close()


def _opts(**kw) -> LaunchOptions:
    return LaunchOptions(**{"account": "lab-tc", "instance_type": TYPE, "ssh_from": SSH_FROM, **kw})


def _runs(tc) -> list[dict]:
    return tc.requests_of("RunInstances")


def test_a_sold_out_type_lands_once_after_n_rounds_and_is_announced_once(svc, tencent_server, ntfy):
    tencent_server.sell_out(ZONE, 3)  # the documented ResourcesSoldOut.SpecifiedInstanceType, three times
    clock = Clock()
    w = WaitLauncher(svc, Settings(), clock=clock, rng=random.Random(7), announce=notify_announce(default_paths()))
    wait = w.create(_opts(), until_s=parse_duration("6h"), zones=[ZONE])
    progress: list[str] = []
    out = w.run(wait.id, sleep=clock.sleep, progress=progress.append)
    assert out.wait.state == LANDED and out.result is not None
    assert out.wait.attempts == 4 and out.wait.instance_id == out.result.entry.id
    assert f"{TYPE} landed as {out.result.entry.id} in {ZONE} after 4 attempts." == out.wait.detail
    runs = _runs(tencent_server)
    assert len(runs) == 4 and {r["Placement"]["Zone"] for r in runs} == {ZONE}
    assert len({r["ClientToken"] for r in runs}) == 4  # one token per attempt
    assert len(tencent_server.instances) == 1
    # three refused rounds, each said, the pauses jittered inside 15 s doubling (7.5–15, 15–30, 30–60)
    assert len(progress) == 3 and all("still sold out" in p for p in progress)
    assert 7.5 <= clock.slept[0] <= 15 and 15 <= clock.slept[1] <= 30 and 52.5 <= sum(clock.slept) <= 105
    assert notifier_for(default_paths()).flush(30)
    got = ntfy.received("ntfy")
    assert [g.title for g in got] == [f"Your {TYPE} is here: {out.result.entry.id}"]
    # stepping the ended wait again sends nothing and launches nothing
    assert not w.step(wait.id).acted and len(_runs(tencent_server)) == 4


def test_a_restart_mid_wait_resumes_with_the_stored_token_and_makes_no_second_instance(svc, tencent_server):
    clock = Clock()
    first = WaitLauncher(svc, Settings(), clock=clock, rng=random.Random(1))
    wait = first.create(_opts(), until_s=3600, zones=[ZONE])
    # The first waiter sends the attempt, and the process dies before it hears back: the cloud made the
    # instance; the wait still holds that attempt's token (stored before sending).
    tencent_server.fail_next("RunInstances", "__drop_response__")
    out = first.step(wait.id)
    assert out.wait.state == WAITING and out.wait.token  # cut short: the token is kept
    assert len(tencent_server.instances) == 1
    token = out.wait.token.split(" ", 1)[1]
    # "restart": another waiter (the watcher) takes the wait once the dead one's lease runs out
    clock.t += 121
    again = WaitLauncher(CloudService(), Settings(), clock=clock, rng=random.Random(2))
    done = again.run(wait.id, sleep=clock.sleep)
    assert done.wait.state == LANDED
    assert len(tencent_server.instances) == 1  # the same instance, found by its token
    assert done.wait.instance_id == next(iter(tencent_server.instances))
    assert {r["ClientToken"] for r in _runs(tencent_server)} == {token}


def test_one_waiter_per_wait(svc, tencent_server):
    clock = Clock()
    a = WaitLauncher(svc, Settings(), clock=clock)
    b = WaitLauncher(svc, Settings(), clock=clock)
    wait = a.create(_opts(), until_s=3600, zones=[ZONE])
    waits = LaunchWaits(svc.store)
    assert waits.claim(wait.id, a.owner, clock(), 120)
    assert not b.step(wait.id).acted and _runs(tencent_server) == []  # a holds it: b does nothing


def test_the_deadline_ends_the_wait_with_a_clear_message(svc, tencent_server, ntfy):
    tencent_server.sell_out(ZONE, 1000)
    clock = Clock()
    w = WaitLauncher(svc, Settings(), clock=clock, rng=random.Random(3), announce=notify_announce(default_paths()))
    wait = w.create(_opts(), until_s=parse_duration("4m"), zones=[ZONE])
    out = w.run(wait.id, sleep=clock.sleep)
    assert out.wait.state == GAVE_UP
    assert out.wait.detail == (f"Gave up waiting for {TYPE}: the deadline passed after {out.wait.attempts} "
                               "attempts and it stayed sold out.")
    assert 2 <= out.wait.attempts <= 6 and len(_runs(tencent_server)) == out.wait.attempts
    assert clock.t - wait.created_at <= 240 + 1  # it stopped at the deadline, not after
    assert not tencent_server.instances
    assert notifier_for(default_paths()).flush(30)
    assert [g.title for g in ntfy.received("ntfy")] == [f"Stopped waiting for {TYPE}"]


def test_the_price_cap_ends_the_wait(svc, tencent_server):
    clock = Clock()
    w = WaitLauncher(svc, Settings(), clock=clock)
    # spot: the cap is the bid; the peer's spot price for the type (1.74) is over it: refused → over the cap
    wait = w.create(_opts(spot=True), until_s=3600, max_price=1.0, zones=[ZONE])
    out = w.run(wait.id, sleep=clock.sleep)
    assert out.wait.state == GAVE_UP and "over your cap of 1" in out.wait.detail
    assert not tencent_server.instances
    # on-demand: the price LabGPU knows (8.68 CNY) is over the cap: nothing is sent
    svc.refresh_prices("lab-tc", [TYPE])
    n = len(_runs(tencent_server))
    wait2 = w.create(_opts(), until_s=3600, max_price=5.0, zones=[ZONE])
    out2 = w.run(wait2.id, sleep=clock.sleep)
    assert out2.wait.state == GAVE_UP and "8.6800 CNY per hour is over your cap of 5" in out2.wait.detail
    assert len(_runs(tencent_server)) == n


def test_a_non_capacity_error_ends_the_wait_at_once(svc, tencent_server):
    tencent_server.fail_next("RunInstances", "InvalidParameterValue.InstanceTypeNotFound")
    clock = Clock()
    w = WaitLauncher(svc, Settings(), clock=clock)
    wait = w.create(_opts(), until_s=3600, zones=[ZONE])
    out = w.run(wait.id, sleep=clock.sleep)
    assert out.wait.state == GAVE_UP and out.wait.detail.startswith(f"Gave up waiting for {TYPE}: ")
    assert out.wait.attempts == 1 and len(_runs(tencent_server)) == 1 and clock.slept == []


def test_backoff_and_durations():
    rng = random.Random(0)
    assert BACKOFF_FIRST_S / 2 <= backoff_s(1, rng) <= BACKOFF_FIRST_S
    assert BACKOFF_MAX_S / 2 <= backoff_s(30, rng) <= BACKOFF_MAX_S
    assert parse_duration("6h") == 21600 and parse_duration("4m") == 240 and parse_duration("1h30m") == 5400
    for bad in ("", "6", "h", "-1h", "6x", "0m"):
        with pytest.raises(Exception, match="is not a duration"):
            parse_duration(bad)
    assert GuardEventKind.WAIT_LANDED == "wait-landed"


def test_the_watcher_drives_a_stored_wait_and_a_new_watcher_resumes_it(svc, tencent_server, ntfy):
    """The launch dialog leaves the wait to the watcher; the app restarts mid-wait (a new Watcher on the
    same data): the new one goes on from the stored attempts, lands it once, and announces it once."""
    from app.watch import Watcher
    from app.watch.waits import driver_of, poll

    tencent_server.sell_out(ZONE, 2)
    clock = Clock()
    wait = WaitLauncher(svc, Settings(), clock=clock).create(_opts(), until_s=3600, zones=[ZONE])
    first = Watcher(default_paths(), clock=clock)
    try:
        poll(first)
        assert driver_of(first).wait_rounds(1)
    finally:
        first.close()
    stored = LaunchWaits(svc.store).get(wait.id)
    assert stored is not None and (stored.state, stored.attempts) == (WAITING, 1)
    clock.t = stored.next_try + LEASE + 1  # the app is back later; the old lease has run out
    again = Watcher(default_paths(), clock=clock)
    try:
        for n in (1, 2):
            poll(again)
            assert driver_of(again).wait_rounds(n)
            clock.t = (LaunchWaits(svc.store).get(wait.id).next_try or clock.t) + 1
        poll(again)  # nothing left to do: no round starts
        assert driver_of(again).rounds == 2
        events = [(e.kind, e.target_id) for e in again.events]
    finally:
        again.close()
    done = LaunchWaits(svc.store).get(wait.id)
    assert done is not None and done.state == LANDED and done.attempts == 3
    assert len(_runs(tencent_server)) == 3 and len(tencent_server.instances) == 1
    assert events == [(GuardEventKind.WAIT_LANDED, wait.id)]
    assert notifier_for(default_paths()).flush(30)
    assert [g.title for g in ntfy.received("ntfy")] == [f"Your {TYPE} is here: {done.instance_id}"]


def test_other_clouds_are_tried_with_the_same_gpu_when_the_first_is_sold_out(svc, tencent_server, alibaba_server):
    """--clouds alibaba: every Tencent zone is sold out, so the round goes on to the Alibaba account with the
    catalog's type of the same GPU model and count (T4 × 1) and lands there, once."""
    from tests.fixtures.alibaba_ecs_server import TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET

    svc.accounts.add(Account("lab-ali", "alibaba", "cn-hangzhou", f"http://{alibaba_server.endpoint}"),
                     Credentials(TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET))
    for zone in ("ap-guangzhou-3", "ap-guangzhou-4", "ap-guangzhou-6"):
        tencent_server.sell_out(zone, 1000)
    clock = Clock()
    w = WaitLauncher(svc, Settings(), clock=clock)
    wait = w.create(_opts(), until_s=3600, clouds=["alibaba"])
    out = w.run(wait.id, sleep=clock.sleep)
    assert out.wait.state == LANDED and out.result is not None, out.wait.detail
    entry = out.result.entry
    assert (entry.provider, entry.account, entry.instance_type) == ("alibaba", "lab-ali", "ecs.gn6i-c4g1.xlarge")
    assert out.wait.attempts == 1 and clock.slept == []
    assert len(tencent_server.requests_of("RunInstances")) == 3 and not tencent_server.instances
    assert len(alibaba_server.instances) == 1


def test_a_wait_is_checked_before_it_is_stored(svc, tencent_server):
    from app.core.errors import InputError, LabGpuError

    w = WaitLauncher(svc, Settings(), clock=Clock())
    with pytest.raises(InputError, match="LabGPU cannot launch on nope"):
        w.create(_opts(), until_s=3600, clouds=["nope"])
    with pytest.raises(InputError, match="The price cap must be more than 0"):
        w.create(_opts(), until_s=3600, max_price=0.0)
    with pytest.raises(LabGpuError, match="no account named 'ghost'"):
        w.create(_opts(account="ghost"), until_s=3600)
    assert LaunchWaits(svc.store).all() == [] and _runs(tencent_server) == []


def test_a_stock_out_a_plugin_marks_retryable_keeps_the_wait_going_and_a_zone_without_the_type_ends_it():
    """The newer clouds' stock-outs (Google Cloud, Lambda, Paperspace) are not in SOLD_OUT_CODES: their
    plugins mark them retryable, and a waiting launch keeps trying them; a capacity refusal they do not mark
    (a zone that does not sell the type) ends the wait with its own sentence."""
    from app.cloud.base import CapacityError
    from app.cloud.gcp.errors import map_error as gcp_error
    from app.cloud.lambdalabs.errors import map_error as lambda_error
    from app.usecases.waitlaunch import is_sold_out

    assert is_sold_out(gcp_error("ZONE_RESOURCE_POOL_EXHAUSTED", "no A100 left", zone="us-central1-a"))
    assert is_sold_out(lambda_error("instance-operations/launch/insufficient-capacity", "no capacity"))
    assert not is_sold_out(gcp_error("QUOTA_EXCEEDED", "GPUS_ALL_REGIONS"))
    assert not is_sold_out(CapacityError("No such type in {zone}.", code="Unsupported", zone="z"))
