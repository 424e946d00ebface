"""Launch orchestration against moto over HTTP: the whole add → launch → stop → start → terminate path."""

from __future__ import annotations

import pytest

from app.cloud.base import CapacityError
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core.accounts import Account, Credentials
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET, DLAMI_NEWEST


@pytest.fixture
def svc(secret_service, moto, labgpu_home):
    s = CloudService()
    s.accounts.add(Account("lab", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    yield s
    s.close()


def test_launch_on_demand_records_ledger_and_audit(svc, moto):
    steps = []
    res = svc.launch(
        LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32"),
        progress=lambda step, msg="": steps.append((step, msg)),
    )
    e = res.entry
    assert e.state == "running"
    assert e.instance_type == "g5.xlarge"
    assert not e.spot
    assert e.image_id == DLAMI_NEWEST
    keys = [s for s, _ in steps]
    for k in ("key", "security_group", "image", "request", "wait"):
        assert k in keys
    ec2 = moto.ec2()
    inst = ec2.describe_instances()["Reservations"][0]["Instances"][0]
    assert {t["Key"]: t["Value"] for t in inst["Tags"]}["labgpu"] == "1"
    sg = ec2.describe_security_groups(GroupIds=[inst["SecurityGroups"][0]["GroupId"]])["SecurityGroups"][0]
    assert [(p["FromPort"], [r["CidrIp"] for r in p["IpRanges"]]) for p in sg["IpPermissions"]] == [
        (22, ["198.51.100.7/32"])
    ]
    rows = [(a.action, a.resource, a.result) for a in reversed(svc.audit.list())]
    assert [r[0] for r in rows] == [
        "ImportKeyPair",
        "CreateSecurityGroup",
        "AuthorizeSecurityGroupIngress",
        "launch",
    ]
    assert rows[0][1].startswith("labgpu-")
    assert rows[1][1].startswith("sg-")
    assert rows[3][1] == e.id
    assert all(a.request_id for a in svc.audit.list())


@pytest.fixture
def psvc(secret_service, aws_proxy, labgpu_home):
    """A service whose account talks to AWS through the fault proxy."""
    s = CloudService()
    s.accounts.add(Account("lab", "aws", "us-east-1", aws_proxy.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    yield s
    s.close()


def _moto_ids(moto):
    return [i["InstanceId"] for r in moto.ec2().describe_instances()["Reservations"] for i in r["Instances"]]


def test_spot_default_max_price_is_fraction_of_live_on_demand(psvc, aws_proxy):
    from app.core.settings import Settings
    from app.usecases.launch import launch

    psvc.refresh_prices("lab", ["g5.xlarge"])  # on-demand 1.006 from the (proxied) Pricing API
    res = psvc.launch(
        LaunchOptions(account="lab", instance_type="g5.xlarge", spot=True, ssh_from="198.51.100.7/32")
    )
    [params] = aws_proxy.params("RunInstances")
    assert params["InstanceMarketOptions.SpotOptions.MaxPrice"] == "0.8048"
    assert res.entry.spot
    assert any("80 %" in n for n in res.notes)
    # The launch journey takes the share from the settings it is given (CloudService reads none).
    launch(psvc, Settings(spot_bid_fraction=0.5), LaunchOptions(
        account="lab", instance_type="g5.xlarge", spot=True, ssh_from="198.51.100.7/32"), guard=None)
    assert aws_proxy.params("RunInstances")[-1]["InstanceMarketOptions.SpotOptions.MaxPrice"] == "0.5030"


def test_capacity_error_in_a_chosen_zone_stays_there_and_says_how_to_move(psvc, aws_proxy, moto):
    aws_proxy.inject(
        "RunInstances",
        "InsufficientInstanceCapacity",
        "We currently do not have sufficient g5.xlarge capacity in us-east-1a.",
    )
    with pytest.raises(CapacityError) as err:
        psvc.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", zone="us-east-1a",
                                  ssh_from="198.51.100.7/32"))
    assert err.value.code == "InsufficientInstanceCapacity"
    assert "kept to us-east-1a because you chose it" in err.value.hint()
    assert len(aws_proxy.params("RunInstances")) == 1 and not _moto_ids(moto)
    assert psvc.pending.open() == []  # the launch is over: nothing is left pending


def test_capacity_error_moves_to_another_zone_and_says_so(psvc, aws_proxy, moto):
    aws_proxy.inject(
        "RunInstances",
        "InsufficientInstanceCapacity",
        "We currently do not have sufficient g5.xlarge capacity in us-east-1a.",
    )
    steps = []
    res = psvc.launch(
        LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32"),  # any zone
        progress=lambda s, m="": steps.append((s, m)),
    )
    assert res.entry.zone != ""
    assert res.entry.state == "running"
    zone_msgs = [m for s, m in steps if s == "zone"]
    assert len(zone_msgs) == 1
    assert res.entry.zone in zone_msgs[0]
    tokens = [p["ClientToken"] for p in aws_proxy.params("RunInstances")]
    assert len(tokens) == 2
    assert tokens[0] != tokens[1]
    results = [(a.action, a.result) for a in reversed(psvc.audit.list())]
    assert ("launch", "error:InsufficientInstanceCapacity") in results
    assert results[-1] == ("launch", "ok")
    assert len(_moto_ids(moto)) == 1


def test_capacity_everywhere_fails_with_the_capacity_error(psvc, aws_proxy, moto):
    aws_proxy.inject("RunInstances", "InsufficientInstanceCapacity", "no capacity", times=20)
    with pytest.raises(Exception) as err:
        psvc.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32"))
    assert err.value.code == "InsufficientInstanceCapacity"
    zones = {p.get("Placement.AvailabilityZone", "") for p in aws_proxy.params("RunInstances")}
    assert len(zones) >= 3  # the region default, then each zone offering g5.xlarge
    [pending] = psvc.pending.all()
    assert pending.status == "failed"
    assert _moto_ids(moto) == []


def test_retry_with_same_token_yields_one_instance(psvc, aws_proxy, moto):
    opts = LaunchOptions(
        account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32", client_token="lg-retry1"
    )
    a = psvc.launch(opts)
    b = psvc.launch(opts)
    assert a.entry.id == b.entry.id
    assert _moto_ids(moto) == [a.entry.id]
    assert len(psvc.ledger.list()) == 1


def test_lost_answer_leaves_pending_record_that_reconcile_resolves(psvc, aws_proxy, moto, monkeypatch):
    from app.cloud.aws import client as aws_mod
    from tests.fixtures.moto_server import DROP

    monkeypatch.setattr(aws_mod, "MAX_ATTEMPTS", 2)
    aws_proxy.inject("RunInstances", DROP, times=10)  # every answer lost: the caller cannot know
    with pytest.raises(Exception) as err:
        psvc.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32"))
    assert err.value.code == "NetworkError"
    assert "labgpu ls" in err.value.hint()
    [pending] = psvc.pending.open()
    assert f"--client-token {pending.client_token}" in err.value.hint()
    assert err.value.client_token == pending.client_token
    assert psvc.ledger.list() == []
    [iid] = _moto_ids(moto)  # it did launch: the answer was lost, not the request
    result = psvc.reconcile()
    assert [e.id for e in result.entries] == [iid]
    assert result.entries[0].client_token == pending.client_token
    assert psvc.pending.get(pending.client_token).status == "done"
    assert psvc.audit.list()[0].action == "recover-launch"


def test_no_public_address_fails_before_any_cloud_call(psvc, aws_proxy, monkeypatch):
    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", "http://127.0.0.1:9/")
    with pytest.raises(Exception) as err:
        psvc.launch(LaunchOptions(account="lab", instance_type="g5.xlarge"))
    assert err.value.code == "PublicAddressUnknown"
    assert "--ssh-from" in err.value.hint()
    assert aws_proxy.seen == []
    assert psvc.pending.all() == []


def test_public_address_becomes_the_ssh_rule(psvc, moto, public_ip_server, monkeypatch):
    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", public_ip_server)
    res = psvc.launch(LaunchOptions(account="lab", instance_type="g5.xlarge"))
    inst = moto.ec2().describe_instances(InstanceIds=[res.entry.id])["Reservations"][0]["Instances"][0]
    sg = moto.ec2().describe_security_groups(GroupIds=[inst["SecurityGroups"][0]["GroupId"]])[
        "SecurityGroups"
    ][0]
    assert [r["CidrIp"] for p in sg["IpPermissions"] for r in p["IpRanges"]] == ["203.0.113.9/32"]


@pytest.mark.parametrize("cidr", ["0.0.0.0/0", "::/0", "10.0.0.0/4", "not-an-ip"])
def test_world_open_ssh_refused(psvc, aws_proxy, cidr):
    with pytest.raises(Exception) as err:
        psvc.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from=cidr))
    assert err.value.code in ("CidrTooBroad", "BadCidr")
    assert aws_proxy.seen == []


