"""Provider error code → CloudError with a sentence and a next step: the shared table machinery.

Each provider keeps its own ``{code: ErrorSpec}`` table (in its plugin package, e.g. app/cloud/aws/) and
calls ``map_error``; the message templates are QT_TRANSLATE_NOOP-marked so the UI shows them in
Chinese, and the CLI's one-line form names the provider's code (``[SpotMaxPriceTooLow] …``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.cloud.base import CloudError
from app.core import providers
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.logsetup import redact


class ClockSkewError(CloudError):
    """The request's signature is expired because the computer's clock is wrong."""


class NetworkError(CloudError):
    """The endpoint could not be reached or did not answer; a launch may or may not have happened."""

    client_token = ""  # from CloudService.launch: the token to retry the launch with (never a second instance)


class InvalidRequestError(CloudError):
    pass


class PermissionError_(CloudError):  # noqa: N801 - avoid shadowing the builtin PermissionError
    pass


@dataclass(frozen=True)
class ErrorSpec:
    cls: type[CloudError]
    message: str  # template; may use {error_code}, {provider_message}, {rid} and call parameters
    hint: str
    retryable: bool = False


GENERIC_MESSAGE = QT_TRANSLATE_NOOP(
    "LabGPU", "{provider_name} refused the request ({error_code}): {provider_message}"
)
GENERIC_HINT = QT_TRANSLATE_NOOP(
    "LabGPU",
    "Look up {error_code} in the provider's documentation; quote request id {rid} if you contact support.",
)
NETWORK_MESSAGE = QT_TRANSLATE_NOOP(
    "LabGPU", "{provider_name} could not be reached at {endpoint} ({reason})."
)
NETWORK_HINT = QT_TRANSLATE_NOOP(
    "LabGPU",
    "Check your internet connection, proxy or the account's endpoint, "
    "then retry; 'labgpu ls' shows whether a launch went through.",
)



def _provider_name(provider: str) -> str:
    found = providers.find_spec(provider)
    return found.name if found is not None else provider


def _short(text: str, limit: int = 300) -> str:
    text = redact(" ".join(str(text or "").split()))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def map_error(
    provider: str,
    code: str,
    provider_message: str,
    request_id: str,
    table: Mapping[str, ErrorSpec],
    **params: Any,
) -> CloudError:
    """The CloudError for ``code`` (exact match, then the longest table prefix such as
    ``AuthFailure`` for ``AuthFailure.SignatureFailure``), else a generic one that names the code."""
    spec = table.get(code)
    if spec is None:
        prefixes = [k for k in table if k.endswith(".") and code.startswith(k)]
        if prefixes:
            spec = table[max(prefixes, key=len)]
    fill = {
        "provider_name": _provider_name(provider),
        "error_code": code,
        "provider_message": _short(provider_message),
        "rid": request_id or "-",
        **params,
    }
    if spec is None:
        return CloudError(
            GENERIC_MESSAGE,
            GENERIC_HINT,
            provider=provider,
            code=code or "Unknown",
            request_id=request_id,
            **fill,
        )
    return spec.cls(
        spec.message,
        spec.hint,
        provider=provider,
        code=code,
        request_id=request_id,
        retryable=spec.retryable,
        **fill,
    )


def network_error(provider: str, endpoint: str, reason: str) -> NetworkError:
    return NetworkError(
        NETWORK_MESSAGE,
        NETWORK_HINT,
        provider=provider,
        code="NetworkError",
        retryable=True,
        provider_name=_provider_name(provider),
        endpoint=endpoint or "-",
        reason=_short(reason, 160),
    )
