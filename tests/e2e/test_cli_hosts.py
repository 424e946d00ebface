"""`labgpu hosts …` as a user runs it (subprocesses), against the real sshd and a real keyring."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home")


def labgpu(*args: str, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return clirun.run(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        input=stdin or "",
        capture_output=True,
        text=True,
        timeout=timeout,
        env=dict(os.environ),
    )


def _cmd(sshd, key=True) -> str:
    return f"ssh -p {sshd.port}" + (f" -i {sshd.client_key}" if key else "") + f" {sshd.user}@{sshd.host}"


def test_add_without_terminal_needs_the_fingerprint(sshd):
    r = labgpu("hosts", "add", "gpu1", _cmd(sshd))
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1
    assert sshd.host_key_fingerprint in lines[0]  # tells the user which key it saw
    assert json.loads(labgpu("hosts", "ls", "--json").stdout) == []  # nothing saved

    wrong = "SHA256:" + "A" * 43
    r = labgpu("hosts", "add", "gpu1", _cmd(sshd), "--fingerprint", wrong)
    assert r.returncode != 0
    assert sshd.host_key_fingerprint in r.stderr

    r = labgpu("hosts", "add", "gpu1", _cmd(sshd), "--fingerprint", sshd.host_key_fingerprint)
    assert r.returncode == 0, r.stderr
    assert sshd.host_key_fingerprint in r.stdout

    hosts = json.loads(labgpu("hosts", "ls", "--json").stdout)
    assert [(h["name"], h["hostname"], h["port"], h["user"], h["auth"]) for h in hosts] == [
        ("gpu1", sshd.host, sshd.port, sshd.user, "key")
    ]
    assert hosts[0]["known_host_keys"] == [sshd.host_key_fingerprint]
    table = labgpu("hosts", "ls").stdout
    assert "gpu1" in table
    assert f"{sshd.user}@{sshd.host}:{sshd.port}" in table

    r = labgpu("hosts", "add", "gpu1", _cmd(sshd), "--fingerprint", sshd.host_key_fingerprint)
    assert r.returncode != 0
    assert "already exists" in r.stderr

    assert labgpu("hosts", "rm", "gpu1").returncode == 0
    r = labgpu("hosts", "rm", "gpu1")
    assert r.returncode != 0
    assert "No host named" in r.stderr


def test_add_with_password_stdin_stores_it_in_the_keyring(sshd, secret_service):
    from app.core import secrets

    r = labgpu(
        "hosts",
        "add",
        "pwbox",
        _cmd(sshd, key=False),
        "--password-stdin",
        "--fingerprint",
        sshd.host_key_fingerprint,
        stdin=sshd.password + "\n",
    )
    assert r.returncode == 0, r.stderr
    assert secrets.get_secret("host:pwbox:password") == sshd.password
    db = (Path(os.environ["LABGPU_HOME"]) / "data" / "labgpu.sqlite3").read_bytes()
    assert sshd.password.encode() not in db
    assert labgpu("hosts", "rm", "pwbox").returncode == 0
    assert secrets.get_secret("host:pwbox:password") is None

    r = labgpu(
        "hosts",
        "add",
        "bad",
        _cmd(sshd, key=False),
        "--password-stdin",
        "--fingerprint",
        sshd.host_key_fingerprint,
        stdin="not-the-password\n",
    )
    assert r.returncode != 0
    assert "refused the login" in r.stderr
    assert secrets.get_secret("host:bad:password") is None
    assert "not-the-password" not in r.stderr


def test_changed_key_then_forget_key(sshd):
    assert (
        labgpu("hosts", "add", "gpu2", _cmd(sshd), "--fingerprint", sshd.host_key_fingerprint).returncode == 0
    )
    with sshd.changed_host_key() as new_fp:
        r = labgpu("hosts", "forward", "gpu2", "tensorboard")
        assert r.returncode != 0
        assert "CHANGED" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
        r = labgpu("hosts", "forget-key", "gpu2")
        assert r.returncode == 0
        assert "Forgot" in r.stdout
        ls = json.loads(labgpu("hosts", "ls", "--json").stdout)
        assert ls[0]["known_host_keys"] == []
        # Next contact is a first contact again: without a terminal it needs the new fingerprint.
        r = labgpu("hosts", "forward", "gpu2", "jupyter")
        assert r.returncode != 0
        assert new_fp in r.stderr
    from app.remote.hostkeys import forget_host_key

    forget_host_key(sshd.host, sshd.port)


def test_forward_serves_remote_http_until_terminated(sshd, tmp_path):
    import http.server
    import threading

    class H(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            self.send_response(200)
            self.send_header("Content-Length", "7")
            self.end_headers()
            self.wfile.write(b"jupyter")

        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
    t = threading.Thread(target=srv.serve_forever, name="test-http", daemon=True)
    t.start()
    try:
        assert (
            labgpu("hosts", "add", "nb", _cmd(sshd), "--fingerprint", sshd.host_key_fingerprint).returncode
            == 0
        )
        p = subprocess.Popen(
            [sys.executable, "-m", "app", "hosts", "forward", "nb", str(srv.server_address[1])],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ),
        )
        try:
            line = p.stdout.readline()
            assert line.startswith("Forwarding http://127.0.0.1:"), (
                line,
                p.stderr.read() if p.poll() else "",
            )
            url = line.split()[1]
            with urllib.request.urlopen(url, timeout=30) as resp:
                assert resp.read() == b"jupyter"
        finally:
            p.terminate()
            assert p.wait(30) == 0  # exited: the kernel has closed its listening socket
        with pytest.raises(OSError):
            urllib.request.urlopen(url, timeout=2)
    finally:
        srv.shutdown()
        srv.server_close()
        t.join(5)
        from app.remote.hostkeys import forget_host_key

        forget_host_key(sshd.host, sshd.port)


def test_bad_command_and_bad_service_are_one_line_errors(sshd):
    r = labgpu("hosts", "add", "x", "ssh -p nope root@h")
    assert r.returncode != 0
    assert len(r.stderr.strip().splitlines()) == 1
    assert "ssh -p 12345" in r.stderr
    r = labgpu("hosts", "forward", "missing", "tensorboard")
    assert r.returncode != 0
    assert "No host named" in r.stderr


def test_launched_instance_is_listed_as_a_host():
    """A running instance in the cloud ledger appears by itself (named by its id); terminated ones go."""
    from dataclasses import dataclass, field, replace
    from datetime import datetime, timezone

    from app.core.instances import Ledger
    from app.core.paths import default_paths
    from app.core.store import Store

    @dataclass
    class Inst:
        id: str = "i-0abc1234def567890"
        account: str = "lab"
        provider: str = "aws"
        region: str = "us-east-1"
        zone: str = "us-east-1a"
        instance_type: str = "g5.xlarge"
        state: str = "running"
        spot: bool = False
        public_ip: str = "203.0.113.7"
        private_ip: str = "172.31.0.5"
        price_per_hour: float | None = 1.006
        currency: str = "USD"
        launched_at: datetime | None = field(default_factory=lambda: datetime.now(timezone.utc))
        name: str = "train"
        image_id: str = "ami-1"
        key_name: str = "lab"
        raw_state: str = "running"
        tags: dict = field(default_factory=dict)

    store = Store(paths=default_paths())
    ledger = Ledger(store)
    ledger.observe(Inst())
    ledger.observe(Inst(id="i-0dead000000000000", state="terminated", raw_state="terminated"))
    hosts = json.loads(labgpu("hosts", "ls", "--json").stdout)
    assert [(h["name"], h["hostname"], h["user"], h["source"], h["provider"]) for h in hosts] == [
        ("i-0abc1234def567890", "203.0.113.7", "ubuntu", "instance", "aws")
    ]
    ledger.observe(replace(Inst(), state="terminated", raw_state="terminated"))
    assert json.loads(labgpu("hosts", "ls", "--json").stdout) == []


def test_add_on_a_terminal_asks_and_shows_the_fingerprint(sshd):
    """With a terminal, first contact asks (OpenSSH-style); 'yes' trusts, anything else refuses."""
    import pty
    import select

    def run_with_tty(name: str, answer: bytes) -> tuple[int, str]:
        master, slave = pty.openpty()
        p = subprocess.Popen(
            [sys.executable, "-m", "app", "hosts", "add", name, _cmd(sshd)],
            cwd=ROOT,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=dict(os.environ),
            start_new_session=True,
        )
        os.close(slave)
        out = b""
        deadline = time.monotonic() + 30
        sent = False
        while time.monotonic() < deadline:
            r, _, _ = select.select([master], [], [], 0.2)
            if r:
                try:
                    chunk = os.read(master, 4096)
                except OSError:
                    break
                if not chunk:
                    break
                out += chunk
            if not sent and b"(yes/no)?" in out:
                os.write(master, answer)
                sent = True
            if p.poll() is not None and not r:
                break
        os.close(master)
        return p.wait(10), out.decode(errors="replace")

    rc, out = run_with_tty("tty1", b"no\n")
    assert rc != 0
    assert sshd.host_key_fingerprint in out
    rc, out = run_with_tty("tty1", b"yes\n")
    assert rc == 0, out
    assert "Added host tty1" in out
    assert sshd.host_key_fingerprint in out


def test_add_from_ssh_config_alias(sshd, private_home):
    (private_home / ".ssh" / "config").write_text(
        f"Host gpubox\n  HostName {sshd.host}\n  Port {sshd.port}\n  User {sshd.user}\n"
        f"  IdentityFile {sshd.client_key}\n"
    )
    r = labgpu("hosts", "add", "box", "gpubox", "--fingerprint", sshd.host_key_fingerprint)
    assert r.returncode == 0, r.stderr
    (h,) = json.loads(labgpu("hosts", "ls", "--json").stdout)
    assert (h["hostname"], h["port"], h["known_host_keys"]) == ("gpubox", None, [sshd.host_key_fingerprint])


def test_add_through_a_jump_host_needs_both_fingerprints(sshd, extra_sshd):
    jump = f"{extra_sshd.user}@{extra_sshd.host}:{extra_sshd.port}"
    (Path(os.environ["HOME"]) / ".ssh" / "config").write_text(
        f"Host {extra_sshd.host}\n  IdentityFile {extra_sshd.client_key}\n"
    )
    cmd = f"ssh -J {jump} -p {sshd.port} -i {sshd.client_key} {sshd.user}@{sshd.host}"
    r = labgpu("hosts", "add", "inner", cmd, "--fingerprint", sshd.host_key_fingerprint)
    assert r.returncode != 0
    assert extra_sshd.host_key_fingerprint in r.stderr  # the jump host's key is the unknown one
    r = labgpu(
        "hosts",
        "add",
        "inner",
        cmd,
        "--fingerprint",
        sshd.host_key_fingerprint,
        "--fingerprint",
        extra_sshd.host_key_fingerprint,
    )
    assert r.returncode == 0, r.stderr
    (h,) = json.loads(labgpu("hosts", "ls", "--json").stdout)
    assert h["jump"] == jump
