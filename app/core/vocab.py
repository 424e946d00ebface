"""One vocabulary for what the layers say to each other: instance states, launch steps, guard events.

Each is a ``str`` enum, so a value compares equal to its text and is stored and shown as that text
(the ledger, the audit log, ``--json`` and translations keep the words they had). Provider plugins
map their clouds' states onto :class:`InstanceState`; everything above them uses these names only.
"""

from __future__ import annotations

from enum import Enum


class Word(str, Enum):
    """A str enum shown and formatted as its value."""

    def __str__(self) -> str:
        return str(self.value)


class InstanceState(Word):
    PENDING = "pending"
    RUNNING = "running"
    STOPPING = "stopping"
    STOPPED = "stopped"
    # stopped by the OS or the cloud, but its compute still bills (Tencent STOPPED with StopChargingMode
    # KEEP_CHARGING, Alibaba Stopped with StoppedMode KeepCharging): never shown or counted as free
    STOPPED_BILLING = "stopped_billing"
    STARTING = "starting"
    # held by the cloud and not billing, but not gone: it may come back (Tencent SHUTDOWN: in arrears or
    # in the recycle bin, restorable until it is destroyed)
    ISOLATED = "isolated"
    TERMINATING = "terminating"
    TERMINATED = "terminated"
    FAILED = "failed"


class LaunchStep(Word):
    """A launch's progress steps, in order (``ZONE``: the launcher moves on to another zone)."""

    KEY = "key"
    SECURITY_GROUP = "security_group"
    IMAGE = "image"
    REQUEST = "request"
    WAIT = "wait"
    ZONE = "zone"
    GUARD = "guard"  # after the launch's own steps: the guard saved, the watchdog installed


class GuardEventKind(Word):
    IDLE_NOTIFY = "idle-notify"
    IDLE_STOP = "idle-stop"
    BUDGET_WARN = "budget-warn"
    BUDGET_STOP = "budget-stop"
    MAX_RUNTIME = "max-runtime"
    PROCESS_EXIT = "process-exit"
    SPOT_NOTICE = "spot-notice"
    STOP_FAILED = "stop-failed"
    STOPPED = "stopped"
    NOTIFY_ONLY = "notify-only"
    SYNC_DONE = "sync-done"
    SYNC_NONE = "sync-none"
    SYNC_FAILED = "sync-failed"
    STOP_REFUSED = "stop-refused"
    TERMINATED = "terminated"
    TERMINATE_FAILED = "terminate-failed"
    BUDGET_UNKNOWN = "budget-unknown"
    BUDGET_PRICED = "budget-priced"
    BLIND = "blind"
    SIGHTED = "sighted"
    WATCHDOG = "watchdog"
    # a training job LabGPU started on the host (app/usecases/jobs.py): it ended, failed or stalled
    JOB_ENDED = "job-ended"
    JOB_FAILED = "job-failed"
    JOB_STALLED = "job-stalled"
    # spot recovery (app/usecases/spotrecovery.py): each step of a reclaimed instance's recovery
    RECOVERY_SAVED = "recovery-saved"
    RECOVERY_RELAUNCHED = "recovery-relaunched"
    RECOVERY_RESUMED = "recovery-resumed"
    RECOVERY_GAVE_UP = "recovery-gave-up"
    RECOVERY_SKIPPED = "recovery-skipped"
    # a launch waiting for a sold-out GPU (app/usecases/waitlaunch.py): it landed, or the wait gave up
    WAIT_LANDED = "wait-landed"
    WAIT_GAVE_UP = "wait-gave-up"
    # who touched the instance (issue 27): an accepted SSH login that is unusual, a summary of failed
    # logins, a state-changing cloud API call LabGPU did not make (or a console login)
    LOGIN_UNUSUAL = "login-unusual"
    LOGIN_FAILURES = "login-failures"
    CLOUD_FOREIGN = "cloud-foreign-call"


class JobState(Word):
    """A job LabGPU started on a host: running, exited (with its code), or lost (the host no longer
    knows it: its record is gone, or its process died without the wrapper writing an exit status)."""

    RUNNING = "running"
    EXITED = "exited"
    LOST = "lost"


class JobThen(Word):
    """What happens when a job ends: the host's download pairs pulled, then the instance stopped or
    terminated through the guards' journey."""

    NOTHING = "nothing"
    PULL = "pull"
    PULL_AND_STOP = "pull-and-stop"
    PULL_AND_TERMINATE = "pull-and-terminate"


S = InstanceState
# billed compute time (pending/stopping are not billed on AWS or CVM); a stop that keeps charging bills
# compute as if it ran: its segment stays open
RUNNING_STATES = (S.RUNNING, S.STOPPED_BILLING)
# what a provider may still charge for: the instance exists and is not stopped without charging
BILLING_STATES = (S.PENDING, S.RUNNING, S.STOPPING, S.STOPPED_BILLING, S.STARTING)
# not billing for compute, and not gone
IDLE_STATES = (S.STOPPED, S.ISOLATED)
TERMINAL_STATES = (S.TERMINATED, S.FAILED)
# a guard has nothing left to stop
STOPPED_STATES = (S.STOPPING, S.STOPPED, S.STOPPED_BILLING, S.ISOLATED, S.TERMINATING, S.TERMINATED)
LAUNCH_STEPS = (LaunchStep.KEY, LaunchStep.SECURITY_GROUP, LaunchStep.IMAGE, LaunchStep.REQUEST, LaunchStep.WAIT)
EVENT_KINDS = tuple(GuardEventKind)
