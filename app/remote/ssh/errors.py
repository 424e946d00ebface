"""The errors an SSH connection raises (all LabGpuError: message, next step, code)."""

from __future__ import annotations

from app.core.errors import LabGpuError


class SshError(LabGpuError):
    pass


class HostUnreachableError(SshError):
    pass


class HostAuthError(SshError):
    pass
