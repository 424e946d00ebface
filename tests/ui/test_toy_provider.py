"""A provider declared from tests/ alone (tests/cloud/toy_provider.py) is offered everywhere.

The toy cloud registers its ProviderSpec and Provider through app.cloud.registry; without any other
file knowing it, the accounts dialog asks for its own credentials, the launch dialog launches on
it, the instances page lists it with its running cost, the CLI adds, launches and lists it, core
costs bill with its rule, and the advisor and estimator offer it. It is unregistered afterwards.
"""

from __future__ import annotations

import io
import json
from datetime import date, datetime, timedelta, timezone

import pytest
from PySide6.QtCore import Qt

from tests.cloud.toy_provider import (
    TOY_ID,
    TOY_KEY_ID,
    TOY_PRICE,
    TOY_REGION,
    TOY_SECRET,
    TOY_SPEC,
    TOY_TYPE,
    register_toy,
    toy_offer,
    unregister_toy,
)


@pytest.fixture
def toy():
    cloud = register_toy()
    try:
        yield cloud
    finally:
        unregister_toy()


@pytest.fixture
def ctx(qtbot, labgpu_home, monkeypatch):
    import app.cloud.launch as launch
    from app.cloud import netaddr
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    monkeypatch.setattr(launch, "POLL_S", 0.05)
    monkeypatch.setattr(netaddr, "public_address", lambda timeout=4.0: "198.51.100.7")
    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


def test_registering_and_unregistering_changes_what_core_knows():
    from app.core import providers
    from app.core.models import NATIVE_CURRENCY, PROVIDERS

    assert TOY_ID not in PROVIDERS
    register_toy()
    try:
        assert PROVIDERS[TOY_ID] == "Toy Cloud"
        assert NATIVE_CURRENCY[TOY_ID] == "USD"
        assert TOY_ID in providers.launchable_ids()
        assert providers.spec(TOY_ID) is TOY_SPEC
    finally:
        unregister_toy()
    assert TOY_ID not in PROVIDERS
    assert TOY_ID not in providers.launchable_ids()
    # The built-in plugins are still there, loaded through the registry.
    assert {"aws", "tencent"} <= set(providers.launchable_ids())


def test_costs_and_advisor_use_the_toys_spec(toy):
    from app.core import costs
    from app.core.advisor import AdvisorAnswers, advise, region_country
    from app.core.currency import ExchangeRate

    # Billing rule: per started minute, two minutes at least.
    assert costs.billed_seconds(TOY_ID, 10) == 120
    assert costs.billed_seconds(TOY_ID, 121) == 180
    start = datetime(2026, 11, 1, tzinfo=timezone.utc)
    assert costs.running_cost(TOY_ID, TOY_PRICE, start, start + timedelta(seconds=10)) == pytest.approx(0.12)
    assert "two minutes" in costs.billing_rule(TOY_ID).text()
    assert region_country(TOY_ID, TOY_REGION) == "NZ"
    result = advise([toy_offer()], AdvisorAnswers(task="vision", params_millions=25),
                    ExchangeRate(7.0, "test rate", date(2026, 1, 1)))
    assert [i.key for i in result.ranking.items] == [(TOY_ID, TOY_REGION, TOY_TYPE)]
    est = costs.estimate(toy_offer(), costs.EstimateInput(hours=10))
    assert est.ok


