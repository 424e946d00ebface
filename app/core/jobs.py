"""Training jobs LabGPU started (or found) on a host: what was asked (JobSpec) and what is known (JobRecord).

The host keeps the job's own record under ``~/.labgpu/jobs/<id>/`` (app/remote/jobs.py); this store
keeps the local one (SQLite, the app database), so `labgpu jobs` after a restart or a reconnect finds
every job, with the log offset already read and the progress tracker's state, so a refresh reads only
new bytes. Times: ``started`` is ISO UTC on this computer's clock, worked out from the host's own
difference (host now − host start), and ``runtime_s`` is the host's difference alone, so a host clock
that is off never changes a duration.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import datetime, timezone
from typing import Any

from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP
from .store import Store, register_schema
from .vocab import JobState, JobThen

STALL_ACTIONS = ("notify", "stop")
MAX_NAME = 100
_ID = re.compile(r"^[0-9a-f]{16}$")

MSG_BAD_STALL = QT_TRANSLATE_NOOP("LabGPU", "--stall-minutes must be a number of minutes from 1 to 10080 "
                                            "(a week), not {value}.")
MSG_BAD_STALL_ACTION = QT_TRANSLATE_NOOP("LabGPU", "The stall action must be notify or stop, not {value}.")
MSG_BAD_THEN = QT_TRANSLATE_NOOP("LabGPU", "What happens when the job ends must be nothing, pull, pull-and-stop or "
                                           "pull-and-terminate, not {value}.")
MSG_NO_HOST = QT_TRANSLATE_NOOP("LabGPU", "A job needs a host to run on.")
HINT_JOB = QT_TRANSLATE_NOOP("LabGPU", "See `labgpu run --help`.")
MSG_BAD_NAME = QT_TRANSLATE_NOOP("LabGPU", "A job name has at most 100 characters and no control characters.")

register_schema(
    "jobs",
    [
        """
    CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        host TEXT NOT NULL,
        record TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX jobs_host ON jobs(host, created_at);
    """,
    ],
)


@dataclass(frozen=True)
class JobSpec:
    """What the student asked for: a command (its argument list, exactly as typed) on a host."""

    host: str
    argv: list[str]
    name: str = ""
    workdir: str = ""
    sync_pair: int | None = None  # a saved upload pair synced before the start
    then: JobThen = JobThen.NOTHING
    progress_pattern: str | None = None
    tb_logdir: str | None = None
    stall_minutes: float | None = None
    stall_action: str = "notify"
    stop_on_failure: bool = False  # a then that stops also stops after a failed or lost job (else: pull, notify)

    def validate(self) -> JobSpec:
        """The spec with its words checked (InputError naming the bad value); the argv is checked by
        app.remote.jobs (it owns how it reaches the host)."""
        if not self.host.strip():
            raise InputError(MSG_NO_HOST, HINT_JOB, code="JobHost")
        try:
            then = JobThen(str(self.then))
        except ValueError:
            raise InputError(MSG_BAD_THEN, HINT_JOB, code="JobThen", value=str(self.then)[:40]) from None
        if self.stall_action not in STALL_ACTIONS:
            raise InputError(MSG_BAD_STALL_ACTION, HINT_JOB, code="JobStall", value=str(self.stall_action)[:40])
        if self.stall_minutes is not None:
            m = float(self.stall_minutes)
            if not (math.isfinite(m) and 1 <= m <= 10080):
                raise InputError(MSG_BAD_STALL, HINT_JOB, code="JobStall", value=str(self.stall_minutes)[:40])
        if len(self.name) > MAX_NAME or any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in self.name):
            raise InputError(MSG_BAD_NAME, HINT_JOB, code="JobName")
        return replace(self, then=then)


def iso_utc(epoch: float | None) -> str:
    if epoch is None:
        return ""
    return datetime.fromtimestamp(epoch, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class JobRecord:
    """One job as LabGPU knows it (see the module docstring for the times)."""

    id: str
    host: str
    name: str = ""
    argv: list[str] = field(default_factory=list)
    workdir: str = ""
    sync_pair: int | None = None
    then: JobThen = JobThen.NOTHING
    progress_pattern: str | None = None
    tb_logdir: str | None = None
    stall_minutes: float | None = None
    stall_action: str = "notify"
    stop_on_failure: bool = False
    detach: str = ""  # tmux | setsid | nohup
    pid: int | None = None
    started: str = ""  # ISO UTC on this computer's clock (the host's difference applied)
    state: JobState = JobState.RUNNING
    exit_code: int | None = None
    killed: bool = False  # the stop had to KILL it after the grace period (exit code 137 is then LabGPU's)
    runtime_s: float | None = None  # host now (or host end) − host start
    log_offset: int = 0  # log bytes already read
    log_size: int = 0
    last_line: str = ""
    steps_per_s: float | None = None
    eta_s: float | None = None
    step: float | None = None
    total: float | None = None
    last_progress_at: float | None = None  # this computer's epoch of the last new step, line or event
    then_done: str = ""  # what the end action did (text), "" until it ran
    origin: str = "here"  # here | host (found on the host, started from another computer)
    created_at: float = 0.0
    checked_at: float | None = None  # this computer's epoch of the last refresh that reached the host
    progress_state: dict[str, Any] = field(default_factory=dict)  # the ProgressTracker's to_json()
    tb_state: dict[str, Any] = field(default_factory=dict)  # the TbFollower's to_json()
    error: str = ""  # the last refresh's failure (plain text), "" when it reached the host

    @classmethod
    def from_spec(cls, job_id: str, spec: JobSpec, now: float | None = None) -> JobRecord:
        return cls(id=job_id, host=spec.host, name=spec.name, argv=list(spec.argv), workdir=spec.workdir,
                   sync_pair=spec.sync_pair, then=JobThen(str(spec.then)), progress_pattern=spec.progress_pattern,
                   tb_logdir=spec.tb_logdir, stall_minutes=spec.stall_minutes, stall_action=spec.stall_action,
                   stop_on_failure=bool(spec.stop_on_failure), created_at=time.time() if now is None else now)

    @property
    def running(self) -> bool:
        return self.state == JobState.RUNNING

    @property
    def display_name(self) -> str:
        return self.name or (self.argv[0] if self.argv else self.id)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["then"] = str(self.then)
        d["state"] = str(self.state)
        return d

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JobRecord:
        known = {f.name for f in fields(cls)}
        d = {k: v for k, v in data.items() if k in known}
        try:
            d["then"] = JobThen(str(d.get("then", JobThen.NOTHING)))
        except ValueError:
            d["then"] = JobThen.NOTHING
        try:
            d["state"] = JobState(str(d.get("state", JobState.RUNNING)))
        except ValueError:
            d["state"] = JobState.LOST
        return cls(**d)


class JobStore:
    """The jobs in the app database (they survive restarts); one row per job, its record as JSON."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.store.migrate()

    def save(self, rec: JobRecord) -> JobRecord:
        if not _ID.match(rec.id):
            raise ValueError("not a job id")
        now = time.time()
        if not rec.created_at:
            rec.created_at = now
        with self.store.transaction() as c:
            c.execute(
                "INSERT INTO jobs(id, host, record, state, created_at, updated_at) VALUES(?,?,?,?,?,?) "
                "ON CONFLICT(id) DO UPDATE SET host=excluded.host, record=excluded.record, "
                "state=excluded.state, updated_at=excluded.updated_at",
                (rec.id, rec.host, json.dumps(rec.to_dict(), ensure_ascii=False), str(rec.state), rec.created_at,
                 now),
            )
        return rec

    def get(self, job_id: str) -> JobRecord | None:
        rows = self.store.query("SELECT record FROM jobs WHERE id=?", (job_id,))
        return self._record(rows[0]["record"]) if rows else None

    def find(self, prefix: str) -> list[JobRecord]:
        """Jobs whose id starts with ``prefix`` (hex only), or whose name is ``prefix``."""
        hexid = prefix.strip().lower()
        if re.fullmatch(r"[0-9a-f]{1,16}", hexid):
            rows = self.store.query("SELECT record FROM jobs WHERE substr(id, 1, ?) = ? ORDER BY created_at",
                                    (len(hexid), hexid))
            found = [self._record(r["record"]) for r in rows]
            if found:
                return found
        return [j for j in self.all() if j.name and j.name == prefix.strip()]

    def all(self, host: str | None = None) -> list[JobRecord]:
        if host is None:
            rows = self.store.query("SELECT record FROM jobs ORDER BY created_at, id")
        else:
            rows = self.store.query("SELECT record FROM jobs WHERE host=? ORDER BY created_at, id", (host,))
        return [self._record(r["record"]) for r in rows]

    def hosts(self) -> list[str]:
        return [str(r["host"]) for r in self.store.query("SELECT DISTINCT host FROM jobs ORDER BY host")]

    def remove(self, job_id: str) -> None:
        with self.store.transaction() as c:
            c.execute("DELETE FROM jobs WHERE id=?", (job_id,))

    @staticmethod
    def _record(text: str) -> JobRecord:
        try:
            data = json.loads(text)
        except ValueError:
            data = {}
        return JobRecord.from_dict(data if isinstance(data, dict) else {})
