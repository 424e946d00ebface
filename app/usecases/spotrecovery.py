"""Spot recovery, the journey: a reclaim notice → the latest checkpoint saved in the warning window →
the same offer relaunched where there is capacity (the policy's order, budget and attempt cap) → the
code pair and the checkpoint pushed → the job started again with the resume command → old and new
instance linked as one run. No user action after the policy is set (app/core/recoverypolicy.py).

Every step is stored (app.core.recoverypolicy.RecoveryProgressStore) before the next one starts, so a
watcher that restarts mid-recovery goes on where it stopped: a launch request's client token is stored
before it is sent and sent again after a restart (the cloud answers with the instance it made, never a
second one). Each step is said through ``Recovery.say`` (the watcher turns it into an event → the
notification channels, and an audit row).

Blocking (SSH, cloud calls): the watcher runs it on its own thread (app/watch/recovery.py).
"""

from __future__ import annotations

import dataclasses
import logging
import math
import shlex
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from app.cloud.base import CapacityError, PriceTooLowError
from app.cloud.errors import NetworkError
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core.buckets import is_bucket_url
from app.core.errors import LabGpuError
from app.core.guards import GuardStore
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.instances import Ledger
from app.core.jobs import JobRecord, JobSpec, JobStore
from app.core.paths import Paths
from app.core.recoverypolicy import (
    INSTANCE,
    JOB,
    STEP_GAVE_UP,
    STEP_LAUNCHED,
    STEP_LAUNCHING,
    STEP_RELAUNCHING,
    STEP_RESUMED,
    STEP_SAVING,
    STEP_SKIPPED,
    RecoveryPolicy,
    RecoveryPolicyStore,
    RecoveryProgressStore,
    RecoveryRecord,
)
from app.core.runs import RunStore
from app.core.settings import Settings
from app.core.store import Store
from app.core.vocab import GuardEventKind
from app.remote.ssh import Connection
from app.usecases.spotcheckpoint import (
    WHAT_FAILED,
    WHAT_LATE,
    WHAT_NO_FOLDER,
    copy_latest,
    fetch_checkpoint,
    plain,
    push_checkpoint,
)

log = logging.getLogger(__name__)

WINDOW_MARGIN_S = 5.0  # the copy stops this long before the reclaim time (the instance may go early)
PAST_GRACE_S = 30.0  # a notice whose time passed longer ago than this is "in the past"
REACH_TIMEOUT_S = 300.0  # a new instance's SSH coming up

MSG_SKIP_NOT_OURS = QT_TRANSLATE_NOOP("LabGPU", "{target}: a reclaim notice for an instance LabGPU did not "
                                                "launch — nothing relaunched (recovery acts only on LabGPU's "
                                                "instances)")
MSG_SKIP_PAST = QT_TRANSLATE_NOOP("LabGPU", "{target}: the reclaim notice is for {when}, which has passed — "
                                            "nothing relaunched; check the instance and relaunch it yourself "
                                            "if it is gone")
MSG_SKIP_AGAIN = QT_TRANSLATE_NOOP("LabGPU", "{target}: its recovery has already started ({step}) — this "
                                             "notice starts no second one")
MSG_SAVED = QT_TRANSLATE_NOOP("LabGPU", "{target}: checkpoint saved in the warning window: {what}")
MSG_NOT_SAVED = QT_TRANSLATE_NOOP("LabGPU", "{target}: no checkpoint saved: {what} — the relaunch goes ahead "
                                            "and the job starts from scratch")
MSG_RELAUNCHED = QT_TRANSLATE_NOOP("LabGPU", "{target} was reclaimed: relaunched as {new} ({where}, {market}) "
                                             "after {attempts} launch attempt(s)")
MSG_RESUMED = QT_TRANSLATE_NOOP("LabGPU", "{target}: the job {name} runs again on {new} ({how})")
MSG_GAVE_UP = QT_TRANSLATE_NOOP("LabGPU", "{target}: recovery gave up — {why}")
# why it gave up
WHY_ATTEMPTS = QT_TRANSLATE_NOOP("LabGPU", "the policy's {max} launch attempts are used up ({tried})")
WHY_BUDGET = QT_TRANSLATE_NOOP("LabGPU", "the budget of {budget} {cur} would be passed: the run has cost {spent} "
                                         "and the next instance costs {price} {cur}/h")
