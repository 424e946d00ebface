"""Public price lists that need no account: today the Azure Retail Prices API.

``refresh_public_prices(offers, azure_endpoint=…)`` asks the API for each Azure offer of the catalog
(one filtered query per region and ``armSkuName``, following ``NextPageLink``), turns the Linux
pay-as-you-go and Spot meters into prices, and merges them into the live-price cache
(``app.core.live_prices``) with the time they were fetched and ``origin="public"``. Any failure
(unreachable, an HTTP error, a page that is not the API's JSON, a loop of pages) raises
``PublicPriceError`` before anything is saved, so the bundled prices stay and the message says why.

Which clouds publish such a list (see resources/catalog/README.md): Azure yes (this module). AWS
publishes its Price List bulk files without an account, but the EC2 offer file for one region is
gigabytes of JSON, too big for a desktop refresh, and the Price List query API needs signed
requests; GCP's Cloud Billing Catalog API needs an API key; Tencent, Alibaba and Huawei price
APIs need a signed account request; Lambda's and Paperspace's APIs need an API key.

HTTP goes through urllib (stdlib) only. The endpoint is a setting (``azure_prices_endpoint``) and a
CLI option so a mirror or the test server can stand in for prices.azure.com.
"""

from __future__ import annotations

import json
import logging
import math
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from typing import Any

from app.cloud.base import CloudError
from app.core import providers
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.models import Offer

log = logging.getLogger(__name__)

AZURE_PRICES_URL = "https://prices.azure.com/api/retail/prices"
AZURE_API_VERSION = "2023-01-01-preview"
# Bounds: the answer is data from the network, so it is bounded.
# The API pages its answer with NextPageLink ($skip=100 steps: https://learn.microsoft.com/en-us/rest/api/
# cost-management/retail-prices/azure-retail-prices#api-response-pagination, and the Q&A thread
# https://learn.microsoft.com/en-us/answers/questions/1188465/azure-retail-prices-api-broken-paging); a VM
# SKU in one region has a few dozen meters, so one page; a page of 100 items is about 60 KB.
MAX_PAGES = 10  # per query
MAX_TOTAL_PAGES = 500  # per refresh
MAX_ITEMS = 5_000  # per query
MAX_PAGE_BYTES = 8 * 1024 * 1024
MAX_TOTAL_BYTES = 64 * 1024 * 1024  # per refresh
TIMEOUT_S = 30.0  # one request (connect, each read)
DEADLINE_S = 300.0  # the whole refresh: a server dripping a byte every few seconds ends here

def no_public_list() -> dict[str, str]:
    """Providers with no public machine-readable price list reachable without an account, and why
    (ProviderSpec.no_public_prices, a QT_TRANSLATE_NOOP template), in the providers' order."""
    return {s.id: s.no_public_prices for s in providers.specs() if s.no_public_prices}


Progress = Callable[[int, int, str], None]  # (done, total, what is being fetched)


class PublicPriceError(CloudError):
    """A public price list could not be read; nothing was saved."""


@dataclass
class PublicRefresh:
    """What a public refresh fetched and saved, and what it could not price."""

    offers: list[Offer]
    missing: list[tuple[tuple[str, str, str], str]] = field(default_factory=list)  # (key, reason)
    endpoint: str = ""
    fetched_at: datetime | None = None
    requests: int = 0
    # prices the list gave that are not believable (≤ 0, not finite, far from the bundled price):
    # (key, why); the bundled price is kept for those offers
    refused: list[tuple[tuple[str, str, str], str]] = field(default_factory=list)


@dataclass
class _Budget:
    """What one refresh may still spend: time to its deadline, pages, bytes."""

    deadline: float  # time.monotonic() at which the refresh gives up
    timeout: float
    deadline_s: float = DEADLINE_S  # (for the message)
    pages: int = 0
    bytes: int = 0
    clock: Callable[[], float] = time.monotonic

    def left(self) -> float:
        return self.deadline - self.clock()


