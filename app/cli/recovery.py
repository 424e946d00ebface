"""`labgpu recovery set|show|rm`: the spot recovery policy of an instance or a job.

The policy (app.core.recoverypolicy) says what LabGPU does by itself on a reclaim notice: save the
latest checkpoint, relaunch (same zone, other zones, the regions and accounts allowed; spot and/or
on-demand; under a budget and a number of attempts), push the code and the checkpoint, and restart the
job with the resume command. TARGET is a LabGPU instance id or a job id (or name); ``--job`` says it is
a job when an instance has the same name. ``show`` also names the run an instance is in (app.core.runs).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from typing import Any

from app.cli.output import print_json, print_table, terminal_safe, translate
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP

MSG_NO_TARGET = QT_TRANSLATE_NOOP("LabGPU", "No instance or job named {id}.")
HINT_NO_TARGET = QT_TRANSLATE_NOOP("LabGPU", "Use an id from `labgpu ls` or `labgpu jobs ls`.")
MSG_NO_POLICY = QT_TRANSLATE_NOOP("LabGPU", "{id} has no recovery policy.")
HINT_NO_POLICY = QT_TRANSLATE_NOOP("LabGPU", "Set one with `labgpu recovery set {id} --resume \"…{{checkpoint}}\"`.")
MSG_BAD_PAIR = QT_TRANSLATE_NOOP("LabGPU", "{value} is not a pair of folders.")
HINT_BAD_PAIR = QT_TRANSLATE_NOOP("LabGPU", "Write it as FROM=TO, e.g. /root/ckpt=./ckpt.")
MSG_AMBIGUOUS_JOB = QT_TRANSLATE_NOOP("LabGPU", "{id} names {n} jobs.")
HINT_AMBIGUOUS_JOB = QT_TRANSLATE_NOOP("LabGPU", "Give more of the job's id (see `labgpu jobs ls`).")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    rec = subparsers.add_parser("recovery", help=translate("LabGPU", "what LabGPU does by itself when a spot instance "
                                                                     "is reclaimed"))
    rsub = rec.add_subparsers(
        title=translate("LabGPU", "commands"), dest="recovery_command", metavar="ACTION", required=True
    )
    rs = rsub.add_parser("set", help=translate("LabGPU", "set (or change) the recovery policy of an instance or a job"))
    rs.add_argument("target", metavar="TARGET", help=translate("LabGPU", "a LabGPU instance id, or a job id or name"))
    rs.add_argument(
        "--job", action="store_true", help=translate("LabGPU", "TARGET is a job (when an instance has the same name)")
    )
    add_recovery_options(rs)
    rs.set_defaults(func=cmd_recovery_set)
    rsh = rsub.add_parser(
        "show", help=translate("LabGPU", "the recovery policies (all, or one TARGET's) and the run it is in")
    )
    rsh.add_argument(
        "target",
        metavar="TARGET",
        nargs="?",
        default=None,
        help=translate("LabGPU", "an instance id or a job (default: all)"),
    )
    rsh.add_argument(
        "--job", action="store_true", help=translate("LabGPU", "TARGET is a job (when an instance has the same name)")
    )
    rsh.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    rsh.set_defaults(func=cmd_recovery_show)
    rr = rsub.add_parser("rm", help=translate("LabGPU", "remove the recovery policy of an instance or a job"))
    rr.add_argument("target", metavar="TARGET", help=translate("LabGPU", "an instance id or a job"))
    rr.add_argument(
        "--job", action="store_true", help=translate("LabGPU", "TARGET is a job (when an instance has the same name)")
    )
    rr.set_defaults(func=cmd_recovery_rm)


def add_recovery_options(p: argparse.ArgumentParser) -> None:
    """The policy's options (changing only what is given; the rest stays as set)."""
    p.add_argument(
        "--resume",
        metavar="COMMAND",
        help=translate("LabGPU", 'the command that resumes the job, e.g. "python train.py --resume {checkpoint}"'),
    )
    p.add_argument(
        "--checkpoint",
        metavar="REMOTE=LOCAL",
        help=translate("LabGPU", "the instance's checkpoint folder and where the latest one is saved on this computer"),
    )
    p.add_argument(
        "--pattern", metavar="GLOB", help=translate("LabGPU", "which files in the folder are checkpoints (default *)")
    )
    p.add_argument(
        "--code", metavar="LOCAL=REMOTE", help=translate("LabGPU", "the code folder pushed to the new instance")
    )
    p.add_argument(
        "--workdir", metavar="DIR", help=translate("LabGPU", "where the resumed job runs on the new instance")
    )
    p.add_argument(
        "--other-zones",
        dest="other_zones",
        action="store_true",
        default=None,
        help=translate("LabGPU", "relaunch in the region's other zones when the same zone is sold out (default)"),
    )
    p.add_argument(
        "--same-zone-only",
        dest="other_zones",
        action="store_false",
        help=translate("LabGPU", "relaunch only in the same zone"),
    )
    p.add_argument(
        "--regions", metavar="R1,R2", help=translate("LabGPU", "other regions of the same account, tried in this order")
    )
    p.add_argument(
        "--accounts", metavar="A[:TYPE],…", help=translate("LabGPU", "other accounts (clouds) allowed, in order")
    )
    p.add_argument(
        "--spot", dest="spot", action="store_true", default=None, help=translate("LabGPU", "relaunch as spot (default)")
    )
    p.add_argument("--no-spot", dest="spot", action="store_false", help=translate("LabGPU", "do not relaunch as spot"))
    p.add_argument(
        "--on-demand",
        dest="on_demand",
        action="store_true",
        default=None,
        help=translate("LabGPU", "allow an on-demand relaunch"),
    )
    p.add_argument(
        "--no-on-demand", dest="on_demand", action="store_false", help=translate("LabGPU", "never relaunch on demand")
    )
    p.add_argument(
        "--budget",
        type=float,
        metavar="AMOUNT",
        help=translate("LabGPU", "the most the whole run may cost (the account's currency)"),
    )
    p.add_argument("--no-budget", action="store_true", help=translate("LabGPU", "remove the budget"))
    p.add_argument(
        "--max-attempts",
        type=int,
        metavar="N",
        help=translate("LabGPU", "launch calls allowed in all (1-50, default 5)"),
    )
    p.add_argument(
        "--disable",
        dest="enabled",
        action="store_false",
        default=None,
        help=translate("LabGPU", "keep the policy but do not act on it"),
    )
    p.add_argument(
        "--enable",
        dest="enabled",
        action="store_true",
        help=translate("LabGPU", "act on the policy again (after --disable)"),
    )


