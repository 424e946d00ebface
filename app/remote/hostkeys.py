"""Host-key trust: the app's own known_hosts, trust on first use with the SHA256 shown, hard stop
on a changed key.

Why this shape: a rented GPU box is reached over the internet with a password or key; accepting an
unknown key silently (paramiko's auto-add and warning policies) hands that secret to whoever answers.
So LabGPU never adds a key by itself:

- keys accepted in LabGPU live in ``<data_dir>/known_hosts`` (OpenSSH format); the user's
  ``~/.ssh/known_hosts`` is read, never written;
- an unknown key becomes a :class:`HostKeyPrompt` handed to an ``accept`` callback (a dialog, or
  the CLI's ``--fingerprint`` match); no callback means refusal (:class:`HostKeyUnknownError`,
  which carries the prompt so a UI can ask and retry);
- for a cloud instance the fingerprints printed in its console output are compared when given:
  a match is trusted, a mismatch is refused;
- a changed key raises :class:`HostKeyChangedError`; only :func:`forget_host_key` lets the user
  go on (after which the next contact is a first contact again).
"""

from __future__ import annotations

import base64
import hashlib
import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import paramiko

from app.core.errors import LabGpuError
from app.core.fingerprints import normalize_fingerprint, parse_console_fingerprints  # noqa: F401 - re-exported
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import Paths, atomic_write_text, default_paths

log = logging.getLogger(__name__)
_lock = threading.Lock()


class HostKeyError(LabGpuError):
    pass


class HostKeyUnknownError(HostKeyError):
    """First contact and nobody accepted the key. ``.prompt`` says what would have been accepted."""

    def __init__(self, prompt: HostKeyPrompt, refused: bool = False) -> None:
        self.prompt = prompt
        if refused:
            super().__init__(
                QT_TRANSLATE_NOOP(
                    "LabGPU", "The host key of {host} ({key_type} {fingerprint}) was not accepted."
                ),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "Compare the fingerprint with the one your provider shows; accept it only if they "
                    "match (command line: labgpu hosts trust {name} --fingerprint {fingerprint}).",
                ),
                code="HostKeyRefused",
                name=prompt.host or prompt.hostname,
                host=prompt.display,
                key_type=prompt.key_type,
                fingerprint=prompt.fingerprint,
            )
        else:
            super().__init__(
                QT_TRANSLATE_NOOP(
                    "LabGPU", "The host key of {host} is not known yet: {key_type} {fingerprint}."
                ),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "If this matches the fingerprint your provider shows, accept it (in the app: answer "
                    "the question; command line: labgpu hosts trust {name} --fingerprint {fingerprint}).",
                ),
                code="HostKeyUnknown",
                name=prompt.host or prompt.hostname,
                host=prompt.display,
                key_type=prompt.key_type,
                fingerprint=prompt.fingerprint,
            )


class HostKeyChangedError(HostKeyError):
    def __init__(self, display: str, key_type: str, fingerprint: str, known: list[str]) -> None:
        self.fingerprint = fingerprint
        self.known = known
        super().__init__(
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "WARNING: the host key of {host} has CHANGED (now {key_type} "
                "{fingerprint}, known {known}). Someone may be intercepting the "
                "connection; LabGPU refused to connect.",
            ),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "If the server was rebuilt and your provider confirms the new "
                'fingerprint, use "Forget this host key" (\'labgpu hosts forget-key '
                "NAME') and connect again.",
            ),
            code="HostKeyChanged",
            host=display,
            key_type=key_type,
            fingerprint=fingerprint,
            known=", ".join(known),
        )


class HostKeyMismatchError(HostKeyError):
    def __init__(self, display: str, fingerprint: str, expected: list[str]) -> None:
        super().__init__(
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "The host key of {host} ({fingerprint}) does not match the "
                "instance's "
                "console output ({expected}); LabGPU refused to connect.",
            ),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Wait a minute and retry (the console output may be from an earlier "
                "boot); if it persists, do not use this instance.",
            ),
            code="HostKeyMismatch",
            host=display,
            fingerprint=fingerprint,
            expected=", ".join(expected),
        )


def sha256_fingerprint(key: paramiko.PKey) -> str:
    """``SHA256:…`` exactly as ``ssh-keygen -lf`` prints it."""
    digest = hashlib.sha256(key.asbytes()).digest()
    return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")


def host_entry(hostname: str, port: int) -> str:
    """The known_hosts name OpenSSH uses: ``host`` on port 22, else ``[host]:port``."""
    return hostname if port == 22 else f"[{hostname}]:{port}"


@dataclass(frozen=True)
class HostKeyPrompt:
    """What a user must see before trusting a server for the first time."""

    host: str  # the saved host's name (or the address when adding)
    hostname: str
    port: int
    key_type: str
    fingerprint: str
    key: paramiko.PKey = field(repr=False, compare=False)
    expected: tuple[str, ...] = ()  # from the cloud console, when known

    @property
    def display(self) -> str:
        addr = host_entry(self.hostname, self.port)
        return addr if self.host in ("", self.hostname) else f"{self.host} ({addr})"


AcceptCallback = Callable[[HostKeyPrompt], bool]

