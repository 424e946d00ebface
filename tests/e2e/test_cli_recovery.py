"""`labgpu recovery set|show|rm` as a student runs it: a spot instance's policy and a job's (by its name),
changed option by option, shown (with the run the instance is in), refused with a next step when wrong,
and removed — all in the store the watcher's recovery reads (app.core.recoverypolicy)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone

import pytest

from app.core.instances import Ledger
from app.core.jobs import JobRecord, JobStore
from app.core.paths import default_paths
from app.core.recoverypolicy import INSTANCE, JOB, RecoveryPolicyStore
from app.core.runs import RunStore
from app.core.store import Store
from tests.e2e.instance_support import cli, ok

T0 = datetime(2026, 12, 1, 8, 0, tzinfo=timezone.utc)
JOB_ID = "0123456789abcdef"


@dataclass(frozen=True)
class Inst:
    id: str
    zone: str = "ap-guangzhou-3"
    state: str = "running"
    launched_at: datetime | None = T0
    account: str = "lab"
    provider: str = "tencent"
    region: str = "ap-guangzhou"
    instance_type: str = "GN7.2XLARGE32"
    spot: bool = True
    public_ip: str = ""
    private_ip: str = ""
    price_per_hour: float | None = 7.0
    currency: str = "CNY"
    name: str = ""
    image_id: str = ""
    key_name: str = ""
    raw_state: str = ""
    tags: dict = field(default_factory=dict)


@pytest.fixture
def seeded(labgpu_home):
    store = Store(paths=default_paths())
    try:
        Ledger(store).observe(Inst("ins-spot1"), now=T0)
        Ledger(store).observe(Inst("ins-spot2", zone="ap-guangzhou-6"), now=T0)
        RunStore(store).link("tencent", "ins-spot1", "tencent", "ins-spot2", now=T0)
        JobStore(store).save(JobRecord(JOB_ID, "ins-spot2", name="resnet", argv=["python", "train.py"]))
    finally:
        store.close()


def _policies() -> RecoveryPolicyStore:
    return RecoveryPolicyStore(Store(paths=default_paths()))


def test_set_show_and_rm_an_instances_policy(seeded):
    out = ok("recovery", "set", "ins-spot2", "--resume", "python train.py --resume {checkpoint}",
             "--checkpoint", "/root/ckpt=./ckpt", "--code", "./src=/root/src", "--regions", "ap-shanghai",
             "--on-demand", "--budget", "50", "--max-attempts", "3").stdout
    assert "Recovery policy of instance ins-spot2:" in out
    assert "Resume with: python train.py --resume {checkpoint}" in out
    assert "Relaunch in: the same zone → the other zones → ap-shanghai" in out and "As: spot, on demand" in out
    pol = _policies().get(INSTANCE, "ins-spot2")
    assert (pol.checkpoint_remote, pol.checkpoint_local, pol.code_local, pol.code_remote) == \
        ("/root/ckpt", "./ckpt", "./src", "/root/src")
    assert pol.regions == ("ap-shanghai",) and pol.on_demand and pol.budget == 50.0 and pol.max_attempts == 3

    # a later set changes only what it names
    ok("recovery", "set", "ins-spot2", "--same-zone-only", "--no-budget")
    pol = _policies().get(INSTANCE, "ins-spot2")
    assert not pol.other_zones and pol.budget is None and pol.max_attempts == 3 and pol.regions == ("ap-shanghai",)

    shown = ok("recovery", "show", "ins-spot2").stdout
    assert "Relaunch in: the same zone → ap-shanghai" in shown
    assert "ins-spot1 → ins-spot2" in shown  # the run it is in
    doc = json.loads(ok("recovery", "show", "ins-spot2", "--json").stdout)
    assert doc[0]["kind"] == "instance" and doc[0]["policy"]["max_attempts"] == 3
    assert [m["id"] for m in doc[0]["run"]["instances"]] == ["ins-spot1", "ins-spot2"]

    assert "Removed the recovery policy of instance ins-spot2." in ok("recovery", "rm", "ins-spot2").stdout
    assert _policies().get(INSTANCE, "ins-spot2") is None
    again = cli("recovery", "rm", "ins-spot2")
    assert again.returncode != 0 and "ins-spot2 has no recovery policy." in again.stderr


def test_a_jobs_policy_by_its_name_and_the_list(seeded):
    ok("recovery", "set", "resnet", "--resume", "python train.py --resume {checkpoint}")
    assert _policies().get(JOB, JOB_ID).resume == "python train.py --resume {checkpoint}"
    ok("recovery", "set", "ins-spot1", "--resume", "bash resume.sh {checkpoint}", "--disable")
    listed = ok("recovery", "show").stdout
    assert JOB_ID in listed and "ins-spot1" in listed
    doc = json.loads(ok("recovery", "show", "--json").stdout)
    assert {(d["kind"], d["target"], d["policy"]["enabled"]) for d in doc} == {
        ("job", JOB_ID, True), ("instance", "ins-spot1", False)}


@pytest.mark.parametrize(("args", "says"), [
    (("nobody", "--resume", "x {checkpoint}"), "No instance or job named nobody."),
    (("ins-spot1",), "Recovery needs a resume command"),
    (("ins-spot1", "--resume", "python t.py --resume {ckpt}"), "may hold {checkpoint} and no other"),
    (("ins-spot1", "--resume", "x", "--checkpoint", "/root/ckpt"), "is not a pair of folders"),
    (("ins-spot1", "--resume", "x", "--checkpoint", "ckpt=./ckpt"), "must start with / or ~/"),
    (("ins-spot1", "--resume", "x", "--no-spot"), "Allow spot, on-demand or both"),
    (("ins-spot1", "--resume", "x", "--max-attempts", "99"), "from 1 to 50"),
    (("ins-spot1", "--resume", "x", "--budget", "-3"), "must be a positive amount"),
])
def test_bad_input_is_refused_with_a_next_step_and_nothing_stored(seeded, args, says):
    r = cli("recovery", "set", *args)
    assert r.returncode != 0 and says in r.stderr, r.stderr
    assert _policies().all() == []


@pytest.fixture
def trainbox(private_home, labgpu_home):
    from tests.remote.jobs_support import jobs_server, saved

    with jobs_server() as srv, saved(srv, "trainbox") as name:
        yield name


def test_labgpu_run_sets_the_jobs_policy_and_refuses_a_bad_one_before_starting(trainbox):
    bad = cli("run", trainbox, "--recovery-resume", "python t.py --resume {ckpt}", "--", "sleep", "600")
    assert bad.returncode != 0 and "{checkpoint}" in bad.stderr and "Traceback" not in bad.stderr
    assert JobStore(Store(paths=default_paths())).all() == []  # nothing started
    r = ok("run", trainbox, "--json", "--recovery-resume", "sleep 600 # {checkpoint}",
           "--recovery-checkpoint", "/tmp/ckpt=./ckpt", "--", "sleep", "600")
    job = json.loads(r.stdout)
    try:
        assert job["recovery"]["resume"] == "sleep 600 # {checkpoint}"
        pol = _policies().get(JOB, job["id"])
        assert pol.checkpoint_remote == "/tmp/ckpt" and pol.checkpoint_local == "./ckpt" and pol.spot
        assert "Resume with: sleep 600 # {checkpoint}" in ok("recovery", "show", job["id"]).stdout
    finally:
        ok("jobs", "stop", job["id"], "--grace", "5")


def test_labgpu_launch_spot_saves_the_instances_policy(secret_service, tencent_server, labgpu_home, monkeypatch):
    from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY

    tencent_server.pending_seconds = 0.0
    tencent_server.operation_seconds = 0.05
    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", tencent_server.endpoint + "/_ip")
    ok("accounts", "add", "tencent", "lab", "--region", "ap-guangzhou", "--endpoint", tencent_server.endpoint,
       stdin=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n")
    # refused before any cloud call: on demand is never reclaimed; a resume command without {checkpoint} field
    for args, code in ((("--recovery-resume", "python t.py --resume {checkpoint}"), "RecoveryNotSpot"),
                       (("--spot", "--recovery-checkpoint", "/root/ckpt=./ckpt"), "RecoveryResume")):
        r = cli("launch", "--account", "lab", "--type", "GN7.2XLARGE32", *args)
        assert r.returncode != 0 and f"[{code}]" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert json.loads(ok("ls", "--json").stdout) == []
    inst = json.loads(ok("launch", "--account", "lab", "--type", "GN7.2XLARGE32", "--spot", "--json",
                         "--recovery-resume", "python train.py --resume {checkpoint}",
                         "--recovery-checkpoint", "/root/ckpt=./ckpt", "--recovery-code", "./src=/root/src").stdout)
    try:
        assert inst["spot"] is True and inst["recovery"]["resume"] == "python train.py --resume {checkpoint}"
        pol = _policies().get(INSTANCE, inst["id"])
        assert (pol.checkpoint_remote, pol.code_remote) == ("/root/ckpt", "/root/src")
    finally:
        ok("terminate", inst["id"])
