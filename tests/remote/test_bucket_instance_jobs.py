"""A job whose pair names a bucket: the host fetches the bucket's prefix with presigned links before the
job starts (the job reads what was fetched), and a host → bucket pair pushes its results after; the
strict S3 peer (path style over loopback) and an sshd of the test's own (curl on its PATH)."""

from __future__ import annotations

import os
import threading

import pytest

from app.core.errors import LabGpuError
from app.core.jobs import JobSpec
from app.core.paths import default_paths
from app.core.store import Store
from app.core.syncmodel import DOWN
from app.core.syncpairs import SyncPair, SyncStore
from app.usecases import jobs as usecase
from app.usecases.bucketinstance import is_instance_pair, run_pair
from app.usecases.sync import pull_for_guard
from tests.fixtures.s3_peer import S3Peer
from tests.remote.bucket_instance_support import grep_tree, host_home, save_account, saved_host, tools_server
from tests.remote.jobs_support import cleanup_jobs

BUCKET = "lab-jobs"


@pytest.fixture
def lab(s3_peer: S3Peer, secret_service):
    s3_peer.make_bucket("s3", BUCKET, "us-east-1")
    account, creds = s3_peer.account("lab", "s3", "us-east-1", virtual=False)
    save_account(account, creds)
    return account, creds


def _log(store, job_id: str, until: str) -> str:
    stop = threading.Event()
    timer = threading.Timer(60, stop.set)
    timer.start()
    text = ""
    try:
        for chunk in usecase.follow(default_paths(), store, job_id, from_offset=0, stop_event=stop, poll_s=0.1):
            text += chunk
            if until in text:
                break
    finally:
        timer.cancel()
    return text


def test_a_jobs_bucket_pair_is_fetched_by_the_host_before_it_starts_and_results_pushed_after(s3_peer, lab):
    _account, creds = lab
    s3_peer.put("s3", BUCKET, "ds/labels.txt", b"cat\ndog\n")
    s3_peer.put("s3", BUCKET, "ds/img/0.bin", os.urandom(20_000))
    store = Store(paths=default_paths())
    with tools_server("curl", "python3") as host:
        name = saved_host(host, "gpu1")
        work = host.remote_dir("job-data")
        try:
            pair = usecase.upload_pair(store, name, f"s3://{BUCKET}/ds", str(work), account="lab")
            assert usecase.upload_pair(store, name, f"s3://{BUCKET}/ds/", str(work), account="lab") == pair
            steps: list[str] = []
            rec = usecase.start_job(default_paths(), store, JobSpec(
                host=name, argv=["sh", "-c", "wc -l < labels.txt; ls img > out.txt; echo done"],
                workdir=str(work), sync_pair=pair), on_step=steps.append)
            assert any("fetches" in s and BUCKET in s for s in steps), steps
            text = _log(store, rec.id, "done")
            assert "2\n" in text and "done" in text, text
            # the results go back: a host → bucket pair of the same folder
            back = SyncStore(store).save(SyncPair(host=name, local_path=f"s3://{BUCKET}/results",
                                                  remote_path=str(work), direction=DOWN, account="lab"))
            assert is_instance_pair(back)
            # a guard's pull before a stop pushes them: the host uploads them itself
            assert pull_for_guard(default_paths(), store, name, "before-stop") == 1
            assert s3_peer.get("s3", BUCKET, "results/out.txt") == b"0.bin\n"
            result = run_pair(default_paths(), back)  # again: nothing left to move
            assert result.complete and result.files == 0 and result.direction == DOWN, result.summary()
            assert result.server["upload_with"] == "curl"
            assert grep_tree(host_home(host), creds.key_id, creds.secret) == []
        finally:
            cleanup_jobs(name)
            store.close()


def test_a_bucket_pair_that_cannot_be_fetched_starts_no_job(s3_peer, lab):
    s3_peer.put("s3", BUCKET, "ds/a.txt", b"a")
    store = Store(paths=default_paths())
    with tools_server() as host:  # no curl, wget or python3: nothing can fetch
        name = saved_host(host, "bare1")
        try:
            pair = usecase.upload_pair(store, name, f"s3://{BUCKET}/ds", str(host.remote_dir("d")), account="lab")
            with pytest.raises(LabGpuError) as err:
                usecase.start_job(default_paths(), store, JobSpec(host=name, argv=["true"], sync_pair=pair))
            assert err.value.code == "NoFetcher"
            assert usecase.list_jobs(default_paths(), store, name, refresh=False) == []
        finally:
            store.close()
