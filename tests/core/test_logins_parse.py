"""SSH login records parsed as sshd, rsyslog, journald and util-linux's last write them (issue 27).

The first tests read the log of a REAL OpenSSH sshd (``-E FILE``, LogLevel VERBOSE) after real
logins from two loopback source addresses, with a key, a wrong password and an attacker's user name
that carries a forged "from 1.2.3.4 port 22"."""

from __future__ import annotations

import ipaddress
import json
import os
import random
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import paramiko
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app.core.loginfailed import FailedLogins
from app.core.logins import (
    MAX_LINE,
    HostContext,
    LoginEvent,
    ParseStats,
    parse_journal_json,
    parse_last_line,
    parse_sshd_log_line,
    parse_sshd_message,
    parse_syslog_line,
)
from tests.fixtures import leftovers
from tests.fixtures.sshd import SSHD, TEST_PASSWORD, TEST_USER, _keygen, ensure_test_user, fingerprint_of_pub, free_port

FORGED = "x from 1.2.3.4 port 22"
UTC = timezone.utc
CST = timezone(timedelta(hours=8))
FP = "SHA256:" + "A" * 43


def ctx_at(now: datetime, tz: timezone = UTC, offset: float = 0.0) -> HostContext:
    return HostContext(now.astimezone(tz), tz, offset)


CTX = ctx_at(datetime(2026, 12, 6, 0, 0, tzinfo=UTC))


# -- a real sshd ---------------------------------------------------------------------------------------
class RealLog:
    def __init__(self, text: str, client_fp: str, own_connection: str) -> None:
        self.text = text
        self.client_fp = client_fp
        self.own_connection = own_connection  # $SSH_CONNECTION of the 127.0.0.1 key login

    def events(self) -> list[LoginEvent]:
        out = [parse_sshd_log_line(line, CTX, None) for line in self.text.splitlines(keepends=True)]
        return [e for e in out if e is not None]


def _password_attempt(port: int, source: str, user: str, tries: int = 1) -> None:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    transport = paramiko.Transport(sock)
    try:
        transport.start_client(timeout=10)
        for _ in range(tries):
            with pytest.raises(paramiko.AuthenticationException):
                transport.auth_password(user, "wrong-password-" + TEST_PASSWORD)
    finally:
        transport.close()


@pytest.fixture(scope="module")
def real_log() -> Iterator[RealLog]:
    if not os.path.exists(SSHD) or os.geteuid() != 0 or shutil.which("ssh") is None:
        pytest.fail("this test needs root, openssh-server and openssh-client")
    ensure_test_user()
    work = Path(tempfile.mkdtemp(prefix="labgpu-logins-"))
    work.chmod(0o755)
    host_key, client_key = work / "host_key", work / "client_key"
    _keygen(host_key)
    client_pub = _keygen(client_key)
    (work / "authorized_keys").write_text(client_pub + "\n")
    (work / "authorized_keys").chmod(0o644)
    port, log = free_port(), work / "sshd.log"
    cfg = work / "sshd_config"
    cfg.write_text("\n".join([
        "ListenAddress 127.0.0.1", f"Port {port}", f"HostKey {host_key}", "PidFile none", "UsePAM no",
        "StrictModes no", f"AuthorizedKeysFile {work / 'authorized_keys'}", "PasswordAuthentication yes",
        "KbdInteractiveAuthentication no", "LogLevel VERBOSE", "UseDNS no", "MaxAuthTries 2", "",
    ]))
    Path("/run/sshd").mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([SSHD, "-D", "-E", str(log), "-f", str(cfg)], stdin=subprocess.DEVNULL,
                            preexec_fn=leftovers.peer_preexec())  # noqa: PLW1509
    try:
        deadline = time.monotonic() + 10
        while "Server listening" not in (log.read_text() if log.exists() else ""):
            assert proc.poll() is None and time.monotonic() < deadline, "sshd did not start"
            time.sleep(0.02)
        ssh = ["ssh", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
               "-o", "LogLevel=ERROR", "-i", str(client_key), "-p", str(port)]
        first = subprocess.run([*ssh, "-b", "127.0.0.2", f"{TEST_USER}@127.0.0.1", "true"], capture_output=True,
                               text=True, timeout=30)
        assert first.returncode == 0, first.stderr
        own = subprocess.run([*ssh, "-b", "127.0.0.1", f"{TEST_USER}@127.0.0.1", "echo $SSH_CONNECTION"],
                             capture_output=True, text=True, timeout=30)
        assert own.returncode == 0, own.stderr
        forged = subprocess.run([*ssh, "-b", "127.0.0.2", "-l", FORGED, "127.0.0.1", "true"], capture_output=True,
                                text=True, timeout=30)
        assert forged.returncode != 0
        _password_attempt(port, "127.0.0.2", TEST_USER)
        _password_attempt(port, "127.0.0.1", FORGED)
        _password_attempt(port, "127.0.0.2", TEST_USER, tries=2)  # MaxAuthTries 2: "maximum … exceeded"
        deadline = time.monotonic() + 10
        while log.read_text().count("Connection closed by") < 3 or "maximum authentication" not in log.read_text():
            # sshd writes these as the clients go
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.02)
        yield RealLog(log.read_bytes().decode("utf-8", "replace"), fingerprint_of_pub(client_pub), own.stdout.strip())
    finally:
        proc.terminate()
        proc.wait(10)
        shutil.rmtree(work, ignore_errors=True)


