"""Drive the advisor wizard through its five steps with the keyboard and mouse, to its result."""

from __future__ import annotations

import json
from datetime import date

import pytest
from PySide6.QtCore import QPoint, Qt

from app.core.models import Offer, Ranking
from app.ui.advisor import page as page_module
from app.ui.advisor.page import RESULT_INDEX, AdvisorPage


def _offer(provider, instance, gpu, *, vram, gpus=1.0, od, spot=None, month=None, region="us-east-1",
           tflops=125.0, interconnect="", dedicated=False, currency="USD") -> Offer:
    return Offer(provider=provider, region=region, instance_type=instance, gpu_model=gpu, gpu_count=gpus,
                 vram_gb=vram, vcpu=8, ram_gb=64, network_gbps=25, price_on_demand=od, price_spot=spot,
                 price_prepaid_month=month, currency=currency, price_source="test",
                 price_date=date(2026, 11, 1), fp16_tflops=tflops, spot_available=spot is not None,
                 interconnect=interconnect, dedicated=dedicated)


OFFERS = [
    _offer("aws", "g4dn.xlarge", "T4", vram=16, od=0.526, spot=0.16, tflops=65),
    _offer("aws", "p4d.24xlarge", "A100-40GB", vram=40, gpus=8, od=32.77, spot=9.0, tflops=312,
           interconnect="NVLink, EFA", dedicated=True),
    _offer("aws", "p3.8xlarge", "V100-16GB", vram=16, gpus=4, od=12.24, interconnect="NVLink"),
    _offer("tencent", "GN7.2XLARGE32", "T4", vram=16, od=8.68, month=3000.0, region="ap-guangzhou",
           currency="CNY", tflops=65),
    _offer("tencent", "GT4.41XLARGE948", "A100-40GB", vram=40, gpus=8, od=None, region="ap-guangzhou",
           currency="CNY", tflops=312, interconnect="NVLink, RDMA", dedicated=True),
    _offer("alibaba", "ecs.gn7i-c8g1.2xlarge", "A10", vram=24, od=None, region="cn-hangzhou",
           currency="CNY", tflops=125),
    _offer("azure", "Standard_NC6s_v3", "V100-PCIe-16GB", vram=16, od=3.06, region="eastus", tflops=112),
]


@pytest.fixture
def advisor(qtbot, monkeypatch, labgpu_home):
    """An AdvisorPage on a real AppContext whose catalog loader returns the offers above."""
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    monkeypatch.setattr(page_module, "load_offers", lambda paths: list(OFFERS))
    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    page = AdvisorPage(ctx)
    qtbot.addWidget(page)
    page.resize(1200, 800)
    page.show()
    qtbot.waitUntil(lambda: page.offers is not None, timeout=5000)
    yield ctx, page
    ctx.shutdown(5000)


