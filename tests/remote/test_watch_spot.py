"""Spot notices: one notice per reclaim, one pull in flight per host, past and
far-future times ignored with a log line, overflowing times read as unreadable.

The reads go over SSH to the metadata service at its real addresses (tests/fixtures/metadata_service.py);
the instance's own clock (printed by the probe) decides what is past. Clouds post a notice about two
minutes ahead: AWS "a two-minute warning"
(https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/spot-instance-termination-notices.html),
Tencent's termination-time item about 2 minutes before (https://cloud.tencent.com/document/product/213/37970).
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta, timezone

import paramiko
import pytest

from app.core.hosts import HostRecord, HostStore
from app.core.paths import default_paths
from app.remote.hostkeys import KnownHosts
from app.remote.spotwatch import SpotNotice, SpotWatch, parse_answer
from app.remote.ssh import open_connection
from app.watch import Watcher
from tests.fixtures.metadata_service import MetadataLab

pytestmark = pytest.mark.usefixtures("private_home")


@pytest.fixture
def lab():
    with MetadataLab() as m:
        assert m.sshd is not None
        KnownHosts(default_paths()).add("127.0.0.1", m.port, paramiko.Ed25519Key.from_path(str(m.sshd.host_key)))
        HostStore().add(HostRecord(name="spot1", hostname="127.0.0.1", port=m.port, user=m.sshd.user,
                                   key_path=str(m.sshd.client_key), auth="key"))
        yield m


def _z(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.parametrize("tool", ["python3", "curl"])
def test_past_and_far_future_reclaim_times_are_ignored_with_a_log_line(lab, tool, caplog):
    now = datetime.now(timezone.utc).replace(microsecond=0)
    conn = open_connection("spot1")
    try:
        sw = SpotWatch("spot1", "aws", lambda: conn, lambda n: None)
        sw.tool = tool
        caplog.set_level(logging.WARNING, logger="app.remote.spotwatch")
        lab.set_aws("terminate", _z(now - timedelta(hours=1)))  # an old notice left behind
        assert sw.poll_once() is None
        lab.set_aws("terminate", _z(now + timedelta(days=3)))  # no cloud posts a notice 3 days ahead
        assert sw.poll_once() is None
        assert [why for _t, why in sw.ignored] == ["past", "far-future"]
        assert sum("ignored a past reclaim time" in r.message for r in caplog.records) == 1
        assert sum("ignored a far-future reclaim time" in r.message for r in caplog.records) == 1
        lab.set_aws("terminate", _z(now + timedelta(minutes=2)))  # the real two-minute warning
        n = sw.poll_once()
        assert n is not None and n.time == now + timedelta(minutes=2)
    finally:
        conn.close()


def test_an_overflowing_reclaim_time_is_read_as_unreadable(lab):
    for text in ("9999-12-31T23:59:59-08:00", "0001-01-01T00:00:00+08:00"):
        status, notice, why = parse_answer("tencent", f"NOW 1764806400\n{text}\nSTATUS 200\n")
        assert (status, notice) == (200, None) and why.startswith("unreadable notice"), (text, why)
    status, notice, why = parse_answer("aws", '{"action": "stop", "time": "9999-12-31T23:59:59-08:00"}\n'
                                              "STATUS 200\n")
    assert (status, notice) == (200, None) and why.startswith("unreadable notice")
    # over SSH: the watch says notices cannot be read (never a traceback, never "no notice")
    problems: list[str] = []
    conn = open_connection("spot1")
    try:
        sw = SpotWatch("spot1", "tencent", lambda: conn, lambda n: None, on_problem=problems.append)
        sw.tool = "python3"
        lab.set_tencent("9999-12-31T23:59:59-08:00")
        assert sw.poll_once() is None
        assert len(problems) == 1 and "unreadable notice" in problems[0]
    finally:
        conn.close()


def test_one_notice_per_reclaim_and_one_pull_in_flight_per_host(labgpu_home):
    """The same reclaim time twice (a spot watch restarted, or the window's and the tray's) is one
    notice; a new time while the pull still runs is said, but starts no second pull."""
    pulls: list[str] = []
    release = threading.Event()
    started = threading.Event()

    def sync(host: str, purpose: str) -> int:
        pulls.append(purpose)
        started.set()
        assert release.wait(60)
        return 1

    events = []
    w = Watcher(notify=events.append, sync_fn=sync, sleep=lambda _s: None)
    when = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(minutes=2)
    try:
        assert w.spot_notice("i-1", SpotNotice("aws", "terminate", when, "{}")) is not None
        assert started.wait(30)
        assert w.spot_notice("i-1", SpotNotice("aws", "terminate", when, "{}")) is None  # the same reclaim
        later = SpotNotice("aws", "stop", when + timedelta(seconds=30), "{}")
        assert w.spot_notice("i-1", later) is not None  # a new time is said…
        assert pulls == ["on-interruption"]  # …but the pull in flight is not doubled
    finally:
        release.set()
        w.close()
    assert [e.kind for e in events].count("spot-notice") == 2
    assert [e.kind for e in events].count("sync-done") == 1
