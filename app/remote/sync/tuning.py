"""Transfer sizes, batch limits and timeouts of the sync engine (tuned, see the comment below).

``DEFAULT_CHANNELS`` and ``STEP_TIMEOUT`` are the defaults of ``SyncOptions`` and live with it in
:mod:`app.core.syncmodel`; they are named here too so that every tunable is found in one place.
The engine reads ``TAR_MIN_FILES``, ``SPLIT_MIN`` and ``BACKOFF`` through its own module
(:mod:`app.remote.sync.engine`): a test changes them there."""

from __future__ import annotations

from app.core.syncmodel import DEFAULT_CHANNELS as DEFAULT_CHANNELS
from app.core.syncmodel import STEP_TIMEOUT as STEP_TIMEOUT

# Tuned on loopback against OpenSSH's internal-sftp (bench_sync.py): 64 KiB requests keep
# sftp-server and paramiko's packetizer busy without big copies; 48 requests in flight hide the
# round trip; 4 channels for many small files. See the report in the benchmark for numbers.
REQUEST_SIZE = 255 * 1024  # OpenSSH sftp-server's largest READ (SFTP_MAX_READ_LENGTH)
WRITE_SIZE = 252 * 1024  # a WRITE message must stay under its 256 KiB message limit
IN_FLIGHT = 32  # reads in flight per file (more, smaller requests were slower here)
WRITES_IN_FLIGHT = 64
SMALL_FILE = 256 * 1024
BATCH_FILES = 64  # small files per pipelined SFTP batch
BATCH_BYTES = 4 * 1024 * 1024
TAR_MIN_FILES = 65  # from this many small files on, uploads stream them through remote tar
TAR_BATCH_FILES = 6000  # at most this many small files per tar stream (upload)
TAR_STREAMS = 2
TAR_BATCH_BYTES = 64 * 1024 * 1024
SPLIT_MIN = 64 * 1024 * 1024  # a download this big is fetched as SPLIT_PARTS byte ranges in parallel
SPLIT_PARTS = 2  # 2 ranges beat 4 on 2 cores once the client path was lean (fewer sftp-server processes)
CHANNEL_WINDOW = 32 * 1024 * 1024  # our receive window per channel (downloads)
CHANNEL_MAX_PACKET = 256 * 1024  # lets sshd send big packets: fewer per-packet costs in paramiko
BACKOFF = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0)
PROBE_TIMEOUT = 20.0  # the capability probe: a server that does not answer it gets pure SFTP
PROGRESS_INTERVAL = 0.1
