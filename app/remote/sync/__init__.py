"""The sync engine: fast, resumable, safe transfers between a local folder and a remote one.

Why it is built like this (measured, see tests/benchmarks/bench_sync.py):

* Listing: the remote side is listed with ONE ``find -printf … \\0`` over an exec channel (sizes,
  mtimes, kinds, raw bytes names — paramiko's ``listdir_attr`` dies on a non-UTF-8 name, #546),
  the local side with ``os.scandir``. A re-sync with nothing changed costs one round trip.
  Without GNU find it falls back to a bytes-level SFTP READDIR walk.
* Transfers speak SFTP directly through paramiko's request layer with many requests in flight
  per file (our own pipelining: paramiko's plain ``SFTPFile.read/write`` wait for every reply) and
  many files in flight per channel, on several SFTP channels (one worker thread each) over one
  Transport. Small files cost no round trip each: opens, writes, mtime and closes of a batch are
  pipelined; renames follow once every write of the batch is confirmed. Many small files going
  up are streamed through the server's ``tar -x`` instead (one exec per few thousand files, each
  written under its temporary name, renamed only after tar exited 0); without a usable tar the
  SFTP batches are used.
* Request sizes: 255 KiB reads (sftp-server's maximum), 252 KiB writes, 32 MiB channel window,
  256 KiB max packet — on loopback many smaller requests in flight were several times slower.
* Atomicity: data goes to ``.NAME.labgpu-part`` next to the target, mtime/mode are set on it and
  only then it is renamed (``posix-rename@openssh.com``/``os.replace``): no reader ever sees a
  partial file under the final name, whatever is cut. An interrupted transfer resumes from the
  temporary file after its prefix was verified by sha256 on both sides.
* Safety: remote names are never trusted (``app.core.syncplan`` refuses ``..``, ``/``, ``\\``,
  NUL); every local path is resolved and must stay below the local root; symlinks are not
  followed; free space is checked first (remote ``df -Pk``, local ``shutil.disk_usage``) and a
  failed write removes its temporary file and says which side is full.
* Reconnects: the engine gets a ``connect()`` callable; when the connection drops it reports the
  state ``waiting`` and calls it again with backoff (a VPN host's connect brings the tunnel up),
  re-lists and continues where it stopped.

The package, one responsibility per module: ``engine`` (attempts, the plan, the transfer workers)
hands one ``attempt.Attempt`` (the run's state) to the parts it is composed of: ``listing``
(RemoteLister), ``checks`` (Verifier), ``upload`` (Uploader), ``tarstream`` (TarUploader),
``download`` (Downloader, with the parallel byte ranges of one big file); below them ``shell``
(framed exec), ``caps`` (the capability probe), ``sftp`` (the request-level SFTP channel),
``local``, ``errors``, ``progress`` and ``tuning``. One sync as a cancellable job (connected to a
saved host), one job per pair at a time, and the history it writes: ``app.usecases.sync``.
Options, results, saved pairs and their history live in ``app.core`` (``syncmodel``,
``syncpairs``); this package re-exports them.
"""

from __future__ import annotations

from app.core.syncmodel import (
    DOWN,
    UP,
    SyncOptions,
    SyncProgress,
    SyncResult,
    display_name,
)
from app.core.syncpairs import SyncPair, SyncRun, SyncStore
from app.core.units import human_bytes

from .caps import FAST, NO_SHELL, SFTP, SHELL, ProbeListing, ServerCaps
from .engine import SyncEngine
from .errors import (
    ConnectionLostError,
    DiskFullError,
    DryRunWriteError,
    RemoteTimeoutError,
    SyncCancelledError,
    SyncError,
)
from .local import LocalRoot, list_local, sha256_file
from .progress import TokenBucket
from .sftp import Channel, SftpError
from .shell import ReadCmd, RemoteShell, parse_find_output, quote_path, remote_root_path
from .tarstream import tar_header

__all__ = [
    "DOWN",
    "FAST",
    "NO_SHELL",
    "SFTP",
    "SHELL",
    "UP",
    "Channel",
    "ConnectionLostError",
    "DiskFullError",
    "DryRunWriteError",
    "LocalRoot",
    "ProbeListing",
    "ReadCmd",
    "RemoteShell",
    "RemoteTimeoutError",
    "ServerCaps",
    "SftpError",
    "SyncCancelledError",
    "SyncEngine",
    "SyncError",
    "SyncOptions",
    "SyncPair",
    "SyncProgress",
    "SyncResult",
    "SyncRun",
    "SyncStore",
    "TokenBucket",
    "quote_path",
    "display_name",
    "human_bytes",
    "list_local",
    "parse_find_output",
    "remote_root_path",
    "sha256_file",
    "tar_header",
]
