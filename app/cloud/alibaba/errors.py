"""Alibaba Cloud error codes: each documented code of the calls LabGPU makes becomes a CloudError with
a sentence and a next step (English and Chinese).

The codes come from the error tables of Alibaba's ECS API reference (RunInstances, DescribePrice,
DescribeAvailableResource, DescribeSpotPriceHistory, StartInstances, StopInstance(s),
DeleteInstances, DescribeInstances, DescribeRegions, DescribeZones, DescribeImages, ImportKeyPair,
CreateSecurityGroup, AuthorizeSecurityGroup, CreateVpc, CreateVSwitch) and the OpenAPI client
errors every call may answer (AccessKey, signature, RAM, throttling). Codes that mean the same
thing to a student share one sentence; the table below names each code, so a code Alibaba adds
later still gets the generic sentence with its own code and message.
"""

from __future__ import annotations

from typing import Any

from app.cloud.base import (
    AuthError,
    CapacityError,
    CloudError,
    NotFoundError,
    PriceTooLowError,
    QuotaError,
    ThrottledError,
)
from app.cloud.errors import (
    ClockSkewError,
    ErrorSpec,
    InvalidRequestError,
    PermissionError_,
)
from app.cloud.errors import map_error as _map_error
from app.core.i18n import QT_TRANSLATE_NOOP

from .spec import PROVIDER_ID

