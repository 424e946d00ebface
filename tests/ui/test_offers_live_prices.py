"""'Refresh live prices' on the offers page, against the local TC3-checking Tencent server."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY


def _offers_page(app_window, qtbot):
    ctx, window = app_window
    window.show_page("offers")
    page = window.pages["offers"]
    qtbot.waitUntil(lambda: page.load is not None, timeout=10000)
    return ctx, page


def _rows(page, provider):
    m = page.model
    return [m.offer_at(r) for r in range(m.rowCount()) if m.offer_at(r).provider == provider]


def test_live_prices_replace_unknown_tencent_prices_and_mark_sold_out(app_window, qtbot, secret_service,
                                                                     tencent_server):
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service

    ctx, page = _offers_page(app_window, qtbot)
    assert not any(o.live for o in _rows(page, "tencent"))  # bundled list prices (GN7vw: none) before
    cloud_service(ctx).accounts.add(Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint),
                                    Credentials(TEST_SECRET_ID, TEST_SECRET_KEY))
    qtbot.mouseClick(page.live_button, Qt.MouseButton.LeftButton)
    assert not page.live_button.isEnabled()
    qtbot.waitUntil(lambda: page.live_button.isEnabled() and page.load is not None and page.load.live_count > 0,
                    timeout=20000)
    qtbot.waitUntil(lambda: not page._loading, timeout=10000)
    live = [o for o in _rows(page, "tencent") if o.live]
    assert live, "no live Tencent offer in the table"
    assert all(o.currency == "CNY" and o.fetched_at is not None for o in live)
    assert any(o.price_on_demand and o.price_on_demand > 0 for o in live)
    assert "live prices fetched" in page.status_label.text()
    assert tencent_server.requests_of("DescribeZoneInstanceConfigInfos")


def test_without_an_account_the_button_says_what_to_do_and_opens_accounts(app_window, qtbot, secret_service):
    ctx, page = _offers_page(app_window, qtbot)
    pages = []
    ctx.navigate_requested.connect(lambda pid, _p: pages.append(pid))
    qtbot.mouseClick(page.live_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: page.live_button.isEnabled(), timeout=10000)
    assert "add one on the Accounts page" in page.status_label.text()
    assert pages == ["accounts"]


def test_a_type_sold_out_in_every_zone_is_marked_in_the_table(app_window, qtbot):
    from dataclasses import replace
    from datetime import datetime, timezone

    from app.core import live_prices
    from app.core.paths import default_paths

    ctx, page = _offers_page(app_window, qtbot)
    bundled = next(o for o in _rows(page, "tencent") if o.instance_type.startswith("GT4"))
    now = datetime.now(timezone.utc)
    live_prices.save(default_paths(), [
        replace(bundled, region="ap-guangzhou", zone=z, live=True, fetched_at=now, sold_out=True,
                price_on_demand=28.64, price_source="Tencent DescribeZoneInstanceConfigInfos")
        for z in ("ap-guangzhou-3", "ap-guangzhou-6")])
    page.refresh()
    qtbot.waitUntil(lambda: not page._loading and page.load.live_count > 0, timeout=10000)
    m = page.model
    col = m.column_of("instance_type")
    row = next(r for r in range(m.rowCount()) if m.offer_at(r).live and m.offer_at(r).provider == "tencent")
    assert m.offer_at(row).sold_out
    assert "⛔" in m.index(row, col).data()


def test_launch_button_opens_the_launch_dialog_for_tencent_and_every_cloud_launches(app_window, qtbot):
    ctx, page = _offers_page(app_window, qtbot)
    tencent = next(o for o in _rows(page, "tencent"))
    assert page.select_offer(tencent.key)
    panel = page.details
    assert panel.launch_button.isEnabled()
    qtbot.mouseClick(panel.launch_button, Qt.MouseButton.LeftButton)
    # launching happens on the Instances page, which then lists the new instance
    window = app_window[1]
    qtbot.waitUntil(lambda: window.current_page_id() == "instances", timeout=5000)
    instances = window.pages["instances"]
    qtbot.waitUntil(lambda: getattr(instances, "launch_dialog", None) is not None, timeout=5000)
    dialog = instances.launch_dialog
    qtbot.waitUntil(dialog.isVisible, timeout=5000)
    assert dialog.form.type_edit.text() == tencent.instance_type
    dialog.reject()
    from app.core import providers

    # every cloud of the catalog launches now: each one's offer enables the button, without the Hosts note
    m = page.model
    clouds = {}
    for r in range(m.rowCount()):
        clouds.setdefault(m.offer_at(r).provider, m.offer_at(r))
    assert len(clouds) == 8, sorted(clouds)
    for offer in clouds.values():
        assert page.select_offer(offer.key)
        assert panel.launch_button.isEnabled() and not panel.launch_note.isVisibleTo(panel), offer.provider
    # a cloud a catalog may list without a plugin (a stand-in spec with launch=False): the note says where to go
    from dataclasses import replace

    providers.register_spec(providers.ProviderSpec("catalogonly", "Catalog Only"))
    try:
        panel.set_offer(replace(tencent, provider="catalogonly"))
        assert not panel.launch_button.isEnabled()
        assert "Hosts page" in panel.launch_note.text() and "Catalog Only" in panel.launch_note.text()
    finally:
        providers.unregister_spec("catalogonly")
