"""Spot recovery on real peers: a job on a Tencent-peer spot instance (its SSH host the test sshd) gets a
reclaim notice; the latest checkpoint is saved over SFTP, the same zone is sold out (the peer's documented
stock answer, ``zone_errors``), a new instance launches in another zone, the code pair and the checkpoint
are pushed and the job resumes at the saved step (its log says so); the run has both instances. And the
bad cases: a notice for an instance LabGPU did not launch, a notice in the past, a second notice for the
same reclaim, a relaunch that is itself reclaimed, a budget that runs out halfway, the attempt cap (the
peer's RunInstances counted), and a watcher restart mid-launch (the stored client token: no second
instance).

The notice is handed to the watcher as the spot watch hands it (``Watcher.spot_notice``); the read of the
notice at the metadata address is tests/remote/test_spot_recovery_e2e.py. Each test waits on the job's log
or on the recovery's thread, never on a sleep."""

from __future__ import annotations

import sysconfig
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from app.cloud.launch_plan import LaunchOptions
from app.core.jobs import JobSpec, JobStore
from app.core.paths import default_paths
from app.core.recoverypolicy import (
    INSTANCE,
    JOB,
    STEP_GAVE_UP,
    STEP_LAUNCHING,
    STEP_RESUMED,
    RecoveryPolicy,
    RecoveryPolicyStore,
    RecoveryProgressStore,
)
from app.core.runs import RunStore
from app.remote.spotwatch import SpotNotice
from app.usecases import jobs as usecase
from app.watch import Watcher
from tests.e2e.instance_support import GN7, serve_instances_from

STANDIN = Path(__file__).resolve().parents[1] / "fixtures" / "train_standin.py"
SITE = sysconfig.get_paths()["purelib"]
SOLD_OUT = "ResourceInsufficient.SpecifiedInstanceType"  # cvm/v20170312/errorcodes.py: the zone's stock is out


@pytest.fixture
def spot(tencent_service, tencent_server, sshd, private_home, monkeypatch):
    """A running spot instance on the Tencent peer whose SSH server is the session's sshd."""
    serve_instances_from(sshd, tencent_server, private_home, monkeypatch)
    res = tencent_service.launch(LaunchOptions(account="lab", instance_type=GN7, spot=True, max_price=50.0,
                                               ssh_from="198.51.100.7/32"))
    assert res.entry.state == "running" and res.entry.spot
    return res.entry


def _runs(server) -> int:
    return len(server.requests_of("RunInstances"))


def _notice(seconds: float = 120.0) -> SpotNotice:
    when = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(seconds=seconds)
    return SpotNotice("tencent", "terminate", when, "")


def _watcher(store, events: list, **kw) -> Watcher:
    return Watcher(default_paths(), store=store, notify=events.append, sleep=lambda _s: None, **kw)


def _said(events) -> list:
    return [e for e in events if str(e.kind).startswith("recovery-")]


def _kinds(events) -> list[str]:
    return [str(e.kind) for e in _said(events)]


def _wait_log(store, job_id: str, until: str, timeout_s: float = 60.0) -> str:
    stop = threading.Event()
    timer = threading.Timer(timeout_s, stop.set)
    timer.start()
    text = ""
    try:
        for chunk in usecase.follow(default_paths(), store, job_id, from_offset=0, stop_event=stop, poll_s=0.1):
            text += chunk
            if until in text:
                break
    finally:
        timer.cancel()
    assert until in text, text[-2000:]
    return text


