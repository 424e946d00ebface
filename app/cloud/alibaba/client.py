"""Alibaba Cloud ECS: the SDK plumbing every call goes through, and reading instances and zones.

Uses ``alibabacloud-ecs20140526`` (ECS 2014-05-26) and ``alibabacloud-vpc20160428`` (the VPC API,
2016-04-28: VPCs and vSwitches; the ECS copies of those calls are deprecated, "temporarily accessible",
https://www.alibabacloud.com/help/ja/ecs/developer-reference/api-ecs-2014-05-26-createvswitch) on
``alibabacloud-tea-openapi`` (imported lazily, so the app starts without them and says what to install).
Every call builds a fresh client from the account and the
credentials it is given (a rotated key takes effect at once). Requests are built from the API's own
parameter names (``RunInstancesRequest().from_map({...})``) and answers read back with ``to_map()``,
so this code and the API reference use the same spelling. Throttling is retried with exponential
backoff and never shown; every other error code becomes a CloudError (see errors.py).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from datetime import datetime, timezone
from functools import lru_cache
from typing import Any

from app.cloud.base import LABGPU_TAG_KEY, LABGPU_TAG_VALUE, CloudError, Instance, report_call
from app.cloud.errors import network_error
from app.cloud.kit import PluginClient, load_sdk, to_float
from app.cloud.kit import parse_endpoint as kit_parse_endpoint
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

from .errors import map_error
from .spec import LAUNCH_TAG, PROVIDER_ID, TOKEN_TAG_KEY

log = logging.getLogger("app.cloud.alibaba")

PAGE_SIZE = 100  # DescribeInstances answers at most 100 per page
SPOT_STRATEGIES = ("SpotWithPriceLimit", "SpotAsPriceGo")

# Alibaba instance states (Status) → app.core.vocab.InstanceState. A released instance is no longer listed.
STATE_MAP = {
    "Pending": InstanceState.PENDING,
    "Starting": InstanceState.STARTING,
    "Running": InstanceState.RUNNING,
    "Stopping": InstanceState.STOPPING,
    "Stopped": InstanceState.STOPPED,
}


SDK_MISSING = QT_TRANSLATE_NOOP("LabGPU", "The Alibaba Cloud SDK is not installed ({module}).")


def _sdk() -> tuple[Any, ...]:
    ecs_models, client, config, api_exc, runtime, unretryable = load_sdk(
        PROVIDER_ID,
        (("alibabacloud_ecs20140526", "models"), ("alibabacloud_ecs20140526.client", "Client"),
         ("alibabacloud_tea_openapi", "models"), ("alibabacloud_tea_openapi.exceptions", "AlibabaCloudException"),
         ("darabonba.runtime", "RuntimeOptions"), ("Tea.exceptions", "UnretryableException")),
        SDK_MISSING,
        QT_TRANSLATE_NOOP("LabGPU", "Install it with: pip install alibabacloud-ecs20140526 alibabacloud-tea-openapi"),
    )
    return ecs_models, client, config.Config, api_exc, runtime, unretryable


ECS = "ecs"  # ECS 2014-05-26, endpoint ecs.<region>.aliyuncs.com
VPC = "vpc"  # VPC 2016-04-28, endpoint vpc.<region>.aliyuncs.com


def _api_sdk(api: str) -> tuple[Any, ...]:
    """(models module, Client class) of one API."""
    if api == ECS:
        return _sdk()[:2]
    return load_sdk(
        PROVIDER_ID, (("alibabacloud_vpc20160428", "models"), ("alibabacloud_vpc20160428.client", "Client")),
        SDK_MISSING, QT_TRANSLATE_NOOP("LabGPU", "Install it with: pip install alibabacloud-vpc20160428"),
    )


def request_model(api: str, action: str) -> Any:
    """The SDK's request model class of one action (``RunInstancesRequest``, ``CreateVpcRequest``…)."""
    return getattr(_api_sdk(api)[0], f"{action}Request")


