"""What the CLI journeys against a rented instance share: the `labgpu` command as a user runs it, and an
instance whose SSH server is the test's own real sshd (the Tencent peer reports 127.0.0.1 as its public
IP, the student's ~/.ssh/config gives the port, the login user and key come from instance tags)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import paramiko
import pytest

from app.core.paths import default_paths
from app.remote.hostkeys import KnownHosts
from tests.fixtures import clirun
from tests.fixtures.sshd import SshdServer

ROOT = Path(__file__).resolve().parents[2]
GN7 = "GN7.2XLARGE32"


def cli(*args: str, stdin: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return clirun.run([sys.executable, "-m", "app", *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=timeout, env=dict(os.environ))


def ok(*args: str, **kw: Any) -> subprocess.CompletedProcess:
    r = cli(*args, **kw)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


@pytest.fixture
def instance_sshd() -> Iterator[SshdServer]:
    server = SshdServer.start_new()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.workdir, ignore_errors=True)


def serve_instances_from(server: SshdServer, tencent_server: Any, private_home: Path, monkeypatch: Any) -> None:
    """The peer's instances come up at once, on 127.0.0.1, logged into as the sshd's user with its key."""
    tencent_server.pending_seconds = 0.0
    tencent_server.operation_seconds = 0.05
    tencent_server.instance_public_ip = "127.0.0.1"
    tencent_server.instance_extra_tags = [{"Key": "labgpu:ssh-user", "Value": server.user},
                                          {"Key": "labgpu:ssh-key-path", "Value": str(server.client_key)}]
    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", tencent_server.endpoint + "/_ip")
    (private_home / ".ssh" / "config").write_text(f"Host 127.0.0.1\n    Port {server.port}\n")
    KnownHosts(default_paths()).add("127.0.0.1", server.port, paramiko.Ed25519Key.from_path(str(server.host_key)))
