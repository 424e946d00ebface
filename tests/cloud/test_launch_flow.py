"""Launch orchestration against moto over HTTP: the whole add → launch → stop → start → terminate path."""

from __future__ import annotations

import pytest

from app.cloud.launch import CloudService, LaunchOptions
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
    res = svc.launch(LaunchOptions(account="lab", instance_type="g5.xlarge", ssh_from="198.51.100.7/32"),
                     progress=lambda step, msg="": steps.append((step, msg)))
    e = res.entry
    assert e.state == "running" and e.instance_type == "g5.xlarge" and not e.spot
    assert e.image_id == DLAMI_NEWEST
    keys = [s for s, _ in steps]
    for k in ("key", "security_group", "image", "request", "wait"):
        assert k in keys
    ec2 = moto.ec2()
    inst = ec2.describe_instances()["Reservations"][0]["Instances"][0]
    assert {t["Key"]: t["Value"] for t in inst["Tags"]}["labgpu"] == "1"
    sg = ec2.describe_security_groups(GroupIds=[inst["SecurityGroups"][0]["GroupId"]])["SecurityGroups"][0]
    assert [(p["FromPort"], [r["CidrIp"] for r in p["IpRanges"]]) for p in sg["IpPermissions"]] == \
        [(22, ["198.51.100.7/32"])]
    actions = [a.action for a in svc.audit.list()]
    assert "launch" in actions
