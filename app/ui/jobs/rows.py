"""What the Jobs page shows of a job: its row (state, runtime, steps/s, ETA, cost so far) and its details,
worked out in a task (the store and the ledger are read there), as plain values for the table."""

from __future__ import annotations

import time
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

from app.core.currency import money_text
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.jobs import JobRecord, JobStore
from app.core.paths import Paths
from app.core.store import Store
from app.core.vocab import JobState, JobThen

DASH = "—"


@dataclass(frozen=True)
class JobRow:
    rec: JobRecord
    price_per_hour: float | None  # the instance's price (None: a saved server, or no price known)
    currency: str
    instance: bool  # the host is one of LabGPU's instances (its stop is the cloud's)
    stalled: bool = False  # running, with no new step, log line or event for its stall minutes

    def runtime_s(self, now: float | None = None) -> float | None:
        """The host's runtime, ticking on from the last refresh while it runs."""
        r = self.rec
        if r.runtime_s is None:
            return None
        if r.state == JobState.RUNNING and r.checked_at is not None:
            return r.runtime_s + max(0.0, (time.time() if now is None else now) - r.checked_at)
        return r.runtime_s

    def cost(self, now: float | None = None) -> float | None:
        """The instance's price × the job's runtime (None: no price, e.g. a saved server)."""
        runtime = self.runtime_s(now)
        if self.price_per_hour is None or runtime is None:
            return None
        return self.price_per_hour * runtime / 3600.0


def load_rows(paths: Paths, store: Store) -> list[JobRow]:
    """Every job in the store with its host's price (blocking: run it in a task)."""
    from app.core.instances import Ledger
    from app.usecases.jobs import stalled

    del paths  # the store is the app's; kept for the task's usual signature
    ledger = Ledger(store)
    prices: dict[str, tuple[float | None, str, bool]] = {}
    rows = []
    now = time.time()
    for rec in JobStore(store).all():
        if rec.host not in prices:
            entry = ledger.get(rec.host)
            prices[rec.host] = ((None, "", False) if entry is None else
                                (entry.price_per_hour, entry.currency or "USD", True))
        price, currency, instance = prices[rec.host]
        rows.append(JobRow(rec, price, currency, instance, stalled(rec, now)))
    return rows


def duration_text(seconds: float | None) -> str:
    if seconds is None or seconds != seconds or seconds < 0:
        return DASH
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _t(text: str) -> str:
    return QCoreApplication.translate("JobsPage", text)


S_PER_STEP = QT_TRANSLATE_NOOP("JobsPage", "{seconds} s/step")
RUNNING = QT_TRANSLATE_NOOP("JobsPage", "running")
STALLED = QT_TRANSLATE_NOOP("JobsPage", "stalled {minutes} min")
EXITED = QT_TRANSLATE_NOOP("JobsPage", "exited {code}")
LOST = QT_TRANSLATE_NOOP("JobsPage", "lost")
THEN_TITLES = {JobThen.NOTHING: QT_TRANSLATE_NOOP("JobsPage", "nothing"),
               JobThen.PULL: QT_TRANSLATE_NOOP("JobsPage", "pull"),
               JobThen.PULL_AND_STOP: QT_TRANSLATE_NOOP("JobsPage", "pull and stop"),
               JobThen.PULL_AND_TERMINATE: QT_TRANSLATE_NOOP("JobsPage", "pull and terminate")}
# app.watch.jobwatch's words for what a job's end did (JobRecord.then_done)
DONE_WORDS = {"handling": QT_TRANSLATE_NOOP("JobsPage", "acting on it"),
              "notified": QT_TRANSLATE_NOOP("JobsPage", "told"),
              "pulled": QT_TRANSLATE_NOOP("JobsPage", "pulled"),
              "no pull pair": QT_TRANSLATE_NOOP("JobsPage", "no download pair to pull"),
              "pull failed": QT_TRANSLATE_NOOP("JobsPage", "the pull failed"),
              "stopped": QT_TRANSLATE_NOOP("JobsPage", "instance stopped"),
              "terminated": QT_TRANSLATE_NOOP("JobsPage", "instance terminated"),
              "stop pending": QT_TRANSLATE_NOOP("JobsPage", "stop not confirmed yet"),
              "not stopped": QT_TRANSLATE_NOOP("JobsPage", "instance kept running"),
              "stalled": QT_TRANSLATE_NOOP("JobsPage", "stalled")}
