"""A guard on an AWS spot instance ends its bill: the Watcher, CloudService and the AWS plugin against
moto behind the strict EC2 proxy (which refuses to stop a one-time spot instance, as AWS does).

Persistent (what LabGPU launches) → stopped. One-time (an older LabGPU's) → terminated after the
checkpoints were pulled, said in the guard's words and the audit log; if the pull failed it is NOT
terminated and the guard says so once. Never an endless "could not be stopped" loop. Fake clock:
the max-runtime guard is evaluated at a time the test chooses.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.cloud.aws import AwsProvider
from app.cloud.base import LABGPU_TAG_KEY, LABGPU_TAG_VALUE
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core.accounts import Account, Credentials
from app.core.errors import LabGpuError
from app.core.guards import GuardConfig, GuardStore
from app.watch import Watcher
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET, UBUNTU_AMI


@pytest.fixture
def svc(secret_service, moto, labgpu_home):
    s = CloudService()
    s.accounts.add(Account("lab", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    yield s
    s.close()


def _persistent(svc) -> str:
    res = svc.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", spot=True, max_price=0.9,
                                   ssh_from="198.51.100.7/32"))
    assert res.entry.spot and res.entry.state == "running"
    return res.entry.id


def _one_time(svc, moto) -> str:
    """A one-time spot instance tagged as LabGPU's (launched by an older LabGPU), found by reconcile."""
    resp = moto.ec2().run_instances(
        ImageId=UBUNTU_AMI, MinCount=1, MaxCount=1, InstanceType="g5.xlarge",
        InstanceMarketOptions={"MarketType": "spot", "SpotOptions": {"SpotInstanceType": "one-time"}},
        TagSpecifications=[{"ResourceType": "instance",
                            "Tags": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]}])
    iid = str(resp["Instances"][0]["InstanceId"])
    svc.reconcile()
    entry = svc.ledger.get(iid)
    assert entry is not None and entry.spot and entry.state == "running"
    return iid


def _guard_at(svc, iid: str) -> float:
    GuardStore(svc.store).set(iid, GuardConfig(max_hours=1))
    entry = svc.ledger.get(iid)
    started = entry.started_at or datetime.now(timezone.utc)
    return (started + timedelta(hours=1, seconds=1)).timestamp()


def _aws_state(moto, iid: str) -> str:
    resp = moto.ec2().describe_instances(InstanceIds=[iid])
    return str(resp["Reservations"][0]["Instances"][0]["State"]["Name"])


def _guard_rows(svc, iid: str) -> list[str]:
    return [a.result for a in reversed(svc.audit.list()) if a.resource == iid and a.action == "guard-stop"]


def test_a_persistent_spot_instance_is_stopped(svc, moto):
    iid = _persistent(svc)
    t = _guard_at(svc, iid)
    w = Watcher(store=svc.store, sync_fn=lambda host, purpose: 1, sleep=lambda _s: None)
    kinds = [e.kind for e in w.tick(t)]
    assert kinds == ["max-runtime", "stopped"]
    assert _aws_state(moto, iid) in ("stopping", "stopped")
    assert moto.strict.request_of(iid).state == "disabled"  # stopped, not billing compute
    assert _guard_rows(svc, iid)[-1].startswith("ok (max-runtime")


def test_a_one_time_spot_instance_is_terminated_after_the_pull(svc, moto):
    iid = _one_time(svc, moto)
    t = _guard_at(svc, iid)
    order: list[str] = []
    w = Watcher(store=svc.store, sync_fn=lambda host, purpose: order.append(purpose) or 1,
                sleep=lambda _s: None)
    moto.strict.calls.clear()
    got = w.tick(t)
    assert [e.kind for e in got] == ["max-runtime", "terminated"]
    assert order == ["before-stop"]
    assert "StopInstances" not in moto.strict.calls  # decided from its spot request, not by trying
    assert _aws_state(moto, iid) in ("shutting-down", "terminated")
    msg = got[-1].message
    assert "AWS cannot stop a one-time spot instance" in msg and "disk is deleted" in msg
    assert "checkpoints were pulled first" in msg
    assert "terminated: AWS cannot stop a one-time spot instance" in _guard_rows(svc, iid)
    term = [a for a in svc.audit.list() if a.resource == iid and a.action == "terminate"]
    assert term and term[0].detail == "terminated: AWS cannot stop a one-time spot instance"
    assert svc.ledger.get(iid).state in ("terminating", "terminated")
    assert w.tick(t + 5) == []  # nothing more to do


