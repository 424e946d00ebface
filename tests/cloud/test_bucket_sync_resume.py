"""Interrupted bucket transfers: a cut multipart upload resumes with only the missing parts, a cancel
leaves a resumable state, a stale upload is aborted (never left billing), a download resumes from its
part file, and sizes no object may have are refused."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from app.cloud.storage import client, transfer
from app.cloud.storage.errors import BucketCancelledError, BucketError, BucketNetworkError
from app.core.buckets import MAX_OBJECT_SIZE, MAX_PARTS, MIB, TIB
from app.core.bucketstate import BucketState
from app.core.store import Store
from tests.cloud.bucket_sync_kit import (
    BUCKETS,
    PART,
    bucket,
    engine,
    small_parts,  # noqa: F401 - fixture
    sync,
    write,
)

pytestmark = pytest.mark.usefixtures("small_parts")
B = BUCKETS["s3"]


def _uploads_in_state(target) -> list[str]:
    return [u.key for u in BucketState(Store()).uploads(target.endpoint.url, target.url.bucket)]


def test_a_cut_multipart_upload_resumes_with_only_the_missing_parts(s3_peer, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(client, "MAX_RETRIES", 1)  # one retry: the cut must outlast botocore's retries
    src = tmp_path / "src"
    data = write(src / "ckpt.pt", 40 * MIB, seed=7)
    target, creds = bucket(s3_peer)
    cut = s3_peer.cut_upload_part(after_parts=3)  # every UploadPart after the 3rd loses its connection

    with pytest.raises(BucketNetworkError) as e:
        sync(target, creds, src, channels=1, reconnect=False)

    assert cut.count >= 1
    assert "continues where it stopped" in e.value.hint()
    assert [k for k, _u in s3_peer.uploads("s3", B)] == ["ds/ckpt.pt"]  # kept to resume, not completed
    assert s3_peer.keys("s3", B, "ds/") == []  # no object from a partial upload
    assert _uploads_in_state(target) == ["ds/ckpt.pt"]
    s3_peer.heal()
    s3_peer.clear_requests()

    r = sync(target, creds, src, channels=2)

    ops = s3_peer.ops()
    assert ops.count("UploadPart") == 8 - 3 and ops.count("ListParts") == 1
    assert "CreateMultipartUpload" not in ops and ops.count("CompleteMultipartUpload") == 1
    assert (r.files, r.bytes) == (1, 40 * MIB - 3 * PART)  # only what this run sent
    assert s3_peer.get("s3", B, "ds/ckpt.pt") == data
    assert s3_peer.uploads("s3", B) == [] and _uploads_in_state(target) == []


def test_a_network_cut_is_tried_again_and_the_upload_resumes_in_the_same_run(s3_peer, tmp_path: Path,
                                                                           monkeypatch) -> None:
    from app.cloud.storage import engine as engine_mod

    monkeypatch.setattr(client, "MAX_RETRIES", 0)  # botocore gives up at once: the engine's attempts show
    monkeypatch.setattr(engine_mod, "BACKOFF", (0.0,))
    src = tmp_path / "src"
    data = write(src / "ckpt.pt", 40 * MIB, seed=8)
    target, creds = bucket(s3_peer)
    s3_peer.cut_upload_part(after_parts=3, times=1)
    states = []

    r = engine(target, creds, src, channels=1, progress=lambda p: states.append(p.state)).run()

    assert (r.files, r.attempts, r.complete) == (1, 2, True) and "waiting" in states
    assert s3_peer.get("s3", B, "ds/ckpt.pt") == data
    ops = s3_peer.ops()
    assert ops.count("CreateMultipartUpload") == 1 and ops.count("ListParts") == 1
    assert ops.count("UploadPart") == 8 + 1  # the cut one was sent again, nothing else


def test_cancel_stops_the_upload_and_the_next_run_continues_it(s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    data = write(src / "big.bin", 40 * MIB, seed=3)
    target, creds = bucket(s3_peer)
    hold = s3_peer.hold("UploadPart")
    eng = engine(target, creds, src, channels=1)
    out: dict[str, BaseException] = {}

    def run() -> None:
        try:
            eng.run()
        except BaseException as exc:  # noqa: BLE001 - looked at below
            out["error"] = exc

    th = threading.Thread(target=run)
    th.start()
    assert hold.reached.wait(60)
    eng.cancel()
    hold.release()
    th.join(60)

    assert isinstance(out.get("error"), BucketCancelledError)
    assert "run it again" in out["error"].hint()
    assert [k for k, _u in s3_peer.uploads("s3", B)] == ["ds/big.bin"]
    s3_peer.clear_requests()

    r = sync(target, creds, src)

    assert r.files == 1 and s3_peer.get("s3", B, "ds/big.bin") == data
    assert "CreateMultipartUpload" not in s3_peer.ops() and s3_peer.uploads("s3", B) == []


def test_an_upload_whose_file_is_gone_is_aborted_and_said(s3_peer, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(client, "MAX_RETRIES", 1)
    src = tmp_path / "src"
    write(src / "old.bin", 12 * MIB, seed=1)
    target, creds = bucket(s3_peer)
    s3_peer.cut_upload_part(after_parts=1)
    with pytest.raises(BucketNetworkError):
        sync(target, creds, src, channels=1, reconnect=False)
    s3_peer.heal()
    (src / "old.bin").unlink()
    write(src / "new.txt", 10, seed=2)

    r = sync(target, creds, src)

    assert s3_peer.uploads("s3", B) == [] and _uploads_in_state(target) == []
    assert r.summary()["server"]["aborted_uploads"] == ["ds/old.bin"]
    assert "AbortMultipartUpload" in s3_peer.ops()


def test_a_source_changed_since_the_cut_starts_a_new_upload(s3_peer, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(client, "MAX_RETRIES", 1)
    src = tmp_path / "src"
    write(src / "model.bin", 12 * MIB, seed=1)
    target, creds = bucket(s3_peer)
    s3_peer.cut_upload_part(after_parts=1)
    with pytest.raises(BucketNetworkError):
        sync(target, creds, src, channels=1, reconnect=False)
    s3_peer.heal()
    data = write(src / "model.bin", 13 * MIB, seed=9)

    r = sync(target, creds, src)

    assert r.files == 1 and s3_peer.get("s3", B, "ds/model.bin") == data
    ops = s3_peer.ops()
    assert "AbortMultipartUpload" in ops and "CreateMultipartUpload" in ops
    assert s3_peer.uploads("s3", B) == []


def test_a_cut_download_continues_from_its_part_file(s3_peer, tmp_path: Path) -> None:
    src, dest = tmp_path / "src", tmp_path / "dest"
    data = write(src / "data.bin", 20 * MIB, seed=5)
    target, creds = bucket(s3_peer)
    sync(target, creds, src)
    first, second = s3_peer.hold("GetObject"), s3_peer.hold("GetObject")  # the first two 5 MiB ranges
    eng = engine(target, creds, dest, "down", channels=1)
    out: dict[str, BaseException] = {}

    def run() -> None:
        try:
            eng.run()
        except BaseException as exc:  # noqa: BLE001 - looked at below
            out["error"] = exc

    th = threading.Thread(target=run)
    th.start()
    assert first.reached.wait(60)
    first.release()
    assert second.reached.wait(60)  # one channel: the first range is on disk now
    eng.cancel()
    second.release()
    th.join(60)

    assert isinstance(out.get("error"), BucketCancelledError)
    part = dest / ".data.bin.labgpu-part"
    assert part.read_bytes() == data[:PART] and not (dest / "data.bin").exists()  # the complete prefix only
    s3_peer.clear_requests()

    r = sync(target, creds, dest, "down", channels=2)

    assert (dest / "data.bin").read_bytes() == data and not part.exists()
    assert (r.files, r.bytes, r.verified) == (1, len(data) - PART, 1)
    assert s3_peer.ops().count("GetObject") == 3  # the other 15 MiB


def test_a_file_over_5_tib_is_not_transferred_and_says_why(s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    with open(src / "huge.img", "wb") as fh:  # sparse: no data is written or read
        fh.truncate(MAX_OBJECT_SIZE + 1)
    write(src / "small.txt", 5)
    target, creds = bucket(s3_peer)

    r = sync(target, creds, src)

    assert r.files == 1 and not r.complete
    assert r.not_transferred == [{"path": "huge.img", "why": "larger than the 5 TiB an object may have"}]
    assert "CreateMultipartUpload" not in s3_peer.ops()


def test_a_5_tb_file_gets_parts_big_enough_for_10000() -> None:
    size = 5 * 10**12
    part = transfer.part_size(size, transfer.PlainCodec())
    assert part * MAX_PARTS >= size and part % MIB == 0
    assert transfer.part_size(MAX_OBJECT_SIZE, transfer.PlainCodec()) * MAX_PARTS >= 5 * TIB


def test_a_download_that_does_not_fit_the_disk_fails_before_it_starts(s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    write(src / "a.bin", 64 * 1024)
    target, creds = bucket(s3_peer)
    sync(target, creds, src)
    tiny = tmp_path / "tiny"
    tiny.mkdir()
    if os.system(f"mount -t tmpfs -o size=32k tmpfs {tiny} 2>/dev/null") != 0:
        pytest.skip("no tmpfs mount here (needs root); the check is the same shutil.disk_usage")
    try:
        s3_peer.clear_requests()
        with pytest.raises(BucketError) as e:
            sync(target, creds, tiny / "dest", "down")
        assert e.value.code == "LocalDiskFull" and "GetObject" not in s3_peer.ops()
        assert list(tiny.iterdir()) == []
    finally:
        os.system(f"umount {tiny}")
