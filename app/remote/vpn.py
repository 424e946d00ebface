"""OpenVPN tunnels LabGPU brings up: the openvpn process, its management interface, VpnManager.

Why it is built this way:

- ``openvpn`` runs as a detached process (its own session) so the tunnel outlives the command
  that started it: ``labgpu vpn up P`` returns once CONNECTED; ``vpn status``/``vpn down`` later
  talk to the same management socket (a unix socket under the data dir's ``runtime/vpn``).
- It is started with ``--management SOCK unix --management-hold --management-query-passwords
  --auth-nocache``: nothing happens until LabGPU says ``hold release``, and every username,
  password or key passphrase is asked over the socket and answered from the keyring
  (``vpn:<profile>:username|password|key_passphrase``), so no secret is ever in a file or argv.
- OpenVPN serves one management client at a time. A CLI call holds the socket only for the
  seconds it needs; the desktop app's :class:`VpnMonitor` holds it while the app runs and keeps
  a small runtime file up to date, which ``status`` reads when the socket is busy.
- Any LabGPU process that attaches (``up``, ``ensure_up``, ``status``, the monitor) answers a
  pending credential prompt, unless the user asked for the tunnel to be down: with
  ``--auth-nocache`` OpenVPN asks again after each reconnect.

Privileges (see docs/vpn.md): creating a tun device and routes needs root. Linux as root runs
openvpn directly; a normal user gets ``pkexec openvpn …`` (polkit asks for the password) or is
told how to import the profile into NetworkManager instead. Windows needs the OpenVPN interactive
service and macOS a privileged helper (Tunnelblick); there LabGPU explains what to do.

``LABGPU_VPN_NETNS`` (tests only) runs openvpn inside that network namespace
(``ip netns exec NS openvpn …``); the management socket stays reachable because unix sockets
are not bound to a network namespace.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from app.core import secrets
from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.paths import Paths, atomic_write_text, default_paths
from app.core.vpnprofiles import (
    OvpnProfile,
    ProfileError,
    load_ovpn,
    parse_ovpn,
    secret_key,
    validate_profile_name,
)

log = logging.getLogger(__name__)

# States OpenVPN reports (>STATE) plus LabGPU's own around the process.
OPENVPN_STATES = (
    "CONNECTING",
    "WAIT",
    "AUTH",
    "GET_CONFIG",
    "ASSIGN_IP",
    "ADD_ROUTES",
    "CONNECTED",
    "RECONNECTING",
    "EXITING",
    "RESOLVE",
    "TCP_CONNECT",
    "AUTH_PENDING",
)
DISCONNECTED = "DISCONNECTED"
STARTING = "STARTING"
NEEDS_CREDENTIALS = "NEEDS_CREDENTIALS"
FAILED = "FAILED"
CONNECTED = "CONNECTED"
TRANSITIONAL = (
    "STARTING",
    "CONNECTING",
    "WAIT",
    "AUTH",
    "GET_CONFIG",
    "ASSIGN_IP",
    "ADD_ROUTES",
    "RECONNECTING",
    "RESOLVE",
    "TCP_CONNECT",
    "AUTH_PENDING",
)

NETNS_ENV = "LABGPU_VPN_NETNS"
OPENVPN_ENV = "LABGPU_OPENVPN"
_MAX_SUN_PATH = 100  # sockaddr_un.sun_path is 108 bytes on Linux, 104 on macOS


class VpnError(LabGpuError):
    """Something about a tunnel the user must act on."""


@dataclass(frozen=True)
class VpnStatus:
    """One observation of a tunnel. ``state`` is an OpenVPN state or DISCONNECTED/STARTING/
    NEEDS_CREDENTIALS/FAILED; ``since`` is the unix time the state began."""

    state: str
    local_ip: str = ""
    remote: str = ""
    since: float = 0.0
    message: str = ""

    @property
    def is_up(self) -> bool:
        return self.state == CONNECTED

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_dict(cls, doc: dict[str, object]) -> VpnStatus:
        return cls(
            state=str(doc.get("state") or DISCONNECTED),
            local_ip=str(doc.get("local_ip") or ""),
            remote=str(doc.get("remote") or ""),
            since=float(doc.get("since") or 0.0),  # type: ignore[arg-type]
            message=str(doc.get("message") or ""),
        )


def parse_state_fields(payload: str) -> VpnStatus:
    """``time,STATE,desc,local_ip,remote_ip,remote_port,local_addr,local_port,ipv6`` → VpnStatus."""
    parts = payload.split(",")
    parts += [""] * (9 - len(parts))
    try:
        since = float(parts[0])
    except ValueError:
        since = time.time()
    remote = parts[4]
    if remote and parts[5]:
        remote = f"{remote}:{parts[5]}"
    return VpnStatus(
        state=parts[1].strip().upper() or DISCONNECTED,
        local_ip=parts[3],
        remote=remote,
        since=since,
        message=parts[2],
    )


def _quote(value: str) -> str:
    """Management-protocol quoting: double quotes, backslash-escaped ``\\`` and ``\"``."""
    if "\n" in value or "\r" in value:
        raise VpnError(
            QT_TRANSLATE_NOOP("LabGPU", "A stored VPN credential contains a line break."),
            QT_TRANSLATE_NOOP("LabGPU", "Enter the VPN credentials again."),
            code="VpnBadCredential",
        )
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ---------------------------------------------------------------------------------------------
# privileges and the command line


@dataclass(frozen=True)
class PrivilegePlan:
    """How openvpn will get the rights to create a tun device; ``prefix`` goes before it."""

    prefix: tuple[str, ...]
    method: str  # "root", "capability", "pkexec", "netns"
    note: str = ""


def find_openvpn(candidates: list[str] | None = None) -> str:
    """The openvpn binary: $LABGPU_OPENVPN, PATH, then the usual install places."""
    if candidates is None:
        candidates = [
            os.environ.get(OPENVPN_ENV, ""),
            shutil.which("openvpn") or "",
            "/usr/sbin/openvpn",
            "/usr/local/sbin/openvpn",
            "/opt/homebrew/sbin/openvpn",
        ]
    if sys.platform == "win32":
        pf = os.environ.get("PROGRAMFILES", r"C:\Program Files")
        candidates.append(os.path.join(pf, "OpenVPN", "bin", "openvpn.exe"))
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    raise VpnError(
        QT_TRANSLATE_NOOP("LabGPU", "OpenVPN is not installed."), _install_hint(), code="VpnOpenvpnMissing"
    )


