"""`labgpu notify add|ls|test|rm` as a student runs it: secrets on stdin to the real Secret Service, a test
notice that reaches the stand-in with a valid signature, and no secret in any file LabGPU writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun
from tests.notify import peers as P

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("secret_service")


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return clirun.run([sys.executable, "-m", "app", "notify", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120, env=dict(os.environ))


def _files_hold(home: Path, needles: list[str]) -> list[str]:
    hits = []
    for path in home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            hits += [f"{path.name}: {n}" for n in needles if n.encode() in data]
    return hits


def test_add_test_ls_rm_a_signed_feishu_channel(peer, labgpu_home):
    url = peer.base + P.FEISHU_HOOK
    secret = peer.services.feishu_secret
    added = _run("add", "lab-feishu", "--kind", "feishu", "--events", "stop-failed,job-ended",
                 "--secret-stdin", stdin=f"{url}\n{secret}\n")
    assert added.returncode == 0, added.stderr
    assert url not in added.stdout + added.stderr and secret not in added.stdout + added.stderr

    sent = _run("test", "lab-feishu")
    assert sent.returncode == 0, sent.stderr
    got = peer.received("feishu")
    assert len(got) == 1 and got[0].title == "LabGPU test notice" and peer.services.refused == []

    listed = json.loads(_run("ls", "--json").stdout)
    assert listed == [{"name": "lab-feishu", "kind": "feishu", "enabled": True,
                       "events": ["stop-failed", "job-ended"], "where": peer.base, "last_ok": True,
                       "last_at": listed[0]["last_at"], "last": "ok"}]
    settings = json.loads((labgpu_home / "config" / "settings.json").read_text())
    assert settings["extra"]["notify"]["channels"][0]["secret_keys"] == [
        "notify:lab-feishu:secret", "notify:lab-feishu:url"]
    # the secret and the address (its hook id is a token) are in the keyring only
    assert _files_hold(labgpu_home, [secret, P.FEISHU_HOOK]) == []

    peer.services.feishu_secret = "rotated-on-the-service"
    failed = _run("test", "lab-feishu")
    assert failed.returncode == 1 and "19021" in failed.stderr

    assert _run("rm", "lab-feishu").returncode == 0
    assert json.loads(_run("ls", "--json").stdout) == []
    import keyring

    assert keyring.get_password("labgpu", "notify:lab-feishu:url") is None


def test_secrets_are_refused_as_arguments_and_plain_http_refused(labgpu_home):
    # there is no option that takes a secret: argparse refuses one
    r = _run("add", "x", "--kind", "ntfy", "--token", "tk_abc")
    assert r.returncode == 2 and "unrecognized arguments" in r.stderr
    r = _run("add", "x", "--kind", "ntfy", "--secret-stdin", stdin="http://ntfy.example.org/topic\n\n")
    assert r.returncode == 2 and "InsecureNotifyUrl" in r.stderr
    assert "ntfy.example.org/topic" not in r.stderr  # the address (a topic is a password) is never repeated
    r = _run("add", "x", "--kind", "webhook", "--secret-stdin", stdin="https://example.org/hook\n")
    assert r.returncode == 2 and "MissingNotifySecret" in r.stderr or "EmptySecret" in r.stderr
    assert not (labgpu_home / "config" / "settings.json").exists() or "notify" not in \
        (labgpu_home / "config" / "settings.json").read_text()


def test_test_of_an_unknown_channel(labgpu_home):
    r = _run("test", "nope")
    assert r.returncode == 2 and "NoChannel" in r.stderr
