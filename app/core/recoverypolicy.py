"""The spot recovery policy: what LabGPU does by itself when a spot instance gets a reclaim notice.

Set per instance (``instance``, the instance id) or per job (``job``, the job id); a job's policy wins
over its instance's. In the warning window the latest checkpoint file in ``checkpoint_remote`` is copied
to ``checkpoint_local`` (over SFTP: a multi-GB file may not fit a two-minute window, and the journey
says what was saved and what was not) — first uploaded by the instance itself to ``checkpoint_bucket``
when one is named (in-region, with presigned links: no key on the instance); then the same offer is
relaunched in this order: the same zone, the region's other zones (``other_zones``), the ``regions``
listed (same account), the ``accounts`` listed (another cloud: ``ACCOUNT`` or ``ACCOUNT:INSTANCE_TYPE``,
its own type name), spot first and on-demand only when ``on_demand`` allows it, at most ``max_attempts``
launch calls in all and while the run's cost stays under ``budget`` (the account's currency). When the
new instance answers, the code pair (``code_local`` → ``code_remote``) and the saved checkpoint are
pushed and the job is started again with ``resume`` (``{checkpoint}`` = the checkpoint's remote path
after the push).
Pure Python; stored in the app database (``recovery_policies``).
"""

from __future__ import annotations

import json
import math
import re
import string
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .buckets import parse_bucket_url
from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP, translate
from .store import Store, register_schema

INSTANCE = "instance"
JOB = "job"
KINDS = (INSTANCE, JOB)
MAX_ATTEMPTS_CAP = 50
MAX_TEXT = 500  # a path, a template or a pattern
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$")  # a region, an account, a type

register_schema(
    "recoverypolicy",
    [
        """
    CREATE TABLE recovery_policies (
        kind TEXT NOT NULL,
        target TEXT NOT NULL,
        policy TEXT NOT NULL,
        updated_at REAL NOT NULL,
        PRIMARY KEY (kind, target)
    );
    """,
    ],
)

HINT = QT_TRANSLATE_NOOP("LabGPU", "See `labgpu recovery set --help`.")
MSG_KIND = QT_TRANSLATE_NOOP("LabGPU", "A recovery policy is set for an instance or a job, not {value}.")
MSG_TARGET = QT_TRANSLATE_NOOP("LabGPU", "A recovery policy needs the instance or job it is for.")
MSG_NO_RESUME = QT_TRANSLATE_NOOP("LabGPU", "Recovery needs a resume command, e.g. "
                                            "python train.py --resume {checkpoint}.")
MSG_RESUME_FIELDS = QT_TRANSLATE_NOOP("LabGPU", "The resume command may hold {{checkpoint}} and no other "
                                                "{{…}} field; it holds {value}.")
MSG_PATH = QT_TRANSLATE_NOOP("LabGPU", "The {what} must be a path of at most 500 characters with no control "
                                       "characters.")
MSG_REMOTE_PATH = QT_TRANSLATE_NOOP("LabGPU", "The {what} on the instance must start with / or ~/, not {value}.")
MSG_PAIR = QT_TRANSLATE_NOOP("LabGPU", "The {what} needs both folders: the one on this computer and the one on "
                                       "the instance.")
MSG_BUCKET_NEEDS_FOLDER = QT_TRANSLATE_NOOP("LabGPU", "A checkpoint bucket needs the checkpoint folder on the "
                                                       "instance it is uploaded from.")
MSG_NOTHING_ALLOWED = QT_TRANSLATE_NOOP("LabGPU", "Allow spot, on-demand or both for the relaunch.")
MSG_ATTEMPTS = QT_TRANSLATE_NOOP("LabGPU", "The most launch attempts must be a whole number from 1 to 50, "
                                           "not {value}.")