def _install_hint() -> str:
    if sys.platform == "win32":
        return QT_TRANSLATE_NOOP(
            "LabGPU", "Install OpenVPN from openvpn.net (with its interactive service) and retry."
        )
    if sys.platform == "darwin":
        return QT_TRANSLATE_NOOP("LabGPU", "Install Tunnelblick (or 'brew install openvpn') and retry.")
    return QT_TRANSLATE_NOOP(
        "LabGPU", "Install it with 'sudo apt install openvpn' (or your distribution's package) and retry."
    )


def _has_net_admin_capability(binary: str) -> bool:
    getcap = shutil.which("getcap") or "/usr/sbin/getcap"
    if not os.path.exists(getcap):
        return False
    try:
        out = subprocess.run([getcap, binary], capture_output=True, text=True, timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "cap_net_admin" in out


def windows_interactive_service_available() -> bool:
    """The OpenVPN interactive service listens on this named pipe (OpenVPN GUI uses it)."""
    return os.path.exists(r"\\.\pipe\openvpn\service")


def privilege_plan(
    binary: str, *, euid: int | None = None, platform: str | None = None, netns: str | None = None
) -> PrivilegePlan:
    """Decide how to run openvpn with the rights it needs, or explain what the user must do."""
    platform = platform or sys.platform
    if netns:
        return PrivilegePlan(("ip", "netns", "exec", netns), "netns", "test namespace")
    if platform == "win32":
        if windows_interactive_service_available():
            note = QT_TRANSLATE_NOOP(
                "LabGPU",
                "The OpenVPN interactive service is running: connect this profile "
                "with OpenVPN GUI (it talks to \\\\.\\pipe\\openvpn\\service).",
            )
        else:
            note = QT_TRANSLATE_NOOP(
                "LabGPU",
                "Install OpenVPN with its interactive service (OpenVPNServiceInteractive) "
                "and connect this profile with OpenVPN GUI.",
            )
        raise VpnError(
            QT_TRANSLATE_NOOP("LabGPU", "On Windows LabGPU cannot create the VPN adapter itself."),
            note,
            code="VpnNoPrivileges",
        )
    if platform == "darwin":
        raise VpnError(
            QT_TRANSLATE_NOOP("LabGPU", "On macOS a VPN needs a privileged helper."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Open the .ovpn file with Tunnelblick and connect it there; "
                "LabGPU then reaches hosts through that tunnel.",
            ),
            code="VpnNoPrivileges",
        )
    euid = os.geteuid() if euid is None else euid
    if euid == 0:
        return PrivilegePlan((), "root")
    if _has_net_admin_capability(binary):
        return PrivilegePlan((), "capability")
    pkexec = shutil.which("pkexec")
    if pkexec:
        return PrivilegePlan(
            (pkexec,),
            "pkexec",
            QT_TRANSLATE_NOOP("LabGPU", "Your system will ask for your password to start OpenVPN."),
        )
    raise VpnError(
        QT_TRANSLATE_NOOP(
            "LabGPU", "Starting OpenVPN needs administrator rights, and pkexec is not available."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Install polkit ('sudo apt install pkexec'), or run 'sudo labgpu vpn up PROFILE', "
            "or import the profile into NetworkManager: "
            "'nmcli connection import type openvpn file FILE.ovpn'.",
        ),
        code="VpnNoPrivileges",
    )


# ---------------------------------------------------------------------------------------------
# the management interface


class ManagementBusyError(VpnError):
    """Another client (usually the desktop app) holds the single management connection."""


class ManagementClosedError(VpnError):
    """OpenVPN closed the management connection (it is exiting, or refused the client)."""


class ManagementSession:
    """One connection to an openvpn management socket, used from one thread at a time
    (``send`` alone is safe from another thread, e.g. to ask the owner's openvpn to stop)."""

    def __init__(self, path: Path, timeout: float = 5.0) -> None:
        self.path = path
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(timeout)
        self._buf = b""
        self._send_lock = threading.Lock()
        # Who each reply still to come belongs to, in sending order ("async": a send() whose
        # one-line SUCCESS:/ERROR: reply nobody waits for; "cmd": the command() waiting). The
        # interface answers in order, so an async reply is never taken for a command's.
        self._order: deque[str] = deque()
        self._closed = False
        try:
            self._sock.connect(str(path))
        except OSError:
            self._sock.close()
            raise
        # OpenVPN greets with ">INFO:OpenVPN Management Interface …". A busy interface accepts
        # nothing (queued in the backlog): no greeting within the timeout means "busy".
        self.greeting: list[str] = []
        try:
            first = self.read_line(timeout)
        except EOFError:
            self.close()
            raise ManagementClosedError(
                QT_TRANSLATE_NOOP("LabGPU", "OpenVPN closed its control connection."),
                QT_TRANSLATE_NOOP("LabGPU", "See the VPN log for details."),
                code="VpnExited",
            ) from None
        except TimeoutError:
            self.close()
            raise ManagementBusyError(
                QT_TRANSLATE_NOOP("LabGPU", "The VPN is being managed by another LabGPU window."),
                QT_TRANSLATE_NOOP("LabGPU", "Use that window, or close it and retry."),
                code="VpnBusy",
            ) from None
        self.greeting.append(first)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()

    def send(self, command: str) -> None:
        """Send a one-line-reply command without waiting for its reply (safe from any thread)."""
        with self._send_lock:
            self._sock.sendall(command.encode("utf-8") + b"\n")
            self._order.append("async")

    def _reply_owner(self) -> str:
        with self._send_lock:
            return self._order.popleft() if self._order else ""

    def read_line(self, timeout: float | None) -> str:
        """The next line that is not a reply owed to send(); TimeoutError when none came in
        ``timeout`` s, EOFError when closed."""
        while True:
            line = self._read_raw(timeout)
            if line.startswith(("SUCCESS:", "ERROR:")) and self._reply_owner() == "async":
                continue
            return line

    def _read_raw(self, timeout: float | None) -> str:
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._buf:
            if self._closed:
                raise EOFError
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise TimeoutError
            self._sock.settimeout(remaining if remaining is None else max(remaining, 0.01))
            try:
                chunk = self._sock.recv(65536)
            except TimeoutError:
                raise
            except OSError as exc:
                raise EOFError from exc
            if not chunk:
                raise EOFError
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return line.decode("utf-8", "replace").rstrip("\r")

    def command(
        self,
        cmd: str,
        *,
        multiline: bool = False,
        timeout: float = 5.0,
        on_event: Callable[[str], None] | None = None,
    ) -> list[str]:
        """Send ``cmd`` and return its reply lines; real-time ``>`` lines go to ``on_event``."""
        with self._send_lock:
            self._sock.sendall(cmd.encode("utf-8") + b"\n")
            self._order.append("cmd")
        lines: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.read_line(max(deadline - time.monotonic(), 0.01))
            if line.startswith(">"):
                if on_event:
                    on_event(line)
                continue
            if multiline:
                if line == "END":
                    with self._send_lock:
                        if self._order and self._order[0] == "cmd":
                            self._order.popleft()
                    return lines
                if line.startswith("ERROR:") and not lines:
                    return [line]
                lines.append(line)
            else:
                return [line]


# ---------------------------------------------------------------------------------------------
# the driver: turns management lines into status and answers prompts


class TunnelDriver:
    """Reacts to one openvpn's real-time messages: states, password prompts, fatal errors.

    ``on_status`` is called with each new VpnStatus (in the reading thread)."""

    def __init__(
        self,
        profile: str,
        session: ManagementSession,
        on_status: Callable[[VpnStatus], None] | None = None,
        *,
        answer_prompts: bool = True,
    ) -> None:
        self.profile = profile
        self.session = session
        self.on_status = on_status
        self.answer_prompts = answer_prompts
        self.status = VpnStatus(STARTING, since=time.time())
        self.error: VpnError | None = None
        self.pending_prompt = ""  # prompt left unanswered (missing credentials)
        self.exited = False

    def _set(self, status: VpnStatus) -> None:
        self.status = status
        if self.on_status:
            try:
                self.on_status(status)
            except Exception:  # noqa: BLE001 - a listener's bug must not kill the tunnel's reader
                log.exception("VPN status listener failed")

    def handle(self, line: str) -> None:
        if line.startswith(">STATE:"):
            st = parse_state_fields(line[len(">STATE:") :])
            if st.state == "EXITING":
                self.exited = True
                if st.message in ("auth-failure",) and self.error is None:
                    self.error = _auth_failed(self.profile)
            self._set(st)
        elif line.startswith(">PASSWORD:"):
            self._on_password(line[len(">PASSWORD:") :])
        elif line.startswith(">FATAL:"):
            self.exited = True
            if self.error is None:
                self.error = _fatal(line[len(">FATAL:") :])
            self._set(VpnStatus(FAILED, since=time.time(), message=line[len(">FATAL:") :]))
        elif line.startswith(">HOLD:"):
            self.session.send("hold release")

    def _on_password(self, text: str) -> None:
        if text.startswith("Verification Failed"):
            if "Private Key" in text:
                self.error = VpnError(
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "The private key passphrase of VPN profile '{profile}' is wrong."
                    ),
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "Enter the key passphrase again (Credentials… on the VPN page, or "
                        "'labgpu vpn add {profile} FILE --key-passphrase-stdin').",
                    ),
                    code="VpnKeyPassphrase",
                    profile=self.profile,
                )
            else:
                self.error = _auth_failed(self.profile)
            self._set(VpnStatus(FAILED, since=time.time(), message=self.error.one_line()))
            return
        if not text.startswith("Need "):
            return
        if not self.answer_prompts:
            self.pending_prompt = text
            return
        self.pending_prompt = text
        self.answer_pending()

    def answer_pending(self) -> bool:
        """Answer the prompt OpenVPN is waiting on from the keyring; False when credentials are missing."""
        text = self.pending_prompt
        if not text:
            return True
        if "'Auth'" in text:
            user = secrets.get_secret(secret_key(self.profile, "username"))
            password = secrets.get_secret(secret_key(self.profile, "password"))
            if user is None or password is None:
                return self._missing(["username", "password"])
            self.session.send(f'username "Auth" {_quote(user)}')
            self.session.send(f'password "Auth" {_quote(password)}')
        elif "'Private Key'" in text:
            phrase = secrets.get_secret(secret_key(self.profile, "key_passphrase"))
            if phrase is None:
                return self._missing(["key_passphrase"])
            self.session.send(f'password "Private Key" {_quote(phrase)}')
        else:
            log.warning("VPN %s: unsupported prompt %r", self.profile, text[:80])
            self.error = VpnError(
                QT_TRANSLATE_NOOP("LabGPU", "OpenVPN asks for something LabGPU cannot answer: {prompt}."),
                QT_TRANSLATE_NOOP("LabGPU", "Connect this profile with your VPN provider's own client."),
                code="VpnPrompt",
                prompt=text[:80],
            )
            return False
        self.pending_prompt = ""
        return True

    def _missing(self, items: list[str]) -> bool:
        what = credential_labels(items)
        self.error = VpnError(
            QT_TRANSLATE_NOOP(
                "LabGPU", "VPN profile '{profile}' needs credentials that are not stored: {what}."
            ),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Enter it with Credentials… on the VPN page, or "
                "'labgpu vpn add {profile} FILE.ovpn --username USER --password-stdin'.",
            ),
            code="VpnCredentialsMissing",
            profile=self.profile,
            what=what,
        )
        self._set(VpnStatus(NEEDS_CREDENTIALS, since=time.time(), message=self.error.text()))
        return False


