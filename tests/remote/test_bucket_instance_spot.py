"""Spot recovery with a checkpoint bucket: a reclaim notice on a Tencent-peer spot instance (its SSH host
the test sshd, curl on its PATH) → inside the warning window the instance itself uploads the newest
checkpoint to a COS bucket on the strict S3 peer (presigned links on stdin; no key on the instance),
then the laptop copy follows. The notice is handed to the watcher as the spot watch hands it (see
tests/remote/test_spot_recovery.py); the relaunch is made to give up at once (the zone sold out, one
attempt) so the test stops at what it is about. It waits on the recovery's thread, never on a sleep."""

from __future__ import annotations

import dataclasses

from app.core.paths import default_paths
from app.core.recoverypolicy import JOB, RecoveryPolicy, RecoveryPolicyStore
from app.usecases import jobs as usecase
from tests.remote.bucket_instance_support import grep_tree, host_home, save_account
from tests.remote.test_spot_recovery import SOLD_OUT, _kinds, _notice, _training, _wait_log, _watcher, spot  # noqa: F401

COS = "ckpt-1250000000"


def test_the_instance_uploads_the_checkpoint_to_the_bucket_in_the_warning_window(
        tencent_service, tencent_server, sshd, spot, tmp_path, s3_peer):  # noqa: F811
    store = tencent_service.store
    s3_peer.make_bucket("cos", COS, "ap-guangzhou")
    account, creds = s3_peer.account("ckpt", "cos", "ap-guangzhou", virtual=True)
    save_account(dataclasses.replace(account, extra={**account.extra, "instance_proxy": s3_peer.url}), creds)
    job, ckpt, _code, _new_code, resume = _training(sshd, store, spot.id, tmp_path, "bkt-ckpt")
    _wait_log(store, job.id, "checkpoint step-20.pt")
    saved_dir = tmp_path / "saved"
    RecoveryPolicyStore(store).set(JOB, job.id, RecoveryPolicy(
        checkpoint_remote=str(ckpt), checkpoint_local=str(saved_dir), checkpoint_pattern="step-*.pt",
        checkpoint_bucket=f"cos://{COS}/run1", checkpoint_account="ckpt", resume=resume, max_attempts=1,
        other_zones=False))
    tencent_server.zone_errors[spot.zone] = SOLD_OUT
    events: list = []
    w = _watcher(store, events)
    try:
        assert w.spot_notice(spot.id, _notice(), wait=True) is not None
    finally:
        w.close()
        usecase.stop_job(default_paths(), store, job.id, grace_s=1)
    assert _kinds(events)[0] == "recovery-saved", [e.message for e in events]
    said = next(e.message for e in events if str(e.kind) == "recovery-saved")
    saved = sorted(saved_dir.glob("step-*.pt"))
    assert len(saved) == 1, said
    key = f"run1/{saved[0].name}"
    assert s3_peer.keys("cos", COS) == [key], said
    assert s3_peer.get("cos", COS, key) == saved[0].read_bytes()
    assert f"cos://{COS}/run1" in said and saved[0].name in said
    puts = [r for r in s3_peer.requests if r.method == "PUT" and r.status == 200]
    assert len(puts) == 1 and puts[0].host.startswith(f"{COS}.cos.ap-guangzhou.myqcloud.com")
    assert grep_tree(host_home(sshd), creds.key_id, creds.secret) == []
    assert grep_tree(ckpt, creds.key_id, creds.secret) == []


def test_a_bucket_needs_the_checkpoint_folder_and_a_real_location():
    import pytest

    from app.core.errors import InputError

    with pytest.raises(InputError) as err:
        RecoveryPolicy(checkpoint_bucket="cos://ckpt-1250000000/x", resume="python3 t.py").validate()
    assert err.value.code == "RecoveryPair"
    with pytest.raises(InputError) as err:
        RecoveryPolicy(checkpoint_remote="~/ck", checkpoint_local="/tmp/ck", checkpoint_bucket="cos://Bad_Name/x",
                       resume="python3 t.py").validate()
    assert err.value.code == "BadBucketName"
    ok = RecoveryPolicy(checkpoint_remote="~/ck", checkpoint_local="/tmp/ck", checkpoint_bucket=" s3://lab-ck/r ",
                        checkpoint_account="lab", resume="python3 t.py").validate()
    assert ok.checkpoint_bucket == "s3://lab-ck/r"
    assert RecoveryPolicy.from_json(ok.to_json()) == ok


def test_a_new_instance_fetches_the_checkpoint_the_bucket_holds(s3_peer, secret_service, tmp_path):
    from app.remote.ssh import open_connection
    from app.usecases.spotcheckpoint import fetch_checkpoint
    from tests.remote.bucket_instance_support import saved_host, tools_server

    s3_peer.make_bucket("cos", COS, "ap-guangzhou")
    account, creds = s3_peer.account("ckpt", "cos", "ap-guangzhou", virtual=True)
    save_account(dataclasses.replace(account, extra={**account.extra, "instance_proxy": s3_peer.url}), creds)
    s3_peer.put("cos", COS, "run1/step-30.pt", b"weights at step 30")
    with tools_server("curl") as host:
        name = saved_host(host, "new-inst")
        folder = host.remote_dir("ckpt-new")
        policy = RecoveryPolicy(checkpoint_remote=str(folder), checkpoint_local=str(tmp_path / "s"),
                                checkpoint_bucket=f"cos://{COS}/run1", checkpoint_account="ckpt",
                                resume="python3 t.py --resume {checkpoint}").validate()
        conn = open_connection(name)
        try:
            path = fetch_checkpoint(conn, policy, f"cos://{COS}/run1/step-30.pt")
        finally:
            conn.close()
        assert path == f"{folder}/step-30.pt"
        assert (folder / "step-30.pt").read_bytes() == b"weights at step 30"
        assert grep_tree(host_home(host), creds.key_id, creds.secret) == []
