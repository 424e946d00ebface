"""Lambda Cloud API error codes: each code the API reference names for the calls LabGPU makes becomes a
CloudError with a sentence and a next step (English and Chinese).

A failed request answers ``{"error": {"code", "message", "suggestion"}}`` (the API reference, "Error
responses"); Lambda asks clients to rely on ``code``, never on the message or the suggestion, which are
shown only as the cloud's own words (plain, bounded). The codes, each an ``ApiError*`` schema of the
OpenAPI document 1.8.3 (https://cloud.lambda.ai/api/v1/docs):

- ``global/invalid-api-key`` (401, ApiErrorUnauthorized): "API key was invalid, expired, or deleted."
- ``global/account-inactive`` (403, ApiErrorAccountInactive): email not verified or no valid payment method.
- ``global/invalid-address`` (403 on launch, ApiErrorInvalidBillingAddress): the billing address is invalid.
- ``global/invalid-parameters`` (400, ApiErrorInvalidParameters): "Invalid request data."
- ``global/object-does-not-exist`` (404, ApiErrorInstanceNotFound / ApiErrorLaunchResourceNotFound): an
  instance, or a launch's instance type, SSH key, file system or image, does not exist.
- ``global/quota-exceeded`` (400 on launch, ApiErrorQuotaExceeded): "Contact Support to increase your quota."
- ``instance-operations/launch/insufficient-capacity`` (400, ApiErrorInsufficientCapacity): "Not enough
  capacity to fulfill launch request." — another region may have it.
- ``instance-operations/launch/file-system-in-wrong-region`` (400, ApiErrorFileSystemInWrongRegion).
- ``global/duplicate`` (ApiErrorDuplicate): a name already taken (an SSH key's).
- ``global/internal-error`` (ApiErrorInternal): "Try again later."
- ``provider/…`` ("Provider errors": upstream outages, "Try again shortly"), mapped by prefix.

Rate limiting: the API reference limits requests to one a second, and launches to one every 12 seconds or
five a minute, without naming an error code for a refused one; an HTTP 429 answer (RFC 6585, "Too Many
Requests") is read as THROTTLED_CODE and retried after a pause.
"""

from __future__ import annotations

from typing import Any

from app.cloud.base import AuthError, CapacityError, CloudError, NotFoundError, QuotaError, ThrottledError
from app.cloud.errors import ErrorSpec, InvalidRequestError, PermissionError_
from app.cloud.errors import map_error as _map_error
from app.core.i18n import QT_TRANSLATE_NOOP

from .spec import PROVIDER_ID

THROTTLED_CODE = "http/429"  # not a Lambda code: an HTTP 429 answer (RFC 6585)
PROVIDER_PREFIX = "provider/"

