"""The Lambda (Lambda Cloud) provider plugin: its spec and its Provider, registered in one place.

Modules: spec (extends the catalog-only spec: regions, credentials, capabilities, importer), errors (the API
reference's error codes), client (the REST API over urllib: bearer key, envelope, throttling, launch
spacing), provider (LambdaProvider: the Provider protocol), importer (LAMBDA_API_KEY).

The package is ``lambdalabs`` because ``lambda`` is a Python keyword; the provider id is "lambda".
Importing the package registers the spec only (plain data, needed at start-up); the provider code is
imported the first time a provider is made or one of the names below is used.
"""

from __future__ import annotations

from app.cloud.registry import lazy_exports, lazy_factory, register_plugin

from .spec import SPEC as SPEC

__getattr__ = lazy_exports(
    __name__,
    {
        "LambdaProvider": ".provider",
        "DOCUMENTED_ERROR_CODES": ".errors",
        "map_error": ".errors",
        "import_candidates": ".importer",
    },
)

register_plugin(SPEC, lazy_factory(__name__, ".provider", "LambdaProvider"))
