"""The engine's state for one sync and the helpers every step uses (channels, cancel, temps)."""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paramiko

from app.core.syncmodel import SyncOptions, SyncProgress, SyncResult
from app.core.syncplan import PlanItem, encode_name, part_name, remote_join

from .caps import NO_SHELL, ServerCaps
from .errors import _cancelled, _dry_run_write
from .progress import TokenBucket, _Progress
from .sftp import Channel, _ChannelPool
from .shell import _transport_of, remote_root_path


class EngineBase:
    """What :class:`~app.remote.sync.engine.SyncEngine` and its parts share: the options, the
    progress, the cancel event, this attempt's temporary names and the SFTP channels."""

    def __init__(
        self,
        connect: Callable[[], Any],
        local: str | Path,
        remote: str,
        options: SyncOptions | None = None,
        progress: Callable[[SyncProgress], None] | None = None,
        cancel_event: threading.Event | None = None,
    ) -> None:
        self.connect = connect
        self.local = Path(local).expanduser()
        self.remote = remote_root_path(remote)  # "./x" or "/x": never an option to any command
        self.remote_text = remote
        self.opts = options or SyncOptions()
        self.cancel_event = cancel_event or threading.Event()
        self.progress = _Progress(progress)
        self.bucket = (
            TokenBucket(self.opts.bwlimit_kbps * 1024, self.cancel_event) if self.opts.bwlimit_kbps else None
        )
        self.result = SyncResult(self.opts.direction, dry_run=self.opts.dry_run)
        self._conn: Any = None
        self._lock = threading.Lock()
        self._stop = threading.Event()  # set by a failing worker to stop its siblings
        self._incomplete: dict[str, str] = {}  # side → why its listing is incomplete
        self._offsets: dict[str, int] = {}  # where each transfer really started (verified resume)
        self._temps: dict[str, str] = {}  # path → this attempt's temporary file
        self._tar_ok: bool | None = None  # remote tar usable for small-file streams (None: untried)
        self.caps: ServerCaps = NO_SHELL  # what this connection's server offers (probed per connection)
        self._read_only = self.opts.dry_run  # a dry run's channels and shell cannot write
        self._free_hint: int | None = None  # remote free bytes from this attempt's probe
        self._pool: _ChannelPool | None = None  # SFTP channels opened ahead of the transfer
        self._tar_dirs: list[str] = []  # folders the first tar stream creates (see _apply)
        self._tar_planned_dirs: set[str] = set()  # every folder the plan makes (a stream makes its files' own)
        self._tar_make_root = False  # … and whether it creates the remote root first
        self._changed: list[str] = []  # downloads that changed during their transfer, and again on the retry
        self._umask: int | None = None  # the local umask: downloaded files' modes follow it

    def _channel(self, t: paramiko.Transport) -> Channel:
        return Channel(t, read_only=self._read_only, timeout=self.opts.step_timeout)

    def _writable(self, what: str) -> None:
        """Every writing step starts here: a dry run cannot pass."""
        if self._read_only:
            raise _dry_run_write(what)

    # public -----------------------------------------------------------------------------------
    def cancel(self) -> None:
        self.cancel_event.set()
        conn = self._conn
        # closing the transport wakes workers blocked on the network at once
        if conn is not None:
            with contextlib.suppress(Exception):
                _transport_of(conn).close()

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    def _check_cancel(self) -> None:
        if self.cancelled or self._stop.is_set():
            raise _cancelled()

    def _take_channel(self, t: paramiko.Transport) -> Channel:
        pool = self._pool
        ch = pool.get() if pool is not None else None
        return ch if ch is not None else self._channel(t)

    def _rpath(self, rel: str) -> bytes:
        return encode_name(remote_join(self.remote, rel))

    def _take(self, n: int) -> None:
        if self.bucket is not None:
            self.bucket.consume(n)
        if self.cancelled or self._stop.is_set():
            raise _cancelled()

    def _temp_for(self, item: PlanItem) -> str:
        """This attempt's own temporary name for ``item`` (see ``part_name`` for why per attempt)."""
        tmp = part_name(item.path, secrets.token_hex(4))
        with self._lock:
            self._temps[item.path] = tmp
        return tmp