WHY_NO_PRICE = QT_TRANSLATE_NOOP("LabGPU", "the price of {what} is not known, so the budget cannot be kept")
WHY_NOWHERE = QT_TRANSLATE_NOOP("LabGPU", "no allowed place had capacity ({tried})")
WHY_ERROR = QT_TRANSLATE_NOOP("LabGPU", "the launch failed: {why}")
WHY_NO_SSH = QT_TRANSLATE_NOOP("LabGPU", "{new} did not answer over SSH within {seconds} s ({why}); it keeps "
                                         "running — terminate it or start the job yourself")
WHY_RESUME = QT_TRANSLATE_NOOP("LabGPU", "the job could not be started on {new}: {why}; it keeps running — "
                                         "terminate it or start the job yourself")
WHY_DISABLED = QT_TRANSLATE_NOOP("LabGPU", "the recovery policy was switched off")
HOW_RESUMED = QT_TRANSLATE_NOOP("LabGPU", "resumed from {checkpoint}")
HOW_FRESH = QT_TRANSLATE_NOOP("LabGPU", "started from scratch: no checkpoint was saved")
WHY_UNREACHED = QT_TRANSLATE_NOOP("LabGPU", "the cloud did not answer the launch request: {why}; the next "
                                           "watcher start asks again with the same request (never a second "
                                           "instance)")
STEP_WORDS = {
    STEP_SAVING: QT_TRANSLATE_NOOP("LabGPU", "saving the checkpoint"),
    STEP_RELAUNCHING: QT_TRANSLATE_NOOP("LabGPU", "relaunching"),
    STEP_LAUNCHING: QT_TRANSLATE_NOOP("LabGPU", "relaunching"),
    STEP_LAUNCHED: QT_TRANSLATE_NOOP("LabGPU", "relaunched"),
    STEP_RESUMED: QT_TRANSLATE_NOOP("LabGPU", "resumed"),
    STEP_GAVE_UP: QT_TRANSLATE_NOOP("LabGPU", "gave up"),
    STEP_SKIPPED: QT_TRANSLATE_NOOP("LabGPU", "skipped"),
}
NETWORK_TRIES = 3  # a launch request without an answer is asked again (same token) this many times
SPOT_WORD = QT_TRANSLATE_NOOP("LabGPU", "spot")
ON_DEMAND_WORD = QT_TRANSLATE_NOOP("LabGPU", "on-demand")

# step → the event kind said
KIND_SKIPPED = GuardEventKind.RECOVERY_SKIPPED
KIND_SAVED = GuardEventKind.RECOVERY_SAVED
KIND_RELAUNCHED = GuardEventKind.RECOVERY_RELAUNCHED
KIND_RESUMED = GuardEventKind.RECOVERY_RESUMED
KIND_GAVE_UP = GuardEventKind.RECOVERY_GAVE_UP

Say = Callable[[str, str, str, dict[str, Any]], None]  # (target, kind, template, params)
ConnectTo = Callable[[str], Connection]


@dataclass(frozen=True)
class Candidate:
    """One place a relaunch is tried: an account (its cloud), a region, a zone ("" = the cloud picks), a
    type, spot or on-demand."""

    account: str
    region: str
    zone: str
    instance_type: str
    spot: bool

    def key(self) -> str:
        return f"{self.account}/{self.region}/{self.zone or '*'}/{self.instance_type}/" \
               f"{'spot' if self.spot else 'on-demand'}"


