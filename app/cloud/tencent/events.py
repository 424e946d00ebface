"""Tencent CloudAudit's event history (LookUpEvents, 2019-03-19) for one region.

https://cloud.tencent.com/document/api/629/12359 and the SDK's models (tencentcloud/cloudaudit/v20190319/
models.py): StartTime/EndTime are Unix seconds, MaxResults at most 50 ("返回日志的最大条数（最大 50 条）"), one
request spans at most 7 days (LimitExceeded.OverTime, the spec's window_days), NextToken with ListOver
paging. Each Event has EventName, EventTime, Username, SourceIPAddress, RequestID, Resources (one
ResourceType/ResourceName pair) and CloudAuditEvent, the record as a JSON string.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.cloud.eventkit import detail, field, no_permission, read_pages, utc_time, windows
from app.core.accounts import Account, Credentials
from app.core.cloudevents import PAGE_LIMIT, CloudEvent, make_event

from .client import _sdk, _service_host, _watch_clock, parse_endpoint
from .errors import map_error
from .spec import PROVIDER_ID, SPEC

SERVICE = "Tencent CloudAudit"
API_VERSION = "2019-03-19"
ACTION = "LookUpEvents"
PERMISSION = "the CAM policy QcloudCloudAuditReadOnlyAccess"
# A CAM refusal: UnauthorizedOperation (tencentcloud/cloudaudit/v20190319/errorcodes.py) and the common
# AuthFailure.UnauthorizedOperation (公共错误码, https://cloud.tencent.com/document/api/213/15694).
PERMISSION_CODES = frozenset({"UnauthorizedOperation", "AuthFailure.UnauthorizedOperation"})
READ_PREFIXES = ("Describe", "Inquiry", "Get", "List", "Query", "Check", "LookUp")
# One attribute per query: the write calls (ActionType Write), then the console logins (LookupAttribute's
# AttributeKey values, tencentcloud/cloudaudit/v20190319/models.py), so LabGPU's own frequent reads never fill
# the bound.
QUERIES = ({"AttributeKey": "ActionType", "AttributeValue": "Write"},
           {"AttributeKey": "EventName", "AttributeValue": "ConsoleLogin"})


def lookup_request(start: datetime, end: datetime, token: str = "", query: dict[str, str] | None = None,
                   ) -> dict[str, Any]:
    """LookUpEvents parameters of one page (the contract test checks them against LookUpEventsRequest)."""
    params: dict[str, Any] = {"StartTime": int(start.timestamp()), "EndTime": int(end.timestamp()),
                              "MaxResults": PAGE_LIMIT, "LookupAttributes": [dict(query or QUERIES[0])]}
    if token:
        params["NextToken"] = token
    return params


def parse_event(raw: Any, region: str = "") -> CloudEvent | None:
    if not isinstance(raw, dict):
        return None
    record = detail(raw.get("CloudAuditEvent"))
    when = utc_time(raw.get("EventTime")) or utc_time(record.get("eventTime"))
    if when is None:
        return None
    name = str(raw.get("EventName") or record.get("eventName") or "")
    res = raw.get("Resources")
    names = str(res.get("ResourceName") or "") if isinstance(res, dict) else ""
    action_type = str(record.get("actionType") or "")
    read_only = action_type.lower() == "read" if action_type else name.startswith(READ_PREFIXES)
    token = field(record, "requestParameters", "ClientToken")
    return make_event(
        time=when, name=name, source=raw.get("EventSource") or "", actor=raw.get("Username") or
        field(record, "userIdentity", "principalId") or "", source_ip=raw.get("SourceIPAddress") or "",
        request_id=raw.get("RequestID") or record.get("requestID") or "",
        resources=[n.strip() for n in names[:4096].split(",")[:64]], read_only=read_only,
        client_token=token if isinstance(token, str) else "", event_id=raw.get("EventId") or "",
        region=raw.get("ResourceRegion") or raw.get("EventRegion") or region, raw=name,
    )


class TencentEvents:
    """CloudEventReader (app/cloud/base.py) for Tencent Cloud."""

    def lookup_events(self, account: Account, creds: Credentials, region: str, start: datetime, end: datetime,
                      max_events: int) -> list[CloudEvent]:
        credential, _cvm, common_client, client_profile, http_profile, exc_type = _sdk()
        host, protocol = parse_endpoint(account.endpoint)
        if "://" not in (account.endpoint or ""):
            protocol = account.extra.get("protocol", protocol)
        profile = client_profile(httpProfile=http_profile(endpoint=_service_host(host, "cloudaudit"),
                                                          protocol=protocol, reqTimeout=30), language="en-US")
        cred = credential.Credential(creds.key_id, creds.secret, creds.session_token or None)
        client = _watch_clock(common_client("cloudaudit", API_VERSION, cred, region, profile))
        source = SPEC.event_source
        out: list[CloudEvent] = []
        spans = [(q, lo, hi) for q in QUERIES for lo, hi in windows(start, end, source.window_days if source else 7)]
        for query, lo, hi in spans:
            def page(token: str, lo: datetime = lo, hi: datetime = hi, query: dict[str, str] = query,
                     ) -> tuple[list[Any], str]:
                try:
                    answer = client.call_json(ACTION, lookup_request(lo, hi, token, query))["Response"]
                except exc_type as exc:
                    code = exc.get_code() or "Unknown"
                    if code in PERMISSION_CODES:
                        raise no_permission(PROVIDER_ID, account.name, SERVICE, PERMISSION, code,
                                            exc.get_request_id() or "") from None
                    raise map_error(code, exc.get_message(), exc.get_request_id() or "", action=ACTION,
                                    region=region, endpoint=host) from None
                events = answer.get("Events") or []
                done = bool(answer.get("ListOver")) or not answer.get("NextToken")
                return (events if isinstance(events, list) else []), "" if done else str(answer["NextToken"])

            out += read_pages(page, lambda raw: parse_event(raw, region), max_events - len(out))
            if len(out) >= max_events:
                break
        return out