ON_HOST = QT_TRANSLATE_NOOP("JobsPage", "{id} on {host}")
DETACHED = QT_TRANSLATE_NOOP("JobsPage", "detached with {how}")
STARTED = QT_TRANSLATE_NOOP("JobsPage", "started {when}")
THEN = QT_TRANSLATE_NOOP("JobsPage", "then: {then}")
DONE = QT_TRANSLATE_NOOP("JobsPage", "done: {what}")
STALL = QT_TRANSLATE_NOOP("JobsPage", "stall guard {minutes} min")
REFRESH_FAILED = QT_TRANSLATE_NOOP("JobsPage", "last refresh failed: {why}")


def rate_text(steps_per_s: float | None) -> str:
    if steps_per_s is None or steps_per_s != steps_per_s:
        return DASH
    if steps_per_s >= 100:
        return f"{steps_per_s:,.0f}"
    if steps_per_s >= 1:
        return f"{steps_per_s:.2f}"
    return _t(S_PER_STEP).format(seconds=f"{1 / steps_per_s:.1f}") if steps_per_s > 0 else "0"


def state_text(rec: JobRecord, stalled: bool = False) -> str:
    """running (or its stall badge: no progress for its stall minutes), exited with its code, lost."""
    if rec.state == JobState.RUNNING:
        if stalled and rec.stall_minutes:
            return _t(STALLED).format(minutes=f"{rec.stall_minutes:g}")
        return _t(RUNNING)
    if rec.state == JobState.EXITED:
        return _t(EXITED).format(code="?" if rec.exit_code is None else rec.exit_code)
    return _t(LOST)


def progress_text(rec: JobRecord) -> str:
    """'450 / 1,000' (the step and the total, where known)."""
    if rec.step is None:
        return DASH
    step = f"{rec.step:,.0f}"
    return step if rec.total is None else f"{step} / {rec.total:,.0f}"


def cost_text(row: JobRow, now: float | None = None) -> str:
    if not row.instance:
        return DASH  # a saved server: LabGPU knows no price
    return money_text(row.cost(now), row.currency)


def then_title(then: JobThen) -> str:
    return _t(THEN_TITLES[then])


def done_text(done: str) -> str:
    """What the end action did (app.watch.jobwatch's words), in the user's language."""
    words = [w.strip() for w in done.split(";") if w.strip()]
    return ", ".join(_t(DONE_WORDS[w]) if w in DONE_WORDS else w for w in words)


def details_text(row: JobRow) -> str:
    """One line under the table about the chosen job: how it runs, and what its end did."""
    rec = row.rec
    parts = [_t(ON_HOST).format(id=rec.id, host=rec.host)]
    if rec.detach:
        parts.append(_t(DETACHED).format(how=rec.detach))
    if rec.started:
        parts.append(_t(STARTED).format(when=rec.started.replace("T", " ").replace("Z", " UTC")))
    parts.append(_t(THEN).format(then=then_title(rec.then)))
    if rec.then_done:
        parts.append(_t(DONE).format(what=done_text(rec.then_done)))
    if rec.stall_minutes:
        parts.append(_t(STALL).format(minutes=f"{rec.stall_minutes:g}"))
    if rec.error:
        parts.append(_t(REFRESH_FAILED).format(why=rec.error))
    return " · ".join(parts)


def argv_line(rec: JobRecord) -> str:
    import json

    return json.dumps(list(rec.argv), ensure_ascii=False)