def test_real_sshd_log_has_no_timestamp_and_ends_lines_with_crlf(real_log: RealLog) -> None:
    line = next(s for s in real_log.text.splitlines(keepends=True) if s.startswith("Accepted publickey"))
    assert line.endswith("\r\n")  # OpenSSH 9.2 -E: "MSG\r\n", nothing before MSG
    ev = parse_sshd_log_line(line, CTX, None)
    assert ev is not None and ev.time is None and ev.origin == "sshd-log"


def test_real_sshd_accepted_keys_from_both_loopback_addresses(real_log: RealLog) -> None:
    accepted = [e for e in real_log.events() if e.accepted]
    assert [e.source for e in accepted] == ["127.0.0.2", "127.0.0.1"]
    for e in accepted:
        assert (e.user, e.method, e.key_type, e.key_fp) == (TEST_USER, "publickey", "ED25519", real_log.client_fp)
        assert 0 < e.port <= 65535 and not e.invalid_user
    # the own session's SSH_CONNECTION names the same address and port sshd logged
    src, src_port = real_log.own_connection.split()[:2]
    assert (accepted[1].source, accepted[1].port) == (src, int(src_port))


def test_real_sshd_forged_user_never_gives_the_forged_address(real_log: RealLog) -> None:
    events = real_log.events()
    assert all(e.source in ("127.0.0.1", "127.0.0.2") for e in events)
    assert "1.2.3.4" in real_log.text  # the forgery is in the log, only never taken as a source
    forged = [e for e in events if e.user == FORGED]
    kinds = {(e.kind, e.source) for e in forged}
    assert ("invalid-user", "127.0.0.2") in kinds and ("closed-preauth", "127.0.0.2") in kinds
    assert ("failed", "127.0.0.1") in kinds and ("invalid-user", "127.0.0.1") in kinds
    assert all(e.invalid_user and not e.accepted for e in forged)


def test_real_sshd_failed_passwords_and_max_attempts(real_log: RealLog) -> None:
    failed = [e for e in real_log.events() if e.kind == "failed" and e.user == TEST_USER]
    assert len(failed) == 3 and {e.source for e in failed} == {"127.0.0.2"}
    assert all(e.method == "password" and not e.accepted and not e.key_fp for e in failed)
    maxed = [e for e in real_log.events() if e.kind == "max-attempts"]
    assert [(e.user, e.source) for e in maxed] == [(TEST_USER, "127.0.0.2")]
    summary = FailedLogins()
    for e in real_log.events():
        summary.add(e)
    # one count per try: each "Failed …" line, plus each connection that only said "Invalid user" /
    # "Connection closed" / "maximum attempts" (sshd writes several lines for one refused try)
    refused = [e for e in real_log.events() if not e.accepted]
    tried = {(e.source, e.port) for e in refused if e.kind == "failed"}
    others = {(e.source, e.port) for e in refused if e.kind != "failed"} - tried
    assert summary.count == len([e for e in refused if e.kind == "failed"]) + len(others)
    assert summary.count < len(refused)
    assert dict(summary.top_sources())["127.0.0.2"] > 0 and "1.2.3.4" not in dict(summary.top_sources())


