"""What a notice says: the events a student can ask for, and each one's title and text in their language.

An event has a *kind* (a :class:`app.core.vocab.GuardEventKind` value, or ``vpn-down`` / ``test``) and
belongs to one *topic*, the box the student ticks per channel (guard warnings, guard stops, a stop that
failed, spot notices, job ended / failed / stalled, budget thresholds, VPN down). Titles and texts are
templates marked ``QT_TRANSLATE_NOOP("Notify", …)`` (the "notify" catalog), filled with the event's
parameters after translation; every parameter is outside text (a host's, a cloud's, a job's last log line)
and is made plain (control and direction characters out) and capped before it is put in.
"""

from __future__ import annotations

import locale
import os
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.resources import resource_path
from app.core.vocab import GuardEventKind as K

from .qm import QmCatalog

CONTEXT = "Notify"
VPN_DOWN = "vpn-down"
TEST = "test"

MAX_PARAM = 300  # one value from a host or a cloud
MAX_TITLE = 120
MAX_BODY = 1500

# topics: what a channel is asked to carry (ChannelConfig.events)
GUARD_WARN = "guard-warn"
GUARD_STOP = "guard-stop"
STOP_FAILED = "stop-failed"
SPOT = "spot"
JOB_ENDED = "job-ended"
JOB_FAILED = "job-failed"
JOB_STALLED = "job-stalled"
BUDGET = "budget"
VPN = "vpn-down"
GPU_WAIT = "gpu-wait"
SECURITY = "security"
TOPICS = (GUARD_WARN, GUARD_STOP, STOP_FAILED, SPOT, JOB_ENDED, JOB_FAILED, JOB_STALLED, BUDGET, VPN, GPU_WAIT,
          SECURITY)

TOPIC_TITLES = {
    GUARD_WARN: QT_TRANSLATE_NOOP("Notify", "Guard warnings (idle GPUs)"),
    GUARD_STOP: QT_TRANSLATE_NOOP("Notify", "A guard stopped an instance"),
    STOP_FAILED: QT_TRANSLATE_NOOP("Notify", "A stop failed (still billing)"),
    SPOT: QT_TRANSLATE_NOOP("Notify", "Spot interruption notices"),
    JOB_ENDED: QT_TRANSLATE_NOOP("Notify", "Job finished"),
    JOB_FAILED: QT_TRANSLATE_NOOP("Notify", "Job failed"),
    JOB_STALLED: QT_TRANSLATE_NOOP("Notify", "Job stalled"),
    BUDGET: QT_TRANSLATE_NOOP("Notify", "Budget thresholds"),
    VPN: QT_TRANSLATE_NOOP("Notify", "VPN down"),
    GPU_WAIT: QT_TRANSLATE_NOOP("Notify", "Waiting for a GPU: landed or gave up"),
    SECURITY: QT_TRANSLATE_NOOP("Notify", "Unusual logins and cloud calls LabGPU did not make"),
}

# kind → topic. Kinds not listed (pulls, blind/sighted, the watchdog's reports) are not sent away.
TOPIC_OF: dict[str, str] = {
    K.IDLE_NOTIFY: GUARD_WARN,
    K.BUDGET_WARN: BUDGET,
    K.BUDGET_STOP: BUDGET,
    K.IDLE_STOP: GUARD_STOP,
    K.MAX_RUNTIME: GUARD_STOP,
    K.PROCESS_EXIT: GUARD_STOP,
    K.STOPPED: GUARD_STOP,
    K.TERMINATED: GUARD_STOP,
    K.STOP_FAILED: STOP_FAILED,
    K.TERMINATE_FAILED: STOP_FAILED,
    K.STOP_REFUSED: STOP_FAILED,
    K.SPOT_NOTICE: SPOT,
    K.JOB_ENDED: JOB_ENDED,
    K.JOB_FAILED: JOB_FAILED,
    K.JOB_STALLED: JOB_STALLED,
    # spot recovery's steps (app/usecases/spotrecovery.py): the event's own sentence (GENERIC) is sent
    K.RECOVERY_SAVED: SPOT,
    K.RECOVERY_RELAUNCHED: SPOT,
    K.RECOVERY_RESUMED: SPOT,
    K.RECOVERY_GAVE_UP: SPOT,
    K.RECOVERY_SKIPPED: SPOT,
    VPN_DOWN: VPN,
    K.WAIT_LANDED: GPU_WAIT,
    K.WAIT_GAVE_UP: GPU_WAIT,
    K.LOGIN_UNUSUAL: SECURITY,
    K.LOGIN_FAILURES: SECURITY,
    K.CLOUD_FOREIGN: SECURITY,
}

