"""TensorBoard event files read incrementally in pure Python: scalars (tag, step, value, wall time).

Pure: no tensorflow, tensorboard or protobuf import. The file is a sequence of TFRecords
(tensorflow/core/lib/io/record_writer.cc, and tensorboardX/record_writer.py which writes the same):

    uint64 length (little-endian) | uint32 masked_crc32c(length bytes) | data | uint32 masked_crc32c(data)

with ``masked = ((crc >> 15) | (crc << 17)) + 0xa282ead8`` (mod 2**32) over CRC-32C (Castagnoli,
the polynomial 0x82f63b78 reflected). Each record's data is an ``Event`` protobuf
(tensorboard/compat/proto/event.proto, summary.proto, tensor.proto), of which this reads:

    Event    { double wall_time = 1; int64 step = 2; Summary summary = 5; }
    Summary  { repeated Value value = 1; }
    Value    { string tag = 1; float simple_value = 2; TensorProto tensor = 8; }
    TensorProto { DataType dtype = 1; TensorShapeProto tensor_shape = 2; bytes tensor_content = 4;
                  repeated float float_val = 5; repeated double double_val = 6; repeated int32 half_val = 13; }
    TensorShapeProto { repeated Dim dim = 2; }   Dim { int64 size = 1; }

A scalar is a ``simple_value`` (tensorboardX, torch.utils.tensorboard) or a one-element float,
double or half tensor (tf.summary.scalar in TF2 writes these); anything else (histograms, images,
text, graphs) is skipped.

Reading a file that is still being written (the event file of a running job):
- a record not complete yet (a torn tail) waits for more bytes: ``consumed`` stays at its start;
- a record whose data fails its CRC is skipped and counted in ``corrupt``; a length that fails its
  CRC cannot be trusted, so the reader looks for the next valid record header byte by byte (counted once);
- bounds: a record longer than ``MAX_RECORD_BYTES`` is skipped without being kept in memory (a
  scalar's record is ~50 bytes; an image's may be large), at most ``MAX_VALUES_PER_EVENT`` scalars
  are taken from one event, tags are cut at ``MAX_TAG_CHARS`` and made plain text. Whatever the
  bytes, the reader never raises.
"""

from __future__ import annotations

import math
import re
import struct
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_RECORD_BYTES = 1024 * 1024
CHECK_ALWAYS_BYTES = 64 * 1024  # bigger records are CRC-checked only when they carry a scalar
MAX_VALUES_PER_EVENT = 1000
MAX_TAG_CHARS = 200
_HEADER = 12
_FOOTER = 4
_COMPACT = 256 * 1024

_DT_FLOAT, _DT_DOUBLE, _DT_HALF = 1, 2, 19
# where a record may start after a bad length: a length of 1 byte to 16 MiB (its top five bytes zero;
# not all of its low three), found by the regex engine instead of a Python loop (a file of zeros)
_CANDIDATE = re.compile(rb"(?=(?!\x00\x00\x00)[\x00-\xff]{3}\x00{5})")
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]")


def _crc_table() -> tuple[int, ...]:
    table = []
    for i in range(256):
        crc = i
        for _ in range(8):
            crc = (crc >> 1) ^ 0x82F63B78 if crc & 1 else crc >> 1
        table.append(crc)
    return tuple(table)


_TABLE = _crc_table()


