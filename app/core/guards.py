"""Guards: the rules that watch an instance (idle, budget, maximum runtime, a process) and the
events they raise. Pure and fake-clock friendly; app.watch applies them.

Idle rule ("GPU < 30 % for 10 min"): idle only when *every* sample of *every*
GPU in the whole window is below the threshold. A missing sample — ``None`` utilization (MIG
reports N/A), a host-level error, a sample without GPUs, a gap longer than ``max_gap_s`` (dropped
connection) — counts as busy: a guard never stops on data it does not have. Not idle until the
window is covered.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timezone
from typing import Any

from . import vocab
from .errors import InputError
from .gpumon import HostSample
from .i18n import QT_TRANSLATE_NOOP
from .store import Store, register_schema

ON_IDLE = ("notify", "stop")
EVENT_KINDS = vocab.EVENT_KINDS  # GuardEventKind
# A watcher that took over within this many seconds of the last sample its predecessor saw keeps the
# idle window it had reached (the seconds without samples are not counted as idle; a longer silence
# starts the window over: missing data is busy).
RESTART_GAP_S = 60.0
BUDGET_WARN_FRACTION = 0.8

register_schema(
    "guards",
    [
        """
    CREATE TABLE guard_configs (
        target_id TEXT PRIMARY KEY,
        config TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    """,
        # the idle window reached so far (epoch seconds), so a watcher restart does not start it over
        """
    CREATE TABLE guard_windows (
        target_id TEXT PRIMARY KEY,
        idle_since REAL,
        last_t REAL NOT NULL
    );
    """,
    ],
)

MSG_BAD_PCT = QT_TRANSLATE_NOOP("LabGPU", "The idle threshold must be between 1 and 100 %, not {value}")
MSG_BAD_MINUTES = QT_TRANSLATE_NOOP("LabGPU", "The idle window must be between 1 and 1440 minutes, not {value}")
MSG_BAD_ON_IDLE = QT_TRANSLATE_NOOP("LabGPU", "On idle must be notify or stop, not {value}")
MSG_BAD_BUDGET = QT_TRANSLATE_NOOP("LabGPU", "The budget must be a positive amount, not {value}")
MSG_BAD_CURRENCY = QT_TRANSLATE_NOOP("LabGPU", "The budget currency must be CNY or USD, not {value}")
MSG_BAD_HOURS = QT_TRANSLATE_NOOP("LabGPU", "The maximum runtime must be a positive number of hours, not {value}")
HINT_GUARD_VALUES = QT_TRANSLATE_NOOP("LabGPU", "correct the value and set the guard again")


@dataclass
class GuardConfig:
    idle_below_pct: float = 30.0
    idle_minutes: float = 10.0
    on_idle: str = "notify"  # "notify" | "stop"
    budget: float | None = None
    currency: str = "CNY"
    max_hours: float | None = None
    stop_on_process_exit: str | None = None  # a pid (digits) or a process name substring
    sync_before_stop: bool = True
    watchdog: bool = False

    def validate(self) -> GuardConfig:
        """Raise InputError (message + next step) for a value that cannot work."""
        def bad(msg: str, value: Any) -> InputError:
            return InputError(msg, HINT_GUARD_VALUES, code="guard-value", value=value)

        if not _finite(self.idle_below_pct) or not (1 <= float(self.idle_below_pct) <= 100):
            raise bad(MSG_BAD_PCT, self.idle_below_pct)
        if not _finite(self.idle_minutes) or not (1 / 60 <= float(self.idle_minutes) <= 1440):
            raise bad(MSG_BAD_MINUTES, self.idle_minutes)
        if self.on_idle not in ON_IDLE:
            raise bad(MSG_BAD_ON_IDLE, self.on_idle)
        if self.budget is not None and (not _finite(self.budget) or float(self.budget) <= 0):
            raise bad(MSG_BAD_BUDGET, self.budget)
        if self.currency not in ("CNY", "USD"):
            raise bad(MSG_BAD_CURRENCY, self.currency)
        if self.max_hours is not None and (not _finite(self.max_hours) or float(self.max_hours) <= 0):
            raise bad(MSG_BAD_HOURS, self.max_hours)
        return self

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> GuardConfig:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in doc.items() if k in known})


def _finite(v: Any) -> bool:
    try:
        return math.isfinite(float(v))
    except (TypeError, ValueError):
        return False


class GuardStore:
    """Per instance (or Hosts-page server) guard settings, in SQLite."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def get(self, target_id: str) -> GuardConfig | None:
        rows = self.store.query("SELECT config FROM guard_configs WHERE target_id=?", (target_id,))
        if not rows:
            return None
        return _load(rows[0]["config"])

    def set(self, target_id: str, cfg: GuardConfig) -> None:
        cfg.validate()
        self.store.execute(
            "INSERT INTO guard_configs(target_id, config, updated_at) VALUES(?, ?, ?) "
            "ON CONFLICT(target_id) DO UPDATE SET config=excluded.config, updated_at=excluded.updated_at",
            (target_id, json.dumps(cfg.to_json(), sort_keys=True), datetime.now(timezone.utc).isoformat()),
        )

    def remove(self, target_id: str) -> bool:
        self.store.execute("DELETE FROM guard_windows WHERE target_id=?", (target_id,))
        return self.store.execute("DELETE FROM guard_configs WHERE target_id=?", (target_id,)).rowcount > 0

    def save_window(self, target_id: str, idle_since: float | None, last_t: float) -> None:
        """Remember the idle window reached (``idle_since`` None: busy) at the last sample ``last_t``."""
        self.store.execute(
            "INSERT INTO guard_windows(target_id, idle_since, last_t) VALUES(?, ?, ?) "
            "ON CONFLICT(target_id) DO UPDATE SET idle_since=excluded.idle_since, last_t=excluded.last_t",
            (target_id, idle_since, float(last_t)),
        )

    def window(self, target_id: str) -> tuple[float | None, float] | None:
        """(idle_since, last_t) as the last watcher saw it, or None."""
        rows = self.store.query("SELECT idle_since, last_t FROM guard_windows WHERE target_id=?", (target_id,))
        if not rows:
            return None
        since, last = rows[0]["idle_since"], rows[0]["last_t"]
        if not _finite(last) or (since is not None and (not _finite(since) or float(since) > float(last))):
            return None
        return (None if since is None else float(since)), float(last)

    def all(self) -> dict[str, GuardConfig]:
        out = {}
        for r in self.store.query("SELECT target_id, config FROM guard_configs ORDER BY target_id"):
            cfg = _load(r["config"])
            if cfg is not None:
                out[r["target_id"]] = cfg
        return out


def _load(text: str) -> GuardConfig | None:
    try:
        doc = json.loads(text)
        if not isinstance(doc, dict):
            return None
        return GuardConfig.from_json(doc).validate()
    except (ValueError, TypeError, InputError):
        return None  # a damaged row is ignored (the guard shows as not set), never a traceback


@dataclass
class GuardEvent:
    time: datetime
    target_id: str
    kind: str  # one of EVENT_KINDS
    message: str
    detail: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"time": self.time.isoformat(), "target_id": self.target_id, "kind": self.kind,
                "message": self.message, "detail": self.detail}


