"""The one check that guards every use of paramiko's private attributes.

LabGPU's fast data paths (:mod:`app.remote.fastssh`: the AES-GCM packet paths and the lean
channel buffer; :mod:`app.remote.sync.sftp`: the request-level SFTP pipeline; the exec request
sent without waiting in :mod:`app.remote.sync.shell`) reach into paramiko's internals. They are
used only where :func:`check` says so:

* the installed paramiko is one of :data:`KNOWN_VERSIONS` (the versions these paths were tested
  with; ``pyproject.toml`` pins the dependency to them), and
* every private attribute and method those paths touch exists with the expected shape — on the
  classes (checked once per process) and on the given object (a ``Transport`` or an
  ``SFTPClient``; checked once per object, the answer is kept as long as the object lives).

Anything else (another paramiko version, a missing attribute, ``LABGPU_STOCK_SSH`` set) takes
paramiko's stock public paths: slower, never wrong. The first time a check says no, one INFO
line per process tells the log why; ``labgpu doctor`` shows the same answer.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import weakref
from dataclasses import dataclass
from typing import Any

import paramiko
from paramiko.buffered_pipe import BufferedPipe
from paramiko.packet import Packetizer

log = logging.getLogger(__name__)

# The paramiko releases the fast paths were tested with (tests/remote/test_fastssh.py and the
# sync tests against a real OpenSSH sshd). Add a version here only after running them with it.
KNOWN_VERSIONS = frozenset({"5.1.0"})

STOCK_ENV = "LABGPU_STOCK_SSH"  # set (non-empty): always the stock paths (benchmarks, a way out)

PACKETIZER_PREFIX = "_Packetizer__"
PACKETIZER_ATTRS = (
    "socket",
    "write_lock",
    "block_engine_out",
    "block_size_out",
    "aead_out",
    "iv_out",
    "sequence_number_out",
    "sent_bytes",
    "sent_packets",
    "need_rekey",
    "compress_engine_out",
    "dump_packets",
    "keepalive_last",
    "remainder",
    "closed",
    "received_bytes_overflow",
    "received_packets_overflow",
    "received_bytes",
    "received_packets",
    "aead_in",
    "block_engine_in",
    "iv_in",
    "mac_size_in",
    "sequence_number_in",
    "compress_engine_in",
)
PACKETIZER_METHODS = (
    "handshake_timed_out",
    "_check_keepalive",
    "_trigger_rekey",
    "_inc_iv_counter",
    "write_all",
    "read_all",
    "read_message",
)
PACKETIZER_VALUES = (
    "REKEY_PACKETS",
    "REKEY_BYTES",
    "REKEY_PACKETS_OVERFLOW_MAX",
    "REKEY_BYTES_OVERFLOW_MAX",
    "_initial_kex_done",
)
TRANSPORT_ATTRS = ("clear_to_send", "clear_to_send_lock", "clear_to_send_timeout", "active", "packetizer")
TRANSPORT_METHODS = ("_send_user_message", "_send_message")
CHANNEL_ATTRS = (
    "lock",
    "closed",
    "eof_sent",
    "out_window_size",
    "out_max_packet_size",
    "remote_chanid",
    "in_buffer",
    "in_window_size",
    "transport",
    "timeout",
)
CHANNEL_METHODS = ("_wait_for_send_window", "_check_add_window", "_send_eof")
PIPE_ATTRS = ("_lock", "_cv", "_event", "_closed")
SFTP_METHODS = ("_async_request", "_read_packet")
SFTP_ATTRS = ("_lock", "_expecting", "request_number", "sock")
SFTP_ATTR_METHODS = ("_pack", "_from_msg")


@dataclass(frozen=True)
class ProbeResult:
    """Whether the fast paths may be used, and why (or why not) in one line."""

    enabled: bool
    reason: str


_lock = threading.Lock()
_class_result: tuple[str, ProbeResult] | None = None  # (the version it was made for, the answer)
_by_object: weakref.WeakKeyDictionary[Any, ProbeResult] = weakref.WeakKeyDictionary()
_logged = False


def paramiko_version() -> str:
    """The installed paramiko's version (what the check compares with :data:`KNOWN_VERSIONS`)."""
    return str(getattr(paramiko, "__version__", "unknown"))


def _missing(obj: Any, names: tuple[str, ...], prefix: str = "") -> str | None:
    for name in names:
        if not hasattr(obj, prefix + name):
            return prefix + name
    return None


def _not_callable(obj: Any, names: tuple[str, ...]) -> str | None:
    for name in names:
        if not callable(getattr(obj, name, None)):
            return name
    return None


