"""The cloud CLI with a Huawei Cloud account, as a user or a script runs it: real subprocesses, the official
SDK over HTTP to the local SDK-HMAC-SHA256-checking peer, a real Secret Service. First slice: add → test
(the SDK's own project look-up, then ECS), a wrong SK refused with its next step, and a scan of every file
LabGPU wrote for the secret."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fixtures.huawei_ecs_server import HuaweiPeer

ROOT = Path(__file__).resolve().parents[2]
AK = "HPUAE2ETESTKEY000001"
SK = "e2e-huawei-sk-5f1c0b7e9a2d4c68"


@pytest.fixture
def huawei_peer() -> Iterator[HuaweiPeer]:
    peer = HuaweiPeer().start()
    peer.add_key(AK, SK)
    try:
        yield peer
    finally:
        peer.stop()


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app", *args], input=stdin, capture_output=True, text=True,
                          env=dict(os.environ), cwd=ROOT, timeout=120)


def _ok(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    r = _cli(*args, stdin=stdin)
    assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


def _add(peer: HuaweiPeer, name: str, secret: str = SK, region: str = "cn-north-4") -> None:
    _ok("accounts", "add", "huawei", name, "--region", region, "--endpoint", peer.endpoint, stdin=f"{AK}\n{secret}\n")


def test_add_test_wrong_secret_and_no_secret_anywhere(secret_service: object, huawei_peer: HuaweiPeer,
                                                      labgpu_home: Path) -> None:
    _add(huawei_peer, "lab")
    [acc] = json.loads(_ok("accounts", "ls", "--json").stdout)
    assert (acc["provider"], acc["region"], acc["endpoint"]) == ("huawei", "cn-north-4", huawei_peer.endpoint)
    assert AK not in acc["key_id"]

    out = _ok("accounts", "test", "lab").stdout
    assert "HPUAE2" in out and "4 availability zones" in out and AK not in out
    project = huawei_peer.keys[AK].projects["cn-north-4"]
    assert [(c.method, c.path) for c in huawei_peer.calls] == [
        ("GET", "/v3/projects"), ("GET", f"/v1/{project}/availability-zones")]
    assert huawei_peer.calls[0].query == {"name": "cn-north-4"}
    assert huawei_peer.refused == []

    # A wrong SK: the peer's signature check refuses it; one line with the code and the next step.
    _add(huawei_peer, "bad", "not-the-secret-key", region="cn-east-3")
    r = _cli("accounts", "test", "bad")
    assert r.returncode != 0, r.stdout
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, r.stderr
    assert "[APIGW.0301]" in lines[0] and " — " in lines[0]
    assert "paste the AK and SK again" in lines[0]
    assert ("APIGW.0301", "verify aksk signature fail") in huawei_peer.refused
    _ok("accounts", "rm", "bad")

    # The secret is in the keyring only: no file LabGPU wrote holds it (nor the wrong one).
    files = [p for p in labgpu_home.rglob("*") if p.is_file()]
    assert files
    for path in files:
        data = path.read_bytes()
        assert SK.encode() not in data and b"not-the-secret-key" not in data, path