class KnownHosts:
    """The app's known_hosts (read/write) plus the user's ~/.ssh/known_hosts (read-only)."""

    def __init__(self, paths: Paths | None = None, user_file: Path | None = None) -> None:
        self.paths = paths or default_paths()
        self.file = self.paths.ensure().data_dir / "known_hosts"
        self.ignored_file = self.paths.data_dir / "known_hosts.ignored"
        self.user_file = (
            user_file if user_file is not None else Path(os.path.expanduser("~/.ssh/known_hosts"))
        )

    def _load(self, path: Path) -> paramiko.HostKeys:
        hk = paramiko.HostKeys()
        if path.is_file():
            try:
                hk.load(str(path))
            except (OSError, paramiko.SSHException, ValueError) as exc:
                log.warning("could not read %s: %s", path, exc)
        return hk

    def _ignored(self) -> set[str]:
        try:
            return {ln.strip() for ln in self.ignored_file.read_text().splitlines() if ln.strip()}
        except OSError:
            return set()

    def known_keys(self, hostname: str, port: int) -> list[paramiko.PKey]:
        """Keys trusted for this address: the app's file wins; the user's file unless forgotten."""
        entry = host_entry(hostname, port)
        own = self._load(self.file).lookup(entry)
        if own:
            return list(own.values())
        if entry in self._ignored():
            return []
        theirs = self._load(self.user_file).lookup(entry)
        return list(theirs.values()) if theirs else []

    def add(self, hostname: str, port: int, key: paramiko.PKey) -> None:
        entry = host_entry(hostname, port)
        with _lock:
            hk = self._load(self.file)
            hk.add(entry, key.get_name(), key)
            lines = []
            for e in hk._entries:  # noqa: SLF001 - HostKeys has no public iterator over lines
                line = e.to_line()
                if line:
                    lines.append(line.rstrip("\n"))
            atomic_write_text(self.file, "\n".join(lines) + "\n")
            ignored = self._ignored() - {entry}
            if self.ignored_file.exists():
                atomic_write_text(self.ignored_file, "".join(f"{i}\n" for i in sorted(ignored)))
        log.info("host key accepted for %s: %s", entry, sha256_fingerprint(key))

    def forget(self, hostname: str, port: int) -> bool:
        """Drop every trusted key for this address; True if something was trusted before."""
        entry = host_entry(hostname, port)
        had = bool(self.known_keys(hostname, port))
        with _lock:
            hk = self._load(self.file)
            keep = []
            for e in hk._entries:  # noqa: SLF001
                if entry in e.hostnames or _hashed_match(e.hostnames, entry):
                    continue
                line = e.to_line()
                if line:
                    keep.append(line.rstrip("\n"))
            atomic_write_text(self.file, "".join(f"{ln}\n" for ln in keep))
            if self._load(self.user_file).lookup(entry):
                atomic_write_text(
                    self.ignored_file, "".join(f"{i}\n" for i in sorted(self._ignored() | {entry}))
                )
        log.info("host key forgotten for %s", entry)
        return had

    def fingerprints(self, hostname: str, port: int) -> list[str]:
        return [sha256_fingerprint(k) for k in self.known_keys(hostname, port)]


def _hashed_match(names: list[str], entry: str) -> bool:
    return any(n.startswith("|1|") and paramiko.HostKeys.hash_host(entry, n) == n for n in names)


def verify_host_key(
    known: KnownHosts,
    *,
    host: str,
    hostname: str,
    port: int,
    key: paramiko.PKey,
    accept: AcceptCallback | None = None,
    expected: list[str] | tuple[str, ...] = (),
) -> str:
    """Decide whether ``key`` may be trusted for ``hostname:port``; returns its fingerprint or raises."""
    fp = sha256_fingerprint(key)
    trusted = known.known_keys(hostname, port)
    display = (
        host_entry(hostname, port) if host in ("", hostname) else f"{host} ({host_entry(hostname, port)})"
    )
    if trusted:
        if any(k.get_name() == key.get_name() and k.asbytes() == key.asbytes() for k in trusted):
            return fp
        # A different key for a known host, also when only the type differs: OpenSSH's
        # "REMOTE HOST IDENTIFICATION HAS CHANGED" case. Hard stop.
        raise HostKeyChangedError(display, key.get_name(), fp, [sha256_fingerprint(k) for k in trusted])
    expected_n = tuple(normalize_fingerprint(e) for e in expected if e)
    if expected_n:
        if fp not in expected_n:
            raise HostKeyMismatchError(display, fp, list(expected_n))
        known.add(hostname, port, key)
        return fp
    prompt = HostKeyPrompt(
        host=host,
        hostname=hostname,
        port=port,
        key_type=key.get_name(),
        fingerprint=fp,
        key=key,
        expected=expected_n,
    )
    if accept is None:
        raise HostKeyUnknownError(prompt)
    if not accept(prompt):
        raise HostKeyUnknownError(prompt, refused=True)
    known.add(hostname, port, key)
    return fp


def fingerprint_matcher(fingerprint: str) -> AcceptCallback:
    """The CLI's ``--fingerprint``: accept exactly that key, nothing else."""
    want = normalize_fingerprint(fingerprint)
    return lambda prompt: prompt.fingerprint == want


def forget_host_key(hostname: str, port: int = 22, paths: Paths | None = None) -> bool:
    """The explicit user action that lets a changed key be trusted again (as a first contact)."""
    return KnownHosts(paths).forget(hostname, port)


