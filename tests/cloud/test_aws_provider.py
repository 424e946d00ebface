"""AwsProvider against moto over HTTP, and against the fault proxy for the errors AWS sends."""

from __future__ import annotations

import pytest

from app.cloud.aws import AwsProvider, quota_for
from app.cloud.aws import client as aws_mod
from app.cloud.base import (
    AuthError,
    CapacityError,
    LaunchRequest,
    NotFoundError,
    PriceTooLowError,
    QuotaError,
    ThrottledError,
    get_provider,
)
from app.cloud.errors import ClockSkewError, PermissionError_
from app.core.accounts import Account, Credentials
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET, DLAMI_NEWEST, ON_DEMAND, UBUNTU_AMI

CREDS = Credentials(AWS_KEY_ID, AWS_SECRET)
PUB = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAID/lWbUumpQSCUVa9pwxQgVOfItPeL8qb7ODGzKvrkuQ test"


def _req(**kw):
    base = dict(
        instance_type="g5.xlarge",
        region="us-east-1",
        ssh_key_name="labgpu-test",
        public_key=PUB,
        ssh_cidr="198.51.100.7/32",
        client_token="tok-1",
    )
    base.update(kw)
    return LaunchRequest(**base)


@pytest.fixture
def acct(moto):
    return Account("lab", "aws", "us-east-1", moto.url)


@pytest.fixture
def pacct(aws_proxy):
    return Account("lab", "aws", "us-east-1", aws_proxy.url)


def test_registered():
    assert isinstance(get_provider("aws"), AwsProvider)


def test_list_shows_only_labgpu_tagged(acct, moto):
    p = AwsProvider()
    inst = p.launch(acct, CREDS, _req())
    moto.ec2().run_instances(ImageId=UBUNTU_AMI, MinCount=1, MaxCount=1, InstanceType="t3.micro")
    listed = p.list_instances(acct, CREDS)
    assert [i.id for i in listed] == [inst.id]
    got = listed[0]
    assert got.state == "running"
    assert got.zone.startswith("us-east-1")
    assert got.launched_at is not None
    assert got.tags["labgpu"] == "1"
    assert got.tags["labgpu-launch"] == "tok-1"
    assert got.key_name == "labgpu-test"
    assert p.find_by_client_token(acct, CREDS, "tok-1").id == inst.id
    assert p.find_by_client_token(acct, CREDS, "other") is None


def test_image_newest_dlami_then_ubuntu_fallback(acct, moto):
    p = AwsProvider()
    assert p.find_image(acct, CREDS)[0] == DLAMI_NEWEST
    ec2 = moto.ec2()
    for img in ec2.describe_images(
        Owners=["amazon"], Filters=[{"Name": "name", "Values": ["Deep Learning*"]}]
    )["Images"]:
        ec2.deregister_image(ImageId=img["ImageId"])
    steps = []
    inst = p.launch(acct, CREDS, _req(), progress=lambda s, m="": steps.append((s, m)))
    assert inst.image_id == UBUNTU_AMI
    msg = dict(steps)["image"]
    assert "No Deep Learning AMI" in msg
    assert UBUNTU_AMI in msg
    ec2.deregister_image(ImageId=UBUNTU_AMI)
    with pytest.raises(NotFoundError) as err:
        p.find_image(acct, CREDS)
    assert "--image" in err.value.hint()


def test_security_group_opens_22_to_the_cidr_only_and_is_reused(acct, moto):
    p = AwsProvider()
    g1 = p.ensure_security_group(acct, CREDS, "198.51.100.7/32")
    g2 = p.ensure_security_group(acct, CREDS, "198.51.100.7/32")
    assert g1 == g2
    sg = moto.ec2().describe_security_groups(GroupIds=[g1])["SecurityGroups"][0]
    perms = [
        (x["IpProtocol"], x["FromPort"], x["ToPort"], [r["CidrIp"] for r in x["IpRanges"]])
        for x in sg["IpPermissions"]
    ]
    assert perms == [("tcp", 22, 22, ["198.51.100.7/32"])]


def test_key_pair_imported_once(acct, moto):
    p = AwsProvider()
    p.ensure_key_pair(acct, CREDS, "labgpu-k", PUB)
    p.ensure_key_pair(acct, CREDS, "labgpu-k", PUB)
    names = [k["KeyName"] for k in moto.ec2().describe_key_pairs()["KeyPairs"]]
    assert names == ["labgpu-k"]


