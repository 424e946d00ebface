"""The Watcher and training jobs on a real sshd: a job on a Tencent-peer instance (the peer reports 127.0.0.1,
the student's ~/.ssh/config gives the sshd's port) ends, the host's download pairs are pulled first and the
results are local, then the peer shows the instance stopped — once, even after a watcher restart; a job
that fails is pulled and told but its instance keeps running unless the student chose to stop it then too;
a stalled stand-in (alive, silent) raises the stall event on a fake clock, once per stall.

Each test waits on the job itself (its log read to the end, or to the stall point), never on a sleep."""

from __future__ import annotations

import json
import shutil
import sysconfig
import threading
import time
from pathlib import Path

import pytest

from app.cloud.launch_plan import LaunchOptions
from app.core.jobs import JobSpec, JobStore
from app.core.paths import default_paths
from app.core.syncmodel import DOWN
from app.core.syncpairs import SyncPair, SyncStore
from app.core.vocab import GuardEventKind, JobState, JobThen
from app.usecases import jobs as usecase
from app.usecases.guards import watcher_pull
from app.watch import Watcher
from tests.e2e.instance_support import GN7, serve_instances_from
from tests.fixtures.waits import wait_for
from tests.remote.gpu_support import save_host
from tests.remote.jobs_support import remove_job

STANDIN = Path(__file__).resolve().parents[1] / "fixtures" / "train_standin.py"
SITE = sysconfig.get_paths()["purelib"]  # tqdm and tensorboardX for the host's python3


@pytest.fixture(autouse=True)
def _own_jobs_removed(sshd):
    """The folders of the jobs this test started on the session's sshd are removed after it (the server
    user's home is shared by the suite: left there, they pile up in every later test's listing)."""
    yield
    from app.core.store import Store

    store = Store(paths=default_paths())
    try:
        ids = [r.id for r in JobStore(store).all() if r.origin == "here"]
    finally:
        store.close()
    for jid in ids:
        shutil.rmtree(f"{sshd.pw.pw_dir}/.labgpu/jobs/{jid}", ignore_errors=True)


def _standin(sshd, name: str) -> str:
    """The training stand-in, copied where the server user can run it."""
    folder = sshd.remote_dir(name)
    (folder / "train_standin.py").write_text(STANDIN.read_text())
    sshd.chown_to_user(folder)
    return str(folder / "train_standin.py")


def _wait_log(store, job_id: str, until, timeout_s: float = 60.0) -> str:
    """Follow the job's log (event-driven: each chunk as it comes) until ``until`` (a text, or a test of the
    text so far) holds or the job ends."""
    test = until if callable(until) else (lambda text: until in text)
    stop = threading.Event()
    timer = threading.Timer(timeout_s, stop.set)
    timer.start()
    text = ""
    try:
        for chunk in usecase.follow(default_paths(), store, job_id, from_offset=0, stop_event=stop, poll_s=0.1):
            text += chunk
            if test(text):
                break
    finally:
        timer.cancel()
    assert test(text), text[-2000:]
    return text


@pytest.fixture
def instance(tencent_service, tencent_server, sshd, private_home, monkeypatch):
    """A running instance on the Tencent peer whose SSH server is the session's sshd."""
    serve_instances_from(sshd, tencent_server, private_home, monkeypatch)
    res = tencent_service.launch(LaunchOptions(account="lab", instance_type=GN7, ssh_from="198.51.100.7/32"))
    assert res.entry.state == "running"
    return res.entry.id


def _pull_pair(store, host: str, remote: Path, local: Path) -> None:
    SyncStore(store).save(SyncPair(host=host, local_path=str(local), remote_path=str(remote), direction=DOWN))


def _kinds(events) -> list[str]:
    return [str(e.kind) for e in events]


