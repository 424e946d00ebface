"""The pure-Python TensorBoard event reader against files written by a real writer (tensorboardX's
SummaryWriter: the same TFRecord framing and Event protobuf as TensorFlow and torch.utils.tensorboard)."""

from __future__ import annotations

import math
import os
import random
import struct
from pathlib import Path

import numpy as np
from tensorboardX import SummaryWriter
from tensorboardX.crc32c import crc32c as reference_crc32c
from tensorboardX.proto.summary_pb2 import Summary
from tensorboardX.proto.tensor_pb2 import TensorProto
from tensorboardX.proto.tensor_shape_pb2 import TensorShapeProto

from app.core import tbevents
from app.core.tbevents import EventFileReader, ScalarEvent, crc32c, masked_crc32c


def _f32(x: float) -> float:
    return float(struct.unpack("<f", struct.pack("<f", x))[0])


def _write(logdir: Path, steps: int = 50) -> tuple[Path, list[tuple[str, int, float]]]:
    """An event file from SummaryWriter with scalars among a histogram, text and tensor scalars."""
    w = SummaryWriter(str(logdir))
    expected: list[tuple[str, int, float]] = []
    for i in range(steps):
        w.add_scalar("train/loss", 1.0 / (i + 1), i)
        w.add_scalar("学习率", 0.001 * i, i)
        expected += [("train/loss", i, _f32(1.0 / (i + 1))), ("学习率", i, _f32(0.001 * i))]
        if i % 10 == 0:
            w.add_histogram("weights", np.arange(20, dtype=np.float32), i)
            w.add_text("note", f"step {i}", i)
    fw = w._get_file_writer()
    # writers that store a scalar as a one-element tensor (tf.summary.scalar in TF2): float_val,
    # double tensor_content, and a 1x1 shape; a 3-element tensor is not a scalar
    fw.add_summary(Summary(value=[Summary.Value(tag="tf2/float", tensor=TensorProto(
        dtype=1, tensor_shape=TensorShapeProto(), float_val=[2.5]))]), steps)
    fw.add_summary(Summary(value=[Summary.Value(tag="tf2/double", tensor=TensorProto(
        dtype=2, tensor_shape=TensorShapeProto(dim=[TensorShapeProto.Dim(size=1)]),
        tensor_content=struct.pack("<d", 0.125)))]), steps + 1)
    fw.add_summary(Summary(value=[Summary.Value(tag="tf2/vector", tensor=TensorProto(
        dtype=1, tensor_shape=TensorShapeProto(dim=[TensorShapeProto.Dim(size=3)]), float_val=[1, 2, 3]))]),
        steps + 2)
    expected += [("tf2/float", steps, 2.5), ("tf2/double", steps + 1, 0.125)]
    w.close()
    (path,) = logdir.glob("events.out.tfevents.*")
    return path, expected


def _triples(events: list[ScalarEvent]) -> list[tuple[str, int, float]]:
    return [(e.tag, e.step, e.value) for e in events]


def test_crc32c_matches_the_writers():
    rnd = random.Random(7)
    for n in (0, 1, 9, 100, 4097):
        data = bytes(rnd.getrandbits(8) for _ in range(n))
        assert crc32c(data) == reference_crc32c(data)
    assert crc32c(b"123456789") == 0xE3069283  # the CRC-32C check value (RFC 3720 B.4)


def test_a_real_writers_file_read_whole_and_byte_by_byte(tmp_path):
    path, expected = _write(tmp_path)
    data = path.read_bytes()
    whole = EventFileReader()
    events = whole.feed(data)
    assert _triples(events) == expected
    assert whole.consumed == len(data) and whole.corrupt == 0 and whole.pending == 0
    assert all(abs(e.wall_time - path.stat().st_mtime) < 600 for e in events)
    one = EventFileReader()
    got: list[ScalarEvent] = []
    for i in range(len(data)):
        got += one.feed(data[i:i + 1])
    assert got == events and one.consumed == len(data)


def test_a_torn_tail_waits_and_resumes_from_saved_state(tmp_path):
    path, expected = _write(tmp_path, steps=5)
    data = path.read_bytes()
    starts = _record_starts(data)
    cut = starts[-2] + 30  # inside the tf2/double record (the last one holds a vector: no scalar)
    r = EventFileReader()
    first = r.feed(data[:cut])
    assert _triples(first) == expected[:-1]
    assert r.consumed == starts[-2] and r.pending == 30
    # a new process goes on from the saved offset (the torn record is read again from its start)
    again = EventFileReader.from_json(r.to_json())
    assert again.consumed == r.consumed and again.pending == 0
    rest = again.feed(data[again.consumed:])
    assert _triples(rest) == expected[-1:] and again.consumed == len(data)


