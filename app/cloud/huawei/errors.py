"""Huawei Cloud error codes: each documented code the first slice's calls may answer becomes a CloudError
with a sentence and a next step (English and Chinese).

Huawei's APIs answer an error as JSON ``{"error_code": "…", "error_msg": "…", "request_id": "…"}``
(the SDK reads it into ``ServiceResponseException.error_code`` / ``error_msg``). The codes below are the
API Gateway's, which every ECS, IAM and BSS call goes through: the APIG error code table
(https://support.huaweicloud.com/intl/en-us/usermanual-apig/apig-ug-180530090.html: APIG.0101 the API does
not exist, APIG.0301 incorrect IAM authentication information, APIG.0302 the IAM user is not authorized,
APIG.0305 incorrect authentication information, APIG.0306 API access denied, APIG.0308 the throttling
threshold reached), whose APIGW.* forms the API Request Signing Guide's FAQ "Common Errors Related to IAM
Authentication Information" documents (https://support.huaweicloud.com/eu/nl-nl/devg-apisign/api-sign-0001.html:
APIGW.0301 "verify aksk signature fail", "Get secretKey failed … ak not exist", and an AK locked for five
minutes after five failed signatures). Both spellings are mapped.

ECS's own codes (Ecs.*) come from the ECS API reference's "Error Codes" page
(https://support.huaweicloud.com/intl/en-us/api-ecs/ecs_07_0002.html; most ECS calls are asynchronous, so a
code may come in the answer or in the failed job ShowJob reads): Ecs.0000 request error, Ecs.0001 the number
of ECSs has reached the quota, Ecs.0002 failed to submit the task (system exception), Ecs.0003 the account is
restricted (balance, frozen), Ecs.0005 invalid parameter values, Ecs.0012 the subnet has not enough IP
addresses, Ecs.0013 insufficient EIP quota, Ecs.0100 the ECS status does not meet requirements, Ecs.0219
failed to create the ECS (the job's code when no host could take it), Ecs.0319 insufficient flavor capacity
("Check capacity: Capacity is not enough").
A code not in the table still gets the generic sentence with its own code and message.
"""

from __future__ import annotations

from typing import Any

from app.cloud.base import AuthError, CapacityError, CloudError, QuotaError, ThrottledError
from app.cloud.errors import ErrorSpec, InvalidRequestError, PermissionError_
from app.cloud.errors import map_error as _map_error
from app.core.i18n import QT_TRANSLATE_NOOP

from .spec import PROVIDER_ID

SIGNATURE = ErrorSpec(
    AuthError,
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Huawei Cloud refused the signature ({error_code}): the secret access key (SK) does not match the access "
        "key (AK), the AK is unknown, or this computer's clock is more than 15 minutes off (after five failures in a "
        "row Huawei Cloud locks the AK for five minutes).",
    ),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Edit the account and paste the AK and SK again (My Credentials > Access Keys; the SK is only in the "
        "credentials file downloaded when the key was created), and check that the system clock is right.",
    ),
)
DENIED = ErrorSpec(
    PermissionError_,
    QT_TRANSLATE_NOOP("LabGPU", "This Huawei Cloud access key may not call {action} ({error_code})."),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Ask the account administrator to give this IAM user the ECS ReadOnlyAccess (or ECS FullAccess) policy in "
        "the project of {region}, or use an access key that has it.",
    ),
)
NO_API = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "The endpoint {endpoint} has no such Huawei Cloud API ({error_code})."),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Check the account's region and endpoint: leave the endpoint empty to use ecs.<region>.myhuaweicloud.com.",
    ),
)
THROTTLED = ErrorSpec(
    ThrottledError,
    QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud is limiting this account's requests right now ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Wait a minute and retry."),
    retryable=True,
)
NO_PROJECT = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP(
        "LabGPU", "LabGPU could not find this account's project in Huawei Cloud region {region}: {provider_message}"
    ),
    QT_TRANSLATE_NOOP(
        "LabGPU",
        "Check the account's region: My Credentials > API Credentials in the Huawei Cloud console lists the "
        "projects of each region (one per region is needed).",
    ),
)

