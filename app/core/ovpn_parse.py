"""Read an ``.ovpn`` file exactly the way OpenVPN 2.6 reads it, and write one back. Pure.

Why: a profile is a program for a root process. A checker that splits lines its own way can be
fooled by a file OpenVPN reads differently (an inline block OpenVPN closes early, a quote or
backslash rule, a ``--`` prefix). This module is a line-for-line port of OpenVPN's own reader
(``src/openvpn/options.c`` of 2.6: ``read_config_file``, ``parse_line``, ``bypass_doubledash``,
``check_inline_file``, ``read_inline_file``), working on bytes as OpenVPN does:

- the file is read with ``fgets`` into a 257-byte buffer: a line of 256 bytes or more (its
  ``\\n`` included) is fatal in OpenVPN ("Maximum option line length") — refused here too;
- a UTF-8 BOM is skipped on the first line only;
- ``parse_line``: whitespace is C ``isspace``; a token that *starts* with ``#`` or ``;`` ends the
  line (a comment); ``"…"`` and ``'…'`` quote (no escapes inside single quotes); a backslash
  escapes only ``\\``, ``"`` and whitespace, any other escape is fatal; ``"a"b`` is two tokens;
  at most 16 tokens — OpenVPN silently drops the rest of the line, and so does this port; a
  token may hold 256 bytes at most;
- ``--`` is removed from the first token when it is at least 3 bytes long;
- a line whose ONLY token is ``<x>`` opens an inline block (quoted or ``--``-prefixed too); the
  block ends at the first line that, after leading whitespace, merely STARTS with ``</x>``
  (case-sensitive; the rest of that line is ignored); block lines are read in 255-byte pieces
  (``fgets`` of 256), so a piece that starts with ``</x>`` in the middle of a long line ends it;
  a missing end tag is fatal;
- ``setenv opt NAME ARGS…`` is the directive ``NAME ARGS…`` whose unknown-ness is only a warning
  (``add_option``).

Anything OpenVPN would stop on is a :class:`OvpnSyntaxError` naming the line; being stricter
than OpenVPN is always safe here (a refused profile never runs), being looser never is.

:func:`serialize` writes directives back so that this reader — and therefore OpenVPN — reads
exactly the same names, arguments and inline bodies again (tests check both).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP, translate

MAX_PARMS = 16  # options.h
OPTION_PARM_SIZE = 256
OPTION_LINE_SIZE = 256
BOM = b"\xef\xbb\xbf"
_SPACE = frozenset(b" \t\n\v\f\r\0")  # C isspace() in the "C" locale, plus NUL (options.c: space())


class ProfileError(InputError):
    """The .ovpn file cannot be used as it is."""


class OvpnSyntaxError(ProfileError):
    """OpenVPN itself would stop on this profile (or read it in a way LabGPU will not run)."""

    def __init__(self, line: int, text: str, reason: str, code: str = "VpnProfileSyntax") -> None:
        super().__init__(
            QT_TRANSLATE_NOOP("LabGPU", "The profile cannot be read at line {line} ({text}): {reason}."),
            QT_TRANSLATE_NOOP("LabGPU", "Fix that line or download the profile again from your VPN provider."),
            code=code,
            line=line,
            text=text,
            reason=translate(reason),
        )
        self.line = line


@dataclass(frozen=True)
class Directive:
    """One option as OpenVPN's ``add_option`` receives it."""

    name: str
    args: tuple[str, ...]
    line: int  # 1-based number of the physical line it starts on
    text: str  # that line as written (for messages; shortened)
    inline: str | None = None  # the body of ``<name>…</name>``; then ``args`` is empty
    optional: bool = False  # written as ``setenv opt NAME …``

    def shown(self) -> str:
        return f"{self.line}: {self.text}"


