"""Parse what `nvidia-smi --query-gpu/--query-compute-apps --format=csv,noheader,nounits` prints.

Pure: no SSH, no Qt. The stream reader (app.remote.gpustream) feeds lines into a
``SampleAssembler`` and turns a failed run into a host-level error with ``classify_failure``.

Rules (from real outputs quoted in gpustat / nvitop / netdata / nvidia_gpu_exporter reports):
- GPUs are keyed by uuid (an index can change after a reboot or a lost GPU).
- ``[N/A]``, ``N/A``, ``[Not Supported]``, ``[Unknown Error]``, ``[GPU is lost]``,
  ``[Requested functionality has been deprecated]``, ``[Insufficient Permissions]`` and empty
  fields are unknown: ``None``, never 0. ``[Unknown Error]``/``[GPU is lost]`` also mark the GPU's
  ``status``; with MIG enabled, utilization reads ``[N/A]`` and the status says so.
- "Unable to determine the device handle for GPU 0000:3B:00.0: Unknown Error" (or ": GPU is lost")
  stands in for one GPU's line: that GPU is lost, the others keep their readings.
- Whole-host failures (driver not loaded, NVML mismatch, no devices, no nvidia-smi) become the
  sample's ``error``: nvidia-smi's own message and what to do.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from .i18n import QT_TRANSLATE_NOOP, translate

# Fields asked of --query-gpu, in order. `mig.mode.current` exists on drivers >= 450; older ones
# answer 'Field "mig.mode.current" is not a valid field to query.' and the stream retries with
# LEGACY_QUERY_FIELDS.
QUERY_FIELDS: tuple[str, ...] = (
    "index", "uuid", "name", "utilization.gpu", "memory.used", "memory.total",
    "temperature.gpu", "power.draw", "power.limit", "mig.mode.current",
)
LEGACY_QUERY_FIELDS: tuple[str, ...] = QUERY_FIELDS[:-1]
PROCESS_FIELDS: tuple[str, ...] = ("gpu_uuid", "pid", "process_name", "used_memory")

METRICS: tuple[str, ...] = (
    "utilization_gpu", "memory_used_mib", "memory_total_mib", "temperature_c", "power_w", "power_limit_w",
)
_FIELD_TO_METRIC = {
    "utilization.gpu": "utilization_gpu",
    "memory.used": "memory_used_mib",
    "memory.total": "memory_total_mib",
    "temperature.gpu": "temperature_c",
    "power.draw": "power_w",
    "power.limit": "power_limit_w",
}

STATUS_OK = "ok"

# Bounds. A rented host may be hostile: what it prints is data, and data is bounded.
# - nvidia-smi lists physical GPUs (MIG instances are not rows of --query-gpu); the largest machines
#   have 16 (e.g. 8×H100 + NVSwitch: 8), so 64 per host is far above any real answer.
MAX_GPUS_PER_HOST = 64
# - a --query-gpu line is ~150 bytes, an error line under 1 KiB; a longer line is cut here and the
#   rest of it (up to its newline) dropped, with one problem noted.
MAX_LINE_BYTES = 4096
# - indices run 0..N-1; a bigger one is refused per row (it once broke the SQLite archive: INTEGER
#   overflows at 2**63).
MAX_GPU_INDEX = MAX_GPUS_PER_HOST * 4 - 1
MAX_UUID_CHARS = 128  # "GPU-" + 36 (a UUID), MIG ids ~ 45; room to spare
MAX_NAME_CHARS = 128  # "NVIDIA A100-SXM4-80GB"
MAX_PROCESSES = 1024  # compute apps listed per host sample
MAX_PROCESS_NAME_CHARS = 256
MAX_NOISE_LINES = 20

# Values nvidia-smi prints for "no value". Compared case-insensitively without brackets.
_UNKNOWN_VALUES = {
    "", "n/a", "not supported", "unknown error", "gpu is lost", "requested functionality has been deprecated",
    "insufficient permissions", "not available", "unknown",
}
_ERROR_VALUES = {"unknown error": "unknown error", "gpu is lost": "GPU is lost"}
_UNIT_SUFFIX = re.compile(r"\s*(%|mib|w|c|mhz)$", re.IGNORECASE)
_LOST_LINE = re.compile(r"Unable to determine the device handle for (?:GPU)?\s*([0-9A-Fa-f:.]{1,32})\s*:\s*(.+)")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


class GpuParseError(ValueError):
    """A line that is not a CSV reading (usually part of an error message)."""


@dataclass(frozen=True)
class GpuReading:
    uuid: str
    index: int | None
    name: str | None
    utilization_gpu: float | None
    memory_used_mib: float | None
    memory_total_mib: float | None
    temperature_c: float | None
    power_w: float | None
    power_limit_w: float | None
    status: str = STATUS_OK  # "ok" or what is wrong with this GPU

    def value(self, metric: str) -> float | None:
        v = getattr(self, metric)
        return None if v is None else float(v)

    def to_json(self) -> dict[str, Any]:
        return {
            "uuid": self.uuid,
            "index": self.index,
            "name": self.name,
            "utilization_gpu": self.utilization_gpu,
            "memory_used_mib": self.memory_used_mib,
            "memory_total_mib": self.memory_total_mib,
            "temperature_c": self.temperature_c,
            "power_w": self.power_w,
            "power_limit_w": self.power_limit_w,
            "status": self.status,
        }


@dataclass(frozen=True)
class GpuProcess:
    gpu_uuid: str
    pid: int
    name: str
    used_memory_mib: float | None

    def to_json(self) -> dict[str, Any]:
        return {"gpu_uuid": self.gpu_uuid, "pid": self.pid, "name": self.name,
                "used_memory_mib": self.used_memory_mib}


@dataclass(frozen=True)
class HostSample:
    host: str
    time: datetime  # UTC-aware
    error: str | None = None  # host-level failure: nvidia-smi's message and what to do
    gpus: tuple[GpuReading, ...] = ()
    processes: tuple[GpuProcess, ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None

    def to_json(self) -> dict[str, Any]:
        """The exact shape `labgpu monitor --json` prints."""
        t = self.time if self.time.tzinfo else self.time.replace(tzinfo=timezone.utc)
        return {
            "host": self.host,
            "time": t.astimezone(timezone.utc).isoformat(),
            "error": self.error,
            "gpus": [g.to_json() for g in self.gpus],
            "processes": [p.to_json() for p in self.processes],
        }


def parse_value(raw: str) -> float | None:
    """One numeric CSV field → float, or None for every way nvidia-smi says "unknown"."""
    text = raw.strip()
    key = text.strip("[]").strip().lower()
    if key in _UNKNOWN_VALUES:
        return None
    text = _UNIT_SUFFIX.sub("", text)
    try:
        value = float(text)
    except ValueError:
        return None
    if not math.isfinite(value) or value < 0:
        return None
    return value


def _value_error(raw: str) -> str | None:
    return _ERROR_VALUES.get(raw.strip().strip("[]").strip().lower())


def _split(line: str, n: int, free_field: int) -> list[str]:
    """Split a CSV line of `n` fields; extra commas are assumed to belong to field `free_field`."""
    raw = line.split(",")
    if len(raw) < n:
        raise GpuParseError(line)
    if len(raw) > n:
        extra = len(raw) - n
        raw = raw[:free_field] + [",".join(raw[free_field:free_field + extra + 1])] + raw[free_field + extra + 1:]
    return [p.strip() for p in raw]


def parse_gpu_line(line: str, fields: Sequence[str] = QUERY_FIELDS) -> GpuReading:
    """One line of --query-gpu output (fields in `fields` order) → GpuReading.

    A "Unable to determine the device handle for GPU <bus id>: <why>" line becomes a reading of a
    lost GPU keyed ``bus:<bus id>`` with every value None. Anything else that is not a reading
    raises GpuParseError.
    """
    line = line.strip()
    m = _LOST_LINE.search(line)
    if m:
        bus = m.group(1).strip().rstrip(":").upper()
        why = _CONTROL.sub(" ", m.group(2).strip())[:MAX_NAME_CHARS]
        return GpuReading(uuid=f"bus:{bus}", index=None, name=None, utilization_gpu=None,
                          memory_used_mib=None, memory_total_mib=None, temperature_c=None,
                          power_w=None, power_limit_w=None, status=f"lost: {why}")
    fields = tuple(fields)
    name_pos = fields.index("name") if "name" in fields else 0
    parts = _split(line, len(fields), name_pos)
    raw = dict(zip(fields, parts, strict=True))
    uuid = raw.get("uuid", "").strip()
    if (not uuid or uuid.strip("[]").lower() in _UNKNOWN_VALUES or " " in uuid or len(uuid) > MAX_UUID_CHARS
            or _CONTROL.search(uuid)):
        raise GpuParseError(line)
    index_v = parse_value(raw.get("index", ""))
    if "index" in raw and index_v is None and raw["index"].strip().strip("[]").lower() not in _UNKNOWN_VALUES:
        raise GpuParseError(line)
    if index_v is not None and (index_v > MAX_GPU_INDEX or index_v != int(index_v)):
        raise GpuParseError(line)  # no machine has GPU 10**30 (nor 1.5): the row is refused
    values: dict[str, float | None] = {}
    problems: list[str] = []
    for fname, metric in _FIELD_TO_METRIC.items():
        cell = raw.get(fname, "")
        values[metric] = parse_value(cell)
        err = _value_error(cell)
        if err and err not in problems:
            problems.append(err)
    name = _CONTROL.sub(" ", raw.get("name", "").strip())[:MAX_NAME_CHARS]
    status = STATUS_OK
    mig = raw.get("mig.mode.current", "").strip().lower()
    if problems:
        status = "error: " + ", ".join(problems)
    elif mig == "enabled" and values["utilization_gpu"] is None:
        status = "mig: utilization not reported"
    return GpuReading(
        uuid=uuid,
        index=None if index_v is None else int(index_v),
        name=name if name and name.strip("[]").lower() not in _UNKNOWN_VALUES else None,
        status=status,
        **values,
    )


def parse_process_line(line: str) -> GpuProcess | None:
    """One line of --query-compute-apps=gpu_uuid,pid,process_name,used_memory; None if not one."""
    line = line.strip()
    if not line:
        return None
    try:
        parts = _split(line, len(PROCESS_FIELDS), 2)
    except GpuParseError:
        return None
    uuid, pid_s, name, mem = parts
    if not uuid.startswith(("GPU-", "MIG-")):
        return None
    try:
        pid = int(pid_s)
    except ValueError:
        return None
    if pid <= 0 or pid > 2**31 or len(uuid) > MAX_UUID_CHARS:
        return None
    name = _CONTROL.sub(" ", name)[:MAX_PROCESS_NAME_CHARS]
    return GpuProcess(gpu_uuid=uuid, pid=pid, name=name, used_memory_mib=parse_value(mem))


def parse_processes(text: str) -> tuple[GpuProcess, ...]:
    """The compute apps of one listing, at most MAX_PROCESSES (a longer list is cut)."""
    out = []
    for line in text.splitlines():
        if len(line) > MAX_LINE_BYTES:
            continue
        p = parse_process_line(line)
        if p is not None:
            out.append(p)
            if len(out) >= MAX_PROCESSES:
                break
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# Host-level failures

@dataclass(frozen=True)
class _Failure:
    pattern: re.Pattern[str]
    what: str
    hint: str


MSG_NO_SMI = QT_TRANSLATE_NOOP("LabGPU", "nvidia-smi is not installed on this host")
HINT_NO_SMI = QT_TRANSLATE_NOOP("LabGPU", "install the NVIDIA driver (it brings nvidia-smi), or choose an "
                                          "image with the driver preinstalled")
HINT_DRIVER = QT_TRANSLATE_NOOP("LabGPU", "the NVIDIA driver is not loaded: reboot the instance, or reinstall "
                                          "the driver (check `lsmod | grep nvidia` and `dmesg`)")
HINT_MISMATCH = QT_TRANSLATE_NOOP("LabGPU", "the driver was updated but the old kernel module is still "
                                            "loaded: reboot the host")
HINT_NO_DEVICES = QT_TRANSLATE_NOOP("LabGPU", "no GPU is visible: check that the instance type has GPUs "
                                              "(`lspci | grep -i nvidia`) and that the driver supports them")
HINT_LOST = QT_TRANSLATE_NOOP("LabGPU", "a GPU fell off the bus: save your work, then reboot the host; if it "
                                        "happens again, ask the provider for another machine")
HINT_PERMISSION = QT_TRANSLATE_NOOP("LabGPU", "this user may not run nvidia-smi: ask the administrator to "
                                              "add you to the group that owns /dev/nvidia*")
HINT_OTHER = QT_TRANSLATE_NOOP("LabGPU", "run nvidia-smi on the host yourself to see more")
MSG_EXIT = QT_TRANSLATE_NOOP("LabGPU", "nvidia-smi failed (exit status {code})")

_FAILURES: tuple[_Failure, ...] = (
    _Failure(re.compile(r"couldn't communicate with the NVIDIA driver", re.I), "driver", HINT_DRIVER),
    _Failure(re.compile(r"Driver/library version mismatch", re.I), "mismatch", HINT_MISMATCH),
    _Failure(re.compile(r"No devices were found", re.I), "no-devices", HINT_NO_DEVICES),
    _Failure(re.compile(r"GPU is lost|Unable to determine the device handle", re.I), "lost", HINT_LOST),
    _Failure(re.compile(r"Insufficient Permissions|Permission denied", re.I), "permission", HINT_PERMISSION),
    _Failure(re.compile(r"Failed to initialize NVML", re.I), "nvml", HINT_DRIVER),
)
_NOT_FOUND = re.compile(r"(nvidia-smi: (command )?not found|nvidia-smi: No such file|not found: nvidia-smi|"
                        r"command not found)", re.I)


def failure_kind(exit_code: int | None, output: str) -> str | None:
    """"no-smi", "driver", "mismatch", "no-devices", "lost", "permission", "nvml", "exit" or None (no failure)."""
    if exit_code == 127 or _NOT_FOUND.search(output or ""):
        return "no-smi"
    for f in _FAILURES:
        if f.pattern.search(output or ""):
            return f.what
    if exit_code not in (None, 0):
        return "exit"
    return None


MAX_QUOTE_CHARS = 500  # nvidia-smi's own line quoted in an error (its real messages are under 200)


def _own_message(output: str, pattern: re.Pattern[str] | None) -> str:
    lines = [ln.strip() for ln in (output or "").splitlines() if ln.strip()]
    found = lines[-1] if lines else ""
    if pattern is not None:
        for ln in lines:
            if pattern.search(ln):
                found = ln
                break
    found = _CONTROL.sub(" ", found)
    return found if len(found) <= MAX_QUOTE_CHARS else found[:MAX_QUOTE_CHARS] + "…"


def classify_failure(exit_code: int | None, output: str, tr: Callable[[str], str] | None = None) -> str:
    """nvidia-smi's own message (the line that says what failed) followed by what to do."""
    t = tr or translate
    kind = failure_kind(exit_code, output)
    if kind == "no-smi":
        return f"{t(MSG_NO_SMI)} — {t(HINT_NO_SMI)}"
    for f in _FAILURES:
        if f.what == kind:
            return f"{_own_message(output, f.pattern)} — {t(f.hint)}"
    own = _own_message(output, None)
    head = t(MSG_EXIT).format(code=exit_code)
    return f"{head}: {own} — {t(HINT_OTHER)}" if own else f"{head} — {t(HINT_OTHER)}"


