"""The Tencent Cloud CVM provider plugin: its spec and its Provider, registered in one place.

Modules: spec (what LabGPU knows about Tencent Cloud: names, regions, billing rule, tags,
capabilities), errors (error table), client (SDK plumbing, imported lazily; reading instances),
prices (live prices), launch (the launch steps), provider (TencentProvider: the Provider protocol).

Importing the package registers the spec only (plain data, needed at start-up); the provider code
is imported the first time a provider is made or one of the names below is used.
"""

from __future__ import annotations

from app.cloud.registry import lazy_exports, lazy_factory, register_plugin

from .spec import SPEC as SPEC

__getattr__ = lazy_exports(
    __name__,
    {
        "TencentProvider": ".provider",
        "currency_for": ".client",
        "key_pair_name": ".client",
        "parse_endpoint": ".client",
        "DOCUMENTED_ERROR_CODES": ".errors",
        "map_error": ".errors",
    },
)

register_plugin(SPEC, lazy_factory(__name__, ".provider", "TencentProvider"))
