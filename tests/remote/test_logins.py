"""Who logged in: a real OpenSSH sshd writing its own log (``-E FILE``, LogLevel VERBOSE), real logins from
two loopback addresses (LabGPU's own from 127.0.0.1, a stranger's from 127.0.0.2 with OpenSSH ``ssh -b``),
read by LabGPU over SSH and judged; the alerts counted as a student would see them."""

from __future__ import annotations

import contextlib
import socket
import subprocess
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import paramiko
import pytest

from app.core.loginstore import LoginSettings, LoginStore
from app.core.paths import default_paths
from app.core.store import Store
from app.core.vocab import GuardEventKind as K
from app.usecases import logins as usecase
from tests.fixtures.sshd import SshdServer
from tests.remote.gpu_support import gpu_server

HOST = "box"


@pytest.fixture
def server() -> Iterator[SshdServer]:
    with gpu_server(HOST, None) as (srv, _none):  # a fresh sshd saved as HOST, no nvidia-smi
        yield srv


def openssh(server: SshdServer, source: str, *extra: str) -> int:
    """A login by OpenSSH's own client from ``source`` (a loopback address) with the test key."""
    args = ["ssh", "-b", source, *server.openssh_args(), "-o", "ConnectTimeout=10", *extra]
    r = subprocess.run([*args, f"{server.user}@{server.host}", "true"], capture_output=True, text=True, timeout=30,
                       stdin=subprocess.DEVNULL)
    return r.returncode


def wrong_password(server: SshdServer, source: str, user: str = "", tries: int = 1) -> None:
    """Password logins that fail, from ``source``: a client socket bound there, paramiko's transport."""
    sock = socket.create_connection((server.host, server.port), timeout=10, source_address=(source, 0))
    transport = paramiko.Transport(sock)
    try:
        transport.start_client(timeout=10)
        for _ in range(tries):
            with contextlib.suppress(paramiko.AuthenticationException):
                transport.auth_password(user or server.user, "wrong-password")
    finally:
        transport.close()


class Alerts:
    def __init__(self) -> None:
        self.sent: list[tuple[str, str, dict[str, Any], str]] = []

    def __call__(self, kind: str, host: str, params: dict[str, Any], message: str) -> None:
        self.sent.append((kind, host, params, message))

    def of(self, kind: str) -> list[tuple[str, str, dict[str, Any], str]]:
        return [a for a in self.sent if a[0] == kind]


def check(alerts: Alerts, **kw: Any) -> usecase.LoginReport:
    paths = default_paths()
    return usecase.check_host(paths, Store(paths=paths), HOST, alert=alerts,
                              settings=kw.pop("settings", LoginSettings(unusual_from=0, unusual_to=0)), **kw)


def hours_around_now() -> LoginSettings:
    """Unusual hours that hold the present hour and the next (a test crossing the hour stays inside)."""
    h = datetime.now().astimezone().hour
    return LoginSettings(unusual_from=(h - 1) % 24, unusual_to=(h + 2) % 24)


def test_a_login_from_the_second_loopback_address_raises_one_alert_naming_it(server: SshdServer) -> None:
    usecase.set_log_path(Store(paths=default_paths()), HOST, str(server.log_file))
    alerts = Alerts()
    first = check(alerts)  # LabGPU's own login (127.0.0.1) and what was there before: no alert
    assert first.complete and first.source == "file"
    assert alerts.sent == [], alerts.sent
    assert openssh(server, "127.0.0.2") == 0
    second = check(alerts)
    unusual = alerts.of(K.LOGIN_UNUSUAL)
    assert len(unusual) == 1, alerts.sent
    kind, host, params, message = unusual[0]
    assert params["source"] == "127.0.0.2" and params["user"] == server.user and params["method"] == "publickey"
    assert "127.0.0.2" in message and host == HOST
    mine = [x for x in second.logins if x.accepted and x.source == "127.0.0.1"]
    assert mine and all(x.own and not x.unusual for x in mine)
    theirs = [x for x in second.logins if x.accepted and x.source == "127.0.0.2"]
    assert len(theirs) == 1 and theirs[0].unusual and "unknown-source" in theirs[0].why
    assert theirs[0].time is not None  # read after the first read: its time is the read's
    check(alerts)  # once: the next check does not say it again
    assert len(alerts.of(K.LOGIN_UNUSUAL)) == 1