def _training(sshd, store, host: str, tmp_path: Path, name: str, steps: int = 400):
    """The stand-in training on ``host`` with checkpoints every 10 steps; its code folder locally (the code
    pair pushed to a new instance); returns (job, remote checkpoint folder, local code folder, resume)."""
    code = tmp_path / "code"
    code.mkdir(exist_ok=True)
    (code / "train_standin.py").write_text(STANDIN.read_text())
    first = sshd.remote_dir(f"{name}-code-old")
    (first / "train_standin.py").write_text(STANDIN.read_text())
    ckpt = sshd.remote_dir(f"{name}-ckpt")
    sshd.chown_to_user(first)
    sshd.chown_to_user(ckpt)
    argv = ["python3", str(first / "train_standin.py"), "--steps", str(steps), "--sleep", "0.05", "--site", SITE,
            "--checkpoint-dir", str(ckpt), "--checkpoint-every", "10", "--no-bar"]
    rec = usecase.start_job(default_paths(), store, JobSpec(host=host, argv=argv, name="resnet"))
    new_code = sshd.remote_dir(f"{name}-code-new")
    sshd.chown_to_user(new_code)
    resume = (f"python3 {new_code}/train_standin.py --steps {steps} --sleep 0.01 --site {SITE} "
              f"--checkpoint-dir {ckpt} --checkpoint-every 10 --no-bar --resume {{checkpoint}}")
    return rec, ckpt, code, new_code, resume


def test_reclaimed_job_is_saved_relaunched_in_another_zone_and_resumes_at_its_step(
        tencent_service, tencent_server, sshd, spot, tmp_path):
    store = tencent_service.store
    job, ckpt, code, new_code, resume = _training(sshd, store, spot.id, tmp_path, "rec-ok")
    _wait_log(store, job.id, "checkpoint step-20.pt")
    saved_dir = tmp_path / "saved"
    RecoveryPolicyStore(store).set(JOB, job.id, RecoveryPolicy(
        checkpoint_remote=str(ckpt), checkpoint_local=str(saved_dir), checkpoint_pattern="step-*.pt",
        code_local=str(code), code_remote=str(new_code), resume=resume, max_attempts=3))
    tencent_server.zone_errors[spot.zone] = SOLD_OUT  # the relaunch finds the same zone sold out
    before = _runs(tencent_server)
    events: list = []

    def reclaimed(ev) -> None:
        if str(ev.kind) == "recovery-saved":  # the cloud takes the instance: the job and its disk are gone
            usecase.stop_job(default_paths(), store, job.id, grace_s=1)
            for f in ckpt.iterdir():
                f.unlink()

    w = _watcher(store, events)
    w.notify = lambda ev: (events.append(ev), reclaimed(ev))
    try:
        assert w.spot_notice(spot.id, _notice(), wait=True) is not None
    finally:
        w.close()
    assert _kinds(events) == ["recovery-saved", "recovery-relaunched", "recovery-resumed"], \
        [e.message for e in events]
    saved = sorted(saved_dir.glob("step-*.pt"))
    assert len(saved) == 1, saved
    step = int(saved[0].read_text().split()[-1])
    assert step >= 20 and saved[0].name in events[[str(e.kind) for e in events].index("recovery-saved")].message
    rec = RecoveryProgressStore(store).get(spot.id)
    assert rec is not None and rec.step == STEP_RESUMED and rec.attempts == 2
    assert _runs(tencent_server) - before == 2  # the sold-out zone, then another one: nothing more
    new = w.ledger.get(rec.new_instance)
    assert new is not None and new.zone != spot.zone and new.spot
    # the job goes on at the saved step, from the code pushed to the new instance
    text = _wait_log(store, rec.new_job, "standin: 400 steps")
    assert f"resumed at step {step}" in text
    assert (new_code / "train_standin.py").exists()
    resumed = JobStore(store).get(rec.new_job)
    assert resumed is not None and resumed.host == new.id and resumed.name == "resnet"
    run = RunStore(store).run_of(spot.id)
    assert run is not None and run.instance_ids == (spot.id, new.id)
    actions = [a.action for a in reversed(w.audit.list(limit=200)) if a.resource == spot.id]
    assert actions.index("guard-recovery-saved") < actions.index("guard-recovery-relaunched") \
        < actions.index("guard-recovery-resumed")
    # the relaunch carries the policy on, for its own reclaim
    assert RecoveryPolicyStore(store).get(INSTANCE, new.id) is not None
    assert RecoveryPolicyStore(store).get(JOB, rec.new_job) is not None


