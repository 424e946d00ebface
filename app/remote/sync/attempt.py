"""One sync run's state, handed to each part of the engine (lister, checks, uploader, tar
uploader, downloader) instead of being shared through base classes.

An :class:`Attempt` lives as long as its run: what one connection attempt finds (the connection,
the server's capabilities, the free space the probe saw, the SFTP channels opened ahead) is reset
or replaced by the next attempt; what must survive a reconnect (the result's counters, where each
transfer really started, the temporary names, whether the remote tar works) is kept.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paramiko

from app.core.syncmodel import SyncOptions, SyncResult
from app.core.syncplan import PlanItem, encode_name, part_name, remote_join

from .caps import NO_SHELL, ServerCaps
from .errors import cancelled_error, dry_run_write_error
from .progress import ProgressTracker, TokenBucket
from .sftp import Channel, ChannelPool
from .shell import remote_root_path, transport_of


class Attempt:
    """The options, the progress, the cancel flag, the connection and SFTP channels, the counters,
    this run's temporary names and what the plan left for the transfer workers."""

    def __init__(
        self,
        connect: Callable[[], Any],
        local: Path,
        remote: str,
        opts: SyncOptions,
        progress: ProgressTracker,
        cancel_event: threading.Event,
    ) -> None:
        self.connect = connect
        self.local = local
        self.remote = remote_root_path(remote)  # "./x" or "/x": never an option to any command
        self.remote_text = remote
        self.opts = opts
        self.cancel_event = cancel_event
        self.progress = progress
        self.bucket = TokenBucket(opts.bwlimit_kbps * 1024, cancel_event) if opts.bwlimit_kbps else None
        self.result = SyncResult(self.opts.direction, dry_run=self.opts.dry_run)
        self.conn: Any = None  # this attempt's connection (closed by cancel())
        self.lock = threading.Lock()
        self.stop = threading.Event()  # set by a failing worker to stop its siblings
        self.incomplete: dict[str, str] = {}  # side → why its listing is incomplete
        self.offsets: dict[str, int] = {}  # where each transfer really started (verified resume)
        self.temps: dict[str, str] = {}  # path → this attempt's temporary file
        self.tar_ok: bool | None = None  # remote tar usable for small-file streams (None: untried)
        self.caps: ServerCaps = NO_SHELL  # what this connection's server offers (probed per connection)
        self.read_only = self.opts.dry_run  # a dry run's channels and shell cannot write
        self.free_hint: int | None = None  # remote free bytes from this attempt's probe
        self.pool: ChannelPool | None = None  # SFTP channels opened ahead of the transfer
        self.tar_dirs: list[str] = []  # folders the first tar stream creates (see SyncEngine._apply)
        self.tar_planned_dirs: set[str] = set()  # every folder the plan makes (a stream makes its files' own)
        self.tar_make_root = False  # … and whether it creates the remote root first
        # new folders that hold only files (no new subfolder): a stream unpacks their files under their
        # own names into a staging folder (stages: staging folder → the folder), renamed into place whole
        self.tar_staged: set[str] = set()
        self.stages: dict[str, str] = {}
        self.changed: list[str] = []  # downloads that changed during their transfer, and again on the retry
        self.umask: int | None = None  # the local umask: downloaded files' modes follow it

    def channel(self, t: paramiko.Transport) -> Channel:
        return Channel(t, read_only=self.read_only, timeout=self.opts.step_timeout)

    def take_channel(self, t: paramiko.Transport) -> Channel:
        """A channel opened ahead of the transfer, else a new one."""
        pool = self.pool
        ch = pool.get() if pool is not None else None
        return ch if ch is not None else self.channel(t)

    def give_back(self, ch: Channel) -> None:
        """A channel the next step continues on (into the pool), or closed when there is none."""
        if self.pool is not None:
            self.pool.put(ch)
        else:
            ch.close()

    def writable(self, what: str) -> None:
        """Every writing step starts here: a dry run cannot pass."""
        if self.read_only:
            raise dry_run_write_error(what)

    # cancel -------------------------------------------------------------------------------------
    def cancel(self) -> None:
        self.cancel_event.set()
        conn = self.conn
        # closing the transport wakes workers blocked on the network at once
        if conn is not None:
            with contextlib.suppress(Exception):
                transport_of(conn).close()

    @property
    def cancelled(self) -> bool:
        return self.cancel_event.is_set()

    def check_cancel(self) -> None:
        if self.cancel_event.is_set() or self.stop.is_set():
            raise cancelled_error()

    def take(self, n: int) -> None:
        """``n`` bytes are about to move: the bandwidth limit, then the cancel check."""
        if self.bucket is not None:
            self.bucket.consume(n)
        if self.cancel_event.is_set() or self.stop.is_set():
            raise cancelled_error()

    # names --------------------------------------------------------------------------------------
    def rpath(self, rel: str) -> bytes:
        return encode_name(remote_join(self.remote, rel))

    def temp_for(self, item: PlanItem) -> str:
        """This run's own temporary name for ``item`` (see ``part_name`` for why per attempt)."""
        tmp = part_name(item.path, secrets.token_hex(4))
        with self.lock:
            self.temps[item.path] = tmp
        return tmp
