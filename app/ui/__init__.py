"""The Qt window and tray. Importing this package first makes PySide6's import hook cheaper (see below).

PySide6 asks of every module imported after it whether the module uses PySide6, by reading its source with
``inspect.getsource`` (shibokensupport.feature._mod_uses_pyside, PYSIDE-2029). inspect keeps every source read
in ``linecache`` for the life of the process: about 5 MiB of the tray's memory, spent on files no traceback
needs, and clearing the cache later gives none of it back. :func:`_read_sources_without_caching` answers the
same question from the file's bytes, which are dropped at once; a module without a ``.py`` file (a frozen
build's, a builtin) still goes to PySide's own answer.
"""

from __future__ import annotations

import sys
from types import ModuleType


def _read_sources_without_caching() -> None:
    import shiboken6  # noqa: F401 - loads shibokensupport.feature, whose hook is replaced here

    feature = sys.modules.get("shibokensupport.feature")
    upstream = getattr(feature, "_mod_uses_pyside", None)
    if feature is None or upstream is None or getattr(upstream, "labgpu", False):
        return  # another PySide6 than the one read: keep its own

    def mod_uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return bool(upstream(module))
        try:
            with open(path, "rb") as fh:
                return b"PySide6" in fh.read()
        except OSError:
            return bool(upstream(module))

    mod_uses_pyside.labgpu = True  # type: ignore[attr-defined]
    setattr(feature, "_mod_uses_pyside", mod_uses_pyside)  # noqa: B010 - a module attribute mypy cannot see


_read_sources_without_caching()
