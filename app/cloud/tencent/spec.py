"""What LabGPU needs to know about Tencent Cloud CVM, declared once (see app.core.providers)."""

from __future__ import annotations

from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.providers import (
    BillingRule,
    Capabilities,
    CredentialField,
    EventSourceDecl,
    ImporterDecl,
    ImportOption,
    ProviderSpec,
    SpotNoticeSource,
)

PROVIDER_ID = "tencent"
DEFAULT_HOST = "cvm.tencentcloudapi.com"
INTL_HOST = "cvm.intl.tencentcloudapi.com"
TOKEN_TAG_KEY = "labgpu-token"  # noqa: S105 - a tag name, not a secret; the launch's ClientToken, so a crashed launch is found again
LAUNCH_TAG = "labgpu-launch"  # the launcher's own client-token tag (crash recovery looks for both)
LOGIN_TAG = "labgpu-user"

# The SDK packages the frozen app must carry (imported lazily; packaging/spec_support.py reads this).
FROZEN_PACKAGES = ("tencentcloud.common", "tencentcloud.cvm", "tencentcloud.cloudaudit")

SPEC = ProviderSpec(
    PROVIDER_ID,
    QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud"),
    "腾讯云",
    "CNY",
    # CVM pay-as-you-go (按量计费): per second, settled hourly (CVM billing-mode page).
    BillingRule(
        PROVIDER_ID, 1, 0, "hourly",
        QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud bills pay-as-you-go per second and settles the "
                                    "charge every hour."),
        "https://cloud.tencent.com/document/product/213/2180"),
    regions=("ap-guangzhou", "ap-shanghai", "ap-beijing", "ap-nanjing", "ap-chengdu", "ap-chongqing",
             "ap-hongkong", "ap-singapore", "ap-tokyo", "na-siliconvalley", "eu-frankfurt"),
    default_region="ap-guangzhou",
    region_countries=(
        ("ap-hongkong", "HK"), ("ap-singapore", "SG"), ("ap-tokyo", "JP"), ("ap-seoul", "KR"),
        ("ap-mumbai", "IN"), ("na-siliconvalley", "US"), ("na-ashburn", "US"),
        ("eu-frankfurt", "DE"), ("na-toronto", "CA")),
    mainland_regions=(
        "ap-guangzhou", "ap-shanghai", "ap-beijing", "ap-chengdu", "ap-chongqing", "ap-nanjing",
        "ap-shenzhen", "ap-tianjin", "ap-qingyuan", "ap-hangzhou", "ap-wuhan", "ap-changsha",
        "ap-shijiazhuang", "ap-jinan", "ap-fuzhou", "ap-xian", "ap-zhengzhou", "ap-hefei", "ap-shenyang"),
    credentials=(
        CredentialField("key_id", QT_TRANSLATE_NOOP("LabGPU", "SecretId")),
        CredentialField("secret", QT_TRANSLATE_NOOP("LabGPU", "SecretKey"), secret=True),
    ),
    endpoint_hint=QT_TRANSLATE_NOOP("LabGPU", "optional: host or URL, e.g. http://127.0.0.1:9000"),
    alt_endpoint=INTL_HOST,
    alt_endpoint_label=QT_TRANSLATE_NOOP(
        "LabGPU", "International site (cvm.intl.tencentcloudapi.com, prices in USD)"),
    protocols=("https", "http"),
    tags={"login": LOGIN_TAG, "launch": LAUNCH_TAG, "token": TOKEN_TAG_KEY},
    capabilities=Capabilities(
        launch=True, spot=True, stop_without_charging=True, live_prices=True,
        console_fingerprints=False, zones=True, find_by_client_token=True,
    ),
    # Tencent's GN7vw family is the vGPU (virtual workstation) variant of GN7.
    fractional_type_prefixes=("GN7VW",),
    # CVM: the reclaim time as "2018-08-18 12:05:33", Beijing time without a zone marker.
    spot_notice=SpotNoticeSource(
        "http://metadata.tencentyun.com/latest/meta-data/spot/termination-time", format="timestamp", tz="+08:00"),
    no_public_prices=QT_TRANSLATE_NOOP("LabGPU", "its price APIs need a signed account request: refresh with "
                                "a Tencent Cloud account"),
    account_hint="lab-tencent",
    importers=(
        ImporterDecl(
            "tencent",
            QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud from TENCENTCLOUD_SECRET_ID/KEY"),
            "app.cloud.tencent.importer:tencent_import_candidates",
            (
                ImportOption("region", "the account's region (TENCENTCLOUD_REGION wins when set)",
                             required=True),
                ImportOption("name", "the account's name (default: tencent-env)"),
                ImportOption("endpoint", "custom endpoint host or URL"),
            ),
            help="import TENCENTCLOUD_SECRET_ID/KEY as an account",
        ),
    ),
    # ImportKeyPair.PublicKey: "`OpenSSH RSA` 格式" only (tencentcloud/cvm/v20170312/models.py ImportKeyPairRequest)
    ssh_key_types=("rsa",),
    # CloudAudit's LookUpEvents (https://cloud.tencent.com/document/api/629/12359): records are kept 90 days;
    # one request spans at most 7 days (LimitExceeded.OverTime, "检索支持的有效时间范围是7天",
    # tencentcloud/cloudaudit/v20190319/errorcodes.py)
    event_source=EventSourceDecl(
        "Tencent CloudAudit", "LookUpEvents", 90, "https://cloud.tencent.com/document/api/629/12359", window_days=7,
    ),
    order=40,
)
