"""What LabGPU needs to know about Azure virtual machines, declared once (see app.core.providers).

It EXTENDS the catalog-only spec of app.core.catalog_providers (names, billing rule, region countries)
with what the plugin adds: its SDK packages, regions, credentials, capabilities and limitations.

Credentials: a service principal (Microsoft Entra application) — its client (application) id is the
key id, its client secret the secret (both in the keyring). The tenant (directory) id and the
subscription id are account settings (``account.extra["tenant_id"]``, ``["subscription_id"]``): not
secrets. The names follow azure-identity's EnvironmentCredential (AZURE_TENANT_ID, AZURE_CLIENT_ID,
AZURE_CLIENT_SECRET) and the Azure CLI (AZURE_SUBSCRIPTION_ID).
"""

from __future__ import annotations

import dataclasses

from app.core.catalog_providers import CATALOG_SPECS
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.providers import (
    AccountField,
    Capabilities,
    CredentialField,
    ImporterDecl,
    ImportOption,
    ProviderSpec,
    SpotNoticeSource,
)

PROVIDER_ID = "azure"
DEFAULT_REGION = "eastus"
LAUNCH_TAG = "labgpu-launch"  # value: the launch's client token (crash recovery finds it by this)
TOKEN_TAG_KEY = "labgpu-token"  # noqa: S105 - a tag name: the client token of this zone's attempt
RESOURCE_TAG = "labgpu-resource"  # on the resource group, VNet, NSG, NIC and public IP LabGPU creates
LOGIN_USER = "azureuser"  # the admin user LabGPU creates with the SSH key (Azure refuses "root", "admin")

# The SDK packages the frozen app must carry (imported lazily; packaging/spec_support.py reads this).
FROZEN_PACKAGES = (
    "azure.identity", "azure.core", "azure.mgmt.core", "azure.mgmt.compute", "azure.mgmt.network",
    "azure.mgmt.resource", "msal", "jwt", "isodate",
)


def _catalog_spec() -> ProviderSpec:
    return next(s for s in CATALOG_SPECS if s.id == PROVIDER_ID)


# Regions with GPU sizes LabGPU's catalog lists, and the big ones (any other region name may be typed).
REGIONS = ("eastus", "eastus2", "westus2", "westus3", "southcentralus", "northcentralus", "westeurope",
           "northeurope", "swedencentral", "uksouth", "francecentral", "japaneast", "koreacentral",
           "southeastasia", "eastasia", "australiaeast", "centralindia", "canadacentral")

STOP_RULE = QT_TRANSLATE_NOOP(
    "LabGPU",
    "Stop deallocates the Azure VM: its compute stops billing; its OS disk and its static public IP address "
    "still bill. A VM only powered off from inside (shutdown) or with 'Power off' keeps billing the full "
    "compute price.")

GUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
# Resource group names: 1-90 letters, digits, underscores, parentheses, hyphens and periods, not ending in a period
# (https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/resource-name-rules#microsoftresources).
RESOURCE_GROUP = r"[-\w.()]{0,89}[-\w()]"

ACCOUNT_FIELDS = (
    # a tenant is its GUID or one of its domain names (contoso.onmicrosoft.com): azure-identity takes both
    AccountField("tenant_id", QT_TRANSLATE_NOOP("LabGPU", "Directory (tenant) ID"),
                 hint=QT_TRANSLATE_NOOP("LabGPU", "the app registration's Overview page, or az account show"),
                 pattern=GUID + r"|[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+"),
    AccountField("subscription_id", QT_TRANSLATE_NOOP("LabGPU", "Subscription ID"),
                 hint=QT_TRANSLATE_NOOP("LabGPU", "the portal's Subscriptions page"), pattern=GUID),
    AccountField("resource_group", QT_TRANSLATE_NOOP("LabGPU", "Resource group"), optional=True,
                 hint=QT_TRANSLATE_NOOP("LabGPU", "optional: default labgpu-<region>, made on first launch"),
                 pattern=RESOURCE_GROUP),
    AccountField("prices_endpoint", QT_TRANSLATE_NOOP("LabGPU", "Retail Prices API address"), optional=True,
                 hint=QT_TRANSLATE_NOOP("LabGPU", "optional: default https://prices.azure.com/api/retail/prices"),
                 pattern=r"https?://\S+"),
)

# How a Spot VM hears of its eviction: the Instance Metadata Service's Scheduled Events, asked with the header
# "Metadata: true" (refused without it); an eviction is an event of type Preempt with at least 30 s notice, its
# NotBefore an RFC 1123 time ("Scheduled Events for Linux VMs",
# https://learn.microsoft.com/en-us/azure/virtual-machines/linux/scheduled-events: "Preempt: The Spot Virtual
# Machine is being deleted"; the query example with api-version=2020-07-01). The VM is deallocated (LabGPU sets
# the eviction policy Deallocate).
SPOT_NOTICE = SpotNoticeSource("http://169.254.169.254/metadata/scheduledevents?api-version=2020-07-01",
                               format="azure-scheduled-events", header="Metadata: true", action="stop")

SPEC = dataclasses.replace(
    _catalog_spec(),
    regions=REGIONS,
    default_region=DEFAULT_REGION,
    # Azure location names: lower-case letters and digits, no hyphens (eastus, westus2, swedencentral; `az account
    # list-locations -o table`, the Name column)
    region_pattern=r"[a-z][a-z0-9]{3,}",
    credentials=(
        CredentialField("key_id", QT_TRANSLATE_NOOP("LabGPU", "Client (application) ID"),
                        prompt="Client (application) ID"),
        CredentialField("secret", QT_TRANSLATE_NOOP("LabGPU", "Client secret"), secret=True,
                        prompt="Client secret"),
    ),
    account_fields=ACCOUNT_FIELDS,
    endpoint_hint=QT_TRANSLATE_NOOP("LabGPU", "optional: https URL of an Azure Resource Manager and sign-in "
                                              "proxy, e.g. https://127.0.0.1:8443"),
    tags={"launch": LAUNCH_TAG, "token": TOKEN_TAG_KEY},
    capabilities=Capabilities(
        launch=True, spot=True, stop_without_charging=False, live_prices=True, zones=True,
        find_by_client_token=True,
    ),
    limitations={
        "stop_charging": STOP_RULE,
    },
    spot_notice=SPOT_NOTICE,
    account_hint="lab-azure",
    # Azure takes RSA public keys for Linux VMs (ssh-rsa, at least 2048 bits) and, since 2022, Ed25519
    # (https://learn.microsoft.com/en-us/azure/virtual-machines/linux/mac-create-ssh-keys, "Supported SSH key
    # formats"); RSA first: every image takes it.
    ssh_key_types=("rsa", "ed25519"),
    spot_rule=STOP_RULE,
    importers=(
        ImporterDecl(
            "azure",
            QT_TRANSLATE_NOOP("LabGPU", "Azure service principal from AZURE_* variables"),
            "app.cloud.azure.importer:import_candidates",
            (ImportOption("region", "region for the account (default: eastus)"),
             ImportOption("name", "account name (default: azure-<subscription>)")),
            help="import the service principal of AZURE_TENANT_ID, AZURE_CLIENT_ID, AZURE_CLIENT_SECRET and "
                 "AZURE_SUBSCRIPTION_ID (the Azure CLI's and azure-identity's variables)",
            sources=(("azure-env", QT_TRANSLATE_NOOP("LabGPU", "Azure environment variables {name}")),),
        ),
    ),
)