# ---------------------------------------------------------------------------------------------
# Turning a stream of lines into samples

MSG_TOO_MANY_GPUS = QT_TRANSLATE_NOOP(
    "LabGPU", "{host} reports more GPUs than any real machine has (over {cap}); {n} of them were ignored")
HINT_TOO_MANY_GPUS = QT_TRANSLATE_NOOP(
    "LabGPU", "the host may be misconfigured or compromised: check it (run nvidia-smi -L there) and do not trust "
              "its readings until it lists its real GPUs")
MSG_LONG_LINE = QT_TRANSLATE_NOOP(
    "LabGPU", "nvidia-smi printed a line longer than {cap} bytes; the rest of it was dropped")


class LineSplitter:
    """Bytes of a stream → lines, each at most ``max_bytes`` (a longer one is cut there and the rest
    of it, up to its newline, dropped). Only the new bytes are scanned for a newline, so an endless
    line costs linear time and at most ``max_bytes`` of memory."""

    def __init__(self, max_bytes: int = MAX_LINE_BYTES) -> None:
        self.max_bytes = max_bytes
        self._buf = bytearray()
        self._skipping = False  # inside a line already cut: drop until its newline
        self.cut_lines = 0

    @property
    def buffered(self) -> int:
        """Bytes held for the line not yet ended (never more than ``max_bytes``)."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[str]:
        out: list[str] = []
        start = 0
        n = len(data)
        while start < n:
            nl = data.find(b"\n", start)
            end = n if nl < 0 else nl
            if not self._skipping:
                room = self.max_bytes - len(self._buf)
                piece = data[start:min(end, start + max(0, room))]
                self._buf += piece
                if end - start > len(piece):  # the line goes on past the cap
                    self.cut_lines += 1
                    out.append(self._take())
                    self._skipping = True
            if nl < 0:
                break
            if self._skipping:
                self._skipping = False
            else:
                out.append(self._take())
            start = nl + 1
        return out

    def rest(self) -> str:
        """What is left when the stream ends (a last line without newline)."""
        if self._skipping:
            self._skipping = False
            self._buf.clear()
            return ""
        return self._take()

    def _take(self) -> str:
        text = self._buf.decode("utf-8", "replace")
        self._buf.clear()
        return text


@dataclass
class SampleAssembler:
    """Groups the per-GPU lines of `nvidia-smi -l N` into one HostSample per interval.

    An interval ends when a GPU already seen in the current batch appears again, or when the
    reader calls ``flush()`` (after a short quiet spell). Lines that are not readings are kept as
    possible error text (a host-level failure may follow). ``processes`` is the latest process
    list, attached to every sample.

    Bounded (a hostile host may print anything): at most ``max_gpus`` uuids per host are known at a
    time (``known``: uuid → when last reported; one unseen for ``forget_after_s`` makes room); a
    reading of any other uuid is dropped, counted, and the sample says so as its host-level error
    (``suspicious`` stays True). A batch that dropped ``max_gpus`` readings is flushed at once.
    """

    host: str
    fields: tuple[str, ...] = QUERY_FIELDS
    clock: Callable[[], datetime] = field(default=lambda: datetime.now(timezone.utc))
    processes: tuple[GpuProcess, ...] = ()
    _batch: dict[str, GpuReading] = field(default_factory=dict)
    noise: list[str] = field(default_factory=list)
    max_gpus: int = MAX_GPUS_PER_HOST
    forget_after_s: float = 600.0
    known: dict[str, float] = field(default_factory=dict)
    suspicious: bool = False
    dropped_total: int = 0
    _dropped: int = 0
    _long_noted: bool = False

    def feed(self, line: str) -> HostSample | None:
        """Add one line; returns the previous interval's sample when this line starts a new one."""
        if not line.strip():
            return None
        if len(line) > MAX_LINE_BYTES:
            line = line[:MAX_LINE_BYTES]
        try:
            reading = parse_gpu_line(line, self.fields)
        except GpuParseError:
            self.note(line.strip())
            return None
        out = None
        if reading.uuid in self._batch:
            out = self.flush()
        if not self._admit(reading.uuid):
            self._dropped += 1
            self.dropped_total += 1
            self.suspicious = True
            if self._dropped >= self.max_gpus and out is None:
                out = self.flush()
            return out
        self._batch[reading.uuid] = reading
        return out

    def note(self, text: str) -> None:
        """Keep a line that is not a reading (the last MAX_NOISE_LINES, each capped)."""
        self.noise.append(text[:MAX_LINE_BYTES])
        del self.noise[:-MAX_NOISE_LINES]

    def note_long_line(self, tr: Callable[[str], str] | None = None) -> None:
        """One problem per stream: a line was cut at MAX_LINE_BYTES."""
        if not self._long_noted:
            self._long_noted = True
            log_text = (tr or translate)(MSG_LONG_LINE).format(cap=MAX_LINE_BYTES)
            self.note(log_text)

    def _admit(self, uuid: str) -> bool:
        now = self.clock().timestamp()
        if uuid in self.known:
            self.known[uuid] = now
            return True
        if len(self.known) >= self.max_gpus:
            cutoff = now - self.forget_after_s
            for old in [u for u, t in self.known.items() if t < cutoff and u not in self._batch]:
                del self.known[old]
        if len(self.known) >= self.max_gpus:
            return False
        self.known[uuid] = now
        return True

    def pending(self) -> int:
        """GPUs in the interval being assembled (dropped readings count: they end an interval too)."""
        return len(self._batch) + self._dropped

    def flush(self, tr: Callable[[str], str] | None = None) -> HostSample | None:
        if not self._batch and not self._dropped:
            return None
        gpus = tuple(sorted(self._batch.values(), key=lambda g: (g.index is None, g.index or 0, g.uuid)))
        self._batch = {}
        dropped, self._dropped = self._dropped, 0
        errors = []
        lost = [g for g in gpus if g.status.startswith("lost")]
        if lost:
            errors.append(classify_failure(None, "\n".join(
                f"Unable to determine the device handle for GPU {g.uuid[4:]}: {g.status[6:]}" for g in lost), tr))
        if dropped:
            t = tr or translate
            errors.append(t(MSG_TOO_MANY_GPUS).format(host=self.host, cap=self.max_gpus, n=dropped)
                          + " — " + t(HINT_TOO_MANY_GPUS))
        return HostSample(host=self.host, time=self.clock(), error="; ".join(errors) or None, gpus=gpus,
                          processes=self.processes)

    def failure(self, exit_code: int | None, output: str = "") -> HostSample:
        """The sample that reports a host-level failure (the stream ended or never started)."""
        text = "\n".join([*self.noise, output[-64 * 1024:]]).strip()
        self.noise = []
        self._batch = {}
        self._dropped = 0
        return HostSample(host=self.host, time=self.clock(), error=classify_failure(exit_code, text))


def parse_snapshot(host: str, gpu_text: str, exit_code: int | None, process_text: str = "",
                   fields: Sequence[str] = QUERY_FIELDS, time: datetime | None = None) -> HostSample:
    """One non-streaming run of --query-gpu (plus processes) → one HostSample."""
    when = time or datetime.now(timezone.utc)
    asm = SampleAssembler(host=host, fields=tuple(fields), clock=lambda: when,
                          processes=parse_processes(process_text))
    for line in gpu_text.splitlines():
        asm.feed(line)
    sample = asm.flush()
    kind = failure_kind(exit_code, gpu_text)
    if sample is None or (kind is not None and kind != "lost"):
        return asm.failure(exit_code, gpu_text if sample is not None else "")
    if exit_code not in (None, 0) and sample.error is None:
        return HostSample(host=host, time=when, error=classify_failure(exit_code, gpu_text),
                          gpus=sample.gpus, processes=sample.processes)
    return sample
