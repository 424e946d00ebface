"""What a bucket sync tells the user when it fails: a sentence and a next step for each error.

Service error codes are mapped only where the S3 error list names them ("Error responses",
Amazon S3 API Reference: https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html);
COS, OSS and OBS answer the same codes on their S3-compatible endpoints. Any other code is shown
as the service sent it, named, with its request id. A service's message is data: it is bounded
and its control characters are replaced before it reaches a sentence.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import unicodedata
from typing import Any

from app.cloud.base import CloudError
from app.cloud.storage.client import MAX_RETRIES, StorageTarget
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.logsetup import redact
from app.core.units import human_bytes


class BucketError(CloudError):
    """A bucket operation failed; the message says why and what to do."""


class BucketCancelledError(BucketError):
    pass


class BucketNetworkError(BucketError):
    pass


class BucketDiskFullError(BucketError):
    pass


_RUN_AGAIN = QT_TRANSLATE_NOOP(
    "LabGPU", "Run the sync again: finished files are kept and an interrupted upload continues where it stopped."
)

# code → (message, hint). Templates may use {service}, {bucket}, {key}, {region}, {account},
# {bucket_region}, {error_code}, {provider_message}, {rid}, {attempts}.
_TABLE: dict[str, tuple[str, str]] = {
    "NoSuchBucket": (
        QT_TRANSLATE_NOOP("LabGPU", "The bucket {bucket} does not exist on {service} ({region})."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Check the bucket name and the account's region; labgpu buckets ls ACCOUNT lists your buckets."
        ),
    ),
    "AccessDenied": (
        QT_TRANSLATE_NOOP("LabGPU", "{service} refused access to {bucket} for account '{account}' (AccessDenied)."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Give the account's key permission on this bucket (list, read, write and delete objects, "
            "e.g. s3:ListBucket, s3:GetObject, s3:PutObject, s3:DeleteObject), or choose another account.",
        ),
    ),
    "InvalidAccessKeyId": (
        QT_TRANSLATE_NOOP("LabGPU", "{service} does not know the access key of account '{account}'."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "The key may have been deleted or belong to another cloud: enter it again in labgpu accounts."
        ),
    ),
    "SignatureDoesNotMatch": (
        QT_TRANSLATE_NOOP("LabGPU", "{service} refused the signature: the secret key of account '{account}' is wrong."),
        QT_TRANSLATE_NOOP("LabGPU", "Enter the account's secret key again in labgpu accounts."),
    ),
    "WrongRegion": (
        QT_TRANSLATE_NOOP("LabGPU", "The bucket {bucket} is in region {bucket_region}, not in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Use an account whose region is {bucket_region}, or set that account's storage region to {bucket_region}.",
        ),
    ),
    "SlowDown": (
        QT_TRANSLATE_NOOP(
            "LabGPU", "{service} kept asking LabGPU to slow down (SlowDown), still after {attempts} tries."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Run the sync again in a few minutes, or with fewer parallel transfers; finished files are kept."
        ),
    ),
    "EntityTooLarge": (
        QT_TRANSLATE_NOOP("LabGPU", "{service} refused {key}: larger than it accepts in one request."),
        QT_TRANSLATE_NOOP("LabGPU", "Please report this as a bug: LabGPU should have sent it in parts."),
    ),
    "NoSuchUpload": (
        QT_TRANSLATE_NOOP(
            "LabGPU", "The interrupted upload of {key} is no longer on {service} (it was completed or aborted)."
        ),
        QT_TRANSLATE_NOOP("LabGPU", "Run the sync again: that file is uploaded from its start."),
    ),
    "NoSuchKey": (
        QT_TRANSLATE_NOOP("LabGPU", "{key} is no longer in the bucket {bucket}."),
        QT_TRANSLATE_NOOP("LabGPU", "It was removed while the sync ran; run the sync again."),
    ),
    "PreconditionFailed": (
        QT_TRANSLATE_NOOP("LabGPU", "{key} changed in the bucket while it was being downloaded."),
        QT_TRANSLATE_NOOP("LabGPU", "It was not put in place; run the sync again."),
    ),
    "RequestTimeTooSkewed": (
        QT_TRANSLATE_NOOP("LabGPU", "{service} refused the request because this computer's clock is wrong."),
        QT_TRANSLATE_NOOP("LabGPU", "Let the computer set its clock automatically (NTP), then run the sync again."),
    ),
    "ExpiredToken": (
        QT_TRANSLATE_NOOP("LabGPU", "The temporary credentials of account '{account}' have expired."),
        QT_TRANSLATE_NOOP("LabGPU", "Enter a fresh session token in labgpu accounts, or use a long-term key."),
    ),
    "KMS.": (
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "{service} could not use the KMS key for server-side encryption ({error_code}): {provider_message}",
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Check the KMS key id and that the account may use it (encrypt and decrypt), or sync without --sse.",
        ),
    ),
}
_ALIASES = {
    "AuthorizationHeaderMalformed": "WrongRegion",
    "PermanentRedirect": "WrongRegion",
    "IllegalLocationConstraintException": "WrongRegion",
    "301": "WrongRegion",
    "403": "AccessDenied",
    "AllAccessDisabled": "AccessDenied",
    "InvalidToken": "ExpiredToken",
    "TokenRefreshRequired": "ExpiredToken",
    "412": "PreconditionFailed",
    "503": "SlowDown",
    "ServiceUnavailable": "SlowDown",
}
_GENERIC = (
    QT_TRANSLATE_NOOP("LabGPU", "{service} refused the request ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP(
        "LabGPU", "Look up {error_code} in the {service} documentation; quote request id {rid} if you contact support."
    ),
)
_SSE_ARGUMENT = (
    QT_TRANSLATE_NOOP("LabGPU", "{service} refused the server-side encryption settings: {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Check the KMS key id, or sync without --sse."),
)
_NETWORK = (
    QT_TRANSLATE_NOOP("LabGPU", "{service} could not be reached at {endpoint} ({reason})."),
    _RUN_AGAIN,
)


def shown(text: str, limit: int = 300) -> str:
    """Remote text as it may be shown: control characters replaced, undecodable bytes as U+FFFD,
    at most ``limit`` characters."""
    text = str(text).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    text = "".join("\N{REPLACEMENT CHARACTER}" if unicodedata.category(c) == "Cc" else c for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _params(target: StorageTarget, key: str) -> dict[str, Any]:
    return {
        "service": target.url.service,
        "bucket": target.url.bucket,
        "region": target.region,
        "account": target.account.name,
        "key": shown(key or str(target.url), 200),
        "endpoint": target.endpoint.url,
    }


def _botocore_exceptions() -> Any:
    import botocore.exceptions  # the SDK is loaded by client.py before any request exists

    return botocore.exceptions


def is_sdk_error(exc: BaseException) -> bool:
    """True for what boto3 raises for a service or network problem."""
    try:
        bex = _botocore_exceptions()
    except ImportError:
        return False
    return isinstance(exc, (bex.ClientError, bex.BotoCoreError))


def bucket_error(exc: BaseException, target: StorageTarget, *, key: str = "", sse: bool = False) -> BucketError:
    """The BucketError for a boto3 exception (a service answer or a network failure)."""
    bex = _botocore_exceptions()
    params = _params(target, key)
    if isinstance(exc, bex.ClientError):
        resp: dict[str, Any] = exc.response or {}
        err = resp.get("Error") or {}
        meta = resp.get("ResponseMetadata") or {}
        headers = meta.get("HTTPHeaders") or {}
        code = str(err.get("Code") or meta.get("HTTPStatusCode") or "Unknown")
        if code == "404":
            code = "NoSuchKey" if key else "NoSuchBucket"
        rid = str(meta.get("RequestId") or headers.get("x-amz-request-id") or "-")
        bucket_region = str(err.get("Region") or headers.get("x-amz-bucket-region") or "")
        params.update(
            error_code=shown(code, 80),
            provider_message=redact(" ".join(shown(str(err.get("Message") or code)).split())),
            rid=shown(rid, 80),
            attempts=int(meta.get("RetryAttempts") or 0) + 1 if code in ("SlowDown", "503") else MAX_RETRIES + 1,
            bucket_region=shown(bucket_region or "?", 40),
        )
        name = _ALIASES.get(code, code)
        if name.startswith("KMS."):
            name = "KMS."
        elif name == "InvalidArgument" and sse:
            message, hint = _SSE_ARGUMENT
            return BucketError(message, hint, provider=target.account.provider, code=code, request_id=rid, **params)
        message, hint = _TABLE.get(name, _GENERIC)
        return BucketError(
            message, hint, provider=target.account.provider, code=shown(code, 80), request_id=rid,
            retryable=name == "SlowDown", **params,
        )
    reason = shown(str(exc) or type(exc).__name__, 200)
    message, hint = _NETWORK
    return BucketNetworkError(
        message, hint, provider=target.account.provider, code="NetworkError", retryable=True, reason=reason,
        **params,
    )


def error_code(exc: BaseException) -> str:
    """The service's error code of a boto3 ClientError ("" for anything else)."""
    resp = getattr(exc, "response", None)
    if not isinstance(resp, dict):
        return ""
    err = resp.get("Error") or {}
    return str(err.get("Code") or (resp.get("ResponseMetadata") or {}).get("HTTPStatusCode") or "")


