"""Encryption keys against a real Secret Service (gnome-keyring in a private dbus): the key only there.

The recovery phrase is Crockford's base32 (https://www.crockford.com/base32.html) with a check group.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import keyring
import pytest

from app.core import cryptkeys
from app.core.bucketsse import SseSpec, parse_sse, sse_params
from app.core.cryptkeys import CryptKeys, KeyNameError, key_to_phrase, phrase_to_key
from app.core.errors import InputError
from app.core.objcrypt import CryptError, PairCrypt, decrypt_bytes, encrypt_bytes
from app.core.paths import default_paths
from app.core.store import Store


def _all_bytes(root: Path) -> bytes:
    return b"".join(p.read_bytes() for p in root.rglob("*") if p.is_file())


@pytest.fixture
def keys(labgpu_home: Path) -> Iterator[CryptKeys]:
    store = Store(paths=default_paths())
    yield CryptKeys(store=store)
    store.close()


def _secret_forms(key: bytes, phrase: str) -> list[bytes]:
    compact = phrase.replace("-", "")
    return [key, key.hex().encode(), key.hex().upper().encode(), base64.b64encode(key), phrase.encode(),
            compact.encode(), compact.lower().encode(), key[:12]]


def test_create_export_import_on_a_fresh_home(secret_service: dict[str, str], keys: CryptKeys, labgpu_home: Path,
                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    crypt = keys.create("lab")
    assert keys.names() == ["lab"]
    assert keys.info("lab").key_id == crypt.key_id and keys.info("lab").source == "new"
    key_hex = keyring.get_password("labgpu", "crypt:lab")
    assert key_hex is not None and PairCrypt(bytes.fromhex(key_hex)).key_id == crypt.key_id
    blob = encrypt_bytes(crypt, b"weights of epoch 7")
    phrase = keys.export_phrase("lab")
    assert len(phrase) == 12 * 5 + 11 and phrase.count("-") == 11
    assert keys.get("lab").key_id == crypt.key_id

    keys.store.close()
    found = _all_bytes(labgpu_home)
    for form in _secret_forms(bytes.fromhex(key_hex), phrase):
        assert form not in found, "the key or its phrase reached a file"
    assert b"lab" in found and crypt.key_id.encode() in found  # the Store keeps the name and the key id

    # another computer: a fresh LabGPU home and a keyring without the entry
    keyring.delete_password("labgpu", "crypt:lab")
    fresh = tmp_path / "fresh-home"
    monkeypatch.setenv("LABGPU_HOME", str(fresh))
    store = Store(paths=default_paths())
    try:
        other = CryptKeys(store=store)
        assert other.names() == []
        typed = phrase.lower().replace("-", " ")  # case and separators do not matter
        restored = other.import_phrase("lab", typed)
        assert restored.key_id == crypt.key_id
        assert decrypt_bytes(other.get("lab"), blob) == b"weights of epoch 7"
        assert other.info("lab").source == "import"
        assert other.import_phrase("lab", phrase).key_id == crypt.key_id  # the same key again: no error
    finally:
        store.close()
    found = _all_bytes(fresh)
    for form in _secret_forms(bytes.fromhex(key_hex), phrase):
        assert form not in found


def test_phrase_typos_are_refused(secret_service: dict[str, str], keys: CryptKeys) -> None:
    keys.create("k")
    phrase = keys.export_phrase("k")
    chars = list(phrase)
    pos = 13  # group 3
    chars[pos] = "7" if chars[pos] != "7" else "8"
    with pytest.raises(CryptError) as exc:
        keys.import_phrase("k2", "".join(chars))
    assert exc.value.code == "BadPhrase" and "group 3" in exc.value.text() and exc.value.hint()
    swapped = phrase[:6] + phrase[7] + phrase[6] + phrase[8:]
    if swapped != phrase:
        with pytest.raises(CryptError) as exc:
            keys.import_phrase("k2", swapped)
        assert exc.value.code == "BadPhrase"
    for bad, words in ((phrase[:-1], "60 characters"), (phrase + "X", "60 characters"),
                       (phrase.replace(phrase[0], "U", 1), "'U'")):
        with pytest.raises(CryptError) as exc:
            keys.import_phrase("k2", bad)
        assert exc.value.code == "BadPhrase" and words in exc.value.text()
    assert "k2" not in keys.names() and keyring.get_password("labgpu", "crypt:k2") is None


def test_phrase_reads_crockford_look_alikes() -> None:
    key = bytes(range(32))
    phrase = key_to_phrase(key)
    assert phrase_to_key(phrase.replace("1", "l").replace("0", "o")) == key
    assert phrase_to_key(phrase.replace("1", "I")) == key


def test_every_single_character_typo_is_caught() -> None:
    key = bytes(range(100, 132))
    values = cryptkeys._values(key_to_phrase(key))
    assert cryptkeys._decode(values) == (key, True)
    for pos in range(len(values)):
        for v in range(32):
            if v != values[pos]:
                trial = values[:pos] + [v] + values[pos + 1 :]
                assert cryptkeys._decode(trial)[1] is False, (pos, v)
    phrase = key_to_phrase(key).replace("-", "")
    for pos in (0, 27, 51, 52, 59):  # first, middle, last key character (padding bits), the check group
        c = "Z" if phrase[pos] != "Z" else "Y"
        with pytest.raises(CryptError, match=f"group {pos // 5 + 1} looks mistyped"):
            phrase_to_key(phrase[:pos] + c + phrase[pos + 1 :])


def test_names_and_missing_keys(secret_service: dict[str, str], keys: CryptKeys) -> None:
    with pytest.raises(CryptError) as exc:
        keys.get("nope")
    assert exc.value.code == "NoKey" and "labgpu keys import nope" in exc.value.hint()
    with pytest.raises(KeyNameError):
        keys.create("../x")
    with pytest.raises(InputError):
        keys.create("")
    keys.create("a")
    with pytest.raises(KeyNameError) as exc2:
        keys.create("a")
    assert exc2.value.code == "KeyExists"
    other = key_to_phrase(bytes(32))
    with pytest.raises(KeyNameError):
        keys.import_phrase("a", other)  # another key under a taken name
    keyring.delete_password("labgpu", "crypt:a")  # the keyring lost it (another computer's row)
    with pytest.raises(CryptError) as exc:
        keys.get("a")
    assert exc.value.code == "NoKey"
    keys.remove("a")
    assert keys.names() == []
    with pytest.raises(CryptError):
        keys.remove("a")


def test_remove_deletes_the_keyring_entry(secret_service: dict[str, str], keys: CryptKeys) -> None:
    keys.create("gone")
    assert keyring.get_password("labgpu", "crypt:gone")
    keys.remove("gone")
    assert keyring.get_password("labgpu", "crypt:gone") is None


# -- cloud-managed encryption (app/core/bucketsse.py) ----------------------------------------------

def test_parse_sse() -> None:
    assert parse_sse("kms") == SseSpec("kms", "")
    assert parse_sse("KMS:1234abcd-12ab-34cd-56ef-1234567890ab").key_id == "1234abcd-12ab-34cd-56ef-1234567890ab"
    assert parse_sse("kms:arn:aws:kms:us-east-1:111122223333:key/abc").key_id.startswith("arn:aws:kms:")
    for bad in ("", "aes", "kms:", "kms:bad key", "kms:\x1b[2J", "sse-c:x"):
        with pytest.raises(InputError) as exc:
            parse_sse(bad)
        assert exc.value.code == "BadSse" and "\x1b" not in exc.value.text() and exc.value.hint()


def test_sse_params_per_service() -> None:
    # S3 and OBS: the x-amz SSE-KMS headers (documents named in app/core/bucketsse.py)
    assert sse_params("s3", SseSpec()) == {"ServerSideEncryption": "aws:kms"}
    assert sse_params("obs", SseSpec("kms", "k1")) == {"ServerSideEncryption": "aws:kms", "SSEKMSKeyId": "k1"}
    assert sse_params("cos", None) == {}
    for scheme, service in (("cos", "Tencent Cloud COS"), ("oss", "Alibaba Cloud OSS")):
        with pytest.raises(InputError) as exc:
            sse_params(scheme, SseSpec())
        assert exc.value.code == "SseNotSupported" and service in exc.value.text()
        assert "default encryption with KMS" in exc.value.hint() and "--encrypt" in exc.value.hint()


def test_sse_params_are_what_s3_stores(moto: Any) -> None:
    """moto's S3 (the AWS API shape): PutObject and CreateMultipartUpload with these parameters give
    objects that say aws:kms and the key asked for."""
    import boto3

    kw = {"endpoint_url": moto.raw_url, "region_name": "us-east-1", "aws_access_key_id": "testing",
          "aws_secret_access_key": "testing"}
    s3 = boto3.client("s3", **kw)
    key_id = boto3.client("kms", **kw).create_key()["KeyMetadata"]["KeyId"]
    s3.create_bucket(Bucket="sse-test")
    s3.put_object(Bucket="sse-test", Key="a", Body=b"x", **sse_params("s3", parse_sse(f"kms:{key_id}")))
    head = s3.head_object(Bucket="sse-test", Key="a")
    assert head["ServerSideEncryption"] == "aws:kms" and key_id in head["SSEKMSKeyId"]
    up = s3.create_multipart_upload(Bucket="sse-test", Key="b", **sse_params("s3", parse_sse("kms")))
    assert up["ServerSideEncryption"] == "aws:kms"
    s3.abort_multipart_upload(Bucket="sse-test", Key="b", UploadId=up["UploadId"])
