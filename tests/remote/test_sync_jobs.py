"""The sync use case against the real sshd: a job cancelled mid-transfer stops at once and resumes
later, one transfer per pair at a time (a guard's pull waits for a user's sync of the same pair, an
equal request joins the running job), and what the pair's history keeps.

Transfers are held mid-way by the SFTP gate (tests/fixtures/sftp_gate.py), so every "while it runs"
is a state the test made, never a race; the registry's events say what ran when.
"""

from __future__ import annotations

import os
import threading

import pytest

from app.core.store import Store
from app.core.syncmodel import DOWN, UP, SyncOptions
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
    pull_for_guard,
)
from tests.fixtures.waits import wait_for
from tests.remote.sync_support import part_files, plain_connect, write_tree

MiB = 1024 * 1024
T0 = 1_700_000_000.0


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

    def jobs_with(self, event: str) -> list[SyncJob]:
        with self._lock:
            return [j for e, j in self.events if e == event]


@pytest.fixture
def history(tmp_path):
    store = Store(tmp_path / "labgpu.db")
    yield store
    store.close()


def test_cancel_mid_transfer_stops_at_once_and_the_next_run_resumes(gated_sshd, history, tmp_path):
    """The gate holds the upload after 2 MiB and the step timeout is 10 minutes: only the engine
    closing its own transport can end the job within the bound below."""
    jobs, changes = SyncJobs(), Changes()
    rec = Recorder(jobs, changes)
    ss = SyncStore(history)
    remote = gated_sshd.remote_dir("job-cancel")
    local = tmp_path / "src"
    data = os.urandom(8 * MiB)
    write_tree(local, {"huge.bin": data}, mtime=T0)
    gated_sshd.gate.hold(in_bytes=2 * MiB)
    request = SyncRequest("gpu", str(local), str(remote), SyncOptions(step_timeout=600), pair_id=7)
    job = jobs.start(request, store=ss, connect=plain_connect(gated_sshd), changes=changes)
    temps = lambda: sorted(remote.glob(".huge.bin.*.labgpu-part"))  # noqa: E731
    try:
        gated_sshd.gate.wait_stalled(1)
        wait_for(lambda: temps() and temps()[0].stat().st_size >= MiB, 60, "1 MiB on the server")
        job.cancel()
        assert job.wait(60), "the cancelled job did not end while its transfer was held"
    finally:
        job.cancel()
        gated_sshd.gate.open()
        job.wait(60)
    with pytest.raises(SyncCancelledError):
        job.result()
    assert rec.of(job) == [QUEUED, STARTED, FINISHED]
    gated_sshd.cut_sessions()  # no server process of the cancelled run writes after this
    assert not (remote / "huge.bin").exists()  # nothing partial under the final name
    assert len(temps()) == 1  # what was sent is kept to resume from
    assert [r.result for r in ss.runs(7)] == ["cancelled"]
    assert rec.kinds == [frozenset({Change.SYNC})]

    again = jobs.start(request, store=ss, connect=plain_connect(gated_sshd), changes=changes).result(120)
    assert again.files == 1 and again.bytes < len(data)  # resumed from the verified prefix
    assert (remote / "huge.bin").read_bytes() == data
    assert part_files(remote) == []
    assert [r.result for r in ss.runs(7)] == ["ok", "cancelled"]


def test_a_guard_pull_waits_for_the_users_sync_of_the_same_pair(gated_sshd, history, tmp_path):
    """A user's download of a pair is held mid-transfer; the guard's pull before a stop of the same
    pair is queued, starts only after the user's sync ended, and both get a right result."""
    jobs, changes = SyncJobs(), Changes()
    rec = Recorder(jobs, changes)
    ss = SyncStore(history)
    remote = gated_sshd.remote_dir("job-guard")
    ckpt = os.urandom(6 * MiB)
    write_tree(remote, {"ckpt.pt": ckpt, "log.txt": b"epoch 9"}, mtime=T0)
    local = tmp_path / "ckpts"
    pair = ss.save(SyncPair(host="gpu", local_path=str(local), remote_path=str(remote), direction=DOWN))
    connect = plain_connect(gated_sshd)
    gated_sshd.gate.hold(out_bytes=MiB)
    user = jobs.start(SyncRequest("gpu", pair.local_path, pair.remote_path, pair.options(), pair_id=pair.id),
                      store=ss, connect=connect, changes=changes)
    box: dict[str, object] = {}

    def guard() -> None:
        try:
            box["n"] = pull_for_guard(None, history, "gpu", "before-stop", connect=connect, changes=changes,
                                      jobs=jobs)
        except BaseException as exc:  # noqa: BLE001 - checked below
            box["error"] = exc

    th = threading.Thread(target=guard, daemon=True)
    try:
        gated_sshd.gate.wait_stalled(1)
        th.start()
        [pull] = wait_for(lambda: [j for j in rec.jobs_with(QUEUED) if j is not user], 60, "the guard's pull")
        assert pull.request.purpose == "before-stop"
        assert jobs.job_for("gpu", local, str(remote)) is pull  # the pair's latest job, queued behind
        assert not user.done and STARTED not in rec.of(pull)
    finally:
        gated_sshd.gate.open()
    th.join(120)
    assert not th.is_alive() and box == {"n": 1}, box
    got = user.result(60)
    assert got.complete and got.files == 2
    assert (local / "ckpt.pt").read_bytes() == ckpt
    # one transfer of the pair at a time: the pull began after the user's sync had ended
    assert rec.index(FINISHED, user) < rec.index(STARTED, pull) < rec.index(FINISHED, pull)
    assert pull.result().complete and pull.result().skipped == 2  # verified: nothing left to fetch
    runs = ss.runs(pair.id)
    assert [r.result for r in runs] == ["ok", "ok"]
    assert runs[0].message == "before-stop pull: 0 new or changed file(s), each checked with SHA-256 on both sides"
    assert runs[1].message == "" and runs[1].files == 2
    assert rec.kinds == [frozenset({Change.SYNC})] * 2


