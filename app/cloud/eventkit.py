"""What the three event readers share (app/cloud/<aws|tencent|alibaba>/events.py): the paging loop with its
bounds, request windows, the untrusted JSON detail, and the "grant this permission" error.

Cloud-neutral: no SDK is imported here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta, timezone
from typing import Any

from app.cloud.errors import PermissionError_
from app.core.cloudevents import MAX_EVENTS, MAX_PAGES, NO_PERMISSION, NO_PERMISSION_HINT, CloudEvent

MAX_DETAIL = 64 * 1024  # an event's JSON detail read at most this long (CloudTrail's own limit is far lower)


# page(next_token) → (raw events of one page, the next page's token or "")
PageFn = Callable[[str], tuple[list[Any], str]]


def read_pages(page: PageFn, parse: Callable[[Any], CloudEvent | None], max_events: int,
               max_pages: int = MAX_PAGES) -> list[CloudEvent]:
    """Follow the API's own paging: at most ``max_pages`` pages and ``max_events`` events (never more than
    MAX_EVENTS); a token seen before ends the loop (a cloud that answers the same token forever)."""
    limit = max(0, min(int(max_events), MAX_EVENTS))
    out: list[CloudEvent] = []
    if limit == 0:
        return out
    token = ""
    seen: set[str] = set()
    for _ in range(max_pages):
        raw, token = page(token)
        for item in raw:
            ev = parse(item)
            if ev is not None:
                out.append(ev)
            if len(out) >= limit:
                return out
        if not token or token in seen:
            break
        seen.add(token)
    return out


def windows(start: datetime, end: datetime, days: int) -> Iterator[tuple[datetime, datetime]]:
    """``start``..``end`` cut into spans of at most ``days`` days (0: one span), newest first."""
    if days <= 0 or end - start <= timedelta(days=days):
        yield start, end
        return
    step = timedelta(days=days)
    hi = end
    while hi > start:
        lo = max(start, hi - step)
        yield lo, hi
        hi = lo


def detail(text: Any) -> dict[str, Any]:
    """An event's JSON detail (CloudTrail's CloudTrailEvent, CloudAudit's CloudAuditEvent): {} when it is
    missing, too long or not a JSON object."""
    if isinstance(text, dict):
        return text
    if not isinstance(text, str) or len(text) > MAX_DETAIL:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def field(block: Any, *path: str) -> Any:
    """``block[path[0]][path[1]]…``, None where a step is missing or not an object."""
    for key in path:
        if not isinstance(block, dict):
            return None
        block = block.get(key)
    return block


def utc_time(value: Any) -> datetime | None:
    """A time as the clouds write it: a datetime, epoch seconds, or ISO-8601 (``Z`` or an offset)."""
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        try:
            return datetime.fromtimestamp(float(value), timezone.utc)
        except (OverflowError, OSError, ValueError):
            return None
    if isinstance(value, str) and len(value) <= 40:
        text = value.strip()
        if text.isdigit():
            return utc_time(int(text))
        try:
            when = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            return None
        return when if when.tzinfo else when.replace(tzinfo=timezone.utc)
    return None


def no_permission(provider: str, account: str, service: str, permission: str, code: str,
                  request_id: str = "") -> PermissionError_:
    """The keys may not read the event history: the error names the permission to grant."""
    return PermissionError_(NO_PERMISSION, NO_PERMISSION_HINT, provider=provider, code=code, request_id=request_id,
                            account=account, service=service, permission=permission, error_code=code)


def ids_in(block: Any, keys: frozenset[str], limit: int = 64, max_nodes: int = 2000) -> list[str]:
    """String values under ``keys`` anywhere in a JSON block (``instanceId`` in CloudTrail's
    requestParameters), breadth first, at most ``limit`` ids and ``max_nodes`` nodes looked at."""
    out: list[str] = []
    queue: list[Any] = [block]
    looked = 0
    while queue and looked < max_nodes and len(out) < limit:
        node = queue.pop(0)
        looked += 1
        if isinstance(node, dict):
            for k, v in node.items():
                if k in keys and isinstance(v, str) and v and v not in out:
                    out.append(v)
                elif isinstance(v, (dict, list)):
                    queue.append(v)
        elif isinstance(node, list):
            queue.extend(node[:max_nodes])
    return out[:limit]
