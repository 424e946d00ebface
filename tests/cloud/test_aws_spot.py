"""AWS spot instances against moto behind the strict EC2 proxy (tests/fixtures/ec2_strict_proxy.py),
which applies the spot rules AWS documents and moto leaves out.

The rule LabGPU follows: a spot instance it launches is a persistent request that stops on
interruption, so Stop stops it; Terminate cancels the request first, so no replacement comes back.
A one-time spot instance (an older LabGPU's, or one made outside LabGPU) cannot be stopped: the
provider says so before calling StopInstances, and a refusal AWS sends is the same StopRefusedError.
"""

from __future__ import annotations

import pytest

from app.cloud.aws import AwsProvider
from app.cloud.aws import client as aws_mod
from app.cloud.base import LABGPU_TAG_KEY, LABGPU_TAG_VALUE, LaunchRequest, StopRefusedError
from app.core.accounts import Account, Credentials
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET, UBUNTU_AMI

CREDS = Credentials(AWS_KEY_ID, AWS_SECRET)
PUB = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAID/lWbUumpQSCUVa9pwxQgVOfItPeL8qb7ODGzKvrkuQ test"


def _req(**kw) -> LaunchRequest:
    base = dict(instance_type="g5.xlarge", region="us-east-1", ssh_key_name="labgpu-test", public_key=PUB,
                ssh_cidr="198.51.100.7/32", client_token="tok-spot", spot=True, max_price=0.8)
    base.update(kw)
    return LaunchRequest(**base)


@pytest.fixture
def acct(moto):
    return Account("lab", "aws", "us-east-1", moto.url)


def legacy_one_time_spot(moto) -> str:
    """A one-time spot instance as LabGPU launched them before (or as the console makes them)."""
    resp = moto.ec2().run_instances(
        ImageId=UBUNTU_AMI, MinCount=1, MaxCount=1, InstanceType="g5.xlarge",
        InstanceMarketOptions={"MarketType": "spot", "SpotOptions": {
            "SpotInstanceType": "one-time", "InstanceInterruptionBehavior": "terminate"}},
        TagSpecifications=[{"ResourceType": "instance",
                            "Tags": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]}])
    return str(resp["Instances"][0]["InstanceId"])


def _state(p: AwsProvider, acct: Account, iid: str) -> str:
    return next(i.state for i in p.list_instances(acct, CREDS) if i.id == iid)


def test_a_launched_spot_instance_is_a_persistent_request_and_stops(acct, moto):
    p = AwsProvider()
    inst = p.launch(acct, CREDS, _req())
    req = moto.strict.request_of(inst.id)
    assert (req.type, req.behaviour, req.state) == ("persistent", "stop", "active")
    assert p.stop_refusal(acct, CREDS, inst.id) == ""
    assert "EBS" in p.stop(acct, CREDS, inst.id)
    assert _state(p, acct, inst.id) in ("stopping", "stopped")
    assert req.state == "disabled"  # a stopped persistent spot instance: its request waits for a start
    p.start(acct, CREDS, inst.id)
    assert req.state == "active"


def test_terminate_cancels_the_request_so_nothing_comes_back(acct, moto):
    p = AwsProvider()
    inst = p.launch(acct, CREDS, _req())
    p.terminate(acct, CREDS, inst.id)
    assert moto.strict.request_of(inst.id).state == "cancelled"
    assert moto.strict.replacements == []
    assert moto.strict.open_requests() == []
    assert [i.id for i in p.list_instances(acct, CREDS) if i.state not in ("terminated", "terminating")] == []
    # and a stopped one too: a disabled request is cancelled before the terminate
    again = p.launch(acct, CREDS, _req(client_token="tok-2"))
    p.stop(acct, CREDS, again.id)
    p.terminate(acct, CREDS, again.id)
    assert moto.strict.request_of(again.id).state == "cancelled"
    assert moto.strict.replacements == []


