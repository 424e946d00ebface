"""`labgpu` with no arguments starts the desktop app; with a subcommand, the CLI.

This is the one place that chooses between them (the CLI never imports the GUI) and that wires
the layers together (app/wiring.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    import os

    from app import wiring
    from app.cli import build_parser, run_cli
    from app.cli.output import choose_language, use_language

    args_in = list(sys.argv[1:] if argv is None else argv)
    wiring.install()
    # The CLI's words (help, argparse's errors) follow --lang or LANG; the window installs its own translators.
    use_language(choose_language(args_in, os.environ))
    # Starting the GUI must not import every command module: try the window's options alone first.
    if not any(a in ("-h", "--help") for a in args_in):
        gui_args, rest = build_parser(with_commands=False).parse_known_args(args_in)
        if not rest:
            return _gui(gui_args)
    args = build_parser().parse_args(args_in)
    if args.command is None:
        return _gui(args)
    return run_cli(args)


NO_DISPLAY_EXIT = 3  # the window was asked for and no display can show it


def _gui(args: argparse.Namespace) -> int:
    """The window (or the tray), unless no display can show it: then say so and name the command line
    (Qt would abort with a message about a library that is installed)."""
    if not args.screenshot:  # a screenshot renders off screen without a display
        from app.core.display import gui_blocker

        why = gui_blocker()
        if why:
            print(why, file=sys.stderr)
            return NO_DISPLAY_EXIT
    from app.ui.app import run_gui

    return run_gui(args)


def gui_main() -> int:
    return main([])


if __name__ == "__main__":
    sys.exit(main())
