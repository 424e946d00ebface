"""The bucket sync engine against the strict S3 peer (moto behind a proxy that checks SigV4, Content-MD5
and the services' addressing rules): what a student sees when a folder goes to a bucket and back."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from app.cloud.storage.errors import BucketError
from app.core.buckets import MIB
from app.core.syncmodel import SyncResult
from tests.cloud.bucket_sync_kit import (
    BUCKETS,
    bucket,
    engine,
    same_tree,
    small_parts,  # noqa: F401 - fixture
    sync,
    tree,
    write,
)

pytestmark = pytest.mark.usefixtures("small_parts")


def test_folder_goes_up_and_comes_back_byte_identical(s3_peer, tmp_path: Path) -> None:
    src, back = tmp_path / "src", tmp_path / "back"
    files = tree(src, files=300, big=40 * MIB)
    target, creds = bucket(s3_peer)

    up = sync(target, creds, src, channels=4)

    assert (up.files, up.bytes, up.complete) == (301, sum(len(b) for b in files.values()), True)
    assert s3_peer.get("s3", BUCKETS["s3"], "ds/big.bin") == files["big.bin"]
    assert s3_peer.ops().count("UploadPart") == 8  # 40 MiB in 5 MiB parts, one request each
    assert len(s3_peer.keys("s3", BUCKETS["s3"], "ds/")) == 301
    assert s3_peer.uploads("s3", BUCKETS["s3"]) == []  # nothing left billing

    down = sync(target, creds, back, "down", channels=4)

    assert (down.files, down.bytes, down.verified, down.complete) == (301, up.bytes, 301, True)
    same_tree(src, back)
    assert not list(back.rglob("*.labgpu-part"))


def test_a_sync_with_nothing_changed_moves_nothing_and_reads_no_object(s3_peer, tmp_path: Path) -> None:
    src, back = tmp_path / "src", tmp_path / "back"
    tree(src, files=40, big=12 * MIB)
    target, creds = bucket(s3_peer)
    sync(target, creds, src)
    sync(target, creds, back, "down")
    s3_peer.clear_requests()

    again_up = sync(target, creds, src)
    again_down = sync(target, creds, back, "down")

    assert (again_up.files, again_up.bytes, again_up.skipped) == (0, 0, 41)
    assert (again_down.files, again_down.bytes, again_down.skipped) == (0, 0, 41)
    assert set(s3_peer.ops()) == {"ListObjectsV2"}  # no HEAD, no GET: the metadata is remembered per ETag


def test_objects_another_tool_wrote_are_read_once_then_remembered(s3_peer, tmp_path: Path) -> None:
    target, creds = bucket(s3_peer)
    s3_peer.put("s3", BUCKETS["s3"], "ds/a.txt", b"from the console")
    s3_peer.put("s3", BUCKETS["s3"], "ds/b/c.txt", b"from coscmd")

    first = sync(target, creds, tmp_path / "local", "down")
    s3_peer.clear_requests()
    second = sync(target, creds, tmp_path / "local", "down")

    assert (first.files, second.files, second.skipped) == (2, 0, 2)
    assert (tmp_path / "local/b/c.txt").read_bytes() == b"from coscmd"
    assert set(s3_peer.ops()) == {"ListObjectsV2"}


def test_a_changed_file_goes_up_again_and_a_newer_object_is_a_conflict(s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    write(src / "notes.txt", 100, seed=1)
    write(src / "keep.txt", 100, seed=2)
    target, creds = bucket(s3_peer)
    sync(target, creds, src)
    write(src / "notes.txt", 150, seed=3)

    r = sync(target, creds, src)

    assert (r.files, r.skipped) == (1, 1)
    assert s3_peer.get("s3", BUCKETS["s3"], "ds/notes.txt") == (src / "notes.txt").read_bytes()
    # the local copy is older than what the bucket holds now: left alone unless forced
    os.utime(src / "keep.txt", (1_000_000_000, 1_000_000_000))
    write(src / "keep.txt", 120, seed=4)
    os.utime(src / "keep.txt", (1_000_000_000, 1_000_000_000))
    r = sync(target, creds, src)
    assert (r.files, r.conflicts, r.conflict_paths) == (0, 1, ["keep.txt"])


def test_dry_run_sends_no_writing_request_and_writes_no_file(s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    tree(src, files=20, big=12 * MIB)
    target, creds = bucket(s3_peer)
    s3_peer.put("s3", BUCKETS["s3"], "ds/only-in-bucket.txt", b"x")
    s3_peer.clear_requests()

    up = sync(target, creds, src, dry_run=True, delete=True)
    down = sync(target, creds, tmp_path / "empty", "down", dry_run=True)

    assert s3_peer.writes() == []
    assert not (tmp_path / "empty").exists()
    would = up.summary()["would"]
    assert (would["to_transfer"], would["to_delete"], up.files, up.deleted) == (21, 1, 21, 1)
    assert (down.files, down.dry_run) == (1, True)
    assert s3_peer.keys("s3", BUCKETS["s3"], "ds/") == ["ds/only-in-bucket.txt"]


def test_mirror_deletes_in_the_bucket_and_locally(s3_peer, tmp_path: Path) -> None:
    src, back = tmp_path / "src", tmp_path / "back"
    tree(src, files=30)
    target, creds = bucket(s3_peer)
    sync(target, creds, src)
    sync(target, creds, back, "down")
    gone = sorted((src / "d1").rglob("*.txt"))
    for p in gone:
        p.unlink()

    up = sync(target, creds, src, delete=True)
    down = sync(target, creds, back, "down", delete=True)

    assert up.deleted == len(gone) == 5
    assert "DeleteObjects" in s3_peer.ops() and "DeleteObject" not in s3_peer.ops()
    assert not [k for k in s3_peer.keys("s3", BUCKETS["s3"], "ds/") if k.startswith("ds/d1/")]
    assert down.deleted >= 5  # the files, and their folders when emptied
    same_tree(src, back)


def test_slow_down_is_retried_until_it_succeeds(s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    tree(src, files=3)
    target, creds = bucket(s3_peer)
    s3_peer.slow_down(2, op="PutObject")

    r = sync(target, creds, src, channels=1)

    assert (r.files, r.complete) == (3, True)
    statuses = [q.status for q in s3_peer.requests if q.op == "PutObject"]
    assert statuses.count(503) == 2 and statuses.count(200) == 3


def test_slow_down_that_never_stops_is_a_clear_error(s3_peer, tmp_path: Path, monkeypatch) -> None:
    from app.cloud.storage import client

    monkeypatch.setattr(client, "MAX_RETRIES", 2)
    src = tmp_path / "src"
    tree(src, files=1)
    target, creds = bucket(s3_peer)
    s3_peer.slow_down(50, op="PutObject")

    with pytest.raises(BucketError) as e:
        sync(target, creds, src, channels=1)

    assert e.value.code == "SlowDown"
    tries = [q.status for q in s3_peer.requests if q.op == "PutObject"]
    assert tries == [503] * len(tries) and len(tries) >= 2  # botocore's retries before giving up
    assert "slow down" in e.value.text() and f"{len(tries)} tries" in e.value.text()
    assert "fewer parallel transfers" in e.value.hint()


def test_bucket_in_another_region_names_that_region(s3_peer, tmp_path: Path) -> None:
    s3_peer.make_bucket("s3", "lab-eu", "eu-west-1")
    target, creds = bucket(s3_peer, name="lab-frankfurt", region="eu-central-1")
    from app.cloud.storage.client import target_for
    from app.core.buckets import parse_bucket_url

    wrong = target_for(target.account, parse_bucket_url("s3://lab-eu/ds"))  # signed for eu-central-1

    with pytest.raises(BucketError) as e:
        sync(wrong, creds, tmp_path / "x", "down")

    assert "eu-west-1" in e.value.text()
    assert "eu-west-1" in e.value.hint()


def test_a_key_without_permission_is_a_clear_error(s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    tree(src, files=2)
    read_only = s3_peer.new_key(allow=("s3:ListBucket", "s3:GetObject"))
    target, creds = bucket(s3_peer, creds=read_only)

    with pytest.raises(BucketError) as e:
        sync(target, creds, src)

    assert e.value.code == "AccessDenied"
    assert "lab" in e.value.text() and BUCKETS["s3"] in e.value.text()
    assert "s3:PutObject" in e.value.hint()
    assert s3_peer.keys("s3", BUCKETS["s3"], "ds/") == []


@pytest.mark.parametrize("bad", ["ds/../escape.txt", "ds/a//b.txt", "ds/ctl\x01name.txt", "ds/./dot.txt"])
def test_an_unsafe_key_is_shown_as_not_transferred_and_never_written(s3_peer, tmp_path: Path, bad: str) -> None:
    target, creds = bucket(s3_peer)
    s3_peer.put("s3", BUCKETS["s3"], "ds/fine.txt", b"fine")
    s3_peer.put("s3", BUCKETS["s3"], bad, b"evil")
    dest = tmp_path / "deep" / "dest"

    r = sync(target, creds, dest, "down", delete=True)

    assert r.files == 1 and not r.complete
    assert len(r.not_transferred) == 1
    shown = r.not_transferred[0]["path"]
    assert "\x01" not in shown and json.dumps(r.summary())
    assert [p.name for p in (tmp_path / "deep").rglob("*") if p.is_file()] == ["fine.txt"]


def test_the_summary_has_the_shape_of_a_host_sync(s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    tree(src, files=3)
    target, creds = bucket(s3_peer)

    real = sync(target, creds, src).summary()
    dry = sync(target, creds, src, dry_run=True).summary()

    host_like = SyncResult(direction="up").summary()
    host_dry = SyncResult(direction="up", dry_run=True)
    host_dry.plan = __import__("app.core.syncplan", fromlist=["SyncPlan"]).SyncPlan()
    assert set(real) == set(host_like)
    assert set(dry) == set(host_dry.summary())
    assert real["files"] == 3 and real["complete"] is True
    assert real["server"]["service"] == "Amazon S3"
    json.dumps(real)


def test_a_file_another_tool_already_uploaded_is_recognised_by_its_md5(s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    same = write(src / "same.bin", 5000, seed=1)
    write(src / "other.bin", 5000, seed=2)
    for name in ("same.bin", "other.bin"):  # written a while before the objects
        os.utime(src / name, (1_000_000_000, 1_000_000_000))
    target, creds = bucket(s3_peer)
    s3_peer.put("s3", BUCKETS["s3"], "ds/same.bin", same)  # e.g. by coscmd or the console: no LabGPU metadata
    s3_peer.put("s3", BUCKETS["s3"], "ds/other.bin", b"y" * 5000)  # same size, other bytes, uploaded later

    up = sync(target, creds, src)
    down = sync(target, creds, src, "down")

    assert (up.files, up.skipped, up.conflict_paths) == (0, 1, ["other.bin"])  # never overwritten silently
    assert (down.files, down.skipped) == (1, 1) and (src / "other.bin").read_bytes() == b"y" * 5000


def test_progress_reports_the_states_and_reaches_its_totals(s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    files = tree(src, files=12, big=9 * MIB)
    target, creds = bucket(s3_peer)
    seen = []

    engine(target, creds, src, progress=seen.append).run()

    states = [p.state for p in seen]
    assert states[0] == "listing" and states[-1] == "done" and "transferring" in states
    last = seen[-1]
    assert (last.files_done, last.files_total) == (13, 13)
    assert last.bytes_done == last.bytes_total == sum(len(b) for b in files.values())


def test_verify_finds_a_same_size_same_time_difference_and_copies_it(s3_peer, tmp_path: Path) -> None:
    src, back = tmp_path / "src", tmp_path / "back"
    write(src / "a.bin", 4000, seed=1)
    target, creds = bucket(s3_peer)
    sync(target, creds, src)
    sync(target, creds, back, "down")
    st = os.stat(back / "a.bin")
    write(back / "a.bin", 4000, seed=2)  # silently different: same size, same mtime
    os.utime(back / "a.bin", (st.st_atime, st.st_mtime))

    quick = sync(target, creds, back, "down")
    checked = sync(target, creds, back, "down", verify=True)

    assert (quick.files, checked.files) == (0, 1)
    assert (back / "a.bin").read_bytes() == (src / "a.bin").read_bytes()


@pytest.mark.parametrize("encrypted", [False, True])
def test_unicode_names_spaces_and_empty_files_round_trip(s3_peer, tmp_path: Path, encrypted: bool) -> None:
    from app.core.objcrypt import PairCrypt

    src, back = tmp_path / "src", tmp_path / "back"
    write(src / "数据集" / "图片 1.png", 700, seed=1)
    write(src / "empty.txt", 0)
    write(src / "a b" / "c&d=e+f%20.txt", 10, seed=2)
    target, creds = bucket(s3_peer)
    crypt = PairCrypt(os.urandom(32)) if encrypted else None

    up = sync(target, creds, src, crypt=crypt)
    down = sync(target, creds, back, "down", crypt=crypt)

    assert (up.files, down.files, down.complete) == (3, 3, True)
    same_tree(src, back)
    if not encrypted:
        assert "ds/数据集/图片 1.png" in s3_peer.keys("s3", BUCKETS["s3"], "ds/")


def test_excludes_gitignore_and_force_work_as_for_a_host(s3_peer, tmp_path: Path) -> None:
    src, back = tmp_path / "src", tmp_path / "back"
    write(src / ".gitignore", 0)
    (src / ".gitignore").write_text("*.log\nckpt/\n")
    write(src / "train.py", 50, seed=1)
    write(src / "run.log", 50, seed=2)
    write(src / "ckpt" / "a.pt", 50, seed=3)
    write(src / "cache" / "x.bin", 50, seed=4)
    target, creds = bucket(s3_peer)

    up = sync(target, creds, src, gitignore=True, excludes=["cache/"])

    assert sorted(s3_peer.keys("s3", BUCKETS["s3"], "ds/")) == ["ds/.gitignore", "ds/train.py"]
    assert up.excluded == 5  # run.log, ckpt/, ckpt/a.pt, cache/, cache/x.bin: counted as build_plan counts them
    sync(target, creds, back, "down")
    write(back / "train.py", 60, seed=5)  # edited here after the upload: newer than the bucket's copy
    later = os.stat(src / "train.py").st_mtime + 100
    os.utime(back / "train.py", (later, later))
    conflict = sync(target, creds, back, "down")
    forced = sync(target, creds, back, "down", force=True)
    assert (conflict.files, conflict.conflict_paths) == (0, ["train.py"])
    assert forced.files == 1 and (back / "train.py").read_bytes() == (src / "train.py").read_bytes()
