"""The Microsoft Azure virtual machines provider plugin: its spec and its Provider, registered in one place.

Modules: spec (extends the catalog-only spec: regions, SDK packages, capabilities, account fields),
errors (the ARM and Entra ID error table), client (SDK plumbing, imported lazily: the service principal's
credential, the ARM clients, errors mapped, long-running operations waited for; reading VMs and zones),
launch (resource group, network, NIC, VM), provider (AzureProvider: the Provider protocol), importer
(accounts from the Azure CLI's service-principal environment variables).

Importing the package registers the spec only (plain data, needed at start-up); the provider code and
the SDK are imported the first time a provider is made or one of the names below is used.
"""

from __future__ import annotations

from app.cloud.registry import lazy_exports, lazy_factory, register_plugin

from .spec import SPEC as SPEC

__getattr__ = lazy_exports(
    __name__,
    {
        "AzureProvider": ".provider",
        "DOCUMENTED_ERROR_CODES": ".errors",
        "map_error": ".errors",
        "import_candidates": ".importer",
    },
)

register_plugin(SPEC, lazy_factory(__name__, ".provider", "AzureProvider"))