KEY_NOT_FOUND = ErrorSpec(
    AuthError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud does not know this AccessKey ID (deleted, or mistyped)."),
    QT_TRANSLATE_NOOP("LabGPU", "Create an AccessKey in the RAM console (AccessKey management) and edit the account."),
)
KEY_DISABLED = ErrorSpec(
    AuthError,
    QT_TRANSLATE_NOOP("LabGPU", "This Alibaba Cloud AccessKey is disabled."),
    QT_TRANSLATE_NOOP("LabGPU", "Enable it in the RAM console, or create a new AccessKey and edit the account."),
)
SIGNATURE = ErrorSpec(
    AuthError,
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Alibaba Cloud refused the signature: the AccessKey Secret does not match the AccessKey ID.",
    ),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Edit the account and paste the AccessKey Secret again (it is shown only when the key is created: create a "
        "new AccessKey if you no longer have it).",
    ),
)
CLOCK = ErrorSpec(
    ClockSkewError,
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Alibaba Cloud refused the request because this computer's clock is more than 15 minutes off.",
    ),
    QT_TRANSLATE_NOOP("LabGPU", "Fix the clock: turn on automatic time (NTP) in the system settings, then retry."),
)
RAM = ErrorSpec(
    PermissionError_,
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "This AccessKey may not call {action}: its RAM policy does not allow it ({error_code}).",
    ),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Ask the account owner to grant AliyunECSFullAccess and AliyunVPCFullAccess to this RAM user, or use an "
        "AccessKey that has them.",
    ),
)
ACCOUNT_CHECK = ErrorSpec(
    PermissionError_,
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Alibaba Cloud does not let this account do that yet ({error_code}): {provider_message}",
    ),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Finish real-name verification and any security check in the Alibaba Cloud console, or ask Alibaba Cloud "
        "support to open this feature or region for the account.",
    ),
)
BALANCE = ErrorSpec(
    QuotaError,
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "The Alibaba Cloud account's balance is too low (or a bill is overdue) for pay-as-you-go instances.",
    ),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Top up the account in the Billing console (pay-as-you-go needs a positive balance), then retry.",
    ),
)
NO_STOCK = ErrorSpec(
    CapacityError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud has no {instance_type} left in {zone} right now."),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "LabGPU tries the region's other zones; if none has stock, pick another type or retry later.",
    ),
)
ZONE = ErrorSpec(
    CapacityError,
    QT_TRANSLATE_NOOP("LabGPU", "Zone {zone} does not sell this configuration ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Pick another zone of {region}, or let LabGPU choose the zone."),
)
TYPE = ErrorSpec(
    NotFoundError,
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Alibaba Cloud does not offer instance type {instance_type} to this account in {region} ({error_code}).",
    ),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Refresh prices to see the types the region sells; some GPU types must first be unlocked in the ECS console "
        "(Quota Center → privileges).",
    ),
)
QUOTA = ErrorSpec(
    QuotaError,
    QT_TRANSLATE_NOOP("LabGPU", "A quota of this Alibaba Cloud account is used up ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Release what you no longer use, or ask for more in the Quota Center (ECS console → Quotas).",
    ),
)
ELASTIC_QUOTA = ErrorSpec(
    QuotaError,
    QT_TRANSLATE_NOOP("LabGPU", "The vCPU quota for {instance_type} in {region} is used up."),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Release instances you no longer use, or request a higher vCPU quota in the Quota Center (ECS console → "
        "Quotas).",
    ),
)
STATUS = ErrorSpec(
    CloudError,
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Alibaba Cloud cannot {action} now: the resource is in the middle of another change ({error_code}).",
    ),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Reload the instances page, wait until the instance is Running or Stopped, then retry.",
    ),
)
LOCKED = ErrorSpec(
    CloudError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud has locked this instance ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Read the notice in the ECS console (security or overdue payment) and resolve it there.",
    ),
)
THROTTLED = ErrorSpec(
    ThrottledError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud is limiting how fast this account calls its API ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Wait a minute and retry."),
    retryable=True,
)
INTERNAL = ErrorSpec(
    CloudError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud had an internal error ({error_code})."),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Retry in a minute; if it keeps failing, quote request id {rid} to Alibaba Cloud support.",
    ),
    retryable=True,
)
INSTANCE_GONE = ErrorSpec(
    NotFoundError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud has no instance {instance_id} in {region}."),
    QT_TRANSLATE_NOOP("LabGPU", "It may have been released already: reload the instances page."),
)
SPOT_PRICE = ErrorSpec(
    PriceTooLowError,
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "The spot maximum price {max_price} {currency}/h is below what Alibaba Cloud asks for {instance_type} in "
        "{zone} (spot price now: {price} {currency}/h).",
    ),
    QT_TRANSLATE_NOOP("LabGPU", "Raise the maximum price to at least the current spot price, or launch on demand."),
)
SPOT = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud refused the spot request ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Launch on demand, or pick a type that is sold as spot in this zone."),
)
IMAGE = ErrorSpec(
    NotFoundError,
    QT_TRANSLATE_NOOP("LabGPU", "The image cannot be used for {instance_type} ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Let LabGPU pick the GPU image, or choose another public image (ECS console → Images).",
    ),
)
DISK = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud refused the disk settings ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Pick another disk size or category, or an instance type whose zone offers that disk."),
)
NETWORK = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud refused LabGPU's network setup ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "LabGPU reuses the VPC, vSwitch and security group tagged labgpu-resource: if they were changed in the "
        "console, delete them there and launch again.",
    ),
)
KEY_PAIR = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud refused the SSH public key ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Choose another key in the launch dialog (an OpenSSH RSA key works everywhere), or let LabGPU create one.",
    ),
)
BILLING = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud refused the billing settings ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Launch pay-as-you-go (or spot) with the default bandwidth; subscriptions are bought in the ECS console.",
    ),
)
PROTECTED = ErrorSpec(
    CloudError,
    QT_TRANSLATE_NOOP("LabGPU", "{instance_id} has release protection turned on."),
    QT_TRANSLATE_NOOP("LabGPU", "Turn release protection off in the ECS console, then terminate it again."),
)
DEPENDENCY = ErrorSpec(
    CloudError,
    QT_TRANSLATE_NOOP("LabGPU", "The instance is still used by another resource ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Remove it from the route table, load balancer or network interface it belongs to, then retry.",
    ),
)
REGION = ErrorSpec(
    NotFoundError,
    QT_TRANSLATE_NOOP("LabGPU", "{region} is not an Alibaba Cloud region this key can use ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Edit the account and pick a region such as cn-hangzhou."),
)
PRICE = ErrorSpec(
    NotFoundError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud has no price for {instance_type} in {zone} ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "The type is not sold there: refresh prices and pick a type the region sells."),
)
PARAMETER = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "Alibaba Cloud refused a parameter of {action} ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "This is most likely a LabGPU bug: report it with the code and request id {rid}."),
)