_CREDENTIAL_LABELS = {
    "username": QT_TRANSLATE_NOOP("LabGPU", "username"),
    "password": QT_TRANSLATE_NOOP("LabGPU", "password"),
    "key_passphrase": QT_TRANSLATE_NOOP("LabGPU", "private key passphrase"),
}


def credential_labels(items: list[str]) -> str:
    """``["username", "password"]`` → "username, password" in the user's language."""
    return ", ".join(translate(_CREDENTIAL_LABELS.get(i, i)) for i in items)


def _auth_failed(profile: str) -> VpnError:
    return VpnError(
        QT_TRANSLATE_NOOP(
            "LabGPU", "The VPN server refused the username or password of profile '{profile}'."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Enter them again (Credentials… on the VPN page, or 'labgpu vpn add {profile} "
            "FILE.ovpn --username USER --password-stdin') and connect again.",
        ),
        code="VpnAuthFailed",
        profile=profile,
    )


def _fatal(message: str) -> VpnError:
    return VpnError(
        QT_TRANSLATE_NOOP("LabGPU", "OpenVPN stopped: {reason}."),
        QT_TRANSLATE_NOOP("LabGPU", "See the VPN log for details, fix the profile and connect again."),
        code="VpnFatal",
        reason=message.strip()[:200],
    )


def diagnose_log(text: str) -> VpnError | None:
    """Turn the last lines openvpn printed before it died into an error with a next step."""
    low = text.lower()
    if ("tunsetiff" in low or "cannot open tun/tap" in low or "/dev/net/tun" in low) and (
        "permission" in low or "not permitted" in low or "no such file" in low
    ):
        return VpnError(
            QT_TRANSLATE_NOOP("LabGPU", "OpenVPN has no permission to create the tunnel device."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Run LabGPU's VPN as root, allow it through pkexec, or import the profile "
                "into NetworkManager ('nmcli connection import type openvpn file FILE.ovpn'). "
                "See docs/vpn.md.",
            ),
            code="VpnNoPrivileges",
        )
    if "options error" in low:
        line = next((ln for ln in text.splitlines() if "Options error" in ln), "")
        return VpnError(
            QT_TRANSLATE_NOOP("LabGPU", "OpenVPN refused the profile: {reason}."),
            QT_TRANSLATE_NOOP("LabGPU", "Import a corrected .ovpn file from your VPN provider."),
            code="VpnProfileRejected",
            reason=line.split("Options error:", 1)[-1].strip()[:200],
        )
    if "auth_failed" in low or "auth-failure" in low:
        return _auth_failed("?")
    if "private key" in low and ("bad decrypt" in low or "cannot load" in low):
        return VpnError(
            QT_TRANSLATE_NOOP("LabGPU", "OpenVPN could not unlock the private key."),
            QT_TRANSLATE_NOOP("LabGPU", "Enter the key passphrase again and connect again."),
            code="VpnKeyPassphrase",
        )
    return None


# ---------------------------------------------------------------------------------------------
# processes we started (to reap them) and liveness


_children: dict[int, subprocess.Popen[bytes]] = {}
# The desktop app's monitors hold the management sockets themselves: no VpnManager in that
# process (the SSH code's ensure_up included) leaves a keeper behind while it runs.
_keepers: dict[str, bool] = {"enabled": True}


def set_keepers_enabled(enabled: bool) -> None:
    _keepers["enabled"] = enabled


_children_lock = threading.Lock()


def _pid_alive(pid: int) -> bool:
    if pid <= 0:
        return False
    with _children_lock:
        child = _children.get(pid)
    if child is not None and child.poll() is not None:
        with _children_lock:
            _children.pop(pid, None)
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # alive, owned by root (pkexec)
    stat = Path(f"/proc/{pid}/stat")
    if stat.exists():
        with contextlib.suppress(OSError, IndexError):
            if stat.read_text().rsplit(")", 1)[1].split()[0] == "Z":
                return False
    return True


def _is_our_openvpn(pid: int, sock: Path) -> bool:
    """Guard against pid reuse: the process must be openvpn with our socket on its command line."""
    cmdline = Path(f"/proc/{pid}/cmdline")
    if not cmdline.exists():
        return _pid_alive(pid)  # no /proc (macOS): trust the pid file
    try:
        args = cmdline.read_bytes().split(b"\0")
    except OSError:
        return False
    return any(a.endswith(b"openvpn") for a in args) and str(sock).encode() in args


# ---------------------------------------------------------------------------------------------
# the manager


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


class VpnManager:
    """Profiles, and the tunnels of this user: safe to create anywhere (CLI, GUI, ssh code).

    Thread-safe for distinct profiles; one owner per profile's management connection at a time."""

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

    def remove_profile(self, name: str) -> bool:
        """Stop its tunnel, delete the profile and its keyring entries; False if it did not exist."""
        exists = self._meta_file(name).exists()
        if not exists:
            return False
        with contextlib.suppress(VpnError):
            self.down(name)
        for what in ("username", "password", "key_passphrase"):
            with contextlib.suppress(secrets.SecretsUnavailableError):
                secrets.delete_secret(secret_key(name, what))
        for p in (
            self._profile_file(name),
            self._meta_file(name),
            self._runtime_file(name),
            self._log_file(name),
        ):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
        return True

    # -- runtime files ----------------------------------------------------------------------------
    def socket_path(self, name: str) -> Path:
        """Under the data dir when short enough for a unix socket, else a private folder in /tmp."""
        validate_profile_name(name)
        preferred = self.runtime_dir / f"{name}.sock"
        if len(str(preferred)) <= _MAX_SUN_PATH:
            self.runtime_dir.mkdir(parents=True, exist_ok=True)
            with contextlib.suppress(OSError):
                self.runtime_dir.chmod(0o700)
            return preferred
        digest = hashlib.sha256(str(self.paths.data_dir).encode()).hexdigest()[:12]
        folder = (
            Path(tempfile.gettempdir()) / f"labgpu-vpn-{os.getuid() if hasattr(os, 'getuid') else 0}-{digest}"
        )
        try:
            folder.mkdir(mode=0o700)
        except FileExistsError:
            st = folder.lstat()
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
            if pid and _pid_alive(pid) and _is_our_openvpn(pid, sock):
                return pid
        return 0

    def is_running(self, name: str) -> bool:
        return self.pid(name) != 0

    # -- process ----------------------------------------------------------------------------------
    def checked_profile_file(self, name: str) -> Path:
        """Check the stored profile again, as OpenVPN will read it, and return its path.

        Profiles stored by an older LabGPU were checked by a looser reader (an inline block
        closed by a line merely starting with ``</secret>`` hid directives from it): each start
        re-reads the stored file with :mod:`app.core.ovpn_parse`, checks it against the
        allow-list with the confirmation stored at import, and rewrites it when the rewritten
        form differs, so what OpenVPN runs is always what was checked."""
        meta = self.profile(name)
        path = self._profile_file(name)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise VpnError(
                QT_TRANSLATE_NOOP("LabGPU", "The stored VPN profile '{name}' is damaged ({reason})."),
                QT_TRANSLATE_NOOP("LabGPU", "Import the .ovpn file again."),
                code="VpnProfileDamaged",
                name=name,
                reason=exc.strerror or type(exc).__name__,
            ) from None
        try:
            prof = parse_ovpn(data, None, allow_scripts=bool(meta.allow_scripts))
        except ProfileError as exc:
            raise VpnError(
                QT_TRANSLATE_NOOP(
                    "LabGPU", "The stored VPN profile '{name}' does not pass LabGPU's checks: {reason}"
                ),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "It was not started. Import the .ovpn file again ('labgpu vpn add {name} FILE.ovpn'), "
                    "which shows the lines in question.",
                ),
                code="VpnProfileRecheck",
                name=name,
                reason=exc.text(),
            ) from None
        if prof.text.encode("utf-8") != data:
            atomic_write_text(path, prof.text, mode=0o600)
            log.warning("VPN %s: stored profile rewritten to its checked form before starting", name)
        return path

    def _spawn(self, name: str) -> int:
        config = self.checked_profile_file(name)
        binary = find_openvpn()
        plan = privilege_plan(binary, netns=self.netns)
        sock = self.socket_path(name)
        with contextlib.suppress(FileNotFoundError):
            sock.unlink()
        with contextlib.suppress(FileNotFoundError):
            self._pid_file(name).unlink()
        argv = [
            *plan.prefix,
            binary,
            "--config",
            str(config),
            "--management",
            str(sock),
            "unix",
            "--management-hold",
            "--management-query-passwords",
            "--auth-nocache",
            "--writepid",
            str(self._pid_file(name)),
        ]
        if plan.method == "pkexec" and hasattr(os, "getuid"):
            import pwd

            argv += ["--management-client-user", pwd.getpwuid(os.getuid()).pw_name]
        self.runtime_dir.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            self.runtime_dir.chmod(0o700)
        self._rotate_log(name)
        logf = open(self._log_file(name), "ab")  # noqa: SIM115 - handed to the child, closed below
        try:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S")
            logf.write(f"\n--- LabGPU starts openvpn for {name} at {stamp} ---\n".encode())
            logf.flush()
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=logf,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                close_fds=True,
            )
        except OSError as exc:
            raise VpnError(
                QT_TRANSLATE_NOOP("LabGPU", "Could not start OpenVPN: {reason}."),
                _install_hint(),
                code="VpnStartFailed",
                reason=exc.strerror or str(exc),
            ) from None
        finally:
            logf.close()
        with _children_lock:
            _children[proc.pid] = proc
        self._update_runtime(
            name,
            pid=proc.pid,
            started=time.time(),
            method=plan.method,
            user_down=False,
            want_up=True,
            socket=str(sock),
            status=VpnStatus(STARTING, since=time.time()).to_dict(),
        )
        log.info("VPN %s: openvpn started (pid %d, %s)", name, proc.pid, plan.method)
        return proc.pid

    def _rotate_log(self, name: str, limit: int = 5 * 1024 * 1024) -> None:
        """Keep one previous log (``.log.1``): each start appends, a long-lived laptop must not fill up."""
        path = self._log_file(name)
        with contextlib.suppress(OSError):
            if path.stat().st_size > limit:
                os.replace(path, path.with_name(path.name + ".1"))

    def log_tail(self, name: str, lines: int = 25) -> str:
        try:
            data = self._log_file(name).read_bytes()[-8192:]
        except OSError:
            return ""
        return "\n".join(data.decode("utf-8", "replace").splitlines()[-lines:])

    def _wait_exit(self, pid: int, timeout: float) -> bool:
        """Wait (at most ``timeout`` s) for ``pid`` to be gone; True when it is."""
        deadline = time.monotonic() + timeout
        while _pid_alive(pid):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def last_run_lines(self, name: str, lines: int = 4) -> list[str]:
        """OpenVPN's own last lines of its latest run (after LabGPU's start marker)."""
        text = self.log_tail(name, 200)
        marker = text.rfind("--- LabGPU starts openvpn")
        if marker >= 0:
            text = text[marker:].split("\n", 1)[-1] if "\n" in text[marker:] else ""
        out = []
        for ln in text.splitlines():
            ln = re.sub(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ", "", ln.strip())
            if ln and not ln.startswith("MANAGEMENT:"):  # LabGPU's own connection, not the reason
                out.append(ln)
        return out[-lines:]

    def _exit_error(self, name: str, pid: int = 0) -> VpnError:
        """OpenVPN is gone (or going) before CONNECTED: the reason, from its own last log lines."""
        pid = pid or int(self._read_runtime(name).get("pid") or 0)
        if pid:
            self._wait_exit(pid, 5.0)  # its last lines are flushed when it has exited
        last = self.last_run_lines(name)
        err = diagnose_log("\n".join(last) or self.log_tail(name))
        if err is not None:
            if err.code == "VpnAuthFailed":
                err = _auth_failed(name)
            err.params.setdefault("openvpn", " | ".join(last)[-600:])
            return err
        return VpnError(
            QT_TRANSLATE_NOOP("LabGPU", "OpenVPN exited before the tunnel came up. Its last lines: {openvpn}"),
            QT_TRANSLATE_NOOP("LabGPU", "Fix what OpenVPN reports (see {log} for the full log) and connect again."),
            code="VpnExited",
            openvpn=(" | ".join(last) or "(none)")[-600:],
            log=str(self._log_file(name)),
        )

    def attach(self, name: str, timeout: float = 10.0) -> ManagementSession:
        """Connect to the management socket of a running openvpn (waiting for it to appear)."""
        sock = self.socket_path(name)
        deadline = time.monotonic() + timeout
        if not self.is_keeper:
            self._yield_keeper(name)
        while True:
            pid = self.pid(name) or int(self._read_runtime(name).get("pid") or 0)
            try:
                return ManagementSession(sock, timeout=max(min(3.0, deadline - time.monotonic()), 0.5))
            except ManagementBusyError:
                raise
            except (OSError, ManagementClosedError):
                if not _pid_alive(pid) or self._wait_exit(pid, 0.5):
                    raise self._exit_error(name) from None
            if time.monotonic() > deadline:
                raise VpnError(
                    QT_TRANSLATE_NOOP("LabGPU", "OpenVPN did not open its control socket in time."),
                    QT_TRANSLATE_NOOP("LabGPU", "See {log} for the full log."),
                    code="VpnTimeout",
                    log=str(self._log_file(name)),
                )
            time.sleep(0.02)

    # -- the keeper -------------------------------------------------------------------------------
    # A tiny detached process that keeps answering openvpn's prompts after the CLI returned
    # (with --auth-nocache OpenVPN asks again after every reconnect). It holds the management
    # socket but lets go for a moment when another LabGPU client signals it (SIGUSR1), so
    # ``vpn status``/``vpn down`` still talk to openvpn itself; the desktop app retires it.
    def keeper_pid(self, name: str) -> int:
        try:
            pid = int(self._read_runtime(name).get("keeper_pid") or 0)
        except (TypeError, ValueError):
            return 0
        if not pid or not _pid_alive(pid):
            return 0
        cmdline = Path(f"/proc/{pid}/cmdline")
        if cmdline.exists():
            try:
                args = cmdline.read_bytes().split(b"\0")
            except OSError:
                return 0
            if b"vpn" not in args or b"keep" not in args or name.encode() not in args:
                return 0
        return pid

    def spawn_keeper(self, name: str) -> int:
        current = self.keeper_pid(name)
        if current:
            return current
        p = self.paths
        frozen = bool(getattr(sys, "frozen", False))  # the packaged app: its executable is the CLI
        argv = [
            *([sys.executable] if frozen else [sys.executable, "-m", "app"]),
            "vpn",
            "keep",
            name,
            "--config-dir",
            str(p.config_dir),
            "--data-dir",
            str(p.data_dir),
            "--cache-dir",
            str(p.cache_dir),
            "--log-dir",
            str(p.log_dir),
        ]
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                close_fds=True,
                cwd=str(Path.home() if frozen else Path(__file__).resolve().parents[2]),
            )
        except OSError as exc:
            log.warning("VPN %s: could not start the keeper: %s", name, exc)
            return 0
        with _children_lock:
            _children[proc.pid] = proc
        self._update_runtime(name, keeper_pid=proc.pid)
        return proc.pid

    def _yield_keeper(self, name: str) -> None:
        pid = self.keeper_pid(name)
        if pid:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGUSR1)

    def retire_keeper(self, name: str, timeout: float = 3.0) -> None:
        """Stop the keeper (the desktop app's monitor takes over the management socket)."""
        pid = self.keeper_pid(name)
        if not pid:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while _pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        self._update_runtime(name, keeper_pid=0)

    # -- the public API ---------------------------------------------------------------------------
    def up(
        self, name: str, timeout: float = 30.0, on_status: Callable[[VpnStatus], None] | None = None
    ) -> VpnStatus:
        """Bring the tunnel up and return once CONNECTED; the openvpn process keeps running."""
        self.profile(name)
        missing = self.missing_credentials(name)
        if missing:
            raise VpnError(
                QT_TRANSLATE_NOOP(
                    "LabGPU", "VPN profile '{profile}' needs credentials that are not stored: {what}."
                ),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "Enter it with Credentials… on the VPN page, or "
                    "'labgpu vpn add {profile} FILE.ovpn --username USER --password-stdin'.",
                ),
                code="VpnCredentialsMissing",
                profile=name,
                what=credential_labels(missing),
            )
        started = False
        if not self.is_running(name):
            self._spawn(name)
            started = True
        else:
            self._update_runtime(name, user_down=False, want_up=True)
        try:
            st = self._drive_until_connected(name, timeout, on_status)
        except BaseException as exc:
            if started:
                with contextlib.suppress(VpnError):
                    self._stop_process(name, record=False)
            if isinstance(exc, LabGpuError):
                with contextlib.suppress(VpnError, OSError):
                    self.record_status(name, VpnStatus(FAILED, since=time.time(), message=exc.one_line()))
            raise
        if self.spawn_keepers and _keepers["enabled"] and not self.is_keeper:
            self.spawn_keeper(name)
        return st

    def ensure_up(self, name: str, timeout: float = 30.0) -> VpnStatus:
        """Up unless already CONNECTED (cheap to call before every connection through it)."""
        st = self.status(name)
        if st.is_up:
            return st
        return self.up(name, timeout)

    def _drive_until_connected(
        self, name: str, timeout: float, on_status: Callable[[VpnStatus], None] | None
    ) -> VpnStatus:
        deadline = time.monotonic() + timeout
        try:
            session = self.attach(name, timeout=min(timeout, 10.0))
        except ManagementBusyError:
            return self._wait_recorded_up(name, deadline, timeout)

        def report(st: VpnStatus) -> None:
            self.record_status(name, st)
            if on_status:
                on_status(st)

        driver = TunnelDriver(name, session, report)
        try:
            return self._drive(name, session, driver, deadline, timeout)
        except (OSError, EOFError) as exc:
            # The management connection broke (a BrokenPipeError or reset while sending, EOF
            # while reading): openvpn is exiting. Never a success, never a traceback.
            log.info("VPN %s: management connection lost during start-up: %r", name, exc)
            if driver.error is not None:
                raise driver.error from None
            pid = int(self._read_runtime(name).get("pid") or 0)
            if isinstance(exc, TimeoutError) and pid and not self._wait_exit(pid, 1.0):
                raise VpnError(
                    QT_TRANSLATE_NOOP("LabGPU", "OpenVPN did not answer on its control connection in time."),
                    QT_TRANSLATE_NOOP("LabGPU", "See {log}, then connect again."),
                    code="VpnTimeout",
                    log=str(self._log_file(name)),
                ) from None
            raise self._exit_error(name, pid) from None
        finally:
            session.close()

    def _drive(
        self, name: str, session: ManagementSession, driver: TunnelDriver, deadline: float, timeout: float
    ) -> VpnStatus:
        for line in session.greeting:
            if line.startswith(">"):
                driver.handle(line)
        session.command("state on", on_event=driver.handle)
        current = session.command("state", multiline=True, on_event=driver.handle)
        if current and not current[0].startswith("ERROR"):
            st = parse_state_fields(current[-1])
            if st.state in OPENVPN_STATES:
                driver._set(st)
        session.command("hold release", on_event=driver.handle)
        while not driver.status.is_up:
            if driver.error is not None:
                raise driver.error
            if driver.exited:
                raise self._exit_error(name)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise VpnError(
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "The VPN '{profile}' did not connect within {seconds:.0f} s "
                        "(last state: {state}).",
                    ),
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Check that the VPN server is reachable, then see {log}."
                    ),
                    code="VpnDown",
                    profile=name,
                    seconds=timeout,
                    state=driver.status.state,
                    log=str(self._log_file(name)),
                )
            try:
                line = session.read_line(min(remaining, 1.0))
            except TimeoutError:
                continue
            if line.startswith(">"):
                driver.handle(line)
        if not driver.status.is_up:  # pragma: no cover - the loop above only ends on CONNECTED
            raise self._exit_error(name)
        return driver.status

    def _wait_recorded_up(self, name: str, deadline: float, timeout: float) -> VpnStatus:
        """Another LabGPU process (the desktop app) drives this tunnel: follow what it records."""
        while True:
            st = VpnStatus.from_dict(self._read_runtime(name).get("status") or {})
            if st.is_up:
                return st
            if not self.is_running(name):
                raise self._exit_error(name)
            if time.monotonic() > deadline:
                raise VpnError(
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "The VPN '{profile}' did not connect within {seconds:.0f} s (last state: {state}).",
                    ),
                    QT_TRANSLATE_NOOP("LabGPU", "Check that the VPN server is reachable, then see {log}."),
                    code="VpnDown",
                    profile=name,
                    seconds=timeout,
                    state=st.state,
                    log=str(self._log_file(name)),
                )
            time.sleep(0.2)

    def _stop_process(self, name: str, *, record: bool = True, timeout: float = 10.0) -> None:
        pid = self.pid(name)
        if pid:
            try:
                session = self.attach(name, timeout=2.0)
            except VpnError:
                session = None
            if session is not None:
                try:
                    session.command("signal SIGTERM", timeout=3.0)
                except (OSError, TimeoutError, EOFError):
                    pass
                finally:
                    session.close()
            else:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while _pid_alive(pid) and time.monotonic() < deadline:
                time.sleep(0.02)
            if _pid_alive(pid):
                log.warning("VPN %s: openvpn %d ignored SIGTERM; killing it", name, pid)
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
                end = time.monotonic() + 5
                while _pid_alive(pid) and time.monotonic() < end:
                    time.sleep(0.02)
            if _pid_alive(pid):
                raise VpnError(
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "OpenVPN (process {pid}) of profile '{profile}' could not be stopped."
                    ),
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "It runs with other rights than LabGPU: stop it as administrator (sudo kill {pid}).",
                    ),
                    code="VpnStopFailed",
                    pid=pid,
                    profile=name,
                )
        with contextlib.suppress(FileNotFoundError):
            self._pid_file(name).unlink()
        self._remove_socket(name)
        if record:
            self.record_status(name, VpnStatus(DISCONNECTED, since=time.time()))

    def down(self, name: str) -> VpnStatus:
        """Stop the tunnel and remember that the user wants it down (no auto-reconnect)."""
        self.profile(name)
        self._update_runtime(name, user_down=True, want_up=False)
        self._stop_process(name)
        return VpnStatus(DISCONNECTED, since=time.time())

    def status(self, name: str) -> VpnStatus:
        """The tunnel's state now: asks openvpn when its socket is free, else the last recorded state."""
        self.profile(name)
        if not self.is_running(name):
            doc = self._read_runtime(name)
            last = VpnStatus.from_dict(doc.get("status") or {})
            msg = last.message if last.state in (FAILED,) else ""
            return VpnStatus(
                DISCONNECTED, since=last.since if last.state == DISCONNECTED else 0.0, message=msg
            )
        try:
            session = self.attach(name, timeout=2.0)
        except ManagementBusyError:
            return VpnStatus.from_dict(self._read_runtime(name).get("status") or {})
        except VpnError:
            return VpnStatus(DISCONNECTED, since=time.time())
        try:
            driver = TunnelDriver(name, session, answer_prompts=not self.user_wants_down(name))
            for line in session.greeting:
                if line.startswith(">"):
                    driver.handle(line)
            lines = session.command("state", multiline=True, on_event=driver.handle)
            st = (
                parse_state_fields(lines[-1]) if lines and not lines[0].startswith("ERROR") else driver.status
            )
            if driver.pending_prompt:
                st = VpnStatus(NEEDS_CREDENTIALS, since=time.time(), message=driver.pending_prompt)
        except (OSError, TimeoutError, EOFError):
            return VpnStatus(DISCONNECTED, since=time.time())
        finally:
            session.close()
        self.record_status(name, st)
        return st

    def is_up(self, name: str) -> bool:
        return self.status(name).is_up

    def watch(
        self, name: str, on_status: Callable[[VpnStatus], None], *, auto_reconnect: bool = True
    ) -> VpnMonitor:
        """A started :class:`VpnMonitor` for ``name``; call ``close()`` when done."""
        mon = VpnMonitor(self, name, on_status, auto_reconnect=auto_reconnect)
        mon.start()
        return mon


