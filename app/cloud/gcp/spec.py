"""What LabGPU needs to know about Google Cloud Compute Engine, declared once (see app.core.providers).

It EXTENDS the catalog-only spec of app.core.catalog_providers (names, billing rule, region countries)
with what the Compute Engine plugin adds: credentials, regions, tags, capabilities, the importer.

Credentials: a service-account JSON key, kept whole in the keyring as the secret (never written to a
file by LabGPU); the key id is its ``client_email``. The project is the key's ``project_id`` unless the
account's ``project`` setting names another. An optional API key (the Cloud Billing Catalog API's
``key=`` parameter) is kept in the keyring too, as the session-token credential: with it, prices are read
live; without it, from the bundled catalog.
"""

from __future__ import annotations

import dataclasses

from app.core.catalog_providers import CATALOG_SPECS
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.providers import AccountField, Capabilities, CredentialField, ImporterDecl, ImportOption, ProviderSpec

PROVIDER_ID = "gcp"
DEFAULT_REGION = "us-central1"
LOGIN_USER = "labgpu"  # the user the ssh-keys metadata entry creates on the instance ("USER:KEY")
LAUNCH_LABEL = "labgpu-launch"  # value: the launch's client token (crash recovery finds it by this)
TOKEN_LABEL = "labgpu-token"  # noqa: S105 - a label name: the token of this zone's attempt
KEY_LABEL = "labgpu-key"  # LabGPU's cloud name of the SSH key (app.core.hosts.own_key_file finds the file)
PROJECT_FIELD = "project"  # account.extra: a project other than the key's project_id

# The SDK packages the frozen app must carry (imported lazily; packaging/spec_support.py reads this).
FROZEN_PACKAGES = ("google.cloud.compute_v1", "google.api_core", "google.auth", "google.oauth2", "proto",
                   "google.protobuf", "google.rpc", "google.type", "grpc")


def _catalog_spec() -> ProviderSpec:
    return next(s for s in CATALOG_SPECS if s.id == PROVIDER_ID)


# Compute Engine regions with GPUs (https://cloud.google.com/compute/docs/gpus/gpu-regions-zones).
REGIONS = ("us-central1", "us-east1", "us-east4", "us-west1", "us-west4", "europe-west4", "europe-west1",
           "asia-east1", "asia-northeast1", "asia-southeast1")

SPOT_RULE = QT_TRANSLATE_NOOP(
    "LabGPU",
    "Google Cloud has no price cap for Spot VMs: it bills the current Spot price, and LabGPU's spot maximum is "
    "not sent. When Google Cloud needs the capacity back it stops the VM (instanceTerminationAction STOP): a "
    "stopped VM bills its disks only; start it again later.",
)

SPEC = dataclasses.replace(
    _catalog_spec(),
    regions=REGIONS,
    default_region=DEFAULT_REGION,
    credentials=(
        CredentialField("key_id", QT_TRANSLATE_NOOP("LabGPU", "Service account e-mail (client_email)"),
                        prompt="Service account e-mail (client_email)"),
        CredentialField("secret", QT_TRANSLATE_NOOP("LabGPU", "Service-account key (JSON)"),
                        secret=True, prompt="Service-account key (JSON)", multiline=True),
        CredentialField("session_token", QT_TRANSLATE_NOOP("LabGPU", "API key for live prices (optional)"),
                        secret=True, optional=True,
                        hint=QT_TRANSLATE_NOOP("LabGPU", "Cloud Billing Catalog API key; empty: bundled prices")),
    ),
    # https://cloud.google.com/resource-manager/docs/creating-managing-projects: a project id is 6 to 30 lowercase
    # letters, digits or hyphens, starting with a letter, not ending with a hyphen
    account_fields=(AccountField(PROJECT_FIELD, QT_TRANSLATE_NOOP("LabGPU", "Project ID"), optional=True,
                                 hint=QT_TRANSLATE_NOOP("LabGPU", "empty: the key's project_id"),
                                 pattern=r"[a-z][a-z0-9-]{4,28}[a-z0-9]"),),
    endpoint_hint=QT_TRANSLATE_NOOP("LabGPU", "optional: Compute API URL, e.g. http://127.0.0.1:9000"),
    tags={"launch": LAUNCH_LABEL, "token": TOKEN_LABEL},
    capabilities=Capabilities(launch=True, spot=True, stop_without_charging=False, live_prices=True, zones=True,
                              find_by_client_token=True),
    limitations={
        "stop_charging": QT_TRANSLATE_NOOP(
            "LabGPU", "A stopped Compute Engine VM bills no vCPU, memory or GPU; its persistent disks and any "
                      "static IP address still bill."),
    },
    account_hint="lab-gcp",
    # ssh-keys metadata takes OpenSSH public keys (https://cloud.google.com/compute/docs/connect/add-ssh-keys)
    ssh_key_types=("ed25519", "rsa", "ecdsa"),
    spot_rule=SPOT_RULE,
    importers=(
        ImporterDecl(
            "gcp",
            QT_TRANSLATE_NOOP("LabGPU", "Google Cloud service-account key from GOOGLE_APPLICATION_CREDENTIALS"),
            "app.cloud.gcp.importer:import_candidates",
            (ImportOption("region", "region for the account (default: us-central1)"),),
            help="import the service-account JSON key file named by GOOGLE_APPLICATION_CREDENTIALS",
            sources=(("gcp-key-file", QT_TRANSLATE_NOOP("LabGPU", "Service-account key file {name}")),),
        ),
    ),
)