def test_spot_launch_sends_market_options(pacct, aws_proxy):
    p = AwsProvider()
    inst = p.launch(pacct, CREDS, _req(spot=True, max_price=0.8048, zone="us-east-1b"))
    assert inst.spot
    assert inst.zone == "us-east-1b"
    [params] = aws_proxy.params("RunInstances")
    assert params["InstanceMarketOptions.MarketType"] == "spot"
    assert params["InstanceMarketOptions.SpotOptions.MaxPrice"] == "0.8048"
    # stoppable: a persistent request that stops on interruption (see tests/cloud/test_aws_spot.py)
    assert params["InstanceMarketOptions.SpotOptions.SpotInstanceType"] == "persistent"
    assert params["InstanceMarketOptions.SpotOptions.InstanceInterruptionBehavior"] == "stop"
    assert params["ClientToken"] == "tok-1"


def test_stop_says_disks_still_bill(acct):
    p = AwsProvider()
    inst = p.launch(acct, CREDS, _req())
    note = p.stop(acct, CREDS, inst.id)
    assert "EBS" in note
    assert "still bill" in note
    assert next(i for i in p.list_instances(acct, CREDS) if i.id == inst.id).state in ("stopping", "stopped")
    p.start(acct, CREDS, inst.id)
    p.terminate(acct, CREDS, inst.id)
    assert next(i for i in p.list_instances(acct, CREDS) if i.id == inst.id).state in (
        "terminating",
        "terminated",
    )


def test_throttling_is_retried_not_shown(pacct, aws_proxy):
    aws_proxy.inject("RunInstances", "RequestLimitExceeded", "Request limit exceeded.", status=503, times=2)
    inst = AwsProvider().launch(pacct, CREDS, _req())
    assert inst.id.startswith("i-")
    assert aws_proxy.seen.count("RunInstances") == 3


def test_throttling_after_retries_is_a_clear_error(pacct, aws_proxy, monkeypatch):
    monkeypatch.setattr(aws_mod, "MAX_ATTEMPTS", 2)
    aws_proxy.inject(
        "DescribeInstances", "RequestLimitExceeded", "Request limit exceeded.", status=503, times=5
    )
    with pytest.raises(ThrottledError) as err:
        AwsProvider().list_instances(pacct, CREDS)
    assert "[RequestLimitExceeded]" in err.value.one_line()
    assert err.value.retryable


def test_lost_answer_retried_with_same_client_token_yields_one_instance(pacct, aws_proxy, moto):
    from tests.fixtures.moto_server import DROP

    aws_proxy.inject("RunInstances", DROP)
    inst = AwsProvider().launch(pacct, CREDS, _req(client_token="tok-drop"))
    assert aws_proxy.seen.count("RunInstances") == 2  # botocore retried after the dropped answer
    ids = [i["InstanceId"] for r in moto.ec2().describe_instances()["Reservations"] for i in r["Instances"]]
    assert ids == [inst.id]


# Every AWS error code listed in the notes (plus clock skew) → class, code and next step.
CASES = [
    (
        "RunInstances",
        "AuthFailure",
        "AWS was not able to validate the provided access credentials",
        AuthError,
        "access key id and secret",
        {},
    ),
    (
        "RunInstances",
        "UnauthorizedOperation",
        "You are not authorized to perform this operation.",
        PermissionError_,
        "ec2:RunInstances",
        {},
    ),
    (
        "RunInstances",
        "InsufficientInstanceCapacity",
        "We currently do not have sufficient g5.xlarge capacity in the "
        "Availability Zone you requested (us-east-1a).",
        CapacityError,
        "another zone",
        {"zone": "us-east-1a"},
    ),
    (
        "RunInstances",
        "VcpuLimitExceeded",
        "You have requested more vCPU capacity than your current vCPU limit of 0 allows",
        QuotaError,
        "Running On-Demand G and VT instances",
        {},
    ),
    (
        "RunInstances",
        "InstanceLimitExceeded",
        "Your quota allows for 0 more running instance(s).",
        QuotaError,
        "Service Quotas",
        {},
    ),
    (
        "RunInstances",
        "MaxSpotInstanceCountExceeded",
        "Max spot instance count exceeded",
        QuotaError,
        "All G and VT Spot Instance Requests",
        {"spot": True, "max_price": 0.5},
    ),
    (
        "RunInstances",
        "SpotMaxPriceTooLow",
        "Your Spot request price of 0.1 is lower than the minimum required Spot "
        "request fulfillment price of 0.3921.",
        PriceTooLowError,
        "at least 0.3921",
        {"spot": True, "max_price": 0.1},
    ),
    (
        "RunInstances",
        "UnfulfillableCapacity",
        "Unable to fulfill capacity due to your request configuration.",
        CapacityError,
        "another zone",
        {"spot": True, "max_price": 0.5},
    ),
    ("RunInstances", "RequestExpired", "Request has expired.", ClockSkewError, "Fix your clock", {}),
    (
        "DescribeImages",
        "InvalidAMIID.NotFound",
        "The image id '[ami-1]' does not exist",
        NotFoundError,
        "Deep Learning AMI",
        {"image_id": "ami-12345678"},
    ),
]