def _shown_text(raw: bytes) -> str:
    text = raw.decode("utf-8", "replace").lstrip("\ufeff").strip()
    text = "".join(c if c.isprintable() else "\N{REPLACEMENT CHARACTER}" for c in text)
    return text if len(text) <= 120 else text[:117] + "…"


def parse_line(line: bytes) -> list[bytes] | str:
    """OpenVPN's ``parse_line``: the tokens, or the reason OpenVPN refuses the line (a str)."""
    initial, quoted, unquoted, done, squoted = 0, 1, 2, 3, 4
    state = initial
    backslash = False
    parm = bytearray()
    tokens: list[bytes] = []
    for ch in line + b"\0":
        out = 0
        if not backslash and ch == 0x5C and state != squoted:
            backslash = True
        else:
            if state == initial:
                if ch not in _SPACE:
                    if ch in (0x3B, 0x23):  # ';' '#': a comment
                        break
                    if not backslash and ch == 0x22:
                        state = quoted
                    elif not backslash and ch == 0x27:
                        state = squoted
                    else:
                        out = ch
                        state = unquoted
            elif state == unquoted:
                if not backslash and ch in _SPACE:
                    state = done
                else:
                    out = ch
            elif state == quoted:
                if not backslash and ch == 0x22:
                    state = done
                else:
                    out = ch
            elif state == squoted:
                if ch == 0x27:
                    state = done
                else:
                    out = ch
            if state == done:
                tokens.append(bytes(parm))
                state = initial
                parm.clear()
            if backslash and out and not (out in (0x5C, 0x22) or out in _SPACE):
                return QT_TRANSLATE_NOOP("LabGPU", 'a backslash may only escape \\, " or a space')
            backslash = False
        if out:
            if len(parm) >= OPTION_PARM_SIZE:
                return QT_TRANSLATE_NOOP("LabGPU", "a value is longer than 256 bytes")
            parm.append(out)
        if len(tokens) >= MAX_PARMS:
            break
    if state == quoted:
        return QT_TRANSLATE_NOOP("LabGPU", "a double quote is not closed")
    if state == squoted:
        return QT_TRANSLATE_NOOP("LabGPU", "a single quote is not closed")
    if state != initial:
        return QT_TRANSLATE_NOOP("LabGPU", "the line ends inside a value")
    return tokens


def _fgets(data: bytes, pos: int, size: int) -> tuple[bytes, int]:
    """C ``fgets(buf, size, fp)``: up to ``size - 1`` bytes, stopping after a newline."""
    end = data.find(b"\n", pos, pos + size - 1)
    stop = min(len(data), pos + size - 1) if end < 0 else end + 1
    return data[pos:stop], stop


