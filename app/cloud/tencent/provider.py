"""Tencent Cloud CVM: accounts, live GPU prices, launch, start/stop/terminate.

Uses the small ``tencentcloud-sdk-python-cvm`` + ``-common`` packages (imported lazily so the app
starts without them and says what to install). Security groups live in the VPC API, which the CVM
package does not ship: they go through the SDK's ``CommonClient`` with the same credentials and
signature. Every call is made with a fresh client from the account and credentials it is given,
so a rotated key takes effect at once.

Each Tencent error code the app knows becomes a CloudError subclass with a sentence and a next
step; throttling (``RequestLimitExceeded``) is retried with exponential backoff and never shown.
"""

from __future__ import annotations

import csv
import logging
import re
import time
from collections.abc import Callable, Sequence
from datetime import date, datetime, timezone
from typing import Any
from urllib.parse import urlparse

from app.cloud.base import (
    LABGPU_TAG_KEY,
    LABGPU_TAG_VALUE,
    AuthError,
    CapacityError,
    CloudError,
    Instance,
    LaunchRequest,
    NotFoundError,
    PriceTooLowError,
    ProgressFn,
    QuotaError,
    SdkMissingError,
    ThrottledError,
)
from app.cloud.errors import ClockSkewError, NetworkError
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.logsetup import redact
from app.core.models import Offer

from .spec import DEFAULT_HOST as DEFAULT_HOST
from .spec import INTL_HOST as INTL_HOST
from .spec import LAUNCH_TAG, SPEC
from .spec import PROVIDER_ID as PROVIDER_ID
from .spec import TOKEN_TAG_KEY as TOKEN_TAG_KEY

log = logging.getLogger(__name__)

API_VERSION = "2017-03-12"
DEFAULT_SPOT_FRACTION = 0.8  # default spot max price: this fraction of the pay-as-you-go price

# Tencent instance states → base.STATES
STATE_MAP = {
    "PENDING": "pending",
    "LAUNCH_FAILED": "failed",
    "RUNNING": "running",
    "STOPPED": "stopped",
    "STARTING": "starting",
    "STOPPING": "stopping",
    "REBOOTING": "running",
    "SHUTDOWN": "terminated",  # stopped awaiting destruction (what a terminated instance shows)
    "TERMINATING": "terminating",
}

# GPU model per instance family, for families missing from the bundled catalog.
FAMILY_GPU = {
    "GN7": ("T4", 16.0),
    "GN7vw": ("T4", 16.0),
    "GN10X": ("V100-32GB", 32.0),
    "GN10Xp": ("V100-32GB", 32.0),
    "GT4": ("A100-40GB", 40.0),
    "GN8": ("P40", 24.0),
    "GN6": ("P4", 8.0),
    "GN6S": ("P4", 8.0),
    "GNV4": ("A10", 24.0),
    "GNV4v": ("A10", 24.0),
    "GI3X": ("T4", 16.0),
    "PNV4": ("A10", 24.0),
}

# ---------------------------------------------------------------------------------------------
# Error codes → (exception class, message, next step). Templates are translated by the UI; params
# available to every template: code, message (Tencent's text), region, zone, instance_type,
# price (current spot price, "unknown" when not known), max_price, currency, endpoint.
# ---------------------------------------------------------------------------------------------
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
    "ResourceNotFound.NoDefaultVpc": (
        CloudError,
        QT_TRANSLATE_NOOP("LabGPU", "This account has no default VPC in {region}."),
        QT_TRANSLATE_NOOP("LabGPU", "Create the default VPC in the VPC console (one click), then retry."),
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
# Older API versions answer the CAM refusal without the AuthFailure prefix.
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
def _sdk() -> Any:
    try:
        from tencentcloud.common import credential
        from tencentcloud.common.common_client import CommonClient
        from tencentcloud.common.exception.tencent_cloud_sdk_exception import TencentCloudSDKException
        from tencentcloud.common.profile.client_profile import ClientProfile
        from tencentcloud.common.profile.http_profile import HttpProfile
        from tencentcloud.cvm.v20170312 import cvm_client
    except ImportError as exc:
        raise SdkMissingError(
            QT_TRANSLATE_NOOP("LabGPU", "The Tencent Cloud SDK is not installed ({module})."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Install it with: pip install tencentcloud-sdk-python-cvm tencentcloud-sdk-python-common",
            ),  # noqa: E501 - one string for lupdate
            provider=PROVIDER_ID,
            code="SdkMissing",
            module=getattr(exc, "name", "") or "tencentcloud",
        ) from None
    return credential, cvm_client, CommonClient, ClientProfile, HttpProfile, TencentCloudSDKException


def parse_endpoint(endpoint: str) -> tuple[str, str]:
    """Account endpoint → (host[:port], protocol). "" → the China site over https.

    Accepts a URL ("http://127.0.0.1:9000", "https://cvm.intl.tencentcloudapi.com") or a bare host.
    """
    text = (endpoint or "").strip()
    if not text:
        return DEFAULT_HOST, "https"
    if "://" not in text:
        return text.rstrip("/"), "https"
    url = urlparse(text)
    scheme = url.scheme.lower()
    if scheme not in ("http", "https") or not url.netloc:
        raise CloudError(
            QT_TRANSLATE_NOOP("LabGPU", "The endpoint {endpoint} is not an http(s) URL or host name."),  # noqa: E501 - one string for lupdate
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Use a host such as cvm.intl.tencentcloudapi.com or a URL such as http://127.0.0.1:9000.",
            ),  # noqa: E501 - one string for lupdate
            provider=PROVIDER_ID,
            code="BadEndpoint",
            endpoint=text,
        )
    return url.netloc, scheme


