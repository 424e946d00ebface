"""The launch dialog says, before launch, what Stop and the guards will do with an AWS spot instance, and
prices an international-site Tencent account (billed in USD) in USD, never with the China site's CNY
catalog price (real keyring, the local Tencent CVM server, moto for AWS)."""

from __future__ import annotations

import pytest

from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY

GN7 = "GN7.2XLARGE32"
RULE = "AWS spot: a persistent spot request that stops (not terminates) when AWS reclaims the capacity."


@pytest.fixture
def ctx(qtbot, labgpu_home):
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


@pytest.fixture
def accounts(ctx, secret_service, tencent_server, moto, monkeypatch):
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service
    from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", tencent_server.endpoint + "/_ip")
    book = cloud_service(ctx).accounts
    book.add(Account("lab-aws", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    book.add(Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint, {"protocol": "http"}),
             Credentials(TEST_SECRET_ID, TEST_SECRET_KEY))
    # An international-site account (its endpoint is the test peer, so the site is said in "currency").
    book.add(Account("lab-intl", "tencent", "ap-guangzhou", tencent_server.endpoint,
                     {"protocol": "http", "currency": "USD"}),
             Credentials(TEST_SECRET_ID, TEST_SECRET_KEY))


def _dialog(qtbot, ctx, offer=None, accounts=3):
    from app.ui.cloud.launch_dialog import open_launch_dialog

    dialog = open_launch_dialog(ctx, offer)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == accounts, timeout=10000)
    return dialog


def _choose(qtbot, dialog, account: str, itype: str) -> None:
    dialog.form.account_combo.setCurrentIndex(dialog.form.account_combo.findData(account))
    dialog.form.type_edit.setText(itype)
    dialog.form.type_edit.editingFinished.emit()


def test_aws_spot_rule_is_said_before_launch(qtbot, ctx, accounts):
    dialog = _dialog(qtbot, ctx)
    _choose(qtbot, dialog, "lab-aws", "g5.xlarge")
    dialog.form.spot_check.setChecked(True)
    qtbot.waitUntil(lambda: "On demand: $1.0060/h" in dialog.form.price_note.text(), timeout=10000)
    assert RULE in dialog.form.price_note.text()
    assert "Terminate cancels the spot request first" in dialog.form.price_note.text()
    dialog.form.spot_check.setChecked(False)  # on demand: no spot rule to tell
    assert RULE not in dialog.form.price_note.text()
    dialog.form.spot_check.setChecked(True)
    assert "Spot maximum $0.8048/h = 80 % of on-demand." in dialog.form.price_note.text()
    _choose(qtbot, dialog, "lab-tc", GN7)  # a cloud without such a rule says none
    qtbot.waitUntil(lambda: "On demand: ¥7.8100/h" in dialog.form.price_note.text(), timeout=10000)
    assert "AWS spot" not in dialog.form.price_note.text()
    # the cap is made anew for this account's price and currency, not the $0.8048 of the AWS one
    assert dialog.form.max_price_spin.value() == pytest.approx(6.248)
    assert "Spot maximum ¥6.2480/h = 80 % of on-demand." in dialog.form.price_note.text()
    dialog.form.max_price_spin.setValue(3.905)  # a cap the student types is said as it is
    assert "Spot maximum ¥3.9050/h = 50 % of on-demand." in dialog.form.price_note.text()
    _choose(qtbot, dialog, "lab-aws", "g5.xlarge")  # and is not carried to another cloud
    qtbot.waitUntil(lambda: "On demand: $1.0060/h" in dialog.form.price_note.text(), timeout=10000)
    assert dialog.form.max_price_spin.value() == pytest.approx(0.8048)


def test_an_international_site_account_is_never_shown_a_cny_price(qtbot, ctx, accounts):
    from app.core.catalog import load_catalog

    offer = next(o for o in load_catalog(ctx.paths).offers
                 if (o.provider, o.region, o.instance_type) == ("tencent", "ap-guangzhou", GN7))
    assert offer.currency == "CNY"
    dialog = _dialog(qtbot, ctx, offer, accounts=2)  # the offer's cloud's accounts
    _choose(qtbot, dialog, "lab-tc", GN7)
    qtbot.waitUntil(lambda: "On demand: ¥7.8100/h (the offer)" in dialog.form.price_note.text(), timeout=10000)
    dialog.form.spot_check.setChecked(True)
    assert "Spot maximum ¥6.2480/h" in dialog.form.price_note.text()  # 80 % of the CNY price, in CNY
    dialog.form.spot_check.setChecked(False)
    dialog.form.max_price_spin.setValue(0.0)
    _choose(qtbot, dialog, "lab-intl", GN7)
    # The USD account's on-demand price is not in the (CNY) catalog: unknown, so no spot maximum is made
    # from a CNY number and sent as dollars.
    qtbot.waitUntil(lambda: "on-demand price is not known yet" in dialog.form.price_note.text(), timeout=10000)
    dialog.form.spot_check.setChecked(True)
    assert "¥" not in dialog.form.price_note.text()
    assert dialog.form.max_price_spin.value() == 0.0
