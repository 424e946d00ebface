"""The cloud-enforced backstop of a maximum runtime against the strict peers: what each cloud is sent
(Tencent RunInstances.ActionTimer, Alibaba AutoReleaseTime, AWS InstanceInitiatedShutdownBehavior with a
shutdown scheduled by the user data), what is read back after the launch, what is recorded for the guard
badge, a refused backstop (launched without it, recorded with why) and a launch without a maximum runtime
(nothing sent, nothing recorded)."""

from __future__ import annotations

import base64
from datetime import datetime, timedelta, timezone

import boto3
import pytest

from app.cloud.alibaba import AlibabaProvider
from app.cloud.base import Account, Credentials, LaunchRequest, get_provider
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core import ledgerdb
from app.core.backstops import BackstopStore, plan_backstop
from app.core.guards import GuardConfig
from tests.fixtures.alibaba_ecs_server import TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET
from tests.fixtures.alibaba_fixtures import rsa_public_key
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

GN7 = "GN7.2XLARGE32"
A10 = "ecs.gn7i-c8g1.2xlarge"
SSH_FROM = "198.51.100.7/32"
ALI_CREDS = Credentials(TEST_ACCESS_KEY_ID, TEST_ACCESS_KEY_SECRET)


@pytest.fixture(autouse=True)
def _fresh_clock():
    ledgerdb.CLOCK.reset()
    yield
    ledgerdb.CLOCK.reset()


def _opts(account: str, itype: str, hours: float | None, **kw: object) -> LaunchOptions:
    guard = GuardConfig(max_hours=hours) if hours is not None else GuardConfig()
    return LaunchOptions(account=account, instance_type=itype, ssh_from=SSH_FROM, guard=guard, **kw)  # type: ignore[arg-type]