def _check_classes() -> ProbeResult:
    """Version and class shapes: what every object of this paramiko shares."""
    version = paramiko_version()
    if os.environ.get(STOCK_ENV):
        return ProbeResult(False, f"{STOCK_ENV} is set")
    if version not in KNOWN_VERSIONS:
        known = ", ".join(sorted(KNOWN_VERSIONS))
        return ProbeResult(False, f"paramiko {version} is not a tested version ({known})")
    try:
        sock = socket.socket()
        try:
            pk = Packetizer(sock)
            gone = (
                _missing(pk, PACKETIZER_ATTRS, PACKETIZER_PREFIX)
                or _not_callable(pk, PACKETIZER_METHODS)
                or _missing(pk, PACKETIZER_VALUES)
            )
        finally:
            sock.close()
        if gone:
            return ProbeResult(False, f"paramiko {version}: Packetizer has no {gone}")
        chan = paramiko.Channel(0)
        gone = _missing(chan, CHANNEL_ATTRS) or _not_callable(chan, CHANNEL_METHODS)
        if gone:
            return ProbeResult(False, f"paramiko {version}: Channel has no {gone}")
        if not isinstance(chan.in_buffer, BufferedPipe):
            return ProbeResult(False, f"paramiko {version}: Channel.in_buffer is not a BufferedPipe")
        gone = _missing(BufferedPipe(), PIPE_ATTRS)
        if gone:
            return ProbeResult(False, f"paramiko {version}: BufferedPipe has no {gone}")
        gone = _not_callable(paramiko.Transport, TRANSPORT_METHODS)
        if gone:
            return ProbeResult(False, f"paramiko {version}: Transport has no {gone}")
        gone = _not_callable(paramiko.SFTPClient, SFTP_METHODS)
        if gone:
            return ProbeResult(False, f"paramiko {version}: SFTPClient has no {gone}")
        gone = _not_callable(paramiko.SFTPAttributes, SFTP_ATTR_METHODS)
        if gone:
            return ProbeResult(False, f"paramiko {version}: SFTPAttributes has no {gone}")
        msg = paramiko.Message(b"")
        if not hasattr(msg, "packet") or _not_callable(msg, ("get_int", "get_binary", "get_remainder")):
            return ProbeResult(False, f"paramiko {version}: Message differs")
    except Exception as exc:  # noqa: BLE001 - any surprise: stay on the stock paths
        return ProbeResult(False, f"paramiko {version}: probing failed ({type(exc).__name__}: {exc})")
    return ProbeResult(True, f"paramiko {version} (tested)")


def _check_object(obj: Any) -> ProbeResult | None:
    """What is missing on this very object (None: nothing)."""
    version = paramiko_version()
    if isinstance(obj, paramiko.SFTPClient):
        gone = _missing(obj, SFTP_ATTRS)
        if gone:
            return ProbeResult(False, f"paramiko {version}: this SFTPClient has no {gone}")
        transport = obj.sock.get_transport() if hasattr(obj.sock, "get_transport") else None
        return check(transport) if transport is not None else None
    gone = _missing(obj, TRANSPORT_ATTRS) or _not_callable(obj, TRANSPORT_METHODS)
    if gone:
        return ProbeResult(False, f"paramiko {version}: this Transport has no {gone}")
    pk = obj.packetizer
    gone = _missing(pk, PACKETIZER_ATTRS, PACKETIZER_PREFIX) or _missing(pk, PACKETIZER_VALUES)
    if gone:
        return ProbeResult(False, f"paramiko {version}: this transport's Packetizer has no {gone}")
    return None


def _note(result: ProbeResult) -> ProbeResult:
    global _logged
    if not result.enabled and not _logged:
        _logged = True
        log.info("SSH fast paths off, using paramiko's stock paths: %s", result.reason)
    return result


def check(obj: Any = None) -> ProbeResult:
    """May the fast paths touch paramiko's internals for ``obj`` (a ``Transport`` or an
    ``SFTPClient``; None: this paramiko in general)? Cached per object and per process."""
    global _class_result
    version = paramiko_version()
    with _lock:
        if _class_result is None or _class_result[0] != version:
            _class_result = (version, _check_classes())
        base = _class_result[1]
        if obj is None or not base.enabled:
            return _note(base)
        try:
            got = _by_object.get(obj)
        except TypeError:  # not weak-referenceable: not a paramiko object
            return _note(ProbeResult(False, f"not a paramiko object: {type(obj).__name__}"))
    if got is not None:
        return got
    got = _check_object(obj) or base
    with _lock:
        _by_object[obj] = got
    return _note(got)


def reset() -> None:
    """Forget every cached answer (tests that pretend another paramiko)."""
    global _class_result, _logged
    with _lock:
        _class_result = None
        _by_object.clear()
        _logged = False
