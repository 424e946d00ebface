"""'Refresh public prices' on the offers page against the local Azure Retail Prices API server, and the
age of every price in the table and the details (with a fixed clock)."""

from __future__ import annotations

from datetime import datetime, timezone

from PySide6.QtCore import Qt

from tests.fixtures.azure_prices_server import SKUS


def _offers_page(app_window, qtbot):
    ctx, window = app_window
    window.show_page("offers")
    page = window.pages["offers"]
    qtbot.waitUntil(lambda: page.load is not None and not page._loading, timeout=10000)
    return ctx, page


def _row(page, instance_type):
    m = page.model
    return next(r for r in range(m.rowCount()) if m.offer_at(r).instance_type == instance_type)


def _cell(page, instance_type, key):
    m = page.model
    return m.index(_row(page, instance_type), m.column_of(key))


def test_public_refresh_fills_azure_rows_with_progress_and_fetch_time(app_window, qtbot, azure_prices_server):
    ctx, page = _offers_page(app_window, qtbot)
    ctx.settings.azure_prices_endpoint = azure_prices_server.endpoint
    bundled = page.model.offer_at(_row(page, "Standard_NC6s_v3"))
    assert not bundled.live
    progress = []
    page.public_progress.valueChanged.connect(progress.append)
    qtbot.mouseClick(page.public_button, Qt.MouseButton.LeftButton)
    assert not page.public_button.isEnabled()
    assert page.public_progress.isVisible()
    qtbot.waitUntil(lambda: page.public_button.isEnabled(), timeout=20000)
    qtbot.waitUntil(lambda: not page._loading and page.load.live_count >= len(SKUS), timeout=10000)
    assert not page.public_progress.isVisible()
    assert progress and max(progress) == page.public_progress.maximum() == 5
    for sku, (_m, _s, on_demand, spot) in SKUS.items():
        o = page.model.offer_at(_row(page, sku))
        assert (o.price_on_demand, o.price_spot, o.origin) == (on_demand, spot, "public")
        assert _cell(page, sku, "age").data().startswith("fetched")
    status = page.status_label.text()
    assert "4 Azure prices fetched from the public price list at" in status
    assert "No public price for Standard_ND96isr_H100_v5: the bundled price is kept." in status
    assert page.select_offer(page.model.offer_at(_row(page, "Standard_NC6s_v3")).key)
    age = page.details.fields["age"].text()
    assert age.startswith("fetched") and "UTC, public price list, no account)" in age
    assert "Azure Retail Prices API" in page.details.fields["source"].text()


def test_a_failing_public_list_keeps_bundled_prices_and_says_why(app_window, qtbot, azure_prices_server):
    ctx, page = _offers_page(app_window, qtbot)
    ctx.settings.azure_prices_endpoint = azure_prices_server.endpoint
    azure_prices_server.fail(503)
    before = [page.model.offer_at(r) for r in range(page.model.rowCount())
              if page.model.offer_at(r).provider == "azure"]
    reported = []
    ctx.errors.reported.connect(reported.append)
    qtbot.mouseClick(page.public_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.public_button.isEnabled(), timeout=20000)
    assert not page.public_progress.isVisible()
    text = page.status_label.text()
    assert "Azure's public price list could not be read from" in text and "HTTP 503" in text
    assert "The bundled prices are kept." in text and "Check your internet connection" in text
    assert [getattr(e, "code", "") for e in reported] == ["AzurePricesUnavailable"]
    after = [page.model.offer_at(r) for r in range(page.model.rowCount())
             if page.model.offer_at(r).provider == "azure"]
    assert sorted(o.key for o in after) == sorted(o.key for o in before)
    assert not any(o.live for o in after)


def test_price_age_in_table_and_details_with_a_fixed_clock(app_window, qtbot):
    _ctx, page = _offers_page(app_window, qtbot)
    page.model.clock = lambda: datetime(2026, 12, 2, 12, 0, tzinfo=timezone.utc)
    page.model.set_offers(page.load.offers, page.load.gpus)
    assert _cell(page, "gpu_1x_a100_sxm4", "age").data() == "bundled, 2026-09-25"
    assert _cell(page, "p3.2xlarge", "age").data() == "undated snapshot"
    assert _cell(page, "GN7.2XLARGE32", "age").data() == "undated snapshot"
    page.select_offer(page.model.offer_at(_row(page, "gpu_1x_a100_sxm4")).key)
    assert page.details.fields["age"].text() == "bundled, 2026-09-25 (68 days old)"
    # a year later the only price is over a year old, and both places say so
    page.model.clock = lambda: datetime(2027, 9, 27, 12, 0, tzinfo=timezone.utc)
    page.model.set_offers(page.load.offers, page.load.gpus)
    cell = _cell(page, "gpu_1x_a100_sxm4", "age")
    assert cell.data() == "bundled, 2026-09-25 — over a year old"
    assert "over a year old" in cell.data(Qt.ItemDataRole.ToolTipRole)
    assert cell.data(Qt.ItemDataRole.ForegroundRole).color().name() == "#a15c00"
    page.select_offer(page.model.offer_at(_row(page, "gpu_1x_a100_sxm4")).key)
    assert page.details.fields["age"].text() == "bundled, 2026-09-25 — over a year old (367 days old)"