def test_failed_password_from_the_stranger_is_counted_with_its_real_source(server: SshdServer) -> None:
    usecase.set_log_path(Store(paths=default_paths()), HOST, str(server.log_file))
    alerts = Alerts()
    check(alerts)
    wrong_password(server, "127.0.0.2")
    report = check(alerts)
    failed = [x for x in report.logins if not x.accepted]
    assert any(x.source == "127.0.0.2" and x.method == "password" for x in failed), failed
    assert report.failed["count"] >= 1 and ["127.0.0.2", 1] in report.failed["top_sources"] or \
        any(s == "127.0.0.2" for s, _n in report.failed["top_sources"])
    assert alerts.of(K.LOGIN_UNUSUAL) == []  # a refused login is noise, not an alert of its own


def test_a_forged_user_name_never_becomes_the_source(server: SshdServer) -> None:
    usecase.set_log_path(Store(paths=default_paths()), HOST, str(server.log_file))
    alerts = Alerts()
    check(alerts)
    forged = "x from 1.2.3.4 port 22"
    r = subprocess.run(["ssh", "-b", "127.0.0.2", *server.openssh_args(), f"{forged}@{server.host}", "true"],
                       capture_output=True, text=True, timeout=30, stdin=subprocess.DEVNULL)
    assert r.returncode != 0
    report = check(alerts)
    sources = {x.source for x in report.logins}
    assert "1.2.3.4" not in sources
    assert any(x.user == forged and x.source == "127.0.0.2" for x in report.logins if not x.accepted)


def test_own_address_at_an_unusual_hour_is_alerted_with_the_hour(server: SshdServer) -> None:
    usecase.set_log_path(Store(paths=default_paths()), HOST, str(server.log_file))
    alerts = Alerts()
    check(alerts)
    assert openssh(server, "127.0.0.1") == 0  # the student's own address, but not LabGPU's session
    settings = hours_around_now()
    check(alerts, settings=settings)
    hours = alerts.of(K.LOGIN_UNUSUAL)
    assert len(hours) == 1 and hours[0][2]["source"] == "127.0.0.1", [a[3] for a in alerts.sent]
    assert f"inside your unusual hours ({settings.unusual_from:02d}:00–" in hours[0][2]["why"]


def test_unreadable_log_and_no_system_log_say_what_could_not_be_read(server: SshdServer) -> None:
    log = server.workdir / "private.log"
    log.write_text("")
    log.chmod(0o600)  # root's: the server's user cannot read it, and sudo is not there for it
    usecase.set_log_path(Store(paths=default_paths()), HOST, str(log))
    alerts = Alerts()
    report = check(alerts)
    text = "\n".join(report.notes)
    assert str(log) in text and "not readable" in text
    assert not report.complete  # only wtmp (or nothing) was read: never called complete
    assert report.source in ("last", "journal", "file")


def test_five_thousand_failed_logins_make_one_summary(server: SshdServer) -> None:
    """A log of 5,000 refused logins (as rsyslog writes them, RFC 3339) from 50 addresses: one summary
    with the count and the top sources, then quiet."""
    log = server.workdir / "auth.log"
    now = datetime.now(timezone.utc).replace(microsecond=0)
    stamp = now.isoformat()
    lines = [f"{stamp} box sshd[{1000 + i}]: Failed password for invalid user u{i % 7} from 203.0.113.{i % 50} "
             f"port {40000 + i} ssh2" for i in range(5000)]
    log.write_text("\n".join(lines) + "\n")
    server.chown_to_user(log)
    usecase.set_log_path(Store(paths=default_paths()), HOST, str(log))
    alerts = Alerts()
    report = check(alerts)
    summaries = alerts.of(K.LOGIN_FAILURES)
    assert len(summaries) == 1, alerts.sent
    assert summaries[0][2]["count"] == 5000 and summaries[0][2]["sources"] == 50
    assert report.failed["count"] >= 1
    with Path(log).open("a") as f:  # more noise within the quiet hours: no second summary
        f.write("\n".join(lines[:100]) + "\n")
    check(alerts)
    assert len(alerts.of(K.LOGIN_FAILURES)) == 1
    assert alerts.of(K.LOGIN_UNUSUAL) == []


