"""Huawei Cloud live prices: the pay-per-use price of each GPU flavor in the account's region, read with BSS
ListOnDemandResourceRatings (POST /v2/bills/ratings/on-demand-resources, "Querying the Price of a Pay-Per-Use
Product", https://support.huaweicloud.com/eu/fr-fr/api-oce/bcloud_01001.html). Each flavor is one
product: cloud_service_type ``hws.service.type.ec2``, resource_type ``hws.resource.type.vm``, resource_spec
``<flavor>.linux``, usage_factor ``Duration``, usage_value 1, usage_measure_id 4 (hour), subscription_num 1;
the answer prices each product by its ``id`` (official_website_amount: the list price; amount: after the
account's discounts, which LabGPU shows). BSS is a global service: GlobalCredentials (the SDK looks up the
account's domain id with IAM KeystoneListAuthDomains); the request names the region's project id.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timezone
from typing import Any

from app.cloud.base import CloudError
from app.cloud.kit import live_offer, load_sdk, to_float
from app.cloud.pricing import bundled_rows
from app.core.accounts import Account, Credentials
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.models import Offer

from .client import SDK_MISSING, HuaweiClient
from .spec import PROVIDER_ID

log = logging.getLogger("app.cloud.huawei")

BSS_HINT = QT_TRANSLATE_NOOP("LabGPU", "Install it with: pip install huaweicloudsdkbss")
PRICE_SOURCE = "Huawei Cloud BSS API (ListOnDemandResourceRatings)"
HOUR_MEASURE_ID = 4  # BSS measurement units: 4 = hour
BATCH = 100  # product_infos per request (BSS: at most 100)


def bss_sdk() -> tuple[Any, Any]:
    """(the BSS v2 models module, BssClient)."""
    return load_sdk(PROVIDER_ID, (("huaweicloudsdkbss.v2", "model"), ("huaweicloudsdkbss.v2", "BssClient")),
                    SDK_MISSING, BSS_HINT)


def catalog_rows() -> dict[str, dict[str, str]]:
    """The bundled specs of Huawei GPU flavors (GPU model, VRAM, network, interconnect) by flavor."""
    return bundled_rows(PROVIDER_ID)


def rating_request(project_id: str, region: str, flavors: Sequence[str]) -> Any:
    """The SDK's ListOnDemandResourceRatingsRequest for these flavors (product ids "0", "1", …)."""
    models, _client = bss_sdk()
    products = [models.DemandProductInfo(
        id=str(i), cloud_service_type="hws.service.type.ec2", resource_type="hws.resource.type.vm",
        resource_spec=f"{flavor}.linux", region=region, usage_factor="Duration", usage_value=1,
        usage_measure_id=HOUR_MEASURE_ID, subscription_num=1) for i, flavor in enumerate(flavors)]
    body = models.RateOnDemandReq(project_id=project_id, product_infos=products)
    return models.ListOnDemandResourceRatingsRequest(body=body)


class HuaweiPrices(HuaweiClient):
    """Live pay-per-use prices for the account's region."""

    def hourly_prices(self, account: Account, creds: Credentials,
                      flavors: Sequence[str]) -> dict[str, tuple[float, str]]:
        """flavor → (hourly pay-per-use price after the account's discounts, currency), BSS answering 100
        products a request; a flavor BSS does not price is left out."""
        flavors = list(dict.fromkeys(flavors))
        if not flavors:
            return {}
        project = self.project_id(account, creds)
        _models, client_cls = bss_sdk()
        out: dict[str, tuple[float, str]] = {}
        for start in range(0, len(flavors), BATCH):
            batch = flavors[start:start + BATCH]
            request = rating_request(project, account.region, batch)

            def rate(request: Any = request) -> Any:  # a fresh client per attempt (a throttled one is closed)
                client = self._client(account, creds, client_cls, service="bss")
                return self._with_client(account, client, lambda c: c.list_on_demand_resource_ratings(request))

            body = self._invoke(account, creds, rate, "ListOnDemandResourceRatings", service="bss")
            currency = str(body.get("currency") or "CNY")
            for result in body.get("product_rating_results") or []:
                index = int(str(result.get("id", "-1")))
                price = to_float(result.get("amount"))
                if 0 <= index < len(batch) and price is not None:
                    out[batch[index]] = (price, currency)
        return out

    def _prices_for(self, account: Account, creds: Credentials,
                    raws: Sequence[dict[str, Any]]) -> dict[str, tuple[float, str]]:
        """The pay-per-use prices of these servers' flavors; none when BSS cannot be asked (a price is a nicety
        in the instance list: the list must still show)."""
        flavors = sorted({str((r.get("flavor") or {}).get("id") or "") for r in raws} - {""})
        try:
            return self.hourly_prices(account, creds, flavors)
        except CloudError as exc:
            log.info("no live price for %s: %s", ",".join(flavors), exc.code)
            return {}

    def refresh_prices(self, account: Account, creds: Credentials, instance_types: Sequence[str]) -> list[Offer]:
        """The hourly pay-per-use price of each flavor (without types: the bundled catalog's Huawei flavors)."""
        now = datetime.now(timezone.utc)
        flavors = list(dict.fromkeys(instance_types)) or sorted(catalog_rows())
        prices = self.hourly_prices(account, creds, flavors)
        offers: list[Offer] = []
        for flavor in flavors:
            if flavor not in prices:
                continue
            price, currency = prices[flavor]
            row = catalog_rows().get(flavor, {})
            offers.append(live_offer(
                PROVIDER_ID, account.region, "", flavor, row, now,
                gpu_model=row.get("gpu_model") or "?",
                gpu_count=float(to_float(row.get("gpu_count")) or 0.0),
                vram_gb=float(to_float(row.get("vram_gb")) or 0.0),
                vcpu=int(to_float(row.get("vcpu")) or 0) or None,
                ram_gb=to_float(row.get("ram_gb")),
                network_gbps=to_float(row.get("network_gbps")),
                price_on_demand=price, price_spot=None, price_prepaid_month=None,
                currency=currency, price_source=PRICE_SOURCE,
            ))
        return offers