# Codes → the sentence above that fits them (prefixes end with "." and match the longest first).
_GROUPS: dict[ErrorSpec, tuple[str, ...]] = {
    KEY_NOT_FOUND: ("InvalidAccessKeyId.NotFound", "InvalidAccessKeyId", "Abs.InvalidAccount.NotFound"),
    KEY_DISABLED: ("InvalidAccessKeyId.Inactive",),
    SIGNATURE: ("SignatureDoesNotMatch", "IncompleteSignature", "InvalidSignatureMethod", "UnsupportedHTTPMethod"),
    CLOCK: ("InvalidTimeStamp.Expired", "InvalidTimeStamp.Format", "IllegalTimestamp"),
    RAM: ("Forbidden.RAM", "Forbidden", "Forbbiden", "Forbbiden.SubUser", "Forbedden.NotSupportRAM",
          "ActionUnauthorized", "InvalidAction.Unauthorized", "InvalidUser.PassRoleForbidden",
          "InvalidUser.Unauthorized", "InvalidRamRole.NotEcsRole", "InvalidRamRole.NotFound",
          "InvalidUserType.NotSupported", "Forbidden.AccessKeyDisabled"),
    ACCOUNT_CHECK: ("Forbidden.RiskControl", "Forbidden.UserVerification", "SecurityRisk.3DVerification",
                    "RealNameAuthenticationError", "UserNotInTheWhiteList", "InvalidOperation.NotInWhiteList",
                    "RegionUnauthorized", "Unauthorized.EmptyRegion", "Forbidden.RegionId",
                    "OperationDenied.ResourceControl", "InvalidSpotAuthorized", "InvalidSpotAliUid",
                    "Abs.Abs.InvalidSpotInstanceUID", "InvalidOwnerId", "InvalidOwnerAccount", "InvalidOwner",
                    "InvalidParameter.ResourceOwnerAccount"),
    BALANCE: ("InvalidAccountStatus.NotEnoughBalance", "InsufficientBalance", "Account.Arrearage",
              "PaymentMethodNotFound", "InvalidPayMethod", "InstanceExpiredOrInArrears", "DiskInArrears",
              "InstanceExpired", "InvalidInstance.UnPaidOrder", "PrePaidInstance.Expired"),
    NO_STOCK: ("OperationDenied.NoStock", "Zone.NotOnSale", "Zone.NotOpen", "InvalidResourceType.NotSupported",
               "InstanceType.Offline", "ResourceNotAvailable", "NodeControllerUnavailable", "OperationDenied.NoVlan",
               "InstanceNotReady"),
    ZONE: ("InvalidZoneId.NotFound", "InvalidInstanceType.ZoneNotSupported", "InvalidVpcZone.NotSupported",
           "OperationDenied.ZoneNotAllowed", "OperationDenied.ZoneSystemCategoryNotMatch", "InvalidParams.ZoneId",
           "ResourcesNotInSameZone"),
    TYPE: ("InvalidInstanceType.ValueNotSupported", "InvalidInstanceType.NotSupported",
           "InvalidInstanceType.ValueUnauthorized", "InvalidInstanceType.Missing", "InvalidParams.InstanceType",
           "InvalidInstanceType.ElasticNetworkInterfaceNotSupported", "InstanceType.ParameterMismatch",
           "InvalidParam.Cores", "InvalidParam.Memory", "InvalidParam.TypeAndCpuMem.Conflict"),
    QUOTA: ("QuotaExceed.", "QuotaExceeded", "QuotaExceeded.PrivateIpAddress", "OperationDenied.QuotaExceed",
            "SecurityGroupInstanceLimitExceed", "JoinedGroupLimitExceed", "AuthorizationLimitExceed",
            "InstanceDiskNumLimitExceed", "InstanceDiskNumber.LimitExceed", "InstanceDiskCategoryLimitExceed",
            "MaxEniIpv6IpsCountExceeded", "InvalidOperation.Ipv4CountExceeded", "InvalidOperation.Ipv6CountExceeded",
            "InvalidOperation.MaxEniQueueNumberExceeded", "InvalidOperation.ExceedInstanceTypeQueueNumber"),
    ELASTIC_QUOTA: ("QuotaExceed.ElasticQuota", "QuotaExceed.AfterpayInstance"),
    STATUS: ("IncorrectInstanceStatus", "IncorrectInstanceStatus.Initializing", "IncorrectVpcStatus",
             "IncorrectVSwitchStatus", "IncorrectDefaultVpcStatus", "IncorrectDedicatedHostStatus",
             "IncorrectRecycleBinStatus", "OperationDenied.CreatingConflict", "IdempotentProcessing",
             "InvalidDedicatedHostStatus.NotSupport", "InvalidHpcClusterId.Creating", "LastTokenProcessing",
             "SignatureNonceUsed"),
    LOCKED: ("InstanceLockedForSecurity",),
    THROTTLED: ("Throttling", "Throttling.", "ServiceUnavailable"),
    INTERNAL: ("InternalError", "UnknownError"),
    INSTANCE_GONE: ("InvalidInstanceId.NotFound", "Forbidden.InstanceNotFound", "Invalid.InstanceId.NotFound",
                    "InvalidInstanceId.NotSupport", "InvalidInstanceID.Malformed", "InvalidResourceId.NotFound",
                    "InvalidResourceId.NotSupported"),
    SPOT_PRICE: ("InvalidSpotPriceLimit", "InvalidSpotPriceLimit.LowerThanPublicPrice",
                 "OperationDenied.SpotPriceLowerThanPublicPrice"),
    SPOT: ("InvalidSpotStrategy", "Invalid.SpotStrategy", "InvalidSpotDuration", "InvalidSpotPrepaid",
           "InvalidSpotInterruptionBehavior", "InvalidSpotInterruptionBehavior.ClassicNetworkNotSupport",
           "InvalidSpotInterruptionBehavior.LocalDiskNotSupport"),
    IMAGE: ("InvalidImageId.NotFound", "ImageNotSubscribed", "ImageNotSupportInstanceType", "ImageRemovedInMarket",
            "InvalidMarketImage.NotFound", "OperationDenied.ImageNotValid", "ImageNotSupportCloudInit",
            "InvalidMarketImageChargeType.NotSupport", "InvalidChargeType.MarketImage",
            "DependencyViolation.WindowsInstance", "InvalidSystemDiskSize.ImageNotSupportResize",
            "InvalidSystemDiskSize.LessThanImageSize", "InvalidArchitecture", "InvalidOSType",
            "InvalidImageOwnerAlias.ValueNotSupported", "InvalidUsage", "InvalidParams.OSType"),
    DISK: ("CategoryNotSupported", "CategoryViolation", "InvalidDiskCategory.Mismatch",
           "InvalidDiskCategory.NotSupported", "InvalidDiskCategory.ValueNotSupported", "InvalidDiskCategory.Missing",
           "InvalidSystemDiskCategory.ValueNotSupported", "InvalidSystemDiskCategory.ValueUnauthorized",
           "InvalidDataDiskCategory.ValueNotSupported", "InvalidDataDiskSize.ValueNotSupported",
           "InvalidDataDiskSnapshotId.NotFound", "InvalidDataDevice.Malformed",
           "InvalidSystemDiskSize.LessThanMinSize", "InvalidSystemDiskSize.MoreThanMaxSize",
           "InvalidSystemDiskSize.ValueNotSupported", "InvalidSystemDisk.NotFound", "InvalidDiskSize.TooSmall",
           "InvalidDisk.SystemDiskSize", "DiskError", "OperationDenied.DiskTypeNotSupport",
           "OperationDenied.LocalDiskUnsupported", "InvalidDiskDescription.Malformed", "InvalidDiskName.Malformed",
           "InvalidDiskIds.NotPortable", "InvalidDiskIds.NotFound", "InvalidDevice.InUse",
           "DeleteWithInstance.Conflict", "EncryptedOption.Conflict", "InvalidParameter.EncryptedIllegal",
           "InvalidParameter.EncryptedNotSupported", "InvalidParameter.KMSKeyId.CMKNotEnabled",
           "InvalidParameter.KMSKeyId.KMSUnauthorized", "InvalidParameter.KMSKeyId.NotFound", "KMSKeyUnauthorized",
           "InvalidSnapshotId.BasedSnapshotTooOld", "InvalidSnapshotId.NotDataDiskSnapshot",
           "InvalidSnapshotId.NotFound", "InvalidSnapshotId.NotReady", "OperationDenied.SnapshotNotAllowed",
           "OperationDenied.SnapshotNotValid", "OperationDenied.SnapshotParamsNotValid", "IoOptimized.NotSupported",
           "InvalidIoOptimize.ValueNotSupported", "InvalidIoOptimizedValue.ValueNotSupported",
           "DependencyViolation.IoOptimized", "Abs.IoOptimized.ValueNotSupported", "InvalidParams.IoOptimized",
           "Invalid.IoOptimized", "InvalidDeploymentOnHost", "DedicatedHostType.Unmatched",
           "InvalidDedicatedHostId.NotFound", "ChargeTypeViolation.PostPaidDedicatedHost",
           "InvalidPeriod.ExceededDedicatedHost"),
    NETWORK: ("InvalidVSwitchId.NotFound", "InvalidVSwitchId.NotExist", "InvalidVSwitchId.Necessary",
              "InvalidVSwitchId.IpInvalid", "InvalidVSwitch.Ipv6NotTurnOn", "VpcNotFound", "InvalidVpcId.NotFound",
              "DefaultVswitch.Existed", "InvalidSecurityGroupId", "InvalidSecurityGroupId.NotFound",
              "InvalidSecurityGroupId.Malformed", "InvalidSecurityGroup.NotInDefaultVpc",
              "InvalidSecurityGroup.InvalidNetworkType", "InvalidNetworkType.Mismatch",
              "InvalidNetworkType.NotSupported", "InvalidNetworkType.Conflict",
              "InvalidNetworkType.ValueNotSupported", "InvalidNetworkType.NotFound",
              "OperationDenied.InconsistentNetwork", "OperationDenied.InvalidNetworkType",
              "InvalidInnerIpAddress.Malformed", "InvalidInnerIpAddress.Unusable", "InvalidPrivateIpAddress",
              "InvalidPrivateIpAddress.Duplicated", "InvalidPrivateIpAddress.Malformed", "InvalidIp.Address",
              "InvalidIp.IpAssigned", "InvalidIp.IpRepeated", "InvalidParam.NetworkInterface",
              "InvalidOperation.Ipv6NotSupport", "InvalidOperation.VpcHasEnabledAdvancedNetworkFeature",
              "InvalidParameter.InvalidEniQueueNumber", "InvalidNicType.Mismatch", "InvalidNicType.ValueNotSupported",
              "InvalidSourceCidrIp.Malformed", "InvalidDestCidrIp.Malformed", "InvalidParam.SourceIp",
              "InvalidParam.DestIp", "InvalidParam.Ipv6SourceCidrIp", "InvalidParam.Ipv6DestCidrIp",
              "InvalidParam.Ipv4ProtocolConflictWithIpv6Address", "InvalidParam.Ipv6ProtocolConflictWithIpv4Address",
              "ILLEGAL_IPV6_CIDR", "InvalidIpProtocol.Malformed", "InvalidIpProtocol.ValueNotSupported",
              "InvalidSourcePortRange.Malformed", "InvalidPolicy.Malformed", "InvalidPriority.Malformed",
              "InvalidPriority.ValueNotSupported", "InvalidGressFlow.Malformed", "InvalidSourceGroup.NotFound",
              "InvalidSourceGroupId.Mismatch", "InvalidSourceGroupId.NotFound", "MissingParameter.Source",
              "InvalidParamter.Conflict", "VPCDisabled", "InvalidSecurityGroupName.Malformed",
              "InvalidSecurityGroupDiscription.Malformed", "Invalid.NetworkCategory", "Invalid.NetworkType",
              "InvalidParams.NetworkType", "InvalidHpcClusterId.Necessary", "InvalidHpcClusterId.NotFound",
              "InvalidHpcClusterId.Unnecessary", "InvalidClusterId.NotFound"),
    KEY_PAIR: ("InvalidKeyPairName.Malformed", "InvalidPublicKeyBody.Malformed", "KeyPair.AlreadyExist",
               "InvalidKeyPairName.NotFound", "InvalidPasswordParam.Mismatch", "InvalidPassword.Malformed"),
    BILLING: ("InvalidInstanceChargeType.NotFound", "InvalidInstanceChargeType.NotSupport", "ChargeTypeViolation",
              "InvalidChargeType.NotSupported", "InvalidPeriod", "InvalidPeriodType.ValueNotSupported",
              "InvalidAutoRenewPeriod.ValueNotSupported", "InvalidPriceUnit.ValueNotSupported",
              "InvalidInternetChargeType.ValueNotSupported", "InvalidInternetMaxBandwidthOut.Malformed",
              "InvalidInternetMaxBandwidthOut.ValueNotSupported", "InvalidInternetMaxBandwidthIn.Malformed",
              "InvalidParameter.Bandwidth", "Invalid.InstanceChargeType", "InvalidParameter.CreditSpecification",
              "InvalidAutoReleaseTime.Malformed", "InvalidParam.Tenancy"),
    PROTECTED: ("InvalidOperation.DeletionProtection",),
    DEPENDENCY: ("DependencyViolation.RouteEntry", "DependencyViolation.SLBConfiguring", "InvalidOperation.EniLinked",
                 "InvalidOperation.ResourceManagedByCloudProduct"),
    REGION: ("InvalidRegionId.NotFound", "InvalidRegion.NotSupport", "Invalid.RegionId", "InvalidRegionId.MalFormed",
             "InvalidParams.RegionId", "Unavailable.Regions"),
    PRICE: ("PriceNotFound",),
    PARAMETER: ("InvalidParameter", "InvalidParameter.Conflict", "InvalidParameter.Mismatch",
                "InvalidParameter.NotMatch", "InvalidParameter.Format", "MissingParameter", "MissingParamter",
                "MissingParameter.PrivatePoolOptionsId", "Invalid.PrivatePoolOptionsId", "InvalidParamter",
                "UnsupportedParameter", "UnsupportedOperation", "InvalidAction", "InvalidApi.NotFound",
                "NoSuchVersion", "InvalidClientToken.ValueNotSupported", "InvalidDescription.Malformed",
                "InvalidInstanceName.Malformed", "InvalidHostName.Malformed", "HOSTNAME_ILLEGAL",
                "InvalidParams.HostnameExceed", "InvalidParams.InstanceNameExceed", "InvalidUserData.Forbidden",
                "InvalidUserData.NotSupported", "InvalidUserData.SizeExceeded", "InvalidTag.Mismatch",
                "InvalidTagCount", "InvalidTagKey.Malformed", "InvalidTagValue.Malformed", "Duplicate.TagKey",
                "InvalidResourceGroup.NotFound", "InvalidRelationResource.NotFound", "InvalidLaunchTemplate.NotFound",
                "InvalidLaunchTemplateVersion.NotFound", "DeploymentSet.NotFound", "InvalidMaxAmount.Malformed",
                "InvalidMinAmount.Malformed", "InvalidParam.Amount", "InvalidAmount.Malformed",
                "DryRun.InvalidAmount", "InvalidNodeControllerId.Malformed", "InvalidHttpEndpoint.NotSupported",
                "InvalidHttpPutResponseHopLimit.NotSupported", "InvalidHttpTokens.NotSupported",
                "InvalidFilterKey.NotFound", "InvalidLockReason.NotFound", "InvalidStatus.NotFound",
                "InvalidAcceptLanguage.NotFound", "InvalidResourceType.NotFound",
                "InvalidResourceType.ValueNotSupported", "Invalid.ResourceType", "Invalid.DestinationResource",
                "Invalid.Param", "InvalidParams.StartTime", "InvalidParams.EndTime", "InvalidParams.Offset",
                "InvalidParams.PageSize", "OperationDenied"),
}

TABLE: dict[str, ErrorSpec] = {code: spec for spec, codes in _GROUPS.items() for code in codes}
# The sentences the issue names must stay specific: each is its own entry above, checked by the tests.
DOCUMENTED_ERROR_CODES: tuple[str, ...] = tuple(c for c in TABLE if not c.endswith("."))


def map_error(code: str, message: str, request_id: str = "", *, action: str = "", **context: Any) -> CloudError:
    """Turn an Alibaba Cloud error into the CloudError the user sees (a sentence and a next step)."""
    params: dict[str, Any] = {
        "zone": "?",
        "region": "?",
        "instance_type": "?",
        "instance_id": "?",
        "price": "?",
        "max_price": "?",
        "currency": "CNY",
        "endpoint": "?",
    }
    params.update({k: v for k, v in context.items() if v not in (None, "")})
    params["action"] = action or "?"
    return _map_error(PROVIDER_ID, code or "Unknown", message, request_id, TABLE, **params)
