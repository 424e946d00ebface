"""The Tencent Cloud CVM provider plugin: its spec and its Provider, registered in one place.

Modules: spec (what LabGPU knows about Tencent Cloud: names, regions, billing rule, tags,
capabilities), errors (error table), client (SDK plumbing, imported lazily; reading instances),
prices (live prices), launch (the launch steps), provider (TencentProvider: the Provider protocol).

Importing the package registers the spec only (plain data, needed at start-up); the provider code
is imported the first time a provider is made or one of the names below is used.
"""

from __future__ import annotations

import importlib
from typing import Any

from app.cloud.registry import register_plugin

from .spec import SPEC as SPEC

_LAZY = {
    "TencentProvider": ".provider",
    "currency_for": ".client",
    "key_pair_name": ".client",
    "parse_endpoint": ".client",
    "DOCUMENTED_ERROR_CODES": ".errors",
    "map_error": ".errors",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


def _provider() -> Any:
    from .provider import TencentProvider

    return TencentProvider()


register_plugin(SPEC, _provider)