def _policy(store, target: str, tmp_path: Path, **kw) -> None:
    RecoveryPolicyStore(store).set(INSTANCE, target, RecoveryPolicy(
        checkpoint_remote="~/no-such-folder", checkpoint_local=str(tmp_path / "saved"),
        resume="python3 -c pass {checkpoint}", **kw))


def test_attempts_are_capped_and_counted_at_the_cloud(tencent_service, tencent_server, spot, tmp_path):
    store = tencent_service.store
    _policy(store, spot.id, tmp_path, max_attempts=2, regions=("ap-shanghai",))
    for zone in ("ap-guangzhou-3", "ap-guangzhou-4", "ap-guangzhou-6", "ap-shanghai-2", "ap-shanghai-5"):
        tencent_server.zone_errors[zone] = SOLD_OUT
    before = _runs(tencent_server)
    events: list = []
    w = _watcher(store, events)
    try:
        w.spot_notice(spot.id, _notice(), wait=True)
    finally:
        w.close()
    assert _runs(tencent_server) - before == 2
    assert _kinds(events) == ["recovery-saved", "recovery-gave-up"]
    said = _said(events)
    assert "no checkpoint saved: no file matching * in ~/no-such-folder" in said[0].message
    assert "2 launch attempts are used up" in said[-1].message
    assert RecoveryProgressStore(store).get(spot.id).step == STEP_GAVE_UP


def test_a_notice_for_an_instance_labgpu_did_not_launch_or_in_the_past_relaunches_nothing(
        tencent_service, tencent_server, spot, tmp_path):
    store = tencent_service.store
    _policy(store, spot.id, tmp_path)
    _policy(store, "ins-someone-elses", tmp_path)
    before = _runs(tencent_server)
    events: list = []
    w = _watcher(store, events)
    try:
        w.spot_notice("ins-someone-elses", _notice(), wait=True)
        w.spot_notice(spot.id, _notice(-600), wait=True)  # ten minutes ago
    finally:
        w.close()
    assert _runs(tencent_server) == before
    assert _kinds(events) == ["recovery-skipped", "recovery-skipped"]
    said = _said(events)
    assert "LabGPU did not launch" in said[0].message and "has passed" in said[1].message
    assert RecoveryProgressStore(store).get(spot.id) is None  # a real notice later still recovers


def test_a_second_notice_for_the_same_reclaim_starts_no_second_recovery(tencent_service, tencent_server, spot,
                                                                        tmp_path):
    store = tencent_service.store
    _policy(store, spot.id, tmp_path, max_attempts=1)
    tencent_server.zone_errors[spot.zone] = SOLD_OUT
    before = _runs(tencent_server)
    events: list = []
    w = _watcher(store, events)
    again = _watcher(store, events)  # a second watcher of the same computer (the tray's, say)
    notice = _notice()
    try:
        w.spot_notice(spot.id, notice, wait=True)
        assert w.spot_notice(spot.id, notice, wait=True) is None  # the same reclaim time: said once
        later = SpotNotice("tencent", "terminate", notice.time + timedelta(seconds=30), "")
        w.spot_notice(spot.id, later, wait=True)  # a new time for the same reclaim
    finally:
        w.close()
    try:
        again.spot_notice(spot.id, notice, wait=True)  # the lock is free now: it acts, and finds it done
    finally:
        again.close()
    assert _runs(tencent_server) - before == 1
    assert _kinds(events) == ["recovery-saved", "recovery-gave-up", "recovery-skipped", "recovery-skipped"]
    assert "already started (gave up)" in _said(events)[-1].message


def test_only_the_watcher_holding_the_lock_acts(tencent_service, tencent_server, spot, tmp_path):
    store = tencent_service.store
    _policy(store, spot.id, tmp_path, max_attempts=1)
    holder = _watcher(store, [])
    assert holder.acquire()
    events: list = []
    other = _watcher(store, events)
    before = _runs(tencent_server)
    try:
        assert other.start_recovery(spot.id, _notice().time) is None
    finally:
        other.close()
        holder.close()
    assert _runs(tencent_server) == before and _kinds(events) == []
    assert RecoveryProgressStore(store).get(spot.id) is None