@pytest.mark.parametrize(
    ("action", "code", "message", "cls", "hint_part", "extra"), CASES, ids=[c[1] for c in CASES]
)
def test_error_codes_map_to_sentences(
    pacct, aws_proxy, monkeypatch, action, code, message, cls, hint_part, extra
):
    monkeypatch.setattr(aws_mod, "MAX_ATTEMPTS", 1)
    aws_proxy.inject(action, code, message, times=1)
    with pytest.raises(cls) as err:
        AwsProvider().launch(pacct, CREDS, _req(**extra))
    e = err.value
    line = e.one_line()
    assert line.startswith(f"[{code}] ")
    assert hint_part in line, line
    assert e.request_id == f"req-{code}"
    assert "{" not in line  # every placeholder filled


def test_spot_price_too_low_names_current_price_when_aws_does_not(pacct, aws_proxy, monkeypatch):
    monkeypatch.setattr(aws_mod, "MAX_ATTEMPTS", 1)
    aws_proxy.inject("RunInstances", "SpotMaxPriceTooLow", "Your Spot request price is too low.")
    with pytest.raises(PriceTooLowError) as err:
        AwsProvider().launch(pacct, CREDS, _req(spot=True, max_price=0.0001, zone="us-east-1a"))
    # moto's describe_spot_price_history returns a fixed fake price; real AWS the market price.
    assert "?" not in err.value.text()
    assert "0.0001" in err.value.text()


def test_quota_names():
    assert quota_for("g5.xlarge", False) == ("Running On-Demand G and VT instances", "L-DB2E81BA")
    assert quota_for("p4d.24xlarge", False)[0] == "Running On-Demand P instances"
    # The Service Quotas names ("Spot Instance quotas",
    # https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-spot-limits.html): P5 spot is its own quota.
    assert quota_for("p5.48xlarge", True) == ("All P5 Spot Instance Requests", "L-C4BD4855")
    assert quota_for("p4d.24xlarge", True)[0] == "All P4, P3 and P2 Spot Instance Requests"
    assert quota_for("g6e.xlarge", True)[0] == "All G and VT Spot Instance Requests"
    assert quota_for("m5.large", False)[0].startswith("Running On-Demand Standard")


def test_dry_run_operation_means_permission_ok(acct):
    who = AwsProvider().validate(acct, CREDS)
    assert who.startswith("arn:aws:")


def test_validate_unauthorized_is_explained(pacct, aws_proxy, monkeypatch):
    monkeypatch.setattr(aws_mod, "MAX_ATTEMPTS", 1)
    aws_proxy.inject(
        "DescribeInstances",
        "UnauthorizedOperation",
        "You are not authorized to perform this operation.",
        status=403,
    )
    with pytest.raises(PermissionError_) as err:
        AwsProvider().validate(pacct, CREDS)
    assert "ec2:DescribeInstances" in err.value.hint()


def test_clock_skew_in_signature_message(pacct, aws_proxy, monkeypatch):
    monkeypatch.setattr(aws_mod, "MAX_ATTEMPTS", 1)
    aws_proxy.inject(
        "GetCallerIdentity",
        "SignatureDoesNotMatch",
        "Signature expired: 20260101T000000Z is now earlier than 20260101T001000Z",
        status=403,
    )
    with pytest.raises(ClockSkewError) as err:
        AwsProvider().validate(pacct, CREDS)
    assert "clock" in err.value.hint()


def test_network_error_names_endpoint(monkeypatch):
    monkeypatch.setattr(aws_mod, "MAX_ATTEMPTS", 1)
    acct = Account("lab", "aws", "us-east-1", "http://127.0.0.1:9")
    with pytest.raises(Exception) as err:
        AwsProvider().list_instances(acct, CREDS)
    assert err.value.code == "NetworkError"
    assert "127.0.0.1:9" in err.value.text()


