"""AWS EC2 error codes and service quotas: what each error means and the next step."""

from __future__ import annotations

import logging
import re

from app.cloud.base import (
    AuthError,
    CapacityError,
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
from app.core.i18n import QT_TRANSLATE_NOOP

log = logging.getLogger("app.cloud.aws")

QUOTAS = {
    "g": (
        ("Running On-Demand G and VT instances", "L-DB2E81BA"),
        ("All G and VT Spot Instance Requests", "L-3819A6DF"),
    ),
    "vt": (
        ("Running On-Demand G and VT instances", "L-DB2E81BA"),
        ("All G and VT Spot Instance Requests", "L-3819A6DF"),
    ),
    # P5 spot has a quota of its own; P2-P4 share one ("Spot Instance quotas",
    # https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-spot-limits.html). On-demand, every
    # P family is one quota ("Running On-Demand P instances").
    "p5": (
        ("Running On-Demand P instances", "L-417A185B"),
        ("All P5 Spot Instance Requests", "L-C4BD4855"),
    ),
    "p": (
        ("Running On-Demand P instances", "L-417A185B"),
        ("All P4, P3 and P2 Spot Instance Requests", "L-7212CCBC"),
    ),
    "inf": (
        ("Running On-Demand Inf instances", "L-1945791B"),
        ("All Inf Spot Instance Requests", "L-B5D1601B"),
    ),
    "trn": (
        ("Running On-Demand Trn instances", "L-2C3B7624"),
        ("All Trn Spot Instance Requests", "L-6B0D517C"),
    ),
    "dl": (("Running On-Demand DL instances", "L-6E869C2A"), ("All DL Spot Instance Requests", "L-85EED4F7")),
}
STANDARD_QUOTA = (
    ("Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances", "L-1216C47A"),
    ("All Standard (A, C, D, H, I, M, R, T, Z) Spot Instance Requests", "L-34B43A08"),
)

_AUTH_HINT = QT_TRANSLATE_NOOP(
    "LabGPU",
    "Check the access key id and secret of account '{account}' (remove and add it again "
    "with the values from IAM → Security credentials) and that the key is active.",
)
CLOCK_ERROR = ErrorSpec(
    ClockSkewError,
    QT_TRANSLATE_NOOP(
        "LabGPU", "AWS rejected the request because this computer's clock is wrong (more than 5 minutes off)."
    ),
    QT_TRANSLATE_NOOP("LabGPU", "Fix your clock: turn on automatic date and time (NTP), then retry."),
)

ERRORS: dict[str, ErrorSpec] = {
    "AuthFailure": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS refused the credentials of account '{account}'."),
        _AUTH_HINT,
    ),
    "InvalidClientTokenId": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS does not know the access key id of account '{account}'."),
        _AUTH_HINT,
    ),
    "UnrecognizedClientException": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS does not know the access key id of account '{account}'."),
        _AUTH_HINT,
    ),
    "SignatureDoesNotMatch": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP(
            "LabGPU", "The secret access key of account '{account}' does not match its key id."
        ),
        _AUTH_HINT,
    ),
    "IncompleteSignature": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS refused the credentials of account '{account}'."),
        _AUTH_HINT,
    ),
    "ExpiredToken": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "The session token of account '{account}' has expired."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Get new temporary credentials (aws sts get-session-token or your "
            "SSO login) and add the account again.",
        ),
    ),
    "UnauthorizedOperation": ErrorSpec(
        PermissionError_,
        QT_TRANSLATE_NOOP("LabGPU", "The IAM user of account '{account}' may not do this ({action})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Ask the AWS account's admin to allow ec2:{action} (e.g. attach "
            "AmazonEC2FullAccess) to this user.",
        ),
    ),
    "AccessDenied": ErrorSpec(
        PermissionError_,
        QT_TRANSLATE_NOOP("LabGPU", "The IAM user of account '{account}' may not do this ({action})."),
        QT_TRANSLATE_NOOP("LabGPU", "Ask the AWS account's admin to allow {action} for this user."),
    ),
    "OptInRequired": ErrorSpec(
        PermissionError_,
        QT_TRANSLATE_NOOP("LabGPU", "Account '{account}' is not subscribed to EC2 in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Finish the AWS sign-up (payment method) or enable the region in the AWS console, then retry.",
        ),
    ),
    "RequestExpired": CLOCK_ERROR,
    "RequestTimeTooSkewed": CLOCK_ERROR,
    "InsufficientInstanceCapacity": ErrorSpec(
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS has no free {instance_type} capacity in {zone} right now."),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Try another zone or region, a similar instance type, or retry in a few minutes."
        ),
    ),
    "UnfulfillableCapacity": ErrorSpec(
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS cannot fulfil a {instance_type} request in {zone} right now."),
        QT_TRANSLATE_NOOP("LabGPU", "Try another zone, on-demand instead of spot, or retry later."),
    ),
    "InsufficientFreeAddressesInSubnet": ErrorSpec(
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "The default subnet in {zone} has no free addresses."),
        QT_TRANSLATE_NOOP("LabGPU", "Try another zone, or free addresses in that subnet."),
    ),
    "Unsupported": ErrorSpec(
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS does not offer {instance_type} in {zone}."),
        QT_TRANSLATE_NOOP("LabGPU", "Choose another zone or region where this type exists."),
    ),
    "VcpuLimitExceeded": ErrorSpec(
        QuotaError,
        QT_TRANSLATE_NOOP("LabGPU", "Your vCPU quota is too low to launch {instance_type} in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Request an increase of the quota '{quota}' ({quota_code}) in "
            "Service Quotas → Amazon EC2 for {region}; new accounts start at 0.",
        ),
    ),
    "InstanceLimitExceeded": ErrorSpec(
        QuotaError,
        QT_TRANSLATE_NOOP("LabGPU", "Account '{account}' has reached its instance limit in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Terminate instances you no longer need, or request a higher "
            "limit of '{quota}' ({quota_code}) in Service Quotas.",
        ),
    ),
    "MaxSpotInstanceCountExceeded": ErrorSpec(
        QuotaError,
        QT_TRANSLATE_NOOP("LabGPU", "Account '{account}' has reached its spot instance limit in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Cancel unused spot requests, or request a higher '{quota}' ({quota_code}) in Service Quotas.",
        ),
    ),
    "SpotMaxPriceTooLow": ErrorSpec(
        PriceTooLowError,
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Your maximum spot price {max_price} USD/h is below "
            "the current spot price {spot_price} USD/h for "
            "{instance_type} in {zone}.",
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Raise the maximum price (--max-price) to at least {spot_price}, or launch on-demand."
        ),
    ),
    "RequestLimitExceeded": ErrorSpec(
        ThrottledError,
        QT_TRANSLATE_NOOP(
            "LabGPU", "AWS kept throttling requests of account '{account}' after several retries."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU", "Wait a minute and retry; other tools using this account may be sending many requests."
        ),
        retryable=True,
    ),
    "Throttling": ErrorSpec(
        ThrottledError,
        QT_TRANSLATE_NOOP(
            "LabGPU", "AWS kept throttling requests of account '{account}' after several retries."
        ),
        QT_TRANSLATE_NOOP("LabGPU", "Wait a minute and retry."),
        retryable=True,
    ),
    "InvalidAMIID.": ErrorSpec(
        NotFoundError,
        QT_TRANSLATE_NOOP("LabGPU", "Image {image_id} does not exist in {region}."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Leave the image empty to use a Deep Learning AMI, or copy an image id "
            "from this region's EC2 console.",
        ),
    ),
    "InvalidInstanceID.": ErrorSpec(
        NotFoundError,
        QT_TRANSLATE_NOOP("LabGPU", "Instance {instance_id} does not exist on account '{account}' any more."),
        QT_TRANSLATE_NOOP("LabGPU", "Refresh the instance list: it was probably terminated."),
    ),
    "IncorrectInstanceState": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "Instance {instance_id} cannot do this in its current state."),
        QT_TRANSLATE_NOOP("LabGPU", "Wait until it has finished starting or stopping, then retry."),
    ),
    "UnsupportedOperation": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS does not allow this for instance {instance_id}: {provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Check the instance in the instances list; a stop that AWS refuses for "
                                    "good is ended by terminating the instance."),
    ),
    "IncorrectSpotRequestState": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "The spot request of instance {instance_id} does not allow this now: "
                                    "{provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Refresh the instance list; a spot instance whose request was cancelled "
                                    "can only be terminated."),
    ),
    "InvalidSpotInstanceRequestID.": ErrorSpec(
        NotFoundError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS no longer knows the spot request of instance {instance_id}."),
        QT_TRANSLATE_NOOP("LabGPU", "Refresh the instance list, then retry."),
    ),
    "IdempotentParameterMismatch": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "A launch with this client token but other settings already exists."),
        QT_TRANSLATE_NOOP("LabGPU", "Start a new launch instead of retrying the old one."),
    ),
    "InvalidBlockDeviceMapping": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS rejected the system disk: {provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Choose a larger system disk (at least the image's size) and retry."),
    ),
    "InvalidParameterValue": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS rejected a value: {provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Check the instance type, zone and image, then retry."),
    ),
    "InvalidParameterCombination": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS rejected the combination of settings: {provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Check the instance type, zone and image, then retry."),
    ),
    "InvalidInstanceType": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "AWS does not know instance type {instance_type}."),
        QT_TRANSLATE_NOOP("LabGPU", "Check the spelling (e.g. g5.xlarge) or pick an offer from the table."),
    ),
}


def quota_for(instance_type: str, spot: bool) -> tuple[str, str]:
    family = re.match(r"^[a-z]+[0-9]*", instance_type or "")  # "p5" of p5.48xlarge, "g6" of g6e.xlarge
    fam = family.group(0) if family else ""
    for prefix in sorted(QUOTAS, key=len, reverse=True):
        if fam.startswith(prefix):
            return QUOTAS[prefix][1 if spot else 0]
    return STANDARD_QUOTA[1 if spot else 0]
