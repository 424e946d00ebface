"""Bucket locations as a student types them: each service's naming rules, prefixes that can never become a
path outside the destination, the region endpoint each service documents, and part sizes within S3's
10,000-part limit."""

from __future__ import annotations

import pytest

from app.core.buckets import (
    MAX_OBJECT_SIZE,
    MAX_PARTS,
    MIB,
    MIN_PART_SIZE,
    TIB,
    BucketUrl,
    endpoint_for,
    is_bucket_url,
    key_problem,
    parse_bucket_url,
    part_size_for,
    too_big,
)
from app.core.errors import InputError


def test_a_location_reads_as_scheme_bucket_and_prefix_and_maps_keys_both_ways():
    url = parse_bucket_url(" cos://data-1250000000/imagenet/train/ ")
    assert url == BucketUrl("cos", "data-1250000000", "imagenet/train")
    assert url.provider == "tencent" and str(url) == "cos://data-1250000000/imagenet/train"
    assert url.key_for("n01/a.jpg") == "imagenet/train/n01/a.jpg"
    assert url.rel_of("imagenet/train/n01/a.jpg") == "n01/a.jpg"
    assert url.rel_of("imagenet/trainee/x") is None and url.rel_of("imagenet/train/") is None
    whole = parse_bucket_url("s3://my-lab-data")
    assert whole.prefix == "" and whole.key_for("a/b") == "a/b" and whole.list_prefix == ""
    assert whole.child("runs").key_for("x") == "runs/x"
    assert [parse_bucket_url(t).provider for t in ("oss://lab-data/x", "obs://lab.data/x")] == ["alibaba", "huawei"]


@pytest.mark.parametrize("text", [
    "s3://ab",  # under 3 characters
    "s3://My-Bucket/x",  # capitals
    "s3://192.168.1.10/x",  # an IP address
    "s3://xn--abc/x", "s3://data-s3alias/x",  # reserved by S3
    "s3://a..b/x", "s3://a.-b/x",
    "s3://bücket/x",  # unicode in a bucket name
    "cos://data/x",  # COS needs the APPID suffix
    "oss://lab.data/x",  # OSS takes no dots
    "gs://bucket/x", "http://bucket/x", "bucket/x", "s3:/bucket",
])
def test_names_the_services_refuse_are_refused_with_a_next_step(text):
    with pytest.raises(InputError) as err:
        parse_bucket_url(text)
    assert err.value.code in ("BadBucketUrl", "BadBucketName")
    assert err.value.hint  # says what a valid name looks like


@pytest.mark.parametrize(("text", "code"), [
    ("s3://lab-data/../etc", "BadObjectKey"),
    ("s3://lab-data/a/./b", "BadObjectKey"),
    ("s3://lab-data//abs", "BadObjectKey"),
    ("s3://lab-data/a//b", "BadObjectKey"),
    ("s3://lab-data/a\\b", "BadObjectKey"),
    ("s3://lab-data/a\x1b[31mb", "BadObjectKey"),
    ("s3://lab-data/" + "x" * 1100, "BadObjectKey"),
])
def test_a_prefix_that_could_leave_the_destination_is_refused(text, code):
    with pytest.raises(InputError) as err:
        parse_bucket_url(text)
    assert err.value.code == code


def test_unicode_keys_are_fine_and_hostile_keys_each_have_a_reason():
    assert key_problem("数据集/训练 集/图像.jpg") is None
    assert key_problem("-rf") is None  # a name, never an option: the transfers never pass keys as arguments
    for bad in ("../x", "a/../b", "/a", "a//b", "a/", "a\x00b", "a\nb", "a\\b", "é" * 600):
        assert key_problem(bad), bad
    assert not is_bucket_url("gpu1:~/data") and is_bucket_url("obs://lab-data/x")


def test_each_service_gets_its_documented_region_endpoint_and_virtual_hosted_style():
    cases = {
        "s3://lab-data": ("us-west-2", "https://s3.us-west-2.amazonaws.com"),
        "cos://data-1250000000": ("ap-guangzhou", "https://cos.ap-guangzhou.myqcloud.com"),
        "oss://lab-data": ("cn-hangzhou", "https://oss-cn-hangzhou.aliyuncs.com"),
        "obs://lab-data": ("cn-north-4", "https://obs.cn-north-4.myhuaweicloud.com"),
    }
    for text, (region, url) in cases.items():
        ep = endpoint_for(parse_bucket_url(text), region)
        assert (ep.url, ep.addressing, ep.region) == (url, "virtual", region)
    # a dotted S3 bucket name breaks the TLS wildcard: path style; a local server answers one host name
    assert endpoint_for(parse_bucket_url("s3://lab.data"), "us-east-1").addressing == "path"
    local = endpoint_for(parse_bucket_url("s3://lab-data"), "us-east-1", override="http://127.0.0.1:9000")
    assert (local.url, local.addressing) == ("http://127.0.0.1:9000", "path")
    with pytest.raises(InputError):
        endpoint_for(parse_bucket_url("s3://lab-data"), "us-east-1/../evil")


def test_part_sizes_keep_any_object_within_10000_parts():
    assert part_size_for(100 * MIB) == 16 * MIB
    assert part_size_for(1) == 16 * MIB >= MIN_PART_SIZE
    five_tb = 5 * 10**12
    size = part_size_for(five_tb)
    assert size % MIB == 0 and -(-five_tb // size) <= MAX_PARTS
    assert -(-MAX_OBJECT_SIZE // part_size_for(MAX_OBJECT_SIZE)) <= MAX_PARTS
    assert not too_big(MAX_OBJECT_SIZE) and too_big(MAX_OBJECT_SIZE + 1) and MAX_OBJECT_SIZE == 5 * TIB
