"""Keyring writes are owned: concurrent ``labgpu hosts add`` runs of one name (real CLI processes,
real sshd, real Secret Service) leave exactly one complete record, and a failed add removes only
what it wrote itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fixtures import clirun

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("private_home", "secret_service")


def _popen(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "app", *args], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=dict(os.environ),
    )


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return clirun.run([sys.executable, "-m", "app", *args], cwd=ROOT, input=stdin, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ))


def _enc_cmd(sshd) -> str:
    return f"ssh -p {sshd.port} -i {sshd.client_key_encrypted} {sshd.user}@{sshd.host}"


def test_concurrent_adds_of_one_name_leave_one_complete_record(sshd):
    from app.core import secrets
    from app.remote.ssh import open_connection

    name = f"race{os.getpid()}"
    procs = [
        _popen("hosts", "add", name, _enc_cmd(sshd), "--fingerprint", sshd.host_key_fingerprint,
               "--passphrase-stdin")
        for _ in range(4)
    ]
    for p in procs:  # all started before any is given its passphrase: they run side by side
        p.stdin.write(sshd.client_key_passphrase + "\n")
        p.stdin.flush()
    results = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        results.append((p.returncode, out, err))
    winners = [r for r in results if r[0] == 0]
    losers = [r for r in results if r[0] != 0]
    assert len(winners) == 1, results
    for _rc, _out, err in losers:
        assert "HostExists" in err and "Traceback" not in err, err
    hosts = json.loads(_run("hosts", "ls", "--json").stdout)
    assert [h["name"] for h in hosts] == [name]
    # The winner's keyring entry survived the losers' clean-up, and it opens the key.
    assert secrets.get_secret(f"host:{name}:passphrase") == sshd.client_key_passphrase
    conn = open_connection(name)
    try:
        assert conn.fingerprint == sshd.host_key_fingerprint
    finally:
        conn.close()
    assert _run("hosts", "rm", name).returncode == 0
    assert secrets.get_secret(f"host:{name}:passphrase") is None


def test_failed_add_removes_only_what_it_wrote(sshd):
    from app.core import secrets

    name = f"stale{os.getpid()}"
    # An entry that was there before (left by an earlier LabGPU, or put there by the user).
    secrets.set_secret(f"host:{name}:passphrase", "earlier-value")
    wrong = "SHA256:" + "B" * 43
    r = _run("hosts", "add", name, _enc_cmd(sshd), "--fingerprint", wrong, "--passphrase-stdin",
             stdin=sshd.client_key_passphrase + "\n")
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert secrets.get_secret(f"host:{name}:passphrase") == "earlier-value"  # put back, not deleted
    secrets.delete_secret(f"host:{name}:passphrase")

    # A saved host's entry is untouched by a second add of its name.
    ok = _run("hosts", "add", name, _enc_cmd(sshd), "--fingerprint", sshd.host_key_fingerprint,
              "--passphrase-stdin", stdin=sshd.client_key_passphrase + "\n")
    assert ok.returncode == 0, ok.stderr
    again = _run("hosts", "add", name, _enc_cmd(sshd), "--fingerprint", sshd.host_key_fingerprint,
                 "--passphrase-stdin", stdin="another-passphrase\n")
    assert again.returncode != 0 and "HostExists" in again.stderr
    assert secrets.get_secret(f"host:{name}:passphrase") == sshd.client_key_passphrase
    assert _run("hosts", "rm", name).returncode == 0


def test_gui_add_of_a_taken_name_leaves_the_saved_hosts_password(app_window, qtbot):
    """The Hosts page's add (HostsService.add_host) stops at the taken name before any keyring write."""
    from app.core import secrets
    from app.core.hosts import HostRecord, HostStore, password_key

    ctx, window = app_window
    name = f"gui{os.getpid()}"
    HostStore(ctx.store).add(HostRecord(name=name, hostname="127.0.0.1", auth="password"))
    secrets.set_secret(password_key(name), "the-saved-password")
    page = window.pages["hosts"]
    with qtbot.waitSignal(page.service.add_failed, timeout=30000) as failed:
        page.service.add_host(HostRecord(name=name, hostname="127.0.0.2", auth="password"),
                              password="another-password", connect=False)
    assert failed.args[0] == name and name in failed.args[1]  # said where the host is added (the dialog)
    assert secrets.get_secret(password_key(name)) == "the-saved-password"
    assert HostStore(ctx.store).get(name).hostname == "127.0.0.1"
    secrets.delete_secret(password_key(name))
