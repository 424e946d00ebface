"""The VPN page's state log, kept across restarts: one line per state change, appended to a small
file in the data folder (``vpn-state.log``), at most MAX_LINES lines, the newest last."""

from __future__ import annotations

import logging
from pathlib import Path

from app.core.paths import atomic_write_text

log = logging.getLogger(__name__)

MAX_LINES = 500
FILE_NAME = "vpn-state.log"


class StateLog:
    def __init__(self, data_dir: Path, max_lines: int = MAX_LINES) -> None:
        self.path = Path(data_dir) / FILE_NAME
        self.max_lines = max_lines
        self._count = -1  # lines in the file; read on the first load()

    def load(self) -> list[str]:
        """The lines kept from earlier runs (none when the file is missing or unreadable)."""
        try:
            lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            lines = []
        lines = lines[-self.max_lines:]
        self._count = len(lines)
        return lines

    def append(self, line: str) -> None:
        """Add one line; past twice the cap the file is cut back to the newest MAX_LINES lines."""
        line = line.replace("\n", " ")
        try:
            if self._count < 0:
                self.load()
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(line + "\n")
            self._count += 1
            if self._count > 2 * self.max_lines:
                atomic_write_text(self.path, "\n".join(self.load()) + "\n")
        except OSError as exc:  # the log on screen still has it
            log.warning("could not keep the VPN state log in %s: %s", self.path, exc)
