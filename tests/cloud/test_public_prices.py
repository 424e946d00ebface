"""Azure's public price list against the local Retail Prices API server: paging, meter choice, the
cache merge with the fetch time, and failures that keep the bundled prices."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from app.cloud.public_prices import PublicPriceError, azure_endpoint, azure_prices, refresh_public_prices
from app.core.catalog import load_catalog
from app.core.offerprices import price_age
from app.core.paths import default_paths
from tests.fixtures.azure_prices_server import SKUS

NOW = datetime(2026, 12, 2, 18, 0, tzinfo=timezone.utc)


def _azure(load):
    return {o.instance_type: o for o in load.offers if o.provider == "azure"}


def test_refresh_fills_the_azure_rows_from_every_page_and_marks_the_fetch_time(azure_prices_server):
    paths = default_paths().ensure()
    bundled = _azure(load_catalog(paths, include_live=False))
    seen = []
    result = refresh_public_prices(azure_endpoint_setting=azure_prices_server.endpoint, paths=paths,
                                   progress=lambda d, t, w: seen.append((d, t, w)), now=NOW)
    # 7 or 5 meters per SKU at 3 items a page: several pages each, all followed
    assert result.requests > len(bundled)
    assert any("%24skip=" in r or "$skip=" in r for r in azure_prices_server.requests)
    assert seen[0] == (0, len(bundled), f"eastus {next(iter(bundled))}") and seen[-1][0] == len(bundled)
    got = {o.instance_type: o for o in result.offers}
    assert set(got) == set(SKUS)  # ND96isr_H100_v5 is not in the API's answer
    assert result.missing == [(("azure", "eastus", "Standard_ND96isr_H100_v5"),
                               "no Linux pay-as-you-go meter in the API's answer")]
    for sku, (_meter, _series, on_demand, spot) in SKUS.items():
        o = got[sku]
        # Linux pay-as-you-go (not Windows, Low Priority, the Reservation or the superseded price)
        assert o.price_on_demand == on_demand
        assert o.price_spot == spot
        assert o.spot_available is (spot is not None)
        assert (o.live, o.origin, o.fetched_at, o.currency) == (True, "public", NOW, "USD")
        assert "Azure Retail Prices API (127.0.0.1:" in o.price_source and "2026-12-02 18:00 UTC" in o.price_source
        # the rest of the row stays the catalog's
        assert (o.gpu_model, o.gpu_count, o.ram_gb) == (bundled[sku].gpu_model, bundled[sku].gpu_count,
                                                          bundled[sku].ram_gb)
    merged = load_catalog(paths)
    m = _azure(merged)
    assert m["Standard_NC6s_v3"].price_on_demand == 3.11 and m["Standard_NC6s_v3"].origin == "public"
    assert m["Standard_ND96isr_H100_v5"].price_on_demand == bundled["Standard_ND96isr_H100_v5"].price_on_demand
    assert not m["Standard_ND96isr_H100_v5"].live
    assert price_age(m["Standard_NC6s_v3"], NOW + timedelta(minutes=5)).text() == "fetched 5 min ago"


@pytest.mark.parametrize(("kwargs", "reason"), [
    ({"status": 503}, "HTTP 503"),
    ({"status": 500, "after_pages": 1}, "HTTP 500"),  # a later page fails: nothing partial is kept
    ({"status": 502, "html": True}, "HTTP 502"),
])
def test_a_failing_api_keeps_the_bundled_prices_and_says_why(azure_prices_server, kwargs, reason):
    paths = default_paths().ensure()
    azure_prices_server.fail(**kwargs)
    with pytest.raises(PublicPriceError) as err:
        refresh_public_prices(azure_endpoint_setting=azure_prices_server.endpoint, paths=paths, now=NOW)
    text = err.value.one_line()
    assert text.startswith("[AzurePricesUnavailable] ")
    assert reason in text and azure_prices_server.endpoint in text and "bundled prices are kept" in text
    load = load_catalog(paths)
    assert load.live_count == 0
    assert all(not o.live for o in load.offers if o.provider == "azure")


def test_an_answer_that_is_not_the_api_is_refused(azure_prices_server):
    # the server's root path is a 404 JSON error; a page without Items is not the API either
    with pytest.raises(PublicPriceError) as err:
        refresh_public_prices(azure_endpoint_setting=azure_prices_server.endpoint.replace("/api/retail/prices",
                                                                                          "/nothing"),
                              now=NOW)
    assert "HTTP 404" in err.value.text()


def test_an_unreachable_endpoint_fails_clearly():
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(PublicPriceError) as err:
        refresh_public_prices(azure_endpoint_setting=f"http://127.0.0.1:{port}/api/retail/prices", now=NOW,
                              timeout=5)
    assert "refused" in err.value.text().lower()


def test_endpoint_setting_must_be_http():
    assert azure_endpoint("") == "https://prices.azure.com/api/retail/prices"
    with pytest.raises(PublicPriceError) as err:
        azure_endpoint("file:///etc/passwd")
    assert err.value.code == "AzurePricesEndpoint"


def test_meter_choice_follows_the_api_fields():
    def item(**over):
        base = {"armSkuName": "Standard_X", "armRegionName": "eastus", "type": "Consumption",
                "unitOfMeasure": "1 Hour", "currencyCode": "USD", "productName": "Virtual Machines X Series",
                "meterName": "X", "skuName": "X", "retailPrice": 1.0, "tierMinimumUnits": 0.0,
                "effectiveStartDate": "2026-01-01T00:00:00Z"}
        base.update(over)
        return base

    items = [item(), item(retailPrice=0.9, effectiveStartDate="2026-05-01T00:00:00Z"),
             item(meterName="X Spot", skuName="X Spot", retailPrice=0.2),
             item(meterName="X Low Priority", skuName="X Low Priority", retailPrice=0.1),
             item(productName="Virtual Machines X Series Windows", retailPrice=2.0),
             item(type="Reservation", retailPrice=5000.0),
             item(armRegionName="westus", retailPrice=0.5),
             item(unitOfMeasure="1/Month", retailPrice=0.01)]
    assert azure_prices(items, "eastus", "standard_x") == (0.9, 0.2)
    assert azure_prices([item(type="Reservation")], "eastus", "Standard_X") == (None, None)
