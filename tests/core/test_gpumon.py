"""The nvidia-smi CSV parser, fed with lines shaped like the real outputs quoted in bug reports."""

from __future__ import annotations

from datetime import datetime, timezone

from hypothesis import given
from hypothesis import strategies as st

from app.core.gpumon import (
    LEGACY_QUERY_FIELDS,
    QUERY_FIELDS,
    GpuParseError,
    SampleAssembler,
    classify_failure,
    failure_kind,
    parse_gpu_line,
    parse_process_line,
    parse_snapshot,
    parse_value,
)
from tests.fixtures.fake_nvidia_smi import LOST_STEP, MIG_STEP, OLD_CARD_STEP, a100

T = datetime(2026, 12, 2, 18, 0, tzinfo=timezone.utc)


def line(rec: dict, fields=QUERY_FIELDS) -> str:
    return ", ".join(str(rec.get(f, "[N/A]")) for f in fields)


def test_busy_a100_line_parses_numbers():
    g = parse_gpu_line(line(a100(3, 97, 30123, power="310.50")))
    assert g.index == 3 and g.uuid.startswith("GPU-a100") and g.name == "NVIDIA A100-SXM4-80GB"
    assert g.utilization_gpu == 97.0 and g.memory_used_mib == 30123.0 and g.memory_total_mib == 81920.0
    assert g.power_w == 310.5 and g.power_limit_w == 400.0 and g.temperature_c == 55.0
    assert g.status == "ok"


def test_every_unknown_spelling_is_none_never_zero():
    for raw in ("[N/A]", "N/A", "[Not Supported]", "[Unknown Error]", "", "  ", "[GPU is lost]",
                "[Requested functionality has been deprecated]", "[Insufficient Permissions]", "nan", "-1"):
        assert parse_value(raw) is None, raw
    assert parse_value("0") == 0.0
    assert parse_value("35 %") == 35.0 and parse_value("1024 MiB") == 1024.0 and parse_value("87.00 W") == 87.0


def test_mig_gpu_has_no_utilization_and_says_why():
    g = parse_gpu_line(line(MIG_STEP["gpus"][0]))
    assert g.utilization_gpu is None
    assert g.memory_used_mib == 36537.0 and g.power_w == 87.0
    assert g.status.startswith("mig")


def test_power_not_supported_on_an_old_card():
    g = parse_gpu_line(line(OLD_CARD_STEP["gpus"][0]))
    assert g.power_w is None and g.power_limit_w == 120.0 and g.utilization_gpu == 0.0
    assert g.status == "ok"


def test_unknown_error_in_one_field_marks_the_gpu():
    g = parse_gpu_line(line(LOST_STEP["gpus"][1]))
    assert g.power_w is None and g.utilization_gpu == 91.0
    assert g.status == "error: unknown error"


def test_lost_gpu_line_becomes_a_lost_reading():
    for text, bus in (("Unable to determine the device handle for GPU0000:17:00.0: Unknown Error", "0000:17:00.0"),
                      ("Unable to determine the device handle for GPU 0000:02:00.0: GPU is lost.  Reboot the "
                       "system to recover this GPU", "0000:02:00.0")):
        g = parse_gpu_line(text)
        assert g.uuid == f"bus:{bus}" and g.status.startswith("lost")
        assert g.utilization_gpu is None and g.index is None


def test_name_with_a_comma_and_garbage_lines():
    rec = a100(0, 5)
    rec["name"] = "Tesla T4, rev b"
    g = parse_gpu_line(line(rec))
    assert g.name == "Tesla T4, rev b" and g.utilization_gpu == 5.0
    for bad in ("No devices were found", "Failed to initialize NVML: Driver/library version mismatch", "1, 2"):
        try:
            parse_gpu_line(bad)
        except GpuParseError:
            continue
        raise AssertionError(bad)


def test_legacy_fields_without_mig():
    rec = a100(0, 12)
    g = parse_gpu_line(line(rec, LEGACY_QUERY_FIELDS), LEGACY_QUERY_FIELDS)
    assert g.utilization_gpu == 12.0 and g.status == "ok"