@dataclass
class Recovery:
    """What the journey needs; the watcher fills it (tests hand in fakes for the clock and the sleep)."""

    paths: Paths
    store: Store
    say: Say
    connect: ConnectTo  # target id → an SSH connection (host key verified)
    settings: Settings = field(default_factory=Settings)
    clock: Callable[[], float] = time.time
    sleep: Callable[[float], None] = time.sleep
    reach_timeout_s: float = REACH_TIMEOUT_S
    service: Callable[[], CloudService] | None = None  # a fresh CloudService per recovery (None: the default)
    stopping: Callable[[], bool] = lambda: False  # the watcher is closing: stop between steps (stored)

    def __post_init__(self) -> None:
        self.progress = RecoveryProgressStore(self.store)
        self.policies = RecoveryPolicyStore(self.store)
        self.ledger = Ledger(self.store)
        self.jobs = JobStore(self.store)

    # -- the notice -------------------------------------------------------------------------------------
    def on_notice(self, instance_id: str, notice_time: datetime) -> RecoveryRecord | None:
        """A reclaim notice for ``instance_id``: start its recovery (and run it to its end) when a policy
        applies; None when none does (the plain notice path goes on alone)."""
        entry = self.ledger.get(instance_id)
        job_ids = [j.id for j in self.jobs.all(instance_id) if j.running] if entry is not None else []
        found = self.policies.effective(instance_id, job_ids) if entry is not None else None
        if found is None and entry is not None:
            before = self.progress.by_new_instance(instance_id)  # a relaunch reclaimed: its run's policy
            if before is not None and before.policy:
                found = (before.policy_kind, before.policy_target, before.get_policy())
        if entry is None:  # the safe thing: nothing relaunched for what LabGPU did not launch
            self.say(instance_id, KIND_SKIPPED, MSG_SKIP_NOT_OURS, {"target": instance_id})
            return None
        if found is None:
            return None
        kind, target, policy = found
        when = notice_time.astimezone(timezone.utc)
        if when.timestamp() < self.clock() - PAST_GRACE_S:
            self.say(instance_id, KIND_SKIPPED, MSG_SKIP_PAST,
                     {"target": instance_id, "when": when.strftime("%Y-%m-%d %H:%M:%S UTC")})
            return None
        before = self.progress.by_new_instance(instance_id)
        job_id = target if kind == JOB else (job_ids[0] if job_ids else "")
        if not job_id and before is not None:
            job_id = before.new_job
        rec = RecoveryRecord(instance_id=instance_id, provider=entry.provider, notice_time=when.isoformat(),
                             started_at=self.clock(), policy_kind=kind, policy_target=target,
                             policy=policy.to_json(), job_id=job_id,
                             attempts_before=(before.attempts_before + before.attempts) if before else 0,
                             run_id=before.run_id if before else "")
        stored, created = self.progress.claim(rec, now=self.clock())
        if not created:
            self.say(instance_id, KIND_SKIPPED, MSG_SKIP_AGAIN,
                     {"target": instance_id, "step": translate(STEP_WORDS.get(stored.step, stored.step))})
            return None
        return self.run(stored)

    # -- the steps --------------------------------------------------------------------------------------
    def run(self, rec: RecoveryRecord) -> RecoveryRecord:
        """Run ``rec`` from its stored step to its end (a restarted watcher calls this for each unfinished
        one)."""
        policy = rec.get_policy()
        try:
            if rec.step == STEP_SAVING:
                self._save(rec, policy)
                self._step(rec, STEP_RELAUNCHING)
            self._check_stopping()
            if rec.step in (STEP_RELAUNCHING, STEP_LAUNCHING) and not self._relaunch(rec, policy):
                return rec
            self._check_stopping()
            if rec.step == STEP_LAUNCHED:
                self._resume(rec, policy)
        except _Unanswered:
            pass  # left at its step (a launch request's token stored): the next watcher goes on from there
        return rec

    def _check_stopping(self) -> None:
        if self.stopping():
            log.info("the watcher closes: the recovery goes on in the next one")
            raise _Unanswered

    def _step(self, rec: RecoveryRecord, step: str) -> None:
        rec.step = step
        self.progress.save(rec, now=self.clock())

    def _give_up(self, rec: RecoveryRecord, why: str) -> None:
        rec.message = why
        self._step(rec, STEP_GAVE_UP)
        self.say(rec.instance_id, KIND_GAVE_UP, MSG_GAVE_UP, {"target": rec.instance_id, "why": why})

    # 1. the checkpoint ----------------------------------------------------------------------------------
    def _save(self, rec: RecoveryRecord, policy: RecoveryPolicy) -> None:
        target = rec.instance_id
        deadline = datetime.fromisoformat(rec.notice_time).timestamp() - WINDOW_MARGIN_S
        if not policy.checkpoint_remote:
            what = translate(WHAT_NO_FOLDER)
        elif self.clock() >= deadline:
            what = translate(WHAT_LATE)
        else:
            try:
                conn = self.connect(target)
            except (LabGpuError, OSError) as exc:
                what = translate(WHAT_FAILED).format(why=plain(_why(exc)))
            else:
                try:
                    what, local = copy_latest(conn, policy, deadline, self.clock, paths=self.paths)
                    rec.saved_local = local or rec.saved_local
                except (LabGpuError, OSError) as exc:
                    what = translate(WHAT_FAILED).format(why=plain(_why(exc)))
                finally:
                    conn.close()
        rec.saved_note = what
        self.progress.save(rec, now=self.clock())
        self.say(target, KIND_SAVED, MSG_SAVED if rec.saved_local else MSG_NOT_SAVED,
                 {"target": target, "what": what, "file": Path(rec.saved_local).name if rec.saved_local else ""})

    # 2. the relaunch ------------------------------------------------------------------------------------
    def _candidates(self, svc: CloudService, rec: RecoveryRecord, policy: RecoveryPolicy) -> list[Candidate]:
        old = self.ledger.get(rec.instance_id)
        assert old is not None
        places: list[tuple[str, str, str, str]] = [(old.account, old.region, old.zone, old.instance_type)]
        if policy.other_zones:
            try:
                acct = dataclasses.replace(svc.accounts.get(old.account), region=old.region)
                zones = svc.zones(acct, old.instance_type)
            except LabGpuError as exc:
                log.info("zones of %s not listed: %s", old.region, exc.one_line())
                zones = []
            places += [(old.account, old.region, z, old.instance_type) for z in zones if z and z != old.zone]
        places += [(old.account, r, "", old.instance_type) for r in policy.regions if r != old.region]
        for item in policy.accounts:
            name, _, itype = item.partition(":")
            places.append((name, "", "", itype or old.instance_type))
        markets = [m for m, ok in ((True, policy.spot), (False, policy.on_demand)) if ok]
        return [Candidate(a, r, z, t, spot) for spot in markets for (a, r, z, t) in places]

    def _relaunch(self, rec: RecoveryRecord, policy: RecoveryPolicy) -> bool:
        """Try the candidates in order until one launches (→ STEP_LAUNCHED, linked to the run); False
        when it gave up (said why)."""
        current = self.policies.get(rec.policy_kind, rec.policy_target) if rec.policy_target else None
        if current is not None and not current.enabled:
            self._give_up(rec, translate(WHY_DISABLED))
            return False
        svc = self.service() if self.service is not None else CloudService(self.paths, self.store)
        try:
            if rec.step == STEP_LAUNCHING and rec.token:  # cut short after the request: ask again, same token
                cand = Candidate(**rec.candidate)
                result = self._launch_one(svc, rec, cand)
                if result is not None:
                    return self._launched(svc, rec, cand, result)
                if rec.step == STEP_GAVE_UP:
                    return False
            tried = {t.split(":", 1)[0] for t in rec.tried}
            for cand in self._candidates(svc, rec, policy):
                if cand.key() in tried:
                    continue
                self._check_stopping()
                if rec.attempts_before + rec.attempts >= policy.max_attempts:
                    self._give_up(rec, translate(WHY_ATTEMPTS).format(max=policy.max_attempts,
                                                                      tried=plain("; ".join(rec.tried), 600)))
                    return False
                why = self._over_budget(svc, rec, policy, cand)
                if why:
                    self._give_up(rec, why)
                    return False
                rec.candidate = dataclasses.asdict(cand)
                rec.token = "lg-" + uuid.uuid4().hex
                rec.attempts += 1
                self._step(rec, STEP_LAUNCHING)  # the token is stored before the request goes out
                result = self._launch_one(svc, rec, cand)
                if result is not None:
                    return self._launched(svc, rec, cand, result)
                if rec.step == STEP_GAVE_UP:
                    return False
            self._give_up(rec, translate(WHY_NOWHERE).format(tried=plain("; ".join(rec.tried), 600)))
            return False
        finally:
            svc.close()

    def _launch_one(self, svc: CloudService, rec: RecoveryRecord, cand: Candidate) -> Any:
        """One launch request (exactly one RunInstances: the zone is named); None when it was refused for
        capacity or price (noted in ``tried``) or failed (gave up, said why)."""
        from app.usecases.launch import launch

        old = self.ledger.get(rec.instance_id)
        same_place = old is not None and cand.account == old.account and cand.region == old.region
        opts = LaunchOptions(account=cand.account, instance_type=cand.instance_type, zone=cand.zone,
                             region=cand.region, spot=cand.spot,
                             image_id=old.image_id if (same_place and old is not None) else "",
                             name=old.name if old is not None else "", client_token=rec.token)
        guard = GuardStore(self.store).get(rec.instance_id)
        for attempt in range(NETWORK_TRIES):
            try:
                return launch(svc, self.settings, opts, guard=guard, reach_timeout_s=self.reach_timeout_s).result
            except NetworkError as exc:
                # the request may have reached the cloud: asked again with the same token (the cloud answers
                # with the instance it made, if it made one); the token stays stored for the next watcher
                if attempt + 1 < NETWORK_TRIES:
                    self.sleep(2.0 * (attempt + 1))
                    continue
                rec.message = translate(WHY_UNREACHED).format(why=plain(exc.one_line(), 300))
                self.progress.save(rec, now=self.clock())
                self.say(rec.instance_id, KIND_GAVE_UP, MSG_GAVE_UP, {"target": rec.instance_id, "why": rec.message})
                raise _Unanswered from None
            except (CapacityError, PriceTooLowError, LabGpuError) as exc:
                return self._refused(rec, cand, exc)
        return None

    def _refused(self, rec: RecoveryRecord, cand: Candidate, exc: LabGpuError) -> Any:
        if isinstance(exc, (CapacityError, PriceTooLowError)):
            rec.tried.append(f"{cand.key()}: {plain(exc.text(), 160)}")
            rec.token = ""
            rec.candidate = {}
            self._step(rec, STEP_RELAUNCHING)
            return None
        rec.tried.append(f"{cand.key()}: {plain(exc.text(), 160)}")
        self._give_up(rec, translate(WHY_ERROR).format(why=plain(exc.one_line(), 300)))
        return None

    def _over_budget(self, svc: CloudService, rec: RecoveryRecord, policy: RecoveryPolicy,
                     cand: Candidate) -> str:
        """Why launching ``cand`` would pass the budget ("" when it fits or there is none): the run's cost
        so far plus one hour of the candidate's price (a spot one's maximum, an upper bound)."""
        if policy.budget is None:
            return ""
        from app.usecases.launch import plan_launch

        old = self.ledger.get(rec.instance_id)
        cur = old.currency if old is not None else ""
        try:
            plan = plan_launch(svc, self.settings, cand.account, cand.instance_type, region=cand.region,
                               zone=cand.zone, list_zones=False)
        except LabGpuError as exc:
            log.info("no plan for %s: %s", cand.key(), exc.one_line())
            return translate(WHY_NO_PRICE).format(what=plain(cand.key(), 120))
        cap = plan.cap(cand.spot)
        price = cap.price if (cand.spot and cap is not None) else plan.on_demand
        if price is None or (cur and plan.currency != cur):
            return translate(WHY_NO_PRICE).format(what=plain(cand.key(), 120))
        spent = self.run_spent(rec)
        if spent + price > float(policy.budget) + 1e-9:
            return translate(WHY_BUDGET).format(budget=_money(float(policy.budget)), cur=plan.currency,
                                                spent=_money(spent), price=_money(price))
        return ""

    def run_spent(self, rec: RecoveryRecord) -> float:
        """What the run has cost so far: the instances recovered before this one and this one."""
        from app.core.costs import instance_cost

        ids = [rec.instance_id]
        chain = rec
        while True:
            prev = next((r for r in self.progress.all() if r.new_instance == chain.instance_id), None)
            if prev is None or prev.instance_id in ids:
                break
            ids.append(prev.instance_id)
            chain = prev
        total = 0.0
        now = datetime.fromtimestamp(self.clock(), timezone.utc)
        for iid in ids:
            e = self.ledger.get(iid, now=now)
            if e is None:
                continue
            so_far = instance_cost(e, now).so_far
            total += float(so_far) if so_far is not None and math.isfinite(so_far) else 0.0
        return total

    def _launched(self, svc: CloudService, rec: RecoveryRecord, cand: Candidate, result: Any) -> bool:
        entry = result.entry
        rec.new_instance, rec.new_provider = entry.id, entry.provider
        rec.run_id = link_run(self.store, rec.provider, rec.instance_id, entry.provider, entry.id) or rec.run_id
        # the new instance carries the policy on (a relaunch that is itself reclaimed recovers again)
        self.policies.set(INSTANCE, entry.id, rec.get_policy(), now=self.clock())
        self._step(rec, STEP_LAUNCHED)
        where = f"{cand.account} {entry.zone or cand.zone or cand.region}"
        self.say(rec.instance_id, KIND_RELAUNCHED, MSG_RELAUNCHED,
                 {"target": rec.instance_id, "new": entry.id, "where": plain(where, 120),
                  "market": translate(SPOT_WORD if cand.spot else ON_DEMAND_WORD),
                  "attempts": rec.attempts, "run": rec.run_id})
        return True

    # 3. the job ------------------------------------------------------------------------------------------
    def _resume(self, rec: RecoveryRecord, policy: RecoveryPolicy) -> None:
        from app.usecases import jobs as usecase

        new = rec.new_instance
        conn, why = self._reach(new)
        if conn is None:
            self._give_up(rec, translate(WHY_NO_SSH).format(new=new, seconds=f"{self.reach_timeout_s:g}",
                                                            why=plain(why, 300)))
            return
        old_job = self.jobs.get(rec.job_id) if rec.job_id else None
        already = [j for j in self.jobs.all(new) if j.running]
        if already:  # started by a watcher that stopped before it could say so: not started twice
            conn.close()
            rec.new_job = already[0].id
            self._step(rec, STEP_RESUMED)
            return
        try:
            checkpoint = ""
            if rec.saved_local and is_bucket_url(rec.saved_local):  # only the bucket got it in the window
                checkpoint = fetch_checkpoint(conn, policy, rec.saved_local, paths=self.paths)
            elif rec.saved_local and Path(rec.saved_local).is_file():
                checkpoint = push_checkpoint(conn, Path(rec.saved_local), policy.checkpoint_remote)
            pair = None
            if policy.code_local and policy.code_remote:
                pair = usecase.upload_pair(self.store, new, policy.code_local, policy.code_remote)
            spec = resume_spec(new, policy, old_job, checkpoint, pair)
            started = usecase.start_job(self.paths, self.store, spec, connect=lambda: self.connect(new))
        except LabGpuError as exc:
            self._give_up(rec, translate(WHY_RESUME).format(new=new, why=plain(exc.one_line(), 300)))
            return
        finally:
            conn.close()
        rec.new_job = started.id
        # the resumed job carries the job's policy on
        if rec.policy_kind == JOB:
            self.policies.set(JOB, started.id, policy, now=self.clock())
        self._step(rec, STEP_RESUMED)
        how = translate(HOW_RESUMED).format(checkpoint=plain(checkpoint, 200)) if checkpoint else translate(HOW_FRESH)
        self.say(rec.instance_id, KIND_RESUMED, MSG_RESUMED,
                 {"target": rec.instance_id, "new": new, "name": plain(started.display_name, 100), "how": how,
                  "job": started.id, "checkpoint": checkpoint})

    def _reach(self, target: str) -> tuple[Connection | None, str]:
        end = self.clock() + self.reach_timeout_s
        delay = 2.0
        while True:
            try:
                return self.connect(target), ""
            except (LabGpuError, OSError) as exc:
                last = _why(exc)
                log.info("%s not reachable yet: %s", target, last)
            if self.clock() + delay > end:
                return None, last
            self._check_stopping()
            self.sleep(delay)
            delay = min(delay * 1.5, 15.0)


