"""The student's day, through the CLI: pick an offer, launch it on the local Tencent peer, connect,
sync a dataset up, watch the GPUs (scripted nvidia-smi: busy, then idle), the idle guard pulls the
checkpoints and stops the instance at the peer, and the ledger and `labgpu cost` show the bill.

It is a night's training: the unusual-login hours hold the hour of the run, and the instance's logins are
read from its sshd's own log (``labgpu logins --log``; never this machine's records, which no test owns).
Every session of the day is LabGPU's own — the monitor's, the sync's, the watcher's, the pull's — and
none of them is a login alert.

The peer reports 127.0.0.1 as the instance's public IP; the test's own sshd listens there and the
student's ~/.ssh/config gives its port (the instance record carries no port, as for a real cloud
instance). The login user and key come from instance tags, as a user would set them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import datetime

from app.core.loginstore import LoginSettings
from app.core.paths import default_paths
from app.core.settings import SettingsStore, write_section
from tests.e2e.instance_support import GN7, ROOT, cli, ok, serve_instances_from
from tests.fixtures.fake_nvidia_smi import busy, idle, install_fake_nvidia_smi
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY, TYPES


def test_student_day(secret_service, tencent_server, private_home, tmp_path, monkeypatch, instance_sshd):
    server = instance_sshd
    fake = install_fake_nvidia_smi(server, {"steps": [busy(2)] * 3 + [idle(2)]})
    fake.pin(0)  # training runs until the test lets it finish
    serve_instances_from(server, tencent_server, private_home, monkeypatch)

    # account and an offer
    ok("accounts", "add", "tencent", "lab", "--region", "ap-guangzhou", "--endpoint", tencent_server.endpoint,
       stdin=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n")
    offers = json.loads(ok("prices", "refresh", "--account", "lab", "--type", GN7, "--json").stdout)
    offer = min((o for o in offers if o["instance_type"] == GN7 and not o["sold_out"]),
                key=lambda o: o["price_on_demand"] or 1e9)
    inst = json.loads(ok("launch", "--account", "lab", "--type", GN7, "--zone", offer["zone"], "--json").stdout)
    iid = inst["id"]
    assert inst["state"] == "running" and inst["public_ip"] == "127.0.0.1"
    assert inst["price_per_hour"] == TYPES[GN7][4]

    # a night's training: this hour and the next are "unusual"; the instance's sshd writes its own log
    settings_store = SettingsStore(default_paths())
    settings = settings_store.load()
    hour = datetime.now().astimezone().hour
    write_section(settings, ["logins"], LoginSettings(unusual_from=(hour - 1) % 24, unusual_to=(hour + 2) % 24))
    settings_store.save(settings)
    first = json.loads(ok("logins", iid, "--log", str(server.log_file), "--json").stdout)
    assert first and all(x["own"] and not x["unusual"] for x in first if x["accepted"]), first

    # connect and look at the GPUs: training is running
    doc = json.loads(ok("monitor", iid, "--once", "--json").stdout)
    assert doc["host"] == iid and doc["error"] is None
    assert [g["utilization_gpu"] for g in doc["gpus"]] == [97.0, 96.0]

    # sync the dataset up
    dataset = tmp_path / "dataset"
    dataset.mkdir()
    for i in range(5):
        (dataset / f"part-{i}.bin").write_bytes(os.urandom(20_000))
    remote_data = server.remote_dir("dataset")
    up = json.loads(ok("sync", str(dataset), f"{iid}:{remote_data}", "--json").stdout)
    assert sorted(p.name for p in remote_data.iterdir()) == [f"part-{i}.bin" for i in range(5)]
    assert up

    # the run writes checkpoints on the instance
    ckpt_remote = server.remote_dir("checkpoints")
    (ckpt_remote / "epoch-10.pt").write_bytes(b"weights" * 1000)
    server.chown_to_user(ckpt_remote)
    ckpt_local = tmp_path / "ckpt"

    # guard: idle 3 s (short window for the test) → pull checkpoints, then stop
    ok("guard", "set", iid, "--idle-below", "30", "--idle-minutes", "0.05", "--on-idle", "stop",
       "--pull", f"{ckpt_remote}={ckpt_local}")
    [g] = json.loads(ok("guard", "ls", "--json").stdout)
    assert g["id"] == iid and g["can_stop"] and g["on_idle"] == "stop"

    watch = subprocess.Popen([sys.executable, "-m", "app", "watch", "--json"], cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert watch.stdout is not None and watch.stderr is not None
        assert "Watching 1 guarded target" in watch.stderr.readline()
        second = cli("watch", "--no-wait")  # exactly one watcher: the second is refused, nothing is stopped twice
        assert second.returncode == 2 and "[WatchLocked]" in second.stderr
        assert tencent_server.requests_of("StopInstances") == []  # busy: nothing happens
        fake.pin(None)  # training finishes: the GPUs go idle
        kinds = []
        deadline = time.monotonic() + 120
        while "stopped" not in kinds and "stop-failed" not in kinds and time.monotonic() < deadline:
            line = watch.stdout.readline()
            if not line:
                break
            kinds.append(json.loads(line)["kind"])
        assert kinds == ["idle-notify", "idle-stop", "stopped"], kinds
    finally:
        watch.terminate()
        watch.wait(timeout=60)
    assert watch.returncode == 0

    # checkpoints pulled before the stop; the stop reached the cloud
    assert (ckpt_local / "epoch-10.pt").read_bytes() == b"weights" * 1000
    assert len(tencent_server.requests_of("StopInstances")) == 1
    assert tencent_server.billing_state(iid)[0] in ("STOPPING", "STOPPED")
    audit = list(reversed(json.loads(ok("audit", "--json", "--limit", "500").stdout)))  # oldest first
    actions = [(a["action"], a["result"]) for a in audit if a["resource"] == iid]
    names = [a for a, _ in actions]
    assert names.index("guard-idle-stop") < names.index("sync-before-stop") < names.index("stop")
    assert ("sync-before-stop", "ok") in actions  # the pull finished before the stop call
    # the guard's pull verified what it copied (the pair itself does not ask to), and the history says so
    from app.core.paths import default_paths as home_paths
    from app.core.store import Store
    from app.core.syncpairs import SyncStore

    store = Store(paths=home_paths())
    try:
        runs = [r for r in SyncStore(store).runs() if r.direction == "down"]
    finally:
        store.close()
    assert [r.message for r in runs][:1] == [
        "before-stop pull: 1 new or changed file(s), each checked with SHA-256 on both sides"]
    assert names[-1] == "guard-stop" and actions[-1][1].startswith("ok")

    # every login the watcher read was LabGPU's own: stored as such, none unusual, no alert in the audit log
    from app.core.loginstore import LoginStore

    store = Store(paths=home_paths())
    try:
        accepted = [x for x in LoginStore(store).recent(iid, accepted=True)]
    finally:
        store.close()
    assert len(accepted) >= 4, accepted  # the first read's, the monitor's, the sync's, the watcher's
    assert all(x.own and not x.unusual for x in accepted), accepted
    assert not [a for a in audit if "login" in a["action"]], audit

    # the ledger and the bill
    rows = {r["id"]: r for r in json.loads(ok("ls", "--json", "--offline").stdout)}
    assert rows[iid]["state"] in ("stopping", "stopped")
    cost = json.loads(ok("cost", "--json").stdout)
    [line] = [i for i in cost["instances"] if i["id"] == iid]
    assert line["currency"] == "CNY" and line["hours"] > 0
    price = TYPES[GN7][4]  # per second, each start rounded up to a whole second; hours printed to 4 places
    assert (line["hours"] - 1e-4) * price <= line["cost"] <= (line["hours"] + 1e-4 + 1 / 3600) * price
    assert cost["total"]["cost_cny"] >= line["cost"]