MSG_BUDGET = QT_TRANSLATE_NOOP("LabGPU", "The budget must be a positive amount, not {value}.")
MSG_NAME = QT_TRANSLATE_NOOP("LabGPU", "{value} is not a region or account name.")
WHAT_CHECKPOINT = QT_TRANSLATE_NOOP("LabGPU", "checkpoint folder")
WHAT_CODE = QT_TRANSLATE_NOOP("LabGPU", "code folder")
WHAT_PATTERN = QT_TRANSLATE_NOOP("LabGPU", "checkpoint file pattern")
WHAT_RESUME = QT_TRANSLATE_NOOP("LabGPU", "resume command")


@dataclass(frozen=True)
class RecoveryPolicy:
    """What to do on a reclaim notice (see the module docstring)."""

    enabled: bool = True
    checkpoint_remote: str = ""  # the folder the training writes checkpoints to, on the instance
    checkpoint_local: str = ""  # where the latest one is saved, on this computer
    checkpoint_pattern: str = "*"  # which files in the folder are checkpoints (fnmatch); the newest is taken
    # a bucket location (s3://, cos://, oss://, obs://) the instance itself uploads the newest checkpoint to
    # in the warning window, in-region, before the laptop copy (app/usecases/spotcheckpoint.py), with the
    # account that reaches it ("" = the one account of that cloud)
    checkpoint_bucket: str = ""
    checkpoint_account: str = ""
    code_local: str = ""  # the code pair pushed to a new instance (upload)
    code_remote: str = ""
    resume: str = ""  # e.g. "python train.py --resume {checkpoint}"
    workdir: str = ""  # where the resumed job runs ("" = the job's own, else the code folder)
    other_zones: bool = True
    regions: tuple[str, ...] = ()  # other regions of the same account, in order
    accounts: tuple[str, ...] = ()  # other accounts (clouds): "ACCOUNT" or "ACCOUNT:INSTANCE_TYPE"
    spot: bool = True
    on_demand: bool = False
    budget: float | None = None  # the most the run may cost in all (the account's currency); None: no cap
    max_attempts: int = 5  # launch calls (RunInstances) across the whole recovery
    notes: dict[str, str] = field(default_factory=dict)  # free-form, kept as is (e.g. who set it)

    def validate(self) -> RecoveryPolicy:
        """The policy with its words checked and trimmed; InputError (with a next step) naming the bad part."""
        p = replace(self, checkpoint_remote=self.checkpoint_remote.strip(),
                    checkpoint_local=self.checkpoint_local.strip(),
                    checkpoint_pattern=(self.checkpoint_pattern or "*").strip() or "*",
                    code_local=self.code_local.strip(), code_remote=self.code_remote.strip(),
                    resume=self.resume.strip(), workdir=self.workdir.strip(),
                    regions=tuple(r.strip() for r in self.regions if r.strip()),
                    accounts=tuple(a.strip() for a in self.accounts if a.strip()))
        for what, value in ((WHAT_CHECKPOINT, p.checkpoint_remote), (WHAT_CHECKPOINT, p.checkpoint_local),
                            (WHAT_CODE, p.code_local), (WHAT_CODE, p.code_remote),
                            (WHAT_PATTERN, p.checkpoint_pattern), (WHAT_CODE, p.workdir)):
            _check_text(what, value)
        if bool(p.checkpoint_remote) != bool(p.checkpoint_local):
            raise InputError(MSG_PAIR, HINT, code="RecoveryPair", what=translate(WHAT_CHECKPOINT))
        p = replace(p, checkpoint_bucket=p.checkpoint_bucket.strip(), checkpoint_account=p.checkpoint_account.strip())
        if p.checkpoint_bucket:
            if not p.checkpoint_remote:
                raise InputError(MSG_BUCKET_NEEDS_FOLDER, HINT, code="RecoveryPair")
            parse_bucket_url(p.checkpoint_bucket)  # InputError naming what is wrong with it
        if p.checkpoint_account and not _NAME.match(p.checkpoint_account):
            raise InputError(MSG_NAME, HINT, code="RecoveryPlace", value=p.checkpoint_account[:80])
        if bool(p.code_remote) != bool(p.code_local):
            raise InputError(MSG_PAIR, HINT, code="RecoveryPair", what=translate(WHAT_CODE))
        for what, value in ((WHAT_CHECKPOINT, p.checkpoint_remote), (WHAT_CODE, p.code_remote),
                            (WHAT_CODE, p.workdir)):
            if value and not (value.startswith("/") or value.startswith("~/")):
                raise InputError(MSG_REMOTE_PATH, HINT, code="RecoveryPath", what=translate(what),
                                 value=value[:80])
        if p.enabled and not p.resume:
            raise InputError(MSG_NO_RESUME, HINT, code="RecoveryResume")
        if len(p.resume) > MAX_TEXT or any(ord(ch) < 32 for ch in p.resume):
            raise InputError(MSG_PATH, HINT, code="RecoveryResume", what=translate(WHAT_RESUME))
        fields_used = _fields(p.resume)
        if fields_used is None or fields_used - {"checkpoint"}:
            shown = ", ".join(sorted(fields_used or {"{"}))[:80]
            raise InputError(MSG_RESUME_FIELDS, HINT, code="RecoveryResume", value=shown)
        if not (p.spot or p.on_demand):
            raise InputError(MSG_NOTHING_ALLOWED, HINT, code="RecoveryMarket")
        try:
            attempts = int(p.max_attempts)
            if attempts != p.max_attempts or isinstance(p.max_attempts, bool):
                raise ValueError
        except (TypeError, ValueError):
            raise InputError(MSG_ATTEMPTS, HINT, code="RecoveryAttempts", value=str(p.max_attempts)[:40]) from None
        if not 1 <= attempts <= MAX_ATTEMPTS_CAP:
            raise InputError(MSG_ATTEMPTS, HINT, code="RecoveryAttempts", value=str(attempts))
        if p.budget is not None:
            try:
                budget = float(p.budget)
            except (TypeError, ValueError):
                raise InputError(MSG_BUDGET, HINT, code="RecoveryBudget", value=str(p.budget)[:40]) from None
            if not math.isfinite(budget) or budget <= 0:
                raise InputError(MSG_BUDGET, HINT, code="RecoveryBudget", value=str(p.budget)[:40])
            p = replace(p, budget=budget)
        for region in p.regions:
            if not _NAME.match(region):
                raise InputError(MSG_NAME, HINT, code="RecoveryPlace", value=region[:80])
        for acct in p.accounts:
            name, _, itype = acct.partition(":")
            if not _NAME.match(name) or (itype and not _NAME.match(itype)):
                raise InputError(MSG_NAME, HINT, code="RecoveryPlace", value=acct[:80])
        return replace(p, max_attempts=attempts)

    def resume_argv_text(self, checkpoint: str) -> str:
        """The resume command with ``{checkpoint}`` filled (the path as is; the caller splits it)."""
        return self.resume.replace("{checkpoint}", checkpoint)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["regions"] = list(self.regions)
        data["accounts"] = list(self.accounts)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RecoveryPolicy:
        known = {f for f in cls.__dataclass_fields__}
        clean = {k: v for k, v in data.items() if k in known}
        for key in ("regions", "accounts"):
            if key in clean:
                clean[key] = tuple(str(x) for x in clean[key] or ())
        if "notes" in clean:
            clean["notes"] = {str(k): str(v) for k, v in dict(clean["notes"] or {}).items()}
        return cls(**clean)


