"""What LabGPU needs to know about Alibaba Cloud ECS, declared once (see app.core.providers): its names,
billing rule and region countries (what the offers catalog shows) and what launching needs."""

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

PROVIDER_ID = "alibaba"
DEFAULT_REGION = "cn-hangzhou"
API_VERSION = "2014-05-26"  # ECS
LAUNCH_TAG = "labgpu-launch"  # value: the launch's client token (crash recovery finds it by this)
TOKEN_TAG_KEY = "labgpu-token"  # noqa: S105 - a tag name: the ClientToken of this zone's attempt
RESOURCE_TAG = "labgpu-resource"  # on the VPC, vSwitch and security groups LabGPU creates and reuses
LOGIN_USER = "root"  # Alibaba Cloud's public Linux images log in as root with the key pair

# Where a spot instance reads its interruption notice (instance metadata; HTTP 404 while no reclaim is
# scheduled, then the UTC time it will be released, e.g. 2015-01-05T18:02:00Z), with the metadata
# token first (PUT /latest/api/token with X-aliyun-ecs-metadata-token-ttl-seconds, then the GET with
# X-aliyun-ecs-metadata-token: required in the metadata service's hardened mode). Both from
# https://www.alibabacloud.com/help/ja/ecs/user-guide/best-practices-for-preemptible-instances/
# ("instance/spot/termination-time": 404 = available, a UTC timestamp = reclaimed then).
SPOT_NOTICE = SpotNoticeSource(
    "http://100.100.100.200/latest/meta-data/instance/spot/termination-time", format="timestamp", tz="UTC",
    token_url="http://100.100.100.200/latest/api/token",  # noqa: S106 - a URL, not a secret
    token_header="X-aliyun-ecs-metadata-token",  # noqa: S106 - a header name
    token_ttl_header="X-aliyun-ecs-metadata-token-ttl-seconds",  # noqa: S106 - a header name
)

# The SDK packages the frozen app must carry (imported lazily; packaging/spec_support.py reads this).
FROZEN_PACKAGES = (
    "alibabacloud_ecs20140526", "alibabacloud_vpc20160428", "alibabacloud_actiontrail20200706",
    "alibabacloud_tea_openapi", "alibabacloud_tea_util",
    "alibabacloud_gateway_spi", "alibabacloud_credentials", "alibabacloud_credentials_api", "darabonba", "Tea",
)

SPEC = ProviderSpec(
    PROVIDER_ID, QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud"), "阿里云", "CNY",
    BillingRule(
        PROVIDER_ID, 1, 0, "hourly",
        QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud bills pay-as-you-go per second and issues a bill "
                                    "every hour."),
        "https://help.aliyun.com/zh/ecs/"),
    region_countries=(
        ("cn-hongkong", "HK"), ("cn-", "CN"), ("ap-southeast-1", "SG"), ("ap-northeast-1", "JP"),
        ("ap-northeast-2", "KR"), ("us-", "US"), ("eu-central-1", "DE"), ("eu-west-1", "GB")),
    no_public_prices=QT_TRANSLATE_NOOP("LabGPU", "its price API (DescribePrice) needs a signed account request"),
    order=50,
    regions=("cn-hangzhou", "cn-shanghai", "cn-beijing", "cn-shenzhen", "cn-zhangjiakou",
             "cn-wulanchabu", "cn-chengdu", "cn-hongkong", "ap-southeast-1", "ap-northeast-1",
             "us-west-1", "eu-central-1"),
    default_region=DEFAULT_REGION,
    mainland_regions=("cn-hangzhou", "cn-shanghai", "cn-beijing", "cn-shenzhen", "cn-zhangjiakou",
                      "cn-wulanchabu", "cn-chengdu", "cn-qingdao", "cn-huhehaote", "cn-heyuan",
                      "cn-guangzhou", "cn-nanjing", "cn-fuzhou", "cn-wuhan-lr"),
    credentials=(
        CredentialField("key_id", QT_TRANSLATE_NOOP("LabGPU", "AccessKey ID"), prompt="AccessKey ID"),
        CredentialField("secret", QT_TRANSLATE_NOOP("LabGPU", "AccessKey Secret"), secret=True,
                        prompt="AccessKey Secret"),
    ),
    endpoint_hint=QT_TRANSLATE_NOOP("LabGPU", "optional: host or URL, e.g. http://127.0.0.1:9000"),
    tags={"launch": LAUNCH_TAG, "token": TOKEN_TAG_KEY},
    capabilities=Capabilities(
        launch=True, spot=True, stop_without_charging=False, live_prices=True,
        console_fingerprints=False, zones=True, find_by_client_token=True, spot_price_history=True,
    ),
    limitations={
        "stop_charging": QT_TRANSLATE_NOOP(
            "LabGPU", "A stopped Alibaba Cloud instance stops billing for CPU, GPU and memory only where "
                      "its type allows it (StopCharging); its disks and any EIP still bill."),
    },
    account_hint="lab-alibaba",
    spot_notice=SPOT_NOTICE,
    # ImportKeyPair: rsa, dsa, ssh-rsa, ssh-dss, ecdsa (https://help.aliyun.com/document_detail/51774.html)
    ssh_key_types=("rsa", "ecdsa", "dsa"),
    # ActionTrail's LookupEvents reads the last 90 days of events
    # (https://www.alibabacloud.com/help/en/actiontrail/developer-reference/api-actiontrail-2020-07-06-lookupevents)
    event_source=EventSourceDecl(
        "Alibaba Cloud ActionTrail", "LookupEvents", 90,
        "https://www.alibabacloud.com/help/en/actiontrail/developer-reference/api-actiontrail-2020-07-06-lookupevents",
    ),
    importers=(
        ImporterDecl(
            "alibaba",
            QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud from ~/.aliyun/config.json and ALIBABA_CLOUD_* variables"),
            "app.cloud.alibaba.importer:import_candidates",
            (ImportOption("region", "region for profiles that name none (default: cn-hangzhou)"),),
            help="import the Alibaba CLI's AccessKey profiles and ALIBABA_CLOUD_ACCESS_KEY_ID/SECRET",
            sources=(("aliyun-profile", QT_TRANSLATE_NOOP("LabGPU", "Alibaba CLI profile {name}")),),
        ),
    ),
)
