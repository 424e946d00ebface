"""Alibaba Cloud live prices: pay-as-you-go and spot per zone (DescribePrice), stock per zone
(DescribeAvailableResource: sold-out types are marked), and the spot price history
(DescribeSpotPriceHistory, paged by Offset/NextOffset)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from app.cloud.kit import live_offer, to_float
from app.cloud.pricing import bundled_rows
from app.core.accounts import Account, Credentials
from app.core.models import Offer

from .client import AlibabaClient, currency_for, parse_time
from .spec import PROVIDER_ID

if TYPE_CHECKING:
    from app.core.spothistory import SpotPricePoint

log = logging.getLogger("app.cloud.alibaba")

PRICE_SOURCE = "Alibaba Cloud API (DescribeAvailableResource, DescribePrice)"
HISTORY_PAGES = 50  # a month of points for every zone is far fewer

def catalog_rows() -> dict[str, dict[str, str]]:
    """The bundled specs of Alibaba GPU types (GPU model, VRAM, network, interconnect) by type."""
    return bundled_rows(PROVIDER_ID)


def _gpu_model(spec: str) -> str:
    """"NVIDIA A10" → "A10" (the catalog's spelling)."""
    text = (spec or "").strip()
    return text[len("NVIDIA "):].strip() if text.upper().startswith("NVIDIA ") else text


class AlibabaPrices(AlibabaClient):
    """Live prices for the account's region."""

    def _type_specs(self, account: Account, creds: Credentials, types: Sequence[str]) -> dict[str, dict[str, Any]]:
        out: dict[str, dict[str, Any]] = {}
        for start in range(0, len(types), 10):  # InstanceTypes takes at most 10 values
            body = self._call(account, creds, "DescribeInstanceTypes", {"InstanceTypes": list(types[start:start + 10])})
            for item in (body.get("InstanceTypes") or {}).get("InstanceType") or []:
                out[str(item.get("InstanceTypeId", ""))] = item
        return out

    def refresh_prices(self, account: Account, creds: Credentials, instance_types: Sequence[str]) -> list[Offer]:
        """Pay-as-you-go and spot prices of each type in each zone that lists it, with its stock.
        Without types: the GPU types of the bundled catalog."""
        now = datetime.now(timezone.utc)
        types = list(dict.fromkeys(instance_types)) or sorted(catalog_rows())
        on_demand = self.available(account, creds, spot=False)
        spot = self.available(account, creds, spot=True)
        listed = sorted({k for k in (*on_demand, *spot) if k[1] in types}, key=lambda k: (k[1], k[0]))
        specs = self._type_specs(account, creds, sorted({t for _z, t in listed}))
        offers: list[Offer] = []
        for zone, itype in listed:
            od_stock, sp_stock = on_demand.get((zone, itype), ""), spot.get((zone, itype), "")
            od_price, currency = self.price_quote(account, creds, itype, zone, spot=False) if od_stock else (None, "")
            sp_price, sp_currency = self.price_quote(account, creds, itype, zone, spot=True) if sp_stock else (None, "")
            row = catalog_rows().get(itype, {})
            item = specs.get(itype, {})
            od_sold = od_stock in ("", "WithoutStock")
            sp_sold = sp_stock in ("", "WithoutStock")
            offers.append(
                live_offer(
                    PROVIDER_ID, account.region, zone, itype, row, now,
                    gpu_model=row.get("gpu_model") or _gpu_model(str(item.get("GPUSpec", ""))) or "?",
                    gpu_count=float(to_float(item.get("GPUAmount")) or to_float(row.get("gpu_count")) or 0.0),
                    vram_gb=float(to_float(row.get("vram_gb")) or to_float(item.get("GPUMemorySize")) or 0.0),
                    vcpu=int(to_float(item.get("CpuCoreCount")) or to_float(row.get("vcpu")) or 0) or None,
                    ram_gb=to_float(item.get("MemorySize")) or to_float(row.get("ram_gb")),
                    network_gbps=to_float(row.get("network_gbps")),
                    price_on_demand=od_price,
                    price_spot=sp_price,
                    price_prepaid_month=None,
                    currency=currency or sp_currency or currency_for(account),
                    price_source=PRICE_SOURCE,
                    spot_available=not sp_sold and sp_price is not None,
                    notes=row.get("notes", "") if not row.get("notes", "").startswith("specs") else "",
                    sold_out=od_sold and sp_sold,
                    extra=(("on_demand_stock", od_stock), ("spot_stock", sp_stock)),
                )
            )
        return offers

    def spot_price_history(
        self, account: Account, creds: Credentials, instance_type: str, zone: str | None = None, days: int = 7
    ) -> list[SpotPricePoint]:
        """Every zone's (or one zone's) spot price changes over the last ``days`` days, oldest first,
        every page read (Offset → NextOffset until it is 0 or a page is empty)."""
        from app.core.spothistory import SpotPricePoint

        end = datetime.now(timezone.utc)
        start = end - timedelta(days=days)
        params: dict[str, Any] = {
            "InstanceType": instance_type,
            "NetworkType": "vpc",
            "OSType": "linux",
            "StartTime": start.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "EndTime": end.strftime("%Y-%m-%dT%H:%M:%SZ"),
        }
        if zone:
            params["ZoneId"] = zone
        points: list[SpotPricePoint] = []
        offset = 0
        for _page in range(HISTORY_PAGES):
            body = self._call(account, creds, "DescribeSpotPriceHistory", dict(params, Offset=offset),
                              context={"instance_type": instance_type, "zone": zone or ""})
            currency = str(body.get("Currency") or currency_for(account))
            rows = (body.get("SpotPrices") or {}).get("SpotPriceType") or []
            for row in rows:
                moment, price = parse_time(row.get("Timestamp")), to_float(row.get("SpotPrice"))
                if moment is not None and price is not None:
                    points.append(SpotPricePoint(moment, price, currency, str(row.get("ZoneId") or zone or "")))
            # NextOffset 0 = the last page; an empty page ends it too (an answer that keeps naming
            # a NextOffset with nothing in it would otherwise be read HISTORY_PAGES times)
            # (alibabacloud_ecs20140526/models/_describe_spot_price_history_response_body.py: NextOffset
            # "the starting row of the next page"; Currency "China site: CNY. International site: USD.").
            next_offset = int(body.get("NextOffset") or 0)
            if not rows or next_offset <= offset:
                break
            offset = next_offset
        return sorted(points, key=lambda p: (p.zone, p.time))
