"""The Google Cloud Compute Engine provider plugin: its spec and its Provider, registered in one place.

Modules: spec (extends the catalog-only spec: credentials, regions, capabilities, importer), errors (error
table), keyfile (the service-account key: parsed, never written), client (SDK plumbing, imported lazily;
operations, instances, zones), launch (firewall rule, image, instances.insert), prices (the Cloud Billing
Catalog API, or the bundled catalog), provider (GcpProvider: the Provider protocol), importer (the key
file named by GOOGLE_APPLICATION_CREDENTIALS).

Importing the package registers the spec only (plain data, needed at start-up); the provider code and the
SDK are imported the first time a provider is made or one of the names below is used.
"""

from __future__ import annotations

from app.cloud.registry import lazy_exports, lazy_factory, register_plugin

from .spec import SPEC as SPEC

__getattr__ = lazy_exports(
    __name__,
    {
        "GcpProvider": ".provider",
        "DOCUMENTED_ERROR_CODES": ".errors",
        "map_error": ".errors",
        "import_candidates": ".importer",
    },
)

register_plugin(SPEC, lazy_factory(__name__, ".provider", "GcpProvider"))
