"""Spot recovery end to end, with no user action after the policy is set: a Tencent-peer spot instance
whose SSH server runs in a network namespace beside a metadata service at Tencent's real address
(169.254.0.23, metadata.tencentyun.com: tests/fixtures/metadata_service.py) runs the training stand-in;
the metadata answers a termination time two minutes ahead (Tencent posts it about 2 minutes before:
https://cloud.tencent.com/document/product/213/37970); the watcher's spot watch reads it over SSH as it
does on a real CVM, the checkpoint is saved, the same zone is sold out (the peer answers the documented
``ResourceInsufficient.SpecifiedInstanceType``), a new instance launches in another zone, the job resumes
at the saved step (its log says so), the old instance is gone from the API, and `labgpu cost --json` shows
one run with both instances.

The reclaim itself (the old job's process killed, its disk gone, the instance terminated in the peer) is
played by the test the moment the checkpoint is saved, as the cloud would do it then. The new instance is
served by the same namespace sshd (the peer gives every instance 127.0.0.1). Waits are on events and on
the job's log, never on a sleep."""

from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

import pytest

from app.cloud.launch_plan import LaunchOptions
from app.core.paths import default_paths
from app.core.recoverypolicy import JOB, STEP_RESUMED, RecoveryPolicy, RecoveryPolicyStore, RecoveryProgressStore
from app.core.runs import RunStore
from app.usecases import jobs as usecase
from app.usecases.guards import connect_target
from app.watch import Watcher
from tests.e2e.instance_support import GN7, ok, serve_instances_from
from tests.fixtures.metadata_service import MetadataLab
from tests.remote.jobs_support import remove_job
from tests.remote.test_spot_recovery import SITE, SOLD_OUT, STANDIN, _runs, _wait_log


@pytest.fixture
def lab_spot(tencent_service, tencent_server, private_home, monkeypatch):
    with MetadataLab() as lab:
        assert lab.sshd is not None
        server = SimpleNamespace(user=lab.sshd.user, client_key=lab.sshd.client_key, host_key=lab.sshd.host_key,
                                 port=lab.port)
        serve_instances_from(server, tencent_server, private_home, monkeypatch)  # type: ignore[arg-type]
        res = tencent_service.launch(LaunchOptions(account="lab", instance_type=GN7, spot=True, max_price=50.0,
                                                   ssh_from="198.51.100.7/32"))
        assert res.entry.state == "running" and res.entry.spot
        yield lab, res.entry


def test_a_reclaimed_spot_instance_comes_back_by_itself(tencent_service, tencent_server, lab_spot, tmp_path):
    lab, old = lab_spot
    sshd = lab.sshd
    store, paths = tencent_service.store, default_paths()
    first = sshd.remote_dir("e2e-code-old")
    (first / "train_standin.py").write_text(STANDIN.read_text())
    ckpt = sshd.remote_dir("e2e-ckpt")
    new_code = sshd.remote_dir("e2e-code-new")
    for d in (first, ckpt, new_code):
        sshd.chown_to_user(d)
    code = tmp_path / "code"
    code.mkdir()
    (code / "train_standin.py").write_text(STANDIN.read_text())
    job = usecase.start_job(paths, store, usecase.JobSpec(
        host=old.id, name="resnet",
        argv=["python3", str(first / "train_standin.py"), "--steps", "300", "--sleep", "0.05", "--site", SITE,
              "--checkpoint-dir", str(ckpt), "--checkpoint-every", "10", "--no-bar"]))
    # the policy, set once (the Jobs view and `labgpu recovery set` write the same record)
    RecoveryPolicyStore(store).set(JOB, job.id, RecoveryPolicy(
        checkpoint_remote=str(ckpt), checkpoint_local=str(tmp_path / "saved"), checkpoint_pattern="step-*.pt",
        code_local=str(code), code_remote=str(new_code), max_attempts=3,
        resume=f"python3 {new_code}/train_standin.py --steps 300 --sleep 0.01 --site {SITE} "
               f"--checkpoint-dir {ckpt} --checkpoint-every 10 --no-bar --resume {{checkpoint}}"))
    _wait_log(store, job.id, "checkpoint step-20.pt")
    tencent_server.zone_errors[old.zone] = SOLD_OUT
    before = _runs(tencent_server)

    resumed = threading.Event()
    events: list = []

    def notify(ev) -> None:
        events.append(ev)
        if str(ev.kind) == "recovery-saved":  # the cloud takes the instance now
            lab.set_tencent(None)
            usecase.stop_job(paths, store, job.id, grace_s=1)
            for f in ckpt.iterdir():
                f.unlink()
            tencent_service.terminate(old.id)
        if str(ev.kind) in ("recovery-resumed", "recovery-gave-up"):
            resumed.set()

    w = Watcher(paths, store=store, notify=notify)
    try:
        assert w.acquire()
        when = datetime.now(timezone(timedelta(hours=8))).replace(microsecond=0) + timedelta(minutes=2)
        lab.set_tencent(when.strftime("%Y-%m-%d %H:%M:%S"))  # Tencent's answer: UTC+8, no zone
        watches = w.start_spot_watches(lambda target: connect_target(paths, target)(), interval_s=0.2)
        assert [sw.host for sw in watches] == [old.id]
        assert resumed.wait(120), [e.message for e in events]
    finally:
        w.close()
    kinds = [str(e.kind) for e in events]
    assert kinds.count("spot-notice") == 1
    assert [k for k in kinds if k.startswith("recovery-")] == ["recovery-saved", "recovery-relaunched",
                                                               "recovery-resumed"], [e.message for e in events]
    rec = RecoveryProgressStore(store).get(old.id)
    assert rec is not None and rec.step == STEP_RESUMED
    saved = sorted((tmp_path / "saved").glob("step-*.pt"))
    step = int(saved[-1].read_text().split()[-1])
    assert step >= 20
    assert _runs(tencent_server) - before == 2  # the sold-out zone, then another one
    new = w.ledger.get(rec.new_instance)
    assert new is not None and new.zone != old.zone
    text = _wait_log(store, rec.new_job, "standin: 300 steps")
    assert f"resumed at step {step}" in text
    assert tencent_server.billing_state(old.id)[0] in ("SHUTDOWN", "TERMINATING", "LAUNCH_FAILED", "TERMINATED") \
        or old.id not in tencent_server.instances
    assert RunStore(store).run_of(old.id).instance_ids == (old.id, new.id)
    doc = json.loads(ok("cost", "--json").stdout)
    [run] = [r for r in doc["runs"] if r["id"] == rec.run_id]
    assert [m["id"] for m in run["instances"]] == [old.id, new.id]
    remove_job(new.id, job.id)  # the reclaimed instance's job folder, on the same test user as the new one