# kind → (title, text). {target} is always there; a template whose other fields are missing falls back
# to the generic text with the event's own words.
TEMPLATES: dict[str, tuple[str, str]] = {
    K.IDLE_NOTIFY: (QT_TRANSLATE_NOOP("Notify", "{target}: the GPUs are idle"),
                    QT_TRANSLATE_NOOP("Notify", "Every GPU of {target} has been under {pct} % for {minutes} "
                                                "minutes.")),
    K.BUDGET_WARN: (QT_TRANSLATE_NOOP("Notify", "{target}: {pct} % of its budget used"),
                    QT_TRANSLATE_NOOP("Notify", "{target} has used {spent} of its budget of {budget} {cur}.")),
    K.BUDGET_STOP: (QT_TRANSLATE_NOOP("Notify", "{target} reached its budget: stopping it"),
                    QT_TRANSLATE_NOOP("Notify", "{target} has used {spent} of its budget of {budget} {cur}; "
                                                "its guard is stopping it.")),
    K.IDLE_STOP: (QT_TRANSLATE_NOOP("Notify", "{target}: idle, stopping it"),
                  QT_TRANSLATE_NOOP("Notify", "Every GPU of {target} has been under {pct} % for {minutes} "
                                              "minutes; its guard is stopping it.")),
    K.MAX_RUNTIME: (QT_TRANSLATE_NOOP("Notify", "{target}: maximum runtime reached, stopping it"),
                    QT_TRANSLATE_NOOP("Notify", "{target} ran its maximum of {hours} hours; its guard is "
                                                "stopping it.")),
    K.PROCESS_EXIT: (QT_TRANSLATE_NOOP("Notify", "{target}: the process exited, stopping it"),
                     QT_TRANSLATE_NOOP("Notify", "The process {process} on {target} has exited; its guard "
                                                 "is stopping it.")),
    K.STOPPED: (QT_TRANSLATE_NOOP("Notify", "{target} was stopped"),
                QT_TRANSLATE_NOOP("Notify", "{target} was stopped by its guard ({guard}). It no longer bills "
                                            "for compute.")),
    K.TERMINATED: (QT_TRANSLATE_NOOP("Notify", "{target} was terminated"),
                   QT_TRANSLATE_NOOP("Notify", "{target} was terminated by its guard ({guard}): {reason}.")),
    K.STOP_FAILED: (QT_TRANSLATE_NOOP("Notify", "{target} could NOT be stopped: still billing"),
                    QT_TRANSLATE_NOOP("Notify", "{target} could not be stopped after {tries} tries: {why}. "
                                                "It is still billing: stop it in the cloud console. LabGPU "
                                                "keeps trying.")),
    K.TERMINATE_FAILED: (QT_TRANSLATE_NOOP("Notify", "{target} could NOT be terminated: still billing"),
                         QT_TRANSLATE_NOOP("Notify", "Terminating {target} failed after {tries} tries: {why}. "
                                                     "It is still billing: terminate it in the cloud console.")),
    K.STOP_REFUSED: (QT_TRANSLATE_NOOP("Notify", "{target} is still billing"),
                     QT_TRANSLATE_NOOP("Notify", "{target} could not be stopped: {reason}. Pull what you need, "
                                                 "then terminate it.")),
    K.SPOT_NOTICE: (QT_TRANSLATE_NOOP("Notify", "{target} will be reclaimed by the cloud"),
                    QT_TRANSLATE_NOOP("Notify", "The cloud reclaims the spot instance {target} at {when} "
                                                "({action}). LabGPU is pulling checkpoints now.")),
    # the watcher's job events (app/watch/jobwatch.py) carry name, job (its id), state and exit_code
    K.JOB_ENDED: (QT_TRANSLATE_NOOP("Notify", "Job {name} on {target} finished"),
                  QT_TRANSLATE_NOOP("Notify", "The job {name} on {target} finished with exit code {exit_code}.")),
    K.JOB_FAILED: (QT_TRANSLATE_NOOP("Notify", "Job {name} on {target} did not end well"),
                   QT_TRANSLATE_NOOP("Notify", "The job {name} on {target} ended ({state}, exit code "
                                               "{exit_code}). Its log: labgpu logs {job}")),
    K.JOB_STALLED: (QT_TRANSLATE_NOOP("Notify", "Job {name} on {target} stalled"),
                    QT_TRANSLATE_NOOP("Notify", "The job {name} on {target} still runs but makes no progress "
                                                "(no new step, log line or TensorBoard event). Its log: labgpu "
                                                "logs {job}")),
    # a launch waiting for a sold-out GPU (app/usecases/waitlaunch.py): type, id (the instance), why, attempts
    K.WAIT_LANDED: (QT_TRANSLATE_NOOP("Notify", "Your {type} is here: {id}"),
                    QT_TRANSLATE_NOOP("Notify", "The wait {target} got {type}: the instance {id} launched after "
                                                "{attempts} attempts.")),
    K.WAIT_GAVE_UP: (QT_TRANSLATE_NOOP("Notify", "Stopped waiting for {type}"),
                     QT_TRANSLATE_NOOP("Notify", "The wait {target} ended without an instance: {why}")),
    # who touched the instance (app/usecases/logins.py, app/usecases/cloudaudit.py)
    K.LOGIN_UNUSUAL: (QT_TRANSLATE_NOOP("Notify", "{target}: unusual SSH login by {user} from {source}"),
                      QT_TRANSLATE_NOOP("Notify", "{target} accepted an SSH login by {user} from {source} at "
                                                  "{time} ({method}): {why}. If this was not you, stop the "
                                                  "instance and change its keys.")),
    K.LOGIN_FAILURES: (QT_TRANSLATE_NOOP("Notify", "{target}: {count} failed SSH logins"),
                       QT_TRANSLATE_NOOP("Notify", "{target} refused {count} SSH logins from {sources} addresses "
                                                   "since {since}; most from {top}. Key-only login keeps them "
                                                   "out.")),
    K.CLOUD_FOREIGN: (QT_TRANSLATE_NOOP("Notify", "{target}: {event} not made by LabGPU"),
                      QT_TRANSLATE_NOOP("Notify", "The account {target} shows {event} on {resource} at {time} by "
                                                  "{actor} from {source}, and LabGPU did not make it. If it was "
                                                  "not you, disable the account's keys in the cloud console.")),
    VPN_DOWN: (QT_TRANSLATE_NOOP("Notify", "VPN {target} is down"),
               QT_TRANSLATE_NOOP("Notify", "The tunnel {target} dropped ({state}): {why}. Hosts behind it "
                                           "cannot be reached until it is back.")),
    TEST: (QT_TRANSLATE_NOOP("Notify", "LabGPU test notice"),
           QT_TRANSLATE_NOOP("Notify", "This is a test from LabGPU. If you can read it, the channel {channel} "
                                       "works.")),
}
GENERIC = (QT_TRANSLATE_NOOP("Notify", "LabGPU: {target}"), QT_TRANSLATE_NOOP("Notify", "{message}"))
SENT_BY = QT_TRANSLATE_NOOP("Notify", "Sent by LabGPU at {time}.")


