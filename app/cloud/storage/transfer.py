"""What the upload and download halves of a bucket sync share: the run's state and the codec.

The codec is how a local file's bytes become an object's bytes: unchanged (``PlainCodec``) or
sealed in 64 KiB chunks with AES-256-GCM (``CryptCodec``, :mod:`app.core.objcrypt`): chunk-aligned
parts and byte ranges can then be sealed and opened independently, so big files stream in parallel
parts both ways and resume after a cut.

Tunables (module globals, as the SSH engine's, read at each use): a test or the benchmark sets
``PART_SIZE`` (upload part and download range size, whole MiB ≥ 5 MiB) and ``MULTIPART_THRESHOLD``
(from this stored size: multipart up, parallel ranges down) for one run, e.g. with
``monkeypatch.setattr(transfer, "PART_SIZE", 5 * MIB)``.
"""

from __future__ import annotations

import hashlib
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.cloud.storage.client import StorageTarget
from app.core import buckets
from app.core.bucketstate import BucketState, HeadMeta
from app.core.localtree import LocalRoot
from app.core.syncmodel import SyncOptions, SyncResult

from .errors import BucketCancelledError, BucketError, cancelled_error, dry_run_write_error
from .listing import META_MTIME, META_SHA, META_SIZE, ObjInfo
from .progress import Flow

if TYPE_CHECKING:
    from app.core.objcrypt import PairCrypt

PART_SIZE = buckets.DEFAULT_PART_SIZE  # preferred part (and download range) size
MULTIPART_THRESHOLD = buckets.MULTIPART_THRESHOLD  # from this size: parallel parts / ranges, resumable
READ_BLOCK = 1 << 20  # a GET body is read (and cancel checked) in blocks of this size
DELETE_BATCH = 1000  # DeleteObjects: at most 1,000 keys per request (S3 API Reference)


class PlainCodec:
    encrypted = False
    align = 1
    header_size = 0

    def name(self, rel: str) -> str:
        return rel

    def stored_size(self, plain: int) -> int:
        return plain

    def plain_size(self, stored: int, name: str = "") -> int:
        return stored

    def new_header(self) -> bytes:
        return b""

    def seal_all(self, data: bytes) -> bytes:
        return data

    def open_all(self, blob: bytes, name: str = "") -> bytes:
        return blob

    def seal_part(self, header: bytes, offset: int, data: bytes, total: int) -> bytes:
        return data

    def stored_range(self, start: int, end: int, total: int) -> tuple[int, int]:
        """Stored bytes [a, b) that hold the plain bytes [start, end)."""
        return start, end

    def open_range(self, header: bytes, start: int, blob: bytes, total: int, name: str = "") -> bytes:
        return blob


