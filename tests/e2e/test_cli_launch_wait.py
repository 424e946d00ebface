"""`labgpu launch --wait` against the Tencent peer, as a student types it: the type is sold out in the zone for
two RunInstances, the command keeps trying (a short backoff from LABGPU_WAIT_BACKOFF_S), lands once, prints
the instance and notifies once on a real ntfy stand-in; `labgpu waits` lists it; a wait that reaches its
deadline ends with a clear message and a non-zero status; a non-capacity error ends it at once."""

from __future__ import annotations

import json

import pytest

from app.core.paths import default_paths
from app.core.settings import SettingsStore
from app.notify.config import ChannelConfig
from app.notify.manage import save_channel
from tests.e2e.instance_support import GN7, cli, ok
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY
from tests.notify import peers as P

ZONE = "ap-guangzhou-3"
LAUNCH = ("launch", "--account", "lab", "--type", GN7, "--ssh-from", "198.51.100.7/32", "--no-guard")


@pytest.fixture
def lab(secret_service, tencent_server, labgpu_home, monkeypatch):
    monkeypatch.setenv("LABGPU_WAIT_BACKOFF_S", "0.2")
    tencent_server.pending_seconds = 0.0
    tencent_server.operation_seconds = 0.05
    ok("accounts", "add", "tencent", "lab", "--region", "ap-guangzhou", "--endpoint", tencent_server.endpoint,
       stdin=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n")
    return tencent_server


@pytest.fixture
def ntfy():
    peer = P.NotifyPeer()
    store = SettingsStore(default_paths())
    st = store.load()
    save_channel(st, ChannelConfig(name="phone", kind="ntfy"), {"url": peer.base + P.NTFY_TOPIC, "token": P.NTFY_TOKEN})
    store.save(st)
    yield peer
    peer.close()


def test_launch_wait_lands_once_after_the_type_frees_up_and_notifies_once(lab, ntfy):
    lab.sell_out(ZONE, 2)
    r = ok(*LAUNCH, "--wait", "--until", "10m", "--zones", ZONE, "--progress", "--json")
    doc = json.loads(r.stdout)
    assert doc["zone"] == ZONE and doc["state"] == "running"
    assert "Waiting for GN7.2XLARGE32 until" in r.stderr
    assert r.stderr.count("still sold out") == 2
    assert len(lab.requests_of("RunInstances")) == 3 and list(lab.instances) == [doc["id"]]
    [w] = json.loads(ok("waits", "--json").stdout)
    assert (w["state"], w["attempts"], w["instance_id"]) == ("landed", 3, doc["id"])
    assert [g.title for g in ntfy.received("ntfy")] == [f"Your GN7.2XLARGE32 is here: {doc['id']}"]
    assert "landed" in ok("waits", "ls").stdout


def test_launch_wait_gives_up_at_the_deadline_and_on_another_error(lab):
    lab.sell_out(ZONE, 10_000)
    r = cli(*LAUNCH, "--wait", "--until", "2s", "--zones", ZONE)
    assert r.returncode == 2, r.stderr
    assert "[WaitEnded] Gave up waiting for GN7.2XLARGE32: the deadline passed after" in r.stderr
    assert "--until" in r.stderr  # the next step
    assert not lab.instances
    lab.sell_out(ZONE, 0)
    lab.fail_next("RunInstances", "InvalidParameterValue.InstanceTypeNotFound")
    n = len(lab.requests_of("RunInstances"))
    r2 = cli(*LAUNCH, "--wait", "--until", "1h", "--zones", ZONE)
    assert r2.returncode == 2 and "[WaitEnded] Gave up waiting for GN7.2XLARGE32: " in r2.stderr, r2.stderr
    assert len(lab.requests_of("RunInstances")) == n + 1 and not lab.instances, r2.stderr
    states = [w["state"] for w in json.loads(ok("waits", "--json").stdout)]
    assert states == ["gave-up", "gave-up"]
    bad = cli("waits", "cancel", "wait-nope")
    assert bad.returncode == 2 and "[NoSuchWait]" in bad.stderr


def test_a_wait_can_be_cancelled_and_bad_durations_are_refused(lab):
    from app.cloud.launch import CloudService
    from app.cloud.launch_plan import LaunchOptions
    from app.core.settings import Settings
    from app.usecases.waitlaunch import WaitLauncher

    r = cli(*LAUNCH, "--wait", "--until", "soon")
    assert r.returncode == 2 and "[BadDuration]" in r.stderr and "6h" in r.stderr
    svc = CloudService()
    try:
        waiter = WaitLauncher(svc, Settings())
        wait = waiter.create(LaunchOptions(account="lab", instance_type=GN7), until_s=3600)
        assert ok("waits", "cancel", wait.id).stdout.strip() == f"{wait.id} cancelled"
        assert not waiter.step(wait.id).acted  # a cancelled wait is never tried
    finally:
        svc.close()
    assert lab.requests_of("RunInstances") == []


def test_ctrl_c_leaves_the_wait_to_the_watcher_which_lands_it_once(lab, monkeypatch):
    """Ctrl+C in `labgpu launch --wait` after a refused round: the wait stays stored with its lease given
    back, and the watcher (the app, the tray or `labgpu watch` started later) lands it, once."""
    import os
    import signal
    import subprocess
    import sys

    from app.core.launchwaits import LaunchWaits
    from app.core.store import Store
    from app.watch import Watcher
    from app.watch.waits import driver_of, poll
    from tests.e2e.instance_support import ROOT
    from tests.fixtures.terminal import sigint_as_in_a_terminal
    from tests.fixtures.waits import wait_for

    lab.sell_out(ZONE, 10_000)
    monkeypatch.setenv("LABGPU_WAIT_BACKOFF_S", "30")  # the command pauses 15–30 s after its refused round
    proc = subprocess.Popen([sys.executable, "-m", "app", *LAUNCH, "--wait", "--until", "1h", "--zones", ZONE],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ),
                            preexec_fn=sigint_as_in_a_terminal)
    store = Store(paths=default_paths())
    waits = LaunchWaits(store)
    try:
        wait_for(lambda: [w for w in waits.all() if w.attempts == 1], 60, "the first refused round")
        proc.send_signal(signal.SIGINT)
        _out, err = proc.communicate(timeout=60)
        assert proc.returncode == 130
        [w] = waits.all()
        assert (w.state, w.attempts, w.owner, w.token) == ("waiting", 1, "", "")
        assert f"Left the wait {w.id} to the watcher" in err
        lab.sell_out(ZONE, 0)  # the type frees up
        clock = [w.next_try + 1]  # the watcher starts when the next round is due
        watcher = Watcher(default_paths(), clock=lambda: clock[0])
        try:
            poll(watcher)
            assert driver_of(watcher).wait_rounds(1)
        finally:
            watcher.close()
        [done] = waits.all()
        assert (done.state, done.attempts) == ("landed", 2)
        assert len(lab.requests_of("RunInstances")) == 2 and list(lab.instances) == [done.instance_id]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        store.close()
