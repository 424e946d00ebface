"""What went wrong, in words with a next step: OpenVPN's messages and log lines → VpnError."""

from __future__ import annotations

from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.remote.vpn.states import VpnError

_CREDENTIAL_LABELS = {
    "username": QT_TRANSLATE_NOOP("LabGPU", "username"),
    "password": QT_TRANSLATE_NOOP("LabGPU", "password"),
    "key_passphrase": QT_TRANSLATE_NOOP("LabGPU", "private key passphrase"),
}


def credential_labels(items: list[str]) -> str:
    """``["username", "password"]`` → "username, password" in the user's language."""
    return ", ".join(translate(_CREDENTIAL_LABELS.get(i, i)) for i in items)


def credentials_missing_error(profile: str, items: list[str]) -> VpnError:
    """Profile ``profile`` needs the credentials ``items`` (keys of the store) and has none stored."""
    return VpnError(
        QT_TRANSLATE_NOOP(
            "LabGPU", "VPN profile '{profile}' needs credentials that are not stored: {what}."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Enter it with Credentials… on the VPN page, or "
            "'labgpu vpn add {profile} FILE.ovpn --username USER --password-stdin'.",
        ),
        code="VpnCredentialsMissing",
        profile=profile,
        what=credential_labels(items),
    )


def auth_failed_error(profile: str) -> VpnError:
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


def fatal_error(message: str) -> VpnError:
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
        return auth_failed_error("?")
    if "private key" in low and ("bad decrypt" in low or "cannot load" in low):
        return VpnError(
            QT_TRANSLATE_NOOP("LabGPU", "OpenVPN could not unlock the private key."),
            QT_TRANSLATE_NOOP("LabGPU", "Enter the key passphrase again and connect again."),
            code="VpnKeyPassphrase",
        )
    return None
