"""Reads Qt's compiled translations (.qm) without Qt, so a notice leaves in the student's language from
the CLI (`labgpu watch`, `labgpu notify test`) too, where no QTranslator is installed.

The format is the one Qt's own QTranslator::load reads (qtbase src/corelib/kernel/qtranslator.cpp, and
lrelease's writer, qttools src/linguist/shared/qm.cpp): a 16-byte magic, then blocks ``tag:u8
length:u32be data``. The Hashes block (tag 0x42) is a sorted table of ``(elf_hash(source + comment):u32,
offset:u32)``; the Messages block (0x69) holds at each offset a record of tagged fields (3 = translation,
UTF-16BE with a u32 byte length, 0xFFFFFFFF for none; 6 = source text, 7 = context, 8 = comment, UTF-8
with a u32 length; 1 = end). lrelease strips the source text and often the context from a record when
the hash alone tells it apart, so a lookup goes through the hash table, as QTranslator's does.
"""

from __future__ import annotations

import logging
import struct
from pathlib import Path

log = logging.getLogger(__name__)

MAGIC = bytes([0x3C, 0xB8, 0x64, 0x18, 0xCA, 0xEF, 0x9C, 0x95, 0xCD, 0x21, 0x1C, 0xBF, 0x60, 0xA1, 0xBD, 0xDD])
_TAG_HASHES, _TAG_MESSAGES = 0x42, 0x69
_END, _TRANSLATION, _OBSOLETE1, _SOURCE, _CONTEXT, _COMMENT = 1, 3, 5, 6, 7, 8
_MAX_FILE = 8 * 1024 * 1024  # a catalog is tens of KiB; anything near this is not one


def elf_hash(data: bytes) -> int:
    """Qt's elfHash over the UTF-8 of source text + comment (0 becomes 1)."""
    h = 0
    for byte in data:
        if byte == 0:
            break
        h = ((h << 4) + byte) & 0xFFFFFFFF
        g = h & 0xF0000000
        if g:
            h ^= g >> 24
        h &= ~g & 0xFFFFFFFF
    return h or 1


class QmCatalog:
    """One .qm file: ``translate(context, source)`` returns the translation or None."""

    def __init__(self, data: bytes) -> None:
        if not data.startswith(MAGIC):
            raise ValueError("not a Qt translation file")
        self._hashes = b""
        self._messages = b""
        pos = len(MAGIC)
        while pos + 5 <= len(data):
            tag = data[pos]
            (length,) = struct.unpack_from(">I", data, pos + 1)
            block = data[pos + 5:pos + 5 + length]
            if tag == _TAG_HASHES:
                self._hashes = block
            elif tag == _TAG_MESSAGES:
                self._messages = block
            pos += 5 + length

    @classmethod
    def from_file(cls, path: Path) -> QmCatalog | None:
        try:
            if path.stat().st_size > _MAX_FILE:
                return None
            return cls(path.read_bytes())
        except (OSError, ValueError, struct.error) as exc:
            log.warning("translation %s unreadable: %s", path.name, exc)
            return None

    def _offsets(self, h: int) -> list[int]:
        n = len(self._hashes) // 8
        lo, hi = 0, n
        while lo < hi:  # the first entry whose hash is >= h
            mid = (lo + hi) // 2
            if struct.unpack_from(">I", self._hashes, mid * 8)[0] < h:
                lo = mid + 1
            else:
                hi = mid
        out = []
        while lo < n:
            eh, off = struct.unpack_from(">II", self._hashes, lo * 8)
            if eh != h:
                break
            out.append(off)
            lo += 1
        return out

    def _record(self, off: int) -> tuple[str | None, bytes | None, bytes | None, bytes | None]:
        data = self._messages
        translation: str | None = None
        source = context = comment = None
        pos = off
        while pos < len(data):
            tag = data[pos]
            pos += 1
            if tag == _END:
                break
            if tag == _OBSOLETE1:
                pos += 4
                continue
            (length,) = struct.unpack_from(">I", data, pos)
            pos += 4
            if tag == _TRANSLATION:
                if length == 0xFFFFFFFF:
                    continue
                translation = data[pos:pos + length].decode("utf-16-be", errors="replace")
            elif tag == _SOURCE:
                source = data[pos:pos + length]
            elif tag == _CONTEXT:
                context = data[pos:pos + length]
            elif tag == _COMMENT:
                comment = data[pos:pos + length]
            else:
                break  # a field this reader does not know: stop at this record
            pos += length
        return translation, source, context, comment

    def translate(self, context: str, source: str, comment: str = "") -> str | None:
        """As QTranslator::translate: the message with ``comment``, else (as Qt does) the one without."""
        found = self._find(context.encode(), source.encode(), comment.encode())
        if found is None and comment:
            found = self._find(context.encode(), source.encode(), b"")
        return found

    def _find(self, ctx: bytes, src: bytes, cmt: bytes) -> str | None:
        for off in self._offsets(elf_hash(src + cmt)):
            try:
                translation, rsrc, rctx, rcmt = self._record(off)
            except struct.error:
                return None
            if rctx is not None and rctx != ctx:
                continue
            if rsrc is not None and rsrc != src:
                continue
            if rcmt is not None and rcmt != cmt:
                continue
            return translation or None
        return None
