"""The only module that talks to the OS keyring. Secrets never go to files, logs or errors.

Entries live under the service name "labgpu" with keys such as ``account:<name>:secret``; files
keep only those keys. Where no real backend exists (a bare Linux without Secret Service) every
call raises SecretsUnavailableError saying what to install; nothing is ever stored in plaintext.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import LabGpuError
from .i18n import QT_TRANSLATE_NOOP
from .logsetup import register_secret

log = logging.getLogger(__name__)

SERVICE = "labgpu"
_lock = threading.Lock()

# A Secret Service can lose its default collection for a moment: with several programs using one
# gnome-keyring, "aliases/default" sometimes does not resolve (why inside the daemon is not known);
# keyring then tries to create a new collection and fails ("Prompt dismissed"). Or the daemon is
# being restarted: gnome-keyring 42 aborts now and then with several programs using it (a GLib
# assertion) and D-Bus starts it again on the next call, so a call in flight gets NoReply /
# ServiceUnknown, or NoSession when its encryption session was opened with the daemon that died.
# Such a call is tried again, twice at most, from the start (a new connection and session) before
# the error is shown: measured here, 1 call in about 900 failed so with six programs using one keyring.
RETRY_DELAYS = (0.2, 1.0)
_TRANSIENT_CAUSES = ("ItemNotFoundException", "SecretServiceNotAvailableException")
_TRANSIENT_DBUS_ERRORS = ("org.freedesktop.Secret.Error.NoSession",)
_sleep: Callable[[float], None] = time.sleep  # tests put a fake clock here

# Backends that only obfuscate or do nothing: refused.
_REFUSED_BACKENDS = ("keyring.backends.fail", "keyring.backends.null", "keyrings.alt",
                     "keyring.backends.chainer")


class SecretsUnavailableError(LabGpuError):
    pass


class SecretsError(LabGpuError):
    pass


def _install_hint() -> str:
    if sys.platform.startswith("linux"):
        return QT_TRANSLATE_NOOP(
            "LabGPU",
            "Install and start a Secret Service keyring, e.g. 'sudo apt install gnome-keyring' "
            "(or KWallet on KDE), log in again, then retry. LabGPU never stores secrets in plain files.")
    return QT_TRANSLATE_NOOP("LabGPU", "Unlock the system keychain / Credential Manager and retry.")


def _backend() -> Any:
    import keyring

    kr = keyring.get_keyring()
    mod = type(kr).__module__
    if mod.startswith(_REFUSED_BACKENDS) and not _chainer_has_real(kr):
        raise SecretsUnavailableError(
            QT_TRANSLATE_NOOP("LabGPU", "No secure keyring is available on this computer ({backend})."),
            _install_hint(), code="NoKeyring", backend=type(kr).__name__)
    return kr


def _chainer_has_real(kr: object) -> bool:
    backends = getattr(kr, "backends", None)
    if not backends:
        return False
    return any(not type(b).__module__.startswith(_REFUSED_BACKENDS) for b in backends)


def backend_name() -> str:
    try:
        kr = _backend()
    except SecretsUnavailableError:
        return ""
    return f"{type(kr).__module__}.{type(kr).__name__}"


def backend_status() -> tuple[str, LabGpuError | None]:
    """The keyring backend in use, or why none is usable. Reads and writes no secret."""
    try:
        kr = _backend()
    except SecretsUnavailableError as exc:
        return "", exc
    except Exception as exc:  # noqa: BLE001 - keyring's own start-up failure: said, not raised
        return "", _wrap(exc)
    return f"{type(kr).__module__}.{type(kr).__name__}", None


def available() -> bool:
    return bool(backend_name())


def _wrap(exc: Exception) -> LabGpuError:
    name = type(exc).__name__
    # what the backend said, for the log (the user sees the sentence below): e.g. which D-Bus error
    # (NoReply, ServiceUnknown) stood behind keyring's InitError. Never the secret: it is not in these.
    cause = exc.__cause__ or exc.__context__
    log.warning("keyring backend error %s: %s%s", name, exc,
                f" (from {type(cause).__name__}: {cause})" if cause is not None else "")
    if name in ("NoKeyringError", "InitError"):
        return SecretsUnavailableError(
            QT_TRANSLATE_NOOP("LabGPU", "No secure keyring is available on this computer ({backend})."),
            _install_hint(), code="NoKeyring", backend=name)
    if name in ("KeyringLocked",) or "locked" in str(exc).lower() or "dismissed" in str(exc).lower():
        return SecretsError(
            QT_TRANSLATE_NOOP("LabGPU", "The keyring is locked."),
            QT_TRANSLATE_NOOP("LabGPU", "Unlock your keyring (log in again or open Passwords and Keys) and retry."),
            code="KeyringLocked")
    return SecretsError(QT_TRANSLATE_NOOP("LabGPU", "The keyring refused the request ({kind})."),
                        QT_TRANSLATE_NOOP("LabGPU", "Check that your keyring is unlocked and retry."),
                        code="KeyringError", kind=name)


def _transient(exc: BaseException) -> bool:
    """True if ``exc`` (or what stands behind it) says the Secret Service was briefly not there."""
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if type(e).__name__ in _TRANSIENT_CAUSES or getattr(e, "name", None) in _TRANSIENT_DBUS_ERRORS:
            return True
        e = e.__cause__ or e.__context__
    return False


def _call(what: str, fn: Callable[[], Any], passes: tuple[type[BaseException], ...] = ()) -> Any:
    """``fn()`` against the keyring, tried again after a transient failure (see RETRY_DELAYS);
    ``passes``: exceptions that are answers, not failures (raised as they are)."""
    for delay in (*RETRY_DELAYS, None):
        try:
            return fn()
        except passes:
            raise
        except Exception as exc:  # noqa: BLE001 - any backend failure becomes a clear message
            if delay is None or not _transient(exc):
                raise _wrap(exc) from None
            log.info("keyring %s failed for a moment (%s); trying again in %.1f s", what,
                     type(exc).__name__, delay)
        _sleep(delay)
    raise AssertionError("unreachable")  # the last pass returns or raises


def set_secret(key: str, value: str) -> None:
    if not key:
        raise ValueError("empty key")
    with _lock:
        kr = _backend()
        _call("write", lambda: kr.set_password(SERVICE, key, value))
    register_secret(value)
    log.info("secret stored under %s", key)


def get_secret(key: str) -> str | None:
    with _lock:
        kr = _backend()
        value = _call("read", lambda: kr.get_password(SERVICE, key))
    if value is None:
        return None
    register_secret(str(value))
    return str(value)


def delete_secret(key: str) -> bool:
    """True if something was deleted."""
    import keyring.errors

    with _lock:
        kr = _backend()
        try:
            _call("delete", lambda: kr.delete_password(SERVICE, key), passes=(keyring.errors.PasswordDeleteError,))
        except keyring.errors.PasswordDeleteError:
            return False
    log.info("secret deleted: %s", key)
    return True


@dataclass(frozen=True)
class OwnedWrite:
    """A keyring write and what it replaced, so that a failed operation undoes only its own write."""

    key: str
    value: str = field(repr=False)
    previous: str | None = field(repr=False)


def set_secret_owned(key: str, value: str) -> OwnedWrite:
    """Like :func:`set_secret`, remembering the value it replaced (for :func:`undo_owned`)."""
    previous = get_secret(key)
    set_secret(key, value)
    return OwnedWrite(key, value, previous)


def delete_secret_owned(key: str) -> OwnedWrite:
    """Like :func:`delete_secret`, remembering what was there (``value`` "" stands for "deleted")."""
    previous = get_secret(key)
    if previous is not None:
        delete_secret(key)
    return OwnedWrite(key, "", previous)


def undo_owned(write: OwnedWrite) -> bool:
    """Undo ``write`` only if the entry still holds what it wrote (compare before deleting): then the
    previous value comes back (or the entry goes). Someone else's later write is left alone.
    True if the entry was changed back. Never raises for a keyring problem (it is clean-up)."""
    try:
        current = get_secret(write.key)
        if (current or "") != write.value:
            log.info("secret %s changed since it was written here; left as it is", write.key)
            return False
        if write.previous is None:
            return delete_secret(write.key)
        set_secret(write.key, write.previous)
        return True
    except LabGpuError as exc:
        log.warning("could not undo the keyring write %s: %s", write.key, exc.one_line())
        return False
