"""Huawei Cloud ECS: the SDK plumbing every call goes through.

Uses ``huaweicloudsdkecs`` (ECS v2) on ``huaweicloudsdkcore`` (imported lazily, so the app starts without
them and says what to install). Every call builds a fresh client from the account and the credentials it
is given (a rotated key takes effect at once): ``EcsClient.new_builder()`` with ``BasicCredentials(ak, sk,
project_id)`` and the endpoint (``with_endpoints``): the account's own one (a proxy, a test
server) or ``https://ecs.<region>.myhuaweicloud.com``. The SDK signs each request with SDK-HMAC-SHA256.
Requests are the SDK's own request models (``ListServerAzInfoRequest``…), answers read back with
``to_json_object()`` (the API's own JSON names). Throttling is retried with exponential backoff; every
other error code becomes a CloudError (see errors.py).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any

from app.cloud.base import Instance, report_call
from app.cloud.errors import network_error
from app.cloud.kit import PluginClient, load_sdk
from app.cloud.kit import parse_endpoint as kit_parse_endpoint
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

from .errors import NO_PROJECT_CODE, map_error
from .spec import PROVIDER_ID

log = logging.getLogger("app.cloud.huawei")

SDK_MISSING = QT_TRANSLATE_NOOP("LabGPU", "The Huawei Cloud SDK is not installed ({module}).")
SDK_HINT = QT_TRANSLATE_NOOP("LabGPU", "Install it with: pip install huaweicloudsdkecs huaweicloudsdkvpc "
                                       "huaweicloudsdkims huaweicloudsdkkps huaweicloudsdkcore")

# The services the plugin calls: (SDK module, client class, endpoint host prefix). Endpoints are
# <prefix>.<region>.myhuaweicloud.com (Huawei Cloud "Regions and Endpoints"; the SDKs' own region tables:
# huaweicloudsdkkps/v3/region/kps_region.py names kms.<region> for KPS, the key pair service of DEW).
ECS, VPC, VPC3, IMS, KPS = "ecs", "vpc", "vpc3", "ims", "kps"
SERVICES: dict[str, tuple[str, str, str]] = {
    ECS: ("huaweicloudsdkecs.v2", "EcsClient", "ecs"),
    VPC: ("huaweicloudsdkvpc.v2", "VpcClient", "vpc"),  # subnets (the v3 API has no CreateSubnet)
    VPC3: ("huaweicloudsdkvpc.v3", "VpcClient", "vpc"),  # VPCs and security groups, with tags
    IMS: ("huaweicloudsdkims.v2", "ImsClient", "ims"),
    KPS: ("huaweicloudsdkkps.v3", "KpsClient", "kms"),
}
# Every call the plugin makes, by service (the contract test checks each is an SDK request model and a
# client method that is not deprecated; _call refuses any other name)
VALIDATE_CALL = "ListServerAzInfo"
ECS_CALLS = (VALIDATE_CALL, "ListFlavorSellPolicies", "CreatePostPaidServers", "ShowJob", "ListServersDetails",
             "BatchStartServers", "BatchStopServers", "DeleteServers")
CALLS: dict[str, tuple[str, ...]] = {
    ECS: ECS_CALLS,
    VPC: ("ListSubnets", "CreateSubnet"),
    VPC3: ("ListVpcs", "CreateVpc", "ListSecurityGroups", "CreateSecurityGroup", "ListSecurityGroupRules",
           "CreateSecurityGroupRule"),
    IMS: ("ListImages",),
    KPS: ("ListKeypairs", "CreateKeypair"),
}
SERVICE_OF: dict[str, str] = {name: service for service, names in CALLS.items() for name in names}
THROTTLED_CODES = ("APIGW.0308", "APIG.0308")
TIMEOUT = (10, 30)  # (connect, read) seconds

# ServiceResponseException's text, as the SDK words it when IAM's project look-up fails
_CODE_IN_TEXT = re.compile(r"error_code: ?([A-Za-z0-9_.]+)")


def _core() -> tuple[Any, ...]:
    """(BasicCredentials, Region, HttpConfig, SdkException, ServiceResponseException, ConnectionException,
    RequestTimeoutException) from huaweicloudsdkcore."""
    return load_sdk(
        PROVIDER_ID,
        (("huaweicloudsdkcore.auth.credentials", "BasicCredentials"), ("huaweicloudsdkcore.region.region", "Region"),
         ("huaweicloudsdkcore.http.http_config", "HttpConfig"),
         ("huaweicloudsdkcore.exceptions.exceptions", "SdkException"),
         ("huaweicloudsdkcore.exceptions.exceptions", "ServiceResponseException"),
         ("huaweicloudsdkcore.exceptions.exceptions", "ConnectionException"),
         ("huaweicloudsdkcore.exceptions.exceptions", "RequestTimeoutException")),
        SDK_MISSING, SDK_HINT,
    )


def sdk(service: str) -> tuple[Any, Any]:
    """(the models module, the client class) of one service."""
    module, client, _host = SERVICES[service]
    return load_sdk(PROVIDER_ID, ((module, "model"), (module, client)), SDK_MISSING, SDK_HINT)


def ecs_sdk() -> tuple[Any, Any]:
    """(the ECS v2 models module, EcsClient)."""
    return sdk(ECS)


def models(service: str = ECS) -> Any:
    """The models module of one service (request bodies are built from its classes)."""
    return sdk(service)[0]


def request_model(name: str) -> Any:
    """The SDK's request model class of one call (``ListServerAzInfoRequest``, ``CreateVpcRequest``…)."""
    return getattr(sdk(SERVICE_OF.get(name, ECS))[0], f"{name}Request")


