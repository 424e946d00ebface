"""Tencent Cloud error codes: each known code becomes a CloudError subclass with a sentence and a
next step."""

from __future__ import annotations

import logging
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
from app.cloud.errors import ClockSkewError, NetworkError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.logsetup import redact

from .spec import PROVIDER_ID

log = logging.getLogger("app.cloud.tencent")

_ERRORS: dict[str, tuple[type[CloudError], str, str]] = {
    "AuthFailure.SignatureFailure": (
        AuthError,
        QT_TRANSLATE_NOOP(
            "LabGPU", "Tencent Cloud refused the signature: the SecretKey does not match the SecretId."
        ),  # noqa: E501 - one string for lupdate
        QT_TRANSLATE_NOOP(
            "LabGPU", "Edit the account and paste the SecretKey again from the CAM console (API keys)."
        ),  # noqa: E501 - one string for lupdate
    ),
    "AuthFailure.SecretIdNotFound": (
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud does not know this SecretId (deleted or disabled key)."),
        QT_TRANSLATE_NOOP("LabGPU", "Create or enable an API key in the CAM console and edit the account."),
    ),
    "AuthFailure.InvalidSecretId": (
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "The SecretId is not a valid Tencent Cloud API key id."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Copy the SecretId (it starts with AKID) from the CAM console and edit the account."
        ),  # noqa: E501 - one string for lupdate
    ),
    "AuthFailure.SignatureExpire": (
        ClockSkewError,
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Tencent Cloud refused the request because this computer's clock is more than 5 minutes off.",
        ),  # noqa: E501 - one string for lupdate
        QT_TRANSLATE_NOOP(
            "LabGPU", "Fix the clock: turn on automatic time (NTP) in the system settings, then retry."
        ),  # noqa: E501 - one string for lupdate
    ),
    "AuthFailure.UnauthorizedOperation": (
        AuthError,
        QT_TRANSLATE_NOOP(
            "LabGPU", "This API key may not do that: the CAM policy does not allow it ({detail})."
        ),  # noqa: E501 - one string for lupdate
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Ask the account owner to grant QcloudCVMFullAccess and QcloudVPCFullAccess to this key's user.",
        ),  # noqa: E501 - one string for lupdate
    ),
    "ResourceInsufficient.SpecifiedInstanceType": (
        CapacityError,
        QT_TRANSLATE_NOOP(
            "LabGPU", "Tencent Cloud has no {instance_type} capacity left in {zone} right now."
        ),  # noqa: E501 - one string for lupdate
        QT_TRANSLATE_NOOP("LabGPU", "Try another zone or instance type, or retry later."),
    ),
    "ResourceInsufficient.ZoneSoldOutForSpecifiedInstance": (
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "{instance_type} is sold out in {zone}."),
        QT_TRANSLATE_NOOP("LabGPU", "Try another zone of {region} or another instance type."),
    ),
    "ResourcesSoldOut.SpecifiedInstanceType": (
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "{instance_type} is sold out in {zone}."),
        QT_TRANSLATE_NOOP("LabGPU", "Try another zone of {region} or another instance type."),
    ),
    # The capacity, stock and unsupported-type codes RunInstances lists
    # (https://cloud.tencent.com/document/api/213/15730, tencentcloud/cvm/v20170312/errorcodes.py).
    "ResourceUnavailable.InstanceType": (
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud does not sell {instance_type} in {zone} right now."),
        QT_TRANSLATE_NOOP("LabGPU", "Try another zone of {region} or another instance type."),
    ),
    "ResourceNotFound.InvalidZoneInstanceType": (
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "Zone {zone} does not offer {instance_type}."),
        QT_TRANSLATE_NOOP("LabGPU", "Try another zone of {region} or another instance type."),
    ),
    "ResourcesSoldOut.AvailableZone": (
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "Zone {zone} is sold out."),
        QT_TRANSLATE_NOOP("LabGPU", "Try another zone of {region} or another instance type."),
    ),
    "ResourceInsufficient.AvailabilityZoneSoldOut": (
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "Zone {zone} is sold out."),
        QT_TRANSLATE_NOOP("LabGPU", "Try another zone of {region} or another instance type."),
    ),
    "InvalidParameter.InstanceTypeNotSupport": (
        NotFoundError,
        QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud does not support instance type {instance_type} for this launch."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Refresh prices to see which types each zone sells, then pick one of those."
        ),
    ),
    "UnsupportedOperation.NoInstanceTypeSupportSpot": (
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "{instance_type} cannot be launched as a spot instance."),
        QT_TRANSLATE_NOOP("LabGPU", "Launch it on demand, or pick a type that Tencent Cloud sells as spot."),
    ),
    # Not the instance type: a zone short of cloud disks or of addresses in its default subnet. Another
    # zone has its own disks and subnet, so these move on like a capacity error, saying what ran out.
    "ResourceInsufficient.CloudDiskSoldOut": (
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "The system disk type {disk_type} is sold out in {zone}."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Try another zone, or leave the disk type empty so Tencent Cloud picks one in stock."
        ),
    ),
    "InvalidParameter.InvalidCloudDiskSoldOut": (
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "The system disk type {disk_type} is sold out in {zone}."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Try another zone, or leave the disk type empty so Tencent Cloud picks one in stock."
        ),
    ),
    "UnsupportedOperation.SystemDiskType": (
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "{instance_type} cannot use the system disk type {disk_type}."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Leave the account's disk type empty so Tencent Cloud picks one the type supports."
        ),
    ),
    "ResourceInsufficient.CidrBlock": (
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "The default subnet in {zone} has no free addresses left."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Try another zone, or free addresses in the VPC console (release unused instances)."
        ),
    ),
    "ResourcesSoldOut.EipInsufficient": (
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud has no public IP addresses left in {region}."),
        QT_TRANSLATE_NOOP("LabGPU", "Retry later or launch in another region."),
    ),
    "InvalidPublicKey.Malformed": (
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud refused the SSH public key: it accepts OpenSSH RSA keys only."),
        QT_TRANSLATE_NOOP("LabGPU", "Launch with an RSA key (ssh-keygen -t rsa -b 3072) or let LabGPU make one."),
    ),
    "InvalidParameterValue.InstanceTypeNotFound": (
        NotFoundError,
        QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud does not offer instance type {instance_type} in {zone}."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Refresh prices to see which types each zone sells, then pick one of those."
        ),  # noqa: E501 - one string for lupdate
    ),
    "InvalidParameterValue.InsufficientPrice": (
        PriceTooLowError,
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "The spot maximum price {max_price} {currency}/h is below the current spot price ({price} {currency}/h) for {instance_type} in {zone}.",  # noqa: E501
        ),  # noqa: E501 - one string for lupdate
        QT_TRANSLATE_NOOP(
            "LabGPU", "Raise the maximum price to at least the current spot price, or launch on demand."
        ),  # noqa: E501 - one string for lupdate
    ),
    "InvalidParameterValue.ZoneNotSupported": (
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "Zone {zone} does not support this request ({detail})."),
        QT_TRANSLATE_NOOP("LabGPU", "Pick another zone of {region}."),
    ),
    "LimitExceeded.SpotQuota": (
        QuotaError,
        QT_TRANSLATE_NOOP(
            "LabGPU", "The spot instance quota of this Tencent Cloud account is used up in {region}."
        ),  # noqa: E501 - one string for lupdate
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Terminate unused spot instances, or ask for a higher spot quota (CVM console → Quotas), or launch on demand.",  # noqa: E501
        ),  # noqa: E501 - one string for lupdate
    ),
    "LimitExceeded.UserSpotQuota": (
        QuotaError,
        QT_TRANSLATE_NOOP("LabGPU", "The per-user spot instance quota is used up in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Terminate unused spot instances, or ask for a higher spot quota (CVM console → Quotas), or launch on demand.",  # noqa: E501
        ),  # noqa: E501 - one string for lupdate
    ),
    "LimitExceeded.InstanceQuota": (
        QuotaError,
        QT_TRANSLATE_NOOP("LabGPU", "The pay-as-you-go instance quota of this account is used up in {zone}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Terminate instances you no longer need, or ask for a higher pay-as-you-go instance quota (CVM console → Quotas).",  # noqa: E501
        ),  # noqa: E501 - one string for lupdate
    ),
    "InvalidAccount.InsufficientBalance": (
        CloudError,
        QT_TRANSLATE_NOOP(
            "LabGPU", "The Tencent Cloud account balance is too low to start billing a new instance."
        ),  # noqa: E501 - one string for lupdate
        QT_TRANSLATE_NOOP("LabGPU", "Top up the account in the Tencent Cloud billing console, then retry."),
    ),
    "UnsupportedOperation.StoppedModeStopCharging": (
        CloudError,
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "This instance cannot stop without charging (its type or billing mode does not allow it).",
        ),  # noqa: E501 - one string for lupdate
        QT_TRANSLATE_NOOP(
            "LabGPU", "Stop it anyway (it keeps billing the full price) or terminate it to stop all charges."
        ),  # noqa: E501 - one string for lupdate
    ),
    "RequestLimitExceeded": (
        ThrottledError,
        QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud is throttling this account's API calls."),
        QT_TRANSLATE_NOOP("LabGPU", "Wait a minute and retry; close other tools using the same key."),
    ),
    "InvalidInstanceId.NotFound": (
        NotFoundError,
        QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud has no such instance ({detail})."),
        QT_TRANSLATE_NOOP("LabGPU", "Reload the instances list: it may have been terminated elsewhere."),
    ),
    "ClientNetworkError": (
        NetworkError,
        QT_TRANSLATE_NOOP("LabGPU", "Cannot reach Tencent Cloud at {endpoint}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Check the network connection and the account's endpoint, then retry: a retried launch never makes a second instance, and the instances list shows whether it went through.",  # noqa: E501
        ),
    ),
    "ServerNetworkError": (
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud at {endpoint} answered with an HTTP error."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Check the account's endpoint (for the international site use cvm.intl.tencentcloudapi.com), then retry.",  # noqa: E501
        ),  # noqa: E501 - one string for lupdate
    ),
}
# CVM answers the CAM refusal as UnauthorizedOperation (cvm/v20170312/errorcodes.py); the common
# code is AuthFailure.UnauthorizedOperation (https://cloud.tencent.com/document/api/213/15694).
_ERRORS["UnauthorizedOperation"] = _ERRORS["AuthFailure.UnauthorizedOperation"]