def test_a_job_that_ends_is_pulled_then_its_instance_stopped_once(tencent_service, tencent_server, sshd,
                                                                  instance, tmp_path):
    store, paths = tencent_service.store, default_paths()
    script = _standin(sshd, "jobwatch-ok")
    results = sshd.remote_dir("jobwatch-results")
    local = tmp_path / "results"
    _pull_pair(store, instance, results, local)
    # the run writes its checkpoint at the end, as a training script does
    argv = ["sh", "-c", 'python3 "$1" --steps 20 --sleep 0.01 --site "$2" && echo weights > "$3/final.pt"',
            "train", script, SITE, str(results)]
    rec = usecase.start_job(paths, store, JobSpec(host=instance, argv=argv, name="resnet",
                                                  then=JobThen.PULL_AND_STOP))
    watcher = Watcher(paths, store=store, pull=watcher_pull(paths, store))
    try:
        _wait_log(store, rec.id, "standin: 20 steps")
        _wait_exit(store, rec.id)
        events = watcher.check_jobs()
        assert _kinds(events) == ["job-ended", "stopped"], [e.message for e in events]
        assert events[0].target_id == instance and "resnet" in events[0].message
        assert events[0].detail["job"] == rec.id and events[0].detail["exit_code"] == 0
        # the results are local, and the stop reached the cloud after the pull
        assert (local / "final.pt").read_text() == "weights\n"
        assert len(tencent_server.requests_of("StopInstances")) == 1
        assert tencent_server.billing_state(instance)[0] in ("STOPPING", "STOPPED")
        actions = [a.action for a in reversed(watcher.audit.list(limit=200)) if a.resource == instance]
        from app.core import logsetup  # a test that registered a word as a secret would redact the audit's words

        assert "sync-before-stop" in actions, ([(a.action, a.resource) for a in watcher.audit.list(limit=40)],
                                               [x for x in logsetup._known_secrets if x in "sync-before-stop"])
        assert actions.index("guard-job-ended") < actions.index("sync-before-stop") < actions.index("guard-stop")
        assert JobStore(store).get(rec.id).then_done == "pulled; stopped"
        assert watcher.check_jobs() == []  # handled once
    finally:
        watcher.close()
    again = Watcher(paths, store=store, pull=watcher_pull(paths, store))  # a restart: still handled once
    try:
        assert again.check_jobs() == []
    finally:
        again.close()
    assert len(tencent_server.requests_of("StopInstances")) == 1


def _wait_exit(store, job_id: str) -> None:
    """Until the host has the job's exit status (the wrapper writes it right after the command ends)."""
    stop = threading.Event()
    timer = threading.Timer(30.0, stop.set)
    timer.start()
    try:
        for _chunk in usecase.follow(default_paths(), store, job_id, from_offset=None, stop_event=stop, poll_s=0.1):
            pass  # follow ends once the job has ended and its log is read
    finally:
        timer.cancel()
    assert not stop.is_set(), "the job did not end"


@pytest.mark.parametrize("chosen", [False, True])
def test_a_failed_job_is_pulled_and_told_and_stops_its_instance_only_when_chosen(
        tencent_service, tencent_server, sshd, instance, tmp_path, chosen):
    store, paths = tencent_service.store, default_paths()
    script = _standin(sshd, f"jobwatch-fail-{chosen}")
    results = sshd.remote_dir(f"jobwatch-fail-results-{chosen}")
    (results / "last.pt").write_text("half-trained")
    sshd.chown_to_user(results)
    local = tmp_path / "results"
    _pull_pair(store, instance, results, local)
    rec = usecase.start_job(paths, store, JobSpec(
        host=instance, argv=["python3", script, "--steps", "5", "--sleep", "0.01", "--site", SITE, "--exit", "3"],
        then=JobThen.PULL_AND_STOP, stop_on_failure=chosen))
    watcher = Watcher(paths, store=store, pull=watcher_pull(paths, store))
    try:
        _wait_exit(store, rec.id)
        events = watcher.check_jobs()
        assert events[0].kind == GuardEventKind.JOB_FAILED and "exit code 3" in events[0].message
        assert (local / "last.pt").read_text() == "half-trained"  # pulled either way
        if chosen:
            assert _kinds(events) == ["job-failed", "stopped"]
            assert len(tencent_server.requests_of("StopInstances")) == 1
        else:
            assert _kinds(events) == ["job-failed", "sync-done"]
            assert "keeps running" in events[0].message
            assert tencent_server.requests_of("StopInstances") == []
            assert tencent_server.billing_state(instance)[0] == "RUNNING"
            assert JobStore(store).get(rec.id).then_done == "pulled; not stopped"
    finally:
        watcher.close()


