"""Drive the cost estimator: typed plans, inline messages for bad input, CNY/USD results."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from PySide6.QtCore import Qt

from app.core.models import Offer
from app.ui.shared.estimator import EstimatorWidget


def _offer(provider="aws", *, od=3.0, spot=0.9, month=1500.0, currency="USD", gpus=1.0) -> Offer:
    return Offer(provider=provider, region="us-east-1", instance_type="p3.2xlarge", gpu_model="V100-16GB",
                 gpu_count=gpus, vram_gb=16, vcpu=8, ram_gb=61, network_gbps=10, price_on_demand=od,
                 price_spot=spot, price_prepaid_month=month, currency=currency, price_source="test",
                 price_date=date(2026, 11, 1), fp16_tflops=125, spot_available=spot is not None)


@pytest.fixture
def estimator(qtbot, labgpu_home):
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    ctx = AppContext(default_paths(), "en")
    ctx.settings.usd_cny_rate_override = 7.0
    w = EstimatorWidget(ctx)
    qtbot.addWidget(w)
    w.resize(700, 600)
    w.show()
    yield ctx, w
    ctx.shutdown(5000)


def _type(qtbot, edit, text):
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)


def test_hours_estimate_in_native_cny_and_usd(estimator, qtbot):
    ctx, w = estimator
    w.set_offer(_offer())
    _type(qtbot, w.edits["hours"], "10")
    _type(qtbot, w.edits["count"], "2")
    _type(qtbot, w.edits["spot_overhead_pct"], "20")
    assert w.result.ok
    assert w.table.item(0, 0).text() == "$60.00"  # 3.00 × 10 h × 2
    assert w.table.item(0, 1).text() == "¥420.00"
    assert w.table.item(0, 2).text() == "$60.00"
    assert w.table.item(1, 0).text() == "$21.60"  # 0.90 × 12 h × 2
    assert w.table.item(2, 0).text() == "$3,000.00"
    assert w.table.horizontalHeaderItem(0).text() == "Billed in USD"
    assert "60-second minimum" in w.rule_label.text()
    assert "1 USD = 7.0000 CNY" in w.rate_label.text()
    assert "your setting" in w.rate_label.text()
    assert "500 h/month" in w.break_even_label.text()  # 1500 / 3.00


def test_negative_hours_shows_an_inline_message_not_a_dialog(estimator, qtbot):
    ctx, w = estimator
    w.set_offer(_offer())
    with qtbot.waitSignal(w.estimate_changed, timeout=10000):
        _type(qtbot, w.edits["hours"], "-5")
    assert not w.result.ok
    label = w.error_labels["hours"]
    assert label.isVisible()
    assert label.text() == "Must be more than 0."
    assert "c62828" in label.styleSheet()
    assert w.table.item(0, 0).text() == "fix the inputs above"
    _type(qtbot, w.edits["count"], "0")
    assert w.error_labels["count"].text() == "Must be a whole number of at least 1."
    _type(qtbot, w.edits["hours"], "abc")
    assert w.error_labels["hours"].text() == "Enter a number."
    # Fixing the fields clears the messages and brings the figures back.
    _type(qtbot, w.edits["hours"], "1")
    _type(qtbot, w.edits["count"], "1")
    assert w.result.ok
    assert w.error_labels["hours"].text() == ""
    assert w.table.item(0, 0).text() == "$3.00"


def test_epochs_mode_and_gpu_count_rounding(estimator, qtbot):
    ctx, w = estimator
    w.set_offer(_offer("tencent", od=28.0, spot=None, month=None, currency="CNY", gpus=8))
    w.mode_combo.setCurrentIndex(w.mode_combo.findData("epochs"))
    assert w.edits["epochs"].isVisible()
    assert not w.edits["hours"].isVisible()
    _type(qtbot, w.edits["epochs"], "90")
    _type(qtbot, w.edits["minutes_per_epoch"], "20")
    w.count_unit_combo.setCurrentIndex(w.count_unit_combo.findData("gpus"))
    _type(qtbot, w.edits["count"], "12")
    e = w.result.estimate
    assert e.instances == 2
    assert w.table.item(0, 0).text() == "¥1,680.00"  # 28 × 30 h × 2 instances
    assert w.table.item(0, 2).text() == "$240.00"
    assert w.table.item(1, 0).text() == "no spot offer"  # says so, never 0
    assert w.table.item(2, 0).text() == "not listed"
    assert "no prepaid price" in w.table.item(2, 0).toolTip()
    assert "per second" in w.rule_label.text()
    assert "you pay for 16 GPUs" in w.notes_label.text()


def test_unknown_prices_say_unknown(estimator, qtbot):
    ctx, w = estimator
    w.set_offer(replace(_offer(od=None, spot=None, month=None), spot_available=True))
    assert w.table.item(0, 0).text() == "unknown"
    assert w.table.item(1, 0).text() == "unknown"  # spot exists, its price is not known
    assert "refresh with an account" in w.table.item(0, 0).toolTip()


def test_inputs_survive_a_restart(estimator, qtbot):
    ctx, w = estimator
    _type(qtbot, w.edits["hours"], "42")
    w._save_timer.timeout.emit()
    from app.ui.context import AppContext

    ctx2 = AppContext(ctx.paths, "en")
    try:
        w2 = EstimatorWidget(ctx2)
        qtbot.addWidget(w2)
        assert w2.edits["hours"].text() == "42"
    finally:
        ctx2.shutdown(5000)
