"""The only module that talks to the OS keyring. Secrets never go to files, logs or errors.

Entries live under the service name "labgpu" with keys such as ``account:<name>:secret``; files
keep only those keys. Where no real backend exists (a bare Linux without Secret Service) every
call raises SecretsUnavailableError saying what to install; nothing is ever stored in plaintext.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
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


# Why no Secret Service answers on Linux; each has its own next step. Tried here (Debian 12,
# gnome-keyring 42): over SSH, in WSL or on Xvfb there is no D-Bus session bus, so keyring falls back
# to its fail backend; inside `dbus-run-session` gnome-keyring starts by D-Bus activation but LOCKED, and
# with no desktop to ask for the password every write ends in "Prompt dismissed"; piping the password
# to `gnome-keyring-daemon --unlock` (the first time it creates the keyring with it) makes it work.
NOT_INSTALLED, NO_SESSION, NOT_RUNNING, LOCKED, CHOSEN = "not_installed", "no_session", "not_running", "locked", \
    "chosen"
_PROVIDERS = {"gnome-keyring-daemon": "gnome-keyring", "kwalletd6": "KWallet", "kwalletd5": "KWallet",
              "keepassxc": "KeePassXC"}
# a bash line that asks for the password without echoing it or leaving it in the history
_UNLOCK = ("read -rsp 'Keyring password: ' pw; echo; printf %s \"$pw\" | "
           "gnome-keyring-daemon --replace --unlock --components=secrets >/dev/null")
_SESSION = ("dbus-run-session -- bash -c 'read -rsp \"Keyring password: \" pw; echo; printf %s \"$pw\" | "
            "gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec bash'")


def _provider() -> str:
    """The Secret Service program installed here ("" when none is)."""
    return next((p for p in _PROVIDERS if shutil.which(p)), "")


def _headless() -> bool:
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def situation() -> str:
    """Why keyring found no Secret Service here (Linux): not installed, no D-Bus session, not running
    in it, or chosen away (PYTHON_KEYRING_BACKEND); LOCKED when one answers (then it is locked or new)."""
    if os.environ.get("PYTHON_KEYRING_BACKEND"):
        return CHOSEN
    installed = bool(_provider())
    if not os.environ.get("DBUS_SESSION_BUS_ADDRESS"):
        return NO_SESSION if installed else NOT_INSTALLED
    try:
        import secretstorage

        conn = secretstorage.dbus_init()
    except Exception:  # noqa: BLE001 - a bus address that leads nowhere is no session
        return NO_SESSION if installed else NOT_INSTALLED
    try:
        if not secretstorage.check_service_availability(conn):
            return NOT_RUNNING if installed else NOT_INSTALLED
    except Exception:  # noqa: BLE001 - the bus did not answer
        return NO_SESSION if installed else NOT_INSTALLED
    finally:
        with contextlib.suppress(Exception):
            conn.close()
    return LOCKED


def _unavailable(backend: str) -> SecretsUnavailableError:
    """No usable keyring: what stands in the way, with the command that removes it."""
    no_keyring = QT_TRANSLATE_NOOP("LabGPU", "No secure keyring is available on this computer ({backend}).")
    if not sys.platform.startswith("linux"):
        return SecretsUnavailableError(no_keyring, _install_hint(), code="NoKeyring", backend=backend)
    why = situation()
    provider = _provider()
    if why == CHOSEN:
        return SecretsUnavailableError(
            no_keyring, QT_TRANSLATE_NOOP("LabGPU", "PYTHON_KEYRING_BACKEND={chosen} chooses it: unset it and retry."),
            code="NoKeyring", backend=backend, chosen=os.environ.get("PYTHON_KEYRING_BACKEND", ""))
    if why == NO_SESSION:
        runtime_bus = os.path.join(os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}", "bus")
        if not os.environ.get("DBUS_SESSION_BUS_ADDRESS") and os.path.exists(runtime_bus):
            return SecretsUnavailableError(
                QT_TRANSLATE_NOOP("LabGPU", "The keyring ({provider}) is installed, but DBUS_SESSION_BUS_ADDRESS "
                                            "is not set, so LabGPU cannot reach it."),
                QT_TRANSLATE_NOOP("LabGPU", "Your login session has a bus: export "
                                            "DBUS_SESSION_BUS_ADDRESS=unix:path={bus}, then retry."),
                code="NoKeyring", provider=_PROVIDERS[provider], bus=runtime_bus)
        hint = QT_TRANSLATE_NOOP(
            "LabGPU", "Start a D-Bus session with the keyring unlocked and use LabGPU inside it: {command} "
                      "(the first time, the password you type creates the keyring).") \
            if provider == "gnome-keyring-daemon" else \
            QT_TRANSLATE_NOOP("LabGPU", "Start LabGPU from your desktop session, where the keyring runs.")
        return SecretsUnavailableError(
            QT_TRANSLATE_NOOP("LabGPU", "The keyring ({provider}) is installed, but there is no D-Bus session "
                                        "here to reach it (as over SSH, in WSL or on a virtual display)."),
            hint, code="NoKeyring", provider=_PROVIDERS[provider], command=_SESSION)
    if why == NOT_RUNNING:
        hint = QT_TRANSLATE_NOOP("LabGPU", "Start and unlock it in this session (bash): {command}") \
            if provider == "gnome-keyring-daemon" else \
            QT_TRANSLATE_NOOP("LabGPU", "Start it from your desktop session, then retry.")
        return SecretsUnavailableError(
            QT_TRANSLATE_NOOP("LabGPU", "The keyring ({provider}) is installed but not running in this D-Bus "
                                        "session."),
            hint, code="NoKeyring", provider=_PROVIDERS[provider], command=_UNLOCK)
    return SecretsUnavailableError(no_keyring, _install_hint(), code="NoKeyring", backend=backend)


def _locked(kind: type[LabGpuError] = SecretsError) -> LabGpuError:
    """The Secret Service answers but its keyring is locked (or not created yet: ``kind``
    SecretsUnavailableError, as keyring could not even start)."""
    if sys.platform.startswith("linux") and _headless() and _provider() == "gnome-keyring-daemon":
        return kind(
            QT_TRANSLATE_NOOP("LabGPU", "The keyring is locked (or not created yet), and without a desktop "
                                        "nothing can ask for its password."),
            QT_TRANSLATE_NOOP("LabGPU", "Unlock it in this session (bash): {command} (the first time, the "
                                        "password you type creates the keyring)."),
            code="KeyringLocked", command=_UNLOCK)
    return kind(
        QT_TRANSLATE_NOOP("LabGPU", "The keyring is locked."),
        QT_TRANSLATE_NOOP("LabGPU", "Unlock your keyring (log in again or open Passwords and Keys) and retry."),
        code="KeyringLocked")


def _backend() -> Any:
    import keyring

    kr = keyring.get_keyring()
    mod = type(kr).__module__
    if mod.startswith(_REFUSED_BACKENDS) and not _chainer_has_real(kr):
        raise _unavailable(type(kr).__name__)
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
    """The keyring backend in use, or why none is usable (a Secret Service whose keyring is locked
    with no desktop to ask for the password is not). Reads and writes no secret."""
    try:
        kr = _backend()
    except SecretsUnavailableError as exc:
        return "", exc
    except Exception as exc:  # noqa: BLE001 - keyring's own start-up failure: said, not raised
        return "", _wrap(exc)
    name = f"{type(kr).__module__}.{type(kr).__name__}"
    if type(kr).__module__ == "keyring.backends.SecretService" and _headless() and not _collection_open(kr):
        return name, _locked()
    return name, None


def _collection_open(kr: Any) -> bool:
    """Is the Secret Service collection keyring writes to there and unlocked? Asks without prompting
    (with a desktop a locked keyring asks for its password when first used: not a problem). A default
    collection that does not resolve is asked again (see RETRY_DELAYS: it happens for a moment)."""
    try:
        import secretstorage
        from secretstorage.collection import DEFAULT_COLLECTION, Collection
        from secretstorage.exceptions import ItemNotFoundException
    except ImportError:
        return True
    path = getattr(kr, "preferred_collection", None) or DEFAULT_COLLECTION
    for delay in (*RETRY_DELAYS, None):
        try:
            conn = secretstorage.dbus_init()
        except Exception:  # noqa: BLE001 - keyring chose it a moment ago; a later call will say what fails
            return True
        try:
            return not Collection(conn, path).is_locked()
        except ItemNotFoundException:
            if delay is None:
                return False
        except Exception:  # noqa: BLE001 - anything else is for the real call to report
            return True
        finally:
            with contextlib.suppress(Exception):
                conn.close()
        _sleep(delay)
    return False


def available() -> bool:
    return bool(backend_name())


def _wrap(exc: Exception) -> LabGpuError:
    name = type(exc).__name__
    # what the backend said, for the log (the user sees the sentence below): e.g. which D-Bus error
    # (NoReply, ServiceUnknown) stood behind keyring's InitError. Never the secret: it is not in these.
    cause = exc.__cause__ or exc.__context__
    log.warning("keyring backend error %s: %s%s", name, exc,
                f" (from {type(cause).__name__}: {cause})" if cause is not None else "")
    said = str(exc).lower()
    if name == "KeyringLocked" or "locked" in said or "dismissed" in said:  # "Prompt dismissed": no one to ask
        return _locked(SecretsUnavailableError if name == "InitError" else SecretsError)
    if name in ("NoKeyringError", "InitError"):
        return _unavailable(name)
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