def _decode(raw: bytes, line: int, shown: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise OvpnSyntaxError(
            line, _shown_text(shown), QT_TRANSLATE_NOOP("LabGPU", "it is not valid UTF-8 text")
        ) from None


def read_config(data: bytes) -> list[Directive]:
    """Every directive of a profile, in order, as OpenVPN 2.6's ``read_config_file`` sees them."""
    out: list[Directive] = []
    if b"\0" in data:
        lineno = data.count(b"\n", 0, data.index(b"\0")) + 1
        raise OvpnSyntaxError(lineno, "", QT_TRANSLATE_NOOP("LabGPU", "it contains binary data (a NUL byte)"))
    pos = 0
    first = True
    while pos < len(data):
        start = pos
        chunk, pos = _fgets(data, pos, OPTION_LINE_SIZE + 1)
        lineno = data.count(b"\n", 0, start) + 1
        if len(chunk) == OPTION_LINE_SIZE:
            raise OvpnSyntaxError(
                lineno, _shown_text(chunk), QT_TRANSLATE_NOOP("LabGPU", "the line is 256 bytes or longer")
            )
        body = chunk[3:] if first and chunk.startswith(BOM) else chunk
        first = False
        parsed = parse_line(body)
        if isinstance(parsed, str):
            raise OvpnSyntaxError(lineno, _shown_text(chunk), parsed)
        if not parsed:
            continue
        p = list(parsed)
        if len(p[0]) >= 3 and p[0].startswith(b"--"):  # bypass_doubledash
            p[0] = p[0][2:]
        inline: str | None = None
        if len(p) == 1 and p[0][:1] == b"<" and p[0][-1:] == b">" and len(p[0]) >= 2:
            tag = p[0][1:-1]
            close = b"</" + tag + b">"
            pieces: list[bytes] = []
            while True:
                if pos >= len(data):
                    raise OvpnSyntaxError(
                        lineno,
                        _shown_text(chunk),
                        QT_TRANSLATE_NOOP("LabGPU", "the inline block is never closed"),
                        code="VpnProfileBlock",
                    )
                piece, pos = _fgets(data, pos, OPTION_LINE_SIZE)
                if piece.lstrip(b" \t\n\v\f\r").startswith(close):
                    break
                pieces.append(piece)
            p = [tag]
            inline = _decode(b"".join(pieces), lineno, chunk)
        words = [_decode(t, lineno, chunk) for t in p]
        optional = False
        if words[0] == "setenv" and len(words) > 1 and words[1] == "opt":
            words = words[2:] or ["setenv opt"]
            optional = True
        out.append(Directive(words[0], tuple(words[1:]), lineno, _shown_text(chunk), inline, optional))
    return out


_TAG = re.compile(r"[A-Za-z0-9_.\-]+")


def quote(token: str) -> str:
    """A token OpenVPN's ``parse_line`` reads back as exactly ``token`` (not a first token)."""
    raw = token.encode("utf-8")
    if raw and raw[0] not in b"\"'#;" and not any(c in _SPACE or c == 0x5C for c in raw):
        return token
    if "'" not in token:
        return "'" + token + "'"  # no escapes at all inside single quotes
    return '"' + token.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _name(name: str) -> str:
    # bypass_doubledash() strips "--" from a first token of 3 bytes or more: give it one to strip.
    return quote("--" + name if len(name.encode()) >= 3 and name.startswith("--") else name)


def serialize(directives: list[Directive]) -> str:
    """Write directives back in OpenVPN's syntax (see the module docstring); a directive whose
    line would be too long for OpenVPN is an :class:`OvpnSyntaxError`."""
    lines: list[str] = []
    for d in directives:
        prefix = "setenv opt " if d.optional else ""
        if d.inline is not None and not d.optional:
            opener = f"<{d.name}>" if _TAG.fullmatch(d.name) else quote(f"<{d.name}>")
            if len(opener.encode()) + 1 >= OPTION_LINE_SIZE:
                raise OvpnSyntaxError(d.line, d.text, QT_TRANSLATE_NOOP("LabGPU", "the line is 256 bytes or longer"))
            body = d.inline
            # A body that does not end in a newline ends with whole 255-byte pieces: the end tag
            # then starts a piece of its own, exactly as it did in the file that was read.
            lines.append(f"{opener}\n{body}</{d.name}>")
            continue
        if any("\n" in t for t in (d.name, *d.args)):
            # Only "\\" + newline at the very end of a line makes such a token; never written back.
            raise OvpnSyntaxError(d.line, d.text, QT_TRANSLATE_NOOP("LabGPU", "a value ends in a line break"))
        line = prefix + " ".join([_name(d.name), *(quote(t) for t in d.args)])
        if len(line.encode("utf-8")) + 1 >= OPTION_LINE_SIZE:
            raise OvpnSyntaxError(
                d.line, d.text, QT_TRANSLATE_NOOP("LabGPU", "the line would be 256 bytes or longer once rewritten")
            )
        lines.append(line)
    return "\n".join(lines) + "\n" if lines else ""


__all__ = ["Directive", "OvpnSyntaxError", "ProfileError", "parse_line", "quote", "read_config", "serialize"]
