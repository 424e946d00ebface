"""The spot recovery policy: validation (each bad part named, with a next step) and the per-instance /
per-job store (a job's policy wins; it survives a reopen)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from app.core.errors import InputError
from app.core.recoverypolicy import INSTANCE, JOB, RecoveryPolicy, RecoveryPolicyStore
from app.core.store import Store

GOOD = RecoveryPolicy(checkpoint_remote="~/run/ckpt", checkpoint_local="/tmp/ck", code_local="/tmp/code",
                      code_remote="~/code", resume="python train.py --resume {checkpoint}")


def test_a_good_policy_is_trimmed_and_fills_its_template():
    p = RecoveryPolicy(checkpoint_remote=" ~/ckpt ", checkpoint_local="/tmp/x ", resume=" run --resume {checkpoint} ",
                       regions=(" ap-shanghai ", ""), accounts=("ali:ecs.gn6i",), budget=5).validate()
    assert (p.checkpoint_remote, p.checkpoint_local, p.regions, p.accounts) == ("~/ckpt", "/tmp/x", ("ap-shanghai",),
                                                                                 ("ali:ecs.gn6i",))
    assert p.budget == 5.0 and p.max_attempts == 5 and p.spot and not p.on_demand
    assert p.resume_argv_text("/r/step-4.pt") == "run --resume /r/step-4.pt"
    assert RecoveryPolicy.from_json(p.to_json()) == p


@pytest.mark.parametrize(("change", "code", "words"), [
    ({"resume": ""}, "RecoveryResume", "resume command"),
    ({"resume": "train --resume {ckpt}"}, "RecoveryResume", "ckpt"),
    ({"resume": "train --resume {checkpoint"}, "RecoveryResume", "{checkpoint}"),
    ({"resume": "train\n--x"}, "RecoveryResume", "control"),
    ({"checkpoint_local": ""}, "RecoveryPair", "checkpoint folder"),
    ({"code_remote": ""}, "RecoveryPair", "code folder"),
    ({"checkpoint_remote": "ckpt"}, "RecoveryPath", "start with / or ~/"),
    ({"checkpoint_local": "/tmp/\x00"}, "RecoveryPath", "control"),
    ({"spot": False, "on_demand": False}, "RecoveryMarket", "on-demand"),
    ({"max_attempts": 0}, "RecoveryAttempts", "not 0"),
    ({"max_attempts": 51}, "RecoveryAttempts", "not 51"),
    ({"max_attempts": 2.5}, "RecoveryAttempts", "2.5"),
    ({"budget": 0}, "RecoveryBudget", "not 0"),
    ({"budget": math.nan}, "RecoveryBudget", "nan"),
    ({"budget": "lots"}, "RecoveryBudget", "lots"),
    ({"regions": ("ap shanghai",)}, "RecoveryPlace", "ap shanghai"),
    ({"accounts": ("ali:bad type",)}, "RecoveryPlace", "ali:bad type"),
])
def test_each_bad_part_is_named_with_a_next_step(change, code, words):
    bad = RecoveryPolicy(**{**GOOD.to_json(), **change})
    with pytest.raises(InputError) as err:
        bad.validate()
    assert err.value.code == code
    assert words in err.value.text()
    assert "labgpu recovery set --help" in err.value.hint()


def test_a_disabled_policy_needs_no_resume_command():
    assert RecoveryPolicy(enabled=False).validate().enabled is False


def test_store_per_instance_and_job_a_job_wins_and_it_survives_a_reopen(tmp_path: Path):
    store = RecoveryPolicyStore(Store(tmp_path / "db.sqlite3"))
    assert store.effective("ins-1", ["job1"]) is None
    inst = store.set(INSTANCE, "ins-1", GOOD)
    job = store.set(JOB, "job1", RecoveryPolicy(resume="go {checkpoint}", max_attempts=2))
    again = RecoveryPolicyStore(Store(tmp_path / "db.sqlite3"))
    assert again.get(INSTANCE, "ins-1") == inst
    assert again.effective("ins-1", ["job1"]) == (JOB, "job1", job)
    assert again.effective("ins-1", ["other"]) == (INSTANCE, "ins-1", inst)
    again.set(JOB, "job1", RecoveryPolicy(enabled=False))  # switched off: the instance's applies
    assert again.effective("ins-1", ["job1"]) == (INSTANCE, "ins-1", inst)
    assert [(s.kind, s.target) for s in again.all()] == [(INSTANCE, "ins-1"), (JOB, "job1")]
    assert again.remove(INSTANCE, "ins-1") and not again.remove(INSTANCE, "ins-1")
    assert again.effective("ins-1", ["job1"]) is None


def test_store_refuses_a_bad_key_or_policy_and_keeps_the_old_one(tmp_path: Path):
    store = RecoveryPolicyStore(Store(tmp_path / "db.sqlite3"))
    store.set(INSTANCE, "ins-1", GOOD)
    with pytest.raises(InputError) as err:
        store.set(INSTANCE, "ins-1", RecoveryPolicy(resume="x {y}"))
    assert err.value.code == "RecoveryResume"
    assert store.get(INSTANCE, "ins-1") == GOOD.validate()
    for kind, target, code in (("host", "x", "RecoveryKind"), (JOB, "  ", "RecoveryTarget")):
        with pytest.raises(InputError) as err:
            store.get(kind, target)
        assert err.value.code == code


def test_each_recovery_step_reaches_the_notification_channels_with_its_own_sentence():
    from app.core.vocab import GuardEventKind as K
    from app.notify.events import SPOT, TOPIC_OF, compose

    kinds = [K.RECOVERY_SAVED, K.RECOVERY_RELAUNCHED, K.RECOVERY_RESUMED, K.RECOVERY_GAVE_UP, K.RECOVERY_SKIPPED]
    assert all(TOPIC_OF[k] == SPOT for k in kinds)  # the "spot interruption notices" box the student ticks
    msg = compose(K.RECOVERY_GAVE_UP, {"why": "x"}, target="ins-1", lang="en",
                  fallback="ins-1: recovery gave up — the policy's 3 launch attempts are used up\x1b[31m")
    assert msg.title == "LabGPU: ins-1" and "3 launch attempts are used up" in msg.body and "\x1b" not in msg.body