def test_actions_reconcile_and_costs(svc, moto):
    res = svc.launch(LaunchOptions(account="lab", instance_type="g4dn.xlarge", ssh_from="198.51.100.7/32"))
    iid = res.entry.id
    assert res.entry.price_per_hour == pytest.approx(0.526)  # bundled catalog (no live refresh here)
    assert res.entry.cost_so_far == pytest.approx(0.526 * 60 / 3600, rel=0.05)  # AWS: 60 s minimum
    cmd = svc.ssh_command(iid)
    assert cmd.startswith("ssh -i ")
    assert cmd.endswith(f"ubuntu@{res.entry.public_ip}")
    assert "labgpu_ed25519" in cmd
    entry, note = svc.stop(iid)
    assert entry.state in ("stopping", "stopped")
    assert "EBS" in note
    entry = svc.start(iid)
    assert entry.state in ("pending", "running", "starting")
    moto.ec2().stop_instances(InstanceIds=[iid])  # changed outside LabGPU: reconcile notices
    [e] = svc.reconcile().entries
    assert e.state == "stopped"
    assert e.uptime_s == 0
    svc.terminate(iid)
    [e] = svc.reconcile().entries
    assert e.state == "terminated"
    assert e.ended_at is not None
    audit = [(a.action, a.result) for a in reversed(svc.audit.list())]
    assert audit[-3:] == [("stop", "ok"), ("start", "ok"), ("terminate", "ok")]
    assert all(a.request_id for a in svc.audit.list() if a.action in ("stop", "start", "terminate"))


