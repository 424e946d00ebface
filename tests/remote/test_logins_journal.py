"""The login records of a host with a systemd journal: a real journal file written by systemd's own
writer (``systemd-journal-remote`` from journal export text) in ``/var/log/journal/<machine-id>/``, read by
the system's ``journalctl`` as the server's user — first without the right to read it (journalctl's own
"not seeing messages" answer), then with it; incrementally by cursor.

That ``/var/log`` is the test's own: its sshd runs in a mount namespace of its own (``unshare -m``) with a
folder of the test bind-mounted there, so only its sessions see the journal. (It was this machine's
``/var/log/journal``: a login check of another test running beside it — any watcher of a host on this
machine — read this journal's strangers and alerted them.)"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.loginstore import LoginSettings, LoginStore
from app.core.paths import default_paths
from app.core.store import Store
from app.core.vocab import GuardEventKind as K
from app.usecases import logins as usecase
from tests.fixtures.sshd import SshdServer
from tests.remote.gpu_support import save_host

HOST = "jbox"
WRITER = "/lib/systemd/systemd-journal-remote"
KEY = "SHA256:" + "B" * 43


def _export(entries: list[tuple[int, str, str]], boot: str, machine: str, seq0: int) -> str:
    """Journal export format (systemd's "Journal Export Format"): one entry per block, fields as KEY=value."""
    out = []
    for i, (usec, ident, msg) in enumerate(entries):
        out.append(f"__REALTIME_TIMESTAMP={usec}\n__MONOTONIC_TIMESTAMP={seq0 + i + 1}\n_BOOT_ID={boot}\n"
                   f"_MACHINE_ID={machine}\n_HOSTNAME=jbox\nSYSLOG_IDENTIFIER={ident}\n_PID={4000 + seq0 + i}\n"
                   f"_COMM={ident}\nMESSAGE={msg}\n")
    return "\n".join(out) + "\n"


@pytest.fixture
def varlog(tmp_path: Path) -> Path:
    """What the test's sshd (and every session of it) sees as /var/log."""
    folder = tmp_path / "varlog"
    (folder / "journal").mkdir(parents=True)
    for d in (folder, folder / "journal"):
        d.chmod(0o755)
    return folder


@pytest.fixture
def journal(tmp_path: Path, varlog: Path) -> Any:
    if not os.path.exists(WRITER) or not shutil.which("journalctl"):
        pytest.fail("the journal tests need systemd-journal-remote and journalctl (apt-get install "
                    "systemd-journal-remote)")
    machine = Path("/etc/machine-id").read_text().strip()
    folder = varlog / "journal" / machine
    folder.mkdir(mode=0o755)
    target = folder / "system.journal"

    class J:
        def write(self, entries: list[tuple[int, str, str]], seq0: int = 0) -> None:
            text = tmp_path / f"export{seq0}.txt"
            text.write_text(_export(entries, "0123456789abcdef0123456789abcdef", machine, seq0))
            r = subprocess.run([WRITER, f"--output={target}", str(text)], capture_output=True, text=True)
            assert r.returncode == 0, r.stderr

        def allow(self, readable: bool) -> None:
            target.chmod(0o644 if readable else 0o640)

    return J()


@pytest.fixture
def server(varlog: Path) -> Iterator[SshdServer]:
    """A fresh sshd saved as HOST (no nvidia-smi) whose /var/log is ``varlog``: a mount namespace of its own."""
    wrapper = ["unshare", "--mount", "--propagation", "private",
               "sh", "-c", 'mount --bind "$0" /var/log && exec "$@"', str(varlog)]
    srv = SshdServer.start_new(wrapper=wrapper)
    try:
        save_host(srv, HOST)
        yield srv
    finally:
        srv.stop()
        shutil.rmtree(srv.workdir, ignore_errors=True)


def check(sent: list[Any]) -> usecase.LoginReport:
    paths = default_paths()
    return usecase.check_host(paths, Store(paths=paths), HOST, alert=lambda *a: sent.append(a),
                              settings=LoginSettings(unusual_from=0, unusual_to=0))


def test_journal_read_by_journalctl_denied_then_allowed_then_incrementally(server: SshdServer, journal: Any) -> None:
    now = int(time.time() * 1e6)
    journal.write([
        (now - 3_000_000, "sshd", f"Accepted publickey for {server.user} from 203.0.113.9 port 50000 ssh2: "
                                  f"ED25519 {KEY}"),
        (now - 2_000_000, "sshd-session", "Failed password for invalid user admin from 198.51.100.7 port 40000 ssh2"),
        (now - 1_000_000, "sudo", "Accepted publickey for root from 6.6.6.6 port 1 ssh2"),  # not sshd: never counted
    ])
    journal.allow(False)
    sent: list[Any] = []
    report = check(sent)  # the server's user is in neither adm nor systemd-journal
    assert report.source != "journal"
    assert any("systemd-journal" in n for n in report.notes), report.notes
    journal.allow(True)
    report = check(sent)
    assert report.source == "journal" and report.complete, report.notes
    accepted = [x for x in report.logins if x.accepted]
    assert [x.source for x in accepted] == ["203.0.113.9"] and accepted[0].key_fp == KEY
    assert accepted[0].time is not None and abs(accepted[0].time.timestamp() - (now - 3_000_000) / 1e6) < 1
    assert [x.source for x in report.logins if not x.accepted] == ["198.51.100.7"]
    assert "6.6.6.6" not in {x.source for x in report.logins}
    assert [a[2]["source"] for a in sent if a[0] == K.LOGIN_UNUSUAL] == ["203.0.113.9"]
    cursor = LoginStore(Store(paths=default_paths())).state(HOST).cursor
    assert cursor.startswith("s=")
    journal.write([(now, "sshd", f"Accepted publickey for {server.user} from 203.0.113.10 port 50001 ssh2: "
                                 f"ED25519 {KEY}")], seq0=10)
    check(sent)  # from the cursor on: only the new entry, one new alert
    assert [a[2]["source"] for a in sent if a[0] == K.LOGIN_UNUSUAL] == ["203.0.113.9", "203.0.113.10"]