def parse_endpoint(endpoint: str) -> tuple[str, str]:
    """Account endpoint → (host[:port], protocol); ("", "https") = Huawei's endpoint for the region."""
    return kit_parse_endpoint(endpoint, default_host="", provider=PROVIDER_ID, hint=QT_TRANSLATE_NOOP(
        "LabGPU", "Use a host such as ecs.cn-north-4.myhuaweicloud.com or a URL such as http://127.0.0.1:9000."))


def endpoint_url(account: Account, service: str = ECS) -> str:
    """The URL a service's calls go to: the account's endpoint, else ``https://<host>.<region>.myhuaweicloud.com``
    (Huawei Cloud "Regions and Endpoints"); BSS is global: ``https://bss.myhuaweicloud.com``."""
    host, protocol = parse_endpoint(account.endpoint)
    if host:
        return f"{protocol}://{host}"
    if service == "bss":
        return "https://bss.myhuaweicloud.com"
    prefix = SERVICES[service][2] if service in SERVICES else service
    return f"https://{prefix}.{account.region}.myhuaweicloud.com"


def _loopback_http(url: str) -> bool:
    return url.startswith(("http://127.", "http://localhost", "http://[::1]"))


class HuaweiClient(PluginClient):
    """The plumbing every ECS call goes through (see HuaweiProvider)."""

    def _client(self, account: Account, creds: Credentials, client_cls: Any, service: str = ECS) -> Any:
        """A client for one call, its endpoint given directly (``with_endpoints``: the project id is looked up
        by ``_with_client``, where its threads are cleaned up, not inside ``build()``)."""
        basic, _region, http_config, *_ = _core()
        url = endpoint_url(account, service)
        if service == "bss":  # a global service: GlobalCredentials (the domain id is looked up)
            credentials = load_sdk(PROVIDER_ID, (("huaweicloudsdkcore.auth.credentials", "GlobalCredentials"),),
                                   SDK_MISSING, SDK_HINT)[0](creds.key_id, creds.secret)
        else:
            credentials = basic(creds.key_id, creds.secret, account.extra.get("project_id") or None)
        if account.endpoint:
            # IAM's project look-up (when no project id is set) goes to the same custom endpoint
            credentials = credentials.with_iam_endpoint(url)
        config = http_config.get_default_config()
        config.timeout = TIMEOUT
        # Certificates are checked everywhere but on an http loopback test endpoint (nothing to check there)
        config.ignore_ssl_verification = _loopback_http(url)
        return (client_cls.new_builder().with_http_config(config).with_credentials(credentials)
                .with_endpoints([url]).build())

    def _with_client(self, account: Account, client: Any, call: Callable[[Any], Any]) -> Any:
        """``call(client)`` after the project id of the account's region is known (the SDK's own IAM
        look-up, KeystoneListProjects, when the account sets none); the client's threads and session are
        closed afterwards."""
        http = client.get_http_client()
        try:
            # the builder's credentials (the SDK keeps no public getter): BasicCredentials need the region's
            # project id, GlobalCredentials (BSS) the account's domain id (IAM KeystoneListAuthDomains)
            credentials = client._credentials
            known = getattr(credentials, "project_id", None) or getattr(credentials, "domain_id", None)
            if not known:
                credentials.process_auth_params(http, account.region)
            return call(client)
        finally:
            http.executor.shutdown(wait=True)
            http.close()

    def project_id(self, account: Account, creds: Credentials) -> str:
        """The project id of the account's region: its ``project_id`` extra, else the SDK's IAM look-up."""
        def look_up() -> _Raw:  # a fresh client per attempt (a throttled attempt's client is closed)
            client = self._client(account, creds, ecs_sdk()[1])
            return _Raw(self._with_client(account, client, lambda c: c._credentials.project_id))

        found: str = self._invoke(account, creds, look_up, "KeystoneListProjects")["id"]
        return found

    def _call(self, account: Account, creds: Credentials, name: str, params: dict[str, Any] | None = None, *,
              request: Any = None, context: dict[str, Any] | None = None, state_changing: bool = False,
              resource: str = "") -> dict[str, Any]:
        """One call (``name``: the SDK's request name without ``Request``; ``params``: the request model's
        fields, bodies built from the SDK's own model classes, or ``request``: the model itself), throttling
        retried, errors mapped. A state-changing call is reported for the audit log with the request id Huawei
        answered."""
        service = SERVICE_OF.get(name)
        if service is None:
            raise ValueError(f"{name} is not a declared Huawei Cloud call (client.CALLS)")
        mods, client_cls = sdk(service)
        model = getattr(mods, f"{name}Request")
        if request is None:
            request = model(**(params or {}))
        elif type(request) is not model:
            raise TypeError(f"{name} takes a {model.__name__}")
        method = _snake(name)
        body = self._invoke(
            account, creds,
            lambda: self._with_client(account, self._client(account, creds, client_cls, service),
                                      lambda c: getattr(c, method)(request)),
            name, service=service, context=context)
        if state_changing:
            report_call(name, resource, str(body.get("request_id") or body.get("job_id") or ""))
        return body

    def _invoke(self, account: Account, creds: Credentials, run: Callable[[], Any], action: str, *,
                service: str = ECS, context: dict[str, Any] | None = None) -> dict[str, Any]:
        _b, _r, _h, sdk_exc, response_exc, connection_exc, timeout_exc = _core()
        url = endpoint_url(account, service)
        ctx: dict[str, Any] = {"region": account.region, "endpoint": url, **(context or {})}
        attempt = 0
        while True:
            attempt += 1
            try:
                answer = run()
                # the answer as the API reference spells it (to_dict() is deprecated in the SDK)
                body: dict[str, Any] = answer.to_json_object() or {}
                return body
            except response_exc as exc:
                code = str(exc.error_code or "Unknown")
                if code == "429":  # the SDK's retry layer gave up on HTTP 429: the gateway's throttling code
                    code = "APIGW.0308"
                delay = self._backoff(attempt) if code in THROTTLED_CODES else None
                if delay is not None:
                    log.info("Huawei %s throttled (%s); retry %d in %.1fs", action, code, attempt, delay)
                    self._sleep(delay)
                    continue
                log.info("Huawei %s failed: %s (request %s)", action, code, exc.request_id)
                raise map_error(code, str(exc.error_msg or code), str(exc.request_id or ""), action=action,
                                **ctx) from None
            except (connection_exc, timeout_exc) as exc:
                log.info("Huawei %s: no answer from %s (%s)", action, url, type(exc).__name__)
                raise network_error(PROVIDER_ID, url, f"{type(exc).__name__}: {exc.error_msg}") from None
            except sdk_exc as exc:
                # IAM's project look-up failed inside the SDK: its text names the code IAM answered
                text = str(getattr(exc, "error_msg", "") or exc)
                found = _CODE_IN_TEXT.search(text)
                code = found.group(1) if found and found.group(1) != "None" else NO_PROJECT_CODE
                log.info("Huawei %s: project look-up failed (%s)", action, code)
                raise map_error(code, text, "", action="KeystoneListProjects", **ctx) from None


    # -- zones -----------------------------------------------------------------------------------------
    def zones(self, account: Account, creds: Credentials, instance_type: str = "") -> list[str]:
        """The region's zones (ListServerAzInfo); with a flavor, those that sell it now, pay-per-use or spot
        (ListFlavorSellPolicies, sell_status available), in the region's order."""
        body = self._call(account, creds, VALIDATE_CALL)
        zones = [str(z.get("availability_zone_id")) for z in body.get("availability_zones") or []
                 if z.get("availability_zone_id")]
        if not instance_type:
            return zones
        selling: set[str] = set()
        marker = ""
        for _page in range(MAX_PAGES):
            params: dict[str, Any] = {"flavor_id": instance_type, "sell_status": "available", "limit": PAGE_SIZE}
            if marker:
                params["marker"] = marker
            page = self._call(account, creds, "ListFlavorSellPolicies", params,
                              context={"instance_type": instance_type}).get("sell_policies") or []
            selling |= {str(p.get("availability_zone_id")) for p in page
                        if p.get("sell_mode") in ("postPaid", "spot")}
            if len(page) < PAGE_SIZE:
                break
            marker = str(page[-1].get("id") or "")
        return [z for z in zones if z in selling]

    # -- instances ---------------------------------------------------------------------------------------
    def _describe(self, account: Account, creds: Credentials, *, ids: Sequence[str] = (),
                  tag: tuple[str, str] | None = None) -> list[dict[str, Any]]:
        """ListServersDetails, every page (offset is the page number, from 1; limit at most 1000; count the
        total), by server ids or by one tag ("key=value")."""
        out: list[dict[str, Any]] = []
        for page in range(1, MAX_PAGES + 1):
            params: dict[str, Any] = {"offset": page, "limit": PAGE_SIZE}
            if ids:
                params["server_id"] = ",".join(ids)
            if tag is not None:
                params["tags"] = f"{tag[0]}={tag[1]}"
            body = self._call(account, creds, "ListServersDetails", params)
            batch = body.get("servers") or []
            out.extend(batch)
            if not batch or len(out) >= int(body.get("count") or 0):
                break
        return [s for s in out if s.get("status") not in GONE]

    def _to_instance(self, account: Account, raw: dict[str, Any],
                     prices: dict[str, tuple[float, str]] | None = None) -> Instance:
        flavor = str((raw.get("flavor") or {}).get("id") or "")
        meta = raw.get("metadata") or {}
        spot = str(meta.get("charging_mode", "")) == "2"  # metadata charging_mode: 0 pay-per-use, 2 spot
        status = str(raw.get("status") or "")
        task = str(raw.get("OS-EXT-STS:task_state") or "")
        state = TASK_MAP.get(task) or STATE_MAP.get(status, InstanceState.PENDING)
        public, private = "", ""
        for addrs in (raw.get("addresses") or {}).values():
            for a in addrs or []:
                kind = a.get("OS-EXT-IPS:type")
                if kind == "floating" and not public:
                    public = str(a.get("addr") or "")
                elif kind == "fixed" and not private and str(a.get("version", "4")) == "4":
                    private = str(a.get("addr") or "")
        price = None if spot else (prices or {}).get(flavor)
        return Instance(
            id=str(raw["id"]), account=account.name, provider=PROVIDER_ID, region=account.region,
            zone=str(raw.get("OS-EXT-AZ:availability_zone") or ""), instance_type=flavor, state=state, spot=spot,
            public_ip=public, private_ip=private, price_per_hour=price[0] if price else None,
            currency=price[1] if price else self.billing_currency(account),
            # OS-SRV-USG:launched_at: when the server last started (UTC, no zone marker); created otherwise
            launched_at=parse_time(raw.get("OS-SRV-USG:launched_at")) or parse_time(raw.get("created")),
            name=str(raw.get("name") or ""), image_id=str((raw.get("image") or {}).get("id") or ""),
            key_name=str(raw.get("key_name") or ""), raw_state=status + (f"/{task}" if task else ""),
            tags=tags_of(raw),
        )

    def billing_currency(self, account: Account) -> str:
        """Huawei Cloud's China site bills in CNY; the account's ``currency`` extra says otherwise."""
        return str(account.extra.get("currency") or "CNY")


