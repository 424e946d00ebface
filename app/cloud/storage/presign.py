"""Presigned URLs for the instance's own transfers: the laptop signs, the rented machine only holds
short-lived links (never a key). Used by :mod:`app.usecases.bucketinstance`.

* A presigned SigV4 URL is valid for ``X-Amz-Expires`` seconds, at most 604,800 (7 days): "Sharing
  objects with presigned URLs", Amazon S3 User Guide
  (https://docs.aws.amazon.com/AmazonS3/latest/userguide/ShareObjectPreSignedURL.html). S3 checks
  the expiry when a request *starts*, so a link only has to live until its transfer begins; LabGPU
  signs each batch just before it is handed to the instance and sizes the expiry to that batch
  (:func:`expiry_for`: a floor plus the batch's bytes at a slow rate), never the 7-day maximum.
  A link signed with temporary credentials (a session token) cannot outlive them either (same page).
* The access key ID is part of every presigned URL's query (``X-Amz-Credential``); the secret never
  is. So URLs go to the instance on stdin only (:mod:`app.remote.presigned`), never on a command
  line or in a file.
* Objects over 5 GiB cannot go up in one PUT ("Amazon S3 multipart upload limits"): the upload is
  created and completed here, on the laptop, and the instance gets one presigned UploadPart URL per
  part ("Uploading an object using multipart upload with presigned URLs", same guide).
* COS, OSS and OBS accept SigV4 presigned URLs on their S3-compatible endpoints (COS: "Using AWS S3
  SDK to Access COS"; OSS: "Compatibility with Amazon S3"; OBS: "Interoperability with S3").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.cloud.base import Credentials
from app.core.buckets import MAX_SINGLE_PUT, PRESIGN_MAX_SECONDS, endpoint_for, part_size_for

from .client import StorageTarget, s3_client

EXPIRY_FLOOR_S = 15 * 60  # every link lives at least this long (the instance may start slowly)
SLOW_RATE = 2 * 1024 * 1024  # bytes/s assumed when sizing a link's life (an in-region link is faster)
MAX_LISTED = 1_000_000  # objects listed below one prefix, at most


def expiry_for(nbytes: int, *, floor_s: int | None = None, rate: int | None = None) -> int:
    """Seconds a batch's links live: ``floor_s`` (:data:`EXPIRY_FLOOR_S`) plus the batch's bytes at
    ``rate`` (:data:`SLOW_RATE`), never more than the 604,800 s SigV4 allows."""
    floor = EXPIRY_FLOOR_S if floor_s is None else int(floor_s)
    speed = SLOW_RATE if rate is None else int(rate)
    need = floor + max(0, int(nbytes)) // max(1, speed)
    return max(1, min(PRESIGN_MAX_SECONDS, need))


def for_instance(target: StorageTarget) -> StorageTarget:
    """The target the instance's links are signed for: the account's ``extra["instance_endpoint"]`` when
    set — e.g. OSS's internal endpoint ``https://oss-REGION-internal.aliyuncs.com`` ("Regions and
    endpoints", Alibaba Cloud OSS: intranet traffic from an ECS instance in the region is not billed as
    internet egress) — else the bucket's own. A SigV4 link is signed for its host, so the host the
    instance will reach must be chosen here, on the laptop."""
    ep = target.account.extra.get("instance_endpoint", "")
    if not ep:
        return target
    return StorageTarget(target.account, target.url, endpoint_for(target.url, target.region, override=ep))


def _client(target: StorageTarget, creds: Credentials) -> Any:
    return s3_client(target, creds)


def presign_get(target: StorageTarget, creds: Credentials, key: str, expires_s: int) -> str:
    """A GET link for ``key`` living ``expires_s`` seconds (bounded by the SigV4 maximum)."""
    return str(_client(target, creds).generate_presigned_url(
        "get_object", Params={"Bucket": target.url.bucket, "Key": key},
        ExpiresIn=min(PRESIGN_MAX_SECONDS, max(1, int(expires_s)))))


def presign_put(target: StorageTarget, creds: Credentials, key: str, expires_s: int) -> str:
    """A PUT link for ``key`` (one request, at most 5 GiB)."""
    return str(_client(target, creds).generate_presigned_url(
        "put_object", Params={"Bucket": target.url.bucket, "Key": key},
        ExpiresIn=min(PRESIGN_MAX_SECONDS, max(1, int(expires_s)))))


@dataclass(frozen=True)
class Multipart:
    """A multipart upload LabGPU created for the instance: its id, part size and the object's size."""

    key: str
    upload_id: str
    part_size: int
    size: int

    @property
    def count(self) -> int:
        return max(1, -(-self.size // self.part_size))

    def part(self, number: int) -> tuple[int, int]:
        """(offset, length) of part ``number`` (1-based)."""
        off = (number - 1) * self.part_size
        return off, min(self.part_size, self.size - off)


def needs_multipart(size: int, single_max: int = MAX_SINGLE_PUT) -> bool:
    return size > single_max


def start_multipart(target: StorageTarget, creds: Credentials, key: str, size: int, *,
                    part_size: int | None = None) -> Multipart:
    """CreateMultipartUpload on the laptop (``part_size`` overrides :func:`part_size_for`: tests). The
    parts' links are signed batch by batch (:func:`presign_part`), each just before it is used."""
    psize = int(part_size) if part_size else part_size_for(size)
    upload_id = str(_client(target, creds).create_multipart_upload(Bucket=target.url.bucket, Key=key)["UploadId"])
    return Multipart(key, upload_id, psize, size)


def presign_part(target: StorageTarget, creds: Credentials, mp: Multipart, number: int, expires_s: int) -> str:
    """An UploadPart link for part ``number`` of ``mp``."""
    return str(_client(target, creds).generate_presigned_url(
        "upload_part", Params={"Bucket": target.url.bucket, "Key": mp.key, "UploadId": mp.upload_id,
                               "PartNumber": number},
        ExpiresIn=min(PRESIGN_MAX_SECONDS, max(1, int(expires_s)))))


def complete_multipart(target: StorageTarget, creds: Credentials, mp: Multipart, etags: list[str]) -> None:
    """CompleteMultipartUpload with the parts' ETags as the instance reported them."""
    _client(target, creds).complete_multipart_upload(
        Bucket=target.url.bucket, Key=mp.key, UploadId=mp.upload_id,
        MultipartUpload={"Parts": [{"PartNumber": i + 1, "ETag": e} for i, e in enumerate(etags)]})


def abort_multipart(target: StorageTarget, creds: Credentials, mp: Multipart) -> None:
    """AbortMultipartUpload: a failed instance upload never leaves parts billing."""
    _client(target, creds).abort_multipart_upload(Bucket=target.url.bucket, Key=mp.key, UploadId=mp.upload_id)


@dataclass(frozen=True)
class Listed:
    key: str
    size: int
    mtime: float = 0.0  # LastModified, epoch seconds


def list_objects(target: StorageTarget, creds: Credentials, prefix: str, *,
                 limit: int = MAX_LISTED) -> tuple[list[Listed], bool]:
    """Objects below ``prefix`` (ListObjectsV2, paginated): (objects, complete). ``complete`` is False
    when more than ``limit`` were there (the caller says so; nothing is guessed)."""
    client = _client(target, creds)
    out: list[Listed] = []
    token = ""
    while True:
        kwargs: dict[str, Any] = {"Bucket": target.url.bucket, "Prefix": prefix, "MaxKeys": 1000}
        if token:
            kwargs["ContinuationToken"] = token
        page = client.list_objects_v2(**kwargs)
        for obj in page.get("Contents", []) or []:
            if len(out) >= limit:
                return out, False
            when = obj.get("LastModified")
            out.append(Listed(str(obj["Key"]), int(obj.get("Size", 0)),
                              float(when.timestamp()) if hasattr(when, "timestamp") else 0.0))
        token = str(page.get("NextContinuationToken") or "")
        if not page.get("IsTruncated") or not token:
            return out, True
