"""Training jobs: `labgpu run HOST … -- CMD…`, `labgpu jobs [HOST] [--json]`, `labgpu jobs stop JOB`,
`labgpu logs JOB [-f]` — thin callers of app/usecases/jobs.py.

The command after ``--`` is its argument list exactly as typed: it reaches the host quoted once by
LabGPU and runs as a program with its arguments (for a shell line, run ``bash -c '…'``). A host's text
(log lines, names found on the host) is printed through terminal_safe.
"""

from __future__ import annotations

import argparse
import sys
import threading
from typing import Any

from app.cli.output import print_json, print_table, terminal_safe, translate
from app.cli.recovery import add_recovery_shortcuts, policy_from_shortcuts
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import JobThen

MSG_NO_COMMAND = QT_TRANSLATE_NOOP("LabGPU", "No command to run.")
HINT_NO_COMMAND = QT_TRANSLATE_NOOP("LabGPU", "Put the command after `--`, e.g. `labgpu run HOST --name t -- python "
                                              "train.py --epochs 3`.")
MSG_JOBS_USAGE = QT_TRANSLATE_NOOP("LabGPU", "`labgpu jobs` takes a host, or `stop JOB`.")
HINT_JOBS_USAGE = QT_TRANSLATE_NOOP("LabGPU", "e.g. `labgpu jobs`, `labgpu jobs gpu1 --json`, `labgpu jobs stop "
                                              "3f2a`.")
MSG_BAD_SYNC = QT_TRANSLATE_NOOP("LabGPU", "--sync takes LOCAL=REMOTE or a saved pair's number, not {value}.")
MSG_BAD_GRACE = QT_TRANSLATE_NOOP("LabGPU", "--grace must be 0 to 600 seconds.")

THEN_CHOICES = [str(t) for t in JobThen if t != JobThen.NOTHING]


def _add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--name", default="", help=translate("LabGPU", "a name for the job (shown in `labgpu jobs`)"))
    p.add_argument("--workdir", default="", metavar="DIR",
                   help=translate("LabGPU", "the folder it runs in on the host (default: the home folder; "
                                            "~/… allowed)"))
    p.add_argument("--sync", default=None, metavar="PAIR",
                   help=translate("LabGPU", "upload before the start: LOCAL=REMOTE (saved as an upload pair of the "
                                            "host), or the "
                        "number of a saved pair"))
    p.add_argument("--then", choices=THEN_CHOICES, default=str(JobThen.NOTHING),
                   help=translate("LabGPU", "when it ends: pull the host's download pairs, then stop or terminate the "
                                            "instance "
                        "(while LabGPU watches)"))
    p.add_argument("--stop-on-failure", action="store_true",
                   help=translate("LabGPU", "with a --then that stops or terminates: do it also when the job fails "
                                            "(exits non-zero "
                        "or is lost); by default a failed job is pulled and notified, the instance kept"))
    p.add_argument("--progress-pattern", default=None, metavar="RE",
                   help=translate("LabGPU", "a regular expression with a named group 'step' (and optionally 'total') "
                                            "for the "
                        "progress, when the log has no tqdm/Trainer/Lightning bar"))
    p.add_argument("--tb-logdir", default=None, metavar="DIR",
                   help=translate("LabGPU", "a TensorBoard log folder on the host: steps are also read from its event "
                                            "files"))
    p.add_argument("--stall-minutes", type=float, default=None, metavar="N",
                   help=translate("LabGPU", "no new step, log line or event for N minutes: a stall notice (while "
                                            "LabGPU watches)"))
    p.add_argument("--stall-action", choices=("notify", "stop"), default="notify",
                   help=translate("LabGPU", "on a stall: notify (default), or pull and stop as --then says"))
    add_recovery_shortcuts(p)  # --recovery-resume/-checkpoint/-code (app/cli/recovery.py)
    p.add_argument("--json", action="store_true", help=translate("LabGPU", "print the started job as JSON"))


