"""Logging in on an SSH transport: key files (with stored passphrases), the ssh-agent, a password."""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import weakref
from collections import OrderedDict
from pathlib import Path

import paramiko

from app.core import secrets
from app.core.hosts import OWN_KEY_DIR, passphrase_key, password_key
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.logsetup import register_secret

from .errors import HostAuthError, HostUnreachableError
from .target import Target
from .tuning import TransportTuning

log = logging.getLogger("app.remote.ssh")

DEFAULT_KEY_FILES = ("~/.ssh/id_ed25519", "~/.ssh/id_ecdsa", "~/.ssh/id_rsa")


def _auth_error(target: Target, tried: list[str]) -> HostAuthError:
    return HostAuthError(
        QT_TRANSLATE_NOOP("LabGPU", "{host} refused the login (tried: {tried})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Check the user name and key or password: remove the host and add it again with the right ones.",
        ),
        code="AuthFailed",
        host=target.display,
        tried=", ".join(tried) or "nothing",
    )


def _dropped_during_login(target: Target, why: str) -> HostUnreachableError:
    """The connection went (or the server stopped answering) while logging in: not a refusal, so the
    caller's reconnect tries again instead of telling the user to fix a key that is right."""
    return HostUnreachableError(
        QT_TRANSLATE_NOOP("LabGPU", "The connection to {host} was lost while logging in ({why})."),
        QT_TRANSLATE_NOOP("LabGPU", "Check that the server is running and your network is up, then retry."),
        code="LoginInterrupted",
        host=target.display,
        why=why,
    )


def _not_a_refusal(transport: paramiko.Transport, exc: BaseException) -> bool:
    """paramiko raises the same exceptions when the server says no and when the connection dies or
    times out mid-login (a server under load, a cut connection): only a live transport that got an
    answer is a refusal."""
    return not transport.is_active() or "timeout" in str(exc).lower()


def _interrupted(transport: paramiko.Transport, exc: BaseException, refused: list[str]) -> bool:
    """The first answer never came (a server that hangs up after refusing several tries, as OpenSSH
    does at MaxAuthTries, did refuse)."""
    return not refused and _not_a_refusal(transport, exc)


def _is_passphrase_error(exc: BaseException) -> bool:
    # paramiko's PKey.from_path lets cryptography's TypeError escape for encrypted OpenSSH keys.
    return isinstance(exc, paramiko.PasswordRequiredException) or (
        isinstance(exc, TypeError) and "password" in str(exc).lower()
    )


# Passphrase-protected keys this process has opened, as ssh-agent keeps them: opening one runs the key file's
# bcrypt KDF (~0.1 s of CPU at OpenSSH's 16 rounds), and the app reconnects to the same instance with LabGPU's
# own key again and again (monitor, guards, sync, jobs). Keyed by the file as it is now (a changed or replaced
# file is opened again) and the passphrase's hash; a few keys at most, in this process's memory only.
_DECRYPTED: OrderedDict[tuple[object, ...], paramiko.PKey] = OrderedDict()
_DECRYPTED_MAX = 8
_decrypted_lock = threading.Lock()


def _decrypted(path: str, passphrase: str) -> paramiko.PKey:
    st = os.stat(path)
    key = (os.path.realpath(path), st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns,
           hashlib.sha256(passphrase.encode()).digest())
    with _decrypted_lock:
        pkey = _DECRYPTED.get(key)
        if pkey is not None:
            _DECRYPTED.move_to_end(key)
            return pkey
    pkey = paramiko.PKey.from_path(path, passphrase.encode())  # type: ignore[arg-type]
    with _decrypted_lock:
        _DECRYPTED[key] = pkey
        while len(_DECRYPTED) > _DECRYPTED_MAX:
            _DECRYPTED.popitem(last=False)
    return pkey


def _load_key(path: str, target: Target) -> paramiko.PKey | None:
    try:
        try:
            return paramiko.PKey.from_path(path)
        except TypeError as exc:
            if _is_passphrase_error(exc):
                raise paramiko.PasswordRequiredException(str(exc)) from None
            raise
    except paramiko.PasswordRequiredException:
        passphrase = secrets.get_secret(passphrase_key(target.name))
        own = Path(path)
        if passphrase is None and own.parent.name == OWN_KEY_DIR and own.name.startswith("labgpu"):
            # LabGPU's own instance key: its random passphrase lives with the key, not the host.
            passphrase = secrets.get_secret(f"sshkey:{own.name}:passphrase")
        if passphrase is None:
            raise HostAuthError(
                QT_TRANSLATE_NOOP(
                    "LabGPU", "The key {path} needs a passphrase and none is stored for {host}."
                ),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "Add the host again with the passphrase ('labgpu hosts add … "
                    "--passphrase-stdin'), or load the key into your ssh-agent.",
                ),
                code="KeyPassphraseMissing",
                path=path,
                host=target.name,
            ) from None
        try:
            return _decrypted(path, passphrase)
        except (paramiko.SSHException, ValueError, TypeError):
            raise HostAuthError(
                QT_TRANSLATE_NOOP("LabGPU", "The stored passphrase does not open the key {path}."),
                QT_TRANSLATE_NOOP("LabGPU", "Add the host again with the right passphrase."),
                code="KeyPassphraseWrong",
                path=path,
            ) from None
    except FileNotFoundError:
        return None
    except (OSError, paramiko.SSHException, ValueError) as exc:
        raise HostAuthError(
            QT_TRANSLATE_NOOP("LabGPU", "Cannot read the key {path} ({why})."),
            QT_TRANSLATE_NOOP("LabGPU", "Check the key file's path and permissions."),
            code="KeyUnreadable",
            path=path,
            why=type(exc).__name__,
        ) from None