# the first watcher's thread is "killed" by a SystemExit the test raises in it: that end is the point
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_watcher_restart_mid_launch_goes_on_with_the_same_request_and_launches_once(
        tencent_service, tencent_server, sshd, spot, tmp_path):
    """The launch request reached the cloud but its answer was lost, and the watcher died before asking
    again: the next watcher sends the stored client token, gets the instance the cloud made, and resumes."""
    from tests.fixtures.tencent_cvm_server import DROP

    store = tencent_service.store
    _policy(store, spot.id, tmp_path, max_attempts=1)
    tencent_server.fail_next("RunInstances", DROP)  # carried out; the answer never comes
    before = _runs(tencent_server)

    def dies(_s: float) -> None:
        raise SystemExit("the watcher is killed while it waits to ask again")

    events: list = []
    first = Watcher(default_paths(), store=store, notify=events.append, sleep=dies)
    try:
        first.spot_notice(spot.id, _notice(), wait=True)
    finally:
        first.close()
    rec = RecoveryProgressStore(store).get(spot.id)
    assert rec is not None and rec.step == STEP_LAUNCHING and rec.token
    assert _runs(tencent_server) - before == 1 and len(tencent_server.instances) == 2
    again = _watcher(store, events)
    try:
        assert len(again.resume_recoveries(wait=True)) == 1
        assert again.resume_recoveries(wait=True) == []  # once per watcher
    finally:
        again.close()
    rec = RecoveryProgressStore(store).get(spot.id)
    assert rec is not None and rec.step == STEP_RESUMED, rec
    assert _runs(tencent_server) - before == 1 and len(tencent_server.instances) == 2  # never a second one
    assert rec.new_instance in tencent_server.instances
    assert _kinds(events)[-2:] == ["recovery-relaunched", "recovery-resumed"]


def test_a_relaunch_that_is_itself_reclaimed_recovers_again_in_the_same_run(tencent_service, tencent_server,
                                                                             spot, tmp_path):
    store = tencent_service.store
    _policy(store, spot.id, tmp_path, max_attempts=3)
    tencent_server.zone_errors[spot.zone] = SOLD_OUT
    before = _runs(tencent_server)
    events: list = []
    w = _watcher(store, events)
    try:
        w.spot_notice(spot.id, _notice(), wait=True)
        second = RecoveryProgressStore(store).get(spot.id).new_instance
        w.spot_notice(second, _notice(), wait=True)  # the relaunch is reclaimed too
    finally:
        w.close()
    third = RecoveryProgressStore(store).get(second)
    assert third is not None and third.step == STEP_RESUMED and third.attempts_before == 2
    assert _runs(tencent_server) - before == 3  # 2 + 1: within the run's 3 attempts
    run = RunStore(store).run_of(spot.id)
    assert run is not None and run.instance_ids == (spot.id, second, third.new_instance)
    assert _kinds(events).count("recovery-resumed") == 2


def test_a_budget_that_runs_out_halfway_stops_before_the_next_launch(tencent_service, tencent_server, spot,
                                                                      tmp_path):
    """The budget pays for the first relaunch; an hour later the relaunch is reclaimed, and the run's cost so
    far plus an hour of the next instance would pass it: no launch, and the sentence says the numbers."""
    from tests.fixtures.tencent_cvm_server import TYPES

    store = tencent_service.store
    tencent_service.refresh_prices("lab", [GN7])
    cap = round(TYPES[GN7][4] * 0.8, 4)  # the default spot maximum: what an hour of a relaunch may cost
    _policy(store, spot.id, tmp_path, budget=round(cap * 1.5, 2))
    before = _runs(tencent_server)
    offset = [0.0]
    events: list = []
    import time as _time

    w = Watcher(default_paths(), store=store, notify=events.append, sleep=lambda _s: None,
                clock=lambda: _time.time() + offset[0])
    try:
        w.spot_notice(spot.id, _notice(), wait=True)
        second = RecoveryProgressStore(store).get(spot.id).new_instance
        assert second and _runs(tencent_server) - before == 1
        offset[0] = 3600.0
        later = SpotNotice("tencent", "terminate", datetime.fromtimestamp(w.clock() + 120, timezone.utc), "")
        w.spot_notice(second, later, wait=True)
    finally:
        w.close()
    assert _runs(tencent_server) - before == 1
    gave_up = _said(events)[-1]
    assert str(gave_up.kind) == "recovery-gave-up" and "would be passed" in gave_up.message, gave_up.message
    assert RecoveryProgressStore(store).get(second).step == STEP_GAVE_UP


