"""`labgpu` with no arguments starts the desktop app; with a subcommand, the CLI.

This is the one place that chooses between them (the CLI never imports the GUI) and that wires
the layers together (app/wiring.py).
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    # Start-up allocates many objects and frees few: the cyclic collector's passes over them were ~8 % of the
    # window's start (perf). It is off until the window's first page is built (app.ui.app.run_gui) or a command
    # is about to run, and on again however main ends (argparse's exit, an error, a caller that goes on).
    gc.disable()
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    finally:
        gc.enable()


def _main(args_in: list[str]) -> int:
    from app import wiring
    from app.cli import build_parser, run_cli, window_options_only

    wiring.install()
    # Starting the GUI must not import every command module: try the window's options alone first.
    gui_args = window_options_only(args_in)
    if gui_args is not None:
        return _gui(gui_args, args_in)
    _use_cli_language(args_in)
    args = build_parser(args_in).parse_args(args_in)
    if args.command is None:
        return _gui(args, args_in)
    gc.enable()
    return run_cli(args)


def _use_cli_language(args_in: Sequence[str]) -> None:
    """The CLI's words (help, argparse's errors, the no-display message) follow --lang or LANG; the
    window installs its own translators."""
    import os

    from app.cli.output import choose_language, use_language

    use_language(choose_language(args_in, os.environ))


NO_DISPLAY_EXIT = 3  # the window was asked for and no display can show it


def _gui(args: argparse.Namespace, args_in: Sequence[str]) -> int:
    """The window (or the tray), unless no display can show it: then say so and name the command line
    (Qt would abort with a message about a library that is installed)."""
    if not args.screenshot:  # a screenshot renders off screen without a display
        from app.core import display

        where = display.probe()
        if display.problem_text(where):
            _use_cli_language(args_in)  # the message in the user's language (the window was to set it)
            print(display.gui_blocker(where), file=sys.stderr)
            return NO_DISPLAY_EXIT
    from app.ui.app import run_gui

    return run_gui(args)


def gui_main() -> int:
    return main([])


if __name__ == "__main__":
    sys.exit(main())
