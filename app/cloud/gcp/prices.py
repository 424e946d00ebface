"""Google Cloud live prices from the Cloud Billing Catalog API (https://cloud.google.com/billing/docs/reference/
rest/v1/services.skus/list): ``GET /v1/services/6F81-5844-456A/skus?key=API_KEY`` (6F81-5844-456A is Compute
Engine), paged by ``pageToken``/``nextPageToken``. The API takes an API key (the account's optional
"API key for live prices"); without one the offers table keeps the bundled catalog's prices.

A GPU machine's hourly price is its parts' (https://cloud.google.com/compute/vm-instance-pricing): vCPUs ×
the family's "Instance Core" SKU + GiB × its "Instance Ram" SKU + GPUs × the GPU's SKU, in the region
(``serviceRegions``), ``usageType`` OnDemand or Preemptible (Spot). The machine's vCPU, memory and GPUs are
the bundled catalog's.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any
from urllib.error import HTTPError, URLError
from urllib.parse import urlencode
from urllib.request import Request, urlopen

from app.cloud.base import CloudError
from app.cloud.errors import network_error
from app.cloud.kit import live_offer, to_float
from app.cloud.pricing import bundled_rows
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.models import Offer

from .client import GcpClient, type_parts
from .errors import map_error
from .spec import PROVIDER_ID

log = logging.getLogger("app.cloud.gcp")

COMPUTE_SERVICE = "6F81-5844-456A"
BILLING_HOST = "https://cloudbilling.googleapis.com"
PRICE_SOURCE = "Cloud Billing Catalog API (services/6F81-5844-456A/skus)"
MAX_PAGES = 100
PAGE_SIZE = 5000


def catalog_rows() -> dict[str, dict[str, str]]:
    """The bundled specs of Google Cloud GPU types (GPU model, vCPU, RAM, network) by type."""
    return bundled_rows(PROVIDER_ID)


def _unit_price(sku: dict[str, Any]) -> float | None:
    """The last tier's unit price of the SKU's current pricing (units + nanos / 1e9)."""
    infos = sku.get("pricingInfo") or []
    rates = ((infos[-1] if infos else {}).get("pricingExpression") or {}).get("tieredRates") or []
    if not rates:
        return None
    money = rates[-1].get("unitPrice") or {}
    units, nanos = to_float(money.get("units")) or 0.0, to_float(money.get("nanos")) or 0.0
    return units + nanos / 1e9


def _gpu_word(model: str) -> str:
    """"A100-40GB" → "a100", "T4" → "t4" (the word in the SKU's description)."""
    return (model or "").split("-")[0].lower()


class SkuIndex:
    """The region's Compute SKUs, by (usage type, description without the Spot prefix, lower case)."""

    def __init__(self, skus: Sequence[dict[str, Any]], region: str) -> None:
        self.prices: dict[tuple[str, str], float] = {}
        for sku in skus:
            if region not in (sku.get("serviceRegions") or []):
                continue
            usage = str((sku.get("category") or {}).get("usageType") or "")
            text = re.sub(r"^spot preemptible ", "", str(sku.get("description") or "").lower().strip())
            price = _unit_price(sku)
            if price is not None and usage in ("OnDemand", "Preemptible"):
                self.prices.setdefault((usage, text.split(" running in ")[0]), price)

    def part(self, usage: str, pattern: str) -> float | None:
        return next((p for (u, text), p in self.prices.items() if u == usage and re.fullmatch(pattern, text)), None)

    def machine(self, usage: str, itype: str, row: dict[str, str]) -> float | None:
        """The hourly price of ``itype`` (its row's vCPUs, RAM and GPUs), or None when a part is missing."""
        machine, _accel, count = type_parts(itype)
        family = re.escape(machine.split("-")[0].lower())
        vcpu, ram = to_float(row.get("vcpu")), to_float(row.get("ram_gb"))
        gpus = float(count or to_float(row.get("gpu_count")) or 0.0)
        core = self.part(usage, rf"{family}( predefined)? instance core")
        mem = self.part(usage, rf"{family}( predefined)? instance ram")
        word = re.escape(_gpu_word(row.get("gpu_model", "")))
        gpu = self.part(usage, rf"nvidia (tesla )?{word} gpu") if gpus else 0.0
        if vcpu is None or ram is None or core is None or mem is None or gpu is None:
            return None
        return round(vcpu * core + ram * mem + gpus * gpu, 5)


class GcpPrices(GcpClient):
    """Live prices for the account's region."""

    def billing_url(self, account: Account) -> str:
        base = account.extra.get("billing_endpoint") or account.endpoint or BILLING_HOST
        return f"{base.rstrip('/')}/v1/services/{COMPUTE_SERVICE}/skus"

    def skus(self, account: Account, api_key: str) -> list[dict[str, Any]]:
        """Every Compute SKU, page after page (pageToken → nextPageToken until it is empty)."""
        url = self.billing_url(account)
        out: list[dict[str, Any]] = []
        token = ""
        for _page in range(MAX_PAGES):
            params = {"key": api_key, "currencyCode": "USD", "pageSize": str(PAGE_SIZE)}
            if token:
                params["pageToken"] = token
            status, body = self._get_json(f"{url}?{urlencode(params)}", url.split("/v1/")[0])
            if status != 200:
                err = body.get("error") or {}
                reasons = [e.get("reason") for e in err.get("errors") or [] if isinstance(e, dict)]
                details = [d.get("reason") for d in err.get("details") or [] if isinstance(d, dict)]
                code = next((r for r in (*reasons, *details) if r), "") or str(status)
                raise map_error(code, str(err.get("message") or status), region=account.region)
            out.extend(s for s in body.get("skus") or [] if isinstance(s, dict))
            token = str(body.get("nextPageToken") or "")
            if not token:
                break
        return out

    @staticmethod
    def _get_json(url: str, host: str) -> tuple[int, dict[str, Any]]:
        """(HTTP status, JSON body) of a GET (the standard library: the API key is a query parameter)."""
        try:
            with urlopen(Request(url, headers={"Accept": "application/json"}), timeout=30) as answer:  # noqa: S310
                status, raw = answer.status, answer.read()
        except HTTPError as exc:
            status, raw = exc.code, exc.read()
        except (URLError, OSError) as exc:
            raise network_error(PROVIDER_ID, host, type(exc).__name__) from None
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        return status, body if isinstance(body, dict) else {}

    def refresh_prices(self, account: Account, creds: Credentials, instance_types: Sequence[str]) -> list[Offer]:
        """On-demand and Spot prices of each type in the account's region (without types: the bundled
        catalog's Google Cloud types)."""
        if not creds.session_token:
            raise CloudError(
                QT_TRANSLATE_NOOP("LabGPU", "Live Google Cloud prices need an API key for the Cloud Billing "
                                            "Catalog API; the offers table keeps the bundled prices."),
                QT_TRANSLATE_NOOP("LabGPU", "Create an API key (APIs & Services > Credentials), enable the Cloud "
                                            "Billing API, and paste the key into the account's API key field."),
                provider=PROVIDER_ID, code="NoPriceApiKey")
        now = datetime.now(timezone.utc)
        types = list(dict.fromkeys(instance_types)) or sorted(catalog_rows())
        index = SkuIndex(self.skus(account, creds.session_token), account.region)
        offers: list[Offer] = []
        for itype in types:
            row = catalog_rows().get(itype, {})
            if not row:
                log.info("no bundled specs for %s: no live price", itype)
                continue
            od, spot = index.machine("OnDemand", itype, row), index.machine("Preemptible", itype, row)
            if od is None and spot is None:
                continue
            offers.append(live_offer(
                PROVIDER_ID, account.region, "", itype, row, now,
                gpu_model=row.get("gpu_model") or "?",
                gpu_count=float(to_float(row.get("gpu_count")) or 0.0),
                vram_gb=float(to_float(row.get("vram_gb")) or 0.0),
                vcpu=int(to_float(row.get("vcpu")) or 0) or None,
                ram_gb=to_float(row.get("ram_gb")),
                network_gbps=to_float(row.get("network_gbps")),
                price_on_demand=od, price_spot=spot, price_prepaid_month=None,
                currency="USD", price_source=PRICE_SOURCE, spot_available=spot is not None,
                notes=row.get("notes", ""),
            ))
        return offers