def test_process_lines():
    p = parse_process_line("GPU-a1000000-6c2e-4b1f-9a0d-000000000000, 4242, /usr/bin/python3 train.py, 29876")
    assert p is not None and p.pid == 4242 and p.used_memory_mib == 29876.0
    mig = parse_process_line(MIG_STEP["processes"][0])
    assert mig is not None and mig.used_memory_mib is None
    p2 = parse_process_line("GPU-x, 7, /opt/a,b/python, 100")
    assert p2 is not None and p2.name == "/opt/a,b/python"
    assert parse_process_line("No running processes found") is None
    assert parse_process_line("") is None


def test_failure_classification_keeps_nvidia_smis_words_and_says_what_to_do():
    cases = {
        (9, "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure that the "
            "latest NVIDIA driver is installed and running.\n"): ("driver", "couldn't communicate", "reboot"),
        (18, "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 550.144\n"):
            ("mismatch", "Driver/library version mismatch", "reboot"),
        (6, "No devices were found\n"): ("no-devices", "No devices were found", "lspci"),
        (127, "bash: line 1: nvidia-smi: command not found\n"): ("no-smi", "not installed", "driver"),
        (15, "Unable to determine the device handle for GPU 0000:02:00.0: GPU is lost.  Reboot the system to "
             "recover this GPU\n"): ("lost", "GPU is lost", "reboot"),
    }
    for (rc, out), (kind, own, todo) in cases.items():
        assert failure_kind(rc, out) == kind
        msg = classify_failure(rc, out)
        assert own in msg and todo in msg.lower() and " — " in msg, msg
    assert failure_kind(0, "") is None
    assert "exit status 3" in classify_failure(3, "weird")


def test_assembler_groups_lines_into_intervals():
    asm = SampleAssembler("h", clock=lambda: T)
    l0, l1 = line(a100(0, 90)), line(a100(1, 80))
    assert asm.feed(l0) is None and asm.feed(l1) is None
    s = asm.feed(l0)  # GPU 0 again: the first interval is complete
    assert s is not None and [g.index for g in s.gpus] == [0, 1] and s.error is None
    assert asm.feed("") is None
    s2 = asm.flush()
    assert s2 is not None and len(s2.gpus) == 1


def test_lost_gpu_keeps_the_others_and_fills_error():
    text = "\n".join([LOST_STEP["raw"][0], *(line(r) for r in LOST_STEP["gpus"])])
    s = parse_snapshot("lab", text, 15, time=T)
    assert len(s.gpus) == 3
    assert [g.utilization_gpu for g in s.gpus if g.uuid.startswith("GPU-")] == [88.0, 91.0]
    assert s.error is not None and "Unknown Error" in s.error
    doc = s.to_json()
    assert doc["gpus"][-1]["status"].startswith("lost") and doc["gpus"][-1]["utilization_gpu"] is None


def test_snapshot_host_failures():
    s = parse_snapshot("lab", "No devices were found\n", 6, time=T)
    assert s.gpus == () and "No devices were found" in (s.error or "")
    s = parse_snapshot("lab", "", 127, time=T)
    assert "not installed" in (s.error or "")
    ok = parse_snapshot("lab", line(a100(0, 50)) + "\n", 0,
                        "GPU-a1000000-6c2e-4b1f-9a0d-000000000000, 11, python, 100\n", time=T)
    doc = ok.to_json()
    assert doc == {
        "host": "lab", "time": "2026-12-02T18:00:00+00:00", "error": None,
        "gpus": [{"uuid": "GPU-a1000000-6c2e-4b1f-9a0d-000000000000", "index": 0, "name": "NVIDIA A100-SXM4-80GB",
                  "utilization_gpu": 50.0, "memory_used_mib": 30000.0, "memory_total_mib": 81920.0,
                  "temperature_c": 55.0, "power_w": 310.5, "power_limit_w": 400.0, "status": "ok"}],
        "processes": [{"gpu_uuid": "GPU-a1000000-6c2e-4b1f-9a0d-000000000000", "pid": 11, "name": "python",
                       "used_memory_mib": 100.0}],
    }


@given(st.text(max_size=200))
def test_parser_never_raises_anything_but_parse_error(text):
    for ln in text.splitlines() or [text]:
        try:
            parse_gpu_line(ln)
        except GpuParseError:
            pass
        parse_process_line(ln)
        classify_failure(1, ln)
    parse_snapshot("h", text, 0)
