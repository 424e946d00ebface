"""The command line: thin wrappers that parse, call core/cloud/remote and print (tables or --json).

Each area lives in its own module exposing ``register(subparsers)``; a subcommand's handler
returns an exit status and raises LabGpuError for anything the user must act on.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from app import __version__
from app.core.errors import LabGpuError

log = logging.getLogger(__name__)

# Modules that add subcommands. Each must define register(subparsers).
COMMAND_MODULES = ("app.cli.offers", "app.cli.cloud", "app.cli.hosts", "app.cli.sync", "app.cli.vpn",
                   "app.cli.monitor", "app.cli.doctor", "app.cli.jobs", "app.cli.notify", "app.cli.recovery",
                   "app.cli.buckets", "app.cli.keys", "app.cli.logins")


# The command words each module registers: `labgpu WORD …` imports that module alone (a command starts without
# the other twelve modules and what they import). tests/e2e/test_cli_dead_ends.py checks this table against what
# the modules register.
COMMAND_OWNERS: dict[str, str] = {
    "offers": "app.cli.offers",
    **dict.fromkeys(("accounts", "audit", "launch", "ls", "prices", "start", "stop", "terminate", "waits"),
                    "app.cli.cloud"),
    "hosts": "app.cli.hosts", "sync": "app.cli.sync", "vpn": "app.cli.vpn",
    **dict.fromkeys(("cost", "guard", "monitor", "watch"), "app.cli.monitor"),
    "doctor": "app.cli.doctor",
    **dict.fromkeys(("jobs", "logs", "run"), "app.cli.jobs"),
    "notify": "app.cli.notify", "recovery": "app.cli.recovery", "buckets": "app.cli.buckets",
    "keys": "app.cli.keys", "logins": "app.cli.logins",
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line, its words in the language ``output.use_language`` chose. Given the arguments, and
    they name a command, only the module of that command registers (what `labgpu WORD` parses is the same);
    otherwise (no command, a mistyped one, ``--help``) every module does."""
    from app.cli.output import Parser, translate

    parser = Parser(
        prog="labgpu",
        description=translate("LabGPU", "Compare, rent, sync with and watch cloud GPUs. Without a command: "
                                        "the desktop app."),
        epilog=translate("LabGPU", "Run 'labgpu COMMAND --help' for a command's options. The language follows "
                                   "LANG (or --lang zh_CN / --lang en)."),
    )
    parser.add_argument("--version", action="version", version=f"LabGPU {__version__}",
                        help=translate("LabGPU", "show the version and exit"))
    add_window_options(parser, translate)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title=translate("LabGPU", "commands"))
    owner = COMMAND_OWNERS.get(command_word(argv) or "") if argv is not None else None
    for name in (owner,) if owner else COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(sub)
    return parser


def add_window_options(parser: argparse.ArgumentParser, translate: Callable[[str, str], str]) -> None:
    """The options of the window itself (``labgpu`` without a command)."""
    parser.add_argument("--screenshot", metavar="FILE",
                        help=translate("LabGPU", "render the main window to a PNG and exit"))
    parser.add_argument("--page", default=None,
                        help=translate("LabGPU", "page to show (with --screenshot or at start)"))
    parser.add_argument("--lang", choices=("zh_CN", "en"), default=None,
                        help=translate("LabGPU", "interface language for this run"))
    parser.add_argument("--size", default="1280x800",
                        help=translate("LabGPU", "window size for --screenshot, WxH"))
    parser.add_argument("--first-run", action="store_true",
                        help=translate("LabGPU", "show the welcome (language, cloud account, tour) even if it "
                                                 "was seen"))
    parser.add_argument("--first-run-step", type=int, choices=(1, 2, 3), default=1, metavar="N",
                        help=translate("LabGPU", "with --first-run: the step to open at, 1-3 (for --screenshot)"))
    parser.add_argument("--tray", action="store_true",
                        help=translate("LabGPU", "start in the system tray only (the cost monitor); the window "
                                                 "opens from its menu"))


class _Unsaid(argparse.ArgumentParser):
    """A parser whose mistakes are raised, not printed: the whole parser says them."""

    def error(self, message: str) -> NoReturn:
        raise argparse.ArgumentError(None, message)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # never printed; a set width spares argparse its import of shutil for the terminal's (start-up time)
        return argparse.HelpFormatter(self.prog, width=80)


def _split_window_options(argv: Sequence[str]) -> tuple[argparse.Namespace, list[str]] | None:
    """The window's options (and their values) parsed from ``argv``, and what is left; None on a mistake in
    them (the whole parser says it)."""
    parser = _Unsaid(prog="labgpu", add_help=False)
    add_window_options(parser, lambda _context, text: text)  # help is never printed from here
    parser.set_defaults(command=None)
    try:
        return parser.parse_known_args(list(argv))
    except argparse.ArgumentError:
        return None


def window_options_only(argv: Sequence[str]) -> argparse.Namespace | None:
    """``argv`` parsed when it holds the window's options and nothing else, else None (then the whole
    parser runs). Starting the window this way imports neither the command modules nor the CLI's output
    layer (start-up time); a mistake or ``--help`` goes to the whole parser, which says it in the user's
    language."""
    if any(a in ("-h", "--help", "--version") for a in argv):
        return None
    split = _split_window_options(argv)
    return split[0] if split is not None and not split[1] else None


def command_word(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names (``ls`` in ``--lang zh_CN ls --json``): the first argument after the window's
    options and their values, or None when something else comes first (``--help``, a mistake)."""
    split = _split_window_options(argv)
    rest = split[1] if split is not None else []
    return rest[0] if rest and not rest[0].startswith("-") else None


def run_cli(args: argparse.Namespace) -> int:
    from app.cli.output import terminal_safe, translate
    from app.core.logsetup import setup_logging
    from app.core.paths import default_paths

    setup_logging(default_paths())
    try:
        return int(args.func(args) or 0)
    except LabGpuError as exc:
        log.info("command failed: %s", exc.one_line())
        # An error's words may be a host's (nvidia-smi, an SSH banner, `find`) or a cloud's: shown, not obeyed.
        print(f"labgpu: {terminal_safe(exc.one_line())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("labgpu: " + translate("LabGPU", "interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError as exc:
        if _stdout_closed():
            # `labgpu … | head`: the reader went away; say nothing, and keep Python's exit flush quiet.
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        # Some other pipe or socket broke (a management socket, a child's stdin): a failure, said plainly.
        log.exception("command failed with a broken pipe")
        print("labgpu: [BrokenPipe] " + translate(
            "LabGPU", "A connection closed unexpectedly: {error} — see the log and retry.").format(
            error=terminal_safe(exc)), file=sys.stderr)
        return 1


def _stdout_closed() -> bool:
    """True when stdout is a pipe whose reader has gone (poll reports POLLERR on its write end)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return True
    try:
        import select

        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        return any(ev & (select.POLLERR | select.POLLHUP) for _fd, ev in poller.poll(0))
    except (AttributeError, OSError):
        return True  # no poll() (Windows): keep the old behaviour


def main(argv: Sequence[str] | None = None) -> int:
    """The command line alone (the desktop app is chosen in app/__main__.py)."""
    from app.cli.output import choose_language, use_language

    args_in = list(sys.argv[1:] if argv is None else argv)
    use_language(choose_language(args_in, os.environ))
    parser = build_parser(args_in)
    args = parser.parse_args(args_in)
    if args.command is None:
        parser.print_help()
        return 2
    return run_cli(args)
