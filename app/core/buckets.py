"""Object-storage locations: ``s3://``, ``cos://``, ``oss://``, ``obs://`` URLs, their endpoints and limits.

Pure data and rules (no SDK, no network): the CLI, the Sync page, the bucket engine
(``app.cloud.storage``) and the presigned instance transfers all parse a bucket URL here, so one
reading decides which cloud, bucket, prefix and endpoint a sync uses.

Each rule names its document:

* S3 bucket names: "Bucket naming rules", Amazon S3 User Guide
  (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html): 3–63 characters,
  lowercase letters, digits, '.' and '-', beginning and ending with a letter or digit, not an IP
  address, not starting with ``xn--`` and not ending with ``-s3alias``.
* COS: "Bucket Overview" (https://www.tencentcloud.com/document/product/436/13312): the name is
  ``BucketName-APPID`` (lowercase letters, digits and '-'; the whole at most 60 characters; APPID
  digits).
* OSS: "Bucket naming conventions" (https://www.alibabacloud.com/help/en/oss/user-guide/bucket-naming-conventions):
  3–63 lowercase letters, digits and '-', starting and ending with a letter or digit.
* OBS: "Bucket naming rules" (https://support.huaweicloud.com/intl/en-us/ugobs-obs/obs_41_0009.html):
  3–63 lowercase letters, digits, '-' and '.', starting and ending with a letter or digit, no
  adjacent periods, not an IP address.
* Object keys: "Naming Amazon S3 objects" — UTF-8, at most 1,024 bytes. LabGPU maps keys to
  local paths, so it also refuses ``.``/``..`` components, empty components (a leading ``/`` or
  ``//``), backslashes, NUL and control characters: a key is never able to become a path outside
  the destination.
* Sizes: "Amazon S3 multipart upload limits" — an object at most 5 TiB, parts 5 MiB–5 GiB, at most
  10,000 parts; COS, OSS and OBS allow at least as much through their S3-compatible APIs, so the
  S3 limits are used for all four.
* Endpoints (virtual-hosted style is what COS, OSS and OBS require on their S3-compatible
  endpoints): S3 ``https://s3.REGION.amazonaws.com`` ("Regions and endpoints", AWS General
  Reference); COS ``https://cos.REGION.myqcloud.com`` ("Regions and Access Endpoints",
  https://www.tencentcloud.com/document/product/436/6224); OSS ``https://oss-REGION.aliyuncs.com``
  ("Regions and endpoints", https://www.alibabacloud.com/help/en/oss/user-guide/regions-and-endpoints;
  S3 compatibility: https://www.alibabacloud.com/help/en/oss/developer-reference/compatibility-with-amazon-s3);
  OBS ``https://obs.REGION.myhuaweicloud.com`` ("Regions and Endpoints", Huawei Cloud).
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass

from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP

# scheme → the LabGPU provider id whose accounts hold the credentials
SCHEMES: dict[str, str] = {"s3": "aws", "cos": "tencent", "oss": "alibaba", "obs": "huawei"}
SERVICE_NAMES: dict[str, str] = {
    "s3": "Amazon S3",
    "cos": "Tencent Cloud COS",
    "oss": "Alibaba Cloud OSS",
    "obs": "Huawei Cloud OBS",
}

MIB, GIB, TIB = 1 << 20, 1 << 30, 1 << 40
MAX_OBJECT_SIZE = 5 * TIB  # "Amazon S3 multipart upload limits"
MAX_SINGLE_PUT = 5 * GIB  # PutObject: at most 5 GiB in one request (same page)
MIN_PART_SIZE = 5 * MIB  # every part but the last
MAX_PART_SIZE = 5 * GIB
MAX_PARTS = 10_000
MAX_KEY_BYTES = 1024  # "Naming Amazon S3 objects"
DEFAULT_PART_SIZE = 16 * MIB
MULTIPART_THRESHOLD = 64 * MIB  # a file at least this big goes up in parallel parts and resumes
PRESIGN_MAX_SECONDS = 7 * 24 * 3600  # SigV4 presigned URL: X-Amz-Expires at most 604800 (AWS docs)

_URL_RE = re.compile(r"^(?P<scheme>[a-z0-9]+)://(?P<bucket>[^/]*)(?:/(?P<prefix>.*))?$", re.S)
_S3_BUCKET = re.compile(r"^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$")
_OSS_BUCKET = re.compile(r"^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$")
_COS_BUCKET = re.compile(r"^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?-[0-9]{1,12}$")
_REGION_RE = re.compile(r"^[a-z0-9][a-z0-9-]{1,40}$")

BAD_URL = QT_TRANSLATE_NOOP("LabGPU", "{text!r} is not a bucket location.")
BAD_URL_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Write it as s3://BUCKET/PREFIX (or cos://, oss://, obs://), e.g. cos://data-1250000000/imagenet."
)
BAD_BUCKET = QT_TRANSLATE_NOOP("LabGPU", "{bucket!r} cannot be the name of a bucket on {service}.")
BAD_KEY = QT_TRANSLATE_NOOP("LabGPU", "The object path {key!r} is refused: {why}.")
BAD_KEY_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Use a prefix made of plain folder names separated by single '/', without '.' or '..'."
)
WHY_DOTS = QT_TRANSLATE_NOOP("LabGPU", "it contains a '.' or '..' folder")
WHY_EMPTY = QT_TRANSLATE_NOOP("LabGPU", "it starts with '/' or contains '//'")
WHY_CONTROL = QT_TRANSLATE_NOOP("LabGPU", "it contains a control character or a backslash")
WHY_LONG = QT_TRANSLATE_NOOP("LabGPU", "it is longer than the 1,024 bytes an object key may have")
BUCKET_HINTS = {
    "s3": QT_TRANSLATE_NOOP(
        "LabGPU", "An S3 bucket name has 3–63 lowercase letters, digits, '.' or '-', e.g. my-lab-data."
    ),
    "cos": QT_TRANSLATE_NOOP(
        "LabGPU", "A COS bucket name ends with your APPID, e.g. data-1250000000 (see the COS console)."
    ),
    "oss": QT_TRANSLATE_NOOP("LabGPU", "An OSS bucket name has 3–63 lowercase letters, digits or '-'."),
    "obs": QT_TRANSLATE_NOOP(
        "LabGPU", "An OBS bucket name has 3–63 lowercase letters, digits, '.' or '-'."
    ),
}


@dataclass(frozen=True)
class BucketUrl:
    """A parsed ``scheme://bucket/prefix``. ``prefix`` has no leading or trailing '/' ("" = the
    whole bucket); keys below it are ``prefix + "/" + relpath``."""

    scheme: str
    bucket: str
    prefix: str = ""

    @property
    def provider(self) -> str:
        return SCHEMES[self.scheme]

    @property
    def service(self) -> str:
        return SERVICE_NAMES[self.scheme]

    def __str__(self) -> str:
        return f"{self.scheme}://{self.bucket}/{self.prefix}" if self.prefix else f"{self.scheme}://{self.bucket}"

    def key_for(self, relpath: str) -> str:
        """The object key of a relative path below this location."""
        rel = relpath.strip("/")
        if not self.prefix:
            return rel
        return f"{self.prefix}/{rel}" if rel else self.prefix

    @property
    def list_prefix(self) -> str:
        """What ListObjectsV2's Prefix is for everything below this location."""
        return f"{self.prefix}/" if self.prefix else ""

    def rel_of(self, key: str) -> str | None:
        """The relative path of an object key below this location, or None when it is not below
        (or is the folder marker of the prefix itself)."""
        lp = self.list_prefix
        if not key.startswith(lp):
            return None
        rel = key[len(lp):]
        return rel or None

    def child(self, name: str) -> BucketUrl:
        """The location one folder further down (the bucket browser)."""
        check_key(name)
        return BucketUrl(self.scheme, self.bucket, self.key_for(name))


