"""What LabGPU needs to know about Huawei Cloud ECS, declared once (see app.core.providers).

It EXTENDS the catalog-only spec of app.core.catalog_providers (names, billing rule, region countries,
the OBS storage fields) with what the ECS plugin adds: its SDK packages, the regions its accounts are
tested in, the tags it writes, its account importer and what it can do. A Huawei Cloud account is a
launchable account (ECS pay-per-use and spot) and still reaches its OBS buckets (``storage``).

Project id: an ECS request names the project of its region (``/v1/{project_id}/…`` and the
``X-Project-Id`` header the SDK adds). The account's ``project_id`` extra is used when set; otherwise the
SDK looks it up itself with IAM's KeystoneListProjects (``GET /v3/projects?name=<region>``), signed with
the same AK/SK (huaweicloudsdkcore.auth.credentials.BasicCredentials.process_auth_params).
"""

from __future__ import annotations

import dataclasses

from app.core.catalog_providers import CATALOG_SPECS
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.providers import AccountField, Capabilities, ImporterDecl, ImportOption, ProviderSpec

PROVIDER_ID = "huawei"
DEFAULT_REGION = "cn-north-4"
LAUNCH_TAG = "labgpu-launch"  # value: the launch's client token (crash recovery finds it by this)
TOKEN_TAG_KEY = "labgpu-token"  # noqa: S105 - a tag name: the X-Client-Token of this zone's attempt
LOGIN_TAG = "labgpu-ssh-user"  # the image's login user (Huawei's public Linux images: root with the key pair)
RESOURCE_TAG = "labgpu-resource"  # on the VPC and security groups LabGPU creates and reuses
LOGIN_USER = "root"
PROJECT_FIELD = "project_id"  # account.extra key: the region's project id (optional: looked up when empty)

# The SDK packages the frozen app must carry (imported lazily; packaging/spec_support.py reads this).
FROZEN_PACKAGES = ("huaweicloudsdkcore", "huaweicloudsdkecs", "huaweicloudsdkvpc", "huaweicloudsdkbss",
                   "huaweicloudsdkims", "huaweicloudsdkkps")


def _catalog_spec() -> ProviderSpec:
    return next(s for s in CATALOG_SPECS if s.id == PROVIDER_ID)


# ECS regions (Huawei Cloud "Regions and Endpoints", ECS: ecs.<region>.myhuaweicloud.com): CN North-Beijing4,
# CN East-Shanghai1, CN South-Guangzhou, CN Southwest-Guiyang1, AP-Hong Kong, AP-Singapore, AP-Bangkok.
REGIONS = ("cn-north-4", "cn-east-3", "cn-south-1", "cn-southwest-2", "ap-southeast-1", "ap-southeast-3",
           "ap-southeast-2")

# A stopped pay-per-use ECS: "basic resources (vCPUs, memory, image) are not billed; the EVS disks and the
# EIP's bandwidth still are" (Huawei Cloud ECS User Guide, "Pay-per-Use", billing of a stopped ECS;
# EIP billing: a bound EIP billed by bandwidth keeps billing while the ECS is stopped, one billed by traffic
# bills no traffic). Spot ECSs: billed at the market price for vCPUs and memory, disks and EIP pay-per-use,
# and reclaimed when capacity runs low or the market price passes the maximum
# (https://support.huaweicloud.com/intl/en-us/price-ecs/ecs_billing_2004.html); the billing documents do not
# say that a stopped spot ECS stops billing, so LabGPU does not promise it (see provider.stop).
STOP_LIMITATION = QT_TRANSLATE_NOOP(
    "LabGPU", "A stopped Huawei Cloud pay-per-use instance no longer bills its vCPUs, memory and GPUs; its disks "
              "still bill, and its EIP bills its bandwidth when the EIP is billed by bandwidth.")
SPOT_RULE = QT_TRANSLATE_NOOP(
    "LabGPU", "Huawei Cloud spot: billed at the market price up to your maximum and released without a choice "
              "when capacity runs low or the price passes the maximum. Huawei Cloud does not document that a "
              "stopped spot instance stops billing, so Stop and the guards terminate it (its disks and EIP go "
              "with it): pull what you need first.")

SPEC = dataclasses.replace(
    _catalog_spec(),
    regions=REGIONS,
    default_region=DEFAULT_REGION,
    endpoint_hint=QT_TRANSLATE_NOOP("LabGPU", "optional: host or URL, e.g. http://127.0.0.1:9000"),
    tags={"launch": LAUNCH_TAG, "token": TOKEN_TAG_KEY, "login": LOGIN_TAG},
    # launch, spot (extendparam marketType spot with spotPrice), zones (ListFlavorSellPolicies), live prices
    # (BSS ListOnDemandResourceRatings), a launch found again by its tags; storage: its OBS buckets
    capabilities=Capabilities(storage=True, launch=True, spot=True, zones=True, live_prices=True,
                              find_by_client_token=True),
    limitations={"stop_charging": STOP_LIMITATION},
    account_hint="lab-huawei",
    # The region's project id (My Credentials > API Credentials lists one per region: 32 hexadecimal digits);
    # optional: the SDK looks it up with IAM KeystoneListProjects when it is empty
    account_fields=(AccountField(
        PROJECT_FIELD, QT_TRANSLATE_NOOP("LabGPU", "Project ID"), optional=True,
        hint=QT_TRANSLATE_NOOP("LabGPU", "optional: looked up for the region when empty"),
        pattern=r"[0-9a-fA-F]{32}"),),
    # KPS CreateKeypair imports an OpenSSH public key (huaweicloudsdkkps CreateKeypairAction.public_key, "the
    # imported public key"); RSA is the type LabGPU registers: the documents at hand name no other type it takes
    ssh_key_types=("rsa",),
    spot_rule=SPOT_RULE,
    importers=(
        ImporterDecl(
            "huawei",
            QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud from KooCLI's ~/.hcloud/config.json and HUAWEICLOUD_SDK_* "
                                        "variables"),
            "app.cloud.huawei.importer:import_candidates",
            (ImportOption("region", "region for profiles that name none (default: cn-north-4)"),),
            help="import KooCLI's (hcloud) AK/SK profiles and HUAWEICLOUD_SDK_AK/SK",
            sources=(("hcloud-profile", QT_TRANSLATE_NOOP("LabGPU", "KooCLI profile {name}")),),
        ),
    ),
)
