"""`labgpu monitor` as scripts use it, against a real sshd with the scripted nvidia-smi."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun
from tests.fixtures.fake_nvidia_smi import DRIVER_STEP, MIG_STEP, NO_DEVICES_STEP, busy
from tests.remote.gpu_support import gpu_server

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")

GPU_KEYS = {"uuid", "index", "name", "utilization_gpu", "memory_used_mib", "memory_total_mib", "temperature_c",
            "power_w", "power_limit_w", "status"}


def labgpu(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return clirun.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ), stdin=subprocess.DEVNULL)


def test_once_json_is_one_object_in_the_issue_shape():
    with gpu_server("gpu1", {"steps": [busy(2)]}):
        r = labgpu("monitor", "gpu1", "--once", "--json")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 1
    doc = json.loads(lines[0])
    assert set(doc) == {"host", "time", "error", "gpus", "processes"}
    assert doc["host"] == "gpu1" and doc["error"] is None and doc["time"].endswith("+00:00")
    assert [set(g) for g in doc["gpus"]] == [GPU_KEYS, GPU_KEYS]
    assert doc["gpus"][0]["utilization_gpu"] == 97.0 and doc["gpus"][0]["memory_total_mib"] == 81920.0
    assert doc["gpus"][0]["status"] == "ok"
    assert {p["pid"] for p in doc["processes"]} == {4242, 4243}
    assert set(doc["processes"][0]) == {"gpu_uuid", "pid", "name", "used_memory_mib"}


@pytest.mark.parametrize(("scenario", "words"), [
    ({"steps": [DRIVER_STEP]}, "couldn't communicate with the NVIDIA driver"),
    ({"steps": [NO_DEVICES_STEP]}, "No devices were found"),
    (None, "nvidia-smi is not installed"),
])
def test_once_host_failure_fills_error_and_exits_non_zero(scenario, words):
    with gpu_server("bad", scenario):
        r = labgpu("monitor", "bad", "--once", "--json")
    assert r.returncode != 0
    doc = json.loads(r.stdout.strip().splitlines()[-1])
    assert words in doc["error"] and " — " in doc["error"]  # nvidia-smi's words, then what to do
    assert doc["gpus"] == []


def test_stream_prints_one_json_line_per_sample_mig_is_null():
    with gpu_server("mig", {"steps": [MIG_STEP]}):
        proc = subprocess.Popen([sys.executable, "-m", "app", "monitor", "mig", "--json"], cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
        try:
            docs = []
            assert proc.stdout is not None
            for _ in range(3):
                line = proc.stdout.readline()
                assert line, proc.stderr.read() if proc.stderr else ""
                docs.append(json.loads(line))
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    assert all(d["host"] == "mig" and d["error"] is None for d in docs)
    assert all(g["utilization_gpu"] is None and g["status"].startswith("mig") for d in docs for g in d["gpus"])
    assert proc.returncode == 0


def test_table_shows_na_not_zero_and_unknown_host_is_one_line():
    with gpu_server("tbl", {"steps": [MIG_STEP]}):
        r = labgpu("monitor", "tbl", "--once")
    assert r.returncode == 0, r.stderr
    assert "N/A" in r.stdout and "A800" in r.stdout
    r = labgpu("monitor", "nope", "--once", "--json")
    assert r.returncode == 2
    assert r.stderr.startswith("labgpu: [") and len(r.stderr.strip().splitlines()) == 1
