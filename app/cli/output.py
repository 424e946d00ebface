"""Plain-text tables and JSON for CLI output (shared by every command module)."""

from __future__ import annotations

import argparse
import difflib
import json
import struct
import sys
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from app.core.currency import ExchangeRate

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


def rate_text(rate: ExchangeRate) -> str:
    """'1 USD = 7.0197 CNY (CFETS RMB central parity, 2026-01-08)' in the CLI's language: the rate a converted
    figure used, with its source and the day it was true."""
    from app.core.currency import source_text

    day = rate.as_of.isoformat() if rate.as_of else translate("LabGPU", "undated")
    return translate("LabGPU", "1 USD = {rate} CNY ({source}, {date})").format(
        rate=f"{rate.usd_cny:.4f}", source=source_text(rate), date=day)


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


# --- The CLI's language -------------------------------------------------------------------------------
# The window loads resources/translations/*_zh_CN.qm with Qt; the CLI reads the same files here, without Qt
# (it must start without a display and quickly). A .qm file is a 16-byte magic number, then sections
# (one tag byte, a big-endian 32-bit length, the data); the Messages section (0x69) holds records of
# tagged fields: 3 a translation (UTF-16BE), 6 the source text, 7 the context, 8 the comment (UTF-8),
# 1 the end of a message (Qt's qtranslator.cpp and lrelease write them so).
_QM_MAGIC = bytes((0x3C, 0xB8, 0x64, 0x18, 0xCA, 0xEF, 0x9C, 0x95, 0xCD, 0x21, 0x1C, 0xBF, 0x60, 0xA1, 0xBD, 0xDD))
_QM_MESSAGES = 0x69
_QM_END, _QM_TRANSLATION, _QM_OBSOLETE1 = 1, 3, 5
_QM_SOURCE, _QM_CONTEXT = 6, 7
_NULL_STRING = 0xFFFFFFFF
LANGUAGES = ("en", "zh_CN")

_language = "en"
_catalog: dict[tuple[bytes, bytes], bytes] | None = None  # loaded on first use, only for a language other than English

# argparse's own words (it asks gettext for them): marked here so that the catalog holds their Chinese.
_ARGPARSE_WORDS = (
    QT_TRANSLATE_NOOP("argparse", "usage: "),
    QT_TRANSLATE_NOOP("argparse", "options"),
    QT_TRANSLATE_NOOP("argparse", "positional arguments"),
    QT_TRANSLATE_NOOP("argparse", "show this help message and exit"),
    QT_TRANSLATE_NOOP("argparse", "%(prog)s: error: %(message)s\n"),
    QT_TRANSLATE_NOOP("argparse", "argument %(argument_name)s: %(message)s"),
    QT_TRANSLATE_NOOP("argparse", "the following arguments are required: %s"),
    QT_TRANSLATE_NOOP("argparse", "unrecognized arguments: %s"),
    QT_TRANSLATE_NOOP("argparse", "invalid choice: %(value)r (choose from %(choices)s)"),
    QT_TRANSLATE_NOOP("argparse", "invalid %(type)s value: %(value)r"),
    QT_TRANSLATE_NOOP("argparse", "expected one argument"),
    QT_TRANSLATE_NOOP("argparse", "expected at least one argument"),
    QT_TRANSLATE_NOOP("argparse", "expected at most one argument"),
    QT_TRANSLATE_NOOP("argparse", "expected %s argument"),
    QT_TRANSLATE_NOOP("argparse", "expected %s arguments"),
    QT_TRANSLATE_NOOP("argparse", "ambiguous option: %(option)s could match %(matches)s"),
    QT_TRANSLATE_NOOP("argparse", "not allowed with argument %s"),
    QT_TRANSLATE_NOOP("argparse", "one of the arguments %s is required"),
    QT_TRANSLATE_NOOP("argparse", "ignored explicit argument %r"),
)


_U32 = struct.Struct(">I").unpack_from


def read_qm(path: Path) -> dict[tuple[bytes, bytes], bytes]:
    """(context, source) as UTF-8 → translation as UTF-16BE from one compiled Qt catalog, undecoded
    (decoding every message of every catalog would cost the CLI's start more than the few it shows); {} for a
    file that is not one."""
    data = path.read_bytes()
    if not data.startswith(_QM_MAGIC):
        return {}
    pos, messages = len(_QM_MAGIC), b""
    while pos + 5 <= len(data):
        tag, (size,) = data[pos], _U32(data, pos + 1)
        if tag == _QM_MESSAGES:
            messages = data[pos + 5:pos + 5 + size]
        pos += 5 + size
    out: dict[tuple[bytes, bytes], bytes] = {}
    context = source = translation = None
    pos, end = 0, len(messages)
    while pos < end:
        tag = messages[pos]
        pos += 1
        if tag == _QM_END:
            if translation and source is not None:
                out[(context or b"", source)] = translation
            context = source = translation = None
            continue
        if tag == _QM_OBSOLETE1:
            pos += 4
            continue
        if pos + 4 > end:
            break
        (size,) = _U32(messages, pos)
        pos += 4
        if size == _NULL_STRING:
            continue
        if tag == _QM_TRANSLATION:
            if translation is None:  # a plural message holds several: the first is the one form Chinese has
                translation = messages[pos:pos + size]
        elif tag == _QM_SOURCE:
            source = messages[pos:pos + size]
        elif tag == _QM_CONTEXT:
            context = messages[pos:pos + size]
        pos += size
    return out


