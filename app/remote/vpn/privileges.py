"""Which openvpn binary to run, and how it gets the rights to create a tun device (see docs/vpn.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass

from app.core.i18n import QT_TRANSLATE_NOOP
from app.remote.vpn.states import VpnError

OPENVPN_ENV = "LABGPU_OPENVPN"


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
        QT_TRANSLATE_NOOP("LabGPU", "OpenVPN is not installed."), install_hint(), code="VpnOpenvpnMissing"
    )


def install_hint() -> str:
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
