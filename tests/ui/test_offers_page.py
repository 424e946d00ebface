"""The offers page driven as a user would: filters, sorting, currency switch, ranking, details."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.core.catalog import CatalogLoad, load_catalog
from app.core.currency import default_rate
from app.core.models import Offer, RankedOffer, Ranking
from app.core.offerquery import OfferFilter, filter_offers, sort_value
from app.core.paths import default_paths


@pytest.fixture
def ctx(qtbot):
    from app.ui.app import create_app
    from app.ui.context import AppContext

    create_app()
    c = AppContext(default_paths().ensure(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


def _page(qtbot, ctx):
    from app.ui.offers.page import OffersPage

    page = OffersPage(ctx)
    qtbot.addWidget(page)
    page.resize(1112, 760)
    page.show()
    qtbot.waitUntil(lambda: page.load is not None, timeout=5000)
    return page


def _visible(page) -> list[Offer]:
    return [page.proxy.offer_at(r) for r in range(page.proxy.rowCount())]


def _column(page, key: str) -> int:
    col = page.model.column_of(key)
    assert col >= 0, key
    return col


def test_loads_bundled_catalog_sorted_by_price_per_tflop_with_details(qtbot, ctx):
    page = _page(qtbot, ctx)
    n = len(page.model.offers)
    assert n >= 40
    assert page.count_label.text() == f"{n} of {n} offers"
    offers = _visible(page)
    rate = page.model.rate
    values = [sort_value(o, "price_per_tflop", rate) for o in offers]
    known = [v for v in values if v is not None]
    assert known == sorted(known)
    assert all(v is None for v in values[len(known) :])  # unknown last
    # the best offer is selected and its details and estimator are shown
    assert page.current_offer() == offers[0]
    assert page.details.stack.currentIndex() == 1
    assert page.details.fields["source"].text() == offers[0].price_source
    assert page.details.estimator is not None


def test_each_filter_narrows_the_table_like_the_core_filter(qtbot, ctx):
    page = _page(qtbot, ctx)
    bar = page.filter_bar
    all_offers = page.model.offers

    def check(expected_filter: OfferFilter) -> None:
        bar.flush()
        expected = filter_offers(all_offers, expected_filter, page.model.rate, page.model.gpus)
        assert {o.key for o in _visible(page)} == {o.key for o in expected}
        assert page.proxy.rowCount() == len(expected)

    bar.gpu_combo.setEditText("A100")
    check(OfferFilter(gpu_models=("A100",), currency="CNY"))
    assert {o.gpu_model for o in _visible(page)} == {"A100-40GB", "A100-80GB", "A100-80GB-PCIe"}
    bar.provider_actions["aws"].setChecked(True)
    bar.provider_actions["azure"].setChecked(True)
    check(OfferFilter(providers=("aws", "azure"), gpu_models=("A100",), currency="CNY"))
    assert bar.provider_button.text() == "AWS, Azure"
    bar.reset()
    bar.vram_spin.setValue(80)
    check(OfferFilter(min_vram=80, currency="CNY"))
    bar.count_combo.setCurrentIndex(bar.count_combo.findData(8.0))
    check(OfferFilter(min_vram=80, gpu_count=8, currency="CNY"))
    bar.reset()
    bar.spot_check.setChecked(True)
    check(OfferFilter(spot_only=True, currency="CNY"))
    bar.reset()
    bar.price_spin.setValue(20.0)  # ¥20/h
    check(OfferFilter(max_price=20.0, currency="CNY"))
    assert all(o.price_on_demand is not None for o in _visible(page))
    bar.reset()
    bar.region_combo.setEditText("us-east")
    check(OfferFilter(region="us-east", currency="CNY"))
    bar.reset()
    bar.search_edit.setText("gn10xp")
    check(OfferFilter(text="gn10xp", currency="CNY"))
    assert len(_visible(page)) == 2
    bar.search_edit.setText("no such offer anywhere")
    bar.flush()
    assert page.proxy.rowCount() == 0
    assert "No offer matches" in page.status_label.text()


def test_header_click_sorts_numerically_with_unknown_last_both_ways(qtbot, ctx):
    page = _page(qtbot, ctx)
    header = page.table.horizontalHeader()
    col = _column(page, "on_demand")
    rate = page.model.rate

    def on_demand_usd() -> list[float | None]:
        return [sort_value(o, "price", rate) for o in _visible(page)]

    header.sectionClicked.emit(col)
    vals = on_demand_usd()
    known = [v for v in vals if v is not None]
    assert known == sorted(known)
    assert len(known) < len(vals)
    assert vals[len(known) :] == [None] * (len(vals) - len(known))
    assert header.sortIndicatorSection() == col
    assert header.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
    header.sectionClicked.emit(col)
    vals = on_demand_usd()
    known = [v for v in vals if v is not None]
    assert known == sorted(known, reverse=True)
    assert vals[len(known) :] == [None] * (len(vals) - len(known))
    # numeric, not text: VRAM 8 < 16 < 80
    page.sort_by("vram")
    vram = [o.vram_gb for o in _visible(page)]
    assert vram == sorted(vram)
    # text column
    page.sort_by("instance_type", descending=True)
    names = [o.instance_type.lower() for o in _visible(page)]
    assert names == sorted(names, reverse=True)


def test_sorting_keeps_the_selected_offer_selected(qtbot, ctx):
    page = _page(qtbot, ctx)
    target = next(o for o in page.model.offers if o.instance_type == "p4d.24xlarge")
    assert page.select_offer(target.key)
    page.sort_by("provider")
    assert page.current_offer() == target
    assert page.details.offer == target


def test_currency_switch_converts_for_display_and_persists(qtbot, ctx):
    page = _page(qtbot, ctx)
    assert page.model.currency == "CNY"
    assert "7.0197" in page.rate_label.text()
    assert "2026-01-08" in page.rate_label.text()
    p3 = next(o for o in page.model.offers if o.instance_type == "p3.2xlarge")
    page.filter_bar.search_edit.setText("p3.2xlarge")
    page.filter_bar.flush()
    cell = page.proxy.index(0, _column(page, "on_demand"))
    assert cell.data() == f"¥{3.06 * 7.0197:.2f}"
    page.filter_bar.price_spin.setValue(70.0)  # ¥70
    page.usd_button.click()
    assert page.model.currency == "USD"
    assert page.proxy.index(0, _column(page, "on_demand")).data() == "$3.06"
    assert page.model.headerData(_column(page, "on_demand"), Qt.Orientation.Horizontal).endswith("($)")
    # the budget keeps its value across the switch: ¥70 ≈ $9.97
    assert page.filter_bar.price_spin.value() == pytest.approx(70 / 7.0197, abs=0.01)
    assert page.filter_bar.price_spin.prefix() == "$"
    # stored prices are untouched
    assert p3.price_on_demand == 3.06
    assert p3.currency == "USD"
    page.shutdown()
    saved = json.loads(default_paths().settings_file.read_text(encoding="utf-8"))
    assert saved["display_currency"] == "USD"
    # a rate typed in settings is used and labelled as such
    ctx.settings.usd_cny_rate_override = 7.5
    ctx.save_settings()
    assert "7.5000" in page.rate_label.text()
    assert "your setting" in page.rate_label.text()
    page.cny_button.click()
    assert page.proxy.index(0, _column(page, "on_demand")).data() == f"¥{3.06 * 7.5:.2f}"


def test_filters_survive_a_restart(qtbot, ctx):
    page = _page(qtbot, ctx)
    bar = page.filter_bar
    bar.gpu_combo.setEditText("H100")
    bar.provider_actions["aws"].setChecked(True)
    bar.spot_check.setChecked(True)
    bar.flush()
    shown = {o.key for o in _visible(page)}
    assert shown
    page.shutdown()
    saved = json.loads(default_paths().settings_file.read_text(encoding="utf-8"))["offers_filters"]
    assert saved["gpu_models"] == ["H100"]
    assert saved["providers"] == ["aws"]
    assert saved["spot_only"]
    from app.ui.context import AppContext

    ctx2 = AppContext(default_paths(), "en")
    try:
        page2 = _page(qtbot, ctx2)
        assert page2.filter_bar.gpu_combo.currentText() == "H100"
        assert page2.filter_bar.spot_check.isChecked()
        assert {o.key for o in _visible(page2)} == shown
    finally:
        ctx2.shutdown(5000)


def test_advisor_ranking_shows_rank_and_why_first_and_lists_exclusions(qtbot, ctx):
    page = _page(qtbot, ctx)
    page.filter_bar.gpu_combo.setEditText("T4")  # ranking must not be hidden by old filters
    page.filter_bar.flush()
    offers = page.model.offers
    picks = [o for o in offers if o.instance_type in ("p5.48xlarge", "gpu_1x_h100_sxm5", "p4d.24xlarge")]
    order = sorted(picks, key=lambda o: o.instance_type)  # an order no column sort would give
    ranking = Ranking(
        title="LLM fine-tuning, 70B",
        items=tuple(
            RankedOffer(o.key, i + 1, 1.0 - i / 10, (f"reason {i + 1}a", "b")) for i, o in enumerate(order)
        ),
        excluded=((offers[0].key, "too little VRAM"), (offers[1].key, "no NVLink")),
    )
    page.activate(ranking)
    assert page.model.column_of("rank") == 0
    assert page.model.column_of("why") == 1
    top = _visible(page)[:3]
    assert [o.key for o in top] == [o.key for o in order]
    assert page.proxy.index(0, 0).data() == "1"
    assert page.proxy.index(0, 1).data() == "reason 1a; b"
    assert len(_visible(page)) == len(offers)  # the rest stays below
    assert page.banner.isVisible()
    text = page.banner_label.text()
    assert "Advisor: LLM fine-tuning, 70B" in text
    assert "3 recommended, 2 excluded" in text
    assert "too little VRAM" in page.exclusions_text()
    assert "no NVLink" in page.exclusions_text()
    page._on_banner_label_link_activated("excluded")
    box = next(w for w in QApplication.topLevelWidgets() if w.objectName() == "excludedDialog")
    assert "too little VRAM" in box.informativeText()
    box.close()
    assert page.current_offer().key == order[0].key
    assert page.filter_bar.gpu_combo.currentText() == "any"  # the T4 filter would hide the picks
    page.clear_ranking_button.click()
    assert page.filter_bar.gpu_combo.currentText() == "T4"  # and comes back afterwards
    assert {o.gpu_model for o in _visible(page)} == {"T4"}
    assert not page.banner.isVisible()
    assert page.model.column_of("rank") == -1
    assert page.model.sort_key == "per_tflop"


def test_ranking_before_catalog_loaded_is_applied_when_it_arrives(qtbot, ctx):
    from app.ui.offers.page import OffersPage

    page = OffersPage(ctx)
    qtbot.addWidget(page)
    key = ("aws", "us-east-1", "g4dn.xlarge")
    page.activate(Ranking("Advisor: Vision", (RankedOffer(key, 1, 1.0, ("cheap",)),)))
    qtbot.waitUntil(lambda: page.load is not None, timeout=5000)
    assert _visible(page)[0].key == key
    assert page.banner_label.text().count("Advisor:") == 1  # a title already prefixed is not doubled
    assert "Advisor: Vision</b> — 1 recommended, 0 excluded" in page.banner_label.text()


def test_details_panel_shows_unknown_prices_and_sources(qtbot, ctx):
    page = _page(qtbot, ctx)
    key = next(o.key for o in page.model.offers if o.instance_type == "GN7vw.2XLARGE32")  # no public price
    assert page.select_offer(key)
    f = page.details.fields
    assert f["on_demand"].text() == "unknown — refresh with an account"
    assert "qcloud-documents" in f["source"].text()
    assert f["age"].text() == "no price"
    assert "InquiryPriceRunInstances" in f["notes"].text()
    row = page.table.selectionModel().selectedRows()[0].row()
    cell = page.proxy.index(row, _column(page, "on_demand"))
    assert cell.data() == "unknown"  # short in the table; how to get the price in its tooltip and the details
    assert cell.data(Qt.ItemDataRole.ToolTipRole) == "unknown — refresh with an account"
    usd_key = next(o.key for o in page.model.offers if o.instance_type == "p4d.24xlarge")
    page.select_offer(usd_key)
    assert f["on_demand"].text().startswith("$21.96/h (≈ ¥")
    assert "2026-11-09" in f["age"].text()
    assert "EFA" in f["interconnect"].text()


def test_ctrl_f_focuses_search_and_escape_clears(qtbot, ctx):
    page = _page(qtbot, ctx)
    page.activateWindow()
    page.table.setFocus()
    qtbot.keyClick(page.table, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert page.filter_bar.search_edit.hasFocus()
    qtbot.keyClicks(page.filter_bar.search_edit, "lambda")
    page.filter_bar.flush()
    assert {o.provider for o in _visible(page)} == {"lambda"}
    qtbot.keyClick(page.filter_bar.search_edit, Qt.Key.Key_Escape)
    assert page.filter_bar.search_edit.text() == ""
    assert page.proxy.rowCount() == len(page.model.offers)
    page.filter_bar.spot_check.setChecked(True)
    qtbot.keyClick(page.table, Qt.Key.Key_Escape)
    assert not page.filter_bar.spot_check.isChecked()


def test_catalog_problems_are_shown_with_details(qtbot, ctx, tmp_path):
    page = _page(qtbot, ctx)
    good = load_catalog(include_live=False)
    page.set_catalog(CatalogLoad(good.offers[:5], good.gpus, ["offers.csv line 7: unknown currency 'EUR'"]))
    assert page.problem_label.isVisible()
    assert "1 catalog row could not be read" in page.problem_label.text()
    assert page.model.rowCount() == 5


def test_live_offer_age_is_shown(qtbot, ctx):
    from datetime import datetime, timedelta, timezone

    page = _page(qtbot, ctx)
    good = load_catalog(include_live=False)
    live = replace(good.offers[0], live=True, fetched_at=datetime.now(timezone.utc) - timedelta(minutes=5))
    page.set_catalog(CatalogLoad([live], good.gpus, [], live_count=1))
    page.filter_bar.reset()
    assert page.proxy.index(0, _column(page, "age")).data() == "live 5 min ago"
    assert "Live prices from your accounts: 1." in page.status_label.text()


def test_advisor_navigation_reaches_the_offers_page_in_the_main_window(app_window, qtbot):
    ctx, window = app_window
    assert "offers" in window.page_ids()
    page = window.pages["offers"]
    qtbot.waitUntil(lambda: page.load is not None, timeout=5000)
    key = ("gcp", "us-central1", "g2-standard-4")
    window.show_page("settings")
    ctx.navigate("offers", Ranking("Vision, 25M", (RankedOffer(key, 1, 1.0, ("L4, 24 GB",)),)))
    assert window.current_page_id() == "offers"
    assert page.banner.isVisible()
    assert _visible(page)[0].key == key
    assert default_rate().usd_cny > 0


def test_sorting_a_filtered_table_keeps_exactly_the_filtered_offers(qtbot, ctx):
    page = _page(qtbot, ctx)
    page.filter_bar.gpu_combo.setEditText("A100")
    page.filter_bar.flush()
    before = {o.key for o in _visible(page)}
    for key in ("on_demand", "provider", "vram", "age", "per_tflop"):
        page.sort_by(key, descending=True)
        assert {o.key for o in _visible(page)} == before
        assert all(o.gpu_model.startswith("A100") for o in _visible(page))


def test_changed_rate_reapplies_a_cny_price_limit(qtbot, ctx):
    page = _page(qtbot, ctx)
    page.filter_bar.price_spin.setValue(22.0)  # ¥22/h; p3.2xlarge is $3.06 = ¥21.48 at 7.0197
    page.filter_bar.flush()
    p3 = ("aws", "us-east-1", "p3.2xlarge")
    assert p3 in {o.key for o in _visible(page)}
    ctx.settings.usd_cny_rate_override = 7.5  # now ¥22.95
    ctx.save_settings()
    assert p3 not in {o.key for o in _visible(page)}


def test_signal_emission_keeps_reference_counts(qtbot):
    """PySide6 6.12.0 dropped a reference to True on every Signal.emit(); after ~1000 emits the
    interpreter aborts (bool_dealloc). The offers model emits on every sort and currency switch."""
    import sys

    from app.ui.offers.model import OffersTableModel

    model = OffersTableModel()
    before = sys.getrefcount(True)
    for _ in range(200):
        model.layoutChanged.emit()
    assert sys.getrefcount(True) - before > -50


def test_the_rate_line_names_its_source_in_the_students_language(qtbot, ctx):
    """The footer under the table: '1 USD = 7.0197 CNY · CFETS RMB central parity · …' reads wholly in Chinese
    in a Chinese window (its source too, not only the words around it)."""
    from app.ui import i18n as ui_i18n

    app = QApplication.instance()
    ui_i18n.install(app, "zh_CN")
    try:
        page = _page(qtbot, ctx)
        text = page.rate_label.text()
        assert "中国外汇交易中心人民币汇率中间价" in text and "CFETS" not in text, text
    finally:
        ui_i18n.install(app, "en")
    page = _page(qtbot, ctx)
    assert "CFETS RMB central parity" in page.rate_label.text()