def _utc(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def _near(a: datetime, b: datetime, seconds: float = 120) -> bool:
    return abs((a - b).total_seconds()) <= seconds


# -- Tencent: RunInstances.ActionTimer, DescribeInstancesActionTimer ------------------------------------------
def test_tencent_terminate_timer_is_in_the_request_held_by_the_peer_and_recorded(tencent_service, tencent_server):
    svc = tencent_service
    steps: list[tuple[str, str]] = []
    res = svc.launch(_opts("lab", GN7, 3.0), progress=lambda s, m="": steps.append((s, m)))
    [run] = tencent_server.requests_of("RunInstances")
    timer = run["ActionTimer"]
    assert timer["TimerAction"] == "TerminateInstances"
    at = _utc(timer["ActionTime"])
    assert _near(at, datetime.now(timezone.utc) + timedelta(hours=3))
    # read back from the cloud, by the instance's id
    assert tencent_server.requests_of("DescribeInstancesActionTimer") == [{"InstanceIds": [res.entry.id]}]
    held = tencent_server.action_timer(res.entry.id)
    assert held is not None and held["Status"] == "UNDO" and held["ActionTime"] == timer["ActionTime"]
    rec = BackstopStore(svc.store).get(res.entry.id)
    assert rec is not None and rec.accepted and rec.action == "terminate" and rec.deadline == at
    assert res.backstop == rec
    assert "enforced by the cloud: terminate at " + at.strftime("%Y-%m-%d %H:%M") in rec.text()
    assert rec.text() in res.notes and any(m == rec.text() for _s, m in steps)


def test_tencent_timer_ends_the_bill_when_its_time_comes(tencent_service, tencent_server):
    res = tencent_service.launch(_opts("lab", GN7, 1.0))
    with tencent_server.lock:  # the timer's time has come (the cloud terminates the instance itself)
        past = datetime.now(timezone.utc) - timedelta(seconds=1)
        tencent_server.instances[res.entry.id].action_timer["ActionTime"] = past.strftime(  # type: ignore[index]
            "%Y-%m-%dT%H:%M:%SZ")
    [seen] = [i for i in get_provider("tencent").list_instances(tencent_service.accounts.get("lab"),
                                                                   tencent_service.accounts.credentials("lab"))
              if i.id == res.entry.id]
    assert seen.raw_state in ("TERMINATING", "SHUTDOWN")
    assert tencent_server.action_timer(res.entry.id)["Status"] == "DONE"  # type: ignore[index]


def test_tencent_without_a_maximum_runtime_sends_and_records_nothing(tencent_service, tencent_server):
    res = tencent_service.launch(_opts("lab", GN7, None))
    assert "ActionTimer" not in tencent_server.requests_of("RunInstances")[0]
    assert tencent_server.requests_of("DescribeInstancesActionTimer") == []
    assert res.backstop is None and BackstopStore(tencent_service.store).get(res.entry.id) is None
    res = tencent_service.launch(LaunchOptions(account="lab", instance_type=GN7, ssh_from=SSH_FROM))  # no guard
    assert "ActionTimer" not in tencent_server.requests_of("RunInstances")[-1] and res.backstop is None


def test_tencent_a_runtime_too_short_for_the_timer_is_not_sent_and_says_why(tencent_service, tencent_server):
    res = tencent_service.launch(_opts("lab", GN7, 0.05))  # 3 minutes: the timer must be more than 5 ahead
    assert "ActionTimer" not in tencent_server.requests_of("RunInstances")[0]
    rec = BackstopStore(tencent_service.store).get(res.entry.id)
    assert rec is not None and not rec.accepted
    assert "Tencent Cloud takes a time at least 8 minutes ahead" in rec.why()
    assert rec.text().startswith("Maximum runtime not enforced by the cloud")


def test_tencent_refused_timer_launches_without_it_and_records_the_refusal(tencent_service, tencent_server):
    tencent_server.fail_next("RunInstances", "InvalidParameterValue.InvalidTimeFormat", "ActionTime is malformed")
    res = tencent_service.launch(_opts("lab", GN7, 2.0))
    first, second = tencent_server.requests_of("RunInstances")
    assert "ActionTimer" in first and "ActionTimer" not in second
    assert first["ClientToken"] == second["ClientToken"]
    assert len(tencent_server.instances) == 1 and res.entry.state == "running"
    assert tencent_server.action_timer(res.entry.id) is None
    rec = BackstopStore(tencent_service.store).get(res.entry.id)
    assert rec is not None and not rec.accepted
    assert "refused it (InvalidParameterValue.InvalidTimeFormat)" in rec.why()


@pytest.mark.parametrize(("action_time", "code"), [
    ("2026-12-05 10:00:00", "InvalidParameterValue.InvalidTimeFormat"),  # not YYYY-MM-DDThh:mm:ssZ
    ("past", "InvalidParameterValue"),  # in the past
    ("soon", "InvalidParameterValue"),  # within 5 minutes
])
def test_tencent_peer_refuses_a_timer_as_the_model_documents(tencent_server, action_time, code):
    from tests.fixtures.tencent_cvm_server import ApiError

    now = datetime.now(timezone.utc)
    text = {"past": (now - timedelta(minutes=1)).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "soon": (now + timedelta(minutes=4)).strftime("%Y-%m-%dT%H:%M:%SZ")}.get(action_time, action_time)
    with pytest.raises(ApiError) as info:
        tencent_server._check_action_timer({"TimerAction": "TerminateInstances", "ActionTime": text})
    assert info.value.code == code
    with pytest.raises(ApiError) as info:
        tencent_server._check_action_timer({"TimerAction": "StopInstances",
                                            "ActionTime": (now + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")})
    assert info.value.code == "InvalidParameterValue"


def test_tencent_deadline_follows_the_clouds_clock_not_the_laptops(tencent_service, tencent_server):
    # The laptop is 4 minutes behind the cloud (signatures still pass): 9 minutes ahead by the laptop's clock would
    # be 5 by the cloud's, which the timer refuses; by the cloud's clock (from its answers' Date) it is 9.
    tencent_server.clock_offset = 240
    account = tencent_service.accounts.get("lab")
    tencent_service.zones(account, GN7)  # an answer's Date header tells LabGPU the cloud's time
    res = tencent_service.launch(_opts("lab", GN7, 0.15))
    [run] = tencent_server.requests_of("RunInstances")
    at = _utc(run["ActionTimer"]["ActionTime"])
    assert _near(at, datetime.now(timezone.utc) + timedelta(seconds=240 + 540), 30)
    assert res.backstop is not None and res.backstop.accepted


def test_tencent_timer_of_a_launch_cut_short_is_read_back_by_the_recovery(tencent_service, tencent_server):
    # The launch reached the cloud (timer and all), then LabGPU stopped before the guard and the read-back.
    res = tencent_service.launch(_opts("lab", GN7, 2.0))
    assert BackstopStore(tencent_service.store).remove(res.entry.id)
    again = CloudService()  # the restart
    try:
        again.reconcile()
        rec = again.backstops.get(res.entry.id)
        assert rec is not None and rec.accepted and rec.action == "terminate"
        assert rec.deadline == _utc(tencent_server.requests_of("RunInstances")[0]["ActionTimer"]["ActionTime"])
    finally:
        again.close()


# -- Alibaba: RunInstances.AutoReleaseTime, DescribeInstances -------------------------------------------------
@pytest.fixture
def ali_service(secret_service, alibaba_server, labgpu_home):
    provider = AlibabaProvider(sleep=lambda s: None)  # the peer moves on describes, not on time
    provider.retry_base_delay = 0.01
    provider.network_timeout = 10
    svc = CloudService(provider_factory=lambda pid: provider if pid == "alibaba" else get_provider(pid))
    svc.accounts.add(Account("ali", "alibaba", "cn-hangzhou", f"http://{alibaba_server.endpoint}"), ALI_CREDS)
    yield svc
    svc.close()


def test_alibaba_release_time_is_in_the_request_read_back_and_recorded(ali_service, alibaba_server):
    res = ali_service.launch(_opts("ali", A10, 2.5, zone="cn-hangzhou-h", wait=False))
    [run] = alibaba_server.requests_of("RunInstances")
    at = _utc(run["AutoReleaseTime"])
    assert at.second == 0 and _near(at, datetime.now(timezone.utc) + timedelta(hours=2.5))
    assert at >= datetime.now(timezone.utc) + timedelta(hours=2.5) - timedelta(seconds=5)  # rounded up, never early
    assert alibaba_server.instance(res.entry.id).auto_release == at
    rec = BackstopStore(ali_service.store).get(res.entry.id)
    assert rec is not None and rec.accepted and rec.action == "release" and rec.deadline == at
    assert "release at" in rec.text()


def test_alibaba_release_happens_in_the_peer_when_due(ali_service, alibaba_server):
    res = ali_service.launch(_opts("ali", A10, 1.0, zone="cn-hangzhou-h", wait=False))
    with alibaba_server.lock:  # the release time has come: the cloud releases the instance itself
        alibaba_server.instance(res.entry.id).auto_release = datetime.now(timezone.utc) - timedelta(seconds=1)
    listed = get_provider("alibaba").list_instances(ali_service.accounts.get("ali"), ALI_CREDS)
    assert res.entry.id not in {i.id for i in listed}


def test_alibaba_without_a_maximum_runtime_sends_none(ali_service, alibaba_server):
    res = ali_service.launch(_opts("ali", A10, None, zone="cn-hangzhou-h", wait=False))
    assert "AutoReleaseTime" not in alibaba_server.requests_of("RunInstances")[0]
    assert res.backstop is None and BackstopStore(ali_service.store).all() == {}


def test_alibaba_under_half_an_hour_is_not_sent_and_says_why(ali_service, alibaba_server):
    res = ali_service.launch(_opts("ali", A10, 0.25, zone="cn-hangzhou-h", wait=False))
    assert "AutoReleaseTime" not in alibaba_server.requests_of("RunInstances")[0]
    assert res.backstop is not None and not res.backstop.accepted
    assert "Alibaba Cloud takes a time at least 33 minutes ahead; 0.25 h is sooner" in res.backstop.why()


@pytest.mark.parametrize("when", ["past", "in 20 minutes", "in 4 years"])
def test_alibaba_peer_refuses_a_release_time_and_the_launch_goes_on_without_it(alibaba_server, when):
    """The peer's documented rules (at least 30 minutes, at most 3 years ahead), reached by a plugin launch that
    sends such a time: the cloud's refusal is what the badge says, and the instance is launched without it."""
    provider = AlibabaProvider(sleep=lambda s: None)
    provider.network_timeout = 10
    acc = Account("ali", "alibaba", "cn-hangzhou", f"http://{alibaba_server.endpoint}")
    now = datetime.now(timezone.utc)
    start = {"past": now - timedelta(hours=2), "in 20 minutes": now - timedelta(minutes=40),
             "in 4 years": now + timedelta(days=4 * 365 - 1)}[when]
    plan = plan_backstop(1.0, start)
    assert plan is not None
    inst = provider.launch(acc, ALI_CREDS, LaunchRequest(
        instance_type=A10, region="cn-hangzhou", zone="cn-hangzhou-h", public_key=rsa_public_key(),
        ssh_cidr=SSH_FROM, client_token=f"refused-{when}", backstop=plan))
    first, second = alibaba_server.requests_of("RunInstances")
    assert "AutoReleaseTime" in first and "AutoReleaseTime" not in second
    reading = provider.read_backstop(acc, ALI_CREDS, inst.id, plan)
    assert not reading.accepted and reading.params["code"] == "InvalidAutoReleaseTime.Malformed"
    assert alibaba_server.instance(inst.id).auto_release is None


def test_alibaba_peer_refuses_a_malformed_release_time(alibaba_server):
    from tests.fixtures.alibaba_ecs_actions import ApiError

    for text in ("2030-01-01 00:00:00", "2030-01-01T00:00:00+08:00", "tomorrow"):
        with pytest.raises(ApiError) as info:
            alibaba_server._check_auto_release(text, "PostPaid")
        assert info.value.code == "InvalidAutoReleaseTime.Malformed" and info.value.status == 400
    with pytest.raises(ApiError) as info:
        alibaba_server._check_auto_release(
            (datetime.now(timezone.utc) + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M:%SZ"), "PrePaid")
    assert info.value.code == "ChargeTypeViolation"
    ok = (datetime.now(timezone.utc) + timedelta(hours=2)).replace(second=42).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert alibaba_server._check_auto_release(ok, "PostPaid").second == 0  # seconds rounded down, as documented


# -- AWS: InstanceInitiatedShutdownBehavior + a poweroff scheduled by the user data -----------------------------
@pytest.fixture
def aws_service(secret_service, moto, labgpu_home):
    svc = CloudService()
    svc.accounts.add(Account("lab-aws", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    yield svc
    svc.close()


def _ec2(moto):
    return boto3.client("ec2", region_name="us-east-1", endpoint_url=moto.url, aws_access_key_id=AWS_KEY_ID,
                        aws_secret_access_key=AWS_SECRET)


def test_aws_on_demand_terminates_on_the_scheduled_shutdown(aws_service, moto):
    res = aws_service.launch(_opts("lab-aws", "g5.xlarge", 2.0))
    ec2 = _ec2(moto)
    behaviour = ec2.describe_instance_attribute(InstanceId=res.entry.id, Attribute="instanceInitiatedShutdownBehavior")
    assert behaviour["InstanceInitiatedShutdownBehavior"]["Value"] == "terminate"
    data = ec2.describe_instance_attribute(InstanceId=res.entry.id, Attribute="userData")["UserData"]["Value"]
    text = base64.b64decode(data).decode()
    assert text.startswith("#cloud-config\n") and "bootcmd:" in text
    assert "--on-boot=120min" in text and "shutdown -P +120" in text
    rec = BackstopStore(aws_service.store).get(res.entry.id)
    assert rec is not None and rec.accepted and rec.action == "terminate"


def test_aws_spot_stops_on_the_scheduled_shutdown(aws_service, moto):
    res = aws_service.launch(_opts("lab-aws", "g5.xlarge", 1.5, spot=True, max_price=0.9, zone="us-east-1a"))
    ec2 = _ec2(moto)
    behaviour = ec2.describe_instance_attribute(InstanceId=res.entry.id, Attribute="instanceInitiatedShutdownBehavior")
    assert behaviour["InstanceInitiatedShutdownBehavior"]["Value"] == "stop"  # terminating would relaunch the request
    rec = BackstopStore(aws_service.store).get(res.entry.id)
    assert rec is not None and rec.accepted and rec.action == "stop" and "stop at" in rec.text()


def test_aws_without_a_maximum_runtime_sends_no_user_data(aws_service, moto):
    res = aws_service.launch(_opts("lab-aws", "g5.xlarge", None))
    ec2 = _ec2(moto)
    data = ec2.describe_instance_attribute(InstanceId=res.entry.id, Attribute="userData").get("UserData") or {}
    assert not data.get("Value")
    behaviour = ec2.describe_instance_attribute(InstanceId=res.entry.id, Attribute="instanceInitiatedShutdownBehavior")
    assert behaviour["InstanceInitiatedShutdownBehavior"]["Value"] == "stop"  # AWS's default, untouched
    assert res.backstop is None


def test_aws_user_data_merges_with_user_data_already_sent():
    from email import message_from_string

    from app.cloud.aws.launch import backstop_user_data

    merged = backstop_user_data(90, "#!/bin/sh\necho hello\n")
    parts = [p for p in message_from_string(merged).walk() if not p.is_multipart()]
    assert [p.get_content_type() for p in parts] == ["text/x-shellscript", "text/cloud-config"]
    assert "echo hello" in parts[0].get_payload(decode=True).decode()
    assert "--on-boot=90min" in parts[1].get_payload(decode=True).decode()
    assert backstop_user_data(90).startswith("#cloud-config")


def test_aws_strict_proxy_refuses_user_data_aws_would_refuse(moto):
    ec2 = _ec2(moto)
    with pytest.raises(Exception) as info:
        ec2.run_instances(ImageId="ami-0ub0000000000c3", MinCount=1, MaxCount=1, InstanceType="g5.xlarge",
                          UserData="x" * (16 * 1024 + 1))
    assert "User data is limited to 16384 bytes" in str(info.value)
