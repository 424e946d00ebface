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
A code not in the table still gets the generic sentence with its own code and message.
"""

from __future__ import annotations

from typing import Any

from app.cloud.base import AuthError, CloudError, ThrottledError
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

_GROUPS: dict[ErrorSpec, tuple[str, ...]] = {
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
    params: dict[str, Any] = {"region": "?", "endpoint": "?"}
    params.update({k: v for k, v in context.items() if v not in (None, "")})
    params["action"] = action or "?"
    table = {**TABLE, NO_PROJECT_CODE: NO_PROJECT}
    return _map_error(PROVIDER_ID, code or "Unknown", message, request_id, table, **params)