# ---------------------------------------------------------------------------------------------
# the live watcher (Qt-free; the UI wraps it)


class VpnMonitor:
    """Owns one profile's management connection in a thread while the app runs.

    Streams every state to ``on_status`` (from its thread), answers credential prompts, and
    restarts openvpn when it died while the user wanted the tunnel up. ``connect()`` and
    ``disconnect()`` are the user's buttons; ``disconnect`` is remembered, so nothing reconnects
    after it."""

    RECONNECT_BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0)

    def __init__(
        self,
        manager: VpnManager,
        name: str,
        on_status: Callable[[VpnStatus], None],
        *,
        auto_reconnect: bool = True,
    ) -> None:
        self.manager = manager
        self.name = name
        self.on_status = on_status
        self.auto_reconnect = auto_reconnect
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._want_connect = False
        self._session: ManagementSession | None = None
        self._driver: TunnelDriver | None = None
        self._thread = threading.Thread(target=self._run, name=f"vpn-monitor:{name}", daemon=True)
        self._lock = threading.Lock()
        self.last = VpnStatus(DISCONNECTED)
        self.seen_up = False
        self.reconnects = 0

    def start(self) -> None:
        self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        """Stop watching; a tunnel the user still wants stays up, looked after by a keeper."""
        self._stop.set()
        self._wake.set()
        with self._lock:
            if self._session is not None:
                self._session.close()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)
        with contextlib.suppress(VpnError, OSError):
            if self.manager.is_running(self.name) and not self.manager.user_wants_down(self.name):
                self.manager.spawn_keeper(self.name)

    def connect(self) -> None:
        """The user asked for the tunnel: start openvpn if needed (in the monitor's thread)."""
        self.manager._update_runtime(self.name, user_down=False, want_up=True)
        self._want_connect = True
        self._wake.set()

    def disconnect(self) -> None:
        """The user asked for the tunnel to go down: no reconnect until ``connect()``."""
        self.manager._update_runtime(self.name, user_down=True, want_up=False)
        self._want_connect = False
        with self._lock:
            session = self._session
        if session is not None:
            with contextlib.suppress(OSError):
                session.send("signal SIGTERM")
        else:
            with contextlib.suppress(VpnError):
                self.manager._stop_process(self.name)
        self._wake.set()

    def wait_down(self, timeout: float) -> bool:
        """After ``disconnect()``: wait until openvpn has exited (True) or ``timeout`` passed."""
        deadline = time.monotonic() + timeout
        while self.manager.is_running(self.name):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def credentials_changed(self) -> None:
        """Credentials were stored: answer the prompt openvpn is waiting on (if any)."""
        with self._lock:
            driver = self._driver
        if driver is not None and driver.pending_prompt:
            driver.error = None
            try:
                driver.answer_pending()
            except LabGpuError as exc:
                self._emit(VpnStatus(FAILED, since=time.time(), message=exc.text()))
        self._wake.set()

    def _emit(self, st: VpnStatus) -> None:
        if st == self.last:
            return
        self.last = st
        if st.is_up:
            self.seen_up = True
        with contextlib.suppress(VpnError, OSError):
            self.manager.record_status(self.name, st)
        try:
            self.on_status(st)
        except Exception:  # noqa: BLE001
            log.exception("VPN status listener failed")

    def _run(self) -> None:
        backoff = 0
        while not self._stop.is_set():
            try:
                running = self.manager.is_running(self.name)
                if not running:
                    wants = not self.manager.user_wants_down(self.name)
                    if self._want_connect or (self.auto_reconnect and self.seen_up and wants):
                        if not self._want_connect:
                            delay = self.RECONNECT_BACKOFF[min(backoff, len(self.RECONNECT_BACKOFF) - 1)]
                            self._emit(
                                VpnStatus(
                                    "RECONNECTING",
                                    since=time.time(),
                                    message=f"openvpn stopped; restarting in {delay:.0f} s",
                                )
                            )
                            if self._stop.wait(delay):
                                break
                            backoff += 1
                            self.reconnects += 1
                        self._want_connect = False
                        missing = self.manager.missing_credentials(self.name)
                        if missing:
                            self._emit(
                                VpnStatus(
                                    NEEDS_CREDENTIALS, since=time.time(), message=credential_labels(missing)
                                )
                            )
                            self.seen_up = False
                            continue
                        self._emit(VpnStatus(STARTING, since=time.time()))
                        self.manager._spawn(self.name)
                        running = True
                    else:
                        if self.last.state not in (DISCONNECTED, FAILED, NEEDS_CREDENTIALS):
                            self._emit(VpnStatus(DISCONNECTED, since=time.time()))
                        self._wake.wait(1.0)
                        self._wake.clear()
                        continue
                self._watch_session()
                if self.last.is_up:
                    backoff = 0
            except ManagementBusyError:
                self._stop.wait(0.5)
            except LabGpuError as exc:
                self.seen_up = False
                self._emit(VpnStatus(FAILED, since=time.time(), message=exc.one_line()))
                self._wake.wait(2.0)
                self._wake.clear()
            except Exception:  # noqa: BLE001 - the watcher must survive anything and say so
                log.exception("VPN monitor %s failed", self.name)
                self._stop.wait(2.0)

    def _watch_session(self) -> None:
        self.manager.retire_keeper(self.name)
        session = self.manager.attach(self.name, timeout=10.0)
        driver = TunnelDriver(
            self.name, session, self._emit, answer_prompts=not self.manager.user_wants_down(self.name)
        )
        with self._lock:
            if self._stop.is_set():
                session.close()
                return
            self._session, self._driver = session, driver
        failed: VpnStatus | None = None
        reached_up = self.last.is_up
        try:
            for line in session.greeting:
                if line.startswith(">"):
                    driver.handle(line)
            session.command("state on", on_event=driver.handle)
            current = session.command("state", multiline=True, on_event=driver.handle)
            if current and not current[0].startswith("ERROR"):
                st = parse_state_fields(current[-1])
                if st.state in OPENVPN_STATES:
                    driver._set(st)
            session.command("hold release", on_event=driver.handle)
            while not self._stop.is_set():
                if driver.error is not None and driver.error.code in ("VpnAuthFailed", "VpnKeyPassphrase"):
                    # Wrong credentials: stop instead of hammering the server; the user fixes them.
                    self.manager._update_runtime(self.name, want_up=False)
                    self.seen_up = False
                    session.send("signal SIGTERM")
                    if self.last.state != FAILED:
                        self._emit(VpnStatus(FAILED, since=time.time(), message=driver.error.one_line()))
                    failed = self.last
                    driver.error = None
                try:
                    line = session.read_line(1.0)
                except TimeoutError:
                    continue
                except EOFError:
                    break
                if line.startswith(">"):
                    driver.handle(line)
                    reached_up = reached_up or self.last.is_up
                    if self.last.state == FAILED:
                        failed = self.last
        except (OSError, EOFError) as exc:
            # The connection broke while talking to openvpn (it is exiting): the check below says why.
            log.info("VPN %s: management connection lost: %r", self.name, exc)
            time.sleep(0.2)
        finally:
            with self._lock:
                self._session, self._driver = None, None
            session.close()
        if not self._stop.is_set():
            time.sleep(0.05)  # let the process finish exiting before is_running() looks
            if not self.manager.is_running(self.name):
                if failed is None and not reached_up and not self.manager.user_wants_down(self.name):
                    # openvpn died before the tunnel came up: say why, in OpenVPN's own words.
                    self.seen_up = False
                    err = self.manager._exit_error(self.name)
                    failed = VpnStatus(FAILED, since=time.time(), message=err.one_line())
                # A failure stays on screen (with its next step) instead of a plain "disconnected".
                self._emit(failed or VpnStatus(DISCONNECTED, since=time.time()))


