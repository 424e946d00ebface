"""The one place that knows where bundled resources live (source tree, wheel, PyInstaller)."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def resources_dir() -> Path:
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root) / "resources"
    source_tree = Path(__file__).resolve().parents[2] / "resources"
    if source_tree.is_dir():
        return source_tree
    from importlib.resources import files

    return Path(str(files("labgpu_resources")))


def resource_path(*parts: str) -> Path:
    return resources_dir().joinpath(*parts)