MSG_NOT_SPOT = QT_TRANSLATE_NOOP("LabGPU", "Spot recovery is for spot instances: an on-demand one is not reclaimed.")
HINT_NOT_SPOT = QT_TRANSLATE_NOOP("LabGPU", "Add --spot, or leave the --recovery-* options out.")


def add_recovery_shortcuts(p: argparse.ArgumentParser) -> None:
    """`labgpu run` and `labgpu launch`: the policy's main parts (the rest: `labgpu recovery set`)."""
    p.add_argument(
        "--recovery-resume",
        default=None,
        metavar="CMD",
        help=translate(
            "LabGPU",
            "spot recovery: the command that resumes the job on a relaunched "
            "instance, with "
            "{checkpoint} (the rest of the policy: `labgpu recovery set`)",
        ),
    )
    p.add_argument(
        "--recovery-checkpoint",
        default=None,
        metavar="REMOTE=LOCAL",
        help=translate("LabGPU", "spot recovery: the checkpoint folder and where the latest one is saved here"),
    )
    p.add_argument(
        "--recovery-code",
        default=None,
        metavar="LOCAL=REMOTE",
        help=translate("LabGPU", "spot recovery: the code folder pushed to the relaunched instance"),
    )


def policy_from_shortcuts(args: argparse.Namespace, spot: bool = True) -> Any:
    """The policy from --recovery-* (validated, so it is refused before anything starts), or None when none
    is given. ``spot`` False (an on-demand launch): refused, nothing reclaims it."""
    resume, ckpt, code = (getattr(args, k, None) for k in ("recovery_resume", "recovery_checkpoint", "recovery_code"))
    if resume is None and ckpt is None and code is None:
        return None
    if not spot:
        raise InputError(MSG_NOT_SPOT, HINT_NOT_SPOT, code="RecoveryNotSpot")
    from app.core.recoverypolicy import RecoveryPolicy

    ckpt_remote, ckpt_local = _pair(ckpt) if ckpt else ("", "")
    code_local, code_remote = _pair(code) if code else ("", "")
    return RecoveryPolicy(
        resume=resume or "",
        checkpoint_remote=ckpt_remote,
        checkpoint_local=ckpt_local,
        code_local=code_local,
        code_remote=code_remote,
    ).validate()