def azure_endpoint(setting: str = "") -> str:
    """The API address to use: the setting (a mirror or a test server) or prices.azure.com."""
    text = (setting or "").strip()
    if not text:
        return AZURE_PRICES_URL
    parsed = urllib.parse.urlsplit(text)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise PublicPriceError(
            QT_TRANSLATE_NOOP("LabGPU", "The Azure prices address {url} is not an http(s) URL."),
            QT_TRANSLATE_NOOP("LabGPU", "Use e.g. https://prices.azure.com/api/retail/prices, or clear the "
                                        "setting to use that default."),
            provider="azure", code="AzurePricesEndpoint", url=text)
    return text


def _query_url(endpoint: str, region: str, sku: str) -> str:
    flt = (f"serviceName eq 'Virtual Machines' and armRegionName eq '{_odata(region)}' "
           f"and armSkuName eq '{_odata(sku)}'")
    sep = "&" if urllib.parse.urlsplit(endpoint).query else "?"
    query = urllib.parse.urlencode({"api-version": AZURE_API_VERSION, "$filter": flt},
                                   quote_via=urllib.parse.quote)
    return f"{endpoint}{sep}{query}"


def _odata(text: str) -> str:
    return text.replace("'", "''")  # OData string literal quoting


def _fail(endpoint: str, reason: str) -> PublicPriceError:
    return PublicPriceError(
        QT_TRANSLATE_NOOP("LabGPU", "Azure's public price list could not be read from {endpoint}: {reason}. "
                                    "The bundled prices are kept."),
        QT_TRANSLATE_NOOP("LabGPU", "Check your internet connection or proxy and try again; to use a "
                                    "mirror, set its address (labgpu prices refresh --public "
                                    "--azure-endpoint URL)."),
        provider="azure", code="AzurePricesUnavailable", endpoint=endpoint, reason=reason)


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number")  # JSON has no NaN/Infinity; Python's json would accept them


def _set_timeout(resp: Any, seconds: float) -> None:
    """Bound the next socket read of `resp` (urllib's HTTPResponse over a socket) by `seconds`."""
    sock = getattr(getattr(getattr(resp, "fp", None), "raw", None), "_sock", None)
    if sock is not None and hasattr(sock, "settimeout"):
        sock.settimeout(max(0.01, seconds))


def _read_bounded(resp: Any, endpoint: str, budget: _Budget) -> bytes:
    """The body, read as it arrives, never past MAX_PAGE_BYTES, the refresh's bytes or its deadline."""
    chunks: list[bytes] = []
    size = 0
    while True:
        left = budget.left()
        if left <= 0:
            raise _fail(endpoint, f"no complete answer within {budget.deadline_s:g} s")
        _set_timeout(resp, min(budget.timeout, left))
        try:
            chunk = resp.read1(64 * 1024) if hasattr(resp, "read1") else resp.read(64 * 1024)
        except TimeoutError:
            if budget.left() <= 0:
                raise _fail(endpoint, f"no complete answer within {budget.deadline_s:g} s") from None
            raise
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        budget.bytes += len(chunk)
        if size > MAX_PAGE_BYTES:
            raise _fail(endpoint, f"a page larger than {MAX_PAGE_BYTES // (1024 * 1024)} MB")
        if budget.bytes > MAX_TOTAL_BYTES:
            raise _fail(endpoint, f"more than {MAX_TOTAL_BYTES // (1024 * 1024)} MB in all")
        chunks.append(chunk)