def test_rotation_between_checks_reads_the_rest_of_the_old_file_then_the_new(server: SshdServer) -> None:
    log = server.workdir / "auth.log"
    t = datetime.now(timezone.utc).replace(microsecond=0).isoformat()

    def line(i: int) -> str:
        return (f"{t} box sshd[{i}]: Accepted publickey for {server.user} from 198.51.100.{i} port {5000 + i} "
                f"ssh2: ED25519 SHA256:{'A' * 43}\n")

    log.write_text(line(1))
    server.chown_to_user(log)
    usecase.set_log_path(Store(paths=default_paths()), HOST, str(log))
    alerts = Alerts()
    check(alerts)
    with log.open("a") as f:
        f.write(line(2))  # written before the rotation, not read yet
    log.rename(server.workdir / "auth.log.1")
    log.write_text(line(3))
    server.chown_to_user(log)
    report = check(alerts)
    sources = {x.source for x in report.logins if x.accepted}
    assert {"198.51.100.1", "198.51.100.2", "198.51.100.3"} <= sources
    assert sorted(a[2]["source"] for a in alerts.of(K.LOGIN_UNUSUAL)) == ["198.51.100.1", "198.51.100.2",
                                                                           "198.51.100.3"]
    assert LoginStore(Store(paths=default_paths())).state(HOST).path == str(log)


def test_the_watcher_checks_each_host_in_turn_and_alerts_through_its_events(server: SshdServer) -> None:
    """The watcher (window, tray, ``labgpu watch``) reads a host's logins when its turn comes on its own
    clock (a fake one here) and publishes one event for the stranger's login: tray, channels, audit."""
    from app.core.audit import AuditLog
    from app.watch.loginwatch import driver_of
    from app.watch.watcher import Watcher

    paths = default_paths()
    store = Store(paths=paths)
    usecase.set_log_path(store, HOST, str(server.log_file))  # a host read once is watched from then on
    clock = [1_000_000.0]
    seen: list[Any] = []
    watcher = Watcher(paths, store=store, clock=lambda: clock[0], notify=seen.append)
    try:
        driver = driver_of(watcher)
        assert driver.poll() == [HOST]
        assert driver.wait_checks(1)
        assert driver.failures[HOST] == "" and seen == []
        assert openssh(server, "127.0.0.2") == 0
        clock[0] += 60  # not its turn yet (every 5 minutes): nothing starts
        assert driver.poll() == []
        clock[0] += 300
        assert driver.poll() == [HOST]
        assert driver.wait_checks(2)
        kinds = [ev.kind for ev in seen]
        assert kinds == [K.LOGIN_UNUSUAL], [ev.message for ev in seen]
        assert "127.0.0.2" in seen[0].message and seen[0].target_id == HOST
        assert any(e.action == "guard-" + K.LOGIN_UNUSUAL and e.resource == HOST for e in AuditLog(store).list())
    finally:
        watcher.close()


