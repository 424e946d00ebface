"""Bucket pairs in the sync registry (issue 25): a bucket location is a pair's other side like a host's
folder — one transfer per (bucket location, local folder) at a time, an equal request joins, another
queues, and the history keeps its rows by the same rules. Against the strict S3 peer
(tests/fixtures/s3_peer.py: moto behind a proxy that checks signatures) and a real Secret Service for
the account's keys; a transfer is held mid-way by the peer (``peer.hold``), so "while it runs" is a
state the test made, never a race.
"""

from __future__ import annotations

import threading

import pytest

from app.core.accounts import AccountBook
from app.core.errors import LabGpuError
from app.core.store import Store
from app.core.syncmodel import UP, SyncOptions
from app.core.syncpairs import SyncPair, SyncStore
from app.remote.sync import SyncCancelledError
from app.usecases.changes import Change, Changes
from app.usecases.sync import (
    FINISHED,
    JOINED,
    QUEUED,
    STARTED,
    SyncJob,
    SyncJobs,
    SyncRequest,
    pair_request,
)
from tests.fixtures.waits import wait_for
from tests.remote.sync_support import write_tree

T0 = 1_700_000_000.0
URL = "s3://lab-data/imagenet"


class Recorder:
    """The registry's events, in order, and the change kinds emitted."""

    def __init__(self, jobs: SyncJobs, changes: Changes) -> None:
        self.events: list[tuple[str, SyncJob]] = []
        self.kinds: list[frozenset[Change]] = []
        self._lock = threading.Lock()
        jobs.watch(self._on_event)
        changes.subscribe(self.kinds.append)

    def _on_event(self, event: str, job: SyncJob) -> None:
        with self._lock:
            self.events.append((event, job))

    def of(self, job: SyncJob) -> list[str]:
        with self._lock:
            return [e for e, j in self.events if j is job]

    def index(self, event: str, job: SyncJob) -> int:
        with self._lock:
            return next(k for k, (e, j) in enumerate(self.events) if e == event and j is job)


@pytest.fixture
def history(tmp_path):
    store = Store(tmp_path / "labgpu.db")
    yield store
    store.close()


def test_a_bucket_pair_is_one_location_however_it_is_typed():
    opts = SyncOptions()
    a = SyncRequest("", "/data/x", "s3://lab-data/imagenet/", opts, account="lab")
    b = SyncRequest("", "/data/x/", " s3://lab-data/imagenet", opts, account="lab")
    assert a.is_bucket and a.key == b.key == ("", "/data/x", URL)
    assert a.same_run(b)
    # the same location with another key, SSE or account is another run of the pair: it queues
    for other in (SyncRequest("", "/data/x", URL, opts, account="lab", encrypt_key="k"),
                  SyncRequest("", "/data/x", URL, opts, account="lab", sse="kms"),
                  SyncRequest("", "/data/x", URL, opts, account="other")):
        assert other.key == a.key and not a.same_run(other)
    assert not SyncRequest("gpu1", "/data/x", "~/x", opts).is_bucket


def test_a_bucket_job_without_its_account_fails_with_one_row(history, tmp_path):
    """The account is looked up on the job's thread; a missing one is the job's error (recorded like a
    host's failed sync), a failed preview leaves no row."""
    jobs, changes = SyncJobs(), Changes()
    ss = SyncStore(history)
    (tmp_path / "l").mkdir()
    req = SyncRequest("", str(tmp_path / "l"), URL, SyncOptions(), pair_id=4, account="nobody")
    job = jobs.start(req, store=ss, changes=changes)
    assert job.wait(60)
    with pytest.raises(Exception, match="no account named 'nobody'"):
        job.result()
    preview = SyncRequest("", str(tmp_path / "l"), URL, SyncOptions(dry_run=True), pair_id=4, account="nobody")
    assert jobs.start(preview, store=ss, changes=changes).wait(60)
    [row] = ss.runs(4)
    assert (row.result, row.host, row.remote_path) == ("error", "", URL)
    assert "NoSuchAccount" in row.message


