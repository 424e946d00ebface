"""The Paperspace (DigitalOcean) machines provider plugin: its spec and its Provider, registered in one place.

Modules: spec (extends the catalog-only spec: regions, API key, capabilities), errors (the API's error codes),
client (HTTP with urllib: bearer key, paging, errors), provider (PaperspaceProvider: validate, list, launch with
region failover, start/stop/delete), importer (the pspace CLI's team keys and PAPERSPACE_API_KEY).

Importing the package registers the spec only (plain data, needed at start-up); the provider code is imported
the first time a provider is made or one of the names below is used.
"""

from __future__ import annotations

from app.cloud.registry import lazy_exports, lazy_factory, register_plugin

from .spec import SPEC as SPEC

__getattr__ = lazy_exports(
    __name__,
    {
        "PaperspaceProvider": ".provider",
        "DOCUMENTED_ERROR_CODES": ".errors",
        "map_error": ".errors",
        "import_candidates": ".importer",
    },
)

register_plugin(SPEC, lazy_factory(__name__, ".provider", "PaperspaceProvider"))
