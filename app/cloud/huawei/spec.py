"""What LabGPU needs to know about Huawei Cloud ECS, declared once (see app.core.providers).

It EXTENDS the catalog-only spec of app.core.catalog_providers (names, billing rule, region countries,
the OBS storage fields) with what the ECS plugin adds: its SDK packages and the regions its accounts
are tested in. First slice (issue 28): an account is added to the keyring and tested against ECS;
launching comes later, so ``launch`` stays False (the account is still a buckets account too).

Project id: an ECS request names the project of its region (``/v1/{project_id}/…`` and the
``X-Project-Id`` header the SDK adds). The account's ``project_id`` extra is used when set; otherwise the
SDK looks it up itself with IAM's KeystoneListProjects (``GET /v3/projects?name=<region>``), signed with
the same AK/SK (huaweicloudsdkcore.auth.credentials.BasicCredentials.process_auth_params).
"""

from __future__ import annotations

import dataclasses

from app.core.catalog_providers import CATALOG_SPECS
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.providers import Capabilities, ProviderSpec

PROVIDER_ID = "huawei"
DEFAULT_REGION = "cn-north-4"

# The SDK packages the frozen app must carry (imported lazily; packaging/spec_support.py reads this).
FROZEN_PACKAGES = ("huaweicloudsdkcore", "huaweicloudsdkecs", "huaweicloudsdkvpc", "huaweicloudsdkbss")


def _catalog_spec() -> ProviderSpec:
    return next(s for s in CATALOG_SPECS if s.id == PROVIDER_ID)


# ECS regions (Huawei Cloud "Regions and Endpoints", ECS: ecs.<region>.myhuaweicloud.com): CN North-Beijing4,
# CN East-Shanghai1, CN South-Guangzhou, CN Southwest-Guiyang1, AP-Hong Kong, AP-Singapore, AP-Bangkok.
REGIONS = ("cn-north-4", "cn-east-3", "cn-south-1", "cn-southwest-2", "ap-southeast-1", "ap-southeast-3",
           "ap-southeast-2")

SPEC = dataclasses.replace(
    _catalog_spec(),
    regions=REGIONS,
    default_region=DEFAULT_REGION,
    endpoint_hint=QT_TRANSLATE_NOOP("LabGPU", "optional: host or URL, e.g. http://127.0.0.1:9000"),
    # storage: its accounts keep reaching OBS buckets; launch: not in this slice (see the docstring)
    capabilities=Capabilities(storage=True, launch=False),
)
