"""AWS CloudTrail's event history (LookupEvents) for one region: the write events of a time span.

https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_LookupEvents.html: at most 50 events per
page (MaxResults), NextToken paging, one lookup attribute per request (ReadOnly=false here, so only
state-changing calls and console logins come back), the last 90 days. Each event's ``CloudTrailEvent`` is
a JSON string (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/cloudtrail-event-reference-record-contents.html):
requestID, sourceIPAddress, userIdentity, requestParameters (clientToken), responseElements.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.cloud.eventkit import detail, field, ids_in, no_permission, read_pages, utc_time
from app.core.accounts import Account, Credentials
from app.core.cloudevents import PAGE_LIMIT, CloudEvent, make_event

from .client import AwsClient
from .spec import PROVIDER_ID

SERVICE = "AWS CloudTrail"
PERMISSION = "cloudtrail:LookupEvents"
# The refusals of a missing IAM permission: AccessDeniedException (CloudTrail's common errors,
# https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/CommonErrors.html) and AccessDenied
# (https://docs.aws.amazon.com/STS/latest/APIReference/CommonErrors.html).
PERMISSION_CODES = frozenset({"AccessDeniedException", "AccessDenied"})
RESOURCE_KEYS = frozenset({"instanceId", "groupId", "keyName", "keyPairId", "spotInstanceRequestId"})


def lookup_request(start: datetime, end: datetime, token: str = "") -> dict[str, Any]:
    """The LookupEvents parameters of one page (validated against botocore's model by the contract test)."""
    params: dict[str, Any] = {
        "LookupAttributes": [{"AttributeKey": "ReadOnly", "AttributeValue": "false"}],
        "StartTime": start,
        "EndTime": end,
        "MaxResults": PAGE_LIMIT,
    }
    if token:
        params["NextToken"] = token
    return params


def parse_event(raw: Any, region: str = "") -> CloudEvent | None:
    """One LookupEvents ``Events`` item → CloudEvent (None when it has no time)."""
    if not isinstance(raw, dict):
        return None
    trail = detail(raw.get("CloudTrailEvent"))
    when = utc_time(raw.get("EventTime")) or utc_time(trail.get("eventTime"))
    if when is None:
        return None
    found = trail.get("userIdentity")
    ident: dict[str, Any] = found if isinstance(found, dict) else {}
    actor = ident.get("arn") or ident.get("userName") or raw.get("Username") or ident.get("principalId") or ""
    resources = [r.get("ResourceName") for r in (raw.get("Resources") or [])[:64] if isinstance(r, dict)]
    resources += ids_in([trail.get("requestParameters"), trail.get("responseElements")], RESOURCE_KEYS)
    read_only = str(raw.get("ReadOnly", trail.get("readOnly", "false"))).lower() == "true"
    return make_event(
        time=when, name=raw.get("EventName") or trail.get("eventName") or "",
        source=raw.get("EventSource") or trail.get("eventSource") or "", actor=actor,
        source_ip=trail.get("sourceIPAddress") or "", request_id=trail.get("requestID") or "",
        resources=[r for r in resources if r], read_only=read_only,
        client_token=field(trail, "requestParameters", "clientToken") or "",
        event_id=raw.get("EventId") or trail.get("eventID") or "", region=trail.get("awsRegion") or region,
        raw=f"{trail.get('eventName', '')} {trail.get('errorCode', '')}".strip(),
    )


class AwsEvents(AwsClient):
    """CloudEventReader (app/cloud/base.py) for AWS."""

    def lookup_events(self, account: Account, creds: Credentials, region: str, start: datetime, end: datetime,
                      max_events: int) -> list[CloudEvent]:
        client = self._client(account, creds, "cloudtrail", region)

        def page(token: str) -> tuple[list[Any], str]:
            try:
                resp = client.lookup_events(**lookup_request(start, end, token))
            except Exception as exc:  # noqa: BLE001 - mapped below; anything unknown re-raised by _map
                error = getattr(exc, "response", None) or {}
                code = str(field(error, "Error", "Code") or "")
                if code in PERMISSION_CODES:
                    raise no_permission(PROVIDER_ID, account.name, SERVICE, PERMISSION, code,
                                        str(field(error, "ResponseMetadata", "RequestId") or "")) from None
                raise self._map(account, exc, "lookup_events", {"region": region}) from None
            events = resp.get("Events") or []
            return (events if isinstance(events, list) else []), str(resp.get("NextToken") or "")

        return read_pages(page, lambda raw: parse_event(raw, region), max_events)
