"""Encrypted bucket pairs (client-side AES-256-GCM, app/core/objcrypt.py) and the services' own KMS
encryption: the bucket holds neither names nor contents in the clear, the right key brings back the
exact bytes, a wrong key is a clear error before anything moves, and a damaged object is named and
never written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.core.buckets import MIB
from app.core.bucketsse import SseSpec
from app.core.errors import InputError
from app.core.objcrypt import CHECK_NAME, CryptError, PairCrypt
from tests.cloud.bucket_sync_kit import (
    BUCKETS,
    bucket,
    same_tree,
    small_parts,  # noqa: F401 - fixture
    sync,
    tree,
    write,
)

pytestmark = pytest.mark.usefixtures("small_parts")
B = BUCKETS["s3"]


@pytest.fixture
def key() -> PairCrypt:
    return PairCrypt(os.urandom(32))


def test_names_and_contents_are_unreadable_in_the_bucket_and_come_back_exactly(s3_peer, tmp_path: Path,
                                                                                key: PairCrypt) -> None:
    src, back = tmp_path / "src", tmp_path / "back"
    files = tree(src, files=40, big=12 * MIB)
    target, creds = bucket(s3_peer)

    up = sync(target, creds, src, crypt=key, channels=3)

    keys = s3_peer.keys("s3", B, "ds/")
    assert len(keys) == 41 + 1 and f"ds/{CHECK_NAME}" in keys
    # sealed names are lowercase base32 (a-z, 2-7): no '.', '0' or '1' can appear by chance
    assert not any(word in k for k in keys for word in ("big.bin", "d0/", "sub0", "f00", ".txt"))
    big_key = f"ds/{key.encrypt_name('big.bin')}"
    stored = s3_peer.get("s3", B, big_key)
    assert files["big.bin"][:4096] not in stored and len(stored) == key.encrypted_size(12 * MIB)
    assert up.bytes == sum(len(b) for b in files.values())  # payload bytes, as the user counts them

    down = sync(target, creds, back, "down", crypt=key, channels=3)

    assert (down.files, down.bytes, down.verified, down.complete) == (41, up.bytes, 41, True)
    same_tree(src, back)
    s3_peer.clear_requests()
    again = sync(target, creds, back, "down", crypt=key)
    assert (again.files, again.skipped) == (0, 41) and set(s3_peer.ops()) == {"ListObjectsV2"}


def test_a_wrong_key_is_a_clear_error_before_anything_moves(s3_peer, tmp_path: Path, key: PairCrypt) -> None:
    src = tmp_path / "src"
    tree(src, files=5)
    target, creds = bucket(s3_peer)
    sync(target, creds, src, crypt=key)
    other = PairCrypt(os.urandom(32))
    s3_peer.clear_requests()

    with pytest.raises(CryptError) as down:
        sync(target, creds, tmp_path / "dest", "down", crypt=other)
    write(src / "new.txt", 10)
    with pytest.raises(CryptError) as up:
        sync(target, creds, src, crypt=other)

    assert down.value.code == up.value.code == "WrongKey"
    assert down.value.hint()
    assert not (tmp_path / "dest").exists()
    assert s3_peer.writes() == []
    assert {(q.op, q.key) for q in s3_peer.requests if q.op != "ListObjectsV2"} == {("GetObject", f"ds/{CHECK_NAME}")}


@pytest.mark.parametrize("size", [3000, 12 * MIB])  # one GET / parallel ranges
def test_a_damaged_object_is_named_and_never_written(s3_peer, tmp_path: Path, key: PairCrypt, size: int) -> None:
    src, dest = tmp_path / "src", tmp_path / "dest"
    write(src / "ok.txt", 500, seed=1)
    write(src / "weights.bin", size, seed=2)
    target, creds = bucket(s3_peer)
    sync(target, creds, src, crypt=key)
    obj = f"ds/{key.encrypt_name('weights.bin')}"
    blob = bytearray(s3_peer.get("s3", B, obj))
    blob[len(blob) // 2] ^= 0x01  # one bit flipped by someone without the key
    s3_peer.put("s3", B, obj, bytes(blob))

    r = sync(target, creds, dest, "down", crypt=key)

    assert r.files == 1 and not r.complete
    assert [x["path"] for x in r.not_transferred] == ["weights.bin"]
    assert "damaged" in r.not_transferred[0]["why"]
    assert sorted(p.name for p in dest.iterdir()) == ["ok.txt"]  # no file, no part file


def test_a_prefix_of_plain_objects_is_not_taken_for_an_encrypted_pair(s3_peer, tmp_path: Path,
                                                                       key: PairCrypt) -> None:
    target, creds = bucket(s3_peer)
    s3_peer.put("s3", B, "ds/plain.txt", b"not encrypted")

    with pytest.raises(Exception) as e:
        sync(target, creds, tmp_path / "dest", "down", crypt=key)

    assert getattr(e.value, "code", "") == "NotEncryptedPair"
    assert not (tmp_path / "dest").exists()


def test_kms_encryption_is_asked_of_the_service_for_every_object(s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    tree(src, files=2, big=9 * MIB)
    target, creds = bucket(s3_peer)

    r = sync(target, creds, src, sse=SseSpec("kms", "alias/lab"))

    assert r.files == 3 and r.summary()["server"]["sse"] == "kms"
    for k in s3_peer.keys("s3", B, "ds/"):
        assert s3_peer.head("s3", B, k).get("ServerSideEncryption") == "aws:kms", k


def test_kms_where_the_service_takes_no_per_object_key_is_refused_before_anything_moves(
        s3_peer, tmp_path: Path) -> None:
    src = tmp_path / "src"
    tree(src, files=2)
    target, creds = bucket(s3_peer, "cos")

    with pytest.raises(InputError):
        sync(target, creds, src, sse=SseSpec("kms"))

    assert s3_peer.requests == []


def test_an_encrypted_multipart_upload_resumes_under_its_first_header(s3_peer, tmp_path: Path, key: PairCrypt,
                                                                      monkeypatch) -> None:
    from app.cloud.storage import client
    from app.cloud.storage.errors import BucketNetworkError

    monkeypatch.setattr(client, "MAX_RETRIES", 1)
    src, back = tmp_path / "src", tmp_path / "back"
    data = write(src / "ckpt.pt", 16 * MIB, seed=4)
    target, creds = bucket(s3_peer)
    s3_peer.cut_upload_part(after_parts=2)
    with pytest.raises(BucketNetworkError):
        sync(target, creds, src, crypt=key, channels=1, reconnect=False)
    s3_peer.heal()
    s3_peer.clear_requests()

    sync(target, creds, src, crypt=key)
    down = sync(target, creds, back, "down", crypt=key)

    assert s3_peer.ops().count("UploadPart") == 4 - 2  # the two parts there were sealed the same way
    assert down.files == 1 and (back / "ckpt.pt").read_bytes() == data


def test_a_path_too_long_once_encrypted_is_not_transferred_and_says_why(s3_peer, tmp_path: Path,
                                                                         key: PairCrypt) -> None:
    src = tmp_path / "src"
    write(src / "ok.txt", 10)
    # 600 bytes as named (a key may have 1,024), over 1,024 once each name is sealed and base32-encoded
    write(src / ("n" * 200) / ("m" * 200) / ("o" * 196 + ".txt"), 10)
    target, creds = bucket(s3_peer)

    r = sync(target, creds, src, crypt=key)

    assert r.files == 1 and len(r.not_transferred) == 1 and not r.complete
    assert r.not_transferred[0]["path"].startswith("nnnn") and "1,024 bytes" in r.not_transferred[0]["why"]


def test_an_object_damaged_in_every_range_is_named_once(s3_peer, tmp_path: Path, key: PairCrypt) -> None:
    src, dest = tmp_path / "src", tmp_path / "dest"
    write(src / "weights.bin", 20 * MIB, seed=2)
    target, creds = bucket(s3_peer)
    sync(target, creds, src, crypt=key)
    obj = f"ds/{key.encrypt_name('weights.bin')}"
    blob = bytearray(s3_peer.get("s3", B, obj))
    for at in range(1000, len(blob), MIB):  # every range of 5 MiB has flipped bits
        blob[at] ^= 0x80
    s3_peer.put("s3", B, obj, bytes(blob))

    r = sync(target, creds, dest, "down", crypt=key, channels=4)

    assert [x["path"] for x in r.not_transferred] == ["weights.bin"] and r.files == 0
    assert list(dest.iterdir()) == []
