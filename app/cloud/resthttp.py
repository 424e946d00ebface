"""HTTPS for the plugins that speak their cloud's REST API with the standard library (Lambda, Paperspace).

One rule for where an API key may go, and one way of sending it:

- :func:`api_root`: the account's endpoint must be an ``https`` URL, or plain ``http`` to a loopback address
  (a local test peer): a bearer key never crosses a network in clear text.
- :func:`send`: redirects are answers, never followed (urllib would carry the Authorization header to the new
  address); the body is read up to a bound; the answer's Date header sets LabGPU's clock of that cloud
  (app.core.ledgerdb.CLOCK); an error status is returned like any other, a network failure is a
  NetworkError naming the host.
"""

from __future__ import annotations

import ipaddress
import urllib.error
import urllib.request
from typing import Any
from urllib.parse import urlparse

from app.cloud.base import CloudError
from app.cloud.errors import network_error
from app.core.i18n import QT_TRANSLATE_NOOP

NOT_HTTPS = QT_TRANSLATE_NOOP("LabGPU", "The endpoint {endpoint} is not an https URL.")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer, never followed: the API key must not travel to another address."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def api_root(endpoint: str, default: str, *, provider: str, hint: str, keep_path: bool) -> str:
    """The API's root URL from the account's endpoint ("" = ``default``): ``scheme://host[:port]`` and, with
    ``keep_path``, the endpoint's path (Paperspace's ``/v1``). CloudError BadEndpoint when it is neither https
    nor http to a loopback address."""
    text = (endpoint or "").strip().rstrip("/") or default
    url = urlparse(text if "://" in text else f"https://{text}")
    scheme = (url.scheme or "").lower()
    host = url.hostname or ""
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not host or scheme not in ("http", "https") or (scheme == "http" and not loopback):
        raise CloudError(NOT_HTTPS, hint, provider=provider, code="BadEndpoint", endpoint=text)
    return f"{scheme}://{url.netloc}" + (url.path.rstrip("/") if keep_path else "")


def send(provider: str, method: str, url: str, headers: dict[str, str], data: bytes | None, *,
         timeout: float, max_body: int) -> tuple[int, Any, bytes]:
    """(HTTP status, headers, body read up to ``max_body`` + 1 bytes) of one request."""
    from app.core.ledgerdb import CLOCK

    req = urllib.request.Request(url, data=data, method=method, headers=headers)  # noqa: S310 - api_root: http(s)
    try:
        with _OPENER.open(req, timeout=timeout) as resp:  # noqa: S310 - api_root allows http(s) only
            CLOCK.note_date(provider, resp.headers.get("Date"))
            return int(resp.status), resp.headers, resp.read(max_body + 1)
    except urllib.error.HTTPError as exc:
        CLOCK.note_date(provider, exc.headers.get("Date") if exc.headers is not None else None)
        try:
            raw = exc.read(max_body + 1)
        finally:
            exc.close()
        return int(exc.code), exc.headers, raw
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        reason = getattr(exc, "reason", exc)
        raise network_error(provider, urlparse(url).netloc, f"{type(exc).__name__}: {reason}") from None