def _service_host(host: str, service: str) -> str:
    """The host for another Tencent service on the same site (cvm.intl.… → vpc.intl.…)."""
    if host.startswith("cvm."):
        return service + host[3:]
    return host  # a custom endpoint (local server, gateway) answers every service


def currency_for(account: Account) -> str:
    """The international site bills in USD, the China site in CNY."""
    host, _ = parse_endpoint(account.endpoint)
    return "USD" if ".intl." in host else account.extra.get("currency", "CNY")


_CATALOG: dict[str, dict[str, str]] | None = None


def _catalog_rows() -> dict[str, dict[str, str]]:
    """Bundled specs of Tencent GPU types (GPU model, VRAM, vCPU, RAM) to fill live offers."""
    global _CATALOG
    if _CATALOG is None:
        rows: dict[str, dict[str, str]] = {}
        try:
            from app.core.resources import resource_path

            with open(resource_path("catalog", "offers.csv"), encoding="utf-8", newline="") as fh:
                for row in csv.DictReader(fh):
                    if row.get("provider") == PROVIDER_ID:
                        rows.setdefault(row["instance_type"], row)
        except OSError as exc:
            log.info("no bundled catalog for Tencent specs: %s", exc)
        _CATALOG = rows
    return _CATALOG


def _float(value: Any) -> float | None:
    try:
        return None if value in (None, "") else float(value)
    except (TypeError, ValueError):
        return None


def _hourly(price: dict[str, Any] | None) -> float | None:
    """Hourly price from an ItemPrice (the discounted price when the account has a discount)."""
    if not price:
        return None
    for key in ("UnitPriceDiscount", "UnitPrice"):
        value = _float(price.get(key))
        if value is not None and value > 0:
            return value
    return None


def _parse_time(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)
    except ValueError:
        try:
            return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)
        except ValueError:
            return None


_KEY_NAME_RE = re.compile(r"[^A-Za-z0-9_]")


def _say(template: str, **params: Any) -> str:
    """A progress sentence in the user's language (the UI installs the translator)."""
    from app.core.i18n import translate

    return translate(template).format(**params)


_TAG_VALUE_RE = re.compile(r"[^A-Za-z0-9 _.:/=+@-]")


def tag_value(text: str) -> str:
    """Tencent tag values allow letters, digits, spaces and _ . : / = + - @ (at most 255)."""
    return _TAG_VALUE_RE.sub("-", text or "")[:255]


def key_pair_name(name: str) -> str:
    """Tencent key names: letters, digits and underscores, at most 25 characters."""
    clean = _KEY_NAME_RE.sub("_", name or "labgpu").strip("_") or "labgpu"
    return clean[:25]