def _record_starts(data: bytes) -> list[int]:
    starts, pos = [], 0
    while pos < len(data):
        starts.append(pos)
        pos += 12 + int.from_bytes(data[pos:pos + 8], "little") + 4
    assert pos == len(data)
    return starts


def test_a_flipped_byte_skips_one_record_and_counts_it(tmp_path):
    path, expected = _write(tmp_path, steps=20)
    data = path.read_bytes()
    clean = EventFileReader().feed(data)
    # find the record of ("train/loss", 7) and flip a byte in its data, then in its length
    offsets = _record_starts(data)
    victim = next(o for o in offsets if EventFileReader().feed(data[o:o + 12 + int.from_bytes(
        data[o:o + 8], "little") + 4]) == [e for e in clean if (e.tag, e.step) == ("train/loss", 7)])
    for where in (victim + 20, victim + 1):  # in the data; in the length
        bad = bytearray(data)
        bad[where] ^= 0x40
        r = EventFileReader()
        got = r.feed(bytes(bad))
        assert r.corrupt == 1
        assert _triples(got) == [t for t in expected if t[:2] != ("train/loss", 7)]
        assert r.consumed == len(data)


def test_junk_and_truncations_never_raise():
    rnd = random.Random(3)
    for _ in range(200):
        junk = bytes(rnd.getrandbits(8) for _ in range(rnd.randrange(0, 300)))
        r = EventFileReader()
        r.feed(junk)
        assert r.pending <= tbevents.MAX_RECORD_BYTES + 16
    # a valid frame around bytes that are not an Event
    body = b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
    frame = _frame(body)
    r = EventFileReader()
    assert r.feed(frame + _frame(_scalar_event(3, "x", 1.0))) == [ScalarEvent(3, 1000.0, "x", 1.0)]
    assert r.corrupt == 1


def _frame(body: bytes) -> bytes:
    head = len(body).to_bytes(8, "little")
    return (head + masked_crc32c(head).to_bytes(4, "little") + body
            + masked_crc32c(body).to_bytes(4, "little"))


def _scalar_event(step: int, tag: str, value: float, wall: float = 1000.0) -> bytes:
    from tensorboardX.proto.event_pb2 import Event

    return Event(wall_time=wall, step=step, summary=Summary(
        value=[Summary.Value(tag=tag, simple_value=value)])).SerializeToString()


def test_an_oversized_record_is_passed_over_without_keeping_it():
    big = b"\x00" * (tbevents.MAX_RECORD_BYTES + 10)
    data = _frame(big) + _frame(_scalar_event(9, "loss", 0.5))
    r = EventFileReader()
    got: list[ScalarEvent] = []
    for i in range(0, len(data), 65536):
        got += r.feed(data[i:i + 65536])
        assert r.pending < 70000
    assert got == [ScalarEvent(9, 1000.0, "loss", 0.5)] and r.skipped_large == 1
    assert r.consumed == len(data)


def test_hostile_tags_and_values_are_bounded_plain_text():
    tag = "\x1b[31mred\x00\u202e" + "x" * 10000
    ev = EventFileReader().feed(_frame(_scalar_event(-5, tag, float("nan"))))
    (e,) = ev
    assert e.step == -5 and math.isnan(e.value)
    assert len(e.tag) == tbevents.MAX_TAG_CHARS and "\x1b" not in e.tag and "\x00" not in e.tag
    assert "\u202e" not in e.tag
    assert e.to_json()["value"] == "nan"


def test_every_cut_point_of_a_record_waits():
    rec = _frame(_scalar_event(1, "a", 2.0))
    for cut in range(1, len(rec)):
        r = EventFileReader()
        assert r.feed(rec[:cut]) == [] and r.consumed == 0
        assert r.feed(rec[cut:]) == [ScalarEvent(1, 1000.0, "a", 2.0)] and r.consumed == len(rec)


def test_reader_module_imports_no_protobuf():
    src = Path(tbevents.__file__).read_text()
    for name in ("tensorflow", "tensorboard", "google.protobuf", "tensorboardX"):
        assert f"import {name}" not in src and f"from {name}" not in src
    assert os.path.basename(tbevents.__file__) == "tbevents.py"