class _Unanswered(Exception):  # noqa: N818 - the recovery stops at a stored step (a launch request the cloud
    pass                         # never answered, or the watcher closing); the next watcher goes on


def resume_spec(host: str, policy: RecoveryPolicy, old: JobRecord | None, checkpoint: str,
                pair: int | None) -> JobSpec:
    """The job that goes on: the resume command (``{checkpoint}`` = the pushed file, quoted) with the old
    job's name, progress pattern, TensorBoard folder, stall rule and "then"."""
    argv = shlex.split(policy.resume_argv_text(shlex.quote(checkpoint) if checkpoint else "''"))
    workdir = policy.workdir or (old.workdir if old is not None else "") or policy.code_remote
    if old is None:
        return JobSpec(host=host, argv=argv, workdir=workdir, sync_pair=pair)
    return JobSpec(host=host, argv=argv, name=old.name, workdir=workdir, sync_pair=pair, then=old.then,
                   progress_pattern=old.progress_pattern, tb_logdir=old.tb_logdir, stall_minutes=old.stall_minutes,
                   stall_action=old.stall_action, stop_on_failure=old.stop_on_failure)


def link_run(store: Store, old_provider: str, old_id: str, new_provider: str, new_id: str) -> str:
    """Link the new instance to the old one's run (app.core.runs); "" when the link was refused (logged)."""
    try:
        run = RunStore(store).link(old_provider, old_id, new_provider, new_id)
    except LabGpuError as exc:
        log.warning("run link of %s → %s refused: %s", old_id, new_id, exc.one_line())
        return ""
    return str(run.id)


def _money(x: float) -> str:
    return f"{x:.2f}"


def _why(exc: BaseException) -> str:
    return exc.one_line() if isinstance(exc, LabGpuError) else (str(exc) or type(exc).__name__)


