"""What the bucket sync tests share: a bucket on the strict S3 peer (tests/fixtures/s3_peer.py) with an
account routed to it, small part sizes (the engine's hook), a local tree of known bytes, and a tree
comparison. The 1 GiB / 10,000-file runs are in tests/benchmarks/bench_buckets.py."""

from __future__ import annotations

import filecmp
import os
import random
from pathlib import Path
from typing import Any

import pytest

from app.cloud.base import Credentials
from app.cloud.storage import transfer
from app.cloud.storage.client import StorageTarget, target_for
from app.cloud.storage.engine import BucketSyncEngine
from app.core.buckets import MIB, parse_bucket_url
from app.core.syncmodel import SyncOptions, SyncResult

PART = 5 * MIB  # the smallest part S3 takes ("Amazon S3 multipart upload limits")
THRESHOLD = 8 * MIB

# a bucket name each service accepts (COS names end with the APPID)
BUCKETS = {"s3": "lab-data", "cos": "lab-data-1250000000", "oss": "lab-data-oss", "obs": "lab-data-obs"}
REGIONS = {"s3": "us-east-1", "cos": "ap-guangzhou", "oss": "cn-hangzhou", "obs": "cn-north-4"}


@pytest.fixture
def small_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """5 MiB parts from 8 MiB on, so a 40 MiB file goes up in 8 parts."""
    monkeypatch.setattr(transfer, "PART_SIZE", PART)
    monkeypatch.setattr(transfer, "MULTIPART_THRESHOLD", THRESHOLD)


def bucket(peer: Any, scheme: str = "s3", prefix: str = "ds", *, region: str = "", virtual: bool = True,
           creds: Credentials | None = None, name: str = "") -> tuple[StorageTarget, Credentials]:
    region = region or REGIONS[scheme]
    name = name or BUCKETS[scheme]
    peer.make_bucket(scheme, name, region)
    account, creds = peer.account("lab", scheme, region, virtual=virtual, key=creds)
    url = f"{scheme}://{name}/{prefix}" if prefix else f"{scheme}://{name}"
    return target_for(account, parse_bucket_url(url)), creds


def sync(target: StorageTarget, creds: Credentials, local: Path, direction: str = "up", **kw: Any) -> SyncResult:
    return engine(target, creds, local, direction, **kw).run()


def engine(target: StorageTarget, creds: Credentials, local: Path, direction: str = "up", *,
           crypt: Any = None, sse: Any = None, progress: Any = None, **kw: Any) -> BucketSyncEngine:
    return BucketSyncEngine(target, creds, local, SyncOptions(direction=direction, **kw), progress,
                            crypt=crypt, sse=sse)


def write(path: Path, size: int, seed: int = 0) -> bytes:
    data = random.Random(seed).randbytes(size)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


def tree(root: Path, files: int = 300, big: int = 0, seed: int = 1) -> dict[str, bytes]:
    """``files`` small files in a few folders (0–3 KiB) and, when ``big``, one ``big.bin`` of that size."""
    out: dict[str, bytes] = {}
    for i in range(files):
        rel = f"d{i % 7}/sub{i % 3}/f{i:04d}.txt"
        out[rel] = write(root / rel, (i * 37) % 3072, seed + i)
    if big:
        out["big.bin"] = write(root / "big.bin", big, seed)
    return out


def same_tree(a: Path, b: Path) -> None:
    """Same names and the same bytes (and whole-second mtimes) everywhere below ``a`` and ``b``."""
    def walk(root: Path) -> set[str]:
        return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}

    left, right = walk(a), walk(b)
    assert left == right, (sorted(left - right)[:5], sorted(right - left)[:5])
    for rel in left:
        assert filecmp.cmp(a / rel, b / rel, shallow=False), rel
        assert int(os.stat(a / rel).st_mtime) == int(os.stat(b / rel).st_mtime), rel