def crc32c(data: bytes | bytearray | memoryview) -> int:
    """CRC-32C (Castagnoli) of ``data``."""
    crc = 0xFFFFFFFF
    table = _TABLE
    for b in bytes(data):
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data: bytes | bytearray | memoryview) -> int:
    """The masked CRC TFRecord stores (a CRC of data that holds CRCs is weak, hence the mask)."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


@dataclass(frozen=True)
class ScalarEvent:
    step: int
    wall_time: float  # seconds since the epoch, the writing host's clock
    tag: str
    value: float  # may be NaN or infinite: a loss that diverged is worth showing

    def to_json(self) -> dict[str, Any]:
        v: Any = self.value if math.isfinite(self.value) else str(self.value)
        return {"step": self.step, "wall_time": self.wall_time, "tag": self.tag, "value": v}


class _Bad(Exception):
    """Bytes that are not the protobuf expected."""


def _varint(buf: bytes, pos: int, end: int) -> tuple[int, int]:
    result = 0
    shift = 0
    while True:
        if pos >= end or shift > 63:
            raise _Bad
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result & 0xFFFFFFFFFFFFFFFF, pos
        shift += 7


def _fields(buf: bytes, pos: int, end: int) -> list[tuple[int, int, Any]]:
    """(field number, wire type, value) of one message: value is an int for varints, bytes for
    fixed-size fields, a (start, end) pair for length-delimited ones."""
    out: list[tuple[int, int, Any]] = []
    while pos < end:
        key = buf[pos]
        if key < 0x80:  # every key of these messages is one byte: no call for it
            pos += 1
        else:
            key, pos = _varint(buf, pos, end)
        field, wire = key >> 3, key & 7
        if field == 0:
            raise _Bad
        if wire == 0:
            value, pos = _varint(buf, pos, end)
            out.append((field, wire, value))
        elif wire == 1:
            if pos + 8 > end:
                raise _Bad
            out.append((field, wire, buf[pos:pos + 8]))
            pos += 8
        elif wire == 2:
            if pos < end and buf[pos] < 0x80:
                n = buf[pos]
                pos += 1
            else:
                n, pos = _varint(buf, pos, end)
            if pos + n > end:
                raise _Bad
            out.append((field, wire, (pos, pos + n)))
            pos += n
        elif wire == 5:
            if pos + 4 > end:
                raise _Bad
            out.append((field, wire, buf[pos:pos + 4]))
            pos += 4
        else:  # groups (3, 4) and 6, 7 are not in these messages
            raise _Bad
    return out


def _plain(tag: bytes) -> str:
    text = _UNSAFE.sub(" ", tag[: MAX_TAG_CHARS * 4].decode("utf-8", "replace"))
    return text[:MAX_TAG_CHARS]


def _tensor_scalar(buf: bytes, start: int, end: int) -> float | None:
    dtype = 0
    elements = 1
    content: bytes | None = None
    floats: list[float] = []
    for field, wire, value in _fields(buf, start, end):
        if field == 1 and wire == 0:
            dtype = value
        elif field == 2 and wire == 2:
            for f2, w2, dim in _fields(buf, *value):
                if f2 == 2 and w2 == 2:
                    size = next((v for f3, w3, v in _fields(buf, *dim) if f3 == 1 and w3 == 0), 0)
                    elements *= size if size < 2**63 else 0  # -1 (unknown) reads as a huge varint
        elif field == 4 and wire == 2:
            content = buf[value[0]:value[1]]
        elif field == 5 and dtype in (0, _DT_FLOAT):
            floats += _packed(buf, wire, value, 4, "<f")
        elif field == 6:
            floats += _packed(buf, wire, value, 8, "<d")
        elif field == 13:
            floats += _halves(buf, wire, value)
        if len(floats) > 1:
            return None
    if elements != 1:
        return None
    if content is not None and not floats:
        fmt = {_DT_FLOAT: "<f", _DT_DOUBLE: "<d", _DT_HALF: "<e"}.get(dtype)
        if fmt is None or len(content) != struct.calcsize(fmt):
            return None
        return float(struct.unpack(fmt, content)[0])
    if dtype not in (_DT_FLOAT, _DT_DOUBLE, _DT_HALF) or len(floats) != 1:
        return None
    return floats[0]


def _packed(buf: bytes, wire: int, value: Any, size: int, fmt: str) -> list[float]:
    if wire == 2:
        start, end = value
        if (end - start) % size or end - start > 2 * size:
            return [math.nan, math.nan]  # more than one element: not a scalar
        return [float(x[0]) for x in struct.iter_unpack(fmt, buf[start:end])]
    if (wire, size) in ((5, 4), (1, 8)):
        return [float(struct.unpack(fmt, value)[0])]
    raise _Bad


def _halves(buf: bytes, wire: int, value: Any) -> list[float]:
    if wire == 0:
        return [float(struct.unpack("<e", struct.pack("<H", value & 0xFFFF))[0])]
    if wire == 2:
        out: list[float] = []
        pos, end = value[0], value[1]
        while pos < end and len(out) < 2:
            v, pos = _varint(buf, pos, end)
            out.append(float(struct.unpack("<e", struct.pack("<H", v & 0xFFFF))[0]))
        return out
    raise _Bad


def decode_event(data: bytes) -> list[ScalarEvent]:
    """The scalars of one Event record's data (raises _Bad for bytes that are not an Event)."""
    wall_time = 0.0
    step = 0
    summaries: list[tuple[int, int]] = []
    for field, wire, value in _fields(data, 0, len(data)):
        if field == 1 and wire == 1:
            wall_time = float(struct.unpack("<d", value)[0])
        elif field == 2 and wire == 0:
            step = value - (1 << 64) if value >= 1 << 63 else value
        elif field == 5 and wire == 2:
            summaries.append(value)
    out: list[ScalarEvent] = []
    for start, end in summaries:
        for field, wire, value in _fields(data, start, end):
            if field != 1 or wire != 2:
                continue
            tag = b""
            scalar: float | None = None
            for f2, w2, v2 in _fields(data, *value):
                if f2 == 1 and w2 == 2:
                    tag = data[v2[0]:v2[1]]
                elif f2 == 2 and w2 == 5:
                    scalar = float(struct.unpack("<f", v2)[0])
                elif f2 == 8 and w2 == 2 and scalar is None:
                    scalar = _tensor_scalar(data, *v2)
            if scalar is not None:
                out.append(ScalarEvent(step, wall_time, _plain(tag), scalar))
                if len(out) >= MAX_VALUES_PER_EVENT:
                    return out
    return out