def _account(history: Store, peer, name: str = "lab") -> None:
    account, creds = peer.account(name, "s3", "us-east-1")
    AccountBook(history).add(account, creds)
    peer.make_bucket("s3", "lab-data", "us-east-1")


def test_one_transfer_per_bucket_pair_joins_and_queues(s3_peer, secret_service, history, tmp_path):
    jobs, changes = SyncJobs(), Changes()
    rec = Recorder(jobs, changes)
    ss = SyncStore(history)
    _account(history, s3_peer)
    local = tmp_path / "src"
    write_tree(local, {"a.bin": b"a" * 3000, "b/c.txt": b"c"}, mtime=T0)
    pair = ss.save(SyncPair("", str(local), URL, direction=UP, account="lab"))
    held = s3_peer.hold("PutObject")
    first = jobs.start(pair_request(pair), store=ss, changes=changes)
    try:
        wait_for(lambda: held.reached.is_set() or first.done, 60, "the upload at the peer")
        assert not first.done, first.error
        # the same pair asked again (the CLI in this process, a second window): it joins
        again = jobs.start(pair_request(pair), store=ss, changes=changes)
        assert again is first
        # a preview of the pair waits for the upload; a cancelled one never starts
        preview = jobs.start(pair_request(pair, pair.options(dry_run=True)), store=ss, changes=changes)
        dropped = jobs.start(pair_request(pair, pair.options(verify=True)), store=ss, changes=changes)
        assert rec.of(preview) == [QUEUED] and rec.of(dropped) == [QUEUED]
        dropped.cancel()
        assert dropped.wait(60)
        assert STARTED not in rec.of(dropped)
    finally:
        held.release()
    got = first.result(120)
    assert got.complete and got.files == 2 and got.bytes == 3001
    assert preview.result(120).files == 0  # it ran after the upload: nothing left to do
    with pytest.raises(SyncCancelledError):
        dropped.result()
    assert rec.of(first) == [QUEUED, STARTED, JOINED, FINISHED]
    assert rec.index(FINISHED, first) < rec.index(STARTED, preview)
    assert s3_peer.keys("s3", "lab-data", "imagenet/") == ["imagenet/a.bin", "imagenet/b/c.txt"]
    assert s3_peer.get("s3", "lab-data", "imagenet/a.bin") == b"a" * 3000
    # one row per run: the joined run once, the cancelled queued one as cancelled, the preview
    assert sorted(r.result for r in ss.runs(pair.id)) == ["cancelled", "dry-run", "ok"]
    assert all(r.host == "" and r.remote_path == URL for r in ss.runs(pair.id))
    assert rec.kinds == [frozenset({Change.SYNC})] * 3


def test_a_running_bucket_job_cancelled_is_recorded_as_cancelled(s3_peer, secret_service, history, tmp_path):
    jobs, changes = SyncJobs(), Changes()
    ss = SyncStore(history)
    _account(history, s3_peer)
    local = tmp_path / "src"
    write_tree(local, {"a.bin": b"a" * 3000, "b.bin": b"b" * 3000}, mtime=T0)
    held = s3_peer.hold("PutObject")  # the first file's upload waits at the peer; the second never starts
    job = jobs.start(SyncRequest("", str(local), URL, SyncOptions(channels=1), pair_id=9, account="lab"),
                     store=ss, changes=changes)
    try:
        wait_for(lambda: held.reached.is_set() or job.done, 60, "the upload at the peer")
        assert not job.done, job.error
        job.cancel()
    finally:
        held.release()
    assert job.wait(120)
    with pytest.raises(LabGpuError) as caught:
        job.result()
    assert caught.value.code == "Cancelled"
    [row] = ss.runs(9)
    assert row.result == "cancelled" and row.host == "" and row.remote_path == URL
    assert len(s3_peer.keys("s3", "lab-data", "imagenet/")) < 2