def register(subparsers: Any) -> None:
    run = subparsers.add_parser(
        "run", help=translate("LabGPU", "start a command on a host, detached (it survives SSH drops): a training job"),
        description=translate("LabGPU", "Start CMD on HOST detached (tmux when the host has it, else setsid), with "
                                        "its log and "
                    "exit status recorded under ~/.labgpu/jobs/<id>/ on the host. CMD is the program and its "
                    "arguments after --, exactly as typed."),
        usage="labgpu run HOST [options] -- CMD [ARG ...]")
    run.add_argument("host", metavar="HOST", help=translate("LabGPU", "a host of `labgpu hosts ls` or a LabGPU "
                                                                      "instance id"))
    _add_run_options(run)
    run.add_argument("command", nargs=argparse.REMAINDER, metavar="-- CMD", help=translate("LabGPU", "the command and "
                                                                                                     "its arguments"))
    run.set_defaults(func=cmd_run)

    jobs = subparsers.add_parser(
        "jobs", help=translate("LabGPU", "the training jobs (all, or one host's); `jobs stop JOB` stops one"),
        usage="labgpu jobs [HOST] [--json] [--no-refresh] | labgpu jobs stop JOB [--grace S]")
    jobs.add_argument("words", nargs="*", metavar="HOST | stop JOB", help=argparse.SUPPRESS)
    jobs.add_argument("--json", action="store_true",
                      help=translate("LabGPU", "a JSON list: id, name, host, state, exit_code, steps_per_s, eta_s, "
                                               "started, last_line…"))
    jobs.add_argument("--no-refresh", action="store_true", help=translate("LabGPU", "what is known, without asking "
                                                                                    "the hosts"))
    jobs.add_argument("--grace", type=float, default=10.0, metavar="S",
                      help=translate("LabGPU", "with stop: seconds between TERM and KILL (default 10)"))
    jobs.set_defaults(func=cmd_jobs)

    logs = subparsers.add_parser("logs", help=translate("LabGPU", "a job's log (-f: follow it until the job ends)"))
    logs.add_argument("job", metavar="JOB", help=translate("LabGPU", "a job id (its first digits are enough) or name"))
    logs.add_argument("-f", "--follow", action="store_true", help=translate("LabGPU", "keep printing new output until "
                                                                                      "the job ends"))
    logs.add_argument("--tail", type=int, default=None, metavar="BYTES",
                      help=translate("LabGPU", "start this many bytes before the end (default: the whole log)"))
    logs.set_defaults(func=cmd_logs)


# -- run -----------------------------------------------------------------------------------------------------

def split_command(rest: list[str]) -> tuple[list[str], list[str]]:
    """(options given after HOST, the command). argparse keeps everything after HOST in ``rest`` and drops a
    ``--`` that comes first; options there end at the first ``--``, and a command that does not start
    with ``-`` is taken whole (a ``--`` inside it stays its own)."""
    if rest and rest[0].startswith("-"):
        if "--" not in rest:
            raise InputError(MSG_NO_COMMAND, HINT_NO_COMMAND, code="JobNoCommand")
        i = rest.index("--")
        return rest[:i], rest[i + 1:]
    return [], list(rest)


def _sync_pair(store: Any, host: str, value: str | None) -> int | None:
    from app.usecases.jobs import upload_pair

    if value is None:
        return None
    local, sep, remote = value.partition("=")
    if sep and local.strip() and remote.strip():
        return upload_pair(store, host, local.strip(), remote.strip())
    if value.strip().isdigit():
        return int(value.strip())
    raise InputError(MSG_BAD_SYNC, HINT_NO_COMMAND, code="JobSyncPair", value=value[:80])


def cmd_run(args: argparse.Namespace) -> int:
    from app.core.jobs import JobSpec
    from app.core.paths import default_paths
    from app.core.store import Store
    from app.usecases.jobs import job_json, start_job

    opts, command = split_command(list(args.command))
    if opts:
        extra = argparse.ArgumentParser(prog="labgpu run HOST", argument_default=argparse.SUPPRESS,
                                        add_help=False)
        _add_run_options(extra)
        for k, v in vars(extra.parse_args(opts)).items():
            setattr(args, k.replace("-", "_"), v)
    if not command:
        raise InputError(MSG_NO_COMMAND, HINT_NO_COMMAND, code="JobNoCommand")
    paths = default_paths()
    store = Store(paths=paths)
    spec = JobSpec(host=args.host, argv=command, name=args.name, workdir=args.workdir,
                   sync_pair=_sync_pair(store, args.host, args.sync),
                   then=JobThen(args.then), progress_pattern=args.progress_pattern, tb_logdir=args.tb_logdir,
                   stall_minutes=args.stall_minutes, stall_action=args.stall_action,
                   stop_on_failure=args.stop_on_failure)
    quiet = args.json
    recovery = policy_from_shortcuts(args)  # refused before anything starts

    def step(text: str) -> None:
        if not quiet:
            print(terminal_safe(text), file=sys.stderr)

    rec = start_job(paths, store, spec, on_step=step)
    if recovery is not None:
        from app.core.recoverypolicy import JOB, RecoveryPolicyStore

        recovery = RecoveryPolicyStore(store).set(JOB, rec.id, recovery)
    if args.json:
        print_json({**job_json(rec), **({"recovery": recovery.to_json()} if recovery is not None else {})})
    else:
        print(
            translate("LabGPU", "{id}  started on {host} ({detach}); follow it with: labgpu logs {id} -f").format(
                id=rec.id, host=terminal_safe(rec.host), detach=rec.detach
            )
        )
        if recovery is not None:
            print(
                translate(
                    "LabGPU", "Spot recovery: resume with {resume} (change it: labgpu recovery set {id} …)"
                ).format(resume=terminal_safe(recovery.resume), id=rec.id)
            )
    return 0


