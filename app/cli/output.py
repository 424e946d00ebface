"""Plain-text tables and JSON for CLI output (shared by every command module)."""

from __future__ import annotations

import json
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from datetime import date, datetime
from typing import Any

from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def print_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], file: Any = None) -> None:
    file = file or sys.stdout
    text_rows = [["" if v is None else str(v) for v in r] for r in rows]
    widths = [_width(h) for h in headers]
    for r in text_rows:
        for i, v in enumerate(r):
            widths[i] = max(widths[i], _width(v))

    def line(cells: Sequence[str]) -> str:
        return "  ".join(c + " " * (widths[i] - _width(c)) for i, c in enumerate(cells)).rstrip()

    print(line(list(headers)), file=file)
    print("  ".join("-" * w for w in widths), file=file)
    for r in text_rows:
        print(line(r), file=file)


def _default(o: Any) -> Any:
    if isinstance(o, (datetime, date)):
        return o.isoformat()
    if isinstance(o, (set, tuple)):
        return list(o)
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def print_json(obj: Any, file: Any = None) -> None:
    json.dump(obj, file or sys.stdout, ensure_ascii=False, indent=2, default=_default)
    (file or sys.stdout).write("\n")


def read_stdin_secret(what: str, command: str) -> str:
    """One secret line from stdin (never argv); an empty line is a clear error, not an empty secret."""
    value = sys.stdin.readline().rstrip("\r\n")
    if not value:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "No {what} on stdin."),
            QT_TRANSLATE_NOOP("LabGPU", "Pipe it in, e.g. printf '%s\\n' \"$PW\" | labgpu {command} …"),
            code="EmptySecret",
            what=what,
            command=command,
        )
    return value
