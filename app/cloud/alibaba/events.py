"""Alibaba Cloud ActionTrail's event history (LookupEvents, 2020-07-06) for one region.

The SDK (alibabacloud_actiontrail20200706, models LookupEventsRequest / LookupEventsResponseBody): StartTime and
EndTime in ISO 8601 UTC (``YYYY-MM-DDThh:mm:ssZ``), MaxResults 0 to 50, one LookupAttribute per query
("You can use only one query condition for each query"), NextToken paging ("not returned if no more
results"). Each event is an object of the ActionTrail event log reference
(https://help.aliyun.com/document_detail/28819.html): eventId, eventName, eventTime, eventRW, requestId,
sourceIpAddress, userIdentity, requestParameters, serviceName, resourceName.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

from app.cloud.errors import network_error
from app.cloud.eventkit import field, ids_in, no_permission, read_pages, utc_time
from app.cloud.kit import load_sdk
from app.core.accounts import Account, Credentials
from app.core.cloudevents import PAGE_LIMIT, CloudEvent, make_event
from app.core.i18n import QT_TRANSLATE_NOOP

from .client import SDK_MISSING, _sdk, parse_endpoint
from .errors import _GROUPS, RAM, map_error
from .spec import PROVIDER_ID

SERVICE = "Alibaba Cloud ActionTrail"
ACTION = "LookupEvents"
PERMISSION = "the RAM policy AliyunActionTrailReadOnlyAccess"
# A RAM refusal: the codes the plugin's error table already maps to its RAM sentence (app/cloud/alibaba/errors.py,
# each checked against Alibaba's documents by tests/cloud/test_contract_alibaba.py)
PERMISSION_CODES = frozenset(_GROUPS[RAM])
RESOURCE_KEYS = frozenset({"InstanceId", "SecurityGroupId", "KeyPairName", "instanceId"})


def _client_cls() -> Any:
    return load_sdk(PROVIDER_ID, (("alibabacloud_actiontrail20200706.client", "Client"),), SDK_MISSING,
                    QT_TRANSLATE_NOOP("LabGPU", "Install it with: pip install alibabacloud-actiontrail20200706"))[0]


def _iso(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


# One condition per query: the write events, then the console sign-ins (LookupEventsRequestLookupAttribute's
# keys EventRW and EventName, its own example value ConsoleSignin), so LabGPU's own reads never fill the bound.
QUERIES = ({"Key": "EventRW", "Value": "Write"}, {"Key": "EventName", "Value": "ConsoleSignin"})


def lookup_request(start: datetime, end: datetime, token: str = "", query: dict[str, str] | None = None,
                   ) -> dict[str, Any]:
    """LookupEvents parameters of one page, as LookupEventsRequest.from_map takes them (the contract test
    round-trips them through the SDK's model)."""
    params: dict[str, Any] = {"StartTime": _iso(start), "EndTime": _iso(end), "MaxResults": str(PAGE_LIMIT),
                              "LookupAttribute": [dict(query or QUERIES[0])]}
    if token:
        params["NextToken"] = token
    return params


def parse_event(raw: Any, region: str = "") -> CloudEvent | None:
    if not isinstance(raw, dict):
        return None
    when = utc_time(raw.get("eventTime"))
    if when is None:
        return None
    ident = raw.get("userIdentity") if isinstance(raw.get("userIdentity"), dict) else {}
    names = str(raw.get("resourceName") or "")[:4096]
    resources = [n.strip() for n in names.replace(";", ",").split(",")[:64]]
    resources += ids_in(raw.get("requestParameters"), RESOURCE_KEYS)
    token = field(raw, "requestParameters", "ClientToken")
    return make_event(
        time=when, name=raw.get("eventName") or "", source=raw.get("serviceName") or raw.get("eventSource") or "",
        actor=field(ident, "userName") or field(ident, "principalId") or "",
        source_ip=raw.get("sourceIpAddress") or "", request_id=raw.get("requestId") or "",
        resources=[r for r in resources if r], read_only=str(raw.get("eventRW", "")).lower() == "read",
        client_token=token if isinstance(token, str) else "", event_id=raw.get("eventId") or "",
        region=raw.get("acsRegion") or region, raw=raw.get("eventType") or "",
    )


class AlibabaEvents:
    """CloudEventReader (app/cloud/base.py) for Alibaba Cloud."""

    def lookup_events(self, account: Account, creds: Credentials, region: str, start: datetime, end: datetime,
                      max_events: int) -> list[CloudEvent]:
        models = load_sdk(PROVIDER_ID, (("alibabacloud_actiontrail20200706", "models"),), SDK_MISSING,
                          QT_TRANSLATE_NOOP("LabGPU", "Install it with: pip install alibabacloud-actiontrail20200706"),
                          )[0]
        _ecs, _client, config_cls, api_exc, runtime_cls, unretryable = _sdk()
        host, protocol = parse_endpoint(account.extra.get("actiontrail_endpoint") or account.endpoint)
        config = config_cls(access_key_id=creds.key_id, access_key_secret=creds.secret,
                            security_token=creds.session_token or None, region_id=region, protocol=protocol,
                            read_timeout=30000, connect_timeout=10000)
        if host:
            config.endpoint = host
        client = _client_cls()(config)
        where = host or f"actiontrail.{region}.aliyuncs.com"

        def page(token: str, query: dict[str, str]) -> tuple[list[Any], str]:
            request = models.LookupEventsRequest().from_map(lookup_request(start, end, token, query))
            try:
                body = client.lookup_events_with_options(request, runtime_cls(read_timeout=30000,
                                                                               connect_timeout=10000)).body.to_map()
            except api_exc as exc:
                data = exc.data if isinstance(exc.data, dict) else {}
                code = str(exc.code or data.get("Code") or "Unknown")
                rid = str(data.get("RequestId") or exc.request_id or "")
                if code in PERMISSION_CODES:
                    raise no_permission(PROVIDER_ID, account.name, SERVICE, PERMISSION, code, rid) from None
                raise map_error(code, str(data.get("Message") or exc.message or code), rid, action=ACTION,
                                region=region, endpoint=where) from None
            except unretryable as exc:
                reason = getattr(exc, "inner_exception", None) or exc
                raise network_error(PROVIDER_ID, where, f"{type(reason).__name__}: {reason}") from None
            events = body.get("Events") or []
            return (events if isinstance(events, list) else []), str(body.get("NextToken") or "")

        out: list[CloudEvent] = []
        for query in QUERIES:
            out += read_pages(functools.partial(_page_of, page, query), lambda raw: parse_event(raw, region),
                              max_events - len(out))
        return out


def _page_of(page: Callable[[str, dict[str, str]], tuple[list[Any], str]], query: dict[str, str],
             token: str) -> tuple[list[Any], str]:
    return page(token, query)
