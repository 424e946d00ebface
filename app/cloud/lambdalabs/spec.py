"""What LabGPU needs to know about Lambda (Lambda Cloud, formerly Lambda Labs), declared once (see
app.core.providers).

It EXTENDS the catalog-only spec of app.core.catalog_providers (names, billing rule, region countries,
why no public price list) with what the plugin adds. The provider id stays "lambda" (the catalog's, the
CLI's: ``labgpu accounts add lambda NAME``); the package is ``lambdalabs`` because ``lambda`` is a Python
keyword.

Everything here follows the Lambda Cloud API's OpenAPI document, version 1.8.3 ("Lambda Cloud API",
https://cloud.lambda.ai/api/v1/docs, browsable at https://docs-api.lambda.ai/api/cloud; cited below as
"the API reference"):

- One global endpoint, ``https://cloud.lambda.ai/`` (``https://cloud.lambdalabs.com/`` is the deprecated
  secondary server); the paths are under ``/api/v1``.
- An API key authenticates every request, "In general, Lambda recommends passing an HTTP Bearer header":
  ``Authorization: Bearer <api key>`` (HTTP Basic with the key as user name is accepted for curl's -u).
  The key is the account's only credential (no key id), kept in the keyring alone.
- No stop: an instance runs until it is terminated (the API has launch, restart and terminate only), so
  Stop and the guards end its bill by terminating it, after the guards' pull (see provider.stop).
- No spot market, no zones: a launch names a region (``region_name``); LabGPU lists the regions with
  capacity for the type as the places a launch may go ("zones" to CloudService), the account's region first.
- Prices: ``GET /instance-types`` gives ``price_cents_per_hour`` per type, the same in every region, and the
  ``regions_with_capacity_available``.
"""

from __future__ import annotations

import dataclasses

from app.core.catalog_providers import CATALOG_SPECS
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.providers import AccountField, Capabilities, CredentialField, ImporterDecl, ImportOption, ProviderSpec

PROVIDER_ID = "lambda"
DEFAULT_REGION = "us-east-1"
DEFAULT_ENDPOINT = "https://cloud.lambda.ai"  # the API reference's "Production server"
API_PREFIX = "/api/v1"
LAUNCH_TAG = "labgpu-launch"  # tag on the instance: the launch's client token (crash recovery finds it)
TOKEN_TAG_KEY = "labgpu-token"  # noqa: S105 - a tag name: this region attempt's token
LOGIN_USER = "ubuntu"  # Lambda's images (Lambda Stack on Ubuntu) log in as ubuntu
# The bundled catalog's region of every Lambda row: a type has one price in all regions (the API's
# InstanceType carries one price_cents_per_hour), so the live offer replaces exactly that row.
ALL_REGIONS = "all regions"
# Account setting (account.extra, not a secret): the name of a persistent file system to attach at launch
FILE_SYSTEM_EXTRA = "file_system"

# No SDK: the plugin speaks the REST API with the standard library (urllib), so nothing extra is frozen.
FROZEN_PACKAGES: tuple[str, ...] = ()

# PublicRegionCode, the API reference's enum of region names (version 1.8.3).
REGIONS = ("us-east-1", "us-east-2", "us-east-3", "us-west-1", "us-west-2", "us-west-3", "us-south-1",
           "us-south-2", "us-south-3", "us-midwest-1", "us-midwest-2", "europe-central-1", "asia-south-1",
           "asia-northeast-1", "asia-northeast-2", "australia-east-1", "me-west-1")


def _catalog_spec() -> ProviderSpec:
    return next(s for s in CATALOG_SPECS if s.id == PROVIDER_ID)


STOP_IS_TERMINATE = QT_TRANSLATE_NOOP(
    "LabGPU", "Lambda has no stop: an instance bills until it is terminated, and terminating deletes its disk")

SPEC = dataclasses.replace(
    _catalog_spec(),
    regions=REGIONS,
    default_region=DEFAULT_REGION,
    region_countries=_catalog_spec().region_countries + (("asia-northeast-2", "KR"), ("australia-", "AU")),
    # An API key alone (no key id): `labgpu accounts add lambda NAME` reads one line, the key.
    credentials=(CredentialField("secret", QT_TRANSLATE_NOOP("LabGPU", "API key"), secret=True, prompt="API key"),),
    account_fields=(
        AccountField(FILE_SYSTEM_EXTRA, QT_TRANSLATE_NOOP("LabGPU", "Persistent file system"), optional=True,
                     hint=QT_TRANSLATE_NOOP("LabGPU", "optional: its name; launches then go to its region")),
    ),
    endpoint_hint=QT_TRANSLATE_NOOP("LabGPU", "optional: https URL, e.g. https://cloud.lambda.ai"),
    tags={"launch": LAUNCH_TAG, "token": TOKEN_TAG_KEY},
    capabilities=Capabilities(
        launch=True, spot=False, stop_without_charging=False, live_prices=True, console_fingerprints=False,
        zones=True, find_by_client_token=True, spot_price_history=False, stop_terminates=True,
    ),
    limitations={
        "stop": STOP_IS_TERMINATE,
        "spot": QT_TRANSLATE_NOOP("LabGPU", "Lambda sells no spot instances."),
    },
    account_hint="lab-lambda",
    # The API reference's AddSSHKeyRequest example is an ed25519 key; RSA keys are taken too.
    ssh_key_types=("ed25519", "rsa"),
    importers=(
        ImporterDecl(
            "lambda",
            QT_TRANSLATE_NOOP("LabGPU", "Lambda from the LAMBDA_API_KEY variable"),
            "app.cloud.lambdalabs.importer:import_candidates",
            (ImportOption("region", "region of the account (default: us-east-1)"),),
            help="import the API key in LAMBDA_API_KEY (the variable Lambda's API reference uses)",
        ),
    ),
)
