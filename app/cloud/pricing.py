"""What an instance costs per hour, from the prices LabGPU has: the live cache, then the bundled catalog.

Used by CloudService (app/cloud/launch.py) for the spot maximum's default, the price recorded with a
launched instance and the ledger's prices on reconcile.
"""

from __future__ import annotations

import csv
import functools
import logging
from typing import Any

from app.cloud import registry
from app.cloud.base import Account
from app.core import live_prices
from app.core.catalog import price_problem
from app.core.models import NATIVE_CURRENCY
from app.core.paths import Paths

log = logging.getLogger(__name__)


def billing_currency(account: Account) -> str:
    """The currency ``account`` is billed in: its plugin's word where it has one (Tencent's and Alibaba's
    international sites bill in USD), else the provider's native one. The only currency
    an on-demand price may be in to set that account's spot maximum or price its instances."""
    make = registry.factory(account.provider)
    if make is not None:
        try:
            ask = getattr(make(), "billing_currency", None)
            if callable(ask):
                return str(ask(account))
        except Exception as exc:  # noqa: BLE001 - a plugin that cannot say falls back to the native currency
            log.info("%s: billing currency not known from the plugin: %s", account.provider, exc)
    return NATIVE_CURRENCY.get(account.provider, "USD")


def on_demand_price(paths: Paths, account: Account, instance_type: str) -> tuple[float | None, str]:
    """(price/h, source) in the account's region and currency: the live cache first, then the bundled
    catalog. Never another region's row nor another currency's (a spot maximum from us-east-1's price
    in eu-central-1 would be wrong by the regions' difference): unknown is (None, "")."""
    currency = billing_currency(account)

    def same(o: Any) -> bool:
        return bool(
            (o.provider, o.region, o.instance_type) == (account.provider, account.region, instance_type)
            and o.currency == currency
            and o.price_on_demand is not None
        )

    for o in live_prices.load_cached(paths):
        if same(o) and price_problem(o.price_on_demand, None) is None:  # a cached 0 or NaN is no price
            return o.price_on_demand, "live"
    try:
        from app.core.catalog import load_catalog

        for o in load_catalog(paths, include_live=False).offers:
            if same(o):
                return o.price_on_demand, "catalog"
    except Exception as exc:  # noqa: BLE001 - the catalog is a fallback only
        log.info("catalog lookup failed: %s", exc)
    return None, ""


def spot_price(paths: Paths, account: Account, instance_type: str, zone: str) -> float | None:
    prices = [
        o.price_spot
        for o in live_prices.zone_prices(paths, account.provider, account.region, instance_type)
        if o.price_spot is not None and price_problem(o.price_spot, None) is None and (not zone or o.zone == zone)
    ]
    return min(prices) if prices else None

def price_for(paths: Paths, account: Account, inst: Any) -> tuple[float, str, str] | None:
    currency = billing_currency(account)
    if inst.spot:
        p = spot_price(paths, account, inst.instance_type, inst.zone)
        if p is not None:
            return p, currency, "spot price (live cache)"
    p, src = on_demand_price(paths, account, inst.instance_type)
    if p is None:
        return None
    return (
        p,
        currency,
        ("on-demand " + src) if not inst.spot else f"on-demand {src} (upper bound for spot)",
    )


@functools.cache
def _bundled_rows_by_provider() -> dict[str, dict[str, dict[str, str]]]:
    rows: dict[str, dict[str, dict[str, str]]] = {}
    try:
        from app.core.resources import resource_path

        with open(resource_path("catalog", "offers.csv"), encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                rows.setdefault(row.get("provider") or "", {}).setdefault(row["instance_type"], row)
    except OSError as exc:
        log.info("no bundled catalog for instance specs: %s", exc)
    return rows


def bundled_rows(provider_id: str) -> dict[str, dict[str, str]]:
    """The bundled catalog's rows of one provider by instance type (GPU model, VRAM, vCPU, RAM,
    network): what a plugin fills its live offers with. Read once per process."""
    return _bundled_rows_by_provider().get(provider_id, {})
