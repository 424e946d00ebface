"""Concurrent ``labgpu accounts add`` of one name (real CLI processes, real Secret Service): exactly
one account, and its keyring entries are the winner's (row and keyring agree)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("secret_service")


def _popen(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "app", *args], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=dict(os.environ),
    )


@pytest.mark.parametrize("provider", ["aws", "tencent"])
def test_concurrent_account_adds_leave_one_consistent_account(provider):
    from app.core import secrets
    from app.core.accounts import mask_key_id

    name = f"lab{provider}{os.getpid()}"
    region = "us-east-1" if provider == "aws" else "ap-guangzhou"
    key_ids = [f"AKIAEXAMPLE{i}{os.getpid()}" for i in range(4)]
    procs = [_popen("accounts", "add", provider, name, "--region", region) for _ in key_ids]
    for p, key_id in zip(procs, key_ids, strict=True):
        p.stdin.write(f"{key_id}\nsecret-of-{key_id}\n")
        p.stdin.close()
    results = []
    for p in procs:
        err = p.stderr.read()
        p.stdout.read()
        results.append((p.wait(timeout=120), err))
    assert sorted(rc == 0 for rc, _ in results) == [False, False, False, True], results
    assert all("AccountExists" in err and "Traceback" not in err for rc, err in results if rc != 0), results

    ls = clirun.run([sys.executable, "-m", "app", "accounts", "ls", "--json"], cwd=ROOT, capture_output=True,
                        text=True, timeout=120, env=dict(os.environ))
    rows = [a for a in json.loads(ls.stdout) if a["name"] == name]
    assert len(rows) == 1
    key_id = secrets.get_secret(f"account:{name}:key_id")
    assert key_id in key_ids
    assert secrets.get_secret(f"account:{name}:secret") == f"secret-of-{key_id}"
    assert rows[0]["key_id"] == mask_key_id(key_id)  # the row and the keyring are one record
    rm = clirun.run([sys.executable, "-m", "app", "accounts", "rm", name], cwd=ROOT, capture_output=True,
                        text=True, timeout=120, env=dict(os.environ))
    assert rm.returncode == 0, rm.stderr
