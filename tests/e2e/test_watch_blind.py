"""`labgpu watch` says when a guarded target goes blind (no driver, MIG) and when it sees again,
against a real sshd whose scripted nvidia-smi fails and recovers."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun
from tests.fixtures.fake_nvidia_smi import DRIVER_STEP, MIG_STEP, idle
from tests.remote.gpu_support import gpu_server

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")


def labgpu(*args: str) -> subprocess.CompletedProcess:
    return clirun.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ), stdin=subprocess.DEVNULL)


def test_watch_prints_a_line_when_a_target_goes_blind_and_when_it_comes_back(labgpu_home):
    with gpu_server("gpu1", {"steps": [idle(2), DRIVER_STEP, MIG_STEP]}) as (_server, fake):
        assert fake is not None
        fake.pin(0)
        r = labgpu("guard", "set", "gpu1", "--idle-minutes", "60")
        assert r.returncode == 0, r.stderr
        watch = subprocess.Popen([sys.executable, "-m", "app", "watch", "--period", "0.2", "--interval", "0.2"],
                                 cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 env=dict(os.environ))
        lines: list[str] = []

        def next_line() -> str:
            assert watch.stdout is not None
            line = watch.stdout.readline()
            assert line, ("watch ended", lines)
            lines.append(line)
            return line

        try:
            fake.pin(1)  # the driver is gone
            line = next_line()
            assert "[blind]" in line and "gpu1: the idle guard is blind" in line, line
            assert "couldn't communicate with the NVIDIA driver" in line and "counts as busy" in line
            fake.pin(0)
            assert "[sighted]" in next_line() and "gpu1: the idle guard sees the GPUs again" in lines[-1]
            fake.pin(2)  # MIG: no utilization
            line = next_line()
            assert "[blind]" in line and "reports no utilization (MIG mode" in line, line
            fake.pin(0)
            assert "[sighted]" in next_line()
        finally:
            watch.terminate()
            watch.wait(timeout=60)