def cancelled_error() -> BucketCancelledError:
    return BucketCancelledError(
        QT_TRANSLATE_NOOP("LabGPU", "The sync was cancelled."),
        QT_TRANSLATE_NOOP("LabGPU", "Files already finished are kept; run it again to continue."),
        code="Cancelled",
    )


def dry_run_write_error(what: str) -> BucketError:
    return BucketError(
        QT_TRANSLATE_NOOP("LabGPU", "A dry run tried to change something ({what}); refused."),
        QT_TRANSLATE_NOOP("LabGPU", "Nothing was changed. Please report this as a bug."),
        code="DryRunWrite",
        what=what,
    )


def too_many_keys_error(target: StorageTarget, limit: int) -> BucketError:
    return BucketError(
        QT_TRANSLATE_NOOP("LabGPU", "{url} holds more than {limit} objects; LabGPU syncs at most that many at once."),
        QT_TRANSLATE_NOOP("LabGPU", "Sync a narrower prefix (a sub-folder of it) instead."),
        code="TooManyObjects",
        url=str(target.url),
        limit=f"{limit:,}",
    )


def local_error(exc: OSError, path: str, need: int = 0) -> BucketError:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        free = 0
        with contextlib.suppress(OSError):
            free = shutil.disk_usage(os.path.dirname(path) or ".").free
        return disk_full_error(need, free, os.path.dirname(path))
    return BucketError(
        QT_TRANSLATE_NOOP("LabGPU", "Local file error on {path}: {why}"),
        QT_TRANSLATE_NOOP("LabGPU", "Check the folder and its permissions."),
        code="LocalIO",
        path=shown(path),
        why=exc.strerror or str(exc),
    )


