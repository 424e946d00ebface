"""The sync's errors: what failed, in the user's words, and which failures are the network."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import socket

import paramiko

from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.units import human_bytes


class SyncError(LabGpuError):
    """A sync could not finish; the message says why and what to do."""


class DiskFullError(SyncError):
    pass


class ConnectionLostError(SyncError):
    pass


class SyncCancelledError(SyncError):
    pass


class RemoteTimeoutError(SyncError):
    """A remote step did not answer within its timeout (not retried: the server is there but
    something on it hangs)."""


class DryRunWriteError(SyncError):
    """A dry run reached a writing call: refused (a bug, never a change)."""


def step_timeout_error(what: str, seconds: float) -> RemoteTimeoutError:
    return RemoteTimeoutError(
        QT_TRANSLATE_NOOP(
            "LabGPU", "The server did not answer for {seconds:.0f} s while LabGPU was waiting for {what}."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Run the sync again: finished files are kept and an interrupted one continues where it "
            "stopped. If it repeats, something on the server hangs (check it, or its load).",
        ),
        code="RemoteTimeout",
        what=what,
        seconds=seconds,
    )


def dry_run_write_error(what: str) -> DryRunWriteError:
    return DryRunWriteError(
        QT_TRANSLATE_NOOP("LabGPU", "A dry run tried to change something ({what}); refused."),
        QT_TRANSLATE_NOOP("LabGPU", "Nothing was changed. Please report this as a bug."),
        code="DryRunWrite",
        what=what,
    )


def untrusted_output_error(what: str, sample: bytes) -> SyncError:
    return SyncError(
        QT_TRANSLATE_NOOP(
            "LabGPU", "The server's answer to {what} could not be trusted (it was cut or not framed): {sample}"
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Nothing was changed by this step. Run the sync again; if it repeats, the login shell on "
            "the server may print text or exit early (check ~/.bashrc there).",
        ),
        code="UntrustedOutput",
        what=what,
        sample=sample.decode("utf-8", "replace").strip()[:200],
    )


def connection_lost_error(why: str) -> ConnectionLostError:
    return ConnectionLostError(
        QT_TRANSLATE_NOOP("LabGPU", "The connection was lost during the sync ({why})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Run the sync again: finished files are kept and the interrupted one continues where it stopped.",
        ),
        code="ConnectionLost",
        why=why,
    )


def cancelled_error() -> SyncCancelledError:
    return SyncCancelledError(
        QT_TRANSLATE_NOOP("LabGPU", "The sync was cancelled."),
        QT_TRANSLATE_NOOP("LabGPU", "Files already finished are kept; run it again to continue."),
        code="Cancelled",
    )


# Inside channel/exec wrappers any OSError is the network (no local file I/O happens there).
CONN_ERRORS: tuple[type[BaseException], ...] = (
    EOFError,
    socket.error,
    paramiko.SSHException,
    ConnectionError,
)
# Around a whole attempt: only errors that cannot be a local file problem.
OUTER_NET_ERRORS: tuple[type[BaseException], ...] = (
    EOFError,
    paramiko.SSHException,
    ConnectionError,
    socket.timeout,
)


# Which failures of an attempt the engine retries. Transient: the network, the server or the VPN is
# not there right now (unreachable, reset, timed out, tunnel down or coming back): retried with
# BACKOFF. Permanent: asking again gives the same answer (the name does not resolve, the login or the
# host key is refused, the local folder is not usable): the sync fails at once with its own message.
PERMANENT_CODES = frozenset(
    {
        "NameNotResolved",  # the resolver's final "no such name" (a temporary DNS failure stays transient)
        "AuthFailed",
        "KeyMissing",
        "KeyUnreadable",
        "KeyPassphraseMissing",
        "KeyPassphraseWrong",
        "PasswordMissing",
        "HostKeyChanged",
        "HostKeyUnknown",
        "HostKeyRefused",
        "HostKeyMismatch",
        "LocalMissing",
        "LocalNotFolder",
        "LocalUnreadable",
        "LocalUnwritable",
    }
)


def is_connect_failure(exc: LabGpuError) -> bool:
    """Errors from ``connect()`` worth retrying with backoff (host unreachable, VPN tunnel down or
    still coming back) — never a name that does not resolve, host-key, login, credential or
    privilege errors (:data:`PERMANENT_CODES`)."""
    if exc.code in PERMANENT_CODES:
        return False
    return type(exc).__name__ in ("HostUnreachableError", "ConnectionLostError") or exc.code in _RETRY_CODES


def connect_error(exc: BaseException) -> SyncError:
    """A network-level exception out of ``connect()`` as the sync's error: a refused login or host
    key (a connector that lets paramiko's own exceptions through) is permanent, anything else is a
    lost connection (retried)."""
    why = str(exc) or type(exc).__name__
    if isinstance(exc, paramiko.BadHostKeyException):
        return SyncError(
            QT_TRANSLATE_NOOP("LabGPU", "The server's host key is not the one LabGPU trusts ({why}); refused."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Only if your provider confirms the server was rebuilt: forget its host key on the Hosts "
                "page ('labgpu hosts forget-key NAME') and connect again.",
            ),
            code="HostKeyChanged",
            why=why,
        )
    if isinstance(exc, paramiko.AuthenticationException):
        return SyncError(
            QT_TRANSLATE_NOOP("LabGPU", "The server refused the login ({why})."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Check the user name and key or password: remove the host and add it again with the right ones.",
            ),
            code="AuthFailed",
            why=why,
        )
    return connection_lost_error(why)


_RETRY_CODES = frozenset(
    {
        "HostUnreachable",
        "ConnectionClosed",
        "NotConnected",
        "ConnectionLost",
        "JumpFailed",
        "VpnDown",
        "VpnTimeout",
        "VpnExited",
        "VpnBusy",
    }
)


def pick_error(errors: list[BaseException]) -> BaseException:
    for kind in (DiskFullError, SyncError):
        for e in errors:
            if isinstance(e, kind) and not isinstance(e, (SyncCancelledError, ConnectionLostError)):
                return e
    for e in errors:
        if isinstance(e, ConnectionLostError):
            return e
    return errors[0]


def disk_full_error(up: bool, need: int, free: int, where: str) -> DiskFullError:
    if up:
        return DiskFullError(
            QT_TRANSLATE_NOOP(
                "LabGPU", "Not enough space on the server in {path}: {need} needed, {free} free."
            ),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Free space on the server or sync into a larger disk; nothing partial was left behind.",
            ),
            code="RemoteDiskFull",
            path=where,
            need=human_bytes(need),
            free=human_bytes(free),
        )
    return DiskFullError(
        QT_TRANSLATE_NOOP(
            "LabGPU", "Not enough space on this computer in {path}: {need} needed, {free} free."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Free some space or choose another local folder; nothing partial was left behind."
        ),
        code="LocalDiskFull",
        path=where,
        need=human_bytes(need),
        free=human_bytes(free),
    )


def local_missing_error(path: str) -> SyncError:
    return SyncError(
        QT_TRANSLATE_NOOP("LabGPU", "The local folder {path} does not exist."),
        QT_TRANSLATE_NOOP("LabGPU", "Check the path, or create the folder first."),
        code="LocalMissing",
        path=path,
    )


def local_not_folder_error(path: str, up: bool) -> SyncError:
    return SyncError(
        QT_TRANSLATE_NOOP("LabGPU", "The local path {path} is a file, not a folder."),
        QT_TRANSLATE_NOOP("LabGPU", "Give the folder that contains it (sync works on folders).")
        if up
        else QT_TRANSLATE_NOOP("LabGPU", "Download into a folder: give a folder path."),
        code="LocalNotFolder",
        path=path,
    )


def local_unreadable_error(path: str, why: str) -> SyncError:
    return SyncError(
        QT_TRANSLATE_NOOP("LabGPU", "The local folder {path} cannot be read ({why})."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Check the folder's permissions (you need to be able to open it), or choose another folder."
        ),
        code="LocalUnreadable",
        path=path,
        why=why,
    )


def local_unwritable_error(path: str) -> SyncError:
    return SyncError(
        QT_TRANSLATE_NOOP("LabGPU", "Files cannot be written into the local folder {path}."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Check the folder's permissions (you need to be able to write into it), or choose another folder."
        ),
        code="LocalUnwritable",
        path=path,
    )


def local_error(exc: OSError, path: str, need: int = 0) -> SyncError:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        with contextlib.suppress(OSError):
            if path.endswith(".labgpu-part"):
                os.unlink(path)
        free = 0
        with contextlib.suppress(OSError):
            free = shutil.disk_usage(os.path.dirname(path)).free
        return disk_full_error(False, need, free, os.path.dirname(path))
    return SyncError(
        QT_TRANSLATE_NOOP("LabGPU", "Local file error on {path}: {why}"),
        QT_TRANSLATE_NOOP("LabGPU", "Check the folder and its permissions."),
        code="LocalIO",
        path=path,
        why=exc.strerror or str(exc),
    )


def source_changed_error(path: str) -> SyncError:
    return SyncError(
        QT_TRANSLATE_NOOP("LabGPU", "{path} changed while it was being copied."),
        QT_TRANSLATE_NOOP("LabGPU", "Run the sync again when the file is no longer being written."),
        code="SourceChanged",
        path=path,
    )


def bad_remote_time_error(path: str, value: str) -> SyncError:
    """A listing gave a modification time no file can have (NaN, ∞, past year 9999): the server's
    listing is not trusted, rather than a traceback from ``os.utime`` later."""
    shown = path if len(path) <= 200 else path[:199] + "…"
    return SyncError(
        QT_TRANSLATE_NOOP("LabGPU", "The server listed {path} with an impossible modification time ({value})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Nothing was copied. The host's file listing cannot be trusted: check the host (its find "
            "may be replaced), or set a real time on the file (touch it) and sync again.",
        ),
        code="BadRemoteTime",
        path=shown.encode("utf-8", "surrogateescape").decode("utf-8", "replace"),
        value=value[:32],
    )


def kept_changing_error(paths: list[str]) -> SyncError:
    shown = paths[0] if len(paths[0]) <= 200 else paths[0][:199] + "…"
    return SyncError(
        QT_TRANSLATE_NOOP(
            "LabGPU", "{path} changed while it was being copied, and again when it was fetched once more ({n} file(s))."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "It was not put in place (no half-old, half-new copy). Run the sync again when the file is no "
            "longer being written (e.g. after the training saved its checkpoint).",
        ),
        code="SourceChanged",
        path=shown.encode("utf-8", "surrogateescape").decode("utf-8", "replace"),
        n=len(paths),
    )