def _pair(value: str) -> tuple[str, str]:
    a, sep, b = value.partition("=")
    if not sep or not a.strip() or not b.strip():
        raise InputError(MSG_BAD_PAIR, HINT_BAD_PAIR, code="RecoveryPair", value=value[:80])
    return a.strip(), b.strip()


def _names(value: str) -> tuple[str, ...]:
    return tuple(v.strip() for v in value.split(",") if v.strip())


def apply_recovery_options(policy: Any, args: argparse.Namespace) -> Any:
    """``policy`` (a RecoveryPolicy) with the options given on the command line applied."""
    changes: dict[str, Any] = {}
    if args.resume is not None:
        changes["resume"] = args.resume
    if args.checkpoint is not None:
        changes["checkpoint_remote"], changes["checkpoint_local"] = _pair(args.checkpoint)
    if args.pattern is not None:
        changes["checkpoint_pattern"] = args.pattern
    if args.code is not None:
        changes["code_local"], changes["code_remote"] = _pair(args.code)
    if args.workdir is not None:
        changes["workdir"] = args.workdir
    if args.regions is not None:
        changes["regions"] = _names(args.regions)
    if args.accounts is not None:
        changes["accounts"] = _names(args.accounts)
    for key in ("other_zones", "spot", "on_demand", "enabled", "max_attempts"):
        if getattr(args, key) is not None:
            changes[key] = getattr(args, key)
    if args.no_budget:
        changes["budget"] = None
    elif args.budget is not None:
        changes["budget"] = args.budget
    return replace(policy, **changes)


def _stores() -> tuple[Any, Any, Any, Any]:
    from app.core.instances import Ledger
    from app.core.jobs import JobStore
    from app.core.paths import default_paths
    from app.core.recoverypolicy import RecoveryPolicyStore
    from app.core.store import Store

    store = Store(paths=default_paths())
    return RecoveryPolicyStore(store), Ledger(store), JobStore(store), store


def resolve_target(target: str, as_job: bool, ledger: Any, jobs: Any) -> tuple[str, str]:
    """(kind, id) of TARGET: an instance of the ledger, else a job (id, id prefix or name)."""
    from app.core.recoverypolicy import INSTANCE, JOB

    if not as_job and ledger.get(target) is not None:
        return INSTANCE, target
    job = jobs.get(target)
    if job is not None:
        return JOB, job.id
    found = jobs.find(target)
    if len(found) > 1:
        raise InputError(MSG_AMBIGUOUS_JOB, HINT_AMBIGUOUS_JOB, code="AmbiguousJob", id=target, n=len(found))
    if found:
        return JOB, found[0].id
    raise InputError(MSG_NO_TARGET, HINT_NO_TARGET, code="NoSuchTarget", id=target)