def _check_text(what: str, value: str) -> None:
    if len(value) > MAX_TEXT or any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise InputError(MSG_PATH, HINT, code="RecoveryPath", what=translate(what))


def _fields(template: str) -> set[str] | None:
    """The {…} fields a template uses; None when its braces are malformed."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}
    except ValueError:
        return None


@dataclass(frozen=True)
class StoredPolicy:
    kind: str
    target: str
    policy: RecoveryPolicy
    updated_at: float


class RecoveryPolicyStore:
    """Recovery policies per instance and per job (they survive restarts)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.migrate()

    def set(self, kind: str, target: str, policy: RecoveryPolicy, now: float | None = None) -> RecoveryPolicy:
        """Validate and save (replacing the one there); returns what was saved."""
        kind, target = _key(kind, target)
        checked = policy.validate()
        self.store.execute(
            "INSERT INTO recovery_policies(kind, target, policy, updated_at) VALUES(?, ?, ?, ?) "
            "ON CONFLICT(kind, target) DO UPDATE SET policy=excluded.policy, updated_at=excluded.updated_at",
            (kind, target, json.dumps(checked.to_json(), sort_keys=True), time.time() if now is None else now))
        return checked

    def get(self, kind: str, target: str) -> RecoveryPolicy | None:
        kind, target = _key(kind, target)
        rows = self.store.query("SELECT policy FROM recovery_policies WHERE kind=? AND target=?", (kind, target))
        return _load(rows[0]["policy"]) if rows else None

    def remove(self, kind: str, target: str) -> bool:
        kind, target = _key(kind, target)
        cur = self.store.execute("DELETE FROM recovery_policies WHERE kind=? AND target=?", (kind, target))
        return bool(cur.rowcount)

    def all(self) -> list[StoredPolicy]:
        out: list[StoredPolicy] = []
        for r in self.store.query("SELECT * FROM recovery_policies ORDER BY kind, target"):
            pol = _load(r["policy"])
            if pol is not None:
                out.append(StoredPolicy(r["kind"], r["target"], pol, float(r["updated_at"])))
        return out

    def effective(self, instance_id: str, job_ids: list[str] | tuple[str, ...] = ()) -> tuple[str, str,
                                                                                                RecoveryPolicy] | None:
        """The enabled policy that applies to an instance: a job's on it first (the first listed), else the
        instance's own; None when neither is set or enabled."""
        for job_id in job_ids:
            pol = self.get(JOB, job_id)
            if pol is not None and pol.enabled:
                return JOB, job_id, pol
        pol = self.get(INSTANCE, instance_id) if instance_id.strip() else None
        if pol is not None and pol.enabled:
            return INSTANCE, instance_id.strip(), pol
        return None