@lru_cache(maxsize=2)
def _methods(api: str = ECS) -> dict[str, str]:
    """Action name (lower case, no separators) → the SDK client's ``…_with_options`` method."""
    client_cls = _api_sdk(api)[1]
    suffix = "_with_options"
    return {
        name[: -len(suffix)].replace("_", ""): name
        for name in dir(client_cls)
        if name.endswith(suffix) and not name.endswith("_async" + suffix)
    }


def parse_endpoint(endpoint: str) -> tuple[str, str]:
    """Account endpoint → (host[:port], protocol); ("", "https") = Alibaba's endpoint for the region.

    Accepts a URL (``http://127.0.0.1:9000``) or a bare host (``ecs.cn-hangzhou.aliyuncs.com``).
    """
    return kit_parse_endpoint(endpoint, default_host="", provider=PROVIDER_ID, hint=QT_TRANSLATE_NOOP(
        "LabGPU", "Use a host such as ecs.cn-hangzhou.aliyuncs.com or a URL such as http://127.0.0.1:9000."))


_ANSWERED_CURRENCY: dict[tuple[str, str], str] = {}  # (account, endpoint) → what DescribePrice answered


def currency_for(account: Account) -> str:
    """The account's billing currency: the one Alibaba's DescribePrice last answered in
    (PriceInfo.Price.Currency: CNY on the China site, USD on the international site), else the
    account's ``currency`` extra, else CNY."""
    answered = _ANSWERED_CURRENCY.get((account.name, account.endpoint))
    return answered or account.extra.get("currency", "CNY")


def remember_currency(account: Account, currency: str) -> None:
    if currency:
        _ANSWERED_CURRENCY[(account.name, account.endpoint)] = currency



def parse_time(text: str | None) -> datetime | None:
    """Alibaba's times: ``2026-12-03T08:15Z`` (minutes) or ``2026-12-03T08:15:30Z``."""
    for fmt in ("%Y-%m-%dT%H:%MZ", "%Y-%m-%dT%H:%M:%SZ"):
        try:
            return datetime.strptime(text or "", fmt).replace(tzinfo=timezone.utc)
        except ValueError:
            continue
    return None


def _note_clock(headers: Any) -> None:
    """ECS's clock from the answer's HTTP Date header (the SDK's response model keeps the headers):
    app.core.ledgerdb.CLOCK counts running time and cost on it, not on the laptop's clock."""
    if isinstance(headers, dict):
        from app.core.ledgerdb import CLOCK

        date = next((v for k, v in headers.items() if str(k).lower() == "date"), None)
        CLOCK.note_date(PROVIDER_ID, date)



_TAG_VALUE_RE = re.compile(r"[\x00-\x1f]")


def tag_value(text: str) -> str:
    """Alibaba tag values: at most 128 characters, no control characters, not starting with acs:/aliyun."""
    value = _TAG_VALUE_RE.sub("-", text or "")[:128]
    return "-" + value[1:] if value.lower().startswith(("acs:", "aliyun")) else value


def tags_of(raw: dict[str, Any]) -> dict[str, str]:
    return {t.get("TagKey", ""): t.get("TagValue", "") for t in (raw.get("Tags") or {}).get("Tag") or []}


def _first(block: Any, key: str = "IpAddress") -> str:
    values = (block or {}).get(key) or []
    return str(values[0]) if values else ""