def disk_full_error(need: int, free: int, where: str) -> BucketDiskFullError:
    return BucketDiskFullError(
        QT_TRANSLATE_NOOP("LabGPU", "Not enough space on this computer in {path}: {need} needed, {free} free."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Free some space or choose another local folder; nothing partial was left behind."
        ),
        code="LocalDiskFull",
        path=shown(where),
        need=human_bytes(need),
        free=human_bytes(free),
    )


def changed_error(paths: list[str]) -> BucketError:
    return BucketError(
        QT_TRANSLATE_NOOP("LabGPU", "{path} changed while it was being copied ({n} file(s))."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "It was not put in place (no half-old, half-new copy). Run the sync again when the file is no "
            "longer being written (e.g. after the training saved its checkpoint).",
        ),
        code="SourceChanged",
        path=shown(paths[0], 200),
        n=len(paths),
    )


def verify_error(paths: list[str]) -> BucketError:
    return BucketError(
        QT_TRANSLATE_NOOP("LabGPU", "{n} file(s) failed sha256 verification, e.g. {path}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "They were not put in place; run the sync again. If it repeats, the object in the bucket "
            "is damaged: upload it again from a good copy.",
        ),
        code="VerifyFailed",
        n=len(paths),
        path=shown(paths[0], 200),
    )


def local_folder_error(path: str, *, exists: bool) -> BucketError:
    if exists:
        return BucketError(
            QT_TRANSLATE_NOOP("LabGPU", "The local path {path} is a file, not a folder."),
            QT_TRANSLATE_NOOP("LabGPU", "Give the folder that contains it (sync works on folders)."),
            code="LocalNotFolder",
            path=path,
        )
    return BucketError(
        QT_TRANSLATE_NOOP("LabGPU", "The local folder {path} does not exist."),
        QT_TRANSLATE_NOOP("LabGPU", "Check the path, or create the folder first."),
        code="LocalMissing",
        path=path,
    )