def run_keeper(manager: VpnManager, name: str) -> int:
    """The keeper's loop (see VpnManager.spawn_keeper); returns when openvpn is gone.

    Signals only set a flag and shut the socket down (so a blocking read returns at once):
    SIGUSR1 = "let go for a moment", SIGTERM = "stop"."""
    manager.is_keeper = True
    flags = {"yield": False, "stop": False}
    holder: dict[str, ManagementSession | None] = {"session": None}

    def on_signal(sig: int, _frame: object) -> None:
        flags["stop" if sig == signal.SIGTERM else "yield"] = True
        sess = holder["session"]
        if sess is not None:
            with contextlib.suppress(OSError):
                sess._sock.shutdown(socket.SHUT_RDWR)

    signal.signal(signal.SIGUSR1, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    deadline = time.monotonic() + 10
    while not manager.pid(name):
        if time.monotonic() > deadline or flags["stop"]:
            return 1
        time.sleep(0.05)

    def alive() -> bool:
        return not flags["stop"] and bool(manager.pid(name)) and not manager.user_wants_down(name)

    while alive():
        if flags["yield"]:
            flags["yield"] = False
            time.sleep(1.0)  # the other client's queued connection is accepted meanwhile
            continue
        session = None
        try:
            session = ManagementSession(manager.socket_path(name), timeout=30.0)
            holder["session"] = session
            if flags["yield"] or flags["stop"]:
                continue
            driver = TunnelDriver(name, session, lambda st: manager.record_status(name, st))
            for line in session.greeting:
                if line.startswith(">"):
                    driver.handle(line)
            session.command("state on", on_event=driver.handle)
            while alive() and not flags["yield"]:
                try:
                    line = session.read_line(1.0)
                except TimeoutError:
                    continue
                if line.startswith(">"):
                    driver.handle(line)
                if driver.error is not None and driver.error.code in ("VpnAuthFailed", "VpnKeyPassphrase"):
                    manager.record_status(
                        name, VpnStatus(FAILED, since=time.time(), message=driver.error.text())
                    )
                    return 3
        except (ManagementBusyError, ManagementClosedError, EOFError, OSError, TimeoutError):
            if not flags["yield"]:
                time.sleep(0.5)
        except LabGpuError as exc:  # keyring locked, credentials gone: record, retry later
            manager.record_status(
                name, VpnStatus(NEEDS_CREDENTIALS, since=time.time(), message=exc.one_line())
            )
            time.sleep(5.0)
        finally:
            holder["session"] = None
            if session is not None:
                session.close()
    return 0


__all__ = [
    "CONNECTED",
    "DISCONNECTED",
    "FAILED",
    "NEEDS_CREDENTIALS",
    "STARTING",
    "ManagementSession",
    "PrivilegePlan",
    "StoredProfile",
    "TunnelDriver",
    "VpnError",
    "VpnManager",
    "VpnMonitor",
    "VpnStatus",
    "diagnose_log",
    "find_openvpn",
    "parse_state_fields",
    "privilege_plan",
]