def _load_catalog(language: str) -> dict[tuple[bytes, bytes], bytes]:
    from app.core.resources import resource_path

    catalog: dict[tuple[bytes, bytes], bytes] = {}
    for qm in sorted(resource_path("translations").glob(f"*_{language}.qm")):
        try:
            catalog.update(read_qm(qm))
        except OSError:
            continue  # an unreadable catalog leaves its strings in English
    return catalog


def translate(context: str, text: str) -> str:
    """``text`` in the CLI's language (``translate("LabGPU", "…")`` is what pyside6-lupdate collects)."""
    global _catalog
    if _language == "en":
        return text
    if _catalog is None:
        _catalog = _load_catalog(_language)
    found = _catalog.get((context.encode(), text.encode()))
    return found.decode("utf-16-be", "replace") if found else text


def _language_of(value: str) -> str | None:
    """"zh_CN.UTF-8", "zh-CN", "zh" → "zh_CN"; "en_US", "C", "POSIX" → "en"; anything else → None."""
    v = value.strip().lower()
    if v.startswith("zh"):
        return "zh_CN"
    if v.startswith("en") or v.split(".")[0] in ("c", "posix"):
        return "en"
    return None


def choose_language(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The CLI's language: ``--lang`` first, then the environment as gettext reads it — LANGUAGE (a
    colon-separated list, unless the locale is C), LC_ALL, LC_MESSAGES, LANG. English where none names one."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else arg[7:] if arg.startswith("--lang=") else None
        if value is not None:
            return _language_of(value) or "en"
    locale = next((environ[k] for k in ("LC_ALL", "LC_MESSAGES", "LANG") if environ.get(k)), "")
    if locale.split(".")[0] in ("C", "POSIX"):
        return "en"
    for entry in environ.get("LANGUAGE", "").split(":"):
        chosen = _language_of(entry) if entry else None
        if chosen:
            return chosen
    return _language_of(locale) or "en"


def use_language(language: str) -> str:
    """Make every CLI string — help, tables, messages, errors, argparse's own words — ``language``."""
    from app.core import i18n

    global _language, _catalog
    _language = language if language in LANGUAGES else "en"
    _catalog = None
    i18n.set_language(_language)
    if _language == "en":
        i18n.set_translator(None)
        return _language
    i18n.set_translator(translate)
    setattr(argparse, "_", _argparse_text)  # noqa: B010 - argparse reads its module global
    setattr(argparse, "ngettext",  # noqa: B010
            lambda one, many, n: _argparse_text(one if n == 1 else many))
    return _language


def _sentence_gap() -> str:
    """What goes between two sentences: a space in English, nothing in Chinese."""
    return "" if _language.startswith("zh") else " "


def _list_sep() -> str:
    return "、" if _language.startswith("zh") else ", "


def _argparse_text(text: str) -> str:
    return translate("argparse", text) if text in _ARGPARSE_WORDS else text


class Parser(argparse.ArgumentParser):
    """argparse, with errors that say what to do next: a mistyped choice names the nearest ones, and
    every error ends with the command that shows what the command takes."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is None or value in choices:
            return
        names = [str(c) for c in choices]
        close = difflib.get_close_matches(str(value), names, n=3, cutoff=0.6)
        if isinstance(action, argparse._SubParsersAction):
            if len(names) <= 12:
                text = translate("LabGPU", "{value!r} is not a command of '{prog}'; its commands: {names}.").format(
                    value=value, prog=self.prog, names=_list_sep().join(names))
            else:
                text = translate("LabGPU", "{value!r} is not a command of '{prog}'.").format(
                    value=value, prog=self.prog)
        else:
            text = translate("LabGPU", "{value!r} is not one of: {choices}.").format(
                value=value, choices=_list_sep().join(names))
        if close:
            text += _sentence_gap() + translate("LabGPU", "Did you mean {names}?").format(
                names=translate("LabGPU", " or ").join(f"'{c}'" for c in close))
        raise argparse.ArgumentError(action, text)

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        """As argparse's, but an unknown option is reported by the (sub)command that was given it, with
        the options it does take that look alike."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            owner: argparse.ArgumentParser = self
            while True:
                sub = next((a for a in owner._actions if isinstance(a, argparse._SubParsersAction)), None)
                chosen = getattr(parsed, sub.dest, None) if sub is not None and sub.dest != argparse.SUPPRESS else None
                if sub is None or chosen not in (sub.choices or {}):
                    break
                owner = sub.choices[chosen]
            message = translate("argparse", "unrecognized arguments: %s") % " ".join(extras)
            known = [o for a in owner._actions for o in a.option_strings]
            close = [c for e in extras if e.startswith("-")
                     for c in difflib.get_close_matches(e.split("=")[0], known, n=2, cutoff=0.7)]
            if close:
                message += "\n" + translate("LabGPU", "Did you mean {names}?").format(
                    names=translate("LabGPU", " or ").join(f"'{c}'" for c in dict.fromkeys(close)))
            owner.error(message)
        return parsed

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        if self._subparsers is not None:
            hint = translate("LabGPU", "Run '{command} --help' to list its commands.").format(command=self.prog)
        else:
            hint = translate("LabGPU", "Run '{command} --help' to see its arguments and options.").format(
                command=self.prog)
        self.exit(2, translate("argparse", "%(prog)s: error: %(message)s\n") % {"prog": self.prog, "message": message}
                  + hint + "\n")
