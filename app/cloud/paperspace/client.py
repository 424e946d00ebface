"""Paperspace's API over HTTP (urllib, strict timeouts): the bearer key, JSON in and out, the cursor paging of
its lists, throttling retried, every error answer mapped (errors.py), and machines read as LabGPU instances.

The API: https://docs.digitalocean.com/reference/paperspace/api-reference/ (base ``https://api.paperspace.com/v1``,
``Authorization: Bearer <API key>``). Lists answer ``{"items": [...], "hasMore": bool, "nextPage": cursor}`` and
take ``after`` (the cursor) and ``limit`` (1..120). A machine has ``id``, ``name``, ``state`` (off, starting,
stopping, restarting, serviceready, ready, upgrading, provisioning), ``machineType``, ``region``, ``publicIp``,
``publicIpType`` (static, dynamic, none), ``privateIp``, ``dtCreated``, ``usageRate``, ``storageRate``.
"""

from __future__ import annotations

import csv
import json
import logging
import re
import urllib.parse
from datetime import datetime, timezone
from functools import cache
from typing import Any

from app.cloud.base import Instance, report_call
from app.cloud.errors import network_error
from app.cloud.kit import PluginClient, to_float
from app.cloud.resthttp import api_root, send
from app.core.accounts import Account, Credentials
from app.core.hosts import SSH_USER_TAG
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

from .errors import STATUS_CODES, THROTTLED, map_error
from .spec import API_URL, LAUNCH_TAG, LOGIN_USER, PROVIDER_ID

log = logging.getLogger("app.cloud.paperspace")

TIMEOUT_S = 30.0  # connect + each read of one request
PAGE_LIMIT = 120  # the lists' documented maximum ``limit``
MAX_PAGES = 50  # a broken or hostile cursor cannot loop for ever
MAX_BODY = 8 * 1024 * 1024  # an answer larger than this is not read

# Machine states (machines-get ``state``) → app.core.vocab.InstanceState.
STATE_MAP = {
    "provisioning": InstanceState.PENDING,
    "starting": InstanceState.STARTING,
    "restarting": InstanceState.STARTING,
    "upgrading": InstanceState.PENDING,
    "serviceready": InstanceState.RUNNING,
    "ready": InstanceState.RUNNING,
    "stopping": InstanceState.STOPPING,
    "off": InstanceState.STOPPED,
}

# The machine name carries LabGPU's launch: "<name> token=<client token> key=<key pair name>" (the API has no
# tags; find_by_client_token and the ledger read them back from the name).
_TOKEN_RE = re.compile(r"(?:^| )token=(\S+)")
_KEY_RE = re.compile(r"(?:^| )key=(\S+)")


def machine_name(base: str, token: str, key_name: str) -> str:
    parts = [re.sub(r"\s+", "-", base.strip()) or "labgpu"]
    if token:
        parts.append(f"token={token}")
    if key_name:
        parts.append(f"key={key_name}")
    return " ".join(parts)


def launch_token(name: str) -> str:
    """The launch's client token a machine name carries (an attempt's "~N" cut off), or ""."""
    found = _TOKEN_RE.search(name or "")
    return found.group(1).split("~", 1)[0] if found else ""


def parse_time(text: Any) -> datetime | None:
    try:
        value = datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    except ValueError:
        return None
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