# -- sshd's messages -------------------------------------------------------------------------------
@pytest.mark.parametrize(("msg", "want"), [
    (f"Accepted publickey for ubuntu from 203.0.113.9 port 50122 ssh2: ED25519 {FP}",
     ("ubuntu", "publickey", "203.0.113.9", 50122, True, False, "ED25519", FP)),
    ("Accepted password for ubuntu from 2001:db8::7 port 2 ssh2",
     ("ubuntu", "password", "2001:db8::7", 2, True, False, "", "")),
    ("Accepted keyboard-interactive/pam for ubuntu from 10.0.0.1 port 3 ssh2",
     ("ubuntu", "keyboard-interactive", "10.0.0.1", 3, True, False, "", "")),
    ("Failed password for invalid user admin from 198.51.100.4 port 4 ssh2",
     ("admin", "password", "198.51.100.4", 4, False, True, "", "")),
    (f"Failed publickey for root from 198.51.100.4 port 5 ssh2: RSA {FP}",
     ("root", "publickey", "198.51.100.4", 5, False, False, "RSA", FP)),
    ("Failed none for invalid user oracle from 198.51.100.4 port 6 ssh2",
     ("oracle", "none", "198.51.100.4", 6, False, True, "", "")),
    ("error: maximum authentication attempts exceeded for invalid user a b from 198.51.100.4 port 7 ssh2 [preauth]",
     ("a b", "", "198.51.100.4", 7, False, True, "", "")),
    ("Connection closed by authenticating user root 198.51.100.4 port 8 [preauth]",
     ("root", "", "198.51.100.4", 8, False, False, "", "")),
    ("Failed frobnicate for root from 198.51.100.4 port 9 ssh2",
     ("root", "", "198.51.100.4", 9, False, False, "", "")),
    (f"Accepted publickey for u from 192.0.2.1 port 10 ssh2: ED25519-CERT {FP} ID alice (serial 3) CA ED25519 {FP}",
     ("u", "publickey", "192.0.2.1", 10, True, False, "ED25519-CERT", FP)),
    (f'Accepted hostbased for u from 192.0.2.1 port 11 ssh2: ED25519 {FP}, client user "v", client host "h"',
     ("u", "hostbased", "192.0.2.1", 11, True, False, "ED25519", FP)),
    ("Accepted publickey for u from 192.0.2.1 port 12 ssh2: RSA MD5:" + ":".join(["ab"] * 16),
     ("u", "publickey", "192.0.2.1", 12, True, False, "", "")),
    ("Accepted publickey for u from 192.0.2.1 port 13 ssh2: ED25519 SHA256:short",
     ("u", "publickey", "192.0.2.1", 13, True, False, "", "")),
])
def test_auth_results(msg: str, want: tuple[object, ...]) -> None:
    p = parse_sshd_message(msg)
    assert p is not None
    assert (p.user, p.method, p.source, p.port, p.accepted, p.invalid_user, p.key_type, p.key_fp) == want


@pytest.mark.parametrize("msg", [
    "Postponed publickey for u from 1.2.3.4 port 5 ssh2 [preauth]",
    "Partial publickey for u from 1.2.3.4 port 5 ssh2: ED25519 " + FP,
    "Server listening on 0.0.0.0 port 22.",
    "Connection from 1.2.3.4 port 5 on 10.0.0.1 port 22 rdomain \"\"",
    "Accepted publickey for u from somehost.example port 5 ssh2",  # never a name as a source
    "Accepted password for u from 1.2.3.4 port 99999 ssh2",
    "Accepted password for u from 1.2.3.4 port 5 ssh2 trailing",
    "Received disconnect from 1.2.3.4 port 5:11: Bye Bye [preauth]",
])
def test_other_messages_are_none(msg: str) -> None:
    assert parse_sshd_message(msg) is None


