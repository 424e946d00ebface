"""The errors an SSH connection raises (all LabGpuError: message, next step, code)."""

from __future__ import annotations

from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP


class SshError(LabGpuError):
    pass


class HostUnreachableError(SshError):
    pass


class NameNotResolvedError(HostUnreachableError):
    """The host name does not resolve (no such name: a typo, or a name that exists only elsewhere).
    Permanent: asking again gives the same answer, so a sync fails at once instead of retrying."""


class HostAuthError(SshError):
    pass


def name_not_resolved_error(name: str, why: str) -> NameNotResolvedError:
    return NameNotResolvedError(
        QT_TRANSLATE_NOOP("LabGPU", "The host name {name} does not resolve to an address ({why})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Check the host name in the SSH command for a typo, or use the server's IP address. A name "
            "that exists only inside a VPN needs the host added with that VPN.",
        ),
        code="NameNotResolved",
        name=name,
        why=why,
    )
