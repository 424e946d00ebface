"""Paperspace API errors → CloudError with a sentence and a next step (English; Chinese in the translations).

An error answer is ``{"code": "…", "message": "…", "details": {…}}`` with an HTTP status (the API reference's
``error`` response, https://api.paperspace.com/v1/openapi.json ``components.responses.error``, as the pspace CLI
reads it: https://github.com/Paperspace/cli/blob/main/api/client.ts ``errorSchema``). The codes are the tRPC
codes the pspace CLI lists (``API_CLIENT_ERROR_CODES`` in https://github.com/Paperspace/cli/blob/main/errors.ts)
with the HTTP statuses it maps them from (``TRPC_ERROR_CODE_HTTP_STATUS`` in api/client.ts); an answer without a
JSON body is named by its status the same way.

No capacity: the API documents no code of its own for it; it documents GET /machine-availability
(``{"available": false}``), which the launch asks first. A BAD_REQUEST or CONFLICT whose message says the type is
not available or out of capacity is read as the same (its text is data, shown bounded).
"""

from __future__ import annotations

import re
from typing import Any

from app.cloud.base import AuthError, CapacityError, CloudError, NotFoundError, QuotaError, ThrottledError
from app.cloud.errors import ErrorSpec, InvalidRequestError, PermissionError_
from app.cloud.errors import map_error as _map
from app.core.i18n import QT_TRANSLATE_NOOP

from .spec import PROVIDER_ID

# The codes the pspace CLI lists for the API (errors.ts API_CLIENT_ERROR_CODES), in its order.
DOCUMENTED_ERROR_CODES = (
    "PARSE_ERROR", "BAD_REQUEST", "INTERNAL_SERVER_ERROR", "UNAUTHORIZED", "FORBIDDEN", "NOT_FOUND",
    "METHOD_NOT_SUPPORTED", "TIMEOUT", "CONFLICT", "PRECONDITION_FAILED", "PAYLOAD_TOO_LARGE", "TOO_MANY_REQUESTS",
    "CLIENT_CLOSED_REQUEST",
)
# HTTP status → code (api/client.ts TRPC_ERROR_CODE_HTTP_STATUS), for an answer without a JSON error body.
STATUS_CODES = {
    400: "BAD_REQUEST", 401: "UNAUTHORIZED", 403: "FORBIDDEN", 404: "NOT_FOUND", 405: "METHOD_NOT_SUPPORTED",
    408: "TIMEOUT", 409: "CONFLICT", 412: "PRECONDITION_FAILED", 413: "PAYLOAD_TOO_LARGE", 429: "TOO_MANY_REQUESTS",
    499: "CLIENT_CLOSED_REQUEST", 500: "INTERNAL_SERVER_ERROR",
}
# LabGPU's own code for GET /machine-availability answering {"available": false} (no API error code exists).
UNAVAILABLE = "MachineTypeUnavailable"

THROTTLED = ("TOO_MANY_REQUESTS",)

_CAPACITY_WORDS = re.compile(r"capacity|not available|unavailable|out of stock|no (machines|availability)", re.I)

CAPACITY = ErrorSpec(
    CapacityError,
    QT_TRANSLATE_NOOP("LabGPU", "Paperspace has no {instance_type} machine free in {zone} right now."),
    QT_TRANSLATE_NOOP("LabGPU", "Try another region (leave --zone out and LabGPU tries them in turn), another "
                                "machine type, or again later."),
)

TABLE: dict[str, ErrorSpec] = {
    "UNAUTHORIZED": ErrorSpec(
        AuthError,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace did not accept the API key ({provider_message})."),
        QT_TRANSLATE_NOOP("LabGPU", "Create a new API key in the Paperspace console (Team settings > API Keys) and "
                                    "edit the account with it."),
    ),
    "FORBIDDEN": ErrorSpec(
        PermissionError_,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace refused this with the account's API key ({provider_message})."),
        QT_TRANSLATE_NOOP("LabGPU", "Use an API key of a team admin (only admins create machines), or check that "
                                    "the team's billing is in good standing."),
    ),
    "NOT_FOUND": ErrorSpec(
        NotFoundError,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace does not know {resource} ({provider_message})."),
        QT_TRANSLATE_NOOP("LabGPU", "Run 'labgpu ls' to refresh the list: it may have been deleted in the console."),
    ),
    "BAD_REQUEST": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace refused the request as invalid: {provider_message}"),
        QT_TRANSLATE_NOOP("LabGPU", "Check the machine type, region and disk size (Paperspace sells 50 GB and "
                                    "larger disks in fixed sizes), then retry."),
    ),
    "PARSE_ERROR": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace could not read LabGPU's request ({provider_message})."),
        QT_TRANSLATE_NOOP("LabGPU", "Update LabGPU; if it persists, report it with the request id {rid}."),
    ),
    "CONFLICT": ErrorSpec(
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace cannot do this to the machine in its current state "
                                    "({provider_message})."),
        QT_TRANSLATE_NOOP("LabGPU", "Wait until the machine has finished starting or stopping, then retry."),
    ),
    "PRECONDITION_FAILED": ErrorSpec(
        QuotaError,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace will not create this machine for the team yet ({provider_message})."),
        QT_TRANSLATE_NOOP("LabGPU", "Some GPU types need approval: request access to the machine type in the "
                                    "Paperspace console, or check the team's machine limit and billing."),
    ),
    "TOO_MANY_REQUESTS": ErrorSpec(
        ThrottledError,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace is limiting LabGPU's requests."),
        QT_TRANSLATE_NOOP("LabGPU", "Wait a minute and retry."),
        retryable=True,
    ),
    "INTERNAL_SERVER_ERROR": ErrorSpec(
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace had an internal error ({provider_message})."),
        QT_TRANSLATE_NOOP("LabGPU", "Retry in a few minutes; 'labgpu ls' shows whether a launch went through."),
        retryable=True,
    ),
    "TIMEOUT": ErrorSpec(
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace did not finish the request in time."),
        QT_TRANSLATE_NOOP("LabGPU", "Retry; 'labgpu ls' shows whether a launch went through."),
        retryable=True,
    ),
    "CLIENT_CLOSED_REQUEST": ErrorSpec(
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "The request to Paperspace was cut off before it finished."),
        QT_TRANSLATE_NOOP("LabGPU", "Retry; 'labgpu ls' shows whether a launch went through."),
        retryable=True,
    ),
    "METHOD_NOT_SUPPORTED": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace does not offer this call at the account's endpoint "
                                    "({provider_message})."),
        QT_TRANSLATE_NOOP("LabGPU", "Check the account's endpoint: it should end in /v1 "
                                    "(https://api.paperspace.com/v1)."),
    ),
    "PAYLOAD_TOO_LARGE": ErrorSpec(
        InvalidRequestError,
        QT_TRANSLATE_NOOP("LabGPU", "Paperspace refused the request as too large ({provider_message})."),
        QT_TRANSLATE_NOOP("LabGPU", "Use a shorter SSH public key or machine name, then retry."),
    ),
    UNAVAILABLE: CAPACITY,
}


def map_error(code: str, message: str, request_id: str = "", **params: Any) -> CloudError:
    """The CloudError of an API error answer; a refusal that says there is no capacity is a CapacityError."""
    if code in ("BAD_REQUEST", "CONFLICT", "PRECONDITION_FAILED") and _CAPACITY_WORDS.search(message or "") and (
            "instance_type" in params):
        return _map(PROVIDER_ID, code, message, request_id, {code: CAPACITY}, **params)
    params.setdefault("resource", "-")
    return _map(PROVIDER_ID, code, message, request_id, TABLE, **params)