def test_forged_fields_anchor_at_the_end() -> None:
    user = "root from 1.2.3.4 port 22 ssh2: ED25519 " + FP + " for x"
    p = parse_sshd_message(f"Failed password for invalid user {user} from 203.0.113.5 port 4711 ssh2")
    assert p is not None and (p.user, p.source, p.port, p.key_fp) == (user[:64], "203.0.113.5", 4711, "")
    cert_id = f"z from 6.6.6.6 port 1 ssh2: ED25519 {FP} ID q"  # a self-made certificate's key ID
    p = parse_sshd_message(f"Failed publickey for root from 198.51.100.2 port 3 ssh2: ED25519-CERT {FP} ID {cert_id} "
                           f"(serial 0) CA ED25519 {FP}")
    assert p is not None and (p.user, p.source, p.port, p.key_type) == ("root", "198.51.100.2", 3, "ED25519-CERT")
    user = f"a from 1.2.3.4 port 22 ssh2: ED25519 {FP}"  # a ":" (OpenSSH itself cuts the name there)
    p = parse_sshd_message(f"Failed publickey for {user} from 198.51.100.2 port 3 ssh2: RSA {FP}")
    assert p is not None and (p.user, p.source, p.key_type) == (user[:64], "198.51.100.2", "RSA")
    p = parse_sshd_message(f'Failed hostbased for u from 198.51.100.2 port 3 ssh2: ED25519 {FP}, client user "v", '
                           f'client host "h from 6.6.6.6 port 1 ssh2"')
    assert p is not None and (p.user, p.source, p.key_fp) == ("u", "198.51.100.2", FP)
    p = parse_sshd_message("Failed password for a from 1.2.3.4 port 22 ssh2 b from 198.51.100.2 port 3 ssh2")
    assert p is not None and (p.user, p.source) == ("a from 1.2.3.4 port 22 ssh2 b", "198.51.100.2")
    p = parse_sshd_message("Invalid user a from 1.2.3.4 port 22 from 9.9.9.9 port 1 from ::1 port 5")
    assert p is not None and (p.source, p.port) == ("::1", 5)
    p = parse_sshd_message("Connection closed by invalid user 1.2.3.4 port 2 198.51.100.1 port 3 [preauth]")
    assert p is not None and (p.user, p.source) == ("1.2.3.4 port 2", "198.51.100.1")


# -- syslog ----------------------------------------------------------------------------------------
def test_traditional_syslog_line_in_host_time_zone() -> None:
    ctx = ctx_at(datetime(2026, 12, 6, 8, 0, tzinfo=CST), CST)
    ev = parse_syslog_line(f"Dec  5 23:50:28 gpu-1 sshd[123]: Accepted publickey for ubuntu from 203.0.113.9 "
                           f"port 50122 ssh2: ED25519 {FP}", ctx)
    assert ev is not None and ev.origin == "syslog" and ev.source == "203.0.113.9"
    assert ev.time == datetime(2026, 12, 5, 15, 50, 28, tzinfo=UTC)


def test_rfc3339_syslog_and_sshd_session_identifier() -> None:
    for ident in ("sshd[1]", "sshd-session[99]", "sshd-auth[7]", "sshd"):
        ev = parse_syslog_line(f"2026-12-05T23:50:28.123456+08:00 gpu-1 {ident}: Failed password for root from "
                               "198.51.100.4 port 4 ssh2", CTX)
        assert ev is not None and ev.time == datetime(2026, 12, 5, 15, 50, 28, 123456, tzinfo=UTC)


def test_year_rollover_host_in_january_reads_december() -> None:
    ctx = ctx_at(datetime(2027, 1, 2, 9, 0, tzinfo=CST), CST)
    dec = parse_syslog_line("Dec 31 23:59:59 h sshd[1]: Accepted password for u from 10.0.0.1 port 5 ssh2", ctx)
    jan = parse_syslog_line("Jan  2 08:00:00 h sshd[1]: Accepted password for u from 10.0.0.1 port 5 ssh2", ctx)
    assert dec is not None and dec.time == datetime(2026, 12, 31, 15, 59, 59, tzinfo=UTC)
    assert jan is not None and jan.time == datetime(2027, 1, 2, 0, 0, tzinfo=UTC)


