"""``labgpu doctor`` names a clock more than a minute off the clouds': the offset that the
cloud's own answer measured (its HTTP Date header), with what to do. The real Tencent peer refuses the
request signed with the laptop's clock (AuthFailure.SignatureExpire) and says its time in its Date."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.fixtures import clirun
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return clirun.run([sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=120, env=dict(os.environ))


def _clock(r: subprocess.CompletedProcess) -> dict:
    assert "Traceback" not in r.stderr, r.stderr
    return next(c for c in json.loads(r.stdout)["checks"] if c["key"] == "clock")


def test_doctor_names_a_clock_minutes_off_and_what_to_do(secret_service, tencent_server, labgpu_home):
    assert _clock(_cli("doctor", "--json"))["status"] == "ok"  # nothing measured yet: nothing claimed
    r = _cli("accounts", "add", "tencent", "lab", "--region", "ap-guangzhou", "--endpoint",
             tencent_server.endpoint, stdin=f"{TEST_SECRET_ID}\n{TEST_SECRET_KEY}\n")
    assert r.returncode == 0, r.stderr
    tencent_server.clock_offset = 400.0  # the cloud's clock is 400 s ahead: this computer is behind
    r = _cli("ls")
    assert r.returncode != 0 and "AuthFailure.SignatureExpire" in r.stderr and "Traceback" not in r.stderr
    c = _clock(_cli("doctor", "--json"))
    assert c["status"] == "warn"
    assert "6.7 minutes behind" in c["detail"] and "Tencent" in c["detail"]
    assert "automatic date and time" in c["next_step"]
    table = _cli("doctor").stdout
    assert "6.7 minutes behind" in table
    tencent_server.clock_offset = 0.0  # the clock set right: the next answer says so
    assert _cli("ls").returncode == 0
    c = _clock(_cli("doctor", "--json"))
    assert c["status"] == "ok" and "Tencent" in c["detail"]
