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
MAX_PAGES = 50  # per query; a VM SKU in one region has a few dozen meters, so one or two pages
TIMEOUT_S = 30.0

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


def _get_json(url: str, endpoint: str, timeout: float) -> dict[str, Any]:
    req = urllib.request.Request(url, headers={  # noqa: S310 - http(s) only: azure_endpoint, fetch_azure_items"Accept": "application/json",
                                               "User-Agent": "LabGPU (public price refresh)"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - http(s) checked above
            body = resp.read(32 * 1024 * 1024 + 1)
    except urllib.error.HTTPError as exc:
        detail = ""
        try:
            doc = json.loads(exc.read(64 * 1024) or b"{}")
            err = doc.get("Error") or doc.get("error") or {}
            if isinstance(err, dict):
                detail = str(err.get("Message") or err.get("message") or "")[:200]
        except (ValueError, OSError, AttributeError):
            pass
        raise _fail(endpoint, f"HTTP {exc.code} {exc.reason}" + (f" ({detail})" if detail else "")) from None
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        reason = getattr(exc, "reason", None) or exc
        raise _fail(endpoint, str(reason)) from None
    if len(body) > 32 * 1024 * 1024:
        raise _fail(endpoint, "a page larger than 32 MB")
    try:
        doc = json.loads(body)
    except ValueError:
        raise _fail(endpoint, "the answer is not JSON") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("Items"), list):
        raise _fail(endpoint, "the answer has no Items list (not the Retail Prices API)")
    nxt = doc.get("NextPageLink")
    if nxt is not None and not isinstance(nxt, str):
        raise _fail(endpoint, "NextPageLink is not a string")
    return doc


def fetch_azure_items(endpoint: str, region: str, sku: str, *,
                      timeout: float = TIMEOUT_S) -> tuple[list[dict[str, Any]], int]:
    """Every item the API lists for one region and armSkuName, following NextPageLink. (items, pages)"""
    url: str | None = _query_url(endpoint, region, sku)
    seen: set[str] = set()
    items: list[dict[str, Any]] = []
    pages = 0
    while url:
        if url in seen:
            raise _fail(endpoint, "NextPageLink points back to a page already read")
        if pages >= MAX_PAGES:
            raise _fail(endpoint, f"more than {MAX_PAGES} pages for {sku} in {region}")
        scheme = urllib.parse.urlsplit(url).scheme
        if scheme not in ("http", "https"):
            raise _fail(endpoint, "NextPageLink is not an http(s) URL")
        seen.add(url)
        doc = _get_json(url, endpoint, timeout)
        pages += 1
        items.extend(i for i in doc["Items"] if isinstance(i, dict))
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
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not v >= 0:
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
                          timeout: float = TIMEOUT_S, save: bool = True) -> PublicRefresh:
    """Fetch the public prices of the Azure offers and merge them into the live cache.

    ``offers`` defaults to the bundled catalog (without cached live prices, so notes never pile up).
    """
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
        items, pages = fetch_azure_items(endpoint, offer.region, offer.instance_type, timeout=timeout)
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
    log.info("public prices: %d Azure offers from %s (%d requests), %d without a price",
             len(result.offers), endpoint, requests, len(result.missing))
    return result