class EventFileReader:
    """Feed an event file's bytes in order, any slicing; get the scalars of each complete record.

    ``consumed`` is the file offset up to which everything was read (a torn record starts there);
    ``corrupt`` counts records skipped for a bad CRC or bad bytes, ``skipped_large`` those over
    MAX_RECORD_BYTES.
    """

    def __init__(self, offset: int = 0) -> None:
        self.consumed = max(0, int(offset))
        self.corrupt = 0
        self.skipped_large = 0
        self._buf = bytearray()
        self._skip = 0  # bytes of an oversized record still to pass over
        self._scanning = False  # looking for a valid header after a bad length
        self._length_crcs: dict[int, int] = {}

    @property
    def pending(self) -> int:
        """Bytes received but not consumed yet (a torn record)."""
        return len(self._buf)

    @property
    def position(self) -> int:
        """The file offset of the next byte to feed."""
        return self.consumed + len(self._buf)

    def feed(self, data: bytes | bytearray | memoryview) -> list[ScalarEvent]:
        out: list[ScalarEvent] = []
        view = memoryview(data).cast("B")
        if self._skip:
            n = min(self._skip, len(view))
            self._skip -= n
            self.consumed += n
            view = view[n:]
        if not view:
            return out
        buf = self._buf
        buf += view
        pos = 0
        while True:
            if self._skip:
                n = min(self._skip, len(buf) - pos)
                self._skip -= n
                pos += n
                if self._skip:
                    break
            if len(buf) - pos < _HEADER:
                break
            if self._scanning:
                m = _CANDIDATE.search(buf, pos)
                if m is None:
                    pos = max(pos, len(buf) - 7)  # a candidate may still start in the last 7 bytes
                    break
                pos = m.start()
                if len(buf) - pos < _HEADER:
                    break
            header = bytes(buf[pos:pos + _HEADER])
            length = int.from_bytes(header[:8], "little")
            expected = self._length_crcs.get(length)
            if expected is None:
                expected = masked_crc32c(header[:8])
                if len(self._length_crcs) < 4096:  # records of a scalar file have few lengths
                    self._length_crcs[length] = expected
            if expected != int.from_bytes(header[8:], "little"):
                if not self._scanning:
                    self._scanning = True
                    self.corrupt += 1
                pos += 1
                continue
            self._scanning = False
            if length > MAX_RECORD_BYTES:
                self.skipped_large += 1
                self._skip = length + _FOOTER
                pos += _HEADER
                continue
            total = _HEADER + length + _FOOTER
            if len(buf) - pos < total:
                break  # a torn tail: wait for the rest
            body = bytes(buf[pos + _HEADER:pos + _HEADER + length])
            crc = int.from_bytes(buf[pos + _HEADER + length:pos + total], "little")
            pos += total
            out.extend(self._record(body, crc))
        del buf[:pos]
        self.consumed += pos
        return out

    def _record(self, body: bytes, crc: int) -> list[ScalarEvent]:
        if len(body) <= CHECK_ALWAYS_BYTES and masked_crc32c(body) != crc:
            self.corrupt += 1
            return []
        try:
            found = decode_event(body)
        except (_Bad, struct.error, ValueError, OverflowError):
            self.corrupt += 1
            return []
        if found and len(body) > CHECK_ALWAYS_BYTES and masked_crc32c(body) != crc:
            self.corrupt += 1
            return []
        return found

    def to_json(self) -> dict[str, Any]:
        """Where to go on (a torn record is read again from its start next time)."""
        return {"consumed": self.consumed, "skip": self._skip, "scanning": self._scanning,
                "corrupt": self.corrupt, "skipped_large": self.skipped_large}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> EventFileReader:
        def whole(key: str) -> int:
            v = data.get(key) if isinstance(data, Mapping) else None
            return v if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 2**62 else 0

        r = cls(whole("consumed"))
        r._skip = whole("skip")
        r._scanning = bool(data.get("scanning")) if isinstance(data, Mapping) else False
        r.corrupt = whole("corrupt")
        r.skipped_large = whole("skipped_large")
        return r
