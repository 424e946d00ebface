"""`labgpu logins HOST` as a student types it, each a new process, against a real sshd that writes its own
log (-E FILE): LabGPU's own logins from 127.0.0.1, a stranger's from 127.0.0.2 (OpenSSH ``ssh -b``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from tests.fixtures import clirun
from tests.fixtures.sshd import SshdServer
from tests.remote.gpu_support import gpu_server

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")
HOST = "labbox"


def labgpu(*args: str, lang: str = "en_US.UTF-8") -> subprocess.CompletedProcess:
    env = {**os.environ, "LANG": lang, "LC_ALL": lang}
    return clirun.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env=env, stdin=subprocess.DEVNULL)


@pytest.fixture
def server() -> Iterator[SshdServer]:
    # the unusual hours off: what is judged here is the address, whatever the hour the suite runs at
    from app.core.loginstore import LoginSettings
    from app.core.settings import SettingsStore, write_section

    store = SettingsStore()
    settings = store.load()
    write_section(settings, ["logins"], LoginSettings(unusual_from=0, unusual_to=0))
    store.save(settings)
    with gpu_server(HOST, None) as (srv, _none):  # a fresh sshd saved as HOST, no nvidia-smi
        yield srv


def stranger(server: SshdServer) -> None:
    r = subprocess.run(["ssh", "-b", "127.0.0.2", *server.openssh_args(), f"{server.user}@{server.host}", "true"],
                       capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr


def test_json_lists_each_login_with_its_verdict_and_the_stranger_is_unusual(server: SshdServer) -> None:
    r = labgpu("logins", HOST, "--log", str(server.log_file), "--json")
    assert r.returncode == 0, r.stderr
    assert all(x["unusual"] is False for x in json.loads(r.stdout))
    stranger(server)
    r = labgpu("logins", HOST, "--json", "--since", "1h")
    assert r.returncode == 0, r.stderr
    logins = json.loads(r.stdout)
    for x in logins:  # the documented fields, each of its type
        assert {"time", "user", "method", "source", "accepted", "unusual", "why"} <= set(x)
        assert isinstance(x["accepted"], bool) and isinstance(x["unusual"], bool) and isinstance(x["why"], list)
        if x["time"]:
            assert datetime.fromisoformat(x["time"].replace("Z", "+00:00")).utcoffset().total_seconds() == 0
    theirs = [x for x in logins if x["source"] == "127.0.0.2"]
    assert len(theirs) == 1 and theirs[0]["accepted"] and theirs[0]["unusual"]
    assert theirs[0]["why"] == ["unknown-source"] and theirs[0]["method"] == "publickey"
    assert theirs[0]["time"]  # read after the first read: its time is known
    mine = [x for x in logins if x["source"] == "127.0.0.1" and x["accepted"]]
    assert mine and not any(x["unusual"] for x in mine)


def test_the_table_marks_the_unusual_login_in_english_and_chinese(server: SshdServer) -> None:
    assert labgpu("logins", HOST, "--log", str(server.log_file)).returncode == 0
    stranger(server)
    r = labgpu("logins", HOST)
    assert r.returncode == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if "127.0.0.2" in line)
    assert "UNUSUAL" in row and "new address" in row and "publickey" in row
    assert "unusual logins" in r.stderr
    r = labgpu("logins", HOST, lang="zh_CN.UTF-8")
    assert r.returncode == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if "127.0.0.2" in line)
    assert "异常" in row and "新地址" in row, r.stdout


def test_a_host_without_a_readable_ssh_log_says_so_and_does_not_claim_success(server: SshdServer) -> None:
    hidden = server.workdir / "hidden.log"
    hidden.write_text("")
    hidden.chmod(0o600)
    r = labgpu("logins", HOST, "--log", str(hidden))
    assert r.returncode in (1, 4), (r.returncode, r.stdout, r.stderr)
    assert str(hidden) in r.stderr and "not readable" in r.stderr
    assert "Traceback" not in r.stderr


def test_bad_since_and_relative_log_path_are_refused_with_an_example(server: SshdServer) -> None:
    r = labgpu("logins", HOST, "--since", "yesterday-ish")
    assert r.returncode != 0 and "24h" in r.stderr and "Traceback" not in r.stderr
    r = labgpu("logins", HOST, "--log", "var/log/sshd.log")
    assert r.returncode != 0 and "absolute" in r.stderr
