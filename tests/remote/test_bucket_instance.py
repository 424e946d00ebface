"""Instance ↔ bucket with presigned URLs, on real peers: the test sshd on 127.0.0.1 stands in for the
instance and fetches from / puts to the strict S3 peer (tests/fixtures/s3_peer.py: moto behind a proxy
that checks every presigned signature and its expiry against a fake clock) over loopback, path style.

The host's curl logs its own argv (a wrapper first on PATH): no presigned link — they all carry the
access key id — ever reaches a command line; and afterwards neither the key id nor the secret is
anywhere in the host user's home or the test's folders."""

from __future__ import annotations

import os

import pytest

from app.cloud.storage import presign
from app.core.errors import LabGpuError
from app.core.paths import default_paths
from app.usecases.bucketinstance import bucket_to_host, host_to_bucket
from tests.fixtures.s3_peer import S3Peer
from tests.remote.bucket_instance_support import grep_tree, host_home, save_account, saved_host, tools_server

BUCKET = "lab-data"
MIB = 1024 * 1024


@pytest.fixture(scope="module")
def host():
    with tools_server("curl", "wget", log_curl=True) as server:  # no python3: curl moves small files too
        yield server


@pytest.fixture
def lab(s3_peer: S3Peer, secret_service):
    s3_peer.make_bucket("s3", BUCKET, "us-east-1")
    account, creds = s3_peer.account("lab", "s3", "us-east-1", virtual=False)
    save_account(account, creds)
    return account, creds


def _clean(host, lab, dest) -> None:
    _account, creds = lab
    found = grep_tree(host_home(host), creds.key_id, creds.secret) + grep_tree(dest, creds.key_id, creds.secret)
    assert found == [], found
    argv = host.argv_log.read_text()
    assert creds.key_id not in argv and "X-Amz-" not in argv, argv[:500]


def test_bucket_to_host_with_curl_then_no_change_and_the_home_holds_no_key(s3_peer, lab, host):
    files = {"train/a.bin": os.urandom(300_000), "b.txt": b"hello\n", "sub/deep/c.bin": os.urandom(70_000),
             "name with space 'q'.txt": b"quoted", "数据/标签 $(x)`y`.txt": b"unicode", "-rf": b"dash"}
    for rel, data in files.items():
        s3_peer.put("s3", BUCKET, f"ds/{rel}", data)
    s3_peer.put("s3", BUCKET, "ds/emptydir/", b"")  # a folder marker: ignored
    s3_peer.put("s3", BUCKET, "ds/bad\\name", b"x")  # a backslash: refused on the laptop, never sent
    s3_peer.put("s3", BUCKET, "other/z.bin", b"outside the prefix")
    dest = host.remote_dir("b2h")
    name = saved_host(host, "inst")
    result = bucket_to_host(name, f"s3://{BUCKET}/ds", "lab", str(dest), paths=default_paths())
    assert result.server["download_with"] == "curl" and result.server["small_files_with"] == "curl"
    assert result.files == len(files) and result.bytes == sum(map(len, files.values()))
    for rel, data in files.items():
        assert (dest / rel).read_bytes() == data, rel
    assert [x["path"] for x in result.not_transferred] == ["bad\\name"] and result.refused == 1
    assert not (dest / "z.bin").exists() and not (dest / "emptydir").exists()
    assert not [p for p in dest.rglob("*") if p.name.endswith(".labgpu-part")]
    gets = [r for r in s3_peer.requests if r.method == "GET" and r.status == 200]
    assert len(gets) >= len(files)
    again = bucket_to_host(name, f"s3://{BUCKET}/ds", "lab", str(dest), paths=default_paths())
    assert again.files == 0 and again.bytes == 0 and again.skipped == len(files)
    _clean(host, lab, dest)


def test_host_to_bucket_small_and_multipart_with_tiny_parts(s3_peer, lab, host):
    src = host.remote_dir("h2b")
    big = os.urandom(11 * MIB + 123)  # three parts of 5 MiB (the service's minimum but for the last one)
    (src / "ckpt").mkdir()
    (src / "ckpt" / "step-10.pt").write_bytes(big)
    (src / "log.txt").write_bytes(b"epoch 1\n")
    os.symlink("/etc/passwd", src / "link")
    host.chown_to_user(src)
    name = saved_host(host, "inst")
    result = host_to_bucket(name, str(src), f"s3://{BUCKET}/run1", "lab", paths=default_paths(),
                            single_max=6 * MIB, part_size=5 * MIB)
    assert result.server["upload_with"] == "curl"
    assert result.files == 2 and result.bytes == len(big) + 8 and result.verified == 2
    assert [x["path"] for x in result.not_transferred] == ["link"]
    assert s3_peer.get("s3", BUCKET, "run1/ckpt/step-10.pt") == big
    assert s3_peer.get("s3", BUCKET, "run1/log.txt") == b"epoch 1\n"
    parts = [r for r in s3_peer.requests if r.op == "UploadPart"]
    assert len(parts) == 3 and all(r.status == 200 for r in parts)
    assert s3_peer.uploads("s3", BUCKET) == []
    _clean(host, lab, src)