def _get_json(url: str, endpoint: str, timeout: float, budget: _Budget | None = None) -> dict[str, Any]:
    budget = budget or _Budget(time.monotonic() + DEADLINE_S, timeout, deadline_s=DEADLINE_S)
    if budget.left() <= 0:
        raise _fail(endpoint, f"no complete answer within {budget.deadline_s:g} s")
    req = urllib.request.Request(url, headers={  # noqa: S310 - http(s) only: azure_endpoint, fetch_azure_items
        "Accept": "application/json", "User-Agent": "LabGPU (public price refresh)"})
    try:
        with urllib.request.urlopen(req, timeout=min(timeout, max(0.01, budget.left()))) as resp:  # noqa: S310
            body = _read_bounded(resp, endpoint, budget)
    except PublicPriceError:
        raise
    except urllib.error.HTTPError as exc:
        detail = ""
        try:
            doc = json.loads(exc.read(64 * 1024) or b"{}")
            err = doc.get("Error") or doc.get("error") or {}
            if isinstance(err, dict):
                detail = str(err.get("Message") or err.get("message") or "")[:200]
        except (ValueError, OSError, AttributeError, RecursionError):
            pass
        raise _fail(endpoint, f"HTTP {exc.code} {str(exc.reason)[:100]}" + (f" ({detail})" if detail else "")) from None
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        if budget.left() <= 0:
            raise _fail(endpoint, f"no complete answer within {budget.deadline_s:g} s") from None
        reason = getattr(exc, "reason", None) or exc
        raise _fail(endpoint, str(reason)[:200]) from None
    try:
        doc = json.loads(body, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise _fail(endpoint, "the answer is not JSON") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("Items"), list):
        raise _fail(endpoint, "the answer has no Items list (not the Retail Prices API)")
    nxt = doc.get("NextPageLink")
    if nxt is not None and not isinstance(nxt, str):
        raise _fail(endpoint, "NextPageLink is not a string")
    return doc


def fetch_azure_items(endpoint: str, region: str, sku: str, *, timeout: float = TIMEOUT_S,
                      budget: _Budget | None = None) -> tuple[list[dict[str, Any]], int]:
    """Every item the API lists for one region and armSkuName, following NextPageLink. (items, pages)

    Bounded: MAX_PAGES and MAX_ITEMS per query; the refresh's ``budget`` (deadline, pages, bytes)."""
    budget = budget or _Budget(time.monotonic() + DEADLINE_S, timeout)
    url: str | None = _query_url(endpoint, region, sku)
    seen: set[str] = set()
    items: list[dict[str, Any]] = []
    pages = 0
    while url:
        if url in seen:
            raise _fail(endpoint, "NextPageLink points back to a page already read")
        if pages >= MAX_PAGES:
            raise _fail(endpoint, f"more than {MAX_PAGES} pages for {sku} in {region}")
        if budget.pages >= MAX_TOTAL_PAGES:
            raise _fail(endpoint, f"more than {MAX_TOTAL_PAGES} pages in all")
        scheme = urllib.parse.urlsplit(url).scheme
        if scheme not in ("http", "https"):
            raise _fail(endpoint, "NextPageLink is not an http(s) URL")
        seen.add(url)
        doc = _get_json(url, endpoint, timeout, budget)
        pages += 1
        budget.pages += 1
        items.extend(i for i in doc["Items"] if isinstance(i, dict))
        if len(items) > MAX_ITEMS:
            raise _fail(endpoint, f"more than {MAX_ITEMS} items for {sku} in {region}")
        url = doc.get("NextPageLink") or None
    return items, pages


def _is_linux_hourly_usd(item: dict[str, Any], region: str, sku: str) -> bool:
    return (str(item.get("armSkuName", "")).lower() == sku.lower()
            and str(item.get("armRegionName", "")).lower() == region.lower()
            and item.get("type") == "Consumption"
            and item.get("unitOfMeasure") == "1 Hour"
            and item.get("currencyCode", "USD") == "USD"
            and "windows" not in str(item.get("productName", "")).lower()
            and float(item.get("tierMinimumUnits") or 0) == 0)


def _price(item: dict[str, Any]) -> float | None:
    v = item.get("retailPrice", item.get("unitPrice"))
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or not v >= 0:
        return None
    return float(v)