def describe_policy(p: Any) -> list[tuple[str, str]]:
    """(what, value) lines of a policy, in the user's language, for `show` (and the editors' summary)."""
    order = [translate("LabGPU", "the same zone")]
    if p.other_zones:
        order.append(translate("LabGPU", "the other zones"))
    order += list(p.regions) + list(p.accounts)
    markets = [
        m for m, on in ((translate("LabGPU", "spot"), p.spot), (translate("LabGPU", "on demand"), p.on_demand)) if on
    ]
    none = "—"
    return [
        (translate("LabGPU", "Acts"), _yes(p.enabled)),
        (
            translate("LabGPU", "Checkpoints"),
            f"{p.checkpoint_remote}/{p.checkpoint_pattern} → {p.checkpoint_local}" if p.checkpoint_remote else none,
        ),
        (translate("LabGPU", "Code"), f"{p.code_local} → {p.code_remote}" if p.code_local else none),
        (translate("LabGPU", "Resume with"), p.resume or none),
        (translate("LabGPU", "Relaunch in"), " → ".join(order)),
        (translate("LabGPU", "As"), ", ".join(markets)),
        (translate("LabGPU", "Budget"), none if p.budget is None else f"{p.budget:g}"),
        (translate("LabGPU", "Attempts"), str(p.max_attempts)),
    ]


def _yes(on: bool) -> str:
    return translate("LabGPU", "yes") if on else translate("LabGPU", "no")


def _print_policy(kind: str, target: str, policy: Any) -> None:
    print(
        translate("LabGPU", "Recovery policy of {kind} {id}:").format(kind=_kind_text(kind), id=terminal_safe(target))
    )
    for what, value in describe_policy(policy):
        print(f"  {what}: {terminal_safe(value)}")


def _kind_text(kind: str) -> str:
    from app.core.recoverypolicy import JOB

    return translate("LabGPU", "job") if kind == JOB else translate("LabGPU", "instance")


def cmd_recovery_set(args: argparse.Namespace) -> int:
    from app.core.recoverypolicy import RecoveryPolicy

    policies, ledger, jobs, _store = _stores()
    kind, target = resolve_target(args.target, args.job, ledger, jobs)
    current = policies.get(kind, target) or RecoveryPolicy()
    saved = policies.set(kind, target, apply_recovery_options(current, args))
    _print_policy(kind, target, saved)
    return 0


def cmd_recovery_show(args: argparse.Namespace) -> int:
    from app.core.recoverypolicy import INSTANCE
    from app.core.runs import RunStore

    policies, ledger, jobs, store = _stores()
    runs = RunStore(store)
    if args.target is None:
        listed = [(sp.kind, sp.target, sp.policy) for sp in policies.all()]
    else:
        kind, target = resolve_target(args.target, args.job, ledger, jobs)
        policy = policies.get(kind, target)
        if policy is None:
            raise InputError(MSG_NO_POLICY, HINT_NO_POLICY, code="NoRecoveryPolicy", id=target)
        listed = [(kind, target, policy)]
    if args.json:
        out = []
        for kind, target, policy in listed:
            run = runs.run_of(target) if kind == INSTANCE else None
            out.append(
                {"kind": kind, "target": target, "policy": policy.to_json(), "run": run.to_json() if run else None}
            )
        print_json(out)
        return 0
    if not listed:
        print(translate("LabGPU", "No recovery policy is set."))
        return 0
    if args.target is None:
        print_table(
            [
                translate("LabGPU", "KIND"),
                translate("LabGPU", "TARGET"),
                translate("LabGPU", "ACTS"),
                translate("LabGPU", "RESUME WITH"),
            ],
            [[_kind_text(k), t, _yes(p.enabled), p.resume] for k, t, p in listed],
        )
        return 0
    kind, target, policy = listed[0]
    _print_policy(kind, target, policy)
    run = runs.run_of(target) if kind == INSTANCE else None
    if run is not None:
        print(terminal_safe(run.text()))
    return 0


def cmd_recovery_rm(args: argparse.Namespace) -> int:
    policies, ledger, jobs, _store = _stores()
    kind, target = resolve_target(args.target, args.job, ledger, jobs)
    if not policies.remove(kind, target):
        raise InputError(MSG_NO_POLICY, HINT_NO_POLICY, code="NoRecoveryPolicy", id=target)
    print(
        translate("LabGPU", "Removed the recovery policy of {kind} {id}.").format(
            kind=_kind_text(kind), id=terminal_safe(target)
        )
    )
    return 0