def _click_radio(qtbot, page, name):
    button = page.findChild(type(page.task_group.buttons()[0]), name)
    assert button is not None, name
    assert button.isVisible(), name
    # A radio button reacts on its indicator and label, not across its whole row.
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(8, button.height() // 2))
    assert button.isChecked()


def test_five_steps_to_a_ranking_then_show_in_offers_table(advisor, qtbot):
    ctx, page = advisor
    assert page.current_step() == 0
    assert not page.back_button.isEnabled()
    # Step 1: vision model from the preset list; the VRAM hint follows.
    _click_radio(qtbot, page, "task_vision")
    page.params_spin.setValue(25.6)
    assert "choose GPUs with at least 8 GB" in page.vram_label.text()
    page.params_spin.setValue(340)
    _click_radio(qtbot, page, "task_nlp")
    assert "at least 16 GB" in page.vram_label.text()
    qtbot.keyClick(page.params_spin, Qt.Key.Key_Return)  # Enter = Next, even inside a spin box
    assert page.current_step() == 1
    # Step 2: a project of months, 600 h/month, no spot.
    _click_radio(qtbot, page, "budget_long")
    assert page.hours_spin.isEnabled()
    page.hours_spin.setValue(600)
    page.spot_check.setChecked(False)
    qtbot.mouseClick(page.next_button, Qt.MouseButton.LeftButton)
    assert page.current_step() == 2
    # Alt+Left goes back, Enter forward again.
    qtbot.keyClick(page, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert page.current_step() == 1
    qtbot.keyClick(page, Qt.Key.Key_Return)
    assert page.current_step() == 2
    # Step 3: data must stay in China. Ticking "sensitive" without a country asks for one.
    assert not page.country_hint.isVisible()
    page.sensitive_check.setChecked(True)
    assert page.country_hint.isVisible()
    page.country_combo.setCurrentIndex(page.country_combo.findData("CN"))
    assert not page.country_hint.isVisible()
    page.sensitive_check.setChecked(False)
    qtbot.keyClick(page, Qt.Key.Key_Enter)
    assert page.current_step() == 3
    # Step 4: PyTorch (default). Step 5: one GPU.
    _click_radio(qtbot, page, "framework_pytorch")
    qtbot.mouseClick(page.next_button, Qt.MouseButton.LeftButton)
    assert page.current_step() == 4
    assert "recommendations" in page.next_button.text().lower()
    _click_radio(qtbot, page, "scale_single")
    with qtbot.waitSignal(page.result_ready, timeout=10000) as blocker:
        qtbot.mouseClick(page.next_button, Qt.MouseButton.LeftButton)
    assert page.current_step() == RESULT_INDEX
    result = blocker.args[0]
    ranking = result.ranking
    keys = [i.key for i in ranking.items]
    # Only mainland-China offers survive; the priced one first, unknown prices after it.
    assert keys[0] == ("tencent", "ap-guangzhou", "GN7.2XLARGE32")
    assert set(keys) == {("tencent", "ap-guangzhou", "GN7.2XLARGE32"),
                         ("tencent", "ap-guangzhou", "GT4.41XLARGE948"),
                         ("alibaba", "cn-hangzhou", "ecs.gn7i-c8g1.2xlarge")}
    assert all("price unknown" in i.reasons for i in ranking.items[1:])
    assert any("prepaid ¥3,000.00/month beats on-demand" in s for s in ranking.items[0].reasons)
    excluded = dict(ranking.excluded)
    assert excluded[("aws", "us-east-1", "g4dn.xlarge")] == \
        "region us-east-1 is in US, data must stay in CN"
    # The tables show exactly the ranking, with reasons and exclusions.
    assert page.ranked_table.rowCount() == 3
    assert page.excluded_table.rowCount() == len(OFFERS) - 3
    assert "prepaid" in page.ranked_table.item(0, 4).text()
    assert "data must stay in CN" in page.excluded_table.item(0, 1).text()
    # The first recommendation is in the estimator.
    assert page.estimator.offer().key == keys[0]
    assert page.estimator.result.ok
    # "Show in offers table" hands the Ranking to the offers page.
    with qtbot.waitSignal(ctx.navigate_requested, timeout=10000) as nav:
        qtbot.mouseClick(page.show_in_offers_button, Qt.MouseButton.LeftButton)
    page_id, payload = nav.args
    assert page_id == "offers"
    assert isinstance(payload, Ranking)
    assert payload == ranking
    assert payload.title.startswith("Advisor: NLP / LLM, 340M parameters, ≥ 16 GB")


def test_answers_survive_a_restart(advisor, qtbot, labgpu_home):
    ctx, page = advisor
    _click_radio(qtbot, page, "task_vision")
    page.params_spin.setValue(86)
    page.go_to(4)
    _click_radio(qtbot, page, "scale_multi_gpu")
    page.gpus_spin.setValue(4)
    page.go_to(RESULT_INDEX)
    saved = json.loads(ctx.settings_store.file.read_text(encoding="utf-8"))["extra"]["advisor"]["answers"]
    assert saved["task"] == "vision"
    assert saved["gpus"] == 4
    from app.ui.context import AppContext

    ctx2 = AppContext(ctx.paths, "en")
    page2 = AdvisorPage(ctx2)
    qtbot.addWidget(page2)
    try:
        a = page2.answers()
        assert (a.task, a.params_millions, a.scale, a.gpus) == ("vision", 86.0, "multi_gpu", 4)
        qtbot.waitUntil(lambda: page2.offers is not None, timeout=5000)
    finally:
        ctx2.shutdown(5000)


def test_no_fitting_offer_says_why_and_multi_node_needs_rdma(advisor, qtbot):
    ctx, page = advisor
    _click_radio(qtbot, page, "task_nlp")
    page.params_spin.setValue(70000)  # 70B: fits no single GPU
    page.go_to(RESULT_INDEX)
    assert page.ranked_table.rowCount() == 0
    assert "No offer fits every answer" in page.summary_label.text()
    assert page.excluded_table.rowCount() == len(OFFERS)
    page.go_to(4)
    _click_radio(qtbot, page, "scale_multi_node")
    page.gpus_spin.setValue(64)
    page.go_to(RESULT_INDEX)
    # 70B over 64 × 40 GB: still about 45 GB per GPU even sharded, so the A100-40GB is left out.
    assert "even when sharded over 64 GPUs" in dict(page.result.ranking.excluded)[
        ("aws", "us-east-1", "p4d.24xlarge")]
    page.go_to(4)
    page.gpus_spin.setValue(128)
    page.go_to(RESULT_INDEX)
    keys = [i.key for i in page.result.ranking.items]
    assert ("aws", "us-east-1", "p4d.24xlarge") in keys
    assert ("aws", "us-east-1", "p3.8xlarge") not in keys
    assert "NVLink joins GPUs inside one machine only" in dict(page.result.ranking.excluded)[
        ("aws", "us-east-1", "p3.8xlarge")]


def test_catalog_failure_is_reported_and_retryable(qtbot, monkeypatch, labgpu_home):
    from app.core.errors import ConfigError
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    def broken(paths):
        raise ConfigError("catalog unreadable", "reinstall")

    monkeypatch.setattr(page_module, "load_offers", broken)
    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    try:
        page = AdvisorPage(ctx)
        qtbot.addWidget(page)
        qtbot.waitUntil(lambda: page.load_error is not None, timeout=5000)
        assert "F5" in page.status_label.text()
        monkeypatch.setattr(page_module, "load_offers", lambda paths: list(OFFERS))
        page.refresh()
        qtbot.waitUntil(lambda: page.offers is not None, timeout=5000)
        assert "7 offers" in page.status_label.text()
    finally:
        ctx.shutdown(5000)


def test_advisor_in_the_real_window_with_the_bundled_catalog(app_window, qtbot):
    ctx, window = app_window
    assert "advisor" in window.page_ids()
    window.show_page("advisor")
    page = window.pages["advisor"]
    qtbot.waitUntil(lambda: page.offers is not None, timeout=10000)
    page.go_to(RESULT_INDEX)
    assert page.result is not None
    ranked = len(page.result.ranking.items) + len(page.result.ranking.excluded)
    assert ranked == len(page.offers) > 0
    # The button takes the ranking to the offers table, which shows it.
    qtbot.mouseClick(page.show_in_offers_button, Qt.MouseButton.LeftButton)
    assert window.current_page_id() == "offers"
    offers_page = window.pages["offers"]
    qtbot.waitUntil(lambda: offers_page.model.ranking is not None, timeout=10000)
    assert offers_page.model.ranking == page.result.ranking
