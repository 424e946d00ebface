"""A password pasted with the SSH command: `labgpu hosts add` refuses it, says
to use --password-stdin, and the password reaches neither stderr, stdout nor labgpu.log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
SECRET = "Zq7-hunter-42x"

FORMS = [
    f"sshpass -p {SECRET} ssh -p 2222 root@region-1.example.com",
    f"sshpass -p{SECRET} ssh root@region-1.example.com",
    f"ssh -p 2222 root:{SECRET}@region-1.example.com",
    f"ssh ssh://root:{SECRET}@region-1.example.com:2222",
    f"ssh -p 2222 root@region-1.example.com 密码: {SECRET}",
    f"ssh -p 2222 root@region-1.example.com\n密码：{SECRET}",
    f"ssh -p 2222 root@region-1.example.com password: {SECRET}",
    f"登录指令: ssh -p 2222 root@region-1.example.com 密码 {SECRET}",
]


def labgpu(*args: str) -> subprocess.CompletedProcess:
    return clirun.run(
        [sys.executable, "-m", "app", *args], cwd=ROOT, input="", capture_output=True, text=True,
        timeout=60, env=dict(os.environ),
    )


@pytest.mark.parametrize("command", FORMS)
def test_pasted_password_is_never_echoed(command):
    r = labgpu("hosts", "add", "gpu1", command)
    assert r.returncode != 0
    assert SECRET not in r.stderr and SECRET not in r.stdout
    line = r.stderr.strip()
    assert line.startswith("labgpu: [PasswordInCommand]") and len(line.splitlines()) == 1
    assert "--password-stdin" in line  # the next step: stdin, never argv
    log = Path(os.environ["LABGPU_HOME"]) / "logs" / "labgpu.log"
    assert log.exists() and "PasswordInCommand" in log.read_text(encoding="utf-8")
    assert SECRET not in log.read_text(encoding="utf-8")
    assert json.loads(labgpu("hosts", "ls", "--json").stdout) == []  # nothing saved
