"""The bucket side of a sync: ListObjectsV2 below the prefix, and LabGPU's metadata of objects.

Every key is data: a key that cannot map to a local path (``key_problem``: ``..``, ``//``, a
leading ``/``, control characters, over 1,024 bytes) is kept aside to be shown as not
transferred — never written, never deleted. ``xxx/`` folder markers (what consoles create for an
empty folder) are ignored. The listing is bounded (``MAX_KEYS``).

LabGPU writes three user-metadata fields on every object it uploads ("Working with object
metadata", Amazon S3 User Guide: user-defined metadata is sent as ``x-amz-meta-*`` headers and
returned by HEAD and GET): ``labgpu-mtime`` (the source's modification time), ``labgpu-sha256``
(of the plain content) and ``labgpu-size`` (the plain size, which differs for encrypted objects).
ListObjectsV2 does not return user metadata, so a HEAD is sent only where the comparison needs it,
and its answer is remembered per ETag (:mod:`app.core.bucketstate`).
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from app.cloud.storage.client import StorageTarget
from app.core.buckets import key_problem
from app.core.bucketstate import HeadMeta
from app.core.errors import LabGpuError
from app.core.syncplan import DIR, FILE, REASONS, Entry

from .errors import bucket_error, is_sdk_error, shown, too_many_keys_error
from .progress import Flow

log = logging.getLogger(__name__)

MAX_KEYS = 1_000_000  # a listing beyond this is refused (memory, and a plan nobody can review)
PAGE = 1000  # ListObjectsV2 MaxKeys: 1,000 is the most S3 returns per page
META_MTIME, META_SHA, META_SIZE = "labgpu-mtime", "labgpu-sha256", "labgpu-size"
_SHA_RE = re.compile(r"^[0-9a-f]{64}$")
MAX_TIME = 253402300799.0  # 9999-12-31: a later time is not a file's


@dataclass(frozen=True)
class ObjInfo:
    key: str
    rel: str  # the plain relative path (names decrypted for an encrypted pair)
    size: int  # as stored (encrypted size for an encrypted pair)
    etag: str  # without quotes
    modified: float  # LastModified, seconds since the epoch


@dataclass
class BucketListing:
    objects: dict[str, ObjInfo] = field(default_factory=dict)  # plain rel → object
    refused: list[dict[str, str]] = field(default_factory=list)  # {"path", "why"}: never written
    special: dict[str, ObjInfo] = field(default_factory=dict)  # stored rel → object (e.g. the key check)


def clean_etag(etag: str) -> str:
    return str(etag or "").strip().strip('"')


def list_objects(
    client: Any,
    target: StorageTarget,
    flow: Flow,
    *,
    special: frozenset[str] = frozenset(),
    limit: int | None = None,
) -> BucketListing:
    """All objects below ``target.url``'s prefix, by their stored relative name. Names in
    ``special`` (at the prefix root: the key check object) are returned apart."""
    limit = MAX_KEYS if limit is None else limit
    url = target.url
    out = BucketListing()
    count = 0
    kwargs: dict[str, Any] = {"Bucket": url.bucket, "Prefix": url.list_prefix, "MaxKeys": PAGE}
    while True:
        flow.check()
        try:
            page = client.list_objects_v2(**kwargs)
        except Exception as exc:
            if is_sdk_error(exc):
                raise bucket_error(exc, target) from None
            raise
        for obj in page.get("Contents") or ():
            count += 1
            if count > limit:
                raise too_many_keys_error(target, limit)
            key = str(obj.get("Key", ""))
            stored = url.rel_of(key)
            if stored is None:
                continue
            if stored.endswith("/"):
                continue  # a folder marker (consoles make them): nothing to copy
            why = key_problem(stored)
            if why is not None:
                out.refused.append({"path": shown(stored), "why": why})
                continue
            modified = obj.get("LastModified")
            info = ObjInfo(key, stored, int(obj.get("Size") or 0), clean_etag(obj.get("ETag", "")),
                           modified.timestamp() if modified is not None else 0.0)
            if stored in special:
                out.special[stored] = info
                continue
            out.objects[info.rel] = info
        if not page.get("IsTruncated"):
            break
        token = page.get("NextContinuationToken")
        if not token:
            break
        kwargs["ContinuationToken"] = token
    return out


def apply_names(listing: BucketListing, name_of: Callable[[str], str]) -> None:
    """Map stored names to plain ones in place (an encrypted pair); a name that does not decrypt
    is refused, named as stored."""
    plain: dict[str, ObjInfo] = {}
    for stored, info in listing.objects.items():
        try:
            rel = name_of(stored)
        except LabGpuError as exc:
            listing.refused.append({"path": shown(stored), "why": exc.text()})
            continue
        why = key_problem(rel)
        if why is not None:
            listing.refused.append({"path": shown(rel), "why": why})
            continue
        plain[rel] = ObjInfo(info.key, rel, info.size, info.etag, info.modified)
    listing.objects = plain


def meta_of(etag: str, metadata: Mapping[str, str] | None) -> HeadMeta:
    """LabGPU's fields from an object's user metadata (HEAD or GET answer); anything malformed
    counts as absent (the object is then compared by its LastModified)."""
    md = {str(k).lower(): str(v) for k, v in (metadata or {}).items()}
    mtime: float | None = None
    try:
        t = float(md.get(META_MTIME, ""))
        if math.isfinite(t) and 0 <= t <= MAX_TIME:
            mtime = t
    except ValueError:
        pass
    sha = md.get(META_SHA, "").strip().lower()
    if not _SHA_RE.match(sha):
        sha = ""
    size = -1
    raw = md.get(META_SIZE, "")
    if raw.isdigit() and len(raw) < 20:
        size = int(raw)
    return HeadMeta(clean_etag(etag), mtime, sha, size, mtime is not None)


def fetch_heads(
    client: Any, target: StorageTarget, objs: list[ObjInfo], flow: Flow, workers: int
) -> dict[str, HeadMeta]:
    """HEAD each object (in parallel), by key. An object gone meanwhile is left out."""

    def one(o: ObjInfo) -> tuple[str, HeadMeta | None]:
        flow.check()
        try:
            r = client.head_object(Bucket=target.url.bucket, Key=o.key, IfMatch=f'"{o.etag}"')
        except Exception as exc:
            if not is_sdk_error(exc):
                raise
            code = str(getattr(exc, "response", {}).get("Error", {}).get("Code", ""))
            if code in ("404", "NoSuchKey", "412", "PreconditionFailed"):
                return o.key, None  # removed or replaced since the listing: compared by the listing
            raise bucket_error(exc, target, key=o.key) from None
        return o.key, meta_of(r.get("ETag", o.etag), r.get("Metadata"))

    if not objs:
        return {}
    out: dict[str, HeadMeta] = {}
    if workers <= 1 or len(objs) == 1:
        results = [one(o) for o in objs]
    else:
        with ThreadPoolExecutor(max_workers=min(workers, len(objs)), thread_name_prefix="labgpu-bucket-head") as ex:
            results = list(ex.map(one, objs))
    for key, meta in results:
        if meta is not None:
            out[key] = meta
    return out


def entries(objects: Mapping[str, ObjInfo], plain_size: Callable[[ObjInfo], int],
            metas: Mapping[str, HeadMeta]) -> tuple[dict[str, Entry], list[dict[str, str]]]:
    """The bucket as a listing ``build_plan`` compares: a file per object (its source mtime from
    the metadata, else LastModified) and a folder for each parent path. An object whose name is
    also a folder of other objects cannot be a local file: it is returned as not transferable."""
    out: dict[str, Entry] = {}
    clash: list[dict[str, str]] = []
    for rel in objects:
        head = rel.rpartition("/")[0]
        while head and head not in out:
            out[head] = Entry(head, DIR)
            head = head.rpartition("/")[0]
    for rel, o in objects.items():
        if rel in out:
            clash.append({"path": shown(rel), "why": REASONS["type"]})
            continue
        m = metas.get(o.key)
        mtime = m.mtime if m is not None and m.mtime is not None else o.modified
        # the size is the listing's (the plain size an encrypted object's length implies), never
        # the metadata's: the object's length is what a download can check
        out[rel] = Entry(rel, FILE, plain_size(o), mtime, 0o644)
    return out, clash
