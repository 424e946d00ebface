"""The sentences the watcher says (events, tray, `labgpu watch`), marked for translation."""

from __future__ import annotations

from app.core.i18n import QT_TRANSLATE_NOOP

MSG_IDLE = QT_TRANSLATE_NOOP("LabGPU", "{target}: every GPU has been under {pct} % for {minutes} minutes")
MSG_IDLE_NOTIFY_ONLY = QT_TRANSLATE_NOOP("LabGPU", "{target}: every GPU has been under {pct} % for {minutes} "
                                                   "minutes — this server has no cloud API, so LabGPU only "
                                                   "notifies; stop it yourself")
MSG_BUDGET_WARN = QT_TRANSLATE_NOOP("LabGPU", "{target} has used {pct} % of its budget ({spent} of {budget} {cur})")
MSG_BUDGET_STOP = QT_TRANSLATE_NOOP("LabGPU", "{target} reached its budget ({spent} of {budget} {cur}): stopping it")
MSG_MAX_RUNTIME = QT_TRANSLATE_NOOP("LabGPU", "{target} ran its maximum of {hours} hours: stopping it")
MSG_PROCESS_EXIT = QT_TRANSLATE_NOOP("LabGPU", "{target}: the process {process} has exited: stopping it")
MSG_STOPPED = QT_TRANSLATE_NOOP("LabGPU", "{target} was stopped by its {guard} guard")
MSG_STOP_FAILED = QT_TRANSLATE_NOOP("LabGPU", "{target} could NOT be stopped after {tries} tries: {why} — it is "
                                              "still billing; stop it in the cloud console (LabGPU keeps "
                                              "trying quietly)")
MSG_STOP_FAILED_CLOCK = QT_TRANSLATE_NOOP("LabGPU", "{target} could NOT be stopped: the cloud refused the request "
                                                    "because this computer's clock is off ({why}) — it is still "
                                                    "billing. Turn on automatic time (NTP) in the system "
                                                    "settings, or stop it in the cloud console; LabGPU keeps "
                                                    "trying quietly")
MSG_STOP_FAILED_NETWORK = QT_TRANSLATE_NOOP("LabGPU", "{target} could NOT be stopped: the cloud could not be "
                                                      "reached ({why}) — it is still billing. Check the network "
                                                      "(Wi-Fi, VPN, proxy), or stop it in the cloud console from "
                                                      "another device; LabGPU keeps trying quietly")
MSG_EPISODE_ENDED = QT_TRANSLATE_NOOP("LabGPU", "{target} is {state} now; its guard stops trying to stop it")
MSG_NO_ANSWER = QT_TRANSLATE_NOOP("LabGPU", "no answer from the cloud within {seconds} s")
MSG_BUDGET_UNKNOWN = QT_TRANSLATE_NOOP("LabGPU", "{target}: its budget guard ({budget} {cur}) cannot act yet — the "
                                                 "price per hour is unknown. Refresh the prices (labgpu prices "
                                                 "refresh --account {account}); LabGPU uses the account's price "
                                                 "as soon as it is known")
MSG_BUDGET_PRICED = QT_TRANSLATE_NOOP("LabGPU", "{target}: its budget guard acts again, with the price "
                                                "{price} {cur}/h ({source})")
MSG_BLIND = QT_TRANSLATE_NOOP("LabGPU", "{target}: the idle guard is blind — {why}; it counts as busy, so "
                                        "nothing is stopped as idle until it sees the GPUs again")
MSG_SIGHTED = QT_TRANSLATE_NOOP("LabGPU", "{target}: the idle guard sees the GPUs again")
MSG_SYNC_FAILED = QT_TRANSLATE_NOOP("LabGPU", "{target}: pulling checkpoints before the stop failed: {why} — "
                                              "the stop goes ahead (a stopped instance keeps its disk)")
MSG_SPOT = QT_TRANSLATE_NOOP("LabGPU", "{target} will be reclaimed by the cloud at {when} ({action}): pulling "
                                      "checkpoints now; you can relaunch the same offer with one click")
MSG_SETTLED = QT_TRANSLATE_NOOP("LabGPU", "{target} was shut down by its on-instance watchdog, and the cloud kept billing its compute while it was stopped, so LabGPU started it and stopped it without charging: {note}")  # noqa: E501 - one string for lupdate
MSG_SETTLE_FAILED = QT_TRANSLATE_NOOP("LabGPU", "{target} was shut down by its on-instance watchdog, but the cloud still bills its compute while it is stopped, and stopping it without charging failed: {why} — terminate it, or start and stop it in LabGPU.")  # noqa: E501 - one string for lupdate
MSG_SYNC_DONE = QT_TRANSLATE_NOOP("LabGPU", "{target}: checkpoints pulled ({purpose})")
MSG_NO_PULL = QT_TRANSLATE_NOOP("LabGPU", "{target}: nothing was pulled — no download sync pair is set up for "
                                          "it (add one with `labgpu guard set {target} --pull REMOTE=LOCAL`)")
MSG_NOTIFY_ONLY = QT_TRANSLATE_NOOP("LabGPU", "{target} is not a LabGPU instance: its guards notify only")
# A stop the cloud refuses for good (app.cloud.base.StopRefusedError: AWS and a one-time spot instance,
# "Stop a Spot Instance", https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/stop-start-spot-instances.html):
# the documented alternative is termination, taken only after the pre-stop pull did not fail; told once.
MSG_TERMINATED = QT_TRANSLATE_NOOP("LabGPU", "{target} was terminated by its {guard} guard: {reason}, so "
                                             "terminating was the only way to end its bill (checkpoints were "
                                             "pulled first; its disk is deleted)")
MSG_TERMINATED_NO_PULL = QT_TRANSLATE_NOOP("LabGPU", "{target} was terminated by its {guard} guard: {reason}, "
                                                     "so terminating was the only way to end its bill (no "
                                                     "checkpoints were pulled; its disk is deleted)")
MSG_STOP_REFUSED = QT_TRANSLATE_NOOP("LabGPU", "{target} is still billing: {reason}, and LabGPU terminates it "
                                               "only after its checkpoints are pulled, which failed — pull what "
                                               "you need, then terminate it (labgpu terminate {target})")
MSG_TERMINATE_FAILED = QT_TRANSLATE_NOOP("LabGPU", "{target} is still billing: {reason}, and terminating it "
                                                   "failed after {tries} tries: {why} — terminate it in the "
                                                   "{cloud} console")
# A job's "then = pull-and-terminate" (app/watch/jobwatch.py): the termination the student chose, after the pull
MSG_TERMINATED_CHOSEN = QT_TRANSLATE_NOOP("LabGPU", "{target} was terminated as its {guard} asked (after the "
                                                    "pull; its disk is deleted)")
