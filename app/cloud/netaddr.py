"""Who may reach port 22: the user's current public address, or a range they name.

A launch never opens SSH to the world: when the address cannot be found (offline, a private
endpoint, a proxy that blocks the lookup) and no --ssh-from is given, it fails at once.
"""

from __future__ import annotations

import ipaddress
import logging
import os

from app.core.errors import InputError, LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP

log = logging.getLogger(__name__)

# Plain-text "what is my IP" services (the first is AWS's own). LABGPU_PUBLIC_IP_URLS overrides
# (comma-separated), e.g. for a lab behind a proxy, or for tests.
DEFAULT_URLS = ("https://checkip.amazonaws.com", "https://api.ipify.org", "https://ifconfig.me/ip")
MIN_PREFIX = {4: 8, 6: 32}  # broader than this is "the world" for SSH purposes


class PublicAddressError(LabGpuError):
    pass


def _urls() -> list[str]:
    env = os.environ.get("LABGPU_PUBLIC_IP_URLS", "").strip()
    return [u.strip() for u in env.split(",") if u.strip()] if env else list(DEFAULT_URLS)


def public_address(timeout: float = 4.0) -> str:
    """The address the internet sees for this computer (tries each lookup service once)."""
    import urllib.error  # with ssl and http.client: ~6 MiB that only a launch asking for the address needs
    import urllib.request

    reasons = []
    for url in _urls():
        if not url.startswith(("https://", "http://")):
            continue
        try:
            with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310 - http(s) only, checked above
                text = resp.read(200).decode("ascii", "replace").strip()
            addr = ipaddress.ip_address(text)
        except (OSError, ValueError, urllib.error.URLError) as exc:
            reasons.append(f"{url}: {type(exc).__name__}")
            continue
        if addr.is_unspecified or addr.is_loopback or addr.is_multicast:
            reasons.append(f"{url}: answered {addr}")
            continue
        return str(addr)
    log.info("public address lookup failed: %s", "; ".join(reasons))
    raise PublicAddressError(
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "LabGPU could not find your public IP address ({reason}), so it will not open SSH to the world.",
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Enter the address or VPN range allowed to connect (on the command line: "
            "--ssh-from 203.0.113.7/32), or check your internet connection.",
        ),
        code="PublicAddressUnknown",
        reason="; ".join(reasons) or "no lookup service configured",
    )


def validate_cidr(text: str) -> str:
    """Normalise ``text`` (an address or a CIDR range) and refuse ranges that are the whole internet."""
    raw = (text or "").strip()
    try:
        net = ipaddress.ip_network(raw, strict=False)
    except ValueError:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "'{cidr}' is not an address or CIDR range."),
            QT_TRANSLATE_NOOP("LabGPU", "Use a form such as 203.0.113.7/32 or 10.8.0.0/24."),
            code="BadCidr",
            cidr=raw,
        ) from None
    if net.prefixlen < MIN_PREFIX[net.version]:
        raise InputError(
            QT_TRANSLATE_NOOP(
                "LabGPU", "LabGPU will not open SSH to {cidr}: that is (almost) the whole internet."
            ),
            QT_TRANSLATE_NOOP("LabGPU", "Give your own address (/32) or your VPN's range instead."),
            code="CidrTooBroad",
            cidr=str(net),
        )
    return str(net)


def ssh_source_cidr(given: str = "") -> str:
    """The CIDR for the SSH rule: ``given`` if any, else this computer's public address as /32 (/128)."""
    if given:
        return validate_cidr(given)
    addr = ipaddress.ip_address(public_address())
    return f"{addr}/{32 if addr.version == 4 else 128}"
