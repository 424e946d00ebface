"""What a student reads when the service refuses a bucket sync: each S3 error code LabGPU maps
("Error responses", S3 API Reference) as a sentence that names the account, bucket or region, and a
next step; the service's own text is data (bounded, control characters replaced)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cloud.base import Credentials
from app.cloud.storage.client import target_for
from app.cloud.storage.errors import BucketError, shown
from app.core.buckets import parse_bucket_url
from tests.cloud.bucket_sync_kit import bucket, sync, tree


def _fails(target, creds, tmp_path: Path, direction: str = "down") -> BucketError:
    src = tmp_path / "src"
    tree(src, files=2)
    with pytest.raises(BucketError) as e:
        sync(target, creds, src if direction == "up" else tmp_path / "dest", direction)
    assert e.value.hint(), e.value.code
    assert not (tmp_path / "dest").exists()
    return e.value


def test_an_unknown_access_key(s3_peer, tmp_path: Path) -> None:
    target, _creds = bucket(s3_peer)
    err = _fails(target, Credentials("AKIANOTKNOWNANYWHERE", "whatever"), tmp_path)
    assert err.code == "InvalidAccessKeyId" and "'lab'" in err.text() and "labgpu accounts" in err.hint()


def test_a_wrong_secret_key(s3_peer, tmp_path: Path) -> None:
    target, creds = bucket(s3_peer)
    err = _fails(target, Credentials(creds.key_id, "not-the-secret"), tmp_path)
    assert err.code == "SignatureDoesNotMatch" and "secret key" in err.text()


def test_an_expired_session_token(s3_peer, tmp_path: Path) -> None:
    temp = s3_peer.new_key(token=True)
    target, creds = bucket(s3_peer, creds=temp)
    s3_peer.expire_token(creds)
    err = _fails(target, creds, tmp_path)
    assert err.code == "ExpiredToken" and "session token" in err.hint()


def test_a_wrong_clock(s3_peer, tmp_path: Path) -> None:
    target, creds = bucket(s3_peer)
    s3_peer.clock.advance(3 * 3600)  # the service's clock is 3 h ahead of this computer's
    err = _fails(target, creds, tmp_path)
    assert err.code == "RequestTimeTooSkewed" and "clock" in err.text() and "NTP" in err.hint()


def test_a_missing_bucket(s3_peer, tmp_path: Path) -> None:
    target, creds = bucket(s3_peer)
    gone = target_for(target.account, parse_bucket_url("s3://lab-nothing-here/ds"))
    err = _fails(gone, creds, tmp_path, "up")
    assert err.code == "NoSuchBucket" and "lab-nothing-here" in err.text() and "labgpu buckets ls" in err.hint()


def test_a_missing_local_folder_is_said_before_any_request(s3_peer, tmp_path: Path) -> None:
    target, creds = bucket(s3_peer)
    with pytest.raises(BucketError) as e:
        sync(target, creds, tmp_path / "nope", "up")
    assert e.value.code == "LocalMissing" and s3_peer.requests == []


def test_service_text_is_bounded_and_has_no_control_characters() -> None:
    text = shown("evil\x1b[31mred\r\nline" + "x" * 1000, 100)
    assert len(text) == 100 and not any(ord(c) < 32 for c in text) and "\x1b" not in text