def test_refresh_prices_live_with_pricing_and_spot(pacct, aws_proxy):
    offers = AwsProvider().refresh_prices(
        pacct, CREDS, ["g5.xlarge", "g4dn.xlarge", "p3.2xlarge", "m5.large"]
    )
    by_type = {}
    for o in offers:
        by_type.setdefault(o.instance_type, []).append(o)
    # moto does not know p3.2xlarge (real AWS does); m5.large has no GPU: neither is a GPU offer here.
    assert set(by_type) == {"g5.xlarge", "g4dn.xlarge"}
    g5 = by_type["g5.xlarge"]
    assert all(o.live and o.fetched_at is not None for o in g5)
    assert g5[0].price_on_demand == pytest.approx(ON_DEMAND["g5.xlarge"])
    assert g5[0].gpu_model == "A10G"
    assert g5[0].gpu_count == 1
    assert g5[0].vcpu == 4
    assert any(o.price_spot is not None and o.zone for o in g5)


# Spot stop, terminate and the refusals AWS sends: tests/cloud/test_aws_spot.py (against the strict proxy).


def test_endpoint_rules():
    from app.cloud.aws import endpoint_for

    local = Account("l", "aws", "us-east-1", "http://127.0.0.1:5000")
    assert endpoint_for(local, "ec2") == endpoint_for(local, "sts") == "http://127.0.0.1:5000"
    vpce = Account("v", "aws", "us-east-1", "https://vpce-0abc-xyz.ec2.us-east-1.vpce.amazonaws.com")
    assert endpoint_for(vpce, "ec2") == vpce.endpoint
    assert endpoint_for(vpce, "sts") is None  # STS and Pricing keep their public endpoints
    assert endpoint_for(vpce, "pricing") is None
    own = Account("o", "aws", "us-east-1", vpce.endpoint, {"sts_endpoint": "https://sts.example.internal"})
    assert endpoint_for(own, "sts") == "https://sts.example.internal"
    assert endpoint_for(Account("n", "aws", "us-east-1"), "ec2") is None


CONSOLE = """[   25.1] cloud-init[1123]: Cloud-init v. 24.1 running 'modules:final'
ec2: #############################################################
ec2: -----BEGIN SSH HOST KEY FINGERPRINTS-----
ec2: 256 SHA256:7c1Zc4sQn5uW0fM4sX1l4q9d0sNQ9n0K8Q2mZJ2o8tI root@ip-172-31-1-2 (ECDSA)
ec2: 256 SHA256:Qm9uZ2VyIGZpbmdlcnByaW50IGhlcmUgZm9yIHRlc3Q root@ip-172-31-1-2 (ED25519)
ec2: -----END SSH HOST KEY FINGERPRINTS-----
ec2: #############################################################
"""


def test_console_fingerprints_parsed():
    """One parser for console fingerprints (app.core.fingerprints), in the form the SSH side compares."""
    import base64

    from app.cloud.aws import console_text
    from app.core.fingerprints import parse_console_fingerprints

    fps = parse_console_fingerprints(console_text(base64.b64encode(CONSOLE.encode()).decode()))
    assert fps == [
        "SHA256:7c1Zc4sQn5uW0fM4sX1l4q9d0sNQ9n0K8Q2mZJ2o8tI",
        "SHA256:Qm9uZ2VyIGZpbmdlcnByaW50IGhlcmUgZm9yIHRlc3Q",
    ]
    assert parse_console_fingerprints("no markers here") == []


def test_host_key_fingerprints_and_login_user(acct, moto):
    p = AwsProvider()
    inst = p.launch(acct, CREDS, _req())
    assert inst.tags["labgpu-user"] == "ubuntu"  # Ubuntu-based Deep Learning AMI
    # moto's console output is a fixed text without cloud-init's fingerprint block: nothing to verify yet.
    assert p.host_key_fingerprints(acct, CREDS, inst.id) == []


def test_disk_smaller_than_the_image_is_raised_and_said(pacct, aws_proxy):
    steps = []
    AwsProvider().launch(pacct, CREDS, _req(disk_gb=10), progress=lambda s, m="": steps.append((s, m)))
    [params] = aws_proxy.params("RunInstances")
    assert params["BlockDeviceMapping.1.Ebs.VolumeSize"] == "15"  # moto's images have a 15 GB root snapshot
    assert params["BlockDeviceMapping.1.Ebs.DeleteOnTermination"] == "true"  # no disk left billing
    assert any("at least 15 GB" in m for s, m in steps if s == "image")
    AwsProvider().launch(pacct, CREDS, _req(disk_gb=200, client_token="tok-2"))
    assert aws_proxy.params("RunInstances")[-1]["BlockDeviceMapping.1.Ebs.VolumeSize"] == "200"
