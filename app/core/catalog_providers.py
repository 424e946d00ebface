"""Specs of the clouds LabGPU lists in the offers catalog but does not launch on (no plugin).

Billing rules: see the sources in app/core/costs.py's docstring. Region → country pairs are used by
the advisor's "in my country" step.
"""

from __future__ import annotations

from typing import Any

from .i18n import QT_TRANSLATE_NOOP
from .providers import BillingRule, Capabilities, CredentialField, ProviderSpec

# A billing rule without its provider: increment (s, None = unknown), minimum (s), settlement,
# sentence (QT_TRANSLATE_NOOP), source URL.
Rule = tuple[int | None, int, str, str, str]


def _listed(pid: str, names: tuple[str, str], currency: str, rule: Rule, countries: tuple[tuple[str, str], ...],
            order: int, no_public_prices: str = "", **more: Any) -> ProviderSpec:
    """A catalog-only provider: English and Chinese names, its billing rule and region countries (and,
    in ``more``, what a storage-only provider's accounts need: capabilities, credentials, regions)."""
    return ProviderSpec(pid, names[0], names[1], currency, BillingRule(pid, *rule), region_countries=countries,
                        no_public_prices=no_public_prices, order=order, **more)


# Huawei Cloud: LabGPU does not launch there, but OBS buckets (obs://) are sync targets, so an account
# with an access key (AK/SK, Huawei Cloud "My Credentials > Access Keys") is kept for them. The regions
# are OBS regions whose endpoints are obs.<region>.myhuaweicloud.com (Huawei Cloud "Regions and
# Endpoints", OBS): CN North-Beijing4, CN East-Shanghai1, CN South-Guangzhou, CN Southwest-Guiyang1,
# AP-Hong Kong, AP-Singapore.
HUAWEI_STORAGE: dict[str, Any] = {
    "capabilities": Capabilities(storage=True),
    "regions": ("cn-north-4", "cn-east-3", "cn-south-1", "cn-southwest-2", "ap-southeast-1", "ap-southeast-3"),
    "default_region": "cn-north-4",
    "credentials": (
        CredentialField("key_id", QT_TRANSLATE_NOOP("LabGPU", "Access key ID (AK)"), prompt="Access key ID (AK)"),
        CredentialField("secret", QT_TRANSLATE_NOOP("LabGPU", "Secret access key (SK)"), secret=True,
                        prompt="Secret access key (SK)"),
    ),
    "account_hint": "obs-lab",
    "limitations": {"launch": QT_TRANSLATE_NOOP(
        "LabGPU", "LabGPU does not launch on Huawei Cloud: its accounts are for OBS buckets only.")},
}


CATALOG_SPECS: tuple[ProviderSpec, ...] = (
    _listed("azure", (QT_TRANSLATE_NOOP("LabGPU", "Azure"), ""), "USD",
            (1, 0, "", QT_TRANSLATE_NOOP("LabGPU", "Azure bills virtual machines per second of use."),
             "https://azure.microsoft.com/pricing/details/virtual-machines/linux/"),
            (("china", "CN"), ("eastus", "US"), ("westus", "US"), ("centralus", "US"),
             ("southcentralus", "US"), ("northcentralus", "US"), ("westcentralus", "US"),
             ("eastasia", "HK"), ("southeastasia", "SG"), ("japan", "JP"), ("korea", "KR"),
             ("uk", "GB"), ("northeurope", "IE"), ("westeurope", "NL"), ("germany", "DE"),
             ("swedencentral", "SE"), ("francecentral", "FR"), ("centralindia", "IN"),
             ("australia", "AU"), ("canada", "CA")),
            20),
    _listed("gcp", (QT_TRANSLATE_NOOP("LabGPU", "Google Cloud"), "谷歌云"), "USD",
            (1, 60, "", QT_TRANSLATE_NOOP("LabGPU", "Google Cloud bills per second, after a one-minute minimum."),
             "https://cloud.google.com/compute/vm-instance-pricing"),
            (("us-", "US"), ("asia-east2", "HK"), ("asia-southeast1", "SG"), ("asia-northeast1", "JP"),
             ("asia-northeast3", "KR"), ("asia-south1", "IN"), ("europe-west3", "DE"),
             ("europe-west2", "GB"), ("europe-west4", "NL"), ("europe-west9", "FR"),
             ("australia-", "AU"), ("northamerica-", "CA")),
            30, QT_TRANSLATE_NOOP("LabGPU", "the Cloud Billing Catalog API needs an API key")),
    _listed("huawei", (QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud"), "华为云"), "CNY",
            (1, 0, "hourly",
             QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud bills pay-per-use per second and settles every hour."),
             "https://support.huaweicloud.com/ecs/"),
            (("cn-south-2", "CN"), ("ap-southeast-1", "HK"), ("ap-southeast-3", "SG"), ("cn-", "CN"),
             ("af-", ""), ("la-", "")),
            60, QT_TRANSLATE_NOOP("LabGPU", "its price API (BSS) needs a signed account request"), **HUAWEI_STORAGE),
    _listed("lambda", (QT_TRANSLATE_NOOP("LabGPU", "Lambda"), ""), "USD",
            (60, 60, "weekly",
             QT_TRANSLATE_NOOP("LabGPU", "Lambda bills in one-minute increments from launch to termination "
                                         "(partial minutes counted as whole here) and invoices weekly."),
             "https://docs.lambda.ai/public-cloud/billing"),
            (("us-", "US"), ("asia-northeast-1", "JP"), ("asia-south-1", "IN"),
             ("europe-central-1", "DE"), ("me-west-1", "IL")),
            70, QT_TRANSLATE_NOOP("LabGPU", "its instance-types API needs an API key")),
    _listed("paperspace", (QT_TRANSLATE_NOOP("LabGPU", "Paperspace"), ""), "USD",
            (None, 0, "monthly",
             QT_TRANSLATE_NOOP("LabGPU", "Paperspace: billing increment unknown (time is prorated here); "
                                         "each machine also has a monthly access and storage fee."),
             "https://support.paperspace.com/hc/en-us/articles/360057895553"),
            (("ny2", "US"), ("ca1", "US"), ("east coast", "US"), ("west coast", "US"),
             ("ams1", "NL"), ("europe", "NL")),
            80, QT_TRANSLATE_NOOP("LabGPU", "its API needs an API key")),
)