def is_bucket_url(text: str) -> bool:
    m = _URL_RE.match(text.strip())
    return bool(m and m.group("scheme") in SCHEMES)


def parse_bucket_url(text: str) -> BucketUrl:
    """``cos://data-1250000000/imagenet/train`` → BucketUrl; an InputError with a next step for
    anything else (an unknown scheme, a bad bucket name, a ``..`` in the prefix …)."""
    raw = text.strip()
    m = _URL_RE.match(raw)
    if not m or m.group("scheme") not in SCHEMES:
        raise InputError(BAD_URL, BAD_URL_HINT, code="BadBucketUrl", text=text)
    scheme, bucket = m.group("scheme"), m.group("bucket")
    check_bucket_name(scheme, bucket)
    prefix = (m.group("prefix") or "").rstrip("/")
    if prefix:
        check_key(prefix)
    return BucketUrl(scheme, bucket, prefix)


def check_bucket_name(scheme: str, bucket: str) -> None:
    """Raises InputError unless ``bucket`` follows the service's documented naming rules."""
    service = SERVICE_NAMES.get(scheme, scheme)
    ok = _bucket_ok(scheme, bucket)
    if not ok:
        raise InputError(BAD_BUCKET, BUCKET_HINTS.get(scheme, BAD_URL_HINT), code="BadBucketName",
                         bucket=bucket, service=service)