def test_a_part_cut_on_the_way_aborts_the_upload_and_nothing_is_left_billing(s3_peer, lab, host):
    src = host.remote_dir("h2b-cut")
    (src / "ckpt.pt").write_bytes(os.urandom(11 * MIB))
    host.chown_to_user(src)
    name = saved_host(host, "inst")
    s3_peer.cut_upload_part(after_parts=1)  # every UploadPart after the first: the connection drops mid-body
    result = host_to_bucket(name, str(src), f"s3://{BUCKET}/cut", "lab", paths=default_paths(),
                            single_max=6 * MIB, part_size=5 * MIB)
    s3_peer.heal()
    assert result.files == 0 and not result.complete
    assert "aborted" in result.not_transferred[0]["why"], result.not_transferred
    assert s3_peer.uploads("s3", BUCKET) == [] and s3_peer.keys("s3", BUCKET, "cut/") == []
    assert "AbortMultipartUpload" in s3_peer.ops()


def test_an_expired_link_is_a_clear_error_and_nothing_half_written(s3_peer, lab, host, monkeypatch):
    s3_peer.put("s3", BUCKET, "ds/a.bin", os.urandom(50_000))
    monkeypatch.setattr(presign, "EXPIRY_FLOOR_S", 60)  # links live 60 s (+ their bytes at 2 MiB/s)
    dest = host.remote_dir("expired")
    name = saved_host(host, "inst")

    def later(_p) -> None:
        pass

    s3_peer.clock.advance(300)  # the peer's now is 5 min ahead (within its 15-min skew for the listing)
    with pytest.raises(LabGpuError) as err:
        bucket_to_host(name, f"s3://{BUCKET}/ds", "lab", str(dest), paths=default_paths(), progress=later)
    assert err.value.code == "PresignedExpired"
    assert "Run the sync again" in err.value.hint() and "clock" in err.value.hint()
    assert list(dest.rglob("*")) == []  # no file, no part file
    expired = [r for r in s3_peer.requests if r.method == "GET" and r.status == 403]
    assert expired
    _clean(host, lab, dest)


def test_an_unsafe_prefix_is_refused_before_anything_runs(s3_peer, lab, host):
    name = saved_host(host, "inst")
    with pytest.raises(LabGpuError) as err:
        bucket_to_host(name, f"s3://{BUCKET}/a/../b", "lab", str(host.remote_dir("unsafe")), paths=default_paths())
    assert err.value.code == "BadObjectKey"
    assert s3_peer.requests == []


def test_the_links_expiry_is_bounded_and_sized():
    assert presign.expiry_for(0) == presign.EXPIRY_FLOOR_S
    assert presign.expiry_for(10 * 1024 * MIB) == presign.EXPIRY_FLOOR_S + 10 * 1024 * MIB // presign.SLOW_RATE
    assert presign.expiry_for(10 ** 15) == 604800


def test_links_for_the_instance_are_signed_for_its_endpoint():
    from app.cloud.base import Account, Credentials
    from app.cloud.storage.client import target_for
    from app.core.buckets import parse_bucket_url

    acct = Account("ali", "alibaba", "cn-hangzhou",
                   extra={"instance_endpoint": "https://oss-cn-hangzhou-internal.aliyuncs.com"})
    target = target_for(acct, parse_bucket_url("oss://lab-ds/imagenet"))
    creds = Credentials("LTAIEXAMPLEKEY", "not-a-secret")
    link = presign.presign_get(presign.for_instance(target), creds, "imagenet/a.jpg", 900)
    assert link.startswith("https://lab-ds.oss-cn-hangzhou-internal.aliyuncs.com/imagenet/a.jpg?")
    assert "X-Amz-Expires=900" in link and "not-a-secret" not in link
    plain = presign.presign_get(target, creds, "imagenet/a.jpg", 900)
    assert plain.startswith("https://lab-ds.oss-cn-hangzhou.aliyuncs.com/")


def test_progress_is_told_and_a_cancel_stops_before_the_next_batch(s3_peer, lab, host):
    import threading

    for i in range(3):
        s3_peer.put("s3", BUCKET, f"ds/f{i}.bin", b"x" * 1000)
    name = saved_host(host, "inst")
    seen: list = []
    done = bucket_to_host(name, f"s3://{BUCKET}/ds", "lab", str(host.remote_dir("prog")), paths=default_paths(),
                          progress=seen.append)
    assert done.files == 3 and seen[-1].state == "done"
    assert seen[-1].files_done == 3 and seen[-1].bytes_done == 3000 and seen[-1].files_total == 3
    s3_peer.clear_requests()
    cancel = threading.Event()
    cancel.set()
    dest = host.remote_dir("cancelled")
    got = bucket_to_host(name, f"s3://{BUCKET}/ds", "lab", str(dest), paths=default_paths(), cancel=cancel)
    assert got.files == 0 and not got.complete
    assert {x["why"] for x in got.not_transferred} == {"cancelled before it was transferred"}
    assert [r for r in s3_peer.requests if r.method == "GET" and r.key.startswith("ds/f")] == []
    assert list(dest.iterdir()) == []