class AlibabaClient(PluginClient):
    """The plumbing every ECS call goes through, and reading instances and zones (see AlibabaProvider)."""

    def billing_currency(self, account: Account) -> str:
        """The currency this account is billed in (the one DescribePrice answered in); no call made."""
        return currency_for(account)

    # -- plumbing ----------------------------------------------------------------------------
    def _client(self, account: Account, creds: Credentials, region: str = "", api: str = ECS) -> Any:
        config_cls = _sdk()[2]
        client_cls = _api_sdk(api)[1]
        host, protocol = self._endpoint(account, api)
        config = config_cls(
            access_key_id=creds.key_id,
            access_key_secret=creds.secret,
            security_token=creds.session_token or None,
            region_id=region or account.region,
            protocol=protocol,
            read_timeout=30000,
            connect_timeout=10000,
        )
        if host:
            config.endpoint = host
        return client_cls(config)

    def _call(
        self,
        account: Account,
        creds: Credentials,
        action: str,
        params: dict[str, Any],
        *,
        region: str = "",
        context: dict[str, Any] | None = None,
        state_changing: bool = False,
        resource: str = "",
        api: str = ECS,
    ) -> dict[str, Any]:
        """One API call (RegionId filled in), throttling retried with exponential backoff, errors mapped.
        ``api``: ECS (2014-05-26) or VPC (2016-04-28)."""
        _models, _client_cls, _config, api_exc, runtime_cls, unretryable = _sdk()
        region = region or account.region
        client = self._client(account, creds, region, api)
        method = getattr(client, _methods(api)[action.lower()])
        # RegionId where the action's model has it (DescribeRegions and DescribeInstanceTypes have none)
        has_region = hasattr(request_model(api, action)(), "region_id")
        request = self._request(api, action, {"RegionId": region, **params} if has_region else dict(params))
        host, _ = self._endpoint(account, api)
        ctx = {"region": region, "endpoint": host or f"{api}.{region}.aliyuncs.com", "currency": currency_for(account)}
        ctx.update(context or {})
        attempt = 0
        while True:
            attempt += 1
            try:
                runtime = runtime_cls(read_timeout=30000, connect_timeout=10000)
                answer = method(request, runtime)
                _note_clock(getattr(answer, "headers", None))
                body: dict[str, Any] = answer.body.to_map()
            except api_exc as exc:
                data = exc.data if isinstance(exc.data, dict) else {}
                code = str(exc.code or data.get("Code") or "Unknown")
                request_id = str(data.get("RequestId") or exc.request_id or "")
                throttled = code.startswith("Throttling") or code == "ServiceUnavailable"
                delay = self._backoff(attempt) if throttled else None
                if delay is not None:
                    log.info("Alibaba %s throttled (%s); retry %d in %.1fs", action, code, attempt, delay)
                    self._sleep(delay)
                    continue
                log.info("Alibaba %s failed: %s (request %s)", action, code, request_id)
                raise map_error(code, str(data.get("Message") or exc.message or code), request_id,
                                action=action, **ctx) from None
            except unretryable as exc:
                reason = getattr(exc, "inner_exception", None) or exc
                log.info("Alibaba %s: no answer from %s (%s)", action, ctx["endpoint"], type(reason).__name__)
                raise network_error(PROVIDER_ID, str(ctx["endpoint"]), f"{type(reason).__name__}: {reason}") from None
            if state_changing:
                report_call(action, resource, str(body.get("RequestId", "")))
            return body

    @staticmethod
    def _request(api: str, action: str, params: dict[str, Any]) -> Any:
        """The SDK's own request model for these parameters (the names are the API reference's; the
        contract test, tests/cloud/test_contract_alibaba.py, checks every field and type of it)."""
        return request_model(api, action)().from_map(params)

    @staticmethod
    def _endpoint(account: Account, api: str) -> tuple[str, str]:
        """(host, protocol) of an API for this account; ("", "https") = Alibaba's regional endpoint.
        An account with its own endpoint (a proxy, a test server) uses it for both APIs unless its
        extra names ``vpc_endpoint``."""
        if api == VPC and account.extra.get("vpc_endpoint"):
            return parse_endpoint(account.extra["vpc_endpoint"])
        return parse_endpoint(account.endpoint)

    # -- zones -----------------------------------------------------------------------------------
    def available(
        self, account: Account, creds: Credentials, *, spot: bool, instance_type: str = "", zone: str = ""
    ) -> dict[tuple[str, str], str]:
        """(zone, type) → StatusCategory (WithStock, ClosedWithStock, WithoutStock) of pay-as-you-go or
        spot instances in the region (DescribeAvailableResource)."""
        params: dict[str, Any] = {
            "DestinationResource": "InstanceType",
            "InstanceChargeType": "PostPaid",
            "SpotStrategy": "SpotAsPriceGo" if spot else "NoSpot",
        }
        if instance_type:
            params["InstanceType"] = instance_type
        if zone:
            params["ZoneId"] = zone
        body = self._call(account, creds, "DescribeAvailableResource", params,
                          context={"instance_type": instance_type, "zone": zone})
        out: dict[tuple[str, str], str] = {}
        for z in (body.get("AvailableZones") or {}).get("AvailableZone") or []:
            for res in (z.get("AvailableResources") or {}).get("AvailableResource") or []:
                for item in (res.get("SupportedResources") or {}).get("SupportedResource") or []:
                    category = item.get("StatusCategory") or ("WithStock" if item.get("Status") == "Available"
                                                              else "WithoutStock")
                    out[(str(z.get("ZoneId", "")), str(item.get("Value", "")))] = category
        return out

    def zones(self, account: Account, creds: Credentials, instance_type: str = "") -> list[str]:
        """The region's zones; with a type, those that have it in stock (pay-as-you-go or spot)."""
        body = self._call(account, creds, "DescribeZones", {})
        zones = [str(z.get("ZoneId")) for z in (body.get("Zones") or {}).get("Zone") or [] if z.get("ZoneId")]
        if instance_type:
            try:
                stock = self.available(account, creds, spot=False, instance_type=instance_type)
                stock.update({k: v for k, v in self.available(account, creds, spot=True,
                                                              instance_type=instance_type).items()
                              if v != "WithoutStock"})
            except CloudError as exc:
                log.info("zone stock unavailable: %s", exc.code)
                return zones
            zones = [z for z in zones if stock.get((z, instance_type), "WithoutStock") != "WithoutStock"]
        return zones

    # -- instances -------------------------------------------------------------------------------
    def _describe(
        self, account: Account, creds: Credentials, *, ids: Sequence[str] = (),
        tags: Sequence[tuple[str, str]] = (),
    ) -> list[dict[str, Any]]:
        """DescribeInstances, every page (PageNumber/PageSize up to TotalCount)."""
        out: list[dict[str, Any]] = []
        page = 1
        while True:
            params: dict[str, Any] = {"PageNumber": page, "PageSize": PAGE_SIZE}
            if ids:
                params["InstanceIds"] = json.dumps(list(ids))
            if tags:
                params["Tag"] = [{"Key": k, "Value": v} for k, v in tags]
            body = self._call(account, creds, "DescribeInstances", params)
            batch = (body.get("Instances") or {}).get("Instance") or []
            out.extend(batch)
            if not batch or len(out) >= int(body.get("TotalCount") or 0):
                return out
            page += 1

    def _to_instance(
        self, account: Account, raw: dict[str, Any], prices: dict[tuple[str, str, bool], tuple[float, str]]
    ) -> Instance:
        zone = str(raw.get("ZoneId", ""))
        itype = str(raw.get("InstanceType", ""))
        spot = raw.get("SpotStrategy") in SPOT_STRATEGIES
        price = prices.get((zone, itype, spot))
        status = str(raw.get("Status", ""))
        mode = raw.get("StoppedMode") or ""
        public = _first(raw.get("PublicIpAddress")) or str((raw.get("EipAddress") or {}).get("IpAddress") or "")
        private = _first((raw.get("VpcAttributes") or {}).get("PrivateIpAddress")) or _first(raw.get("InnerIpAddress"))
        state = STATE_MAP.get(status, "pending")
        # StoppedMode KeepCharging: "standard stop mode ... the instance resources are retained and billing
        # continues" (alibabacloud_ecs20140526/models/_stop_instances_request.py, StoppedMode).
        if state == InstanceState.STOPPED and mode == "KeepCharging":
            state = "stopped_billing"
        return Instance(
            id=str(raw["InstanceId"]),
            account=account.name,
            provider=PROVIDER_ID,
            region=str(raw.get("RegionId") or account.region),
            zone=zone,
            instance_type=itype,
            state=state,
            spot=spot,
            public_ip=public,
            private_ip=private,
            price_per_hour=price[0] if price else None,
            currency=price[1] if price else currency_for(account),  # the currency the price came in
            # StartTime: "the time when the instance was last started" (DescribeInstances, Instance.StartTime,
            # https://www.alibabacloud.com/help/en/ecs/developer-reference/api-ecs-2014-05-26-describeinstances;
            # alibabacloud_ecs20140526/models/_describe_instances_response_body.py): the current run's start;
            # CreationTime only when it is missing (an instance never started again).
            launched_at=parse_time(raw.get("StartTime")) or parse_time(raw.get("CreationTime")),
            name=str(raw.get("InstanceName", "")),
            image_id=str(raw.get("ImageId", "")),
            key_name=str(raw.get("KeyPairName", "")),
            raw_state=status + (f"/{mode}" if status == "Stopped" and mode and mode != "Not-applicable" else ""),
            tags=tags_of(raw),
        )

    def _prices_for(
        self, account: Account, creds: Credentials, raws: Sequence[dict[str, Any]]
    ) -> dict[tuple[str, str, bool], tuple[float, str]]:
        """Current hourly prices, with the currency DescribePrice answered in, for the (zone, type,
        spot) of these instances."""
        prices: dict[tuple[str, str, bool], tuple[float, str]] = {}
        for key in sorted({(str(r.get("ZoneId", "")), str(r.get("InstanceType", "")),
                            r.get("SpotStrategy") in SPOT_STRATEGIES) for r in raws}):
            try:
                price, currency = self.price_quote(account, creds, key[1], key[0], spot=key[2])
            except CloudError as exc:  # prices are a nicety here; the instance list must still show
                log.info("no live price for %s in %s: %s", key[1], key[0], exc.code)
                continue
            if price is not None:
                prices[key] = (price, currency)
        return prices

    def list_instances(self, account: Account, creds: Credentials) -> list[Instance]:
        raws = self._describe(account, creds, tags=[(LABGPU_TAG_KEY, LABGPU_TAG_VALUE)])
        prices = self._prices_for(account, creds, raws)
        return [self._to_instance(account, raw, prices) for raw in raws]

    def find_by_client_token(self, account: Account, creds: Credentials, token: str) -> Instance | None:
        """The instance a launch with this token made (its attempt's own tag, or the launcher's tag)."""
        for key in (TOKEN_TAG_KEY, LAUNCH_TAG):
            raws = self._describe(account, creds, tags=[(key, tag_value(token))])
            if raws:
                return self._to_instance(account, raws[0], self._prices_for(account, creds, raws[:1]))
        return None

    def get_instance(self, account: Account, creds: Credentials, instance_id: str) -> Instance | None:
        raws = self._describe(account, creds, ids=[instance_id])
        return self._to_instance(account, raws[0], self._prices_for(account, creds, raws)) if raws else None

    # -- prices ------------------------------------------------------------------------------------
    def price_quote(
        self, account: Account, creds: Credentials, instance_type: str, zone: str, *, spot: bool
    ) -> tuple[float | None, str]:
        """(hourly price of the instance alone, currency) from DescribePrice for one zone."""
        params: dict[str, Any] = {
            "ResourceType": "instance",
            "InstanceType": instance_type,
            "PriceUnit": "Hour",
            "SpotStrategy": "SpotAsPriceGo" if spot else "NoSpot",
        }
        if zone:
            params["ZoneId"] = zone
        body = self._call(account, creds, "DescribePrice", params,
                          context={"instance_type": instance_type, "zone": zone})
        price = (body.get("PriceInfo") or {}).get("Price") or {}
        details = (price.get("DetailInfos") or {}).get("DetailInfo") or []
        own = next((d for d in details if str(d.get("Resource", "")).lower() == "instancetype"), None)
        value = to_float((own or price).get("TradePrice"))
        if value is None:
            value = to_float((own or price).get("OriginalPrice"))
        answered = str(price.get("Currency") or "")  # CNY (China site) or USD (international site)
        remember_currency(account, answered)
        return value, answered or currency_for(account)

    def current_price(
        self, account: Account, creds: Credentials, instance_type: str, zone: str, spot: bool
    ) -> float | None:
        return self.price_quote(account, creds, instance_type, zone, spot=spot)[0]
