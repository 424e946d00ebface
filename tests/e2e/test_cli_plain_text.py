"""A hostile rented host's text reaches the terminal as text, never as commands.

Real peers: an sshd whose nvidia-smi names its GPUs and processes with terminal escapes (OSC 52
clipboard write, a screen clear, an OSC 8 hidden link) or fails with them in its error line, whose
files are named with them and whose ``find`` reports them on stderr; a server that talks before
the SSH key exchange; a real sshd with a hostile ``Banner``. The CLI replaces every control
character a terminal would act on with its visible escape (``\\x1b``); ``--json`` stays exact.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun
from tests.fixtures import hostile_host as hh
from tests.remote.gpu_support import gpu_server, save_host

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")

RAW = ("\x1b", "\x07", "\x9b")  # ESC, BEL, 8-bit CSI: what a terminal would obey


def labgpu(*args: str, timeout: float = 90) -> subprocess.CompletedProcess:
    return clirun.run([sys.executable, "-m", "app", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ), stdin=subprocess.DEVNULL)


def _auth_banner(server: hh.BannerSshd) -> str:
    import paramiko

    t = paramiko.Transport((server.host, server.port))
    try:
        t.start_client(timeout=10)
        t.auth_publickey(server.user, paramiko.Ed25519Key.from_path(str(server.client_key)))
        banner = t.get_banner() or b""
    finally:
        t.close()
    return banner.decode("utf-8", "replace") if isinstance(banner, bytes) else str(banner)


def _strings(obj: object) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, list):
        return [s for v in obj for s in _strings(v)]
    return []


def assert_no_raw_controls(text: str) -> None:
    found = [c for c in RAW if c in text]
    assert not found, f"raw control characters {found!r} reached the terminal: {text!r}"


def test_monitor_table_shows_escapes_in_gpu_and_process_names_as_text():
    with gpu_server("evil", {"steps": [hh.hostile_names_step()]}):
        r = labgpu("monitor", "evil", "--once")
        j = labgpu("monitor", "evil", "--once", "--json")
    assert r.returncode == 0, r.stderr
    assert_no_raw_controls(r.stdout + r.stderr)
    # what the host sent is still there to read, as text (the parser may already have blanked the
    # controls; whatever reaches print is made visible, never obeyed)
    assert "A100" in r.stdout and "52;c;cm0gLXJmIH4vKg==" in r.stdout and "<img src=file:///dev/zero>" in r.stdout
    assert "python" in r.stdout and r.stdout.count("cm0gLXJmIH4vKg==") == 3  # two GPUs, one process
    # JSON output is data for programs: never rewritten by the terminal filter
    doc = json.loads(j.stdout.strip().splitlines()[-1])
    assert "\\x1b" not in doc["gpus"][0]["name"] and "52;c;cm0gLXJmIH4vKg==" in doc["gpus"][0]["name"]


def test_monitor_error_line_from_nvidia_smi_is_printed_as_text():
    with gpu_server("evil", {"steps": [hh.hostile_error_step()]}):
        r = labgpu("monitor", "evil", "--once")
    assert r.returncode != 0
    assert_no_raw_controls(r.stdout + r.stderr)
    assert "NVIDIA-SMI has failed <img src=file:///dev/zero>" in r.stdout
    assert "52;c;cm0gLXJmIH4vKg==" in r.stdout  # the rest of the host's words, as text


@pytest.fixture
def evil_host():
    from tests.fixtures.sshd import SshdServer

    server = SshdServer.start_new()
    try:
        save_host(server, "evil")
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


def test_sync_names_and_find_errors_from_the_host_are_printed_as_text(evil_host, tmp_path):
    remote = hh.hostile_tree(evil_host, "hostile")
    hh.install_hostile_find(evil_host)
    r = labgpu("sync", str(tmp_path / "down"), f"evil:{remote}", "--down", "--dry-run")
    assert r.returncode == 0, r.stderr
    assert_no_raw_controls(r.stdout + r.stderr)
    assert "notes\\x1b]52;c;cm0gLXJmIH4vKg==\\x07.txt" in r.stdout  # the dry-run table
    assert "run\\x1b[2J.log" in r.stdout
    assert "could not be listed (find: '<a href=https:evil.example>Sign in again\\x1b]52;c;" in r.stderr
    j = labgpu("sync", str(tmp_path / "down"), f"evil:{remote}", "--down", "--dry-run", "--json")
    assert f"notes{hh.OSC52}.txt" in _strings(json.loads(j.stdout))  # JSON keeps the exact names


def test_sync_that_transfers_names_what_it_could_not_list_as_text(evil_host, tmp_path):
    remote = hh.hostile_tree(evil_host, "hostile")
    hh.install_hostile_find(evil_host)
    r = labgpu("sync", str(tmp_path / "down"), f"evil:{remote}", "--down")
    assert r.returncode == 1  # part of the folder was not listed: said, not hidden
    assert_no_raw_controls(r.stdout + r.stderr)
    assert "labgpu: not transferred: . — part of the remote folder could not be listed (find: '<a href" in r.stderr
    # the files themselves arrive under their real names
    assert sorted(p.name for p in (tmp_path / "down").iterdir() if p.is_file()) == sorted(hh.HOSTILE_FILE_NAMES)


def test_a_server_that_talks_before_the_key_exchange_is_quoted_as_text():
    with hh.PreBannerServer(f"{hh.MARKUP} {hh.ESCAPES}") as banner:
        r = labgpu("hosts", "add", "bann", f"ssh -p {banner.port} student@127.0.0.1")
    assert r.returncode == 2
    assert_no_raw_controls(r.stdout + r.stderr)
    line = r.stderr.strip()
    assert len(line.splitlines()) == 1 and line.startswith("labgpu: [HostUnreachable] ")
    assert 'Indecipherable protocol version "<img src=file:///dev/zero>' in line
    assert "\\x1b]52;c;cm0gLXJmIH4vKg==\\x07\\x1b[2J" in line
    assert banner.connections >= 1


def test_a_hostile_sshd_banner_before_login_never_reaches_the_terminal():
    server = hh.BannerSshd.start_new(banner=f"Welcome {hh.MARKUP}\n{hh.ESCAPES}\n")
    try:
        cmd = f"ssh -p {server.port} -i {server.client_key} {server.user}@{server.host}"
        r = labgpu("hosts", "add", "bannered", cmd, "--fingerprint", server.host_key_fingerprint)
        sent = _auth_banner(server)  # the peer really sends it before authentication
    finally:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)
    assert "Sign in again here" in sent and "\x1b]52;c;" in sent
    assert r.returncode == 0, r.stderr
    assert_no_raw_controls(r.stdout + r.stderr)
    assert "Added host bannered" in r.stdout
    assert "Sign in again" not in r.stdout + r.stderr
