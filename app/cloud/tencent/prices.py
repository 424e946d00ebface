"""Tencent Cloud live prices: pay-as-you-go and spot (InquiryPriceRunInstances), prepaid months."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timezone

from app.cloud.base import (
    CloudError,
)
from app.cloud.kit import live_offer, to_float
from app.core.accounts import Account, Credentials
from app.core.models import Offer

from .client import (
    FAMILY_GPU,
    TencentClient,
    catalog_rows,
    currency_for,
    hourly_price,
)
from .spec import PROVIDER_ID

log = logging.getLogger("app.cloud.tencent")

class TencentPrices(TencentClient):
    """Live prices for the account's region."""

    def refresh_prices(
        self, account: Account, creds: Credentials, instance_types: Sequence[str]
    ) -> list[Offer]:
        """Live pay-as-you-go and spot prices per zone, and the monthly prepaid price (one zone)."""
        now = datetime.now(timezone.utc)
        currency = currency_for(account)
        on_demand = {
            (i["Zone"], i["InstanceType"]): i
            for i in self._quota_items(account, creds, "POSTPAID_BY_HOUR", instance_types)
        }
        spot = {
            (i["Zone"], i["InstanceType"]): i
            for i in self._quota_items(account, creds, "SPOTPAID", instance_types)
        }
        monthly = self._prepaid_prices(account, creds, sorted({k for k in on_demand} | {k for k in spot}))
        offers: list[Offer] = []
        for zone, itype in sorted(set(on_demand) | set(spot)):
            od, sp = on_demand.get((zone, itype)), spot.get((zone, itype))
            first = od or sp or {}
            row = catalog_rows().get(itype, {})
            family = itype.split(".")[0]
            gpu_model, vram = FAMILY_GPU.get(family, ("", 0.0))
            gpu_count = (
                to_float(first.get("GpuCount"))
                or to_float(row.get("gpu_count"))
                or (to_float(first.get("Gpu")) or 0.0)
            )
            od_sold = od is None or od.get("Status") == "SOLD_OUT"
            sp_sold = sp is None or sp.get("Status") == "SOLD_OUT"
            bandwidth = to_float(first.get("InstanceBandwidth"))
            offers.append(
                live_offer(
                    PROVIDER_ID, account.region, zone, itype, row, now,
                    gpu_model=row.get("gpu_model") or gpu_model or "?",
                    gpu_count=float(gpu_count or 0.0),
                    vram_gb=to_float(row.get("vram_gb")) or vram,
                    vcpu=int(first.get("Cpu") or to_float(row.get("vcpu")) or 0) or None,
                    ram_gb=to_float(first.get("Memory")) or to_float(row.get("ram_gb")),
                    network_gbps=bandwidth if bandwidth else to_float(row.get("network_gbps")),
                    price_on_demand=hourly_price(od.get("Price")) if od else None,
                    price_spot=hourly_price(sp.get("Price")) if sp else None,
                    price_prepaid_month=monthly.get((zone, itype)),
                    currency=currency,
                    price_source="Tencent Cloud API (DescribeZoneInstanceConfigInfos, InquiryPriceRunInstances)",  # noqa: E501
                    spot_available=not sp_sold,
                    notes=row.get("notes", ""),
                    sold_out=od_sold and sp_sold,
                    extra=(
                        ("on_demand_status", (od or {}).get("Status", "")),
                        ("spot_status", (sp or {}).get("Status", "")),
                    ),
                )
            )
        return offers

    def _prepaid_prices(
        self, account: Account, creds: Credentials, keys: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], float]:
        """Monthly prepaid price, asked once per type in its first zone (the price is per region)."""
        out: dict[tuple[str, str], float] = {}
        if not keys:
            return out
        try:
            image = self._any_public_image(account, creds)
        except CloudError as exc:
            log.info("no image for a prepaid inquiry: %s", exc.code)
            return out
        seen: dict[str, float | None] = {}
        for zone, itype in keys:
            if itype not in seen:
                params = {
                    "Placement": {"Zone": zone},
                    "InstanceType": itype,
                    "ImageId": image,
                    "InstanceChargeType": "PREPAID",
                    "InstanceChargePrepaid": {"Period": 1, "RenewFlag": "NOTIFY_AND_MANUAL_RENEW"},
                }
                try:
                    response = self._call(
                        account,
                        creds,
                        "InquiryPriceRunInstances",
                        params,
                        context={"zone": zone, "instance_type": itype},
                    )
                    price = (response.get("Price") or {}).get("InstancePrice") or {}
                    seen[itype] = to_float(price.get("DiscountPrice")) or to_float(price.get("OriginalPrice"))
                except CloudError as exc:
                    log.info("no prepaid price for %s: %s", itype, exc.code)
                    seen[itype] = None
            value = seen[itype]
            if value is not None:
                out[(zone, itype)] = value
        return out