def test_a_stalled_job_raises_the_stall_event_once_on_a_fake_clock(sshd, labgpu_home, secret_service):
    from app.core.settings import SettingsStore
    from app.core.store import Store
    from app.notify.config import ChannelConfig
    from app.notify.dispatch import notifier_for
    from app.notify.manage import save_channel
    from tests.notify import peers as notify_peers

    paths = default_paths()
    store = Store(paths=paths)
    phone = notify_peers.NotifyPeer()  # the student's ntfy topic: the stall notice reaches the phone
    settings = SettingsStore(paths)
    s = settings.load()
    save_channel(s, ChannelConfig(name="phone", kind="ntfy"),
                 {"url": phone.base + notify_peers.NTFY_TOPIC, "token": notify_peers.NTFY_TOKEN})
    settings.save(s)
    save_host(sshd, "stallhost")  # a saved server: the stall guard notifies only
    script = _standin(sshd, "jobwatch-stall")
    t0 = 1_900_000_000.0
    rec = usecase.start_job(paths, store, JobSpec(
        host="stallhost", argv=["python3", script, "--steps", "100", "--sleep", "0.01", "--site", SITE,
                                "--stall-after", "5"],
        stall_minutes=1, stall_action="stop"), now=t0)
    clock = [t0]
    watcher = Watcher(paths, store=store, clock=lambda: clock[0])
    try:
        # after 5 steps the stand-in closes its bar (a last newline) and goes silent, alive
        _wait_log(store, rec.id, lambda text: "5/100" in text and text.endswith("\n"))
        clock[0] = t0 + 30  # the output so far is read: progress at t0 + 30
        assert watcher.check_jobs() == []
        refreshed = JobStore(store).get(rec.id)
        assert refreshed.state == JobState.RUNNING and refreshed.last_progress_at == t0 + 30
        clock[0] = t0 + 30 + 59  # not a minute yet
        assert watcher.check_jobs() == []
        clock[0] = t0 + 30 + 61
        [ev] = watcher.check_jobs()
        assert ev.kind == GuardEventKind.JOB_STALLED and ev.target_id == "stallhost"
        assert "no progress for 1 minutes" in ev.message and "only notifies" in ev.message
        clock[0] = t0 + 600
        assert watcher.check_jobs() == []  # one notice per stall
        assert notifier_for(paths).flush(30)
        [got] = phone.received("ntfy")
        assert got.title == f"Job {rec.id} on stallhost stalled" and "makes no progress" in got.text
    finally:
        watcher.close()
        phone.close()
        usecase.stop_job(paths, store, rec.id, grace_s=2)
        store.close()
    assert json.loads(json.dumps(usecase.job_json(JobStore(Store(paths=paths)).get(rec.id))))["state"] == "exited"


def test_the_running_watcher_pulls_then_terminates_when_the_job_asks(tencent_service, tencent_server, sshd,
                                                                      instance, tmp_path):
    """Watcher.run (as the window, the tray and `labgpu watch` run it) acts on a job's end by itself."""
    store, paths = tencent_service.store, default_paths()
    script = _standin(sshd, "jobwatch-terminate")
    results = sshd.remote_dir("jobwatch-terminate-results")
    (results / "model.safetensors").write_text("final")
    sshd.chown_to_user(results)
    local = tmp_path / "results"
    _pull_pair(store, instance, results, local)
    rec = usecase.start_job(paths, store, JobSpec(
        host=instance, argv=["python3", script, "--steps", "5", "--sleep", "0.01", "--site", SITE],
        then=JobThen.PULL_AND_TERMINATE))
    _wait_exit(store, rec.id)
    seen: list = []
    ended = threading.Event()

    def notify(ev) -> None:
        seen.append(ev)
        if ev.kind in (GuardEventKind.TERMINATED, GuardEventKind.STOP_FAILED, GuardEventKind.TERMINATE_FAILED):
            ended.set()

    watcher = Watcher(paths, store=store, pull=watcher_pull(paths, store), notify=notify)
    assert watcher.acquire()
    stop = threading.Event()
    loop = threading.Thread(target=watcher.run, kwargs={"period_s": 0.05, "until": stop}, name="test-watch-loop")
    loop.start()
    try:
        assert ended.wait(60), [e.message for e in seen]
    finally:
        stop.set()
        loop.join(30)
        watcher.close()
    assert _kinds(seen) == ["job-ended", "terminated"], [e.message for e in seen]
    assert "terminating it" in seen[0].message and "job" in seen[1].message
    assert (local / "model.safetensors").read_text() == "final"
    assert len(tencent_server.requests_of("TerminateInstances")) == 1
    assert tencent_server.requests_of("StopInstances") == []
    assert JobStore(store).get(rec.id).then_done == "pulled; terminated"


