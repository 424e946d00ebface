"""Cloud-managed encryption at rest (SSE-KMS) through each service's S3-compatible API.

``sse_params(scheme, spec)`` gives the boto3 parameters for PutObject and CreateMultipartUpload (an
UploadPart takes none: the upload's encryption is fixed when it is created). What each service
takes, and from which document:

* Amazon S3: ``x-amz-server-side-encryption: aws:kms`` and, for a key of the student's own,
  ``x-amz-server-side-encryption-aws-kms-key-id`` (a key id, key ARN or alias ARN); boto3's
  ``ServerSideEncryption`` / ``SSEKMSKeyId``. "Specifying server-side encryption with AWS KMS
  (SSE-KMS)", Amazon S3 User Guide
  (https://docs.aws.amazon.com/AmazonS3/latest/userguide/specifying-kms-encryption.html) and the
  PutObject / CreateMultipartUpload API references.
* Huawei Cloud OBS: its S3-compatible API takes ``x-amz-server-side-encryption: aws:kms`` and
  ``x-amz-server-side-encryption-aws-kms-key-id`` (``regionID:domainID:key/key_id`` or a bare key
  id; without one OBS uses, and if needed creates, the region's default key) on PUT Object, POST
  Object, Copy and Initiate Multipart Upload: "Server-Side Encryption (SSE-KMS)", OBS API Reference
  (S3-compatible edition: https://support.huaweicloud.ru/api-obs/en-us_topic_0071882296.html; the
  native edition names the same headers ``x-obs-…`` with value ``kms``:
  https://support.huaweicloud.com/intl/en-us/api-obs/obs_04_0106.html).
* Tencent Cloud COS: KMS encryption is the native header ``x-cos-server-side-encryption: cos/kms``
  ("Server-side Encryption Overview", https://www.tencentcloud.com/document/product/436/18145;
  the Python SDK maps SSEKMSKeyId to ``x-cos-server-side-encryption-cos-kms-key-id``); COS's
  S3-compatibility guide ("Accessing COS with AWS S3 SDK") names no ``x-amz`` form for it, so
  LabGPU does not send one. A bucket's default encryption can be KMS ("PUT Bucket encryption",
  ``SSEAlgorithm`` AES256 | KMS, https://cloud.tencent.com/document/product/436/40136), and every
  object uploaded without encryption headers then gets it: that is what the error says to do.
* Alibaba Cloud OSS: KMS encryption is ``x-oss-server-side-encryption: KMS``; OSS's "Compatibility
  with Amazon S3" page (https://www.alibabacloud.com/help/en/oss/developer-reference/compatibility-with-amazon-s3)
  lists the operations but not the ``x-amz`` encryption headers' values, so LabGPU does not guess
  them. A bucket's default encryption can be KMS ("PutBucketEncryption", ``SSEAlgorithm`` AES256 |
  SM4 | KMS, https://www.alibabacloud.com/help/en/oss/developer-reference/putbucketencryption):
  the error says to turn that on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .buckets import SCHEMES, SERVICE_NAMES
from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP

KINDS = ("kms",)
_KEY_ID_RE = re.compile(r"^[A-Za-z0-9:/_.\-]{1,2048}$")

@dataclass(frozen=True)
class SseSpec:
    kind: str = "kms"
    key_id: str = ""  # "" = the service's default KMS key

    def text(self) -> str:
        return f"{self.kind}:{self.key_id}" if self.key_id else self.kind


def parse_sse(text: str) -> SseSpec:
    """``kms`` or ``kms:KEYID`` (the value of --sse)."""
    raw = (text or "").strip()
    kind, _, key_id = raw.partition(":")
    kind = kind.lower()
    if kind not in KINDS or (raw.count(":") and not key_id):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "'{text}' is not a server-side encryption LabGPU knows."),
            QT_TRANSLATE_NOOP("LabGPU", "Use --sse kms (the service's default key) or --sse kms:KEYID."),
            code="BadSse", text=_shown(raw))
    if key_id and not _KEY_ID_RE.match(key_id):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "'{key_id}' is not a KMS key id."),
            QT_TRANSLATE_NOOP("LabGPU", "Copy the key's id or ARN from the cloud console's KMS page."),
            code="BadSse", key_id=_shown(key_id))
    return SseSpec(kind, key_id)


def sse_params(scheme: str, spec: SseSpec | None) -> dict[str, Any]:
    """boto3 parameters for PutObject and CreateMultipartUpload; {} without a spec."""
    if spec is None:
        return {}
    if scheme not in SCHEMES:
        raise ValueError(f"not a bucket scheme: {scheme}")
    if scheme in ("s3", "obs"):
        params: dict[str, Any] = {"ServerSideEncryption": "aws:kms"}
        if spec.key_id:
            params["SSEKMSKeyId"] = spec.key_id
        return params
    raise InputError(
        QT_TRANSLATE_NOOP("LabGPU", "{service} does not take KMS encryption per object through its S3-compatible API."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Turn on the bucket's default encryption with KMS in the {service} console and sync without "
                      "--sse: every object LabGPU uploads is then encrypted by the service. Or use --encrypt "
                      "(a LabGPU key)."),
        code="SseNotSupported", service=SERVICE_NAMES[scheme])


def _shown(text: str) -> str:
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= 80 else text[:77] + "…"