def test_a_watcher_that_closes_mid_recovery_leaves_it_to_the_next_one(tencent_service, tencent_server, spot,
                                                                       tmp_path):
    store = tencent_service.store
    _policy(store, spot.id, tmp_path, max_attempts=2)
    before = _runs(tencent_server)
    events: list = []
    w = _watcher(store, events)

    def closing(ev) -> None:
        events.append(ev)
        if str(ev.kind) == "recovery-saved":
            w._closed.set()  # what close() does first: the recovery stops at its next step

    w.notify = closing
    try:
        w.spot_notice(spot.id, _notice(), wait=True)
    finally:
        w.close()
    assert RecoveryProgressStore(store).get(spot.id).step == "relaunching" and _runs(tencent_server) == before
    nxt = _watcher(store, events)
    try:
        nxt.resume_recoveries(wait=True)
    finally:
        nxt.close()
    assert RecoveryProgressStore(store).get(spot.id).step == STEP_RESUMED
    assert _runs(tencent_server) - before == 1
    assert _kinds(events) == ["recovery-saved", "recovery-relaunched", "recovery-resumed"]


def test_with_every_zone_sold_out_it_relaunches_on_the_other_cloud_allowed(tencent_service, tencent_server,
                                                                            alibaba_server, spot, tmp_path):
    """The policy allows an Alibaba account (its own type name): every Tencent zone is sold out, so the run
    goes on there — linked across clouds. The Alibaba peer's instance has no SSH server behind it, so the
    job cannot be started: the recovery says so (the instance keeps running), on a fake clock."""
    from app.cloud.base import Account, Credentials
    from tests.fixtures.alibaba_ecs_server import TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET

    store = tencent_service.store
    tencent_service.accounts.add(Account("ali", "alibaba", "cn-hangzhou", f"http://{alibaba_server.endpoint}"),
                                 Credentials(TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET))
    tencent_service.refresh_prices("ali", ["ecs.gn7i-c8g1.2xlarge"])  # the spot maximum needs its price
    _policy(store, spot.id, tmp_path, max_attempts=5, accounts=("ali:ecs.gn7i-c8g1.2xlarge",))
    for zone in ("ap-guangzhou-3", "ap-guangzhou-4", "ap-guangzhou-6"):
        tencent_server.zone_errors[zone] = SOLD_OUT
    before = _runs(tencent_server)
    now = [datetime.now(timezone.utc).timestamp()]
    events: list = []

    def sleep(s: float) -> None:
        now[0] += s

    w = Watcher(default_paths(), store=store, notify=events.append, sleep=sleep, clock=lambda: now[0])
    try:
        w.spot_notice(spot.id, _notice(), wait=True)
    finally:
        w.close()
    rec = RecoveryProgressStore(store).get(spot.id)
    assert _runs(tencent_server) - before == 3 and len(alibaba_server.requests_of("RunInstances")) == 1, \
        [e.message for e in events]
    new = w.ledger.get(rec.new_instance)
    assert new is not None and new.provider == "alibaba" and new.instance_type == "ecs.gn7i-c8g1.2xlarge"
    assert RunStore(store).run_of(spot.id).instance_ids == (spot.id, new.id)
    assert _kinds(events) == ["recovery-saved", "recovery-relaunched", "recovery-gave-up"]
    assert "did not answer over SSH" in _said(events)[-1].message and rec.step == STEP_GAVE_UP