def test_host_clock_three_hours_fast_is_corrected() -> None:
    true_now = 1_796_000_000.0
    ctx = HostContext.from_probe(true_now + 3 * 3600, "+0800", true_now)
    assert ctx.clock_offset_s == pytest.approx(10800) and ctx.note == ""
    assert ctx.host_now.utcoffset() == timedelta(hours=8)
    ev = parse_syslog_line("2026-12-05T23:50:28+08:00 h sshd[1]: Accepted password for u from 10.0.0.1 port 5 ssh2",
                           ctx)
    assert ev is not None and ev.time == datetime(2026, 12, 5, 12, 50, 28, tzinfo=UTC)


@pytest.mark.parametrize(("text", "hours"), [("+0800", 8.0), ("-0530", -5.5), ("+08:00", 8.0), ("+2500", None),
                                              ("garbage", None), ("", None), ("+08", None)])
def test_probe_offsets(text: str, hours: float | None) -> None:
    ctx = HostContext.from_probe(1_796_000_000.0, text, 1_796_000_000.0)
    offset = ctx.host_now.utcoffset()
    assert offset is not None
    if hours is None:
        assert offset == timedelta(0) and "UTC assumed" in ctx.note
    else:
        assert offset == timedelta(hours=hours) and ctx.note == ""


def test_probe_with_nonsense_epochs_is_taken_as_right() -> None:
    ctx = HostContext.from_probe(float("nan"), "+0000", 1_796_000_000.0)
    assert ctx.clock_offset_s == 0 and ctx.note


@pytest.mark.parametrize("line", [
    "Dec  5 23:50:28 h sudo:   root : TTY=pts/0 ; COMMAND=/bin/echo sshd[1]: Accepted password for u from "
    "10.0.0.1 port 5 ssh2",
    "Dec  5 23:50:28 h logger: sshd[1]: Accepted password for u from 10.0.0.1 port 5 ssh2",
    "Dec  5 23:50:28 h not-sshd[1]: Accepted password for u from 10.0.0.1 port 5 ssh2",
    "Dec  5 23:50:28 h CRON[1]: pam_unix(cron:session): session opened for user root",
    "2026-12-05T23:50:28+00:00 h sshdx[1]: Accepted password for u from 10.0.0.1 port 5 ssh2",
    "sshd[1]: Accepted password for u from 10.0.0.1 port 5 ssh2",
    "",
])
def test_lines_that_mimic_sshd_are_not_logins(line: str) -> None:
    assert parse_syslog_line(line, CTX) is None


def test_control_and_bidi_characters_are_made_plain() -> None:
    user = "evil\x1b[31m\u202eresu\u2066\x00"
    ev = parse_syslog_line(f"Dec  5 23:50:28 h sshd[1]: Failed password for invalid user {user} from 10.0.0.1 "
                           "port 5 ssh2", CTX)
    assert ev is not None and ev.user == "evil?[31m?resu??"
    assert all(c.isprintable() for c in ev.line) and "\u202e" not in ev.line


def test_huge_lines_are_cut_counted_and_never_give_a_login() -> None:
    stats = ParseStats()
    huge = ("Dec  5 23:50:28 h sshd[1]: Failed password for invalid user " + "A" * 1_000_000
            + " from 10.0.0.1 port 5 ssh2")
    assert parse_syslog_line(huge, CTX, stats=stats) is None
    assert parse_sshd_log_line("Invalid user " + "x" * 1_000_000 + " from 10.0.0.1 port 5", CTX, None,
                               stats=stats) is None
    assert stats.lines_cut == 2 and stats.chars_dropped > 1_900_000
    # a reader that cut a line at MAX_LINE hands over exactly MAX_LINE characters: its end is not sshd's
    cert = f"Failed publickey for root from 198.51.100.2 port 3 ssh2: ED25519-CERT {FP} ID " + "k" * 5000
    forged_end = " from 6.6.6.6 port 1 ssh2"
    cut_by_reader = cert[: MAX_LINE - len(forged_end)] + forged_end
    assert len(cut_by_reader) == MAX_LINE
    assert parse_sshd_log_line(cut_by_reader, CTX, None) is None and parse_sshd_message(cut_by_reader) is None
    near = "Invalid user " + "u" * (MAX_LINE - 40) + " from 10.0.0.1 port 5"
    ev = parse_sshd_log_line(near, CTX, None)
    assert ev is not None and len(ev.user) == 64 and len(ev.line) == 300


