"""What LabGPU needs to know about AWS EC2, declared once (see app.core.providers.ProviderSpec)."""

from __future__ import annotations

from app.core.hosts import OLD_SSH_USER_TAG
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

PROVIDER_ID = "aws"
LOGIN_TAG = OLD_SSH_USER_TAG  # the image's default SSH user, as launches wrote it before SSH_USER_TAG
LAUNCH_TAG = "labgpu-launch"  # value: the launch's client token (crash recovery finds it by this)

SPEC = ProviderSpec(
    PROVIDER_ID,
    QT_TRANSLATE_NOOP("LabGPU", "AWS"),
    "AWS",
    "USD",
    # AWS EC2 On-Demand, Linux: per second with a 60-second minimum per start (Windows and some
    # marketplace images bill hourly).
    BillingRule(
        PROVIDER_ID, 1, 60, "",
        QT_TRANSLATE_NOOP("LabGPU", "AWS bills Linux instances per second, with a 60-second minimum "
                                    "each time an instance starts."),
        "https://aws.amazon.com/ec2/pricing/on-demand/"),
    regions=("us-east-1", "us-east-2", "us-west-2", "eu-west-1", "eu-central-1", "ap-northeast-1",
             "ap-southeast-1"),
    default_region="us-east-1",
    region_countries=(
        ("us-", "US"), ("cn-", "CN"), ("ap-east-1", "HK"), ("ap-southeast-1", "SG"),
        ("ap-northeast-1", "JP"), ("ap-northeast-2", "KR"), ("ap-south-1", "IN"),
        ("ap-southeast-2", "AU"), ("ca-", "CA"), ("eu-central-1", "DE"), ("eu-west-1", "IE"),
        ("eu-west-2", "GB"), ("eu-west-3", "FR"), ("eu-north-1", "SE")),
    credentials=(
        CredentialField("key_id", QT_TRANSLATE_NOOP("LabGPU", "Access key ID"), prompt="Access key id"),
        CredentialField("secret", QT_TRANSLATE_NOOP("LabGPU", "Secret access key"), secret=True),
        CredentialField("session_token", QT_TRANSLATE_NOOP("LabGPU", "Session token (optional)"),
                        secret=True, optional=True),
    ),
    endpoint_hint=QT_TRANSLATE_NOOP("LabGPU", "optional: endpoint_url, e.g. http://127.0.0.1:5000"),
    tags={"login": LOGIN_TAG, "launch": LAUNCH_TAG},
    capabilities=Capabilities(
        launch=True, spot=True, stop_without_charging=False, live_prices=True,
        console_fingerprints=True, zones=True, find_by_client_token=True, spot_price_history=True,
    ),
    limitations={
        "stop_charging": QT_TRANSLATE_NOOP("LabGPU", "Stopped AWS instances still bill for their EBS disks.")
    },
    # IMDSv2: a token first (PUT), then the instance-action document; 404 = nothing pending.
    spot_notice=SpotNoticeSource(
        "http://169.254.169.254/latest/meta-data/spot/instance-action",
        format="aws-instance-action-json",
        token_url="http://169.254.169.254/latest/api/token",  # noqa: S106 - a URL, not a secret
        token_header="X-aws-ec2-metadata-token",  # noqa: S106 - a header name
        token_ttl_header="X-aws-ec2-metadata-token-ttl-seconds",  # noqa: S106 - a header name
    ),
    no_public_prices=QT_TRANSLATE_NOOP("LabGPU", "the EC2 bulk offer file is gigabytes per region and the query "
                                "API needs signed requests: refresh with an AWS account"),
    account_hint="lab-aws",
    importers=(
        ImporterDecl(
            "aws",
            QT_TRANSLATE_NOOP("LabGPU", "AWS profiles from ~/.aws/credentials and AWS_* variables"),
            "app.cloud.aws.importer:aws_import_candidates",
            (ImportOption("profile", "import this profile only (default: every profile and AWS_* "
                                     "variables)"),),
            help="import ~/.aws/credentials profiles and AWS_* variables",
            sources=(("aws-profile", QT_TRANSLATE_NOOP("LabGPU", "AWS profile {name}")),),
        ),
    ),
    # ImportKeyPair takes RSA and ED25519 (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_ImportKeyPair.html)
    ssh_key_types=("ed25519", "rsa"),
    # The rule for AWS spot instances (docs/cli.md), said in the launch dialog before a spot launch and
    # after it (CloudService.launch notes: the CLI and the dialog show them).
    spot_rule=QT_TRANSLATE_NOOP(
        "LabGPU",
        "AWS spot: a persistent spot request that stops (not terminates) when AWS reclaims the capacity. "
        "Stop and the guards stop it; stopped, only its EBS disk bills. Terminate cancels the spot request "
        "first, so it never comes back by itself.",
    ),
    # CloudTrail's event history: LookupEvents reads management events of the last 90 days, one region
    # per request (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_LookupEvents.html)
    event_source=EventSourceDecl(
        "AWS CloudTrail", "LookupEvents", 90,
        "https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_LookupEvents.html",
    ),
    order=10,
)