def test_accounts_dialog_launch_dialog_and_instances_page_offer_the_toy(qtbot, ctx, toy, secret_service):
    from app.ui.cloud import cloud_service
    from app.ui.cloud.accounts_page import AccountsPage
    from app.ui.cloud.instances_page import InstancesPage
    from app.ui.cloud.launch_dialog import open_launch_dialog

    # Accounts dialog: the toy is a choice, with its own credential fields and regions.
    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.keyring_ok is True, timeout=10000)
    dialog = page.open_dialog()
    index = dialog.provider_combo.findData(TOY_ID)
    assert index >= 0
    assert dialog.provider_combo.itemText(index) == "Toy Cloud"
    dialog.provider_combo.setCurrentIndex(index)
    assert dialog.key_label.text() == "Toy token id"
    assert dialog.secret_label.text() == "Toy token secret"
    assert not dialog.token_edit.isVisibleTo(dialog)
    assert not dialog.intl_check.isVisibleTo(dialog)
    regions = [dialog.region_combo.itemText(i) for i in range(dialog.region_combo.count())]
    assert regions == list(TOY_SPEC.regions)
    qtbot.keyClicks(dialog.name_edit, "lab-toy")
    dialog.region_combo.setCurrentText(TOY_REGION)
    qtbot.keyClicks(dialog.key_edit, TOY_KEY_ID)
    qtbot.keyClicks(dialog.secret_edit, TOY_SECRET)
    with qtbot.waitSignal(dialog.saved, timeout=10000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: any(i.account.name == "lab-toy" for i in page.infos), timeout=5000)
    row = [page.table.item(0, c).text() for c in range(page.table.columnCount())]
    assert row[:2] == ["lab-toy", "Toy Cloud"]
    page.select("lab-toy")
    qtbot.waitUntil(page.test_button.isEnabled, timeout=5000)
    page.test_button.click()
    qtbot.waitUntil(lambda: "Connected" in page.result_label.text(), timeout=10000)
    assert "validate" in toy.calls

    # Live prices with the toy account, then the launch dialog launches on it.
    cloud_service(ctx).refresh_prices("lab-toy")
    launch = open_launch_dialog(ctx, toy_offer())
    qtbot.addWidget(launch)
    qtbot.waitUntil(lambda: launch.form.account_combo.count() == 1, timeout=10000)
    assert "Toy Cloud" in launch.form.account_combo.itemText(0)
    qtbot.waitUntil(lambda: launch.form.cidr_edit.text() == "198.51.100.7/32", timeout=10000)
    qtbot.waitUntil(lambda: launch.form.zone_combo.count() > 1, timeout=10000)  # the toy's zones
    with qtbot.waitSignal(launch.launched, timeout=20000):
        qtbot.mouseClick(launch.form.launch_button, Qt.MouseButton.LeftButton)
    entry = launch.launch_result.entry
    assert (entry.provider, entry.state) == (TOY_ID, "running")
    assert toy.calls.count("launch") == 1
    launch.accept()

    # Instances page: the toy's instance, its name, price and running cost (two-minute minimum).
    instances = InstancesPage(ctx)
    qtbot.addWidget(instances)
    qtbot.waitUntil(lambda: any(e.id == entry.id for e in instances.entries), timeout=10000)
    instances.select(entry.id)
    from tests.ui.instance_cells import cell_texts

    cells = cell_texts(instances.table, 0)
    assert cells["account"] == "lab-toy" and cells["zone"].startswith("Toy Cloud")
    assert cells["price"] == f"${TOY_PRICE:.4f}"
    cost = instances.costs_now().get(instances.selected_id()).so_far
    assert cost is not None and cost >= 0.12 - 1e-9  # 120 s billed at least, at 3.6 $/h
    assert instances.copy_ssh_command().startswith("ssh ")
    assert "toyuser@" in instances.copy_ssh_command()  # the login tag the toy's spec names
    qtbot.waitUntil(lambda: not ctx.runner.active(), timeout=10000)


def test_cli_adds_launches_and_lists_on_the_toy(toy, secret_service, monkeypatch, capsys):
    from app.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO(f"{TOY_KEY_ID}\n{TOY_SECRET}\n"))
    assert main(["accounts", "add", TOY_ID, "cli-toy", "--region", TOY_REGION, "--test"]) == 0
    out = capsys.readouterr().out
    assert "added toy account cli-toy" in out
    assert "connection ok: toy-user@toy-north-1" in out
    assert main(["launch", "--account", "cli-toy", "--type", TOY_TYPE, "--ssh-from", "198.51.100.7/32",
                 "--json"]) == 0
    launched = json.loads(capsys.readouterr().out)
    assert launched["provider"] == TOY_ID
    assert main(["ls", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [(e["provider"], e["id"]) for e in listed] == [(TOY_ID, launched["id"])]
    # An unknown provider is still refused by the same choices.
    with pytest.raises(SystemExit):
        main(["accounts", "add", "nosuchcloud", "x", "--region", TOY_REGION])


def test_the_toys_importer_is_in_the_import_menu_and_the_cli(qtbot, ctx, toy, secret_service, monkeypatch,
                                                              capsys):
    from app.cli import main
    from app.ui.cloud.accounts_page import AccountsPage

    monkeypatch.setenv("TOY_TOKEN_ID", TOY_KEY_ID)
    monkeypatch.setenv("TOY_TOKEN_SECRET", TOY_SECRET)
    # CLI: the generic command, with the toy's options, and the import-<id> spelling
    assert main(["accounts", "import", TOY_ID, "--name", "cli-imported"]) == 0
    assert "added cli-imported (from toy-env:TOY_TOKEN_ID)" in capsys.readouterr().out
    assert main(["accounts", f"import-{TOY_ID}", "--name", "cli-imported"]) == 0
    assert "skipped cli-imported" in capsys.readouterr().out
    with pytest.raises(SystemExit):  # an option the toy's importer does not declare
        main(["accounts", "import", TOY_ID, "--profile", "x"])
    # Accounts page: the toy's entry in the Import menu adds an account in the spec's default region
    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.keyring_ok is True, timeout=10000)
    labels = [a.text() for a in page.import_button.menu().actions()]
    assert "Toy Cloud keys from TOY_TOKEN_ID/SECRET" in labels
    page.import_actions[TOY_ID].trigger()
    qtbot.waitUntil(lambda: any(i.account.name == "toy-env" for i in page.infos), timeout=10000)
    info = next(i for i in page.infos if i.account.name == "toy-env")
    assert (info.account.provider, info.account.region) == (TOY_ID, TOY_SPEC.default_region)
    assert "Imported: toy-env" in page.result_label.text()
    row = next(r for r in range(page.table.rowCount()) if page.table.item(r, 0).text() == "toy-env")
    assert page.table.item(row, 5).text() == "Toy variables TOY_TOKEN_ID"
    qtbot.waitUntil(lambda: not ctx.runner.active(), timeout=10000)
