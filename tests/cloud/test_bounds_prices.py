"""A hostile price endpoint: prices of 0 or ~∞, pages without end, huge pages and a
drip of one byte every 5 s, each against a real local HTTP server; what it may not do: make an offer
"free" for the advisor, grow memory without bound, or hold the refresh past its deadline."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from app.cloud.public_prices import MAX_ITEMS, MAX_PAGE_BYTES, MAX_PAGES, PublicPriceError, refresh_public_prices
from app.core import live_prices
from app.core.advisor import AdvisorAnswers, advise
from app.core.catalog import load_catalog
from app.core.paths import default_paths

NOW = datetime(2026, 12, 2, 18, 0, tzinfo=timezone.utc)
SKU = "Standard_NC6s_v3"


class Hostile:
    """A Retail-Prices-shaped server that misbehaves as ``mode`` says."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.requests = 0
        self.bytes_sent = 0
        self.stop = threading.Event()
        state = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

            def do_GET(self) -> None:  # noqa: N802
                state.requests += 1
                state.answer(self)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                       name="session-hostile-prices", daemon=True)

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/api/retail/prices"

    def answer(self, h: BaseHTTPRequestHandler) -> None:
        h.send_response(200)
        h.send_header("Content-Type", "application/json")
        if self.mode == "drip":  # a body promised, then one byte every 5 s
            h.send_header("Content-Length", "100000")
            h.end_headers()
            while not self.stop.is_set():
                try:
                    h.wfile.write(b" ")
                    h.wfile.flush()
                except OSError:
                    return
                self.bytes_sent += 1
                self.stop.wait(5.0)
            return
        if self.mode in ("endless", "many"):  # every page names a fresh next page
            n = self.requests
            # endless: 100 items of 20 KB a page (2 MB); many: 1,000 small items a page
            count, pad = (100, 20_000) if self.mode == "endless" else (1000, 10)
            doc = {"Items": [{"armSkuName": "Standard_X", "retailPrice": 1.0, "pad": "p" * pad}] * count,
                   "NextPageLink": f"{self.endpoint}?api-version=x&$skip={n * count}"}
            body = json.dumps(doc).encode()
            self.bytes_sent += len(body)
        else:  # "huge": one page far over the cap, streamed
            h.send_header("Content-Length", str(64 * 1024 * 1024))
            h.end_headers()
            chunk = b" " * (1024 * 1024)
            try:
                for _ in range(64):
                    h.wfile.write(chunk)
                    self.bytes_sent += len(chunk)
            except OSError:
                return
            return
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)


@pytest.fixture
def hostile(request) -> Iterator[Hostile]:
    server = Hostile(request.param)
    server.thread.start()
    try:
        yield server
    finally:
        server.stop.set()
        server.httpd.shutdown()
        server.httpd.server_close()
        server.thread.join(5)


def _nc6(offers):
    return next(o for o in offers if o.provider == "azure" and o.instance_type == SKU)


@pytest.mark.parametrize("hostile", ["drip"], indirect=True)
def test_a_drip_of_one_byte_every_5_s_ends_at_the_deadline(hostile):
    paths = default_paths().ensure()
    offers = [_nc6(load_catalog(paths, include_live=False).offers)]
    with pytest.raises(PublicPriceError) as err:
        refresh_public_prices(offers, azure_endpoint_setting=hostile.endpoint, paths=paths, now=NOW,
                              timeout=30.0, deadline_s=0.5)
    # it gave up at its 0.5 s deadline: the server had sent its first byte, not the one due 5 s later
    assert hostile.bytes_sent == 1
    assert "no complete answer within 0.5 s" in err.value.text() and "bundled prices are kept" in err.value.text()
    assert load_catalog(paths).live_count == 0


@pytest.mark.parametrize("hostile", ["endless"], indirect=True)
def test_paging_without_end_stops_at_the_page_cap(hostile):
    paths = default_paths().ensure()
    offers = [_nc6(load_catalog(paths, include_live=False).offers)]
    with pytest.raises(PublicPriceError) as err:
        refresh_public_prices(offers, azure_endpoint_setting=hostile.endpoint, paths=paths, now=NOW)
    assert f"more than {MAX_PAGES} pages" in err.value.text()
    assert hostile.requests == MAX_PAGES == 10  # (it was 50 pages: a hostile list could send gigabytes)
    assert hostile.bytes_sent < 25 * 2**20


