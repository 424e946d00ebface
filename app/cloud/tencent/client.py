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

import logging
import re
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from app.cloud.base import (
    LABGPU_TAG_KEY,
    LABGPU_TAG_VALUE,
    CloudError,
    Instance,
    NotFoundError,
)
from app.cloud.kit import PluginClient, load_sdk, to_float
from app.cloud.kit import parse_endpoint as kit_parse_endpoint
from app.cloud.pricing import bundled_rows
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.ledgerdb import CLOCK
from app.core.vocab import InstanceState

from .errors import (
    map_error,
)
from .spec import DEFAULT_HOST, LAUNCH_TAG, PROVIDER_ID, TOKEN_TAG_KEY

log = logging.getLogger("app.cloud.tencent")

API_VERSION = "2017-03-12"

# Tencent instance states → app.core.vocab.InstanceState: the InstanceState values DescribeInstances lists
# (Instance model, tencentcloud/cvm/v20170312/models.py; https://cloud.tencent.com/document/api/213/15753#InstanceStatus).
# raw_state keeps Tencent's own name, so rescue mode or a live migration shows as what it is.
STATE_MAP = {
    "PENDING": InstanceState.PENDING,
    "LAUNCH_FAILED": InstanceState.FAILED,  # 创建失败: nothing was created, nothing bills
    "RUNNING": InstanceState.RUNNING,
    # with StopChargingMode KEEP_CHARGING compute still bills: "stopped_billing" (see _to_instance)
    "STOPPED": InstanceState.STOPPED,
    "STARTING": InstanceState.STARTING,
    "STOPPING": InstanceState.STOPPING,
    "REBOOTING": InstanceState.RUNNING,
    # 停止待销毁: isolated, waiting to be destroyed (restorable from the recycle bin, e.g. after an account in
    # arrears is topped up); compute no longer bills, and it may come back RUNNING
    "SHUTDOWN": InstanceState.ISOLATED,
    "TERMINATING": InstanceState.TERMINATING,
    # Rescue mode and live migration: the instance is up in Tencent's hands and bills like a running one.
    "ENTER_RESCUE_MODE": InstanceState.RUNNING,
    "RESCUE_MODE": InstanceState.RUNNING,
    "EXIT_RESCUE_MODE": InstanceState.RUNNING,
    "ENTER_SERVICE_LIVE_MIGRATE": InstanceState.RUNNING,
    "SERVICE_LIVE_MIGRATE": InstanceState.RUNNING,
    "EXIT_SERVICE_LIVE_MIGRATE": InstanceState.RUNNING,
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


def _sdk() -> tuple[Any, ...]:
    return load_sdk(
        PROVIDER_ID,
        (("tencentcloud.common", "credential"), ("tencentcloud.cvm.v20170312", "cvm_client"),
         ("tencentcloud.common.common_client", "CommonClient"),
         ("tencentcloud.common.profile.client_profile", "ClientProfile"),
         ("tencentcloud.common.profile.http_profile", "HttpProfile"),
         ("tencentcloud.common.exception.tencent_cloud_sdk_exception", "TencentCloudSDKException")),
        QT_TRANSLATE_NOOP("LabGPU", "The Tencent Cloud SDK is not installed ({module})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Install it with: pip install tencentcloud-sdk-python-cvm tencentcloud-sdk-python-common",
        ),
    )


def parse_endpoint(endpoint: str) -> tuple[str, str]:
    """Account endpoint → (host[:port], protocol). "" → the China site over https.

    Accepts a URL ("http://127.0.0.1:9000", "https://cvm.intl.tencentcloudapi.com") or a bare host.
    """
    return kit_parse_endpoint(endpoint, default_host=DEFAULT_HOST, provider=PROVIDER_ID, hint=QT_TRANSLATE_NOOP(
        "LabGPU", "Use a host such as cvm.intl.tencentcloudapi.com or a URL such as http://127.0.0.1:9000."))


def _service_host(host: str, service: str) -> str:
    """The host for another Tencent service on the same site (cvm.intl.… → vpc.intl.…)."""
    if host.startswith("cvm."):
        return service + host[3:]
    return host  # a custom endpoint (local server, gateway) answers every service


def _resource_of(params: dict[str, Any], response: dict[str, Any]) -> str:
    """The id a state-changing call acted on (the audit log's resource column)."""
    for block, key in ((params, "InstanceIds"), (response, "InstanceIdSet"), (params, "SecurityGroupId"),
                       (response, "SecurityGroup"), (response, "KeyId"), (params, "KeyIds")):
        value = block.get(key)
        if isinstance(value, dict):
            value = value.get("SecurityGroupId")
        if isinstance(value, list):
            value = ",".join(str(v) for v in value[:10])
        if value:
            return str(value)
    return ""


def currency_for(account: Account) -> str:
    """The currency the account's site bills and prices in: the international site
    (cvm.intl.tencentcloudapi.com, www.tencentcloud.com, whose CVM price list is in USD:
    https://www.tencentcloud.com/pricing/cvm) in USD, the China site (cloud.tencent.com) in CNY. A
    custom endpoint (a gateway, the test peer) says so in the account's "currency" extra."""
    host, _ = parse_endpoint(account.endpoint)
    return "USD" if ".intl." in host else account.extra.get("currency", "CNY")


def catalog_rows() -> dict[str, dict[str, str]]:
    """Bundled specs of Tencent GPU types (GPU model, VRAM, vCPU, RAM) to fill live offers."""
    return bundled_rows(PROVIDER_ID)


def hourly_price(price: dict[str, Any] | None) -> float | None:
    """Hourly price from an ItemPrice (the discounted price when the account has a discount)."""
    if not price:
        return None
    for key in ("UnitPriceDiscount", "UnitPrice"):
        value = to_float(price.get(key))
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


def _run_start(raw: dict[str, Any]) -> datetime | None:
    """When the current run started, where CVM says it. The Instance model (tencentcloud/cvm/v20170312/
    models.py; https://cloud.tencent.com/document/api/213/15753#Instance) has no start time: only
    CreatedTime and LatestOperation ("StartInstances", …). CreatedTime is the run's start unless the
    instance was started again since (LatestOperation StartInstances); then None, and the ledger starts
    the run at the cloud's time of the answer that first showed it running."""
    if raw.get("LatestOperation") == "StartInstances":
        return None
    return _parse_time(raw.get("CreatedTime"))


def _watch_clock(client: Any) -> Any:
    """CVM's clock from its answers' HTTP Date headers (app.core.ledgerdb.CLOCK: running time and cost
    run on the cloud's clock, and a laptop clock minutes off is named). The SDK sends through a
    requests.Session kept at ``client.request.conn._session`` (tencentcloud/common/http/request.py,
    ProxyConnection); a response hook (requests' public hook API) reads the header of every answer,
    errors included (CVM answers them with HTTP 200). Another SDK layout only loses the measurement."""
    session = getattr(getattr(getattr(client, "request", None), "conn", None), "_session", None)
    hooks = getattr(session, "hooks", None)
    if isinstance(hooks, dict):
        hooks.setdefault("response", []).append(
            lambda r, *_a, **_k: CLOCK.note_date(PROVIDER_ID, getattr(r, "headers", {}).get("Date"))
        )
    else:
        log.info("Tencent SDK without the expected session: the cloud's clock is not read")
    return client


_KEY_NAME_RE = re.compile(r"[^A-Za-z0-9_]")


_TAG_VALUE_RE = re.compile(r"[^A-Za-z0-9 _.:/=+@-]")


def tag_value(text: str) -> str:
    """Tencent tag values allow letters, digits, spaces and _ . : / = + - @ (at most 255)."""
    return _TAG_VALUE_RE.sub("-", text or "")[:255]


def key_pair_name(name: str) -> str:
    """Tencent key names: letters, digits and underscores, at most 25 characters."""
    clean = _KEY_NAME_RE.sub("_", name or "labgpu").strip("_") or "labgpu"
    return clean[:25]



class TencentClient(PluginClient):
    """The plumbing every Tencent call goes through, reading instances, zones, quota and public
    images (see TencentProvider)."""

    launch_timeout = 600.0  # seconds; tests shorten it

    def billing_currency(self, account: Account) -> str:
        """The currency this account is billed in (its site's); app.cloud.pricing asks it, no call made."""
        return currency_for(account)

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
            return _watch_clock(cvm_client.CvmClient(cred, region or account.region, profile))
        return _watch_clock(common_client(service, API_VERSION, cred, region or account.region, profile))

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
                delay = self._backoff(attempt) if code.startswith("RequestLimitExceeded") else None
                if delay is not None:
                    log.info("Tencent %s throttled (%s); retry %d in %.1fs", action, code, attempt, delay)
                    self._sleep(delay)
                    continue
                log.info("Tencent %s failed: %s (request %s)", action, code, exc.get_request_id())
                raise map_error(
                    code, exc.get_message(), exc.get_request_id() or "", action=action, **ctx
                ) from None
            if state_changing:
                # each state-changing call gets its audit row with its request id (base.report_call), so the
                # account's CloudAudit history can tell LabGPU's calls from others' (app/core/cloudevents.py)
                from app.cloud import base

                base.report_call(action, _resource_of(params, response), str(response.get("RequestId", "")))
            return response


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
        # StopChargingMode KEEP_CHARGING: "关机继续收费" — compute bills while stopped (Instance.StopChargingMode,
        # tencentcloud/cvm/v20170312/models.py).
        if state == InstanceState.STOPPED and raw.get("StopChargingMode") == "KEEP_CHARGING":
            state = "stopped_billing"
        # A pay-as-you-go instance stopped with STOP_CHARGING no longer bills for compute.
        price = (prices or {}).get((zone, raw.get("InstanceType", ""), charge))
        if state in (InstanceState.TERMINATED, InstanceState.ISOLATED):
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
            launched_at=_run_start(raw),
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
                hourly = hourly_price(item.get("Price"))
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
                return hourly_price(item.get("Price"))
        return None


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
