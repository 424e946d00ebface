"""'Refresh public prices' when the list says an offer costs 0 per hour: the page
keeps the bundled price in the table and says which price it did not believe."""

from __future__ import annotations

from PySide6.QtCore import Qt


def test_a_free_public_price_is_named_and_the_bundled_price_stays(app_window, qtbot, azure_prices_server):
    ctx, window = app_window
    window.show_page("offers")
    page = window.pages["offers"]
    qtbot.waitUntil(lambda: page.load is not None and not page._loading, timeout=10000)
    ctx.settings.azure_prices_endpoint = azure_prices_server.endpoint
    for item in azure_prices_server.items:
        if item["armSkuName"] == "Standard_NC6s_v3" and item["type"] == "Consumption":
            item["retailPrice"] = item["unitPrice"] = 0.0
    m = page.model
    row = next(r for r in range(m.rowCount()) if m.offer_at(r).instance_type == "Standard_NC6s_v3")
    bundled = m.offer_at(row).price_on_demand
    qtbot.mouseClick(page.public_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.public_button.isEnabled(), timeout=20000)
    qtbot.waitUntil(lambda: not page._loading and page.load.live_count >= 1, timeout=10000)
    status = page.status_label.text()
    assert "Prices not believable, so not used (the bundled price is kept): Standard_NC6s_v3: on-demand 0.0 " \
           "is not a price (USD)." in status
    o = next(m.offer_at(r) for r in range(m.rowCount()) if m.offer_at(r).instance_type == "Standard_NC6s_v3")
    assert o.price_on_demand == bundled and not o.live
