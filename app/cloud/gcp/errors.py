"""Google Cloud error codes: each documented code the plugin's calls may answer becomes a CloudError with a
sentence and a next step (English and Chinese).

Where the codes come from:
- Compute Engine answers an HTTP error as ``{"error": {"code": 404, "message": …, "errors": [{"reason":
  "notFound", …}]}}`` (google.api_core.exceptions.format_http_response_error reads ``errors[].reason``); the
  Compute API's error catalog (https://cloud.google.com/compute/docs/reference/rest/v1/errors) lists
  PERMISSIONS_ERROR (403), INVALID_FIELD_VALUE (400), PROJECT_NOT_FOUND (404), NETWORK_NOT_FOUND (404); the
  JSON reasons ``notFound`` (404), ``forbidden`` (403), ``alreadyExists`` (409), ``invalid`` (400),
  ``quotaExceeded`` and ``rateLimitExceeded`` (403/429) and ``authError`` (401) are the Google APIs' standard
  JSON error reasons (the API design guide, https://cloud.google.com/apis/design/errors, "HTTP mapping" and
  the v1 error format's ``errors[].reason``).
- A long-running call (instances.insert, start, stop, delete) fails in its Operation's ``error.errors[].code``:
  a zone stock-out is ZONE_RESOURCE_POOL_EXHAUSTED or ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS
  (https://cloud.google.com/compute/docs/troubleshooting/troubleshooting-resource-availability: "not related
  to your Compute Engine quota" — another zone may have it), a quota refusal QUOTA_EXCEEDED
  (https://cloud.google.com/docs/quotas/troubleshoot: a quota increase is the fix, another zone is not).
- The OAuth token endpoint refuses a service-account JWT assertion with ``invalid_grant``
  (https://developers.google.com/identity/protocols/oauth2/service-account#error-codes: "Invalid JWT
  Signature" for a deleted or disabled key, "Invalid JWT: Token must be a short-lived token…" for a clock
  that is off); google.auth raises it as RefreshError.
A code not in the table still gets the generic sentence with its own code and message.
"""

from __future__ import annotations

from typing import Any

from app.cloud.base import AuthError, CapacityError, CloudError, NotFoundError, QuotaError, ThrottledError
from app.cloud.errors import ErrorSpec, InvalidRequestError, PermissionError_
from app.cloud.errors import map_error as _map_error
from app.core.i18n import QT_TRANSLATE_NOOP

from .spec import PROVIDER_ID

STOCK_OUT = ErrorSpec(
    CapacityError,
    QT_TRANSLATE_NOOP("LabGPU", "{zone} has no {instance_type} left right now ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Try another zone of the region, another GPU type, or again later: capacity "
                                "changes often. This is not a quota: a quota increase does not help."),
    retryable=True,
)
QUOTA = ErrorSpec(
    QuotaError,
    QT_TRANSLATE_NOOP("LabGPU", "The project's Compute Engine quota does not allow this ({error_code}): "
                                "{provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Ask for a higher GPU or vCPU quota for {region} under IAM & Admin > Quotas in "
                                "the Google Cloud console (a new project's GPU quota is 0); another zone of the "
                                "same region shares the quota."),
)
THROTTLED = ErrorSpec(
    ThrottledError,
    QT_TRANSLATE_NOOP("LabGPU", "Google Cloud is limiting this project's requests right now ({error_code})."),
    QT_TRANSLATE_NOOP("LabGPU", "Wait a minute and retry."),
    retryable=True,
)
NOT_FOUND = ErrorSpec(
    NotFoundError,
    QT_TRANSLATE_NOOP("LabGPU", "Google Cloud has no such resource ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Reload the instances page: it may have been deleted. If the project is "
                                "named, check the account's project and the key's project_id."),
)
DENIED = ErrorSpec(
    PermissionError_,
    QT_TRANSLATE_NOOP("LabGPU", "This service account may not do that in project {project} ({error_code}): "
                                "{provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "In IAM & Admin > IAM, give the service account the Compute Instance Admin (v1) "
                                "and Compute Security Admin roles, and enable the Compute Engine API."),
)
AUTH = ErrorSpec(
    AuthError,
    QT_TRANSLATE_NOOP("LabGPU", "Google Cloud refused the service-account key ({error_code}): "
                                "{provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "The key may be deleted or disabled, or this computer's clock is off: check the "
                                "clock, or create a new JSON key under IAM & Admin > Service accounts > Keys and "
                                "paste it into the account again."),
)
INVALID = ErrorSpec(
    InvalidRequestError,
    QT_TRANSLATE_NOOP("LabGPU", "Google Cloud refused the request ({error_code}): {provider_message}"),
    QT_TRANSLATE_NOOP("LabGPU", "Check the instance type, zone and image: {instance_type} in {zone}."),
)

_GROUPS: dict[ErrorSpec, tuple[str, ...]] = {
    STOCK_OUT: ("ZONE_RESOURCE_POOL_EXHAUSTED", "ZONE_RESOURCE_POOL_EXHAUSTED_WITH_DETAILS"),
    QUOTA: ("QUOTA_EXCEEDED", "quotaExceeded"),
    THROTTLED: ("rateLimitExceeded",),
    NOT_FOUND: ("notFound", "PROJECT_NOT_FOUND", "NETWORK_NOT_FOUND"),
    DENIED: ("forbidden", "PERMISSIONS_ERROR"),
    AUTH: ("authError", "invalid_grant"),
    INVALID: ("invalid", "INVALID_FIELD_VALUE", "alreadyExists"),
}

TABLE: dict[str, ErrorSpec] = {code: spec for spec, codes in _GROUPS.items() for code in codes}
DOCUMENTED_ERROR_CODES: tuple[str, ...] = tuple(TABLE)

# Not a cloud code: LabGPU's own refusal of a secret that is not a service-account key (see keyfile.py).
BAD_KEY = "BadServiceAccountKey"


def map_error(code: str, message: str, request_id: str = "", **context: Any) -> CloudError:
    """Turn a Google Cloud error into the CloudError the user sees (a sentence and a next step)."""
    params: dict[str, Any] = {"region": "?", "zone": "?", "instance_type": "?", "project": "?"}
    params.update({k: v for k, v in context.items() if v not in (None, "")})
    return _map_error(PROVIDER_ID, code or "Unknown", message, request_id, TABLE, **params)