TABLE: dict[str, ErrorSpec] = {
    "global/invalid-api-key": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "Lambda refused the API key ({error_code}): it is invalid, expired or deleted."),
        QT_TRANSLATE_NOOP("LabGPU", "Create a new key on Lambda's API keys page (cloud.lambda.ai/api-keys), then "
                                    "edit the account and paste it."),
    ),
    "global/account-inactive": ErrorSpec(
        PermissionError_,
        QT_TRANSLATE_NOOP("LabGPU", "Lambda says this account is inactive ({error_code})."),
        QT_TRANSLATE_NOOP("LabGPU", "Verify the account's email address and add a valid payment method in the "
                                    "Lambda Cloud dashboard; contact Lambda Support if it stays inactive."),
    ),
    "global/invalid-address": ErrorSpec(
        PermissionError_,
        QT_TRANSLATE_NOOP("LabGPU", "Lambda refused the launch: the account's billing address is invalid "
                                    "({error_code})."),
        QT_TRANSLATE_NOOP("LabGPU", "Correct the billing address in the Lambda Cloud dashboard (Settings > "
                                    "Billing), then launch again."),
    ),
    "global/invalid-parameters": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "Lambda refused the request's data ({error_code}): {provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Check the instance type and region names (labgpu prices refresh --account "
                                    "{account} lists the types); if they are right, report this to LabGPU."),
    ),
    "global/object-does-not-exist": ErrorSpec(
        NotFoundError,
        QT_TRANSLATE_NOOP("LabGPU", "Lambda does not know what the request names ({error_code}): "
                                    "{provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "An instance may already be terminated (run 'labgpu ls'); for a launch, check "
                                    "the instance type and the account's file system name."),
    ),
    "global/quota-exceeded": ErrorSpec(
        QuotaError,
        QT_TRANSLATE_NOOP("LabGPU", "Lambda refused the launch: the account's instance quota is used up "
                                    "({error_code})."),
        QT_TRANSLATE_NOOP("LabGPU", "Terminate an instance you no longer need, or ask Lambda Support to raise the "
                                    "quota (new accounts start low; it rises as invoices are paid)."),
    ),
    "instance-operations/launch/insufficient-capacity": ErrorSpec(
        CapacityError,
        QT_TRANSLATE_NOOP("LabGPU", "Lambda has no {instance_type} free in {zone} right now ({error_code})."),
        QT_TRANSLATE_NOOP("LabGPU", "Launch in another region (leave the region to LabGPU to try each region "
                                    "with capacity), or wait: capacity comes and goes within hours."),
        retryable=True,
    ),
    "instance-operations/launch/file-system-in-wrong-region": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "The file system {file_system} is in {fs_region}, and an instance can only "
                                    "attach a file system of its own region ({error_code})."),
        QT_TRANSLATE_NOOP("LabGPU", "Launch in {fs_region}, or edit the account and clear its file system."),
    ),
    "global/duplicate": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "Lambda already has something of that name ({error_code}): "
                                    "{provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Retry: LabGPU reuses its SSH key by name; if it fails again, delete the key "
                                    "named {key_name} in the Lambda Cloud dashboard."),
    ),
    "global/internal-error": ErrorSpec(
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "Lambda had an internal error ({error_code})."),
        QT_TRANSLATE_NOOP("LabGPU", "Try again in a few minutes; contact Lambda Support if it persists."),
        retryable=True,
    ),
    PROVIDER_PREFIX: ErrorSpec(
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "A service Lambda depends on is unavailable ({error_code}): "
                                    "{provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Try again shortly; 'labgpu ls' shows whether a launch went through."),
        retryable=True,
    ),
    THROTTLED_CODE: ErrorSpec(
        ThrottledError,
        QT_TRANSLATE_NOOP("LabGPU", "Lambda is limiting this account's requests right now (HTTP 429)."),
        QT_TRANSLATE_NOOP("LabGPU", "Wait a minute and retry: Lambda takes one request a second, and one launch "
                                    "every 12 seconds."),
        retryable=True,
    ),
}

# The codes the API reference names (the contract test checks each against the OpenAPI document).
DOCUMENTED_ERROR_CODES: tuple[str, ...] = tuple(c for c in TABLE if c not in (THROTTLED_CODE, PROVIDER_PREFIX))


def _lookup(code: str) -> dict[str, ErrorSpec]:
    """The table, with a ``provider/…`` code answered by its prefix's entry."""
    if code.startswith(PROVIDER_PREFIX) and code not in TABLE:
        return {**TABLE, code: TABLE[PROVIDER_PREFIX]}
    return TABLE


def map_error(code: str, message: str, *, suggestion: str = "", **context: Any) -> CloudError:
    """Turn a Lambda error answer into the CloudError the user sees (a sentence and a next step).

    ``message`` and ``suggestion`` are the cloud's words: data, bounded and made plain by the shared
    mapper, never a template."""
    params: dict[str, Any] = {"zone": "?", "instance_type": "?", "account": "?", "file_system": "?",
                              "fs_region": "?", "key_name": "?"}
    params.update({k: v for k, v in context.items() if v not in (None, "")})
    text = " ".join(part for part in (message, suggestion) if part)
    code = code or "global/unknown"
    return _map_error(PROVIDER_ID, code, text, "", _lookup(code), **params)
