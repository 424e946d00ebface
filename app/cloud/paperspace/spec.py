"""What LabGPU needs to know about Paperspace (DigitalOcean) machines, declared once (see app.core.providers).

It EXTENDS the catalog-only spec of app.core.catalog_providers (names, billing rule, region countries)
with what the plugin adds: the regions of the current API, the API key, capabilities and the importer.

The API is Paperspace's current public API, ``https://api.paperspace.com/v1`` with the API key as a bearer
token (https://docs.digitalocean.com/reference/paperspace/api-reference/; the Core API it replaced was
retired on 15 July 2024, https://docs.digitalocean.com/reference/paperspace/core/commands/machines). It has no
SDK LabGPU could use (the official ``pspace`` CLI is a Deno program), so the plugin speaks HTTP with urllib and
no package is added: FROZEN_PACKAGES is empty.

Paperspace has no spot market; a region is its "zone" for the launch's capacity failover: the account's (or
``--region``'s) region is tried first, then the others; ``--zone ny2`` keeps a launch in that one region.
"""

from __future__ import annotations

import dataclasses

from app.core.catalog_providers import CATALOG_SPECS
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.providers import AccountField, Capabilities, CredentialField, ImporterDecl, ImportOption, ProviderSpec

PROVIDER_ID = "paperspace"
DEFAULT_REGION = "ny2"
API_URL = "https://api.paperspace.com/v1"
# The regions machines are created in (machines-create ``region``, e.g. "ny2"; the console's East Coast (NY2),
# West Coast (CA1) and Europe (AMS1)): https://docs.digitalocean.com/reference/paperspace/api-reference/
REGIONS = ("ny2", "ca1", "ams1")
# "When a machine is created, the paperspace user is provisioned"
# (https://docs.digitalocean.com/products/paperspace/accounts-and-teams/add-ssh-keys)
LOGIN_USER = "paperspace"
LAUNCH_TAG = "labgpu-launch"

FROZEN_PACKAGES: tuple[str, ...] = ()  # plain HTTP (urllib): nothing to bundle


def _catalog_spec() -> ProviderSpec:
    return next(s for s in CATALOG_SPECS if s.id == PROVIDER_ID)


STOP_NOTE = QT_TRANSLATE_NOOP(
    "LabGPU", "A stopped Paperspace machine no longer bills its hourly rate, but its disk (storage) still bills "
              "every month until the machine is deleted, and so does a static public IP.")

SPEC = dataclasses.replace(
    _catalog_spec(),
    regions=REGIONS,
    default_region=DEFAULT_REGION,
    region_pattern=r"[a-z]{2,4}[0-9]{1,2}",  # ny2, ca1, ams1: no hyphen
    # An API key alone (Team settings > API Keys); it belongs to one team, which `accounts test` names.
    credentials=(CredentialField("secret", QT_TRANSLATE_NOOP("LabGPU", "API key"), secret=True, prompt="API key"),),
    account_fields=(
        # machines-create ``publicIpType``: dynamic (a new address on every start, nothing billed while off) or
        # static (kept, and billed while the machine is off)
        AccountField("public_ip_type", QT_TRANSLATE_NOOP("LabGPU", "Public IP type"), optional=True,
                     hint=QT_TRANSLATE_NOOP("LabGPU", "dynamic (default: a new address on every start) or static"),
                     pattern="dynamic|static"),
    ),
    endpoint_hint=QT_TRANSLATE_NOOP("LabGPU", "optional: API URL, e.g. http://127.0.0.1:9000/v1"),
    tags={"launch": LAUNCH_TAG},
    capabilities=Capabilities(launch=True, spot=False, stop_without_charging=False, live_prices=False, zones=True,
                              find_by_client_token=True),
    limitations={"stop_charging": STOP_NOTE},
    account_hint="lab-paperspace",
    # The current API has no price list (its "Machine Types" section is machine availability only).
    no_public_prices=QT_TRANSLATE_NOOP("LabGPU", "its API publishes no machine prices (only availability)"),
    ssh_key_types=("ed25519", "rsa"),  # written into authorized_keys by a startup script: OpenSSH takes both
    importers=(
        ImporterDecl(
            "paperspace",
            QT_TRANSLATE_NOOP("LabGPU", "Paperspace from ~/.paperspace (pspace login) and PAPERSPACE_API_KEY"),
            "app.cloud.paperspace.importer:import_candidates",
            (ImportOption("region", "region for the imported keys (default: ny2)"),),
            help="import the pspace CLI's team API keys and PAPERSPACE_API_KEY",
            sources=(("pspace-team", QT_TRANSLATE_NOOP("LabGPU", "pspace team {name}")),),
        ),
    ),
)