def test_a_host_clock_three_hours_fast_is_corrected_and_said(server: SshdServer) -> None:
    """The host's clock (its ``date``) runs 3 hours ahead, and its log's times with it: the logins are shown
    at the true time, and the report says the clock is off."""
    skew = 3 * 3600
    server.install_executable("date", "#!/bin/sh\n"
                              f'if [ "$1" = "+%s" ]; then echo $(( $(/bin/date +%s) + {skew} )); '
                              'else exec /bin/date "$@"; fi\n')
    log = server.workdir / "auth.log"
    true_now = datetime.now(timezone.utc).replace(microsecond=0)
    host_time = datetime.fromtimestamp(true_now.timestamp() + skew, timezone.utc)
    log.write_text(f"{host_time.isoformat()} box sshd[7]: Accepted password for {server.user} from 192.0.2.44 "
                   "port 6000 ssh2\n")
    server.chown_to_user(log)
    usecase.set_log_path(Store(paths=default_paths()), HOST, str(log))
    alerts = Alerts()
    report = check(alerts)
    login = next(x for x in report.logins if x.source == "192.0.2.44")
    assert login.time is not None and abs(login.time.timestamp() - true_now.timestamp()) < 120
    assert abs(report.clock_offset_s - skew) < 120
    assert any("clock" in n and "3 h" in n for n in report.notes), report.notes
    assert [a[2]["source"] for a in alerts.of(K.LOGIN_UNUSUAL)] == ["192.0.2.44"]


