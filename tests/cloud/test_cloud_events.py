"""Cloud API calls LabGPU did not make (issue 27): each cloud's event history read through its real plugin
against the peer, which records LabGPU's own calls as events; the test injects another user's call on a
LabGPU resource and a console login, and check_account shows exactly those as foreign."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.cloud.errors import PermissionError_
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core.accounts import Account, Credentials
from app.core.cloudevents import MAX_EVENTS, MAX_TEXT
from app.usecases.cloudaudit import alert_new, check_account
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

HOUR = timedelta(hours=1)


class Notices:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, str], str]] = []

    def notify(self, kind: str, params: dict[str, str], *, target: str, message: str = "") -> None:
        self.sent.append((kind, params, target))


# -- AWS ------------------------------------------------------------------------------------------
@pytest.fixture
def aws(secret_service, moto, labgpu_home):
    s = CloudService()
    s.accounts.add(Account("lab", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    yield s
    s.close()


def _since() -> datetime:
    return datetime.now(timezone.utc) - HOUR


def test_aws_foreign_stop_and_console_login_are_the_only_foreign_calls(aws, moto):
    entry = aws.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32")).entry
    aws.stop(entry.id)
    sg = next(a.resource for a in aws.audit.list() if a.action == "CreateSecurityGroup")
    trail = moto.strict.trail
    trail.inject("StopInstances", entry.id)
    trail.inject("AuthorizeSecurityGroupIngress", sg)
    trail.console_login()
    trail.inject("StopInstances", "i-0notlabgpu000000")  # someone else's instance: not LabGPU's business

    report = check_account(aws, "lab", _since())

    foreign = {(v.event.name, v.resource) for v in report.foreign}
    assert foreign == {("StopInstances", entry.id), ("AuthorizeSecurityGroupIngress", sg), ("ConsoleLogin", "")}
    own = {v.event.name for v in report.verdicts if v.by_labgpu}
    assert {"RunInstances", "StopInstances", "CreateSecurityGroup", "ImportKeyPair"} <= own
    assert all(not v.foreign for v in report.verdicts if v.by_labgpu)
    login = next(v for v in report.foreign if v.event.name == "ConsoleLogin")
    assert login.event.source_ip == "203.0.113.99" and "mallory" in login.event.actor


def test_aws_reads_every_region_the_account_has_instances_in(aws, moto):
    west = aws.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", region="us-west-2",
                                    ssh_from="198.51.100.7/32")).entry
    moto.strict.trail.inject("StopInstances", west.id, region="us-west-2")
    report = check_account(aws, "lab", _since())
    assert report.regions == ("us-east-1", "us-west-2")
    assert [(v.event.name, v.resource, v.event.region) for v in report.foreign] == [
        ("StopInstances", west.id, "us-west-2")]


def test_aws_alerts_each_foreign_call_once(aws, moto):
    entry = aws.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32")).entry
    moto.strict.trail.inject("StopInstances", entry.id)
    notices = Notices()
    first = alert_new(aws, check_account(aws, "lab", _since()), notices)
    second = alert_new(aws, check_account(aws, "lab", _since()), notices)
    assert [v.event.name for v in first] == ["StopInstances"] and second == []
    [(kind, params, target)] = notices.sent
    assert (kind, target, params["resource"], params["source"]) == ("cloud-foreign-call", "lab", entry.id,
                                                                    "198.51.100.7")
    # the alert's own audit row does not make the foreign call LabGPU's
    assert [v.event.name for v in check_account(aws, "lab", _since()).foreign] == ["StopInstances"]


def test_aws_paging_reads_every_page(aws, moto):
    entry = aws.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32")).entry
    for _ in range(120):
        moto.strict.trail.inject("StopInstances", entry.id)
    report = check_account(aws, "lab", _since())
    assert len(report.foreign) == 120
    tokens = [r.get("NextToken") for r in moto.strict.trail.lookups]
    assert len(tokens) >= 3 and tokens[0] is None and all(tokens[1:])
    assert all(r["MaxResults"] <= 50 and len(r["LookupAttributes"]) == 1 for r in moto.strict.trail.lookups)


def test_aws_refused_permission_names_the_permission(aws, moto):
    moto.strict.trail.denied = True
    with pytest.raises(PermissionError_) as err:
        check_account(aws, "lab", _since())
    text = err.value.one_line()
    assert "cloudtrail:LookupEvents" in text and "AccessDeniedException" in text


def test_aws_hostile_event_text_stays_plain_and_bounded(aws, moto):
    trail = moto.strict.trail
    evil = trail.inject("StopInstances", "i-0notlabgpu000000", user="x" * 10_000)
    evil["EventName"] = "Stop\x1b[31mInstances\u202e\n" + "N" * 10_000
    trail.inject_raw([dict(evil, EventId=str(n)) for n in range(100_000)])
    report = check_account(aws, "lab", _since())
    assert len(report.verdicts) == MAX_EVENTS and report.truncated
    ev = report.verdicts[0].event
    assert "\x1b" not in ev.name and "\u202e" not in ev.name and "\n" not in ev.name
    assert len(ev.name) <= 128 and len(ev.actor) <= MAX_TEXT


# -- Tencent Cloud ----------------------------------------------------------------------------------
def test_tencent_foreign_stop_and_console_login_are_the_only_foreign_calls(tencent_service, tencent_server):
    svc = tencent_service
    entry = svc.launch(LaunchOptions(account="lab", instance_type="GN7.2XLARGE32", ssh_from="198.51.100.7/32")).entry
    svc.stop(entry.id)
    sg = next(a.resource for a in svc.audit.list() if a.resource.startswith("sg-"))
    audit = tencent_server.audit
    audit.inject("StopInstances", entry.id)
    audit.inject("CreateSecurityGroupPolicies", sg)
    audit.console_login()
    audit.inject("StopInstances", "ins-notlabgpu")

    report = check_account(svc, "lab", _since())

    assert {(v.event.name, v.resource) for v in report.foreign} == {
        ("StopInstances", entry.id), ("CreateSecurityGroupPolicies", sg), ("ConsoleLogin", "")}
    assert {"RunInstances", "StopInstances", "CreateSecurityGroup", "CreateSecurityGroupPolicies",
            "ImportKeyPair"} <= {v.event.name for v in report.verdicts if v.by_labgpu}
    assert report.source.service == "Tencent CloudAudit"


def test_tencent_paging_and_seven_day_windows(tencent_service, tencent_server):
    svc = tencent_service
    entry = svc.launch(LaunchOptions(account="lab", instance_type="GN7.2XLARGE32", ssh_from="198.51.100.7/32")).entry
    for _ in range(75):
        tencent_server.audit.inject("StopInstances", entry.id)
    report = check_account(svc, "lab", datetime.now(timezone.utc) - timedelta(days=20))
    assert len(report.foreign) == 75
    spans = [r["EndTime"] - r["StartTime"] for r in tencent_server.audit.lookups]
    assert max(spans) <= 7 * 24 * 3600 and len(tencent_server.audit.lookups) >= 4  # 3 windows, one of 2 pages
    assert all(r["MaxResults"] <= 50 for r in tencent_server.audit.lookups)


def test_tencent_refused_permission_names_the_policy(tencent_service, tencent_server):
    tencent_server.audit.denied = True
    with pytest.raises(PermissionError_) as err:
        check_account(tencent_service, "lab", _since())
    assert "QcloudCloudAuditReadOnlyAccess" in err.value.one_line()


# -- Alibaba Cloud ----------------------------------------------------------------------------------
@pytest.fixture
def ali(secret_service, alibaba_server, labgpu_home):
    from tests.fixtures.alibaba_ecs_server import TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET

    alibaba_server.describes_per_transition = 0
    s = CloudService()
    s.accounts.add(Account("lab", "alibaba", "cn-hangzhou", f"http://{alibaba_server.endpoint}"),
                   Credentials(TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET))
    yield s
    s.close()


A10 = "ecs.gn7i-c8g1.2xlarge"


def test_alibaba_foreign_stop_and_console_signin_are_the_only_foreign_calls(ali, alibaba_server):
    entry = ali.launch(LaunchOptions(account="lab", instance_type=A10, zone="cn-hangzhou-h",
                                     ssh_from="198.51.100.7/32")).entry
    ali.stop(entry.id)
    sg = next(a.resource for a in ali.audit.list() if a.action == "CreateSecurityGroup")
    trail = alibaba_server.trail
    trail.inject("StopInstance", entry.id)
    trail.inject("AuthorizeSecurityGroup", sg)
    trail.console_login()
    trail.inject("StopInstance", "i-notlabgpu")

    report = check_account(ali, "lab", _since())

    assert {(v.event.name, v.resource) for v in report.foreign} == {
        ("StopInstance", entry.id), ("AuthorizeSecurityGroup", sg), ("ConsoleSignin", "")}
    assert {"RunInstances", "StopInstances", "CreateSecurityGroup"} <= {
        v.event.name for v in report.verdicts if v.by_labgpu}
    assert all(len(r["LookupAttribute.1.Key"]) and "LookupAttribute.2.Key" not in r for r in trail.lookups)


def test_alibaba_paging_and_refused_permission(ali, alibaba_server):
    for n in range(60):
        alibaba_server.trail.inject("StopInstance", f"i-other{n}")
    report = check_account(ali, "lab", _since())
    assert len(report.verdicts) == 60 and report.foreign == []
    assert sum(1 for r in alibaba_server.trail.lookups if r.get("NextToken")) >= 1
    alibaba_server.trail.denied = True
    with pytest.raises(PermissionError_) as err:
        check_account(ali, "lab", _since())
    assert "AliyunActionTrailReadOnlyAccess" in err.value.one_line()


# -- hostile text from Tencent and Alibaba ----------------------------------------------------------
def _assert_plain_and_bounded(report):
    assert len(report.verdicts) == MAX_EVENTS and report.truncated
    for v in report.verdicts[:50]:
        ev = v.event
        for text in (ev.name, ev.actor, ev.source_ip):
            assert not any(ch in text for ch in "\x1b\u202e\n\r\x00")
        assert len(ev.name) <= 128 and len(ev.actor) <= MAX_TEXT and len(ev.resources) <= 32


def test_tencent_hostile_event_text_stays_plain_and_bounded(tencent_service, tencent_server):
    evil = tencent_server.audit.inject("StopInstances", "ins-x", user="m\x1b]0;pwn\x07" + "u" * 10_000)
    evil["EventName"] = "Stop\u202eInstances\n\x00" + "N" * 10_000
    evil["Resources"] = {"ResourceType": "cvm", "ResourceName": ",".join(f"ins-{n}" for n in range(5000))}
    tencent_server.audit.inject_raw([dict(evil, EventId=str(n)) for n in range(100_000)])
    _assert_plain_and_bounded(check_account(tencent_service, "lab", _since()))


def test_alibaba_hostile_event_text_stays_plain_and_bounded(ali, alibaba_server):
    evil = alibaba_server.trail.inject("StopInstance", "i-x", user="m\x1b]0;pwn\x07" + "u" * 10_000)
    evil["eventName"] = "Stop\u202eInstance\r\n" + "N" * 10_000
    evil["resourceName"] = ";".join(f"i-{n}" for n in range(5000))
    alibaba_server.trail.inject_raw([dict(evil, eventId=str(n)) for n in range(100_000)])
    _assert_plain_and_bounded(check_account(ali, "lab", _since()))


def _launched_and_watched(aws):
    """An instance launched on ``lab``, and a watcher on a fake clock: (entry, clock, events seen, watcher)."""
    from app.watch.watcher import Watcher

    entry = aws.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32")).entry
    clock = [datetime.now(timezone.utc).timestamp()]
    seen: list = []
    return entry, clock, seen, Watcher(aws.paths, store=aws.store, clock=lambda: clock[0], notify=seen.append)


def test_the_watcher_reads_an_account_with_a_running_instance_and_alerts_a_foreign_stop_once(aws, moto):
    """The watcher (window, tray, ``labgpu watch``) reads the history of each account with an instance in its
    turn (every 15 minutes, on a fake clock here) and publishes a foreign call once as its event."""
    from app.core.vocab import GuardEventKind
    from app.watch.cloudauditwatch import CHECK_S, driver_of

    entry, clock, seen, watcher = _launched_and_watched(aws)
    try:
        driver = driver_of(watcher)
        assert driver.poll() == ["lab"]
        assert driver.wait_checks(1) and driver.failures["lab"] == ""
        assert seen == []  # LabGPU's own launch is not news
        moto.strict.trail.inject("StopInstances", entry.id)
        clock[0] += 60
        assert driver.poll() == []  # not its turn yet
        clock[0] += CHECK_S
        assert driver.poll() == ["lab"]
        assert driver.wait_checks(2) and driver.failures["lab"] == ""
        assert [(ev.kind, ev.target_id) for ev in seen] == [(GuardEventKind.CLOUD_FOREIGN, "lab")]
        assert seen[0].detail["resource"] == entry.id
        clock[0] += CHECK_S + 1
        assert driver.poll() == ["lab"] and driver.wait_checks(3)
        assert len(seen) == 1  # once
        alerts = [a for a in aws.audit.list() if a.action == "cloud-foreign-call"]
        assert len(alerts) == 1  # one audit row: the use case's, not a second from the watcher
    finally:
        watcher.close()


def test_the_watcher_does_not_call_labgpus_own_call_foreign_while_its_answer_is_on_the_way(aws, moto):
    """The watcher stops and terminates instances itself (guards, jobs): the cloud logs such a call before
    LabGPU writes its audit row (with the call's request id) on the answer. A check that reads the history in
    that moment must not alert LabGPU's own call: the last minutes are left to the next check."""
    import json

    from app.watch.cloudauditwatch import CHECK_S, driver_of

    entry, clock, seen, watcher = _launched_and_watched(aws)
    try:
        driver = driver_of(watcher)
        # LabGPU's StopInstances, logged by the cloud; LabGPU has not had the answer yet
        logged = moto.strict.trail.inject("StopInstances", entry.id, user="labgpu-student")
        assert driver.poll() == ["lab"] and driver.wait_checks(1) and driver.failures["lab"] == ""
        assert seen == [], [e.message for e in seen]
        # the answer arrives: LabGPU's audit row with the call's request id
        aws.audit.record(account="lab", provider="aws", action="stop", resource=entry.id,
                         request_id=json.loads(logged["CloudTrailEvent"])["requestID"])
        clock[0] += CHECK_S + 1
        assert driver.poll() == ["lab"] and driver.wait_checks(2) and driver.failures["lab"] == ""
        assert seen == [], [e.message for e in seen]  # read now, and judged LabGPU's
        assert not [a for a in aws.audit.list() if a.action == "cloud-foreign-call"]
        # a stranger's stop is still alerted, at the check after it settled
        moto.strict.trail.inject("StopInstances", entry.id)
        clock[0] += CHECK_S + 1
        assert driver.poll() == ["lab"] and driver.wait_checks(3)
        assert [ev.detail["resource"] for ev in seen] == [entry.id]
    finally:
        watcher.close()
