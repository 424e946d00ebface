"""The same sync against each service's endpoint shape: Tencent COS, Alibaba OSS and Huawei OBS take
virtual-hosted requests only (the peer refuses path style on their hosts, as their S3-compatibility
documents say), S3 both; the requests reach the peer through the account's proxy under the services'
real host names."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.buckets import MIB
from tests.cloud.bucket_sync_kit import (
    BUCKETS,
    bucket,
    same_tree,
    small_parts,  # noqa: F401 - fixture
    sync,
    tree,
)

pytestmark = pytest.mark.usefixtures("small_parts")

HOST_OF = {
    "s3": "lab-data.s3.us-east-1.amazonaws.com",
    "cos": "lab-data-1250000000.cos.ap-guangzhou.myqcloud.com",
    "oss": "lab-data-oss.oss-cn-hangzhou.aliyuncs.com",
    "obs": "lab-data-obs.obs.cn-north-4.myhuaweicloud.com",
}


@pytest.mark.parametrize("scheme", ["s3", "cos", "oss", "obs"])
def test_up_down_resync_and_mirror_on_each_service(s3_peer, tmp_path: Path, scheme: str) -> None:
    src, back = tmp_path / "src", tmp_path / "back"
    tree(src, files=25, big=12 * MIB)
    target, creds = bucket(s3_peer, scheme, prefix="runs/exp1")

    up = sync(target, creds, src, channels=3)
    down = sync(target, creds, back, "down", channels=3)

    assert (up.files, down.files, down.verified) == (26, 26, 26)
    same_tree(src, back)
    assert {q.host for q in s3_peer.requests} == {HOST_OF[scheme]}  # virtual-hosted, the real host name
    assert {q.status for q in s3_peer.requests} == {200, 206}  # nothing refused; 206: the ranges of big.bin
    (src / "big.bin").unlink()
    s3_peer.clear_requests()

    again = sync(target, creds, src, delete=True)

    assert (again.files, again.deleted, again.skipped) == (0, 1, 25)
    assert s3_peer.ops() == ["ListObjectsV2", "DeleteObjects"]
    assert "runs/exp1/big.bin" not in s3_peer.keys(scheme, BUCKETS[scheme], "runs/")


def test_s3_in_path_style_against_the_peer_address(s3_peer, tmp_path: Path) -> None:
    src, back = tmp_path / "src", tmp_path / "back"
    tree(src, files=10, big=9 * MIB)
    target, creds = bucket(s3_peer, "s3", virtual=False)

    sync(target, creds, src)
    r = sync(target, creds, back, "down")

    assert target.endpoint.addressing == "path" and r.files == 11
    same_tree(src, back)
    assert all(q.path.startswith(f"/{BUCKETS['s3']}") for q in s3_peer.requests)


@pytest.mark.parametrize(("scheme", "name", "home", "there"), [
    ("s3", "far-s3", "us-east-1", "eu-west-1"),
    ("cos", "far-1250000000", "ap-guangzhou", "ap-shanghai"),
    ("oss", "far-oss", "cn-hangzhou", "cn-beijing"),
    ("obs", "far-obs", "cn-north-4", "ap-southeast-1"),
])
def test_a_bucket_of_another_region_names_its_region_on_each_service(s3_peer, tmp_path: Path, scheme: str,
                                                                      name: str, home: str, there: str) -> None:
    from app.cloud.storage.client import target_for
    from app.cloud.storage.errors import BucketError
    from app.core.buckets import parse_bucket_url

    s3_peer.make_bucket(scheme, name, there)
    account, creds = s3_peer.account("lab", scheme, home)  # the request goes to the home region's host

    with pytest.raises(BucketError) as e:
        sync(target_for(account, parse_bucket_url(f"{scheme}://{name}/x")), creds, tmp_path / "d", "down")

    assert there in e.value.text() and home in e.value.text() and there in e.value.hint()
    assert not (tmp_path / "d").exists()