def test_an_equal_request_joins_the_running_job(gated_sshd, history, tmp_path):
    jobs, changes = SyncJobs(), Changes()
    rec = Recorder(jobs, changes)
    ss = SyncStore(history)
    remote = gated_sshd.remote_dir("job-join")
    local = tmp_path / "src"
    write_tree(local, {"w.bin": os.urandom(4 * MiB)}, mtime=T0)
    gated_sshd.gate.hold(in_bytes=MiB)
    request = SyncRequest("gpu", str(local), str(remote), SyncOptions(), pair_id=3)
    first = jobs.start(request, store=ss, connect=plain_connect(gated_sshd), changes=changes)
    try:
        gated_sshd.gate.wait_stalled(1)
        # the same folders typed another way, asked again (a second window, the CLI in this process)
        second = jobs.start(SyncRequest("gpu", str(local) + "/", str(remote) + "/", SyncOptions(), pair_id=3),
                            store=ss, connect=plain_connect(gated_sshd), changes=changes)
        assert second is first
        assert rec.of(first) == [QUEUED, STARTED, JOINED]
        # another request of the pair (a preview) is queued behind it instead
        preview = jobs.start(SyncRequest("gpu", str(local), str(remote), SyncOptions(dry_run=True), pair_id=3),
                             store=ss, connect=plain_connect(gated_sshd), changes=changes)
        assert preview is not first and rec.of(preview)[:1] == [QUEUED]
    finally:
        gated_sshd.gate.open()
    assert first.result(120).files == 1
    assert preview.result(120).files == 0  # it ran after the upload: nothing left to do
    assert rec.index(FINISHED, first) < rec.index(STARTED, preview)
    assert [r.result for r in ss.runs(3)] == ["dry-run", "ok"]  # the joined run is one row


def test_history_keeps_runs_by_the_rules(sshd, history, tmp_path):
    jobs, changes = SyncJobs(), Changes()
    rec = Recorder(jobs, changes)
    ss = SyncStore(history)
    connect = plain_connect(sshd)
    remote = sshd.remote_dir("job-rules")
    local = tmp_path / "src"
    write_tree(local, {"a.txt": b"a"}, mtime=T0)

    def run(pair_id: int, local_path, remote_path, purpose: str = "", **kw):
        request = SyncRequest("gpu", str(local_path), str(remote_path), SyncOptions(**kw), pair_id=pair_id,
                              purpose=purpose)
        return jobs.start(request, store=ss, connect=connect, changes=changes).wait(120)

    # a preview that ran is kept; one that failed is not (it changed nothing)
    assert run(1, local, remote, dry_run=True)
    assert run(1, tmp_path / "gone", remote, dry_run=True)
    assert [r.result for r in ss.runs(1)] == ["dry-run"]
    assert not (remote / "a.txt").exists()
    # a sync that ran, then one that failed, with its one-line reason
    assert run(1, local, remote)
    assert run(1, tmp_path / "gone", remote)
    runs = ss.runs(1)
    assert [r.result for r in runs] == ["error", "ok", "dry-run"]
    assert "LocalMissing" in runs[0].message and "does not exist" in runs[0].message
    # a guard's pull that fails says which pull it was
    assert run(2, tmp_path / "down", sshd.remote_dir("job-rules") / "missing", "on-interruption", direction=DOWN)
    [failed] = ss.runs(2)
    assert failed.result == "error" and failed.message.startswith("on-interruption pull failed: ")
    # every row written was said once on the bus, and nothing else
    assert rec.kinds == [frozenset({Change.SYNC})] * 4


def test_a_guard_pull_verifies_whatever_the_pair_says(sshd, history, tmp_path):
    jobs = SyncJobs()
    ss = SyncStore(history)
    remote = sshd.remote_dir("job-verify")
    write_tree(remote, {"c.pt": b"w" * 5000}, mtime=T0)
    pair = ss.save(SyncPair(host="gpu", local_path=str(tmp_path / "c"), remote_path=str(remote),
                            direction=DOWN, verify=False))
    ss.save(SyncPair(host="gpu", local_path=str(tmp_path / "up"), remote_path=str(remote), direction=UP))
    assert pull_for_guard(None, history, "gpu", "before-stop", connect=plain_connect(sshd), jobs=jobs) == 1
    [run] = ss.runs(pair.id)
    assert run.result == "ok" and run.files == 1  # the upload pair is no pull
    assert run.message == "before-stop pull: 1 new or changed file(s), each checked with SHA-256 on both sides"