class TencentProvider:
    """The Tencent Cloud CVM provider (see app.cloud.base.Provider)."""

    id = PROVIDER_ID
    display_name = SPEC.name
    limitations: dict[str, str] = dict(SPEC.limitations)

    # Seconds; tests shorten them.
    launch_timeout = 600.0
    operation_timeout = 300.0
    poll_interval = 2.0
    retry_base_delay = 0.5
    max_attempts = 6

    def __init__(self, sleep: Callable[[float], None] = time.sleep) -> None:
        self._sleep = sleep

    def _poll_delay(self, n: int) -> float:
        """0.25 s, 0.5 s, 1 s … up to poll_interval: quick operations end fast, slow ones cost few calls."""
        return min(self.poll_interval, 0.25 * float(2**n))

    # -- plumbing ----------------------------------------------------------------------------
    def _client(self, account: Account, creds: Credentials, service: str = "cvm", region: str = "") -> Any:
        credential, cvm_client, common_client, client_profile, http_profile, _exc = _sdk()
        host, protocol = parse_endpoint(account.endpoint)
        if "://" not in (account.endpoint or ""):
            protocol = account.extra.get("protocol", protocol)  # a bare host with protocol set apart
        host = _service_host(host, service)
        cred = credential.Credential(creds.key_id, creds.secret, creds.session_token or None)
        profile = client_profile(
            httpProfile=http_profile(endpoint=host, protocol=protocol, reqTimeout=30), language="en-US"
        )
        if service == "cvm":
            return cvm_client.CvmClient(cred, region or account.region, profile)
        return common_client(service, API_VERSION, cred, region or account.region, profile)

    def _call(
        self,
        account: Account,
        creds: Credentials,
        action: str,
        params: dict[str, Any],
        *,
        service: str = "cvm",
        region: str = "",
        context: dict[str, Any] | None = None,
        state_changing: bool = False,
    ) -> dict[str, Any]:
        """One API call with throttling retried (exponential backoff); errors mapped."""
        exc_type = _sdk()[5]
        client = self._client(account, creds, service, region)
        host, _ = parse_endpoint(account.endpoint)
        ctx = {"region": region or account.region, "endpoint": host, "currency": currency_for(account)}
        ctx.update(context or {})
        attempt = 0
        while True:
            attempt += 1
            try:
                response: dict[str, Any] = client.call_json(action, params)["Response"]
            except exc_type as exc:
                code = exc.get_code() or "Unknown"
                if code.startswith("RequestLimitExceeded") and attempt < self.max_attempts:
                    delay = self.retry_base_delay * (2 ** (attempt - 1))
                    log.info("Tencent %s throttled (%s); retry %d in %.1fs", action, code, attempt, delay)
                    self._sleep(delay)
                    continue
                log.info("Tencent %s failed: %s (request %s)", action, code, exc.get_request_id())
                raise map_error(
                    code, exc.get_message(), exc.get_request_id() or "", action=action, **ctx
                ) from None
            if state_changing:
                from app.cloud import base

                reporter = getattr(base, "report_request_id", None)
                if reporter is not None:
                    reporter(str(response.get("RequestId", "")))
            return response

    # -- Provider protocol -------------------------------------------------------------------
    def validate(self, account: Account, creds: Credentials) -> str:
        response = self._call(account, creds, "DescribeRegions", {})
        regions = [r.get("Region") for r in response.get("RegionSet") or []]
        if account.region and regions and account.region not in regions:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "{region} is not a Tencent Cloud region this key can use."),  # noqa: E501 - one string for lupdate
                QT_TRANSLATE_NOOP("LabGPU", "Edit the account and pick one of: {regions}."),
                provider=PROVIDER_ID,
                code="InvalidRegion",
                region=account.region,
                regions=", ".join(str(r) for r in regions[:12]),
            )
        masked = creds.key_id[:6] + "…" if len(creds.key_id) > 6 else creds.key_id
        return _say(
            QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud API key {key} ({n} regions)"),
            key=masked,
            n=len(regions),
        )

    def zones(self, account: Account, creds: Credentials, instance_type: str = "") -> list[str]:
        """The region's available zones; with a type, only those selling it (not SOLD_OUT)."""
        response = self._call(account, creds, "DescribeZones", {})
        zones = [
            z["Zone"] for z in response.get("ZoneSet") or [] if z.get("ZoneState", "AVAILABLE") == "AVAILABLE"
        ]
        if instance_type:
            try:
                items = self._quota_items(account, creds, "POSTPAID_BY_HOUR", [instance_type])
            except CloudError as exc:
                log.info("zone offerings unavailable: %s", exc.code)
                return zones
            selling = {i.get("Zone") for i in items if i.get("Status") != "SOLD_OUT"}
            zones = [z for z in zones if z in selling]
        return zones

    def _describe(
        self,
        account: Account,
        creds: Credentials,
        *,
        ids: Sequence[str] = (),
        filters: list[dict[str, Any]] | None = None,
    ) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        offset = 0
        while True:
            params: dict[str, Any] = {"Offset": offset, "Limit": 100}
            if ids:
                params["InstanceIds"] = list(ids)
            if filters:
                params["Filters"] = filters
            response = self._call(account, creds, "DescribeInstances", params)
            batch = response.get("InstanceSet") or []
            out.extend(batch)
            offset += len(batch)
            if ids or not batch or offset >= int(response.get("TotalCount") or 0):
                return out

    def _to_instance(
        self, account: Account, raw: dict[str, Any], prices: dict[tuple[str, str, str], float] | None = None
    ) -> Instance:
        zone = (raw.get("Placement") or {}).get("Zone", "")
        charge = raw.get("InstanceChargeType", "")
        tags = {t.get("Key", ""): t.get("Value", "") for t in raw.get("Tags") or []}
        state = STATE_MAP.get(raw.get("InstanceState", ""), "pending")
        # A pay-as-you-go instance stopped with STOP_CHARGING no longer bills for compute.
        price = (prices or {}).get((zone, raw.get("InstanceType", ""), charge))
        if state == "terminated":
            price = None  # the rate it billed stays in the ledger; nothing bills any more
        key_ids = (raw.get("LoginSettings") or {}).get("KeyIds") or []
        return Instance(
            id=raw["InstanceId"],
            account=account.name,
            provider=PROVIDER_ID,
            region=account.region,
            zone=zone,
            instance_type=raw.get("InstanceType", ""),
            state=state,
            spot=charge == "SPOTPAID",
            public_ip=(raw.get("PublicIpAddresses") or [""])[0] or "",
            private_ip=(raw.get("PrivateIpAddresses") or [""])[0] or "",
            price_per_hour=price,
            currency=currency_for(account),
            launched_at=_parse_time(raw.get("CreatedTime")),
            name=raw.get("InstanceName", ""),
            image_id=raw.get("ImageId", ""),
            key_name=key_ids[0] if key_ids else "",
            raw_state=raw.get("InstanceState", "")
            + (
                f"/{raw['StopChargingMode']}"
                if raw.get("InstanceState") == "STOPPED" and raw.get("StopChargingMode")
                else ""
            ),
            tags=tags,
        )

    def _prices_for(
        self, account: Account, creds: Credentials, raws: Sequence[dict[str, Any]]
    ) -> dict[tuple[str, str, str], float]:
        """Current hourly prices for the (zone, type, charge type) of these instances."""
        wanted: dict[tuple[str, str], set[str]] = {}
        for raw in raws:
            zone = (raw.get("Placement") or {}).get("Zone", "")
            charge = raw.get("InstanceChargeType", "")
            if zone and charge in ("POSTPAID_BY_HOUR", "SPOTPAID"):
                wanted.setdefault((zone, charge), set()).add(raw.get("InstanceType", ""))
        prices: dict[tuple[str, str, str], float] = {}
        for (zone, charge), types in wanted.items():
            try:
                items = self._quota_items(account, creds, charge, sorted(types), zone=zone)
            except CloudError as exc:  # prices are a nicety here; the instance list must still show
                log.info("no live price for %s in %s: %s", sorted(types), zone, exc.code)
                continue
            for item in items:
                hourly = _hourly(item.get("Price"))
                if hourly is not None:
                    prices[(item.get("Zone", ""), item.get("InstanceType", ""), charge)] = hourly
        return prices

    def list_instances(self, account: Account, creds: Credentials) -> list[Instance]:
        raws = self._describe(
            account, creds, filters=[{"Name": f"tag:{LABGPU_TAG_KEY}", "Values": [LABGPU_TAG_VALUE]}]
        )
        prices = self._prices_for(account, creds, raws)
        return [self._to_instance(account, raw, prices) for raw in raws]

    def find_by_client_token(self, account: Account, creds: Credentials, token: str) -> Instance | None:
        """The instance a launch with this token made (its own tag, or the launcher's labgpu-launch tag)."""
        raws: list[dict[str, Any]] = []
        for key in (TOKEN_TAG_KEY, LAUNCH_TAG):
            raws = self._describe(
                account, creds, filters=[{"Name": f"tag:{key}", "Values": [tag_value(token)]}]
            )
            raws = [r for r in raws if r.get("InstanceState") not in ("SHUTDOWN", "LAUNCH_FAILED")] or raws
            if raws:
                break
        return (
            self._to_instance(account, raws[0], self._prices_for(account, creds, raws[:1])) if raws else None
        )

    def get_instance(self, account: Account, creds: Credentials, instance_id: str) -> Instance | None:
        raws = self._describe(account, creds, ids=[instance_id])
        return self._to_instance(account, raws[0], self._prices_for(account, creds, raws)) if raws else None

    # -- prices ------------------------------------------------------------------------------
    def _quota_items(
        self, account: Account, creds: Credentials, charge: str, instance_types: Sequence[str], zone: str = ""
    ) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        types = list(instance_types)
        for start in range(0, max(len(types), 1), 10):  # Tencent filters take at most 10 values
            filters = [{"Name": "instance-charge-type", "Values": [charge]}]
            if types:
                filters.append({"Name": "instance-type", "Values": types[start : start + 10]})
            if zone:
                filters.append({"Name": "zone", "Values": [zone]})
            response = self._call(
                account,
                creds,
                "DescribeZoneInstanceConfigInfos",
                {"Filters": filters},
                context={"zone": zone},
            )
            items.extend(response.get("InstanceTypeQuotaSet") or [])
        return items

    def current_price(
        self, account: Account, creds: Credentials, instance_type: str, zone: str, spot: bool
    ) -> float | None:
        charge = "SPOTPAID" if spot else "POSTPAID_BY_HOUR"
        for item in self._quota_items(account, creds, charge, [instance_type], zone=zone):
            if item.get("Zone") == zone and item.get("InstanceType") == instance_type:
                return _hourly(item.get("Price"))
        return None

    def refresh_prices(
        self, account: Account, creds: Credentials, instance_types: Sequence[str]
    ) -> list[Offer]:
        """Live pay-as-you-go and spot prices per zone, and the monthly prepaid price (one zone)."""
        now = datetime.now(timezone.utc)
        currency = currency_for(account)
        on_demand = {
            (i["Zone"], i["InstanceType"]): i
            for i in self._quota_items(account, creds, "POSTPAID_BY_HOUR", instance_types)
        }
        spot = {
            (i["Zone"], i["InstanceType"]): i
            for i in self._quota_items(account, creds, "SPOTPAID", instance_types)
        }
        monthly = self._prepaid_prices(account, creds, sorted({k for k in on_demand} | {k for k in spot}))
        offers: list[Offer] = []
        for zone, itype in sorted(set(on_demand) | set(spot)):
            od, sp = on_demand.get((zone, itype)), spot.get((zone, itype))
            first = od or sp or {}
            row = _catalog_rows().get(itype, {})
            family = itype.split(".")[0]
            gpu_model, vram = FAMILY_GPU.get(family, ("", 0.0))
            gpu_count = (
                _float(first.get("GpuCount"))
                or _float(row.get("gpu_count"))
                or (_float(first.get("Gpu")) or 0.0)
            )
            od_sold = od is None or od.get("Status") == "SOLD_OUT"
            sp_sold = sp is None or sp.get("Status") == "SOLD_OUT"
            bandwidth = _float(first.get("InstanceBandwidth"))
            offers.append(
                Offer(
                    provider=PROVIDER_ID,
                    region=account.region,
                    zone=zone,
                    instance_type=itype,
                    gpu_model=row.get("gpu_model") or gpu_model or "?",
                    gpu_count=float(gpu_count or 0.0),
                    vram_gb=_float(row.get("vram_gb")) or vram,
                    vcpu=int(first.get("Cpu") or _float(row.get("vcpu")) or 0) or None,
                    ram_gb=_float(first.get("Memory")) or _float(row.get("ram_gb")),
                    network_gbps=bandwidth if bandwidth else _float(row.get("network_gbps")),
                    price_on_demand=_hourly(od.get("Price")) if od else None,
                    price_spot=_hourly(sp.get("Price")) if sp else None,
                    price_prepaid_month=monthly.get((zone, itype)),
                    currency=currency,
                    price_source="Tencent Cloud API (DescribeZoneInstanceConfigInfos, InquiryPriceRunInstances)",  # noqa: E501
                    price_date=date.today(),
                    spot_available=not sp_sold,
                    interconnect=row.get("interconnect", ""),
                    dedicated=row.get("dedicated") == "yes",
                    notes=row.get("notes", ""),
                    live=True,
                    fetched_at=now,
                    sold_out=od_sold and sp_sold,
                    extra=(
                        ("on_demand_status", (od or {}).get("Status", "")),
                        ("spot_status", (sp or {}).get("Status", "")),
                    ),
                )
            )
        return offers

    def _prepaid_prices(
        self, account: Account, creds: Credentials, keys: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], float]:
        """Monthly prepaid price, asked once per type in its first zone (the price is per region)."""
        out: dict[tuple[str, str], float] = {}
        if not keys:
            return out
        try:
            image = self._any_public_image(account, creds)
        except CloudError as exc:
            log.info("no image for a prepaid inquiry: %s", exc.code)
            return out
        seen: dict[str, float | None] = {}
        for zone, itype in keys:
            if itype not in seen:
                params = {
                    "Placement": {"Zone": zone},
                    "InstanceType": itype,
                    "ImageId": image,
                    "InstanceChargeType": "PREPAID",
                    "InstanceChargePrepaid": {"Period": 1, "RenewFlag": "NOTIFY_AND_MANUAL_RENEW"},
                }
                try:
                    response = self._call(
                        account,
                        creds,
                        "InquiryPriceRunInstances",
                        params,
                        context={"zone": zone, "instance_type": itype},
                    )
                    price = (response.get("Price") or {}).get("InstancePrice") or {}
                    seen[itype] = _float(price.get("DiscountPrice")) or _float(price.get("OriginalPrice"))
                except CloudError as exc:
                    log.info("no prepaid price for %s: %s", itype, exc.code)
                    seen[itype] = None
            value = seen[itype]
            if value is not None:
                out[(zone, itype)] = value
        return out

    # -- images --------------------------------------------------------------------------------
    def _public_images(
        self, account: Account, creds: Credentials, instance_type: str = ""
    ) -> list[dict[str, Any]]:
        params: dict[str, Any] = {
            "Filters": [{"Name": "image-type", "Values": ["PUBLIC_IMAGE"]}],
            "Limit": 100,
        }
        if instance_type:
            params["InstanceType"] = instance_type
        images: list[dict[str, Any]] = []
        for _page in range(10):  # public images number in the hundreds: read them all (at most 1000)
            response = self._call(account, creds, "DescribeImages", dict(params, Offset=len(images)))
            batch = list(response.get("ImageSet") or [])
            images.extend(batch)
            if not batch or len(images) >= int(response.get("TotalCount") or 0):
                break
        return images

    def _any_public_image(self, account: Account, creds: Credentials) -> str:
        images = self._public_images(account, creds)
        ubuntu = [i for i in images if "ubuntu" in (i.get("OsName", "") + i.get("ImageName", "")).lower()]
        pick = (ubuntu or images or [{}])[0].get("ImageId")
        if not pick:
            raise NotFoundError(
                QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud listed no public images in {region}."),  # noqa: E501 - one string for lupdate
                QT_TRANSLATE_NOOP("LabGPU", "Pass an image id (--image) from the CVM console."),  # noqa: E501 - one string for lupdate
                provider=PROVIDER_ID,
                code="NoImage",
                region=account.region,
            )
        return str(pick)

    def pick_image(self, account: Account, creds: Credentials, instance_type: str) -> tuple[str, str, bool]:
        """(image id, image name, is a GPU image with CUDA) for this type: a public GPU image when one
        exists, else the newest public Ubuntu (the caller tells the user to install drivers)."""
        images = [
            i
            for i in self._public_images(account, creds, instance_type)
            if i.get("ImageState", "NORMAL") == "NORMAL" and not i.get("ImageDeprecated")
        ]

        def text(img: dict[str, Any]) -> str:
            return f"{img.get('ImageName', '')} {img.get('ImageDescription', '')} {img.get('OsName', '')}".lower()  # noqa: E501

        def score(img: dict[str, Any]) -> int:
            t = text(img)
            return (4 if "pytorch" in t else 0) + (2 if "cuda" in t else 0) + (1 if "gpu" in t else 0)

        gpu = [i for i in images if score(i) >= 2]
        if gpu:
            best = max(gpu, key=lambda i: (score(i), i.get("CreatedTime", "")))
            return best["ImageId"], best.get("ImageName", ""), True
        ubuntu = [i for i in images if "ubuntu" in text(i)]
        if ubuntu:
            best = max(ubuntu, key=lambda i: (i.get("CreatedTime", ""), i.get("ImageName", "")))
            return best["ImageId"], best.get("ImageName", ""), False
        raise NotFoundError(
            QT_TRANSLATE_NOOP(
                "LabGPU", "No public GPU or Ubuntu image supports {instance_type} in {region}."
            ),  # noqa: E501 - one string for lupdate
            QT_TRANSLATE_NOOP("LabGPU", "Pick an image id in the CVM console and pass it with --image."),  # noqa: E501 - one string for lupdate
            provider=PROVIDER_ID,
            code="NoImage",
            instance_type=instance_type,
            region=account.region,
        )

    # -- launch --------------------------------------------------------------------------------
    def _ensure_key(self, account: Account, creds: Credentials, req: LaunchRequest) -> str:
        if not req.public_key:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "No SSH public key was given for the new instance."),
                QT_TRANSLATE_NOOP("LabGPU", "Create a key or choose an existing one in the launch dialog."),  # noqa: E501 - one string for lupdate
                provider=PROVIDER_ID,
                code="NoSshKey",
            )
        wanted = " ".join(req.public_key.split()[:2])
        base_name = key_pair_name(req.ssh_key_name or "labgpu")
        response = self._call(account, creds, "DescribeKeyPairs", {"Limit": 100})
        existing = response.get("KeyPairSet") or []
        for kp in existing:
            if " ".join((kp.get("PublicKey") or "").split()[:2]) == wanted:
                return str(kp["KeyId"])
        names = {kp.get("KeyName") for kp in existing}
        name, n = base_name, 1
        while name in names:  # same name, different key: never overwrite someone's key
            n += 1
            name = f"{base_name[:22]}_{n}"
        response = self._call(
            account,
            creds,
            "ImportKeyPair",
            {"KeyName": name, "ProjectId": 0, "PublicKey": wanted},
            state_changing=True,
        )
        return str(response["KeyId"])

    def _ensure_security_group(self, account: Account, creds: Credentials, cidr: str) -> str:
        if not cidr:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "No address range was given for SSH access."),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "Give your public address (e.g. 203.0.113.7/32) or your VPN range; LabGPU never opens SSH to the whole internet by itself.",  # noqa: E501
                ),  # noqa: E501 - one string for lupdate
                provider=PROVIDER_ID,
                code="NoSshCidr",
            )
        name = "labgpu-ssh-" + re.sub(r"[^0-9A-Za-z]", "-", cidr)
        found = self._call(
            account,
            creds,
            "DescribeSecurityGroups",
            {"Filters": [{"Name": "security-group-name", "Values": [name]}], "Limit": "20"},
            service="vpc",
        )
        for sg in found.get("SecurityGroupSet") or []:
            if sg.get("SecurityGroupName") == name:
                return str(sg["SecurityGroupId"])
        created = self._call(
            account,
            creds,
            "CreateSecurityGroup",
            {
                "GroupName": name,
                "GroupDescription": f"LabGPU: SSH from {cidr} only",
                "ProjectId": "0",
                "Tags": [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}],
            },
            service="vpc",
            state_changing=True,
        )
        sg_id = str(created["SecurityGroup"]["SecurityGroupId"])
        self._call(
            account,
            creds,
            "CreateSecurityGroupPolicies",
            {
                "SecurityGroupId": sg_id,
                "SecurityGroupPolicySet": {
                    "Ingress": [
                        {
                            "Protocol": "TCP",
                            "Port": "22",
                            "CidrBlock": cidr,
                            "Action": "ACCEPT",
                            "PolicyDescription": "LabGPU SSH",
                        }
                    ],
                    "Egress": [
                        {
                            "Protocol": "ALL",
                            "Port": "ALL",
                            "CidrBlock": "0.0.0.0/0",
                            "Action": "ACCEPT",
                            "PolicyDescription": "LabGPU outbound",
                        }
                    ],
                },
            },
            service="vpc",
            state_changing=True,
        )
        return sg_id

    def run_instances_params(
        self,
        req: LaunchRequest,
        *,
        zone: str,
        image_id: str,
        key_id: str,
        security_group_id: str,
        max_price: float | None,
        bandwidth_mbps: int = 100,
        disk_type: str = "CLOUD_PREMIUM",
    ) -> dict[str, Any]:
        """The RunInstances request body (public so a test checks every field against the SDK)."""
        tags = [{"Key": LABGPU_TAG_KEY, "Value": LABGPU_TAG_VALUE}]
        if req.client_token:
            tags.append({"Key": TOKEN_TAG_KEY, "Value": tag_value(req.client_token)})
        tags += [
            {"Key": k, "Value": tag_value(v)}
            for k, v in req.tags.items()
            if k not in (LABGPU_TAG_KEY, TOKEN_TAG_KEY)
        ]
        params: dict[str, Any] = {
            "InstanceChargeType": "SPOTPAID" if req.spot else "POSTPAID_BY_HOUR",
            "Placement": {"Zone": zone},
            "InstanceType": req.instance_type,
            "ImageId": image_id,
            "SystemDisk": {"DiskType": disk_type, "DiskSize": int(req.disk_gb)},
            "InternetAccessible": {
                "InternetChargeType": "TRAFFIC_POSTPAID_BY_HOUR",
                "InternetMaxBandwidthOut": bandwidth_mbps,
                "PublicIpAssigned": True,
            },
            "InstanceCount": 1,
            "InstanceName": (req.name or f"labgpu-{req.instance_type}")[:60],
            "LoginSettings": {"KeyIds": [key_id]},
            "SecurityGroupIds": [security_group_id],
            "TagSpecification": [{"ResourceType": "instance", "Tags": tags}],
        }
        if req.client_token:
            params["ClientToken"] = req.client_token[:64]
        if req.spot:
            params["InstanceMarketOptions"] = {
                "MarketType": "spot",
                "SpotOptions": {
                    "MaxPrice": f"{max_price:.4f}" if max_price else "",
                    "SpotInstanceType": "one-time",
                },
            }
            if not max_price:
                del params["InstanceMarketOptions"]["SpotOptions"]["MaxPrice"]
        return params

    def launch(
        self, account: Account, creds: Credentials, req: LaunchRequest, progress: ProgressFn | None = None
    ) -> Instance:
        def step(name: str, message: str = "") -> None:
            if progress is not None:
                progress(name, message)

        zone = req.zone or next(iter(self.zones(account, creds, req.instance_type)), "")
        ctx: dict[str, Any] = {"zone": zone, "instance_type": req.instance_type, "currency": currency_for(account)}
        # Crash-and-retry: the same token already made an instance → return it, create nothing.
        if req.client_token:
            found = self.find_by_client_token(account, creds, req.client_token)
            if found is not None and found.state not in ("terminated", "failed"):
                step(
                    "request",
                    _say(QT_TRANSLATE_NOOP("LabGPU", "{id} already exists for this launch."), id=found.id),
                )
                return found
        step("key", _say(QT_TRANSLATE_NOOP("LabGPU", "Registering the SSH public key with Tencent Cloud…")))
        key_id = self._ensure_key(account, creds, req)
        step(
            "security_group",
            _say(QT_TRANSLATE_NOOP("LabGPU", "Security group: SSH from {cidr} only."), cidr=req.ssh_cidr),
        )
        sg_id = self._ensure_security_group(account, creds, req.ssh_cidr)
        if req.image_id:
            image_id = req.image_id
            step("image", _say(QT_TRANSLATE_NOOP("LabGPU", "Image {image}."), image=image_id))
        else:
            image_id, image_name, is_gpu = self.pick_image(account, creds, req.instance_type)
            if is_gpu:
                step(
                    "image",
                    _say(
                        QT_TRANSLATE_NOOP("LabGPU", "GPU image {name} ({image})."),
                        name=image_name,
                        image=image_id,
                    ),
                )
            else:
                step(
                    "image",
                    _say(
                        QT_TRANSLATE_NOOP(
                            "LabGPU",
                            "No public GPU image with CUDA found for {type}: using {name} ({image}); install the NVIDIA driver and CUDA yourself.",  # noqa: E501
                        ),
                        type=req.instance_type,
                        name=image_name,
                        image=image_id,
                    ),
                )
        max_price = req.max_price
        if req.spot and max_price is None:
            on_demand = self.current_price(account, creds, req.instance_type, zone, spot=False)
            if on_demand is None:
                raise CloudError(
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "The pay-as-you-go price of {instance_type} in {zone} is unknown, so no default spot maximum price can be set.",  # noqa: E501
                    ),  # noqa: E501 - one string for lupdate
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Give a maximum spot price (--max-price) or launch on demand."
                    ),  # noqa: E501 - one string for lupdate
                    provider=PROVIDER_ID,
                    code="NoOnDemandPrice",
                    **ctx,
                )
            max_price = round(on_demand * DEFAULT_SPOT_FRACTION, 4)
        params = self.run_instances_params(
            req,
            zone=zone,
            image_id=image_id,
            key_id=key_id,
            security_group_id=sg_id,
            max_price=max_price,
            bandwidth_mbps=int(account.extra.get("bandwidth_mbps", 100)),
            disk_type=account.extra.get("disk_type", "CLOUD_PREMIUM"),
        )
        if req.spot:
            step(
                "request",
                _say(
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Requesting spot {type} in {zone} (maximum {price} {currency}/h)…"
                    ),
                    type=req.instance_type,
                    zone=zone,
                    price=f"{max_price:.4f}" if max_price else "?",
                    currency=ctx["currency"],
                ),
            )
        else:
            step(
                "request",
                _say(
                    QT_TRANSLATE_NOOP("LabGPU", "Requesting pay-as-you-go {type} in {zone}…"),
                    type=req.instance_type,
                    zone=zone,
                ),
            )
        try:
            response = self._call(
                account,
                creds,
                "RunInstances",
                params,
                state_changing=True,
                context=dict(ctx, max_price=f"{max_price:.4f}" if max_price else "?"),
            )
        except PriceTooLowError as exc:
            price = None
            try:
                price = self.current_price(account, creds, req.instance_type, zone, spot=True)
            except CloudError:
                pass
            if price is not None:
                exc.params["price"] = f"{price:.4f}"
                exc.args = (exc.text(),)
            raise
        instance_id = (response.get("InstanceIdSet") or [""])[0]
        if not instance_id:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Tencent Cloud accepted the launch but returned no instance id."),  # noqa: E501 - one string for lupdate
                QT_TRANSLATE_NOOP("LabGPU", "Open the instances page: LabGPU lists every tagged instance."),  # noqa: E501 - one string for lupdate
                provider=PROVIDER_ID,
                code="NoInstanceId",
                request_id=str(response.get("RequestId", "")),
            )
        # Return at once (the instance bills from now): the launcher records it, then waits for RUNNING.
        raws = self._describe(account, creds, ids=[instance_id])
        if raws:
            return self._to_instance(account, raws[0], self._prices_for(account, creds, raws))
        return Instance(
            id=instance_id,
            account=account.name,
            provider=PROVIDER_ID,
            region=account.region,
            zone=zone,
            instance_type=req.instance_type,
            state="pending",
            spot=req.spot,
            currency=ctx["currency"],
            name=params["InstanceName"],
            image_id=image_id,
            key_name=key_id,
            raw_state="PENDING",
            tags={t["Key"]: t["Value"] for t in params["TagSpecification"][0]["Tags"]},
        )

    def wait_running(self, account: Account, creds: Credentials, instance_id: str) -> Instance:
        """Poll until RUNNING (LAUNCH_FAILED → CapacityError; timeout → CloudError)."""
        deadline = time.monotonic() + self.launch_timeout
        polls = 0
        last = None
        while True:
            raws = self._describe(account, creds, ids=[instance_id])
            if raws:
                raw = raws[0]
                last = raw.get("InstanceState")
                if last == "RUNNING":
                    return self._to_instance(account, raw, self._prices_for(account, creds, raws))
                if last == "LAUNCH_FAILED":
                    raise CapacityError(
                        QT_TRANSLATE_NOOP("LabGPU", "Instance {instance_id} failed to launch: {detail}"),
                        QT_TRANSLATE_NOOP(
                            "LabGPU",
                            "Try another zone or instance type; nothing keeps billing for a failed launch.",
                        ),  # noqa: E501 - one string for lupdate
                        provider=PROVIDER_ID,
                        code="LAUNCH_FAILED",
                        instance_id=instance_id,
                        detail=raw.get("LatestOperationErrorMsg") or "no reason given",
                    )
            if time.monotonic() > deadline:
                raise CloudError(
                    QT_TRANSLATE_NOOP("LabGPU", "Instance {instance_id} is still {state} after {seconds} s."),  # noqa: E501 - one string for lupdate
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "It may still start: watch it on the instances page, and terminate it there if it never runs.",  # noqa: E501
                    ),  # noqa: E501 - one string for lupdate
                    provider=PROVIDER_ID,
                    code="LaunchTimeout",
                    instance_id=instance_id,
                    state=last or "unknown",
                    seconds=int(self.launch_timeout),
                )
            self._sleep(self._poll_delay(polls))
            polls += 1

    # -- lifecycle -----------------------------------------------------------------------------
    def _wait_operation(
        self, account: Account, creds: Credentials, instance_id: str, done_states: Sequence[str]
    ) -> dict[str, Any] | None:
        """Poll until the last operation finished (LatestOperationState) and the state is reached."""
        deadline = time.monotonic() + self.operation_timeout
        polls = 0
        while True:
            raws = self._describe(account, creds, ids=[instance_id])
            if not raws:
                return None  # gone: terminated and destroyed
            raw = raws[0]
            op_state = raw.get("LatestOperationState")
            if op_state == "FAILED":
                raise CloudError(
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Tencent Cloud could not {operation} {instance_id}: {detail}"
                    ),  # noqa: E501 - one string for lupdate
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Retry; if it keeps failing, check the instance in the CVM console."
                    ),  # noqa: E501 - one string for lupdate
                    provider=PROVIDER_ID,
                    code="OperationFailed",
                    instance_id=instance_id,
                    operation=raw.get("LatestOperation") or "change",
                    detail=raw.get("LatestOperationErrorMsg") or "no reason given",
                    request_id=raw.get("LatestOperationRequestId") or "",
                )
            if op_state != "OPERATING" and raw.get("InstanceState") in done_states:
                return raw
            if time.monotonic() > deadline:
                raise CloudError(
                    QT_TRANSLATE_NOOP("LabGPU", "{instance_id} is still {state} after {seconds} s."),  # noqa: E501 - one string for lupdate
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Reload the instances page in a minute to see where it stands."
                    ),  # noqa: E501 - one string for lupdate
                    provider=PROVIDER_ID,
                    code="OperationTimeout",
                    instance_id=instance_id,
                    state=raw.get("InstanceState", "?"),
                    seconds=int(self.operation_timeout),
                )
            self._sleep(self._poll_delay(polls))
            polls += 1

    def start(self, account: Account, creds: Credentials, instance_id: str) -> None:
        self._call(account, creds, "StartInstances", {"InstanceIds": [instance_id]}, state_changing=True)
        self._wait_operation(account, creds, instance_id, ("RUNNING",))

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        """Stop with STOP_CHARGING (compute stops billing); where the instance cannot, stop with
        KEEP_CHARGING and say plainly that it still bills."""
        params = {"InstanceIds": [instance_id], "StopType": "SOFT_FIRST", "StoppedMode": "STOP_CHARGING"}
        try:
            self._call(account, creds, "StopInstances", params, state_changing=True)
            mode = "STOP_CHARGING"
        except CloudError as exc:
            if exc.code != "UnsupportedOperation.StoppedModeStopCharging":
                raise
            params["StoppedMode"] = "KEEP_CHARGING"
            self._call(account, creds, "StopInstances", params, state_changing=True)
            mode = "KEEP_CHARGING"
        raw = self._wait_operation(account, creds, instance_id, ("STOPPED",))
        if raw is not None and raw.get("StopChargingMode") in ("STOP_CHARGING", "KEEP_CHARGING"):
            mode = raw["StopChargingMode"]
        # Templates: the caller translates (CloudService.stop does).
        if mode == "STOP_CHARGING":
            return QT_TRANSLATE_NOOP(
                "LabGPU",
                "Stopped without charging: CPU, GPU and memory no longer bill; the cloud disks still bill, and the public IP may change when it starts again.",  # noqa: E501
            )  # noqa: E501 - one string for lupdate
        return QT_TRANSLATE_NOOP(
            "LabGPU",
            "Stopped, but this instance cannot stop without charging: it still bills the full hourly price. Terminate it to stop all charges.",  # noqa: E501
        )  # noqa: E501 - one string for lupdate

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None:
        self._call(account, creds, "TerminateInstances", {"InstanceIds": [instance_id]}, state_changing=True)
        self._wait_operation(account, creds, instance_id, ("SHUTDOWN",))

