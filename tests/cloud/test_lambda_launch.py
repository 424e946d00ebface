"""A Lambda launch through CloudService and a guard on it through the Watcher, against the local peer: the
region failover after a capacity error in the first region (waiting its 12-second turn on a fake clock), a
region the student chose kept, the ledger's price and cost, and a guard that ends the bill by terminating
after its pull, since Lambda has no stop."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta, timezone

import pytest

from app.cloud.base import CapacityError
from app.cloud.lambdalabs.provider import LambdaProvider
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core.accounts import Account, Credentials
from app.core.errors import LabGpuError
from app.core.guards import GuardConfig, GuardStore
from app.watch import Watcher
from tests.cloud.test_lambda_provider import A100, FakeClock
from tests.fixtures.lambda_server import TEST_API_KEY, LambdaPeer

CAPACITY = "instance-operations/launch/insufficient-capacity"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def peer(clock: FakeClock) -> Iterator[LambdaPeer]:
    p = LambdaPeer(clock=clock).start()
    try:
        yield p
    finally:
        p.stop()


@pytest.fixture
def svc(secret_service, labgpu_home, peer, clock) -> Iterator[CloudService]:
    s = CloudService(provider_factory=lambda _pid: LambdaProvider(sleep=clock.sleep, clock=clock))
    s.accounts.add(Account("lab", "lambda", "us-east-1", peer.endpoint), Credentials("", TEST_API_KEY))
    yield s
    s.close()


def _launch(svc: CloudService, **kw: object):
    return svc.launch(LaunchOptions(account="lab", instance_type=A100, ssh_from="198.51.100.7/32", **kw))  # type: ignore[arg-type]


def test_capacity_error_in_the_first_region_moves_on_to_the_next(svc, peer, clock):
    peer.fail_next("launchInstance", CAPACITY, region="us-east-1")
    res = _launch(svc)
    assert (res.entry.region, res.entry.state, res.entry.price_per_hour, res.entry.currency) == (
        "us-west-1", "running", 1.29, "USD")
    assert [c.body["region_name"] for c in peer.calls_of("launchInstance")] == ["us-east-1", "us-west-1"]
    assert [c.status for c in peer.calls_of("launchInstance")] == [400, 200]
    assert clock.slept == [pytest.approx(12.0)]  # the launch limit, waited rather than refused
    assert any(n.startswith("us-east-1:") and "us-west-1" in n for n in res.notes)
    tags = {t["key"]: t["value"] for t in peer.calls_of("launchInstance")[-1].body["tags"]}
    assert tags["labgpu-launch"] == res.client_token and tags["labgpu"] == "1"
    assert [a.action for a in svc.audit.list() if a.result == "ok"][:1] == ["launch"]


def test_a_region_the_student_chose_is_kept(svc, peer):
    peer.fail_next("launchInstance", CAPACITY, region="us-east-1")
    with pytest.raises(CapacityError) as kept:
        _launch(svc, zone="us-east-1")
    assert "because you chose it" in kept.value.hint()
    assert len(peer.calls_of("launchInstance")) == 1


def test_a_retry_with_the_same_token_finds_the_instance(svc, peer):
    first = _launch(svc)
    again = _launch(svc, client_token=first.client_token)
    assert again.entry.id == first.entry.id and len(peer.calls_of("launchInstance")) == 1


def test_ls_cost_and_a_guard_that_terminates_after_its_pull(svc, peer):
    res = _launch(svc)
    iid = res.entry.id
    svc.reconcile()
    entry = svc.ledger.get(iid)
    assert entry is not None and entry.price_per_hour == 1.29 and entry.started_at is not None
    GuardStore(svc.store).set(iid, GuardConfig(max_hours=1))
    t = (entry.started_at + timedelta(hours=1, seconds=1)).timestamp()
    order: list[str] = []
    w = Watcher(store=svc.store, sync_fn=lambda host, purpose: order.append(purpose) or 1, sleep=lambda _s: None)
    got = w.tick(t)
    assert [e.kind for e in got] == ["max-runtime", "terminated"]
    assert order == ["before-stop"]  # pulled first
    msg = got[-1].message
    assert "Lambda has no stop" in msg and "checkpoints were pulled first" in msg
    assert peer.calls_of("terminateInstance")[-1].body == {"instance_ids": [iid]}
    assert svc.ledger.get(iid).state in ("terminating", "terminated")
    audit = [(a.action, a.result, a.detail) for a in svc.audit.list() if a.resource == iid]
    assert any(act == "terminate" and "Lambda has no stop" in detail for act, _r, detail in audit)
    assert w.tick(t + 5) == []


def test_a_failed_pull_keeps_the_instance_and_says_so_once(svc, peer):
    iid = _launch(svc).entry.id
    GuardStore(svc.store).set(iid, GuardConfig(max_hours=1))
    entry = svc.ledger.get(iid)
    t = ((entry.started_at or datetime.now(timezone.utc)) + timedelta(hours=2)).timestamp()

    def failing(host: str, purpose: str) -> int:
        raise LabGpuError("the host did not answer", "check it", code="HostDown")

    w = Watcher(store=svc.store, sync_fn=failing, sleep=lambda _s: None)
    assert [e.kind for e in w.tick(t)] == ["max-runtime", "sync-failed", "stop-refused"]
    assert peer.calls_of("terminateInstance") == []
    assert w.tick(t + 60) == []


def test_stop_from_the_cli_or_the_button_is_refused_with_what_to_do(svc, peer):
    from app.cloud.base import StopRefusedError

    iid = _launch(svc).entry.id
    with pytest.raises(StopRefusedError) as refused:
        svc.stop(iid)
    assert f"labgpu terminate {iid}" in refused.value.hint()
    assert peer.calls_of("terminateInstance") == []


def test_the_guards_say_terminate_before_the_fact():
    """Capabilities.stop_terminates: the guard badge of the instances page and `labgpu guard ls` say what the
    guard's stop does on Lambda; a cloud with a stop keeps saying stop."""
    from app.core import providers
    from app.ui.shared.guards_ui import badge

    cfg = GuardConfig(idle_minutes=20, on_idle="stop")
    assert providers.has("lambda", "stop_terminates") and not providers.has("alibaba", "stop_terminates")
    assert "→ terminate" in badge(cfg, True, terminates=True)
    assert "→ stop" in badge(cfg, True)