# -- the journal -----------------------------------------------------------------------------------
def _journal(message: object, ident: str = "sshd", stamp: str = "1796514628123456") -> str:
    return json.dumps({"__CURSOR": "s=abc;i=1f", "__REALTIME_TIMESTAMP": stamp, "SYSLOG_IDENTIFIER": ident,
                       "_PID": "123", "MESSAGE": message})


def test_journal_string_message_and_cursor() -> None:
    ev, cursor = parse_journal_json(_journal("Accepted password for u from 10.0.0.1 port 5 ssh2"), CTX)
    assert cursor == "s=abc;i=1f"
    assert ev is not None and ev.origin == "journal" and ev.source == "10.0.0.1"
    assert ev.time == datetime.fromtimestamp(1796514628.123456, UTC)


def test_journal_byte_array_message_and_sshd_session() -> None:
    raw = "Failed password for invalid user caf\xe9 from 10.0.0.9 port 5 ssh2".encode("latin-1")
    ev, _ = parse_journal_json(_journal(list(raw), ident="sshd-session"), CTX)
    assert ev is not None and ev.user == "caf\ufffd" and ev.source == "10.0.0.9" and ev.invalid_user


def test_journal_corrects_a_fast_host_clock() -> None:
    ctx = ctx_at(datetime(2026, 12, 6, tzinfo=UTC), UTC, offset=3 * 3600)
    ev, _ = parse_journal_json(_journal("Accepted password for u from 10.0.0.1 port 5 ssh2"), ctx)
    assert ev is not None and ev.time == datetime.fromtimestamp(1796514628.123456 - 10800, UTC)


@pytest.mark.parametrize("line", [
    _journal("Accepted password for u from 10.0.0.1 port 5 ssh2", ident="sudo"),
    _journal("sshd[1]: Accepted password for u from 10.0.0.1 port 5 ssh2", ident="su"),
    _journal(["not", "bytes"]),
    _journal([999, 1]),
    "[" * 100_000 + "]" * 100_000,
    "not json",
    "[]",
])
def test_journal_records_that_are_not_logins(line: str) -> None:
    ev, _ = parse_journal_json(line, CTX)
    assert ev is None


# -- last / lastb ----------------------------------------------------------------------------------
def test_last_lines() -> None:
    ctx = ctx_at(datetime(2026, 12, 6, tzinfo=UTC))
    ev = parse_last_line("labgpu-test pts/0        127.0.0.2        2026-12-05T23:50:28+08:00 - "
                         "2026-12-05T23:51:28+08:00  (00:01)", ctx, failed=False)
    assert ev is not None and (ev.user, ev.source, ev.accepted, ev.origin, ev.method, ev.port) == (
        "labgpu-test", "127.0.0.2", True, "wtmp", "", 0)
    assert ev.time == datetime(2026, 12, 5, 15, 50, 28, tzinfo=UTC)
    ev = parse_last_line("ubuntu   pts/1        2001:db8::1      2026-12-05T10:00:00+00:00   still logged in", ctx,
                         False)
    assert ev is not None and ev.source == "2001:db8::1"
    ev = parse_last_line("admin    ssh:notty    198.51.100.4     2026-12-05T10:00:00+00:00 - "
                         "2026-12-05T10:00:00+00:00  (00:00)", ctx, failed=True)
    assert ev is not None and (ev.accepted, ev.origin, ev.source) == (False, "btmp", "198.51.100.4")


def test_last_user_with_forged_fields_is_read_from_the_right() -> None:
    line = ("x pts/9 1.2.3.4 2026-01-01T00:00:00+00:00 - crash (00:00) ssh:notty    198.51.100.4     "
            "2026-12-05T10:00:00+00:00 - 2026-12-05T10:00:00+00:00  (00:00)")
    ev = parse_last_line(line, CTX, failed=True)
    assert ev is not None and ev.source == "198.51.100.4" and ev.user.startswith("x pts/9 1.2.3.4")


