"""Instance ↔ bucket on hosts with different programs: only python3 (curl and wget hidden from PATH), only
GNU wget (downloads only: LabGPU never uploads with wget), and none of them. The python3 host talks to a
COS bucket the way COS requires — virtual-hosted names (``BUCKET.cos.ap-guangzhou.myqcloud.com``) —
reaching the strict S3 peer through the account's ``instance_proxy`` (the peer answers the service's
real host names as an HTTP proxy and refuses path style on COS hosts)."""

from __future__ import annotations

import dataclasses
import os

import pytest

from app.core.errors import LabGpuError
from app.core.paths import default_paths
from app.usecases.bucketinstance import bucket_to_host, host_to_bucket
from tests.fixtures.s3_peer import S3Peer
from tests.remote.bucket_instance_support import grep_tree, host_home, save_account, saved_host, tools_server

COS = "data-1250000000"
MIB = 1024 * 1024


@pytest.fixture
def cos(s3_peer: S3Peer, secret_service):
    s3_peer.make_bucket("cos", COS, "ap-guangzhou")
    account, creds = s3_peer.account("tx", "cos", "ap-guangzhou", virtual=True)
    account = dataclasses.replace(account, extra={**account.extra, "instance_proxy": s3_peer.url})
    save_account(account, creds)
    return account, creds


def test_python3_only_host_both_ways_with_cos_virtual_hosted(s3_peer, cos):
    _account, creds = cos
    files = {"imagenet/train/0.jpg": os.urandom(40_000), "imagenet/val.txt": b"x\n", "类别 $(x) 'q'.txt": b"u"}
    for rel, data in files.items():
        s3_peer.put("cos", COS, f"ds/{rel}", data)
    with tools_server("python3") as host:
        name = saved_host(host, "py-only")
        dest = host.remote_dir("py-down")
        got = bucket_to_host(name, f"cos://{COS}/ds", "tx", str(dest), paths=default_paths())
        assert got.server["download_with"] == "python3" and not got.server["curl"] and not got.server["wget"]
        assert got.complete and got.files == 3
        for rel, data in files.items():
            assert (dest / rel).read_bytes() == data
        src = host.remote_dir("py-up")
        big = os.urandom(11 * MIB)
        (src / "ckpt.pt").write_bytes(big)
        (src / "small.txt").write_bytes(b"s")
        host.chown_to_user(src)
        put = host_to_bucket(name, str(src), f"cos://{COS}/up", "tx", paths=default_paths(),
                             single_max=6 * MIB, part_size=5 * MIB)
        assert put.server["upload_with"] == "python3" and put.complete and put.files == 2
        assert s3_peer.get("cos", COS, "up/ckpt.pt") == big and s3_peer.get("cos", COS, "up/small.txt") == b"s"
        hosts = {r.host for r in s3_peer.requests}
        assert hosts and all(h.startswith(f"{COS}.cos.ap-guangzhou.myqcloud.com") for h in hosts), hosts
        assert s3_peer.uploads("cos", COS) == []
        found = grep_tree(host_home(host), creds.key_id, creds.secret) + grep_tree(dest, creds.key_id) \
            + grep_tree(src, creds.key_id)
        assert found == [], found


def test_wget_only_host_downloads_and_says_why_it_cannot_upload(s3_peer, cos):
    s3_peer.put("cos", COS, "ds/a.bin", b"a" * 1000)
    with tools_server("wget") as host:
        name = saved_host(host, "wget-only")
        dest = host.remote_dir("w-down")
        got = bucket_to_host(name, f"cos://{COS}/ds", "tx", str(dest), paths=default_paths())
        assert got.server["download_with"] == "wget" and got.server["wget"] == "gnu"
        assert (dest / "a.bin").read_bytes() == b"a" * 1000
        s3_peer.clear_requests()
        with pytest.raises(LabGpuError) as err:
            host_to_bucket(name, str(dest), f"cos://{COS}/up", "tx", paths=default_paths())
        assert err.value.code == "NoUploader"
        assert "curl" in err.value.text() and "python3" in err.value.text() and "BusyBox" in err.value.text()
        assert s3_peer.writes() == []


def test_a_host_without_any_program_is_told_what_to_install(s3_peer, cos):
    s3_peer.put("cos", COS, "ds/a.bin", b"a")
    with tools_server() as host:
        name = saved_host(host, "bare")
        with pytest.raises(LabGpuError) as err:
            bucket_to_host(name, f"cos://{COS}/ds", "tx", str(host.remote_dir("bare")), paths=default_paths())
        assert err.value.code == "NoFetcher" and "curl" in err.value.hint()