# Huawei ECS states ("ECS Statuses", https://support.huaweicloud.com/intl/en-us/api-ecs/ecs_08_0002.html)
STATE_MAP = {
    "BUILD": InstanceState.PENDING, "ACTIVE": InstanceState.RUNNING, "SHUTOFF": InstanceState.STOPPED,
    "REBOOT": InstanceState.STARTING, "HARD_REBOOT": InstanceState.STARTING, "REBUILD": InstanceState.STARTING,
    "RESIZE": InstanceState.PENDING, "VERIFY_RESIZE": InstanceState.PENDING, "REVERT_RESIZE": InstanceState.PENDING,
    "MIGRATING": InstanceState.PENDING, "ERROR": InstanceState.FAILED, "DELETED": InstanceState.TERMINATED,
    "SOFT_DELETED": InstanceState.TERMINATED,
}
# OS-EXT-STS:task_state while an action runs
TASK_MAP = {"powering-off": InstanceState.STOPPING, "powering-on": InstanceState.STARTING,
            "deleting": InstanceState.TERMINATING, "rebooting": InstanceState.STARTING}
GONE = ("DELETED",)
PAGE_SIZE = 100
MAX_PAGES = 50


def parse_time(text: Any) -> datetime | None:
    """Huawei's times: ``2019-05-22T03:30:52Z`` or ``2018-08-15T14:21:22.000000`` (UTC)."""
    value = str(text or "").strip().rstrip("Z")
    for fmt in ("%Y-%m-%dT%H:%M:%S.%f", "%Y-%m-%dT%H:%M:%S"):
        try:
            return datetime.strptime(value, fmt).replace(tzinfo=timezone.utc)
        except ValueError:
            continue
    return None


def tags_of(raw: dict[str, Any]) -> dict[str, str]:
    """A server's tags, ["key=value", …] as ListServersDetails answers them."""
    out: dict[str, str] = {}
    for item in raw.get("tags") or []:
        key, _, value = str(item).partition("=")
        out[key] = value
    return out


def _snake(name: str) -> str:
    """``ListServerAzInfo`` → ``list_server_az_info`` (the SDK client's method)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


class _Raw:
    """A plain value in the shape of an SDK answer (``to_json_object``), for ``_invoke``."""

    def __init__(self, value: str) -> None:
        self.value = value

    def to_json_object(self) -> dict[str, str]:
        return {"id": self.value}