@pytest.mark.parametrize("line", [
    "reboot   system boot  6.1.0-13-amd64   2026-12-05T20:00:00+00:00   still running",
    "reboot   ~            0.0.0.0          2026-12-05T20:00:00+00:00 - 2026-12-05T20:00:00+00:00  (00:00)",
    "wtmp begins 2026-12-05T23:50:28+00:00",
    "btmp begins Sat Dec  5 23:50:28 2026",
    "",
    "   ",
])
def test_last_lines_skipped(line: str) -> None:
    assert parse_last_line(line, CTX, failed=False) is None


def test_last_local_login_has_no_source() -> None:
    ev = parse_last_line("root     tty1         0.0.0.0          2026-12-05T10:00:00+00:00   still logged in", CTX,
                         False)
    assert ev is not None and ev.source == ""


def test_real_last_output_of_a_wtmp_file(tmp_path: Path) -> None:
    if shutil.which("utmpdump") is None or shutil.which("last") is None:
        pytest.fail("util-linux (last, utmpdump) is needed")
    dump = ("[7] [04691] [ts/0] [labgpu-test] [pts/0       ] [127.0.0.2           ] [127.0.0.2      ] "
            "[2026-12-05T23:50:28,123456+00:00]\n"
            "[8] [04691] [    ] [           ] [pts/0       ] [                    ] [0.0.0.0        ] "
            "[2026-12-05T23:51:28,000000+00:00]\n"
            "[2] [00000] [~~  ] [reboot  ] [~           ] [6.1.0               ] [0.0.0.0        ] "
            "[2026-12-05T20:00:00,000000+00:00]\n")
    wtmp = tmp_path / "wtmp"
    with open(wtmp, "wb") as f:
        subprocess.run(["utmpdump", "-r"], input=dump.encode(), stdout=f, stderr=subprocess.DEVNULL, check=True)
    out = subprocess.run(["last", "-i", "-w", "--time-format", "iso", "-f", str(wtmp)], capture_output=True,
                         text=True, check=True, env={**os.environ, "TZ": "Asia/Shanghai"}).stdout
    events = [e for e in (parse_last_line(line, CTX, False) for line in out.splitlines()) if e is not None]
    assert [(e.user, e.source, e.time) for e in events] == [
        ("labgpu-test", "127.0.0.2", datetime(2026, 12, 5, 23, 50, 28, tzinfo=UTC))]


# -- the failed-login summary ----------------------------------------------------------------------
def _fail(source: str, user: str = "root", t: datetime | None = None) -> LoginEvent:
    return LoginEvent(t, user, "password", source, 22, False, False, "", "", "journal", "", "failed")


def test_failed_logins_5000_from_50_addresses() -> None:
    summary = FailedLogins()
    base = datetime(2026, 12, 5, tzinfo=UTC)
    counts = {f"198.51.100.{i}": 0 for i in range(50)}
    for n in range(5000):
        i = (n * 7) % 50
        weight_pick = i if n % 3 else (n % 5)  # addresses 0..4 get extra
        addr = f"198.51.100.{weight_pick}"
        counts[addr] += 1
        summary.add(_fail(addr, user=f"user{n % 3}", t=base + timedelta(seconds=n)))
    summary.add(LoginEvent(None, "u", "publickey", "10.0.0.1", 5, True, False, "", "", "journal", "", "accepted"))
    assert summary.count == 5000
    assert summary.first == base and summary.last == base + timedelta(seconds=4999)
    assert summary.distinct_sources() == 50 and summary.distinct_exact
    want = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    assert summary.top_sources() == want
    assert summary.top_users(2) == [("user0", 1667), ("user1", 1667)]
    js = summary.to_json()
    assert js["count"] == 5000 and js["top_sources"] == [{"source": s, "count": c} for s, c in want]
    json.dumps(js)


def test_failed_logins_million_random_sources_stay_bounded() -> None:
    rng = random.Random(27)
    summary = FailedLogins()
    heavy = "203.0.113.66"
    for n in range(1_000_000):
        source = heavy if n % 20 == 0 else str(ipaddress.IPv4Address(rng.getrandbits(32)))
        summary.add(_fail(source, user=f"u{rng.getrandbits(20)}"))
    seen, sources, users = summary.tracked_sizes()
    assert summary.count == 1_000_000
    assert seen == FailedLogins.DISTINCT_CAP and not summary.distinct_exact
    assert sources <= FailedLogins.TOP_CAP and users <= FailedLogins.TOP_CAP
    top = summary.top_sources(1)
    assert top[0][0] == heavy and 50_000 - 1_000_000 // (FailedLogins.TOP_CAP + 1) <= top[0][1] <= 50_000