_LOGINS: weakref.WeakKeyDictionary[paramiko.Transport, tuple[str, str]] = weakref.WeakKeyDictionary()


def login_used(transport: object) -> tuple[str, str]:
    """How ``transport`` logged in: ("publickey", "SHA256:…") or ("password", ""); ("", "") unknown. The
    login records (app/usecases/logins.py) count a key LabGPU logged in with as one it set up."""
    try:
        return _LOGINS.get(transport, ("", ""))  # type: ignore[call-overload]
    except TypeError:
        return "", ""


def _fingerprint(pkey: paramiko.PKey) -> str:
    try:
        return str(pkey.fingerprint)
    except Exception:  # noqa: BLE001 - an unusual key type: the login is not worse for it
        return ""


def authenticate(transport: paramiko.Transport, target: Target, tuning: TransportTuning) -> None:
    tried: list[str] = []
    refused: list[str] = []
    user = target.user

    def try_key(pkey: paramiko.PKey, label: str) -> bool:
        tried.append(label)
        try:
            transport.auth_publickey(user, pkey)
        except (paramiko.SSHException, EOFError, OSError) as exc:  # AuthenticationException too
            if _interrupted(transport, exc, refused):
                raise _dropped_during_login(target, str(exc) or type(exc).__name__) from None
            if not isinstance(exc, paramiko.AuthenticationException):
                log.info("public key %s failed: %s", label, exc)
            refused.append(label)
            return False
        if transport.is_authenticated():
            _LOGINS[transport] = ("publickey", _fingerprint(pkey))
            return True
        return False

    if target.auth in ("key", "auto"):
        explicit = list(target.key_files)
        files = explicit + (
            [os.path.expanduser(k) for k in DEFAULT_KEY_FILES] if target.auth == "auto" else []
        )
        for path in dict.fromkeys(files):
            try:
                pkey = _load_key(path, target)
            except HostAuthError:
                if path in explicit or target.auth == "key":
                    raise
                continue  # an encrypted default key without stored passphrase: the agent may have it
            if pkey is None:
                if target.auth == "key" and path in explicit:
                    raise HostAuthError(
                        QT_TRANSLATE_NOOP("LabGPU", "The key file {path} does not exist."),
                        QT_TRANSLATE_NOOP("LabGPU", "Fix the path (-i) of this host."),
                        code="KeyMissing",
                        path=path,
                    )
                continue
            if try_key(pkey, os.path.basename(path)):
                return
    if target.auth in ("agent", "auto") or (target.auth == "key" and not target.key_files):
        agent = paramiko.Agent()
        try:
            for pkey in agent.get_keys():
                if try_key(pkey, "agent"):
                    return
        finally:
            agent.close()
    if target.auth in ("password", "auto"):
        password = target.password
        if password is None:
            try:
                password = secrets.get_secret(password_key(target.name))
            except secrets.SecretsUnavailableError:
                if target.auth == "password":
                    raise
                password = None
        if password is None and target.auth == "password":
            raise HostAuthError(
                QT_TRANSLATE_NOOP("LabGPU", "No password is stored for {host}."),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "Add the host again with its password (Hosts "
                    "page, "
                    "or 'labgpu hosts add … --password-stdin').",
                ),
                code="PasswordMissing",
                host=target.name,
            )
        if password is not None:
            register_secret(password)
            tried.append("password")
            try:
                transport.auth_password(user, password)
            except (paramiko.SSHException, EOFError, OSError) as exc:  # AuthenticationException too
                if _interrupted(transport, exc, refused):
                    raise _dropped_during_login(target, str(exc) or type(exc).__name__) from None
                if not isinstance(exc, paramiko.AuthenticationException):
                    log.info("password auth failed: %s", exc)
            if transport.is_authenticated():
                _LOGINS[transport] = ("password", "")
                return
    raise _auth_error(target, tried)