def test_a_stalled_job_with_the_stop_action_pulls_and_stops_its_instance_once(tencent_service, tencent_server,
                                                                              sshd, instance, tmp_path):
    store, paths = tencent_service.store, default_paths()
    script = _standin(sshd, "jobwatch-stall-stop")
    results = sshd.remote_dir("jobwatch-stall-results")
    (results / "step-5.pt").write_text("partial")
    sshd.chown_to_user(results)
    local = tmp_path / "results"
    _pull_pair(store, instance, results, local)
    t0 = 1_900_000_000.0
    rec = usecase.start_job(paths, store, JobSpec(
        host=instance, argv=["python3", script, "--steps", "100", "--sleep", "0.01", "--site", SITE,
                             "--stall-after", "5"], stall_minutes=2, stall_action="stop",
        then=JobThen.PULL_AND_STOP), now=t0)
    clock = [t0]
    watcher = Watcher(paths, store=store, pull=watcher_pull(paths, store), clock=lambda: clock[0])
    try:
        _wait_log(store, rec.id, lambda text: "5/100" in text and text.endswith("\n"))
        clock[0] = t0 + 10
        assert watcher.check_jobs() == []
        clock[0] = t0 + 10 + 121
        events = watcher.check_jobs()
        assert _kinds(events) == ["job-stalled", "stopped"], [e.message for e in events]
        assert "then stopping it" in events[0].message
        assert (local / "step-5.pt").read_text() == "partial"
        assert len(tencent_server.requests_of("StopInstances")) == 1
        assert JobStore(store).get(rec.id).then_done == "stalled; pulled; stopped"
        clock[0] = t0 + 3600
        assert watcher.check_jobs() == []  # handled: its end is not acted on again
    finally:
        watcher.close()
        _stop_on(sshd, rec.id)  # the peer's stop does not reach the sshd: the stand-in still runs there
    assert len(tencent_server.requests_of("StopInstances")) == 1


def _stop_on(sshd, job_id: str) -> None:
    from app.remote import jobs as hostjobs
    from app.remote.ssh import open_connection

    save_host(sshd, "jobwatch-direct")
    conn = open_connection("jobwatch-direct")
    try:
        hostjobs.stop(conn, job_id, 2)
    finally:
        conn.close()


def test_another_computer_s_job_that_ended_before_it_was_found_is_not_news(sshd, labgpu_home):
    """A job started from another laptop (found on the host by `labgpu jobs`): one found while it runs is
    told when it ends; one that was over an hour before this computer found it is claimed quietly."""
    from app.core.jobs import JobRecord, iso_utc
    from app.core.store import Store
    from app.remote import jobs as hostjobs
    from app.remote.ssh import open_connection

    paths = default_paths()
    store = Store(paths=paths)
    save_host(sshd, "otherlaptop")
    script = _standin(sshd, "jobwatch-found")
    live = hostjobs.new_id()
    gate = sshd.remote_dir("jobwatch-found-gate") / "go"
    conn = open_connection("otherlaptop")
    try:
        hostjobs.start(conn, live, ["python3", script, "--steps", "2", "--sleep", "0.01", "--site", SITE,
                                    "--hold", str(gate)], "")
    finally:
        conn.close()
    now = time.time()
    old = JobRecord(id=hostjobs.new_id(), host="otherlaptop", origin="host", state=JobState.EXITED, exit_code=0,
                    started=iso_utc(now - 3600), runtime_s=600.0, created_at=now)
    JobStore(store).save(old)
    watcher = Watcher(paths, store=store)
    try:
        usecase.list_jobs(paths, store, "otherlaptop", refresh=True)  # recorded as found there, running
        assert JobStore(store).get(live).origin == "host"
        gate.write_text("go")
        sshd.chown_to_user(gate)
        _wait_exit(store, live)
        mine = [e for e in watcher.check_jobs() if e.detail.get("job") in (old.id, live)]  # the home is shared
        assert [(e.kind, e.detail["job"]) for e in mine] == [(GuardEventKind.JOB_ENDED, live)]
        assert JobStore(store).get(old.id).then_done == "notified"
    finally:
        watcher.close()
        store.close()
        if not gate.exists():  # a failure above: the stand-in would wait for its gate for ever
            gate.write_text("go")
            sshd.chown_to_user(gate)
        shutil.rmtree(f"{sshd.pw.pw_dir}/.labgpu/jobs/{live}", ignore_errors=True)