def _bucket_ok(scheme: str, bucket: str) -> bool:
    if not bucket.isascii():
        return False
    if scheme == "cos":
        return len(bucket) <= 60 and bool(_COS_BUCKET.match(bucket))
    if scheme == "oss":
        return bool(_OSS_BUCKET.match(bucket))
    if not _S3_BUCKET.match(bucket) or ".." in bucket or ".-" in bucket or "-." in bucket:
        return False
    try:
        ipaddress.IPv4Address(bucket)
        return False
    except ValueError:
        pass
    reserved = bucket.startswith(("xn--", "sthree-")) or bucket.endswith(("-s3alias", "--ol-s3"))
    return not (scheme == "s3" and reserved)


def key_problem(key: str) -> str | None:
    """Why an object key (or a relative path below a prefix) cannot map to a local path, or None."""
    if any(unicodedata.category(c) == "Cc" for c in key) or "\\" in key:
        return WHY_CONTROL
    if len(key.encode("utf-8", "surrogateescape")) > MAX_KEY_BYTES:
        return WHY_LONG
    parts = key.split("/")
    if any(p == "" for p in parts):
        return WHY_EMPTY
    if any(p in (".", "..") for p in parts):
        return WHY_DOTS
    return None


def check_key(key: str) -> None:
    why = key_problem(key)
    if why is not None:
        raise InputError(BAD_KEY, BAD_KEY_HINT, code="BadObjectKey", key=key, why=why)


@dataclass(frozen=True)
class Endpoint:
    """Where a bucket's requests go: the endpoint URL boto3 gets, the addressing style, the
    region SigV4 signs for, and an HTTP proxy (tests route a real endpoint name to a local peer)."""

    url: str
    addressing: str  # "virtual" | "path"
    region: str
    proxy: str = ""


def default_endpoint(scheme: str, region: str) -> str:
    if not _REGION_RE.match(region or ""):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "{region!r} is not a region name."),
            QT_TRANSLATE_NOOP("LabGPU", "Set the account's region, e.g. ap-guangzhou or us-east-1."),
            code="BadRegion",
            region=region,
        )
    return {
        "s3": f"https://s3.{region}.amazonaws.com",
        "cos": f"https://cos.{region}.myqcloud.com",
        "oss": f"https://oss-{region}.aliyuncs.com",
        "obs": f"https://obs.{region}.myhuaweicloud.com",
    }[scheme]


def endpoint_for(url: BucketUrl, region: str, *, override: str = "", proxy: str = "") -> Endpoint:
    """The endpoint of ``url``'s bucket in ``region``. ``override`` (an account's
    ``extra["storage_endpoint"]``: a VPC endpoint, a compatible server, a test peer) replaces the
    URL; a bucket name with '.' on S3 uses path style (virtual-hosted names with dots break TLS)."""
    ep = override or default_endpoint(url.scheme, region)
    addressing = "virtual"
    if url.scheme == "s3" and "." in url.bucket:
        addressing = "path"
    if override and re.match(r"^https?://(127\.|\[::1\]|localhost)", override):
        addressing = "path"  # a local server answers one host name: path style
    return Endpoint(ep, addressing, region, proxy)


def part_size_for(size: int, preferred: int = DEFAULT_PART_SIZE) -> int:
    """A part size that keeps a ``size``-byte object within 10,000 parts (whole MiB, ≥ 5 MiB)."""
    need = -(-size // MAX_PARTS)
    part = max(preferred, MIN_PART_SIZE, need)
    return min(MAX_PART_SIZE, -(-part // MIB) * MIB)


def too_big(size: int) -> bool:
    return size > MAX_OBJECT_SIZE