@pytest.mark.parametrize("hostile", ["many"], indirect=True)
def test_items_without_end_stop_at_the_item_cap(hostile):
    paths = default_paths().ensure()
    offers = [_nc6(load_catalog(paths, include_live=False).offers)]
    with pytest.raises(PublicPriceError) as err:
        refresh_public_prices(offers, azure_endpoint_setting=hostile.endpoint, paths=paths, now=NOW)
    assert f"more than {MAX_ITEMS} items for {SKU} in eastus" in err.value.text()
    assert hostile.requests == MAX_ITEMS // 1000 + 1


@pytest.mark.parametrize("hostile", ["huge"], indirect=True)
def test_a_page_over_the_byte_cap_is_refused_without_reading_it_all(hostile):
    paths = default_paths().ensure()
    offers = [_nc6(load_catalog(paths, include_live=False).offers)]
    with pytest.raises(PublicPriceError) as err:
        refresh_public_prices(offers, azure_endpoint_setting=hostile.endpoint, paths=paths, now=NOW)
    assert f"a page larger than {MAX_PAGE_BYTES // 2**20} MB" in err.value.text()


def test_implausible_public_prices_are_refused_named_and_the_bundled_price_kept(azure_prices_server):
    paths = default_paths().ensure()
    bundled = {o.instance_type: o for o in load_catalog(paths, include_live=False).offers if o.provider == "azure"}
    fake = {"Standard_NC6s_v3": 0.0, "Standard_ND96asr_v4": 1e300, "Standard_NC24ads_A100_v4": 0.0001}
    for item in azure_prices_server.items:
        sku = item["armSkuName"]
        if sku in fake and item["type"] == "Consumption":
            item["retailPrice"] = item["unitPrice"] = fake[sku]
    result = refresh_public_prices(azure_endpoint_setting=azure_prices_server.endpoint, paths=paths, now=NOW)
    refused = dict(result.refused)
    assert set(refused) == {("azure", "eastus", s) for s in fake}
    assert "0.0 is not a price" in refused[("azure", "eastus", "Standard_NC6s_v3")]
    nd96 = bundled["Standard_ND96asr_v4"].price_on_demand
    assert f"more than 20 times off the bundled price {nd96:g}" in refused[("azure", "eastus", "Standard_ND96asr_v4")]
    assert {o.instance_type for o in result.offers} == {"Standard_NC40ads_H100_v5"}  # the believable one
    merged = {o.instance_type: o for o in load_catalog(paths).offers if o.provider == "azure"}
    for sku in fake:
        assert merged[sku].price_on_demand == bundled[sku].price_on_demand and not merged[sku].live


def test_a_free_live_price_in_the_cache_never_ranks_first(tmp_path):
    # a cloud account's answer (or an older cache) said 0 per hour for one offer
    paths = default_paths().ensure()
    bundled = load_catalog(paths, include_live=False)
    answers = AdvisorAnswers(task="nlp", params_millions=340, budget="short", spot_ok=False)
    before = advise(bundled.offers, answers).ranking.items[0].key
    victim = next(o for o in bundled.offers if o.key != before and o.price_on_demand and o.vram_gb >= 16)
    from dataclasses import replace

    live_prices.save(paths, [replace(victim, price_on_demand=0.0, price_spot=None, fetched_at=NOW)])
    load = load_catalog(paths)
    assert any("live price refused: " + " ".join(victim.key) in p and "0.0 is not a price" in p
               for p in load.problems)
    merged = next(o for o in load.offers if o.key == victim.key)
    assert merged.price_on_demand == victim.price_on_demand
    assert advise(load.offers, answers).ranking.items[0].key == before
    # and the advisor itself treats a zero price as unknown, never as free
    zero = [replace(o, price_on_demand=0.0, price_spot=0.0) if o.key == victim.key else o for o in bundled.offers]
    assert advise(zero, answers).ranking.items[0].key != victim.key


def test_a_live_refresh_keeps_at_most_max_live_offers():
    # the account's provider answered with more per-zone prices than any region has (a broken API)
    paths = default_paths().ensure()
    base = _nc6(load_catalog(paths, include_live=False).offers)
    from dataclasses import replace

    class Flood:
        def refresh_prices(self, account, creds, types):
            return [replace(base, zone=f"z{i}", live=True, fetched_at=NOW) for i in range(live_prices.MAX_LIVE_OFFERS
                                                                                          + 1000)]

    got = live_prices.refresh_prices(object(), Flood(), None, paths=paths)
    assert len(got) == live_prices.MAX_LIVE_OFFERS
    assert len(live_prices.zone_prices(paths, "azure", "eastus", SKU)) == live_prices.MAX_LIVE_OFFERS