ECS_REQUEST = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud ECS refused the request {action} ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Check the instance type, image and zone in the launch dialog; if they are right, "
                                "retry later or ask Huawei Cloud support with the request id."),
)
ECS_SYSTEM = ErrorSpec(
    CloudError,
    QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud ECS could not take the task right now ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Retry in a few minutes; if it keeps failing, ask Huawei Cloud support with the "
                                "request id."),
    retryable=True,
)
ECS_QUOTA = ErrorSpec(
    QuotaError,
    QT_TRANSLATE_NOOP("LabGPU", "This Huawei Cloud account has reached its ECS quota in {region} ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Terminate instances you no longer need, or ask for a higher quota (instances, "
                                "vCPUs and memory) in the console: Resources > My Quotas."),
)
EIP_QUOTA = ErrorSpec(
    QuotaError,
    QT_TRANSLATE_NOOP("LabGPU", "This Huawei Cloud account has no EIP quota left in {region} ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Release EIPs you no longer use (Elastic IP in the console), or ask for a higher "
                                "EIP quota in Resources > My Quotas."),
)
ACCOUNT_RESTRICTED = ErrorSpec(
    PermissionError_,
    QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud restricts this account ({error_code}): the balance may be too low "
                                "or the account frozen."),
    QT_TRANSLATE_NOOP("LabGPU", "Top up the account in the Billing Center (pay-per-use needs a positive balance) "
                                "and check its status, then retry."),
)
SUBNET_FULL = ErrorSpec(
    QuotaError,
    QT_TRANSLATE_NOOP("LabGPU", "LabGPU's subnet in {region} has no free IP address left ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Terminate instances you no longer need in that subnet, or delete the labgpu VPC's "
                                "subnet in the console so that LabGPU creates a new one."),
)
BAD_STATE = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "{instance_id} is not in a state that allows {action} ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Reload the instances page and wait until it is running or stopped, then retry."),
)
NO_CAPACITY = ErrorSpec(
    CapacityError,
    QT_TRANSLATE_NOOP("LabGPU", "Huawei Cloud has no {instance_type} left in {zone} right now ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "LabGPU tries the region's other zones; if none has capacity, pick another type "
                                "or retry later."),
)

_GROUPS: dict[ErrorSpec, tuple[str, ...]] = {
    ECS_REQUEST: ("Ecs.0000", "Ecs.0005"),
    ECS_SYSTEM: ("Ecs.0002",),
    ECS_QUOTA: ("Ecs.0001",),
    EIP_QUOTA: ("Ecs.0013",),
    ACCOUNT_RESTRICTED: ("Ecs.0003",),
    SUBNET_FULL: ("Ecs.0012",),
    BAD_STATE: ("Ecs.0100",),
    NO_CAPACITY: ("Ecs.0219", "Ecs.0319"),
    SIGNATURE: ("APIGW.0301", "APIGW.0305", "APIG.0301", "APIG.0305"),
    DENIED: ("APIGW.0302", "APIGW.0306", "APIG.0302", "APIG.0306"),
    NO_API: ("APIGW.0101", "APIG.0101"),
    THROTTLED: ("APIGW.0308", "APIG.0308"),
}

TABLE: dict[str, ErrorSpec] = {code: spec for spec, codes in _GROUPS.items() for code in codes}
DOCUMENTED_ERROR_CODES: tuple[str, ...] = tuple(TABLE)
# Not a cloud code: the SDK's own refusal when IAM lists no project for the region (see client.py).
NO_PROJECT_CODE = "ProjectNotFound"


def map_error(code: str, message: str, request_id: str = "", *, action: str = "", **context: Any) -> CloudError:
    """Turn a Huawei Cloud error into the CloudError the user sees (a sentence and a next step)."""
    params: dict[str, Any] = {"region": "?", "endpoint": "?", "zone": "?", "instance_type": "?", "instance_id": "?"}
    params.update({k: v for k, v in context.items() if v not in (None, "")})
    params["action"] = action or "?"
    table = {**TABLE, NO_PROJECT_CODE: NO_PROJECT}
    return _map_error(PROVIDER_ID, code or "Unknown", message, request_id, table, **params)