def test_a_job_whose_instance_was_stopped_meanwhile_is_told_without_a_stop_call(tencent_service, tencent_server,
                                                                                 sshd, instance):
    store, paths = tencent_service.store, default_paths()
    script = _standin(sshd, "jobwatch-stopped-meanwhile")
    rec = usecase.start_job(paths, store, JobSpec(
        host=instance, argv=["python3", script, "--steps", "3", "--sleep", "0.01", "--site", SITE],
        then=JobThen.PULL_AND_STOP))
    _wait_exit(store, rec.id)
    assert usecase.refresh(paths, store, rec.id).state == JobState.EXITED  # the Jobs page saw it end
    tencent_service.stop(instance)  # the student stopped the instance before any watcher ran
    watcher = Watcher(paths, store=store, pull=watcher_pull(paths, store))
    try:
        [ev] = watcher.check_jobs()
    finally:
        watcher.close()
    assert ev.kind == GuardEventKind.JOB_ENDED and "stopped already" in ev.message
    assert len(tencent_server.requests_of("StopInstances")) == 1  # the student's own


def test_a_stop_the_cloud_refuses_at_first_is_told_once_and_retried_until_confirmed(tencent_service,
                                                                                     tencent_server, sshd, instance):
    """The job's stop is the guards' episode: a failed round escalates once, poll_jobs drives the next
    rounds (no guard ticks this instance), and the job's record ends up saying the instance stopped."""
    store, paths = tencent_service.store, default_paths()
    script = _standin(sshd, "jobwatch-retry")
    rec = usecase.start_job(paths, store, JobSpec(
        host=instance, argv=["python3", script, "--steps", "3", "--sleep", "0.01", "--site", SITE],
        then=JobThen.PULL_AND_STOP))
    _wait_exit(store, rec.id)
    tencent_server.fail_next("StopInstances", "InternalError", "backend busy", times=2)
    seen: list = []
    stopped = threading.Event()

    def notify(ev) -> None:
        seen.append(ev)
        if ev.kind == GuardEventKind.STOPPED:
            stopped.set()

    clock = [time.time()]
    watcher = Watcher(paths, store=store, pull=watcher_pull(paths, store), notify=notify, clock=lambda: clock[0],
                      stop_retries=2, retry_delay_s=0.0)
    try:
        events = watcher.check_jobs()
        assert _kinds(events) == ["job-ended", "sync-none", "stop-failed"], [e.message for e in events]
        assert JobStore(store).get(rec.id).then_done == "no pull pair; stop pending"
        assert watcher.stop_pending()[instance]["guard"] == "job " + rec.id
        clock[0] += 60  # past the back-off: the next round
        watcher.poll_jobs()
        assert stopped.wait(30), [e.message for e in seen]
        wait_for(lambda: JobStore(store).get(rec.id).then_done == "no pull pair; stopped", 10, "the outcome")
    finally:
        watcher.close()
    assert _kinds(seen).count("stop-failed") == 1  # told once
    assert len(tencent_server.requests_of("StopInstances")) == 3


def test_a_running_job_whose_instance_was_terminated_is_lost_and_told_once(tencent_service, tencent_server,
                                                                          sshd, instance):
    store, paths = tencent_service.store, default_paths()
    script = _standin(sshd, "jobwatch-terminated")
    rec = usecase.start_job(paths, store, JobSpec(
        host=instance, argv=["python3", script, "--steps", "100000", "--sleep", "0.05", "--site", SITE],
        name="long", then=JobThen.PULL_AND_STOP))
    try:
        tencent_service.terminate(instance)  # the instance went (the console, a reclaim) while the job ran
        watcher = Watcher(paths, store=store, pull=watcher_pull(paths, store))
        try:
            [ev] = watcher.check_jobs()
            assert watcher.check_jobs() == []  # told once
        finally:
            watcher.close()
        assert ev.kind == GuardEventKind.JOB_FAILED and "lost" in ev.message and "terminated" in ev.message
        got = JobStore(store).get(rec.id)
        assert got.state == JobState.LOST and "terminated" in got.error
        assert tencent_server.requests_of("StopInstances") == []  # nothing left to stop
    finally:
        save_host(sshd, "jobwatch-terminated-host")  # the test's sshd still runs the stand-in: end it there
        remove_job("jobwatch-terminated-host", rec.id)