class CryptCodec(PlainCodec):
    """Object = header + sealed chunks (each CHUNK plain bytes + a 16-byte tag; the last one marked)."""

    encrypted = True

    def __init__(self, crypt: PairCrypt) -> None:
        from app.core import objcrypt

        self.crypt = crypt
        self.chunk = objcrypt.CHUNK
        self.sealed = objcrypt.SEALED
        self.header_size = objcrypt.HEADER_SIZE
        self.align = objcrypt.CHUNK
        self._mod = objcrypt

    def name(self, rel: str) -> str:
        return self.crypt.encrypt_name(rel)

    def stored_size(self, plain: int) -> int:
        return self.crypt.encrypted_size(plain)

    def plain_size(self, stored: int, name: str = "") -> int:
        return self.crypt.plain_size(stored, name=name)

    def new_header(self) -> bytes:
        return self.crypt.new_file().header

    def seal_all(self, data: bytes) -> bytes:
        return self._mod.encrypt_bytes(self.crypt, data)

    def open_all(self, blob: bytes, name: str = "") -> bytes:
        return self._mod.decrypt_bytes(self.crypt, blob, name=name)

    def chunks(self, total: int) -> int:
        return max(1, -(-total // self.chunk))

    def seal_part(self, header: bytes, offset: int, data: bytes, total: int) -> bytes:
        sealer = self.crypt.sealer_for(header)
        first = offset // self.chunk
        n = self.chunks(total)
        out = [header] if offset == 0 else []
        view = memoryview(data)
        for k in range(0, max(1, len(data)), self.chunk):
            index = first + k // self.chunk
            out.append(sealer.seal(index, view[k : k + self.chunk], index == n - 1))
        return b"".join(out)

    def stored_range(self, start: int, end: int, total: int) -> tuple[int, int]:
        first, last = start // self.chunk, -(-end // self.chunk)
        return self.header_size + first * self.sealed, min(
            self.header_size + last * self.sealed, self.stored_size(total)
        )

    def open_range(self, header: bytes, start: int, blob: bytes, total: int, name: str = "") -> bytes:
        opener = self.crypt.opener(header, name=name)
        first = start // self.chunk
        n = self.chunks(total)
        view = memoryview(blob)
        out = []
        for k in range(0, len(blob), self.sealed):
            index = first + k // self.sealed
            out.append(opener.open(index, view[k : k + self.sealed], index == n - 1))
        return b"".join(out)


Job = Callable[[], "list[Job] | None"]  # a job may return more jobs (a big file's parts)


def run_jobs(jobs: deque[Job], channels: int, flow: Flow) -> None:
    """``channels`` workers take jobs (a job may add more: a big file's parts, taken first) until
    none is left and none is running; the first failure stops the others and is raised (a worker
    stopped by it raises the cancel error, which is not the one reported)."""
    if not jobs:
        return
    cond = threading.Condition()
    errors: list[BaseException] = []
    busy = [0]

    def worker() -> None:
        while True:
            with cond:
                while not jobs and busy[0] and not errors:
                    cond.wait(0.5)
                if errors or not jobs:
                    cond.notify_all()
                    return
                job = jobs.popleft()
                busy[0] += 1
            try:
                flow.check()
                more = job()
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                flow.stop.set()
                with cond:
                    errors.append(exc)
                    busy[0] -= 1
                    cond.notify_all()
                return
            with cond:
                if more:
                    jobs.extendleft(reversed(more))
                busy[0] -= 1
                cond.notify_all()

    n = max(1, min(channels, 64))
    threads = [threading.Thread(target=worker, name=f"labgpu-bucket-{k}", daemon=True) for k in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    flow.stop.clear()
    if errors:
        if flow.cancel.is_set():
            raise cancelled_error()
        real = [e for e in errors if not isinstance(e, BucketCancelledError)]
        raise (real or errors)[0]


def bind(fn: Callable[[Any], None], arg: Any) -> Job:
    def job() -> None:
        fn(arg)

    return job


def bind2(fn: Callable[[Any, Any], None], a: Any, b: Any) -> Job:
    def job() -> None:
        fn(a, b)

    return job


def part_size(size: int, codec: PlainCodec) -> int:
    """The plain part size for a ``size``-byte file: within 10,000 parts, a multiple of the
    codec's chunk, and (sealed) at least the 5 MiB every part but the last must have."""
    part = buckets.part_size_for(codec.stored_size(size), PART_SIZE)
    if codec.align > 1:
        part -= part % codec.align
    return part


def metadata(mtime: float, sha256: str, size: int) -> dict[str, str]:
    return {META_MTIME: repr(float(mtime)), META_SHA: sha256, META_SIZE: str(size)}


def md5_b64(data: bytes) -> str:
    import base64

    return base64.b64encode(hashlib.md5(data).digest()).decode("ascii")  # noqa: S324 - Content-MD5 is MD5


@dataclass
class Run:
    """One bucket sync's state, shared by the engine, the uploader and the downloader."""

    client: Any
    target: StorageTarget
    local: Path
    opts: SyncOptions
    flow: Flow
    state: BucketState
    codec: PlainCodec
    sse_params: dict[str, Any]
    result: SyncResult
    lock: threading.Lock = field(default_factory=threading.Lock)
    objects: dict[str, ObjInfo] = field(default_factory=dict)  # plain rel → listed object
    new_heads: list[tuple[str, HeadMeta]] = field(default_factory=list)  # written when the run ends
    changed: list[str] = field(default_factory=list)
    bad: list[str] = field(default_factory=list)  # failed verification: not put in place
    aborted: list[str] = field(default_factory=list)  # stale multipart uploads aborted
    on_done: Callable[[str], None] | None = None

    @property
    def endpoint_id(self) -> str:
        return self.target.endpoint.url

    @property
    def bucket(self) -> str:
        return self.target.url.bucket

    def key_of(self, rel: str) -> str:
        return self.target.url.key_for(self.codec.name(rel))

    def root(self) -> LocalRoot:
        lr = LocalRoot(self.local)
        lr.error_class = BucketError
        return lr

    def writable(self, what: str) -> None:
        """Every writing call passes here first: a dry run can never reach one."""
        if self.opts.dry_run:
            raise dry_run_write_error(what)
        self.flow.check()

    def remember(self, key: str, meta: HeadMeta) -> None:
        with self.lock:
            self.new_heads.append((key, meta))

    def done_file(self, nbytes: int) -> None:
        with self.lock:
            self.result.files += 1
            self.result.bytes += nbytes
        self.flow.progress.add(0, files=1)