def _key(kind: str, target: str) -> tuple[str, str]:
    if kind not in KINDS:
        raise InputError(MSG_KIND, HINT, code="RecoveryKind", value=str(kind)[:40])
    target = (target or "").strip()
    if not target or len(target) > 200 or any(ord(ch) < 32 for ch in target):
        raise InputError(MSG_TARGET, HINT, code="RecoveryTarget")
    return kind, target


def _load(text: str) -> RecoveryPolicy | None:
    try:
        data = json.loads(text)
        return RecoveryPolicy.from_json(data) if isinstance(data, dict) else None
    except (ValueError, TypeError):
        return None


# -- the progress of one recovery (it survives a watcher restart) ----------------------------------------

register_schema(
    "recoveryprogress",
    [
        """
    CREATE TABLE recovery_progress (
        instance_id TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        step TEXT NOT NULL,
        updated_at REAL NOT NULL
    );
    """,
    ],
)

# The steps of a recovery, in order; DONE_STEPS end it.
STEP_SAVING = "saving"  # the checkpoint is being saved in the warning window
STEP_RELAUNCHING = "relaunching"  # candidates are being tried
STEP_LAUNCHING = "launching"  # one launch request is out (its client token is stored before it is sent)
STEP_LAUNCHED = "launched"  # the new instance exists (linked to the run)
STEP_RESUMED = "resumed"
STEP_GAVE_UP = "gave-up"
STEP_SKIPPED = "skipped"  # nothing was done (not LabGPU's, a notice in the past, …), said why
DONE_STEPS = (STEP_RESUMED, STEP_GAVE_UP, STEP_SKIPPED)


