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

# Characters a terminal acts on instead of showing: C0 controls but newline and tab (ESC starts CSI
# sequences such as "\x1b[2J", OSC 52 clipboard writes "\x1b]52;c;…\x07" and OSC 8 hyperlinks; CR
# overwrites the line, BEL rings), DEL, the C1 controls U+0080–U+009F (U+009B is an 8-bit CSI, U+009D an
# OSC on terminals that honour them — ECMA-48, 5th edition, §5.2–5.3), and the Unicode bidirectional
# overrides and isolates that reorder what is shown (Unicode TR #9; the "Trojan Source" trick).
_UNSAFE = {c: f"\\x{c:02x}" for c in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)) if c not in (0x09, 0x0A)}
_UNSAFE.update({c: f"\\u{c:04x}" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))})


def terminal_safe(text: object) -> str:
    """Text from a host, a file name or a cloud, made safe to print on a terminal.

    Every control character a terminal would act on is replaced by its visible escape (``\\x1b``,
    ``\\x07``, ``\\x9b``, ``\\u202e``), so ``\x1b]52;c;…\x07`` prints as harmless text instead of
    writing the clipboard. Newlines and tabs stay. JSON output never goes through this (``print_json``
    writes it unchanged; JSON escapes C0 controls itself).
    """
    s = "" if text is None else str(text)
    return s.translate(_UNSAFE)


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)


def print_table(headers: Sequence[str], rows: Iterable[Sequence[Any]], file: Any = None) -> None:
    file = file or sys.stdout
    # A cell may hold a host's or a cloud's words (a GPU or process name, a file name): shown, never obeyed.
    text_rows = [["" if v is None else terminal_safe(v).replace("\n", " ") for v in r] for r in rows]
    headers = [terminal_safe(h) for h in headers]
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