def test_a_log_larger_than_one_check_is_read_over_several_checks_with_bounded_reads(
        server: SshdServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Gigabytes of failed logins, scaled down: a check reads at most its budget (here 256 KiB in reads of
    64 KiB) and says the rest waits; the next checks go on from there, and no line is read twice."""
    from app.remote import loginread

    monkeypatch.setattr(loginread, "BUDGET", 256 * 1024)
    monkeypatch.setattr(loginread, "MAX_BYTES", 64 * 1024)
    monkeypatch.setattr(loginread, "FIRST_TAIL", 1 << 40)  # read this log from its start
    log = server.workdir / "auth.log"
    stamp = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    lines = [f"{stamp} box sshd[{i}]: Failed password for invalid user scan{i % 3} from 198.18.{i % 200}.{i % 7 + 1} "
             f"port {10000 + i % 50000} ssh2\n" for i in range(9000)]
    log.write_text("".join(lines))  # ~ 900 KiB
    server.chown_to_user(log)
    usecase.set_log_path(Store(paths=default_paths()), HOST, str(log))
    alerts = Alerts()
    settings = LoginSettings(unusual_from=0, unusual_to=0, failed_threshold=1_000_000)
    counts = []
    for _ in range(6):
        report = check(alerts, settings=settings)
        counts.append(report.notes)
        st = LoginStore(Store(paths=default_paths())).state(HOST)
        if st.offset >= log.stat().st_size:
            break
    assert any("more log than one check reads" in n for n in counts[0]), counts[0]
    assert LoginStore(Store(paths=default_paths())).state(HOST).offset == log.stat().st_size
    assert 3 <= len(counts) <= 6  # ~900 KiB in checks of 256 KiB
    assert LoginStore(Store(paths=default_paths())).state(HOST).failed["count"] == 9000  # each line once


def test_labgpu_own_sessions_at_an_unusual_hour_raise_no_alert_but_a_stranger_from_the_same_address_does(
        server: SshdServer) -> None:
    """A student training at night: the monitor, a sync and a job are LabGPU's own SSH sessions, each a new
    login in the host's log at an "unusual" hour. None of them is an alert; an OpenSSH login from the
    very same address in the same minute is."""
    from app.remote.ssh import open_connection

    usecase.set_log_path(Store(paths=default_paths()), HOST, str(server.log_file))
    alerts = Alerts()
    check(alerts)  # the first read
    ports = []
    for _ in range(3):  # three sessions of LabGPU's, as the monitor, a sync and a job would open
        with open_connection(HOST) as conn:
            assert conn.exec(["true"])[0] == 0
            assert conn.transport is not None
            ports.append(conn.transport.sock.getsockname()[1])
    assert openssh(server, "127.0.0.1") == 0  # someone else, from the student's own address
    report = check(alerts, settings=hours_around_now())
    mine = [x for x in report.logins if x.accepted and x.port in ports]
    assert sorted(x.port for x in mine) == sorted(ports), report.logins
    assert all(x.own and not x.unusual for x in mine), mine
    unusual = alerts.of(K.LOGIN_UNUSUAL)
    assert len(unusual) == 1, [a[3] for a in alerts.sent]
    assert unusual[0][2]["source"] == "127.0.0.1" and "unusual hours" in unusual[0][2]["why"]


def test_a_session_through_a_jump_host_is_known_by_what_the_host_saw(server: SshdServer, extra_sshd: SshdServer
                                                                      ) -> None:
    """Through a jump host (as behind NAT) the host sees the hop's address and a port LabGPU cannot know
    from its own socket: LabGPU asks the host ($SSH_CONNECTION) and that session is its own."""
    from app.core.hosts import HostRecord, HostStore
    from app.remote.hostkeys import KnownHosts
    from app.remote.ssh import open_connection

    KnownHosts(default_paths()).add(extra_sshd.host, extra_sshd.port,
                                    paramiko.Ed25519Key.from_path(str(extra_sshd.host_key)))
    store = HostStore(paths=default_paths())
    store.add(HostRecord(name="bastion", hostname=extra_sshd.host, port=extra_sshd.port, user=extra_sshd.user,
                         key_path=str(extra_sshd.client_key), auth="key"))
    rec = store.find(HOST)
    assert rec is not None
    store.add(HostRecord(**{**rec.__dict__, "jump": "bastion"}), replace_existing=True)
    usecase.set_log_path(Store(paths=default_paths()), HOST, str(server.log_file))
    alerts = Alerts()
    check(alerts)
    with open_connection(HOST) as conn:
        assert conn.exec(["true"])[0] == 0
        assert conn.own_session is not None
        seen = conn.own_session.wait()
    assert seen is not None and seen[0] == "127.0.0.1"
    assert f"from 127.0.0.1 port {seen[1]} ssh2" in server.log_text()  # the port the host logged
    report = check(alerts, settings=hours_around_now())
    [mine] = [x for x in report.logins if x.accepted and x.port == seen[1]]
    assert mine.own and not mine.unusual
    assert alerts.of(K.LOGIN_UNUSUAL) == [], [a[3] for a in alerts.sent]


@pytest.mark.parametrize("kind", ["banner-out", "busybox", "dash", "sftp-only", "windows"])
def test_asking_the_host_how_it_saw_the_session_on_the_servers_students_meet(server_kinds: Any, kind: str) -> None:
    """A shell that prints a banner, BusyBox, dash: the answer is read past the banner. An SFTP-only
    account or a host without a POSIX shell says nothing usable: no answer, no error, no hang."""
    from app.remote.ssh.ownsession import ask_host

    t = server_kinds.connect(kind)().transport
    try:
        sock_port = t.sock.getsockname()[1]
        assert ask_host(t) == (("127.0.0.1", sock_port) if kind not in ("sftp-only", "windows") else None)
        assert t.is_active()  # the connection goes on as before
    finally:
        t.close()


def test_a_host_that_never_answers_the_question_costs_one_bounded_wait_not_the_connection(
        server_kinds: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's output is closed without a word and its channel stays open: no answer, and the
    connection goes on (the wait is bounded by TIMEOUT_S in all)."""
    from app.remote.ssh import ownsession

    monkeypatch.setattr(ownsession, "TIMEOUT_S", 1.0)
    server_kinds.hang_file.write_text("labgpu-conn")  # this command never answers; its channel stays open
    try:
        t = server_kinds.connect("hang")().transport
        try:
            assert ownsession.ask_host(t) is None
            assert t.is_active()
            chan = t.open_session(timeout=10)  # the connection still works
            chan.exec_command("echo still here")
            assert chan.makefile("r").read().strip() == b"still here"
            chan.close()
        finally:
            t.close()
    finally:
        server_kinds.hang_file.write_text("")