@cache
def catalog_prices() -> dict[str, float]:
    """Machine type → hourly USD price of the bundled catalog (the API publishes none; errors.py, spec.py)."""
    from app.core.resources import resource_path

    out: dict[str, float] = {}
    try:
        with open(resource_path("catalog", "offers.csv"), encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                price = to_float(row.get("price_on_demand"))
                if row.get("provider") == PROVIDER_ID and price is not None:
                    out.setdefault(row["instance_type"], price)
    except OSError as exc:
        log.info("no bundled catalog: %s", exc)
    return out


class PaperspaceClient(PluginClient):
    """The plumbing every API call goes through (see PaperspaceProvider)."""

    @staticmethod
    def base_url(account: Account) -> str:
        """The API root with its /v1 path: the account's endpoint, else https://api.paperspace.com/v1 (https, or
        http to a loopback test peer only: the bearer key never crosses a network in clear text)."""
        return api_root(account.endpoint, API_URL, provider=PROVIDER_ID, keep_path=True,
                        hint=QT_TRANSLATE_NOOP("LabGPU", "Use https://api.paperspace.com/v1 or a URL such as "
                                                         "http://127.0.0.1:9000/v1."))

    def _call(self, account: Account, creds: Credentials, method: str, path: str, *,
              query: dict[str, Any] | None = None, body: dict[str, Any] | None = None,
              state_changing: bool = False, action: str = "", resource: str = "",
              context: dict[str, Any] | None = None) -> dict[str, Any]:
        """One request; throttling and passing server errors retried with backoff, other errors mapped."""
        base = self.base_url(account)
        url = base + path
        if query:
            url += "?" + urllib.parse.urlencode({k: v for k, v in query.items() if v not in (None, "")})
        data = json.dumps(body).encode() if body is not None else (b"{}" if method == "PATCH" else None)
        headers = {"Authorization": f"Bearer {creds.secret}", "Accept": "application/json",
                   "User-Agent": "LabGPU"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        ctx = {"endpoint": base, **(context or {})}
        attempt = 0
        while True:
            attempt += 1
            status, resp_headers, raw = send(PROVIDER_ID, method, url, headers, data, timeout=TIMEOUT_S,
                                             max_body=MAX_BODY)
            request_id = (resp_headers.get("x-request-id", "") if resp_headers is not None else "") or ""
            if 300 <= status < 400:  # the key is not sent on to another address (app.cloud.resthttp)
                raise network_error(PROVIDER_ID, base, f"a redirect (HTTP {status}), not followed")
            if status >= 400:
                code, message = _error_of(status, raw)
                retry = code in THROTTLED or (code == "INTERNAL_SERVER_ERROR" and not state_changing)
                delay = self._backoff(attempt) if retry else None
                if delay is not None:
                    log.info("Paperspace %s %s: %s; retry %d in %.1fs", method, path, code, attempt, delay)
                    self._sleep(delay)
                    continue
                log.info("Paperspace %s %s failed: %s (request %s)", method, path, code, request_id or "-")
                raise map_error(code, message, request_id, **ctx)
            if len(raw) > MAX_BODY:
                raise network_error(PROVIDER_ID, base, "answer too large")
            try:
                answer = json.loads(raw.decode("utf-8")) if raw.strip() else {}
            except ValueError:
                raise network_error(PROVIDER_ID, base, "answer is not JSON") from None
            if state_changing:
                report_call(action or f"{method} {path}", resource, request_id)
            return answer if isinstance(answer, dict) else {"items": answer}

    def _list(self, account: Account, creds: Credentials, path: str,
              query: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Every item of a list, following ``nextPage`` (sent back as ``after``) while ``hasMore``."""
        items: list[dict[str, Any]] = []
        after = ""
        for _ in range(MAX_PAGES):
            page = self._call(account, creds, "GET", path, query={**(query or {}), "limit": PAGE_LIMIT,
                                                                    "after": after or None})
            items.extend(i for i in page.get("items") or [] if isinstance(i, dict))
            after = str(page.get("nextPage") or "")
            if not page.get("hasMore") or not after:
                break
        return items

    # -- machines as instances -------------------------------------------------------------------
    def machines(self, account: Account, creds: Credentials) -> list[dict[str, Any]]:
        return self._list(account, creds, "/machines")

    def machine(self, account: Account, creds: Credentials, machine_id: str) -> dict[str, Any]:
        return self._call(account, creds, "GET", f"/machines/{urllib.parse.quote(machine_id, safe='')}",
                          context={"resource": machine_id})

    def to_instance(self, account: Account, raw: dict[str, Any]) -> Instance:
        name = str(raw.get("name") or "")
        state = str(raw.get("state") or "")
        tags = {SSH_USER_TAG: LOGIN_USER}
        token = launch_token(name)
        if token:
            tags[LAUNCH_TAG] = token
        key = _KEY_RE.search(name)
        mtype = str(raw.get("machineType") or "")
        region = str(raw.get("region") or account.region)
        return Instance(
            id=str(raw.get("id") or ""), account=account.name, provider=PROVIDER_ID, region=region, zone=region,
            instance_type=mtype, state=STATE_MAP.get(state, InstanceState.PENDING), spot=False,
            public_ip=str(raw.get("publicIp") or ""), private_ip=str(raw.get("privateIp") or ""),
            price_per_hour=catalog_prices().get(mtype), currency="USD",
            launched_at=parse_time(raw.get("dtCreated")), name=name.split(" ", 1)[0],
            key_name=key.group(1) if key else "", raw_state=state, tags=tags,
        )

    def list_instances(self, account: Account, creds: Credentials) -> list[Instance]:
        """Every machine of the key's team, in every region (a launch may land in another region than the
        account's; the list call is not per region)."""
        return [self.to_instance(account, m) for m in self.machines(account, creds) if m.get("id")]


def _error_of(status: int, raw: bytes) -> tuple[str, str]:
    """(code, message) of an error answer: its JSON ``code``/``message``, else its HTTP status."""
    try:
        doc = json.loads(raw[:64 * 1024].decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        doc = None
    if isinstance(doc, dict) and doc.get("code"):
        return str(doc.get("code"))[:64], str(doc.get("message") or "")[:500]
    return STATUS_CODES.get(status, "INTERNAL_SERVER_ERROR"), f"HTTP {status}"
