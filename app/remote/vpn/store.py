"""Where a manager keeps things: stored profiles (their keyring credentials) and runtime files
(control socket, pid, log, the small status file ``status`` reads while another process holds
the socket)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from app.core import secrets
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import Paths, atomic_write_text, default_paths
from app.core.vpnprofiles import (
    OvpnProfile,
    ProfileError,
    load_ovpn,
    secret_key,
    validate_profile_name,
)
from app.remote.vpn.pids import is_our_openvpn, pid_alive
from app.remote.vpn.states import VpnError, VpnStatus

log = logging.getLogger(__name__)

NETNS_ENV = "LABGPU_VPN_NETNS"
_MAX_SUN_PATH = 100  # sockaddr_un.sun_path is 108 bytes on Linux, 104 on macOS


@dataclass
class StoredProfile:
    name: str
    needs_auth: bool
    needs_key_passphrase: bool
    remotes: list[str]
    source: str
    imported_at: float
    allow_scripts: bool = False
    removed: list[str] = field(default_factory=list)  # directives dropped at import (LabGPU sets them)


class VpnStore:
    """Profiles and runtime files of this user (the base of :class:`VpnManager`)."""

    def __init__(self, paths: Paths | None = None, *, netns: str | None = None) -> None:
        self.paths = (paths or default_paths()).ensure()
        self.netns = netns if netns is not None else (os.environ.get(NETNS_ENV) or None)
        self.profile_dir = self.paths.data_dir / "vpn" / "profiles"
        self.runtime_dir = self.paths.data_dir / "runtime" / "vpn"
        self._lock = threading.Lock()
        self.is_keeper = False  # True inside the keeper process itself
        self.spawn_keepers = True  # CLI and ssh code: leave a keeper behind; the GUI monitor clears it

    # -- profiles ---------------------------------------------------------------------------------
    def _profile_file(self, name: str) -> Path:
        return self.profile_dir / f"{validate_profile_name(name)}.ovpn"

    def _meta_file(self, name: str) -> Path:
        return self.profile_dir / f"{validate_profile_name(name)}.json"

    def add_profile(
        self,
        name: str,
        ovpn_path: Path | str,
        *,
        allow_scripts: bool = False,
        username: str | None = None,
        password: str | None = None,
        key_passphrase: str | None = None,
    ) -> StoredProfile:
        """Import (or replace) a profile; credentials given go to the keyring, never to a file."""
        validate_profile_name(name)
        prof: OvpnProfile = load_ovpn(Path(ovpn_path).expanduser(), allow_scripts=allow_scripts)
        if prof.needs_auth or prof.needs_key_passphrase:
            # It can only ever connect with a keyring: fail before storing anything (raises
            # SecretsUnavailableError with what to install when there is none).
            secrets.get_secret(secret_key(name, "username"))
        if username is not None:
            secrets.set_secret(secret_key(name, "username"), username)
        if password is not None:
            secrets.set_secret(secret_key(name, "password"), password)
        if key_passphrase is not None:
            secrets.set_secret(secret_key(name, "key_passphrase"), key_passphrase)
        self.profile_dir.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            self.profile_dir.chmod(0o700)
        atomic_write_text(self._profile_file(name), prof.text, mode=0o600)
        stored = StoredProfile(
            name=name,
            needs_auth=prof.needs_auth,
            needs_key_passphrase=prof.needs_key_passphrase,
            remotes=[f"{r.host}:{r.port}/{r.proto}" for r in prof.remotes],
            source=str(Path(ovpn_path).expanduser().resolve()),
            imported_at=time.time(),
            allow_scripts=bool(prof.dangerous),
            removed=list(dict.fromkeys(prof.stripped)),
        )
        atomic_write_text(self._meta_file(name), json.dumps(asdict(stored), indent=2) + "\n")
        log.info(
            "VPN profile %s imported (auth=%s, key passphrase=%s, stripped=%s, inlined=%s)",
            name,
            prof.needs_auth,
            prof.needs_key_passphrase,
            prof.stripped,
            prof.inlined,
        )
        return stored

    def set_credentials(
        self,
        name: str,
        *,
        username: str | None = None,
        password: str | None = None,
        key_passphrase: str | None = None,
    ) -> None:
        self.profile(name)
        for what, value in (
            ("username", username),
            ("password", password),
            ("key_passphrase", key_passphrase),
        ):
            if value is not None:
                secrets.set_secret(secret_key(name, what), value)

    def missing_credentials(self, name: str) -> list[str]:
        """Which of username/password/key_passphrase the profile needs and the keyring lacks."""
        prof = self.profile(name)
        wanted = (["username", "password"] if prof.needs_auth else []) + (
            ["key_passphrase"] if prof.needs_key_passphrase else []
        )
        return [w for w in wanted if secrets.get_secret(secret_key(name, w)) is None]

    def profile(self, name: str) -> StoredProfile:
        try:
            doc = json.loads(self._meta_file(name).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise VpnError(
                QT_TRANSLATE_NOOP("LabGPU", "There is no VPN profile named '{name}'."),
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Import it first: 'labgpu vpn add {name} FILE.ovpn' (see 'labgpu vpn ls')."
                ),
                code="VpnNoProfile",
                name=name,
            ) from None
        except (OSError, ValueError) as exc:
            raise VpnError(
                QT_TRANSLATE_NOOP("LabGPU", "The stored VPN profile '{name}' is damaged ({reason})."),
                QT_TRANSLATE_NOOP("LabGPU", "Import the .ovpn file again."),
                code="VpnProfileDamaged",
                name=name,
                reason=type(exc).__name__,
            ) from None
        known = set(StoredProfile.__dataclass_fields__)
        return StoredProfile(**{k: v for k, v in doc.items() if k in known})

    def profiles(self) -> list[StoredProfile]:
        if not self.profile_dir.is_dir():
            return []
        out = []
        for meta in sorted(self.profile_dir.glob("*.json")):
            with contextlib.suppress(VpnError, ProfileError):
                out.append(self.profile(meta.stem))
        return out

    # -- runtime files ----------------------------------------------------------------------------
    def socket_path(self, name: str, *, create: bool = False) -> Path:
        """Under the data dir when short enough for a unix socket, else a private folder in /tmp.

        Only starting openvpn (``create``) makes the folder: asking whether a profile runs leaves nothing
        behind. A folder that exists is checked either way — one another user made is never trusted."""
        validate_profile_name(name)
        preferred = self.runtime_dir / f"{name}.sock"
        if len(str(preferred)) <= _MAX_SUN_PATH:
            if create:
                self.runtime_dir.mkdir(parents=True, exist_ok=True)
                with contextlib.suppress(OSError):
                    self.runtime_dir.chmod(0o700)
            return preferred
        digest = hashlib.sha256(str(self.paths.data_dir).encode()).hexdigest()[:12]
        folder = (
            Path(tempfile.gettempdir()) / f"labgpu-vpn-{os.getuid() if hasattr(os, 'getuid') else 0}-{digest}"
        )
        if create:
            with contextlib.suppress(FileExistsError):
                folder.mkdir(mode=0o700)
        try:
            st = folder.lstat()
        except FileNotFoundError:
            return folder / f"{name}.sock"
        if (
            folder.is_symlink()
            or (hasattr(os, "getuid") and st.st_uid != os.getuid())
            or (st.st_mode & 0o077)
        ):
            raise VpnError(
                QT_TRANSLATE_NOOP(
                    "LabGPU", "The folder {folder} is not safe for the VPN control socket."
                ),
                QT_TRANSLATE_NOOP("LabGPU", "Remove it, or set LABGPU_HOME to a shorter path."),
                code="VpnSocketDir",
                folder=str(folder),
            ) from None
        return folder / f"{name}.sock"

    def _remove_socket(self, name: str) -> None:
        """openvpn is gone: its socket (and an emptied private /tmp folder) go too."""
        sock = self.socket_path(name)
        with contextlib.suppress(OSError):
            sock.unlink()
        if sock.parent != self.runtime_dir:
            with contextlib.suppress(OSError):
                sock.parent.rmdir()  # only when empty: other profiles may still use it

    def _runtime_file(self, name: str) -> Path:
        return self.runtime_dir / f"{validate_profile_name(name)}.json"

    def _log_file(self, name: str) -> Path:
        return self.runtime_dir / f"{validate_profile_name(name)}.log"

    def _pid_file(self, name: str) -> Path:
        return self.runtime_dir / f"{validate_profile_name(name)}.pid"

    def log_path(self, name: str) -> Path:
        return self._log_file(name)

    def _read_runtime(self, name: str) -> dict[str, Any]:
        try:
            doc = json.loads(self._runtime_file(name).read_text(encoding="utf-8"))
            return doc if isinstance(doc, dict) else {}
        except (OSError, ValueError):
            return {}

    def _update_runtime(self, name: str, **changes: object) -> dict[str, Any]:
        with self._lock:
            doc = self._read_runtime(name)
            doc.update(changes)
            self.runtime_dir.mkdir(parents=True, exist_ok=True)
            atomic_write_text(self._runtime_file(name), json.dumps(doc, indent=2) + "\n")
            return doc

    def record_status(self, name: str, status: VpnStatus) -> None:
        """Kept for ``status`` calls made while another process holds the management socket."""
        self._update_runtime(name, status=status.to_dict())

    def user_wants_down(self, name: str) -> bool:
        return bool(self._read_runtime(name).get("user_down"))

    def pid(self, name: str) -> int:
        """The pid of this profile's running openvpn, or 0."""
        sock = self.socket_path(name)
        candidates = []
        with contextlib.suppress(OSError, ValueError):
            candidates.append(int(self._pid_file(name).read_text().strip()))
        with contextlib.suppress(TypeError, ValueError):
            candidates.append(int(self._read_runtime(name).get("pid") or 0))
        for pid in candidates:
            if pid and pid_alive(pid) and is_our_openvpn(pid, sock):
                return pid
        return 0

    def is_running(self, name: str) -> bool:
        return self.pid(name) != 0