# -- jobs ----------------------------------------------------------------------------------------------------


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return ""
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def _state_text(rec: Any) -> str:
    text = str(rec.state)
    if rec.exit_code is not None:
        text += f" {rec.exit_code}" + (" (killed)" if rec.killed else "")
    if rec.error:
        text += " (unreachable)"
    return text


def cmd_jobs(args: argparse.Namespace) -> int:
    from app.core.paths import default_paths
    from app.core.store import Store
    from app.usecases.jobs import find_job, job_json, list_jobs, stop_job

    words = list(args.words)
    paths = default_paths()
    store = Store(paths=paths)
    if words and words[0] == "stop":
        if len(words) != 2:
            raise InputError(MSG_JOBS_USAGE, HINT_JOBS_USAGE, code="JobsUsage")
        if not 0 <= args.grace <= 600:
            raise InputError(MSG_BAD_GRACE, HINT_JOBS_USAGE, code="JobsUsage")
        rec = stop_job(paths, store, find_job(store, words[1]).id, grace_s=args.grace)
        if args.json:
            print_json(job_json(rec))
        else:
            print(
                translate("LabGPU", "{id}  {state_text}  after {duration}").format(
                    id=rec.id, state_text=_state_text(rec), duration=_duration(rec.runtime_s)
                )
            )
        return 0
    if words and words[0] == "ls":
        words = words[1:]
    if len(words) > 1:
        raise InputError(MSG_JOBS_USAGE, HINT_JOBS_USAGE, code="JobsUsage")
    records = list_jobs(paths, store, words[0] if words else None, refresh=not args.no_refresh)
    if args.json:
        print_json([job_json(r) for r in records])
        return 0
    if not records:
        if words:
            print(translate("LabGPU", "No jobs on {host}. Start one: labgpu run {host} -- CMD (the hosts: labgpu "
                                      "hosts ls)").format(host=terminal_safe(words[0])))
        else:
            print(translate("LabGPU", "No jobs. Start one: labgpu run HOST -- CMD"))
        return 0
    rows = []
    for r in records:
        rate = "" if r.steps_per_s is None else f"{r.steps_per_s:.3g}"
        step = "" if r.step is None else (f"{r.step:g}" if r.total is None else f"{r.step:g}/{r.total:g}")
        rows.append(
            (
                r.id,
                r.name,
                r.host,
                _state_text(r),
                _duration(r.runtime_s),
                step,
                rate,
                _duration(r.eta_s),
                r.started,
                r.last_line[:60],
            )
        )
    print_table(
        [
            translate("LabGPU", "ID"),
            translate("LabGPU", "NAME"),
            translate("LabGPU", "HOST"),
            translate("LabGPU", "STATE"),
            translate("LabGPU", "RUNTIME"),
            translate("LabGPU", "STEP"),
            translate("LabGPU", "STEPS/S"),
            translate("LabGPU", "ETA"),
            translate("LabGPU", "STARTED"),
            translate("LabGPU", "LAST LINE"),
        ],
        rows,
    )
    return 0


# -- logs ----------------------------------------------------------------------------------------------------


def printable_log(text: str) -> str:
    """A log chunk for a terminal: each carriage-return update of a progress bar on its own line, every
    other control character shown as its escape (terminal_safe)."""
    return terminal_safe(text.replace("\r\n", "\n").replace("\r", "\n"))


def cmd_logs(args: argparse.Namespace) -> int:
    from app.core.paths import default_paths
    from app.core.store import Store
    from app.usecases.jobs import find_job, follow

    paths = default_paths()
    store = Store(paths=paths)
    rec = find_job(store, args.job)
    stop = threading.Event()
    start = -abs(args.tail) if args.tail else 0
    for chunk in follow(paths, store, rec.id, from_offset=start, stop_event=stop, until_end=args.follow):
        sys.stdout.write(printable_log(chunk))
        sys.stdout.flush()
    return 0
