"""The local side of an SSH sync: core's local tree (:mod:`app.core.localtree`) with this engine's errors."""

from __future__ import annotations

from app.core.localtree import LocalRoot as _LocalRoot
from app.core.localtree import list_local, local_umask, sha256_file

from .errors import SyncError

__all__ = ["LocalRoot", "list_local", "local_umask", "sha256_file"]


class LocalRoot(_LocalRoot):
    error_class = SyncError
