"""The Lambda Cloud API over HTTPS with the standard library: one request per call, the API key as a
bearer token, the documented envelope read, errors mapped, throttling retried, and launches spaced as the
API reference asks (see spec.py for the document).

- The key goes only to the account's endpoint: an ``https`` URL, or plain ``http`` to a loopback address
  (a local test peer); redirects are never followed, so the Authorization header never travels elsewhere.
- Every answer's HTTP Date sets LabGPU's clock of the cloud (app.core.ledgerdb.CLOCK), which running time
  and cost are counted on.
- Bodies are read up to MAX_BODY bytes; the cloud's words in an error are data (bounded, plain).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from app.cloud.base import CloudError, report_call
from app.cloud.kit import PluginClient
from app.cloud.resthttp import api_root, send
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP

from .errors import THROTTLED_CODE, map_error
from .spec import API_PREFIX, DEFAULT_ENDPOINT, PROVIDER_ID

log = logging.getLogger("app.cloud.lambdalabs")

MAX_BODY = 8 * 1024 * 1024
TIMEOUT_S = 30.0
# "Requests to the /instance-operations/launch endpoint are limited to one request per 12 seconds, or five
# requests per minute" (the API reference's introduction, OpenAPI 1.8.3).
LAUNCH_SPACING_S = 12.0
MAX_RETRY_AFTER_S = 60.0

# The calls this plugin makes: (method, path template) → the API reference's operationId. _request refuses
# any other; the contract test checks each against the OpenAPI document.
OPERATIONS: dict[tuple[str, str], str] = {
    ("GET", "/instance-types"): "listInstanceTypes",
    ("GET", "/instances"): "listInstances",
    ("GET", "/instances/{id}"): "getInstance",
    ("POST", "/instance-operations/launch"): "launchInstance",
    ("POST", "/instance-operations/terminate"): "terminateInstance",
    ("GET", "/ssh-keys"): "listSSHKeys",
    ("POST", "/ssh-keys"): "addSSHKey",
    ("GET", "/file-systems"): "listFilesystems",
}

BAD_ENDPOINT_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Leave the endpoint empty to use https://cloud.lambda.ai, or give an https URL (plain http only to "
              "a loopback address such as http://127.0.0.1:8080).")


def base_url(account: Account) -> str:
    """The account's API root (scheme://host[:port], no path): its endpoint, else https://cloud.lambda.ai."""
    return api_root(account.endpoint, DEFAULT_ENDPOINT, provider=PROVIDER_ID, hint=BAD_ENDPOINT_HINT,
                    keep_path=False)


def _read_json(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8")) if raw else None
    except (UnicodeDecodeError, ValueError):
        return None


class LambdaClient(PluginClient):
    """The plumbing every Lambda call goes through (see LambdaProvider)."""

    launch_spacing_s = LAUNCH_SPACING_S

    def __init__(self, sleep: Callable[[float], None] = time.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(sleep)
        self._clock = clock
        # when this provider last asked for a launch (CloudService keeps one provider through a launch's
        # region attempts), so a failover waits its turn instead of being refused with HTTP 429
        self._last_launch: float | None = None
        self._launch_lock = threading.Lock()

    def _request(
        self,
        account: Account,
        creds: Credentials,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        *,
        path_id: str = "",
        context: dict[str, Any] | None = None,
        audit: tuple[str, str] | None = None,
    ) -> Any:
        """One API call (``path`` a key of OPERATIONS, ``{id}`` filled from ``path_id``); returns the
        envelope's ``data``. An HTTP 429 is retried with backoff (nothing was done); ``audit``: (action,
        resource) of a state-changing call, reported for the audit log."""
        if (method, path) not in OPERATIONS:
            raise ValueError(f"undeclared Lambda call {method} {path}")
        url = base_url(account) + API_PREFIX + path.replace("{id}", quote(path_id, safe=""))
        data = json.dumps(body).encode() if body is not None else None
        ctx = {"account": account.name, **(context or {})}
        attempt = 0
        while True:
            attempt += 1
            status, headers, raw = self._send(method, url, creds, data)
            if status == 429:
                exc = map_error(THROTTLED_CODE, "", **ctx)
                delay = self._backoff(attempt)
                if delay is None:
                    raise exc
                retry_after = headers.get("Retry-After") if headers is not None else None
                if retry_after and retry_after.strip().isdigit():
                    delay = min(MAX_RETRY_AFTER_S, max(delay, float(retry_after.strip())))
                log.info("Lambda %s %s throttled (HTTP 429): retry %d in %.1f s", method, path, attempt, delay)
                self._sleep(delay)
                continue
            doc = _read_json(raw)
            if 200 <= status < 300 and isinstance(doc, dict) and "data" in doc:
                if audit is not None:
                    report_call(audit[0], audit[1], "")
                return doc["data"]
            err = doc.get("error") if isinstance(doc, dict) else None
            if isinstance(err, dict) and err.get("code"):
                raise map_error(str(err.get("code")), str(err.get("message") or ""),
                                suggestion=str(err.get("suggestion") or ""), **ctx)
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Lambda answered HTTP {status} without the API's error envelope."),
                QT_TRANSLATE_NOOP("LabGPU", "Check the account's endpoint (empty = https://cloud.lambda.ai) and "
                                            "retry in a minute."),
                provider=PROVIDER_ID, code=f"HTTP{status}", status=status, retryable=status >= 500,
            )

    def _send(self, method: str, url: str, creds: Credentials,
              data: bytes | None) -> tuple[int, Any, bytes]:
        headers = {"Authorization": f"Bearer {creds.secret}", "Accept": "application/json",
                   "User-Agent": "LabGPU"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        return send(PROVIDER_ID, method, url, headers, data, timeout=TIMEOUT_S, max_body=MAX_BODY)

    def _wait_launch_turn(self) -> None:
        """Wait until launch_spacing_s passed since this provider's last launch request was answered (the
        cloud saw it before its answer, so the spacing it sees is at least this)."""
        with self._launch_lock:
            if self._last_launch is not None:
                wait = self._last_launch + self.launch_spacing_s - self._clock()
                if wait > 0:
                    self._sleep(wait)

    def _launch_answered(self) -> None:
        with self._launch_lock:
            self._last_launch = self._clock()
