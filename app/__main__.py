"""`labgpu` with no arguments starts the desktop app; with a subcommand, the CLI."""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    from app.cli import main as cli_main

    return cli_main(sys.argv[1:] if argv is None else list(argv))


def gui_main() -> int:
    return main([])


if __name__ == "__main__":
    sys.exit(main())