def azure_prices(items: Sequence[dict[str, Any]], region: str, sku: str) -> tuple[float | None, float | None]:
    """(on-demand, spot) per hour in USD for Linux, from the API's items; None where no meter gives one.

    On-demand: type Consumption, neither "Spot" nor "Low Priority" in meterName/skuName. Spot: the
    "Spot" meters. Windows meters (productName "… Windows") are skipped. Where several meters
    qualify (price changes), the newest effectiveStartDate wins.
    """
    on_demand: list[tuple[str, float]] = []
    spot: list[tuple[str, float]] = []
    for item in items:
        if not _is_linux_hourly_usd(item, region, sku):
            continue
        price = _price(item)
        if price is None:
            continue
        names = f"{item.get('meterName', '')} {item.get('skuName', '')}".lower()
        start = str(item.get("effectiveStartDate") or "")
        if "low priority" in names:
            continue
        (spot if "spot" in names else on_demand).append((start, price))
    def newest(xs: list[tuple[str, float]]) -> float | None:  # by effectiveStartDate
        return max(xs)[1] if xs else None

    return newest(on_demand), newest(spot)


def refresh_public_prices(offers: Sequence[Offer] | None = None, *, azure_endpoint_setting: str = "",
                          paths: Any = None,
                          progress: Progress | None = None, now: datetime | None = None,
                          timeout: float = TIMEOUT_S, save: bool = True,
                          deadline_s: float = DEADLINE_S) -> PublicRefresh:
    """Fetch the public prices of the Azure offers and merge them into the live cache.

    ``offers`` defaults to the bundled catalog (without cached live prices, so notes never pile up).
    The whole refresh ends within ``deadline_s`` (nothing saved then); a price that is not believable
    next to the offer's bundled one (``app.core.catalog.offer_price_problem``) is refused and named in
    ``refused``, its bundled price kept.
    """
    from app.core.catalog import offer_price_problem

    budget = _Budget(time.monotonic() + deadline_s, timeout, deadline_s=deadline_s)
    endpoint = azure_endpoint(azure_endpoint_setting)
    if offers is None:
        from app.core.catalog import load_catalog

        offers = load_catalog(include_live=False).offers
    azure = [o for o in offers if o.provider == "azure"]
    total = len(azure)
    fetched: list[tuple[Offer, list[dict[str, Any]]]] = []
    requests = 0
    for i, offer in enumerate(azure):
        if progress:
            progress(i, total, f"{offer.region} {offer.instance_type}")
        items, pages = fetch_azure_items(endpoint, offer.region, offer.instance_type, timeout=timeout,
                                         budget=budget)
        requests += pages
        fetched.append((offer, items))
    if progress:
        progress(total, total, "")
    when = (now or datetime.now(timezone.utc)).astimezone(timezone.utc).replace(microsecond=0)
    host = urllib.parse.urlsplit(endpoint).netloc
    result = PublicRefresh([], [], endpoint, when, requests)
    for offer, items in fetched:
        on_demand, spot = azure_prices(items, offer.region, offer.instance_type)
        if on_demand is None:
            result.missing.append((offer.key, "no Linux pay-as-you-go meter in the API's answer"))
            continue
        notes = [f"public price list: Azure Retail Prices API at {host}, fetched {when:%Y-%m-%d %H:%M} UTC "
                 "(Linux, pay-as-you-go" + (", Spot" if spot is not None else "; no Spot meter listed") + ")"]
        why = offer_price_problem(replace(offer, price_on_demand=on_demand, price_spot=spot,
                                          price_prepaid_month=None), offer)
        if why is not None:
            result.refused.append((offer.key, why))
            continue
        result.offers.append(replace(
            offer,
            price_on_demand=on_demand,
            price_spot=spot,
            spot_available=spot is not None,
            price_source=f"Azure Retail Prices API ({host}), fetched {when:%Y-%m-%d %H:%M} UTC",
            price_date=when.date(),
            live=True,
            fetched_at=when,
            origin="public",
            zone="",
            notes="; ".join(notes + ([offer.notes] if offer.notes else [])),
        ))
    if save and result.offers:
        from app.core import live_prices

        live_prices.save(paths, result.offers)
    for key, why in result.refused:
        log.warning("public prices: %s refused: %s", " ".join(key), why)
    log.info("public prices: %d Azure offers from %s (%d requests), %d without a price, %d refused",
             len(result.offers), endpoint, requests, len(result.missing), len(result.refused))
    return result