@dataclass
class RecoveryRecord:
    """One recovery of one reclaimed instance: what it saved, what it tried, where it is."""

    instance_id: str
    provider: str = ""
    notice_time: str = ""  # ISO UTC: when the cloud reclaims it
    started_at: float = 0.0
    step: str = STEP_SAVING
    policy_kind: str = ""
    policy_target: str = ""
    policy: dict[str, Any] = field(default_factory=dict)  # the policy as it was when the notice came
    job_id: str = ""  # the job that is resumed ("" = none: the resume command runs as a new job)
    saved_local: str = ""  # the checkpoint file saved on this computer ("" = none)
    saved_note: str = ""  # what was saved and what was not (translated when said)
    attempts_before: int = 0  # launch calls made by the recoveries before this one in the same run
    attempts: int = 0  # launch calls made by this recovery
    tried: list[str] = field(default_factory=list)  # "account/region/zone/spot|on-demand: why"
    candidate: dict[str, Any] = field(default_factory=dict)  # the launch in flight (with its token)
    token: str = ""
    new_instance: str = ""
    new_provider: str = ""
    new_job: str = ""
    run_id: str = ""
    message: str = ""  # the last thing said (gave up / skipped: why)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RecoveryRecord:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})

    @property
    def done(self) -> bool:
        return self.step in DONE_STEPS

    def get_policy(self) -> RecoveryPolicy:
        return RecoveryPolicy.from_json(self.policy)


class RecoveryProgressStore:
    """The recoveries, one per reclaimed instance: claimed once (a second notice, a second watcher, a
    restart find it), saved after every step."""

    def __init__(self, store: Store) -> None:
        self.store = store
        store.migrate()

    def claim(self, rec: RecoveryRecord, now: float | None = None) -> tuple[RecoveryRecord, bool]:
        """Store ``rec`` unless a recovery of that instance is stored already; (the stored one, created)."""
        with self.store.transaction() as c:
            row = c.execute("SELECT record FROM recovery_progress WHERE instance_id=?",
                            (rec.instance_id,)).fetchone()
            if row is not None:
                return RecoveryRecord.from_json(json.loads(row[0])), False
            c.execute("INSERT INTO recovery_progress(instance_id, record, step, updated_at) VALUES(?,?,?,?)",
                      (rec.instance_id, json.dumps(rec.to_json(), sort_keys=True), rec.step,
                       time.time() if now is None else now))
        return rec, True

    def save(self, rec: RecoveryRecord, now: float | None = None) -> None:
        self.store.execute(
            "INSERT INTO recovery_progress(instance_id, record, step, updated_at) VALUES(?,?,?,?) "
            "ON CONFLICT(instance_id) DO UPDATE SET record=excluded.record, step=excluded.step, "
            "updated_at=excluded.updated_at",
            (rec.instance_id, json.dumps(rec.to_json(), sort_keys=True), rec.step,
             time.time() if now is None else now))

    def get(self, instance_id: str) -> RecoveryRecord | None:
        rows = self.store.query("SELECT record FROM recovery_progress WHERE instance_id=?", (instance_id,))
        return RecoveryRecord.from_json(json.loads(rows[0]["record"])) if rows else None

    def by_new_instance(self, instance_id: str) -> RecoveryRecord | None:
        """The recovery that launched ``instance_id`` (a relaunch that is itself reclaimed)."""
        for rec in self.all():
            if rec.new_instance == instance_id:
                return rec
        return None

    def unfinished(self) -> list[RecoveryRecord]:
        rows = self.store.query("SELECT record FROM recovery_progress WHERE step NOT IN (?,?,?) "
                                "ORDER BY updated_at", DONE_STEPS)
        return [RecoveryRecord.from_json(json.loads(r["record"])) for r in rows]

    def all(self) -> list[RecoveryRecord]:
        rows = self.store.query("SELECT record FROM recovery_progress ORDER BY updated_at")
        return [RecoveryRecord.from_json(json.loads(r["record"])) for r in rows]
