"""Spot-interruption watch over SSH against a metadata service at its real addresses (namespace)."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone

import paramiko
import pytest

from app.core.hosts import HostRecord, HostStore
from app.core.paths import default_paths
from app.core.providers import SpotNoticeSource
from app.remote.hostkeys import KnownHosts
from app.remote.spotwatch import SpotWatch, parse_answer, pick_tool
from app.remote.ssh import open_connection
from tests.fixtures.metadata_service import MetadataLab

pytestmark = pytest.mark.usefixtures("private_home")

# Reclaim times as a cloud posts them: about two minutes ahead of the instance's clock (a past or
# far-future time is ignored), so the tests' times are relative to now.
SOON = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(minutes=30)
SOON_Z = SOON.strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.fixture
def lab():
    with MetadataLab() as m:
        assert m.sshd is not None
        KnownHosts(default_paths()).add("127.0.0.1", m.port, paramiko.Ed25519Key.from_path(str(m.sshd.host_key)))
        HostStore().add(HostRecord(name="spot1", hostname="127.0.0.1", port=m.port, user=m.sshd.user,
                                   key_path=str(m.sshd.client_key), auth="key"))
        yield m


@pytest.mark.parametrize("tool", ["python3", "curl"])
def test_aws_imdsv2_token_first_404_then_a_notice_once(lab, tool):
    conn = open_connection("spot1")
    try:
        sw = SpotWatch("spot1", "aws", lambda: conn, lambda n: None)
        if tool == "curl":
            sw.tool = "curl"
        assert sw.poll_once() is None
        assert sw.tool == tool
        reqs = lab.requests()
        assert reqs[0].startswith("PUT 169.254.169.254 /latest/api/token")
        assert reqs[1].startswith("GET 169.254.169.254 /latest/meta-data/spot/instance-action")
        lab.set_aws("terminate", SOON_Z)
        n = sw.poll_once()
        assert n is not None and n.action == "terminate"
        assert n.time == SOON
        assert sw.poll_once() is None  # the same notice is reported once
    finally:
        conn.close()


@pytest.mark.parametrize("tool", ["python3", "curl"])
def test_tencent_termination_time_is_beijing_time(lab, tool):
    conn = open_connection("spot1")
    try:
        sw = SpotWatch("spot1", "tencent", lambda: conn, lambda n: None)
        sw.tool = tool
        assert sw.poll_once() is None
        assert any("metadata.tencentyun.com" in r and "termination-time" in r for r in lab.requests())
        lab.set_tencent((SOON + timedelta(hours=8)).strftime("%Y-%m-%d %H:%M:%S"))  # Beijing time
        n = sw.poll_once()
        assert n is not None and n.time == SOON
    finally:
        conn.close()


@pytest.mark.parametrize("tool", ["python3", "curl"])
def test_google_cloud_preempted_flag_with_its_header_is_one_stop_notice(lab, tool):
    """Google's metadata server answers instance/preempted only with "Metadata-Flavor: Google": FALSE, then
    TRUE once the Spot VM is being preempted; the watch reports that once (the flag stays TRUE), as a stop
    (LabGPU launches Spot VMs with instanceTerminationAction STOP)."""
    conn = open_connection("spot1")
    try:
        sw = SpotWatch("spot1", "gcp", lambda: conn, lambda n: None)
        sw.tool = tool
        problems: list[str] = []
        sw.on_problem = problems.append
        assert sw.poll_once() is None and problems == []  # FALSE: nothing pending, and no problem either
        assert any("metadata.google.internal /computeMetadata/v1/instance/preempted" in r for r in lab.requests())
        lab.set_gcp_preempted(True)
        n = sw.poll_once()
        assert n is not None and (n.provider, n.action) == ("gcp", "stop")
        assert abs((n.time - datetime.now(timezone.utc)).total_seconds()) < 3600
        assert sw.poll_once() is None and sw.poll_once() is None  # still TRUE: reported once
    finally:
        conn.close()


@pytest.mark.parametrize("tool", ["python3", "curl"])
def test_azure_scheduled_events_a_preempt_is_a_stop_notice_other_events_are_not(lab, tool):
    """Azure's Scheduled Events (asked with "Metadata: true"): a planned reboot is no reclaim; a Preempt event
    (a Spot eviction) is one stop notice at its NotBefore (an RFC 1123 time), reported once."""
    from email.utils import format_datetime

    conn = open_connection("spot1")
    try:
        sw = SpotWatch("spot1", "azure", lambda: conn, lambda n: None)
        sw.tool = tool
        assert sw.poll_once() is None
        assert any("/metadata/scheduledevents?api-version=2020-07-01" in r for r in lab.requests())
        reboot = {"EventId": "A1", "EventType": "Reboot", "ResourceType": "VirtualMachine", "Resources": ["vm1"],
                  "EventStatus": "Scheduled", "NotBefore": format_datetime(SOON, usegmt=True),
                  "EventSource": "Platform", "DurationInSeconds": -1, "Description": "planned maintenance"}
        lab.set_azure_events([reboot])
        assert sw.poll_once() is None
        lab.set_azure_events([reboot, {**reboot, "EventId": "P1", "EventType": "Preempt",
                                       "Description": "Spot eviction"}])
        n = sw.poll_once()
        assert n is not None and (n.provider, n.action, n.time) == ("azure", "stop", SOON)
        assert sw.poll_once() is None  # the same eviction: once
    finally:
        conn.close()


def test_a_flag_source_without_its_header_is_unreadable_not_quiet(lab):
    """The same path without the header is refused by the server (403): the watch says notices cannot be
    read instead of "no notice"."""
    import dataclasses

    from app.cloud.gcp.spec import SPOT_NOTICE

    conn = open_connection("spot1")
    try:
        problems: list[str] = []
        sw = SpotWatch("spot1", "gcp", lambda: conn, lambda n: None, on_problem=problems.append,
                       source=dataclasses.replace(SPOT_NOTICE, header=""))
        sw.tool = "python3"
        lab.set_gcp_preempted(True)
        assert sw.poll_once() is None
        assert len(problems) == 1 and "did not answer" in problems[0] and "403" in problems[0]
    finally:
        conn.close()


def test_watch_thread_reports_the_notice(lab):
    conn = open_connection("spot1")
    got = threading.Event()
    notices = []

    def on_notice(n):
        notices.append(n)
        got.set()

    sw = SpotWatch("spot1", "aws", lambda: conn, on_notice, interval_s=0.1)
    try:
        lab.set_aws("stop", SOON_Z)
        sw.start()
        assert got.wait(30)
        assert notices[0].action == "stop"
    finally:
        sw.stop()
        conn.close()


def test_parsing_and_tool_choice():
    assert pick_tool("/usr/bin/python3\n/usr/bin/curl\n") == "python3"
    assert pick_tool("/usr/bin/curl\n") == "curl"
    assert pick_tool("") is None
    assert parse_answer("aws", "Not Found\nSTATUS 404\n")[:2] == (404, None)
    status, notice, why = parse_answer("aws", "\nSTATUS 0 token\n")
    assert status == 0 and notice is None and "token" in why  # unreadable is not "no notice"
    status, notice, why = parse_answer("aws", "{garbage\nSTATUS 200\n")
    assert notice is None and "unreadable" in why
    status, notice, why = parse_answer("tencent", "bash: python3: not found")
    assert status == 0 and notice is None
    status, notice, why = parse_answer("gcp", "NOW 1700000000\nMaybe\nSTATUS 200\n")
    assert notice is None and "unreadable" in why
    status, notice, why = parse_answer("gcp", "NOW 1700000000\nTRUE\nSTATUS 200\n")
    assert notice is not None and notice.time == datetime.fromtimestamp(1700000000, timezone.utc)


# A provider declared from tests/ alone: its spot source is the metadata lab's Tencent path, read as
# an ISO timestamp in UTC (what Alibaba's .../instance/spot/termination-time answers).
TOY_SPOT = SpotNoticeSource("http://metadata.tencentyun.com/latest/meta-data/spot/termination-time",
                            format="timestamp", tz="UTC")


@pytest.fixture
def toy_spot():
    from app.cloud.registry import register_plugin, unregister_plugin
    from app.core.providers import Capabilities, ProviderSpec

    register_plugin(ProviderSpec("toyspot", "Toy Spot", capabilities=Capabilities(launch=True, spot=True),
                                 spot_notice=TOY_SPOT))
    yield "toyspot"
    unregister_plugin("toyspot")


@pytest.mark.parametrize("tool", ["python3", "curl"])
def test_a_toy_providers_declared_spot_source_is_polled_and_read(lab, toy_spot, tool):
    conn = open_connection("spot1")
    try:
        sw = SpotWatch("spot1", toy_spot, lambda: conn, lambda n: None)
        sw.tool = tool
        assert sw.source == TOY_SPOT
        assert sw.poll_once() is None
        assert not any("/api/token" in r for r in lab.requests())  # no token step declared
        lab.set_tencent(SOON_Z)
        n = sw.poll_once()
        assert n is not None and (n.provider, n.action) == (toy_spot, "terminate")
        assert n.time == SOON
    finally:
        conn.close()


def test_timestamp_formats_and_zones():
    alibaba_like = SpotNoticeSource("http://100.100.100.200/latest/meta-data/instance/spot/termination-time")
    assert alibaba_like.tz == "UTC"
    _s, n, _w = parse_answer("x", "2015-01-05T18:02:00Z\nSTATUS 200\n", alibaba_like)
    assert n is not None and n.time == datetime(2015, 1, 5, 18, 2, tzinfo=timezone.utc)
    _s, n, _w = parse_answer("x", "2015-01-05 18:02:00\nSTATUS 200\n", alibaba_like)  # no marker: tz
    assert n is not None and n.time == datetime(2015, 1, 5, 18, 2, tzinfo=timezone.utc)
    beijing = SpotNoticeSource("http://m/t", tz="+08:00")
    _s, n, _w = parse_answer("x", "2018-08-18 12:05:33\nSTATUS 200\n", beijing)
    assert n is not None and n.time == datetime(2018, 8, 18, 4, 5, 33, tzinfo=timezone.utc)
    _s, n, _w = parse_answer("x", "2018-08-18T12:05:33+08:00\nSTATUS 200\n", alibaba_like)  # its own zone
    assert n is not None and n.time == datetime(2018, 8, 18, 4, 5, 33, tzinfo=timezone.utc)
    for garbage in ("2026", "soon", "2018-08-18"):
        _s, n, why = parse_answer("x", f"{garbage}\nSTATUS 200\n", alibaba_like)
        assert n is None and "unreadable" in why
    with pytest.raises(ValueError):  # a provider without spot, or without a declared source
        SpotWatch("h", "lambda", lambda: None, lambda n: None)


def test_labgpu_watch_reports_a_spot_notice_of_a_running_spot_instance(lab, private_home):
    """`labgpu watch` polls every running spot instance of the ledger; a notice is one JSON event."""
    import json
    import os
    import subprocess
    import sys
    from dataclasses import dataclass, field
    from pathlib import Path

    from app.core.instances import Ledger
    from app.core.store import Store

    @dataclass(frozen=True)
    class Inst:
        id: str = "i-0123456789abcdef0"
        account: str = "lab"
        provider: str = "aws"
        region: str = "us-east-1"
        zone: str = "us-east-1a"
        instance_type: str = "g5.xlarge"
        state: str = "running"
        spot: bool = True
        public_ip: str = "127.0.0.1"
        private_ip: str = "10.0.0.5"
        price_per_hour: float | None = None
        currency: str = "USD"
        launched_at: datetime | None = None
        name: str = ""
        image_id: str = "ami-1"
        key_name: str = "other"
        raw_state: str = "running"
        tags: dict = field(default_factory=dict)

    assert lab.sshd is not None
    tags = {"labgpu:ssh-user": lab.sshd.user, "labgpu:ssh-key-path": str(lab.sshd.client_key)}
    Ledger(Store(paths=default_paths())).observe(Inst(tags=tags), price_per_hour=0.4, currency="USD")
    (private_home / ".ssh" / "config").write_text(f"Host 127.0.0.1\n    Port {lab.port}\n")
    lab.set_aws("terminate", SOON_Z)
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, "-m", "app", "watch", "--json"], cwd=root, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        ev = json.loads(line)
        assert ev["kind"] == "spot-notice" and ev["target_id"] == "i-0123456789abcdef0"
        assert ev["detail"]["relaunch"]["instance_type"] == "g5.xlarge" and ev["detail"]["relaunch"]["spot"]
        assert SOON.strftime("%Y-%m-%d %H:%M:%S UTC") in ev["message"]
        assert json.loads(proc.stdout.readline())["kind"] == "sync-none"  # no pull pair: says nothing was pulled
    finally:
        proc.terminate()
        proc.wait(timeout=60)
