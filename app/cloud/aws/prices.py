"""AWS live prices through boto3: on-demand from the Pricing API, spot from the EC2 price history."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from app.cloud.base import (
    Account,
    CloudError,
    Credentials,
)
from app.core.models import Offer
from app.core.spothistory import SpotPricePoint
from app.core.spothistory import window as history_window

from .client import (
    DEFAULT_GPU_TYPES,
    AwsClient,
    gpu_model_key,
    network_gbps_of,
    on_demand_from_price_list,
)

log = logging.getLogger("app.cloud.aws")

class AwsPrices(AwsClient):
    """Live on-demand (Pricing API) and spot (price history) prices."""

    # -- prices ------------------------------------------------------------------------------
    def _default_types(self, account: Account) -> list[str]:
        try:
            from app.core.catalog import load_catalog

            types = sorted(
                {o.instance_type for o in load_catalog(include_live=False).offers if o.provider == "aws"}
            )
        except Exception as exc:  # noqa: BLE001 - the catalog is optional here
            log.info("catalog unavailable for default types: %s", exc)
            types = []
        return types or list(DEFAULT_GPU_TYPES)

    def _on_demand_prices(
        self, account: Account, creds: Credentials, types: Sequence[str]
    ) -> dict[str, float]:
        pricing = self._client(account, creds, "pricing", region="us-east-1")
        out: dict[str, float] = {}
        for itype in types:
            filters = [
                {"Type": "TERM_MATCH", "Field": f, "Value": v}
                for f, v in (
                    ("instanceType", itype),
                    ("regionCode", account.region),
                    ("operatingSystem", "Linux"),
                    ("tenancy", "Shared"),
                    ("preInstalledSw", "NA"),
                    ("capacitystatus", "Used"),
                )
            ]
            try:
                resp = self._call(
                    account,
                    pricing,
                    "get_products",
                    ServiceCode="AmazonEC2",
                    Filters=filters,
                    MaxResults=10,
                    ctx={"instance_type": itype},
                )
            except CloudError as exc:
                log.info("pricing api unavailable (%s): on-demand prices not refreshed", exc.code)
                return out
            for raw in resp.get("PriceList", []):
                price = on_demand_from_price_list(raw)
                if price is not None:
                    out[itype] = price
                    break
        return out

    def refresh_prices(
        self, account: Account, creds: Credentials, instance_types: Sequence[str]
    ) -> list[Offer]:
        types = list(instance_types) or self._default_types(account)
        ec2 = self._client(account, creds)
        now = datetime.now(timezone.utc).replace(microsecond=0)
        specs: dict[str, dict[str, Any]] = {}
        for itype in types:
            try:
                resp = self._call(
                    account,
                    ec2,
                    "describe_instance_types",
                    InstanceTypes=[itype],
                    ctx={"instance_type": itype},
                )
            except CloudError as exc:
                if exc.code not in ("InvalidInstanceType", "InvalidParameterValue", "Unsupported"):
                    raise  # auth, network, throttling: the whole refresh failed, say so
                log.info("skip %s: %s", itype, exc.code)  # a type this region (or moto) does not know
                continue
            for d in resp.get("InstanceTypes", []):
                if d.get("GpuInfo"):
                    specs[d["InstanceType"]] = d
        if not specs:
            return []
        on_demand = self._on_demand_prices(account, creds, list(specs))
        hist: list[dict[str, Any]] = []
        kwargs: dict[str, Any] = {
            "InstanceTypes": list(specs),
            "ProductDescriptions": ["Linux/UNIX"],
            "StartTime": now - timedelta(hours=6),
            "MaxResults": 1000,
        }
        for _page in range(10):  # a few hours of history for a handful of types fits in one or two pages
            resp = self._call(account, ec2, "describe_spot_price_history", **kwargs)
            hist.extend(resp.get("SpotPriceHistory", []))
            if not resp.get("NextToken"):
                break
            kwargs["NextToken"] = resp["NextToken"]
        latest: dict[tuple[str, str], tuple[datetime, float]] = {}
        for h in hist:
            key = (h["InstanceType"], h.get("AvailabilityZone", ""))
            ts = h.get("Timestamp") or now
            if key not in latest or latest[key][0] < ts:
                latest[key] = (ts, float(h["SpotPrice"]))
        offers: list[Offer] = []
        for itype, d in specs.items():
            gpu = d["GpuInfo"]["Gpus"][0]
            count = float(sum(g.get("Count", 0) for g in d["GpuInfo"]["Gpus"]))
            vram = gpu.get("MemoryInfo", {}).get("SizeInMiB", 0) / 1024.0
            base = {
                "provider": "aws",
                "region": account.region,
                "instance_type": itype,
                "gpu_model": gpu_model_key(gpu.get("Name", ""), vram),
                "gpu_count": count,
                "vram_gb": round(vram, 1),
                "vcpu": d.get("VCpuInfo", {}).get("DefaultVCpus"),
                "ram_gb": round(d.get("MemoryInfo", {}).get("SizeInMiB", 0) / 1024.0, 1) or None,
                "network_gbps": network_gbps_of(d.get("NetworkInfo", {})),
                "price_on_demand": on_demand.get(itype),
                "price_prepaid_month": None,
                "currency": "USD",
                "price_source": "AWS API: Pricing get_products + EC2 describe_spot_price_history",
                "price_date": now.date(),
                "live": True,
                "fetched_at": now,
            }
            zones = sorted((z, p) for (t, z), (_ts, p) in latest.items() if t == itype)
            if not zones:
                offers.append(Offer(**base, price_spot=None, spot_available=False))
            for zone, price in zones:
                offers.append(Offer(**base, price_spot=price, spot_available=True, zone=zone))
        return offers

    def spot_price_history(
        self, account: Account, creds: Credentials, instance_type: str, zone: str | None = None, days: int = 7
    ) -> list[SpotPricePoint]:
        """Every zone's (or one zone's) spot price changes over the last `days` days, paged; AWS adds
        the change before the start (the price in effect then)."""
        ec2 = self._client(account, creds)
        start, end = history_window(days)
        kwargs: dict[str, Any] = {
            "InstanceTypes": [instance_type],
            "ProductDescriptions": ["Linux/UNIX"],
            "StartTime": start,
            "EndTime": end,
            "MaxResults": 1000,
        }
        if zone:
            kwargs["AvailabilityZone"] = zone
        points: list[SpotPricePoint] = []
        for _page in range(50):  # a busy type changes a few times a day per zone: far fewer pages
            resp = self._call(account, ec2, "describe_spot_price_history", ctx={"instance_type": instance_type},
                              **kwargs)
            for h in resp.get("SpotPriceHistory", []):
                if h.get("InstanceType", instance_type) != instance_type:
                    continue
                if zone and h.get("AvailabilityZone", zone) != zone:
                    continue
                ts = h.get("Timestamp") or end
                ts = ts.astimezone(timezone.utc) if ts.tzinfo else ts.replace(tzinfo=timezone.utc)
                points.append(SpotPricePoint(ts, float(h["SpotPrice"]), "USD", h.get("AvailabilityZone", "")))
            if not resp.get("NextToken"):
                break
            kwargs["NextToken"] = resp["NextToken"]
        return sorted(points, key=lambda p: (p.zone, p.time))