def _ts(t: datetime | float) -> float:
    return t.timestamp() if isinstance(t, datetime) else float(t)


def sample_is_idle(sample: HostSample, below_pct: float) -> bool:
    """True only when the sample is complete and every GPU's utilization is known and below."""
    if sample.error is not None or not sample.gpus:
        return False
    for g in sample.gpus:
        if g.utilization_gpu is None or g.status != "ok" or not g.utilization_gpu < below_pct:
            return False
    return True


@dataclass
class IdleRule:
    """Every sample of every GPU below `below_pct` for `window_s`; anything missing counts as busy."""

    below_pct: float = 30.0
    window_s: float = 600.0
    max_gap_s: float = 5.0  # a longer silence between samples is a dropped connection: busy
    idle_since: float | None = None
    last_t: float | None = None
    resume_gap_s: float = 0.0  # set by resume(): the first gap up to this long keeps the window

    @classmethod
    def from_config(cls, cfg: GuardConfig, max_gap_s: float = 5.0) -> IdleRule:
        return cls(below_pct=float(cfg.idle_below_pct), window_s=float(cfg.idle_minutes) * 60.0,
                   max_gap_s=max_gap_s)

    def resume(self, idle_since: float | None, last_t: float, allow_gap_s: float = RESTART_GAP_S) -> None:
        """Continue a window another watcher reached (a hand-over): the first gap, up to
        ``allow_gap_s``, keeps it, shifted by the gap (time without samples never counts as idle)."""
        self.idle_since, self.last_t, self.resume_gap_s = idle_since, last_t, allow_gap_s

    def feed(self, sample: HostSample, now: datetime | float | None = None) -> None:
        t = _ts(now if now is not None else sample.time)
        gap = self.last_t is not None and t - self.last_t > self.max_gap_s
        if gap and self.resume_gap_s and self.last_t is not None and t - self.last_t <= self.resume_gap_s:
            if self.idle_since is not None:
                self.idle_since += t - self.last_t  # the hand-over's silence is not idle time
            gap = False
        self.resume_gap_s = 0.0
        if self.last_t is not None and t < self.last_t:
            gap = True  # the clock went back: start over
        self.last_t = t
        if not sample_is_idle(sample, self.below_pct):
            self.idle_since = None
        elif self.idle_since is None or gap:
            self.idle_since = t

    def busy(self, now: datetime | float | None = None) -> None:
        """Something other than a sample says the host is busy (e.g. a failed read)."""
        self.idle_since = None

    def idle_for(self, now: datetime | float) -> float:
        if self.idle_since is None or self.last_t is None:
            return 0.0
        if _ts(now) - self.last_t > self.max_gap_s:
            return 0.0
        return self.last_t - self.idle_since

    def is_idle(self, now: datetime | float) -> bool:
        return self.idle_for(now) >= self.window_s

    def reset(self) -> None:
        self.idle_since = None
        self.last_t = None