@dataclass(frozen=True)
class Message:
    kind: str
    target: str
    title: str
    body: str
    lang: str


_UNSAFE_CATEGORIES = ("Cc", "Cf", "Cs", "Co", "Cn")


def plain(text: object, limit: int = MAX_PARAM) -> str:
    """Outside text made plain for a notice: control, format (bidi overrides, zero-width) and unassigned
    characters become spaces (newlines and tabs too), runs of spaces shrink, and the result is capped."""
    s = "" if text is None else str(text)
    s = s[: limit * 4]  # bound the work before looking at each character
    out = "".join(" " if unicodedata.category(c) in _UNSAFE_CATEGORIES else c for c in s)
    out = " ".join(out.split())
    return out if len(out) <= limit else out[: max(0, limit - 1)] + "…"


def system_language() -> str:
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            return "zh_CN" if value.lower().startswith("zh") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "zh_CN" if loc.lower().startswith("zh") else "en"


def resolve_language(setting: str | None) -> str:
    """Settings' language ("system" | "en" | "zh_CN") as the language a notice is written in."""
    if not setting or setting == "system":
        return system_language()
    return "zh_CN" if setting.lower().startswith("zh") else "en"


@lru_cache(maxsize=4)
def _catalog(lang: str) -> QmCatalog | None:
    if lang == "en":
        return None
    return QmCatalog.from_file(resource_path("translations", f"notify_{lang}.qm"))


def translate(template: str, lang: str) -> str:
    catalog = _catalog(lang)
    if catalog is None:
        return template
    return catalog.translate(CONTEXT, template) or template


def _fill(template: str, lang: str, params: Mapping[str, str]) -> str | None:
    try:
        return translate(template, lang).format(**params)
    except (KeyError, IndexError, ValueError):
        return None


def compose(kind: str, params: Mapping[str, Any], *, target: str, lang: str, when: str = "",
            fallback: str = "") -> Message:
    """The notice for event ``kind`` in language ``lang`` ("en" | "zh_CN"); ``params`` and ``fallback``
    (the event's own sentence) are outside text: made plain and capped here."""
    values = {str(k): "—" if v is None else plain(v) for k, v in params.items() if isinstance(k, str)}
    values["target"] = plain(target, 120)
    values.setdefault("message", plain(fallback, MAX_BODY))
    title_t, body_t = TEMPLATES.get(kind, GENERIC)
    title, body = _fill(title_t, lang, values), _fill(body_t, lang, values)
    if title is None or body is None:
        title, body = _fill(GENERIC[0], lang, values), _fill(GENERIC[1], lang, values)
    text = body or values["message"]
    if when:
        text += "\n" + (_fill(SENT_BY, lang, {"time": plain(when, 40)}) or "")
    return Message(kind, values["target"], plain(title, MAX_TITLE), _cap_body(text), lang)


def _cap_body(text: str) -> str:
    lines = [plain(line, MAX_BODY) for line in text.split("\n")]
    out = "\n".join(line for line in lines if line)
    return out if len(out) <= MAX_BODY else out[: MAX_BODY - 1] + "…"