# -- no line makes a parser raise or invent a source -------------------------------------------------
_words = st.sampled_from(["Accepted ", "Failed ", "password ", "publickey ", "for ", "invalid user ", "from ",
                          "port ", "22 ", "ssh2", ": ", "1.2.3.4 ", "::1 ", "::ffff:10.0.0.1 ", "[preauth]",
                          "Invalid user ", "Connection closed by ", "sshd[1]: ", "Dec  5 23:50:28 h ",
                          "2026-12-05T23:50:28+08:00 ", " - ", "(00:00)", "pts/0 ", "\r\n", "\u202e", "ED25519 ",
                          FP + " ", "error: ", "maximum authentication attempts exceeded for "])
_lines = st.lists(st.one_of(_words, st.text(max_size=8)), max_size=30).map("".join)


def _sources_ok(ev: LoginEvent | None, line: str) -> None:
    if ev is None or not ev.source:
        return
    addr = ipaddress.ip_address(ev.source)
    raw = line.replace("\r", " ").replace("\n", " ").split(" ")
    tokens = {v for t in raw for v in (t, t.strip(",[]()"), t.rstrip(":,[]()"))}
    parsed = set()
    for t in tokens:
        try:
            a = ipaddress.ip_address(t)
        except ValueError:
            continue
        parsed.add(a.ipv4_mapped if isinstance(a, ipaddress.IPv6Address) and a.ipv4_mapped else a)
    assert addr in parsed


@given(_lines)
@example("Invalid user x from 1.2.3.4 port 22 from 127.0.0.1 port 36466")
@example("Dec  5 23:50:28 h sshd[1]: Accepted password for u from ::ffff:10.0.0.1 port 5 ssh2")
def test_any_line_never_raises_and_sources_are_real(line: str) -> None:
    _sources_ok(parse_sshd_log_line(line, CTX, CTX.host_now), line)
    _sources_ok(parse_syslog_line(line, CTX), line)
    _sources_ok(parse_last_line(line, CTX, True), line)
    ev, _ = parse_journal_json(line, CTX)
    _sources_ok(ev, line)
    msg = json.dumps({"SYSLOG_IDENTIFIER": "sshd", "MESSAGE": line, "__REALTIME_TIMESTAMP": "1"})
    ev, _ = parse_journal_json(msg, CTX)
    _sources_ok(ev, line)
    p = parse_sshd_message(line)
    if p is not None:
        assert p.source and ipaddress.ip_address(p.source)


# -- the one-pass shape agrees with the general path ---------------------------------------------------
@settings(max_examples=300, deadline=None)
@given(verb=st.sampled_from(["Accepted", "Failed"]),
       method=st.sampled_from(["publickey", "password", "keyboard-interactive/pam", "hostbased", "none", "weird"]),
       invalid=st.booleans(),
       user=st.lists(st.sampled_from(list("abz09_-.:@ \x1b") + ["from", "port", " from 1.2.3.4 port 22", "ssh2"]),
                     min_size=1, max_size=12).map("".join),
       addr=st.sampled_from(["203.0.113.9", "2001:db8::7", "::ffff:10.0.0.1", "0.0.0.0", "host.example", "1.2.3"]),
       port=st.integers(min_value=0, max_value=70000),
       key=st.sampled_from(["", f": ED25519 {FP}", f": RSA {FP}", ": RSA SHA256:short", f": ED25519 {FP} extra"]))
def test_the_one_pass_shape_reads_what_the_general_path_reads(verb, method, invalid, user, addr, port, key,
                                                               ) -> None:
    import app.core.logins as lg

    msg = f"{verb} {method} for {'invalid user ' if invalid else ''}{user} from {addr} port {port} ssh2{key}"
    fast = lg.parse_sshd_message(msg)
    original = lg._fast_auth
    try:
        lg._fast_auth = lambda _m: False  # type: ignore[assignment]
        general = lg.parse_sshd_message(msg)
    finally:
        lg._fast_auth = original
    assert fast == general, msg