def budget_level(cost_so_far: float | None, budget: float | None,
                 warn_fraction: float = BUDGET_WARN_FRACTION) -> str | None:
    """"warn" at 80 %, "stop" at 100 % of the budget, else None (also when either is unknown)."""
    if cost_so_far is None or budget is None or budget <= 0:
        return None
    if cost_so_far >= budget:
        return "stop"
    if cost_so_far >= warn_fraction * budget:
        return "warn"
    return None


MSG_BLIND_ERROR = QT_TRANSLATE_NOOP("LabGPU", "the host reports no GPU data: {error}")
MSG_BLIND_NO_GPUS = QT_TRANSLATE_NOOP("LabGPU", "nvidia-smi lists no GPUs (no driver loaded?)")
MSG_BLIND_UTIL = QT_TRANSLATE_NOOP("LabGPU", "GPU {index} reports no utilization (MIG mode or an unsupported "
                                             "GPU)")
MSG_BLIND_SILENT = QT_TRANSLATE_NOOP("LabGPU", "no GPU samples for {seconds} s (the connection dropped)")


def blind_reason(sample: HostSample) -> tuple[str, dict[str, Any]] | None:
    """Why the idle rule cannot see this host (a template and its parameters), or None when it can."""
    if sample.error is not None:
        return MSG_BLIND_ERROR, {"error": str(sample.error)[:200]}
    if not sample.gpus:
        return MSG_BLIND_NO_GPUS, {}
    for g in sample.gpus:
        if g.utilization_gpu is None or g.status != "ok":
            return MSG_BLIND_UTIL, {"index": "?" if g.index is None else g.index}
    return None


def runtime_exceeded(uptime_s: float, max_hours: float | None) -> bool:
    return max_hours is not None and uptime_s >= float(max_hours) * 3600.0


def process_present(sample: HostSample, wanted: str) -> bool | None:
    """Is the chosen process (pid digits, or a name substring) on a GPU? None when unknown."""
    if sample.error is not None:
        return None
    wanted = wanted.strip()
    for p in sample.processes:
        if wanted.isdigit() and p.pid == int(wanted):
            return True
        if not wanted.isdigit() and wanted and wanted in p.name:
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Tuning hints (seeds: < 70 % utilization → tune; memory nearly full → mixed precision)

HINT_LOW_UTIL_TITLE = QT_TRANSLATE_NOOP("LabGPU", "The GPUs wait for data")
HINT_LOW_UTIL_TEXT = QT_TRANSLATE_NOOP(
    "LabGPU", "GPU utilization stayed under {pct} % for {minutes} minutes. Try a larger batch size, more "
              "data-loader workers (num_workers), pinned memory (pin_memory=True), or gradient accumulation.")
HINT_MEM_TITLE = QT_TRANSLATE_NOOP("LabGPU", "GPU memory is nearly full")
HINT_MEM_TEXT = QT_TRANSLATE_NOOP(
    "LabGPU", "GPU memory reached {pct} % of its size. Mixed precision (torch.autocast / AMP) or "
              "gradient checkpointing frees memory for a larger batch.")


@dataclass(frozen=True)
class Hint:
    id: str  # "low-utilization" | "memory-full"
    title: str  # template, translate before showing
    text: str  # template, filled with params after translation
    params: dict[str, Any] = field(default_factory=dict)


def tuning_hints(samples: Sequence[HostSample] | Iterable[HostSample], *, low_util_pct: float = 70.0,
                 min_stretch_s: float = 600.0, memory_full_fraction: float = 0.9) -> list[Hint]:
    """Hints from a window of samples (oldest first).

    low-utilization: every sample over at least `min_stretch_s` has a known mean utilization below
    `low_util_pct` but above 0 (an idle GPU is the idle guard's business, not a tuning problem).
    memory-full: any GPU's used/total reached `memory_full_fraction`.
    """
    items = [s for s in samples]
    hints: list[Hint] = []
    stretch_start: float | None = None
    longest = 0.0
    for s in items:
        utils = [g.utilization_gpu for g in s.gpus]
        t = s.time.timestamp()
        if s.error is None and utils and all(u is not None for u in utils):
            mean = sum(u for u in utils if u is not None) / len(utils)
            if 0 < mean < low_util_pct:
                if stretch_start is None:
                    stretch_start = t
                longest = max(longest, t - stretch_start)
                continue
        stretch_start = None
    if longest >= min_stretch_s:
        hints.append(Hint("low-utilization", HINT_LOW_UTIL_TITLE, HINT_LOW_UTIL_TEXT,
                          {"pct": round(low_util_pct), "minutes": round(longest / 60)}))
    peak = 0.0
    for s in items:
        for g in s.gpus:
            if g.memory_used_mib is not None and g.memory_total_mib:
                peak = max(peak, g.memory_used_mib / g.memory_total_mib)
    if peak >= memory_full_fraction:
        hints.append(Hint("memory-full", HINT_MEM_TITLE, HINT_MEM_TEXT, {"pct": round(peak * 100)}))
    return hints
