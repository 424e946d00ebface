"""Jobs on the server kinds students meet (tests/fixtures/server_kinds.py): a login shell that is dash,
BusyBox applets only, and a ~/.bashrc that prints a banner (with fake records, no newline at its end) before
every command's output."""

from __future__ import annotations

import contextlib

import paramiko
import pytest

from app.core.errors import LabGpuError
from app.core.hosts import HostRecord, HostStore
from app.core.paths import default_paths
from app.core.vocab import JobState
from app.remote import jobs as hostjobs
from app.remote.hostkeys import KnownHosts
from app.remote.ssh import Connection, open_connection
from tests.fixtures.server_kinds import KINDS
from tests.fixtures.waits import wait_for

pytestmark = pytest.mark.usefixtures("private_home")

ARGS = ["it's", "$HOME; `id`", "two\nlines", ""]


@pytest.fixture(params=["dash", "busybox", "banner-out"])
def conn(request, server_kinds):
    kind = request.param
    KnownHosts(default_paths()).add(server_kinds.host, server_kinds.port,
                                    paramiko.Ed25519Key.from_path(str(server_kinds.host_key)))
    rec = HostRecord(name=f"kind-{kind}", hostname=server_kinds.host, port=server_kinds.port, user=KINDS[kind],
                     key_path=str(server_kinds.client_key), auth="key")
    HostStore(paths=default_paths()).add(rec, replace_existing=True)
    c = open_connection(rec.name)
    try:
        yield c
    finally:
        with contextlib.suppress(LabGpuError):
            for jid in hostjobs.list_ids(c):
                hostjobs.stop(c, jid, grace_s=0)
                hostjobs.remove(c, jid)
        c.close()


def _ended(c: Connection, jid: str) -> hostjobs.HostJobStatus:
    return wait_for(lambda: (lambda st: st if st.state != JobState.RUNNING else None)(hostjobs.status(c, jid)), 60,
                    f"job {jid} to end", interval=0.1)


def test_start_status_log_and_stop(conn):
    jid = hostjobs.new_id()
    started = hostjobs.start(conn, jid, ["sh", "-c", 'for a in "$@"; do printf "<%s>" "$a"; done; exit 4', "sh",
                                         *ARGS], detach="setsid")
    assert started.pid > 0 and started.detach == "setsid"
    st = _ended(conn, jid)
    assert st.state == JobState.EXITED and st.exit_code == 4 and st.runtime_s is not None
    data, nxt, size = hostjobs.read_log(conn, jid, 0)
    assert data.decode() == "".join(f"<{a}>" for a in ARGS) and nxt == size == len(data)
    assert hostjobs.read_log(conn, jid, 3, 4)[0] == data[3:7]
    assert jid in hostjobs.list_ids(conn)
    sleeper = hostjobs.new_id()
    hostjobs.start(conn, sleeper, ["sleep", "600"], detach="setsid")
    assert hostjobs.status(conn, sleeper, meta=True).meta.argv == ["sleep", "600"]  # type: ignore[union-attr]
    out = hostjobs.stop(conn, sleeper, grace_s=20)
    assert out.how == "term" and out.status is not None and out.status.exit_code == 143