def test_pending_launch_never_seen_is_given_up_after_ten_minutes(svc, moto):
    svc.pending.begin(
        client_token="lg-lost",
        account="lab",
        provider="aws",
        region="us-east-1",
        zone="",
        instance_type="g5.xlarge",
        spot=False,
        max_price=None,
    )
    svc.reconcile()
    assert svc.pending.get("lg-lost").status == "pending"  # may still appear (eventual consistency)
    svc.store.execute("UPDATE pending_launches SET created_at='2020-01-01T00:00:00+00:00'")
    svc.reconcile()
    assert svc.pending.get("lg-lost").status == "not_launched"
    assert svc.pending.open() == []


def test_status_check_failing_after_launch_does_not_fail_the_launch(psvc, aws_proxy, moto, monkeypatch):
    from app.cloud.aws import client as aws_mod

    monkeypatch.setattr(aws_mod, "MAX_ATTEMPTS", 1)
    monkeypatch.setattr("app.cloud.launch.POLL_S", 0.05)
    aws_proxy.inject(
        "DescribeInstances", "InternalError", "We encountered an internal error.", status=500, times=3
    )
    steps = []
    res = psvc.launch(
        LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32"),
        progress=lambda s, m="": steps.append((s, m)),
    )
    assert res.entry.id in _moto_ids(moto)
    assert any("could not be checked" in m for s, m in steps if s == "wait")
    assert psvc.pending.get(res.client_token).status == "done"


def test_one_account_launches_in_another_region_and_keeps_track(svc, moto):
    res = svc.launch(
        LaunchOptions(
            account="lab", instance_type="g5.xlarge", region="us-west-2", ssh_from="198.51.100.7/32"
        )
    )
    assert res.entry.region == "us-west-2"
    assert res.entry.zone.startswith("us-west-2")
    assert res.entry.id in _moto_ids_region(moto, "us-west-2")
    [e] = svc.reconcile().entries  # listed in us-west-2, not marked gone by the us-east-1 listing
    assert e.state == "running"
    assert e.region == "us-west-2"
    entry, _ = svc.stop(e.id)
    assert entry.state in ("stopping", "stopped")
    svc.terminate(e.id)
    [e] = svc.reconcile().entries
    assert e.state == "terminated"
    assert e.raw_state == "terminated"


def _moto_ids_region(moto, region):
    return [
        i["InstanceId"] for r in moto.ec2(region).describe_instances()["Reservations"] for i in r["Instances"]
    ]