def test_a_termination_that_keeps_failing_names_the_instances_own_cloud_console(svc, moto):
    """Terminating after the refused stop fails every try: the one critical event names the cloud whose console
    ends the bill (the AWS console here; Lambda's for a Lambda instance), not another cloud's."""
    from app.core.errors import LabGpuError

    iid = _one_time(svc, moto)
    t = _guard_at(svc, iid)

    def refuse(target_id, reason):
        raise LabGpuError("no answer from the cloud", code="Network")

    w = Watcher(store=svc.store, sync_fn=lambda host, purpose: 1, terminate_fn=refuse, stop_retries=2,
                sleep=lambda _s: None)
    got = w.tick(t)
    assert [e.kind for e in got] == ["max-runtime", "terminate-failed"]
    assert "terminate it in the AWS console" in got[-1].message and "after 2 tries" in got[-1].message
    assert _aws_state(moto, iid) == "running"


def test_a_failed_pull_keeps_it_and_says_so_once(svc, moto):
    iid = _one_time(svc, moto)
    t = _guard_at(svc, iid)

    def failing_pull(host: str, purpose: str) -> int:
        raise LabGpuError("the host did not answer", "check it", code="HostDown")

    events = []
    w = Watcher(store=svc.store, sync_fn=failing_pull, notify=events.append, sleep=lambda _s: None)
    kinds = [e.kind for e in w.tick(t)]
    assert kinds == ["max-runtime", "sync-failed", "stop-refused"]
    refused = events[-1]
    assert "still billing" in refused.message and f"labgpu terminate {iid}" in refused.message
    assert "could NOT be stopped" not in refused.message
    assert _aws_state(moto, iid) == "running"  # its disk, with the unpulled checkpoints, is kept
    for later in (t + 1, t + 2, t + 60):  # told once: the guard's later looks say nothing more
        assert w.tick(later) == []
    assert [e.kind for e in events].count("stop-refused") == 1
    assert not [a for a in svc.audit.list() if a.resource == iid and a.action == "terminate"]


def test_a_refusal_from_aws_takes_the_same_path(svc, moto, monkeypatch):
    """The spot request could not be read (AWS deletes old ones): the stop is sent, AWS refuses it
    (UnsupportedOperation), and the watcher terminates instead of retrying."""
    iid = _one_time(svc, moto)
    t = _guard_at(svc, iid)
    monkeypatch.setattr(AwsProvider, "stop_refusal", lambda self, a, c, i: "")
    w = Watcher(store=svc.store, sync_fn=lambda host, purpose: 1, stop_retries=3, sleep=lambda _s: None)
    moto.strict.calls.clear()
    got = w.tick(t)
    assert [e.kind for e in got] == ["max-runtime", "terminated"]
    assert moto.strict.calls.count("StopInstances") == 1  # refused once, never retried
    assert _aws_state(moto, iid) in ("shutting-down", "terminated")
    assert any(r.startswith("refused (max-runtime)") for r in _guard_rows(svc, iid))


def test_the_stop_button_check_and_the_launch_note(svc, moto):
    iid = _one_time(svc, moto)
    assert svc.stop_refusal(iid) == "AWS cannot stop a one-time spot instance"
    res = svc.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", spot=True, max_price=0.9,
                                   ssh_from="198.51.100.7/32"))
    assert svc.stop_refusal(res.entry.id) == ""
    assert any("persistent spot request" in n and "Terminate cancels" in n for n in res.notes)