def test_the_proxy_brings_a_replacement_when_the_request_is_left_open(acct, moto):
    """What the cancel prevents: a terminate alone opens the persistent request again and AWS launches
    a new instance, one more bill (the proxy's rule, "Terminate a Spot Instance")."""
    p = AwsProvider()
    inst = p.launch(acct, CREDS, _req())
    moto.ec2().terminate_instances(InstanceIds=[inst.id])
    [new] = moto.strict.replacements
    assert new != inst.id
    assert _state(p, acct, new) == "running"  # tagged like the first: LabGPU would list it as billing


def test_a_one_time_spot_instance_is_refused_before_any_stop_call(acct, moto):
    p = AwsProvider()
    iid = legacy_one_time_spot(moto)
    assert p.stop_refusal(acct, CREDS, iid) == "AWS cannot stop a one-time spot instance"
    moto.strict.calls.clear()
    with pytest.raises(StopRefusedError) as err:
        p.stop(acct, CREDS, iid)
    assert "StopInstances" not in moto.strict.calls
    assert err.value.params["reason"] == "AWS cannot stop a one-time spot instance"
    assert iid in err.value.text() and "one-time" in err.value.text()
    assert "terminate" in err.value.hint() and "deletes its disk" in err.value.hint()
    assert _state(p, acct, iid) == "running"
    p.terminate(acct, CREDS, iid)  # terminating is what ends it; nothing to cancel for one-time
    assert moto.strict.request_of(iid).state == "closed"
    assert moto.strict.replacements == []


def test_the_refusal_aws_sends_is_the_same_error(acct, moto, monkeypatch):
    """When the spot request cannot be read first (AWS deletes old requests), the stop is sent and AWS's
    own refusal (UnsupportedOperation, from the strict proxy) becomes the StopRefusedError."""
    monkeypatch.setattr(aws_mod, "MAX_ATTEMPTS", 1)
    p = AwsProvider()
    iid = legacy_one_time_spot(moto)
    monkeypatch.setattr(AwsProvider, "stop_refusal", lambda self, a, c, i: "")
    with pytest.raises(StopRefusedError) as err:
        p.stop(acct, CREDS, iid)
    assert err.value.code == "UnsupportedOperation"
    assert "one-time Spot Instance request" in err.value.text()  # AWS's words, as data
    assert "terminate" in err.value.hint()


def test_a_cancelled_request_cannot_be_stopped(acct, moto):
    p = AwsProvider()
    inst = p.launch(acct, CREDS, _req())
    moto.ec2().cancel_spot_instance_requests(SpotInstanceRequestIds=[moto.strict.request_of(inst.id).id])
    with pytest.raises(StopRefusedError) as err:
        p.stop(acct, CREDS, inst.id)
    assert "cancelled" in err.value.text()


def test_the_strict_proxy_refuses_what_the_reference_refuses(moto):
    from botocore.exceptions import ClientError

    ec2 = moto.ec2()

    def run(**spot):
        return ec2.run_instances(ImageId=UBUNTU_AMI, MinCount=1, MaxCount=1, InstanceType="g5.xlarge",
                                 InstanceMarketOptions={"MarketType": "spot", "SpotOptions": spot})

    for bad in ({"SpotInstanceType": "persistent", "InstanceInterruptionBehavior": "terminate"},
                {"SpotInstanceType": "one-time", "InstanceInterruptionBehavior": "stop"},
                {"SpotInstanceType": "one-time", "ValidUntil": "2030-01-01T00:00:00Z"}):
        with pytest.raises(ClientError) as err:
            run(**bad)
        assert err.value.response["Error"]["Code"] == "InvalidParameterCombination", bad
    with pytest.raises(ClientError) as err:
        run(SpotInstanceType="persistent", InstanceInterruptionBehavior="stop", MaxPrice="0.0001")
    assert err.value.response["Error"]["Code"] == "InvalidParameterValue"