_GENERIC = (
    CloudError,
    QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud refused {action}: {detail}"),
    QT_TRANSLATE_NOOP("LabGPU", "Check the request in the CVM console; the error code tells what to change."),
)
_GENERIC_AUTH = (
    AuthError,
    QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud refused the credentials: {detail}"),
    QT_TRANSLATE_NOOP("LabGPU", "Edit the account and check the SecretId and SecretKey in the CAM console."),
)

DOCUMENTED_ERROR_CODES = tuple(c for c in _ERRORS if c not in ("ClientNetworkError", "ServerNetworkError"))


def map_error(
    code: str, message: str, request_id: str = "", *, action: str = "", **context: Any
) -> CloudError:
    """Turn a Tencent error into the CloudError the user sees (a sentence and a next step)."""
    entry = _ERRORS.get(code)
    if entry is None and code.startswith("RequestLimitExceeded"):
        entry = _ERRORS["RequestLimitExceeded"]
    if entry is None and code.startswith("AuthFailure"):
        entry = _GENERIC_AUTH
    if entry is None and code.startswith(("ResourceInsufficient", "ResourcesSoldOut")):
        entry = _ERRORS["ResourceInsufficient.SpecifiedInstanceType"]
    cls, msg, hint = entry or _GENERIC
    params: dict[str, Any] = {
        "zone": "?",
        "region": "?",
        "instance_type": "?",
        "price": "unknown",
        "max_price": "?",
        "currency": "CNY",
        "endpoint": "?",
        "disk_type": "?",
    }
    params.update({k: v for k, v in context.items() if v not in (None, "")})
    # Tencent's own message may quote the request but never a secret; keep it one line and short.
    params["detail"] = redact(" ".join(str(message or code).split()))[:300]
    params["action"] = action or "?"
    return cls(
        msg,
        hint,
        provider=PROVIDER_ID,
        code=code,
        request_id=request_id,
        retryable=cls in (ThrottledError, NetworkError),
        **params,
    )


# ---------------------------------------------------------------------------------------------
# SDK access
# ---------------------------------------------------------------------------------------------
