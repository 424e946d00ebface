"""The Alibaba Cloud ECS provider plugin: its spec and its Provider, registered in one place.

Modules: spec (names, regions, billing rule, tags, capabilities), errors (error table), client (SDK
plumbing, imported lazily; reading instances and zones), prices (live prices and the spot price
history), launch (network, key pair, image, RunInstances), provider (AlibabaProvider: the Provider
protocol), importer (accounts from the Alibaba CLI's config and the ALIBABA_CLOUD_* variables).

Importing the package registers the spec only (plain data, needed at start-up); the provider code
and the SDK are imported the first time a provider is made or one of the names below is used.
"""

from __future__ import annotations

from app.cloud.registry import lazy_exports, lazy_factory, register_plugin

from .spec import SPEC as SPEC
from .spec import SPOT_NOTICE as SPOT_NOTICE

__getattr__ = lazy_exports(
    __name__,
    {
        "AlibabaProvider": ".provider",
        "parse_endpoint": ".client",
        "DOCUMENTED_ERROR_CODES": ".errors",
        "map_error": ".errors",
        "import_candidates": ".importer",
    },
)

register_plugin(SPEC, lazy_factory(__name__, ".provider", "AlibabaProvider"))
