"""The bucket browser's API (app/cloud/storage/browse.py) against the strict S3 peer: an account's
buckets, one folder level, a prefix's size; names that cannot be local paths are not offered."""

from __future__ import annotations

import threading

import pytest

from app.cloud.storage.browse import list_buckets, list_level, usage
from app.cloud.storage.client import target_for
from app.cloud.storage.errors import BucketError
from app.core.buckets import parse_bucket_url
from tests.cloud.bucket_sync_kit import BUCKETS, bucket

B = BUCKETS["s3"]


@pytest.mark.parametrize("scheme", ["s3", "cos"])
def test_an_accounts_buckets_are_listed_by_name(s3_peer, scheme: str) -> None:
    region = "us-east-1" if scheme == "s3" else "ap-guangzhou"
    names = ["zeta-data", "alpha-data"] if scheme == "s3" else ["zeta-1250000000", "alpha-1250000000"]
    for n in names:
        s3_peer.make_bucket(scheme, n, region)
    account, creds = s3_peer.account("lab", scheme, region)

    got = list_buckets(account, creds)

    assert [b.name for b in got] == sorted(names)
    assert all(b.created > 0 for b in got)


def test_one_level_shows_folders_and_files_and_hides_unsafe_names(s3_peer) -> None:
    target, creds = bucket(s3_peer, prefix="ds")
    for key, data in [("ds/a.txt", b"aa"), ("ds/sub/b.txt", b"b"), ("ds/sub/c/d.txt", b"d"),
                      ("ds/empty/", b""), ("ds/ctl\x01.txt", b"x"), ("ds/../up.txt", b"x"), ("other/z", b"z")]:
        s3_peer.put("s3", B, key, data)

    level = list_level(target, creds)

    assert level.folders == ["empty", "sub"] and level.hidden == 2
    assert [(o.rel, o.size) for o in level.objects] == [("a.txt", 2)]
    assert level.objects[0].key == "ds/a.txt" and level.objects[0].mtime > 0 and not level.truncated
    deeper = list_level(target_for(target.account, target.url.child("sub")), creds)
    assert (deeper.folders, [o.rel for o in deeper.objects]) == (["c"], ["b.txt"])


def test_a_long_level_is_cut_at_max_keys_and_says_so(s3_peer) -> None:
    target, creds = bucket(s3_peer, prefix="")
    for i in range(7):
        s3_peer.put("s3", B, f"f{i}.txt", b"x")

    level = list_level(target, creds, max_keys=3)

    assert len(level.objects) == 3 and level.truncated


def test_usage_adds_up_a_prefix_and_stops_when_cancelled(s3_peer) -> None:
    target, creds = bucket(s3_peer, prefix="ds")
    for i in range(5):
        s3_peer.put("s3", B, f"ds/n{i}/f.bin", b"x" * (100 * (i + 1)))
    s3_peer.put("s3", B, "elsewhere.bin", b"y" * 999)

    whole = usage(target, creds)
    stopped = threading.Event()
    stopped.set()
    cut = usage(target, creds, cancel=stopped)

    assert (whole.bytes, whole.objects, whole.complete) == (1500, 5, True)
    assert cut.complete is False


def test_browsing_without_the_list_permission_is_a_clear_error(s3_peer) -> None:
    no_list = s3_peer.new_key(allow=("s3:GetObject",))
    target, creds = bucket(s3_peer, creds=no_list)

    with pytest.raises(BucketError) as e:
        list_level(target, creds)

    assert e.value.code == "AccessDenied" and "s3:ListBucket" in e.value.hint()
    with pytest.raises(BucketError):
        list_buckets(target.account, creds)


def test_a_missing_bucket_is_named(s3_peer) -> None:
    target, creds = bucket(s3_peer)
    gone = target_for(target.account, parse_bucket_url("s3://no-such-bucket-here/x"))

    with pytest.raises(BucketError) as e:
        usage(gone, creds)

    assert e.value.code == "NoSuchBucket" and "no-such-bucket-here" in e.value.text()
