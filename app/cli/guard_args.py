"""The guard options, one set of names for `labgpu guard set` and `labgpu launch` (which also takes
``--idle-stop MIN`` and ``--no-guard``), and how they change a GuardConfig."""

from __future__ import annotations

import argparse

from app.cli.output import translate
from app.core.errors import InputError
from app.core.guards import GuardConfig
from app.core.i18n import QT_TRANSLATE_NOOP

MSG_NO_GUARD_WITH = QT_TRANSLATE_NOOP("LabGPU", "--no-guard cannot go with guard options ({options}).")
HINT_NO_GUARD_WITH = QT_TRANSLATE_NOOP("LabGPU", "Leave out --no-guard, or the guard options.")


def add_guard_options(parser: argparse.ArgumentParser, *, launch: bool = False) -> None:
    """The options of a guard; ``launch``: with the launch's --idle-stop and --no-guard."""
    parser.add_argument("--idle-below", type=float, default=None, metavar="PCT",
                        help=translate("LabGPU", "idle when every GPU is under PCT %% (default from Settings: 30)"))
    parser.add_argument("--idle-minutes", type=float, default=None, metavar="N",
                        help=translate("LabGPU", "…for N minutes (default from Settings: 10)"))
    parser.add_argument(
        "--on-idle",
        choices=("notify", "stop"),
        default=None,
        help=translate("LabGPU", "when idle: notify, or stop the instance"),
    )
    if launch:
        parser.add_argument(
            "--idle-stop",
            type=float,
            default=None,
            metavar="MIN",
            help=translate("LabGPU", "stop the instance after MIN idle minutes (= --idle-minutes MIN --on-idle stop)"),
        )
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        metavar="AMOUNT",
        help=translate("LabGPU", "warn at 80 %%, stop at 100 %% of AMOUNT"),
    )
    parser.add_argument(
        "--currency",
        choices=("CNY", "USD"),
        default=None,
        help=translate("LabGPU", "currency of --budget (default: the account's)"),
    )
    parser.add_argument(
        "--max-hours",
        type=float,
        default=None,
        metavar="H",
        help=translate(
            "LabGPU",
            "stop after H hours running; also handed to the cloud, which ends "
            "the instance itself at that time where it can (docs/cli.md)",
        )
        if launch
        else translate("LabGPU", "stop after H hours running"),
    )
    parser.add_argument(
        "--stop-on-exit",
        default=None,
        metavar="PID|NAME",
        help=translate("LabGPU", "stop when this GPU process has exited"),
    )
    parser.add_argument(
        "--watchdog",
        action="store_true",
        help=translate(
            "LabGPU",
            "also install the on-instance watchdog (shuts the machine down after "
            "the idle window even when LabGPU is not running; see docs/cli.md "
            "for what that does to the bill)",
        ),
    )
    parser.add_argument(
        "--no-sync-before-stop",
        action="store_true",
        help=translate("LabGPU", "do not pull checkpoints (the host's download sync pairs) before a stop"),
    )
    if launch:
        parser.add_argument(
            "--no-guard",
            action="store_true",
            help=translate(
                "LabGPU", "launch without guards (default: the Settings' idle guard, plus the options given)"
            ),
        )


def given_guard_options(args: argparse.Namespace) -> list[str]:
    """The guard options given on the command line, as typed (for a refusal that names them)."""
    names = ("idle_below", "idle_minutes", "on_idle", "idle_stop", "budget", "currency", "max_hours", "stop_on_exit")
    given = ["--" + n.replace("_", "-") for n in names if getattr(args, n, None) is not None]
    given += ["--" + n.replace("_", "-") for n in ("watchdog", "no_sync_before_stop") if getattr(args, n, False)]
    return given


# options copied onto the GuardConfig field of (mostly) the same name when given
_PLAIN_FIELDS = (
    ("idle_below", "idle_below_pct"),
    ("idle_minutes", "idle_minutes"),
    ("on_idle", "on_idle"),
    ("budget", "budget"),
    ("currency", "currency"),
    ("max_hours", "max_hours"),
)


def apply_guard_options(cfg: GuardConfig, args: argparse.Namespace) -> GuardConfig:
    """``cfg`` with the options given on the command line (not validated here: set_guard validates)."""
    if getattr(args, "idle_stop", None) is not None:
        cfg.idle_minutes, cfg.on_idle = args.idle_stop, "stop"
    for option, field in _PLAIN_FIELDS:
        if getattr(args, option) is not None:
            setattr(cfg, field, getattr(args, option))
    if args.stop_on_exit is not None:
        cfg.stop_on_process_exit = args.stop_on_exit or None
    if args.no_sync_before_stop:
        cfg.sync_before_stop = False
    if args.watchdog:
        cfg.watchdog = True
    return cfg


def launch_guard(cfg: GuardConfig, args: argparse.Namespace) -> GuardConfig | None:
    """The guard `labgpu launch` gives the new instance: ``cfg`` (the settings' default) with the options
    given, or None with --no-guard (InputError when guard options come with it)."""
    if args.no_guard:
        given = given_guard_options(args)
        if given:
            raise InputError(MSG_NO_GUARD_WITH, HINT_NO_GUARD_WITH, code="NoGuardWithOptions", options=" ".join(given))
        return None
    return apply_guard_options(cfg, args)
