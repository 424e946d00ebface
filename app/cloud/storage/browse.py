"""The bucket browser's three questions: which buckets an account has, what one folder level of a
bucket holds, and how big a prefix is (the Sync page's size and monthly cost).

Names are data: a folder or object whose name cannot be a local path (``key_problem``) is not
offered (it is counted in ``Level.hidden``); names are shown with control characters replaced.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from app.cloud.base import Account, Credentials
from app.cloud.storage.client import StorageTarget, s3_client, target_for
from app.core.buckets import SCHEMES, BucketUrl, Endpoint, key_problem

from .errors import bucket_error, is_sdk_error, shown

USAGE_MAX_OBJECTS = 10_000_000  # usage() stops counting here (complete=False)
# COS answers GET Service (the bucket list) on service.cos.myqcloud.com only ("GET Service (List
# Buckets)", https://www.tencentcloud.com/document/product/436/8291); S3, OSS and OBS on their regional host.
COS_SERVICE_ENDPOINT = "https://service.cos.myqcloud.com"


@dataclass(frozen=True)
class BucketInfo:
    name: str
    created: float  # seconds since the epoch (0 when the service gives none)


@dataclass(frozen=True)
class ObjectInfo:
    key: str
    rel: str  # below the level's prefix
    size: int
    mtime: float  # LastModified


@dataclass
class Level:
    folders: list[str] = field(default_factory=list)  # names one level down (no trailing '/')
    objects: list[ObjectInfo] = field(default_factory=list)
    truncated: bool = False  # more than max_keys entries: the rest is not listed
    hidden: int = 0  # names that cannot be a local path (not offered)


@dataclass(frozen=True)
class Usage:
    bytes: int
    objects: int
    complete: bool  # False when cancelled or stopped at USAGE_MAX_OBJECTS


def _scheme_of(account: Account) -> str:
    for scheme, provider in SCHEMES.items():
        if provider == account.provider:
            return scheme
    return "s3"


def _call(target: StorageTarget, fn: Any, **kw: Any) -> Any:
    try:
        return fn(**kw)
    except Exception as exc:
        if is_sdk_error(exc):
            raise bucket_error(exc, target) from None
        raise


def list_buckets(account: Account, creds: Credentials) -> list[BucketInfo]:
    """The account's buckets (ListBuckets), sorted by name."""
    scheme = _scheme_of(account)
    target = target_for(account, BucketUrl(scheme, ""))
    if scheme == "cos" and not account.extra.get("storage_endpoint"):
        ep = target.endpoint
        target = StorageTarget(account, target.url, Endpoint(COS_SERVICE_ENDPOINT, ep.addressing, ep.region, ep.proxy))
    client = s3_client(target, creds, pool=2)
    resp = _call(target, client.list_buckets)
    out = []
    for b in resp.get("Buckets") or ():
        created = b.get("CreationDate")
        out.append(BucketInfo(shown(str(b.get("Name", "")), 80), created.timestamp() if created else 0.0))
    return sorted(out, key=lambda b: b.name)


def list_level(target: StorageTarget, creds: Credentials, max_keys: int = 1000) -> Level:
    """One folder level below ``target.url`` (ListObjectsV2 with Delimiter "/"), at most
    ``max_keys`` folders and objects together."""
    client = s3_client(target, creds, pool=2)
    prefix = target.url.list_prefix
    level = Level()
    kw: dict[str, Any] = {"Bucket": target.url.bucket, "Prefix": prefix, "Delimiter": "/",
                          "MaxKeys": min(1000, max(1, max_keys))}
    seen = 0
    while True:
        page = _call(target, client.list_objects_v2, **kw)
        for cp in page.get("CommonPrefixes") or ():
            name = str(cp.get("Prefix", ""))[len(prefix):].rstrip("/")
            if not name or key_problem(name) is not None:
                level.hidden += 1
                continue
            level.folders.append(name)
            seen += 1
        for obj in page.get("Contents") or ():
            key = str(obj.get("Key", ""))
            rel = key[len(prefix):]
            if not rel:
                continue  # the marker of this folder itself
            if key_problem(rel) is not None:
                level.hidden += 1
                continue
            modified = obj.get("LastModified")
            level.objects.append(ObjectInfo(key, rel, int(obj.get("Size") or 0),
                                            modified.timestamp() if modified else 0.0))
            seen += 1
        token = page.get("NextContinuationToken")
        if not page.get("IsTruncated") or not token:
            break
        if seen >= max_keys:
            level.truncated = True
            break
        kw["ContinuationToken"] = token
    level.folders.sort()
    level.objects.sort(key=lambda o: o.rel)
    return level


def usage(target: StorageTarget, creds: Credentials, cancel: threading.Event | None = None) -> Usage:
    """The bytes and objects below ``target.url`` (every page of ListObjectsV2)."""
    client = s3_client(target, creds, pool=2)
    kw: dict[str, Any] = {"Bucket": target.url.bucket, "Prefix": target.url.list_prefix, "MaxKeys": 1000}
    total = count = 0
    while True:
        if cancel is not None and cancel.is_set():
            return Usage(total, count, False)
        page = _call(target, client.list_objects_v2, **kw)
        for obj in page.get("Contents") or ():
            total += int(obj.get("Size") or 0)
            count += 1
        token = page.get("NextContinuationToken")
        if not page.get("IsTruncated") or not token:
            return Usage(total, count, True)
        if count >= USAGE_MAX_OBJECTS:
            return Usage(total, count, False)
        kw["ContinuationToken"] = token
