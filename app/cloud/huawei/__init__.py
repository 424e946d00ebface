"""The Huawei Cloud ECS provider plugin: its spec and its Provider, registered in one place.

Modules: spec (extends the catalog-only spec: regions, SDK packages, tags, capabilities, importer), errors
(error table), client (SDK plumbing, imported lazily; reading servers and zones), prices (BSS live prices),
launch (network, key pair, image, CreatePostPaidServers and its job), provider (HuaweiProvider: the Provider
protocol), importer (accounts from KooCLI's config and the HUAWEICLOUD_SDK_* variables).

Importing the package registers the spec only (plain data, needed at start-up); the provider code and
the SDK are imported the first time a provider is made or one of the names below is used.
"""

from __future__ import annotations

from app.cloud.registry import lazy_exports, lazy_factory, register_plugin

from .spec import SPEC as SPEC

__getattr__ = lazy_exports(
    __name__,
    {
        "HuaweiProvider": ".provider",
        "parse_endpoint": ".client",
        "DOCUMENTED_ERROR_CODES": ".errors",
        "map_error": ".errors",
        "import_candidates": ".importer",
    },
)

register_plugin(SPEC, lazy_factory(__name__, ".provider", "HuaweiProvider"))
