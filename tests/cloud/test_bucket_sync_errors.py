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


def test_a_listing_beyond_the_bound_is_refused_with_a_next_step(s3_peer, tmp_path: Path, monkeypatch) -> None:
    from app.cloud.storage import listing

    monkeypatch.setattr(listing, "MAX_KEYS", 5)
    monkeypatch.setattr(listing, "PAGE", 2)
    target, creds = bucket(s3_peer)
    for i in range(6):
        s3_peer.put("s3", "lab-data", f"ds/f{i}", b"x")

    err = _fails(target, creds, tmp_path)

    assert err.code == "TooManyObjects" and "narrower prefix" in err.hint()


@pytest.mark.parametrize(("code", "extra", "headers", "says"), [
    ("KMS.NotFoundException", {"Message": "Invalid keyId alias/nope"}, {}, "KMS key"),
    ("InvalidArgument", {"Message": "Server Side Encryption with KMS managed key requires HTTP header"}, {},
     "server-side encryption"),
    ("PermanentRedirect", {"Message": "The bucket is in this region: ap-south-1."},
     {"x-amz-bucket-region": "ap-south-1"}, "ap-south-1"),
    ("EntityTooLarge", {"Message": "Your proposed upload exceeds the maximum allowed size"}, {}, "in one request"),
    ("NoSuchUpload", {"Message": "The specified upload does not exist."}, {}, "interrupted upload"),
])
def test_service_codes_with_no_moto_counterpart_read_as_sentences(s3_peer, code, extra, headers, says) -> None:
    # moto does not answer these (no KMS checks, no cross-region redirects, no 5 GiB parts): the
    # answer is built as botocore parses the service's XML error ("Error responses", S3 API Reference)
    from botocore.exceptions import ClientError

    from app.cloud.storage.errors import bucket_error

    target, _creds = bucket(s3_peer)
    exc = ClientError({"Error": {"Code": code, **extra},
                       "ResponseMetadata": {"RequestId": "R1", "HTTPStatusCode": 400, "HTTPHeaders": headers}},
                      "PutObject")

    err = bucket_error(exc, target, key="ds/a.bin", sse=True)

    assert says in err.text() and err.hint() and err.code == code
