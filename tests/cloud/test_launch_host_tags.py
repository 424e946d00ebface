"""A launched instance tells the host side how to log in: the launch writes the ``labgpu:ssh-user``
and ``labgpu:ssh-key-path`` tags that the host made from the instance (and "copy SSH command") read.
AWS through moto, Tencent Cloud through the local CVM server."""

from __future__ import annotations

import subprocess

import pytest

from app.cloud import sshkeys
from app.cloud.launch import CloudService
from app.cloud.launch_plan import LaunchOptions
from app.core.accounts import Account, Credentials
from app.core.hosts import instance_hosts
from app.core.paths import default_paths
from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET
from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY

SSH_FROM = "198.51.100.7/32"


@pytest.fixture
def both(secret_service, moto, tencent_server, labgpu_home):
    svc = CloudService()
    svc.accounts.add(Account("lab-aws", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    svc.accounts.add(
        Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint, {"protocol": "http"}),
        Credentials(TEST_SECRET_ID, TEST_SECRET_KEY),
    )
    yield svc, tencent_server
    svc.close()


def _amazon_linux_ami(moto) -> str:
    ec2 = moto.ec2()
    return ec2.register_image(
        Name="al2023-ami-2023.6.20250107.0-kernel-6.1-x86_64",
        Description="Amazon Linux 2023 AMI",
        Architecture="x86_64",
        RootDeviceName="/dev/xvda",
        VirtualizationType="hvm",
    )["ImageId"]


def _host(instance_id: str):
    [host] = [h for h in instance_hosts() if h.instance_id == instance_id]
    return host


def _user_key(tmp_path, kind="ed25519"):
    key = tmp_path / "my_lab_key"
    subprocess.run(["ssh-keygen", "-q", "-t", kind, "-N", "", "-f", str(key)], check=True)
    return key


def test_aws_amazon_linux_with_labgpus_own_key(both, moto):
    svc, _ = both
    res = svc.launch(LaunchOptions(account="lab-aws", instance_type="g5.xlarge", ssh_from=SSH_FROM,
                                   image_id=_amazon_linux_ami(moto)))
    own = sshkeys.key_dir(default_paths()) / sshkeys.DEFAULT_KEY_NAME
    assert res.ssh_key_path == str(own)
    host = _host(res.entry.id)
    assert (host.user, host.key_path, host.auth) == ("ec2-user", str(own), "key")
    assert host.hostname == res.entry.public_ip
    assert svc.ssh_command(res.entry.id) == f"ssh -i {own} ec2-user@{res.entry.public_ip}"


def test_aws_users_own_key_is_the_hosts_key(both, moto, tmp_path):
    svc, _ = both
    key = _user_key(tmp_path)
    res = svc.launch(LaunchOptions(account="lab-aws", instance_type="g5.xlarge", ssh_from=SSH_FROM,
                                   ssh_key_path=str(key)))
    host = _host(res.entry.id)
    assert (host.user, host.key_path, host.auth) == ("ubuntu", str(key), "key")  # Ubuntu-based DLAMI
    assert svc.ssh_command(res.entry.id) == f"ssh -i {key} ubuntu@{res.entry.public_ip}"


def test_aws_instance_launched_before_keeps_its_old_user_tag(both, moto):
    svc, _ = both
    ec2 = moto.ec2()
    iid = ec2.run_instances(
        ImageId=_amazon_linux_ami(moto), InstanceType="g5.xlarge", MinCount=1, MaxCount=1,
        TagSpecifications=[{"ResourceType": "instance",
                            "Tags": [{"Key": "labgpu", "Value": "1"}, {"Key": "labgpu-user", "Value": "ec2-user"}]}],
    )["Instances"][0]["InstanceId"]
    svc.reconcile()
    host = _host(iid)
    assert (host.user, host.key_path) == ("ec2-user", "")
    assert svc.ssh_command(iid) == f"ssh ec2-user@{host.hostname}"


def test_tencent_ubuntu_image_with_labgpus_own_key(both):
    svc, _ = both
    res = svc.launch(LaunchOptions(account="lab-tc", instance_type="GN7.2XLARGE32", ssh_from=SSH_FROM))
    own = sshkeys.key_dir(default_paths()) / "labgpu_rsa"  # Tencent imports RSA keys only
    host = _host(res.entry.id)
    assert (host.user, host.key_path, host.auth) == ("ubuntu", str(own), "key")
    assert svc.ssh_command(res.entry.id) == f"ssh -i {own} ubuntu@{res.entry.public_ip}"


def test_tencent_centos_image_logs_in_as_root_with_the_users_key(both, tmp_path):
    svc, server = both
    server.filler_images = 1  # img-centos000
    key = _user_key(tmp_path, "rsa")  # Tencent imports RSA keys only
    res = svc.launch(LaunchOptions(account="lab-tc", instance_type="GN7.2XLARGE32", ssh_from=SSH_FROM,
                                   image_id="img-centos000", ssh_key_path=str(key)))
    host = _host(res.entry.id)
    assert (host.user, host.key_path, host.auth) == ("root", str(key), "key")
