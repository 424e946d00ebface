"""The offers page's details pane reads an offer's spot price history: AWS through moto's HTTP
server (real boto3, the real keyring), AWS's errors through the fault proxy, no account at all."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET, ON_DEMAND


@pytest.fixture
def ctx(qtbot, labgpu_home):
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


def _offer(**kw):
    from app.core.models import Offer

    values = dict(
        provider="aws", region="us-east-1", instance_type="g5.xlarge", gpu_model="A10G", gpu_count=1,
        vram_gb=24, vcpu=4, ram_gb=16, network_gbps=10, price_on_demand=ON_DEMAND["g5.xlarge"],
        price_spot=0.4, price_prepaid_month=None, currency="USD", price_source="live", price_date=None,
        spot_available=True, live=True,
    )
    values.update(kw)
    return Offer(**values)


def _panel(qtbot, ctx):
    from app.ui.offers.details import OfferDetailsPanel

    panel = OfferDetailsPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    return panel


def _add_aws(ctx, url):
    from app.core.accounts import Account, Credentials
    from app.ui.shared.services import cloud_service

    cloud_service(ctx).accounts.add(Account("lab-aws", "aws", "us-east-1", url), Credentials(AWS_KEY_ID, AWS_SECRET))


def _show(qtbot, ctx, panel):
    widget = panel.spot_history
    qtbot.mouseClick(widget.show_button, Qt.MouseButton.LeftButton)
    assert "Reading the spot price history of g5.xlarge in us-east-1" in widget.status.text()
    assert not widget.show_button.isEnabled()
    qtbot.waitUntil(ctx.runner.settled, timeout=20000)
    return widget


def test_history_plot_with_the_on_demand_reference(qtbot, ctx, secret_service, moto, aws_proxy):
    _add_aws(ctx, aws_proxy.url)
    panel = _panel(qtbot, ctx)
    panel.set_offer(_offer())
    widget = panel.spot_history
    assert widget.isVisible() and widget.plot is None  # nothing is asked before the user clicks
    _show(qtbot, ctx, panel)
    assert widget.show_button.isEnabled() and widget.plot is not None and widget.plot.isVisible()
    curves = widget.plot.getPlotItem().listDataItems()
    assert len(curves) == 1
    xs, ys = curves[0].getData()
    assert len(xs) >= 2 and xs[-1] - xs[0] == pytest.approx(7 * 86400, abs=120)  # the whole week, stepped
    assert widget.on_demand_line.value() == ON_DEMAND["g5.xlarge"]
    # moto reports one unchanging price per zone: the sentence says so, with its share of on-demand
    text = widget.status.text()
    assert "the spot price did not move in 7 days" in text and "% of on-demand" in text
    assert "other zone(s) have their own prices" in text
    assert widget.summary is not None and widget.summary.moves == 0
    assert aws_proxy.params("DescribeSpotPriceHistory")[-1]["InstanceType.1"] == "g5.xlarge"


def test_an_offer_in_one_zone_asks_for_that_zone(qtbot, ctx, secret_service, moto, aws_proxy):
    _add_aws(ctx, aws_proxy.url)
    panel = _panel(qtbot, ctx)
    panel.set_offer(_offer(zone="us-east-1b"))
    widget = _show(qtbot, ctx, panel)
    assert aws_proxy.params("DescribeSpotPriceHistory")[-1]["AvailabilityZone"] == "us-east-1b"
    assert widget.summary is not None and widget.summary.zone == "us-east-1b"
    assert "In zone us-east-1b" in widget.status.text()


def test_an_aws_error_says_what_happened_and_what_to_do(qtbot, ctx, secret_service, moto, aws_proxy):
    _add_aws(ctx, aws_proxy.url)
    aws_proxy.inject("DescribeSpotPriceHistory", "UnauthorizedOperation", "You are not authorized.", 403)
    panel = _panel(qtbot, ctx)
    panel.set_offer(_offer())
    widget = _show(qtbot, ctx, panel)
    # what AWS refused, in the app's sentence, and the next step (the IAM permission to add)
    assert widget.status.text() == (
        "The spot price history could not be read: The IAM user of account 'lab-aws' may not do this "
        "(DescribeSpotPriceHistory). Ask the AWS account's admin to allow ec2:DescribeSpotPriceHistory "
        "(e.g. attach AmazonEC2FullAccess) to this user.")
    assert widget.show_button.isEnabled() and not widget.accounts_button.isVisible()


def test_no_account_offers_the_accounts_page(qtbot, ctx, secret_service):
    panel = _panel(qtbot, ctx)
    panel.set_offer(_offer())
    widget = _show(qtbot, ctx, panel)
    assert "No AWS account is set up" in widget.status.text()
    assert "Add an account for AWS on the Accounts page" in widget.status.text()
    assert widget.accounts_button.isVisible()
    with qtbot.waitSignal(ctx.navigate_requested, timeout=2000) as sig:
        qtbot.mouseClick(widget.accounts_button, Qt.MouseButton.LeftButton)
    assert sig.args[0] == "accounts"


def test_hidden_without_the_capability_or_spot(qtbot, ctx):
    panel = _panel(qtbot, ctx)
    panel.set_offer(_offer(provider="tencent", region="ap-guangzhou", instance_type="GN7.2XLARGE32", currency="CNY"))
    assert not panel.spot_history.isVisible()
    panel.set_offer(_offer(spot_available=False, price_spot=None))
    assert not panel.spot_history.isVisible()
    panel.set_offer(_offer())
    assert panel.spot_history.isVisible()


def test_an_answer_for_a_previous_offer_is_dropped(qtbot, ctx, secret_service, moto, aws_proxy):
    _add_aws(ctx, aws_proxy.url)
    hold = aws_proxy.hold_next_answer("DescribeSpotPriceHistory")
    panel = _panel(qtbot, ctx)
    panel.set_offer(_offer())
    qtbot.mouseClick(panel.spot_history.show_button, Qt.MouseButton.LeftButton)
    assert hold.reached.wait(20)
    panel.set_offer(_offer(instance_type="g6.xlarge"))  # the user picked another offer meanwhile
    hold.release()
    qtbot.waitUntil(ctx.runner.settled, timeout=20000)
    assert panel.spot_history.status.text() == "" and panel.spot_history.plot is None


def test_a_moving_price_is_drawn_as_steps_with_its_range(qtbot, ctx):
    """The drawing and the sentence for a history that moves (moto's never does): a provider's answer
    as the loader returns it."""
    from datetime import datetime, timedelta, timezone

    from app.cloud.spot_history import SpotHistory
    from app.core.spothistory import SpotPricePoint

    now = datetime(2026, 3, 10, 12, tzinfo=timezone.utc)
    prices = [(8, 0.30), (6, 0.35), (5, 0.28), (3, 0.50), (2, 0.50), (1, 0.32)]  # 4 moves in the week
    points = [SpotPricePoint(now - timedelta(days=d), p, "USD", "us-east-1a") for d, p in prices]
    panel = _panel(qtbot, ctx)
    panel.set_offer(_offer(price_on_demand=1.0))
    widget = panel.spot_history
    widget.clock = lambda: now
    widget._loading_key = widget._key(panel.offer)
    widget._on_history_loaded(SpotHistory("lab-aws", "us-east-1", "g5.xlarge", points))
    assert widget.status.text() == (
        "In zone us-east-1a the spot price moved 4 time(s) in 7 days, between $0.280 and $0.500 "
        "(28–50 % of on-demand).")
    xs, ys = widget.plot.getPlotItem().listDataItems()[0].getData()
    assert list(ys) == [0.30, 0.35, 0.28, 0.50, 0.50, 0.32, 0.32]
    assert xs[0] == (now - timedelta(days=7)).timestamp() and xs[-1] == now.timestamp()
    assert widget.on_demand_line.value() == 1.0


def test_in_chinese(qtbot, ctx, secret_service):
    from PySide6.QtWidgets import QApplication

    from app.ui import i18n

    app = QApplication.instance()
    i18n.install(app, "zh_CN")
    try:
        panel = _panel(qtbot, ctx)
        panel.set_offer(_offer())
        assert panel.spot_history.show_button.text() == "显示最近 7 天"
        qtbot.mouseClick(panel.spot_history.show_button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(ctx.runner.settled, timeout=20000)
        assert panel.spot_history.status.text() == (
            "无法读取竞价价格历史：尚未设置 AWS 账号，因此无法读取其竞价价格历史。 "
            "请在“云账号”页添加一个 AWS 账号，然后重试。")
    finally:
        i18n.install(app, "en")
