"""The cloud pages end to end: real keyring, the local TC3 Tencent server (and moto for AWS).

pytest-qt drives the add-account dialog, the launch dialog and the instances page as a user would;
nothing is mocked between the widgets and the cloud's HTTP API.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY, TYPES

GN7 = "GN7.2XLARGE32"


@pytest.fixture
def ctx(qtbot, labgpu_home, monkeypatch):
    import app.cloud.launch as launch
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    monkeypatch.setattr(launch, "POLL_S", 0.05)
    c = AppContext(default_paths(), "en")
    c.errors.interactive = False
    yield c
    c.shutdown(5000)


@pytest.fixture
def fast_tencent(monkeypatch):
    from app.cloud.tencent import TencentProvider

    monkeypatch.setattr(TencentProvider, "poll_interval", 0.05)
    monkeypatch.setattr(TencentProvider, "retry_base_delay", 0.01)


def _wait_idle(qtbot, ctx, timeout=10000):
    """Until every task has ended and its callbacks have run (a late callback must not land after the
    test has moved the page's clock)."""
    qtbot.waitUntil(ctx.runner.settled, timeout=timeout)


def _add_tencent_account(qtbot, ctx, page, server, name="lab-tc", secret=TEST_SECRET_KEY):
    dialog = page.open_dialog()
    dialog.provider_combo.setCurrentIndex(dialog.provider_combo.findData("tencent"))
    qtbot.keyClicks(dialog.name_edit, name)
    dialog.region_combo.setCurrentText("ap-guangzhou")
    qtbot.keyClicks(dialog.key_edit, TEST_SECRET_ID)
    qtbot.keyClicks(dialog.secret_edit, secret)
    qtbot.keyClicks(dialog.endpoint_edit, server.endpoint)
    with qtbot.waitSignal(dialog.saved, timeout=10000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: any(i.account.name == name for i in page.infos), timeout=5000)


def _offer(**kw):
    from app.core.models import Offer

    values = {
        "provider": "tencent",
        "region": "ap-guangzhou",
        "instance_type": GN7,
        "gpu_model": "T4",
        "gpu_count": 1,
        "vram_gb": 16,
        "vcpu": 8,
        "ram_gb": 32,
        "network_gbps": 3,
        "price_on_demand": TYPES[GN7][4],
        "price_spot": TYPES[GN7][5],
        "price_prepaid_month": None,
        "currency": "CNY",
        "price_source": "live",
        "price_date": None,
        "spot_available": True,
        "live": True,
    }
    values.update(kw)
    return Offer(**values)


# -- accounts -------------------------------------------------------------------------------------
def test_add_account_dialog_saves_to_keyring_and_tests_connection(
    qtbot, ctx, secret_service, tencent_server, labgpu_home
):
    from app.core import secrets
    from app.ui.cloud.accounts_page import AccountsPage

    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.keyring_ok is True, timeout=10000)
    assert not page.keyring_banner.isVisible()
    _add_tencent_account(qtbot, ctx, page, tencent_server)
    row = [page.table.item(0, c).text() for c in range(page.table.columnCount())]
    assert row[0] == "lab-tc"
    assert row[1] == "Tencent Cloud"
    assert row[4].startswith("AKID")
    assert TEST_SECRET_ID not in row[4]
    assert secrets.get_secret("account:lab-tc:secret") == TEST_SECRET_KEY
    page.select("lab-tc")
    qtbot.waitUntil(page.test_button.isEnabled, timeout=5000)
    page.test_button.click()
    qtbot.waitUntil(lambda: "Connected" in page.result_label.text(), timeout=10000)
    assert "✓" in page.table.item(0, 6).text()
    # nothing secret in any file under LABGPU_HOME
    for path in labgpu_home.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert TEST_SECRET_KEY.encode() not in data, path


def test_wrong_key_test_connection_shows_the_providers_sentence(qtbot, ctx, secret_service, tencent_server):
    from app.ui.cloud.accounts_page import AccountsPage

    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.keyring_ok is True, timeout=10000)
    _add_tencent_account(qtbot, ctx, page, tencent_server, name="bad-key", secret="not-the-right-secret-key")
    page.select("bad-key")
    qtbot.waitUntil(page.test_button.isEnabled, timeout=5000)
    page.test_button.click()
    qtbot.waitUntil(
        lambda: "✗" in (page.table.item(0, 6).text() if page.table.item(0, 6) else ""), timeout=10000
    )
    text = page.result_label.text()
    assert "SecretKey does not match the SecretId" in text
    assert "paste the SecretKey again" in text
    assert "AuthFailure.SignatureFailure" in text
    assert "not-the-right-secret-key" not in text


def test_edit_keeps_secrets_when_left_empty_and_remove_deletes_them(
    qtbot, ctx, secret_service, tencent_server
):
    from PySide6.QtWidgets import QMessageBox

    from app.core import secrets
    from app.ui.cloud.accounts_page import AccountsPage

    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.keyring_ok is True, timeout=10000)
    _add_tencent_account(qtbot, ctx, page, tencent_server, name="ed")
    page.select("ed")
    page.edit_button.click()
    dialog = page._dialog
    assert dialog.name_edit.isReadOnly()
    dialog.region_combo.setCurrentText("ap-shanghai")
    with qtbot.waitSignal(dialog.saved, timeout=10000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: page.infos and page.infos[0].account.region == "ap-shanghai", timeout=5000)
    assert secrets.get_secret("account:ed:secret") == TEST_SECRET_KEY
    page.select("ed")
    page.remove_button.click()
    box = page._dialog
    box.button(QMessageBox.StandardButton.Yes).click()
    qtbot.waitUntil(lambda: not page.infos, timeout=5000)
    assert secrets.get_secret("account:ed:secret") is None


def test_import_tencent_from_environment(qtbot, ctx, secret_service, monkeypatch):
    from app.ui.cloud.accounts_page import AccountsPage

    monkeypatch.setenv("TENCENTCLOUD_SECRET_ID", TEST_SECRET_ID)
    monkeypatch.setenv("TENCENTCLOUD_SECRET_KEY", TEST_SECRET_KEY)
    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    _wait_idle(qtbot, ctx)
    page.import_tencent_action.trigger()
    qtbot.waitUntil(lambda: any(i.account.name == "tencent-env" for i in page.infos), timeout=10000)
    assert "Imported: tencent-env" in page.result_label.text()


def test_the_empty_page_names_every_cloud_it_can_add(qtbot, ctx, labgpu_home, secret_service):
    from app.ui.cloud.accounts_page import AccountsPage

    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.keyring_ok is True, timeout=10000)
    assert page.empty_label.isVisibleTo(page)
    from app.core import providers

    text = page.empty_label.text()
    assert text.index("AWS") < text.index("Tencent Cloud") < text.index("Alibaba Cloud")  # the specs' order
    for pid in providers.launchable_ids():  # each launchable plugin's cloud named (a new one too)
        assert providers.display_name(pid) in text, pid
    assert f"{providers.display_name(providers.launchable_ids()[-2])} and " in text


def test_without_a_keyring_the_page_says_what_to_install_and_stores_nothing(qtbot, ctx, labgpu_home):
    import keyring
    from keyring.backends import fail

    from app.ui.cloud.accounts_page import AccountsPage

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        page = AccountsPage(ctx)
        qtbot.addWidget(page)
        qtbot.waitUntil(lambda: page.keyring_ok is False, timeout=10000)
        assert page.keyring_banner.isVisibleTo(page)
        assert "gnome-keyring" in page.keyring_banner.text()
        assert not page.add_button.isEnabled()
        # said once, in words (no error code), and no "add one" under the disabled Add button
        banner = page.keyring_banner.text()
        assert "(Keyring)" not in banner and banner.lower().count("no secure keyring") == 1, banner
        assert not page.empty_label.isVisibleTo(page)
        # The dialog itself also refuses with the same sentence (e.g. opened from elsewhere).
        dialog = page.open_dialog()
        qtbot.keyClicks(dialog.name_edit, "nokeyring")
        qtbot.keyClicks(dialog.key_edit, TEST_SECRET_ID)
        qtbot.keyClicks(dialog.secret_edit, TEST_SECRET_KEY)
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
        qtbot.waitUntil(lambda: dialog.error_label.isVisibleTo(dialog), timeout=10000)
        assert "keyring" in dialog.error_label.text()
        _wait_idle(qtbot, ctx)
        from app.ui.cloud import cloud_service

        assert cloud_service(ctx).accounts.list() == []
    finally:
        keyring.set_keyring(previous)


# -- launch + instances ---------------------------------------------------------------------------
@pytest.fixture
def tc_account(ctx, secret_service, tencent_server, monkeypatch, fast_tencent):
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service

    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", tencent_server.endpoint + "/_ip")
    cloud_service(ctx).accounts.add(
        Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint),
        Credentials(TEST_SECRET_ID, TEST_SECRET_KEY),
    )
    return "lab-tc"


def _launch_from_dialog(qtbot, ctx, dialog, spot: bool):
    qtbot.waitUntil(lambda: dialog.form.cidr_edit.text() == "198.51.100.7/32", timeout=10000)
    qtbot.waitUntil(lambda: dialog.form.zone_combo.count() > 1, timeout=10000)
    dialog.form.spot_check.setChecked(spot)
    with qtbot.waitSignal(dialog.launched, timeout=20000):
        qtbot.mouseClick(dialog.form.launch_button, Qt.MouseButton.LeftButton)
        qtbot.mouseClick(dialog.form.launch_button, Qt.MouseButton.LeftButton)  # a double click
    return dialog.launch_result


def test_launch_dialog_from_an_offer_shows_each_step_and_launches_once(
    qtbot, ctx, tc_account, tencent_server
):
    from app.ui.cloud.launch_dialog import open_launch_dialog

    dialog = open_launch_dialog(ctx, _offer(zone="ap-guangzhou-4"))
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 1, timeout=10000)
    assert dialog.form.type_edit.text() == GN7
    qtbot.waitUntil(lambda: dialog.form.zone_combo.currentData() == "ap-guangzhou-4", timeout=10000)
    dialog.form.spot_check.setChecked(True)
    # default spot maximum: 80 % of on-demand
    assert dialog.form.max_price_spin.value() == pytest.approx(round(TYPES[GN7][4] * 0.8, 4))
    assert "80 %" in dialog.form.price_note.text()
    result = _launch_from_dialog(qtbot, ctx, dialog, spot=True)
    entry = result.entry
    assert entry.state == "running"
    assert entry.spot
    assert entry.zone == "ap-guangzhou-4"
    assert len(tencent_server.requests_of("RunInstances")) == 1
    run = tencent_server.requests_of("RunInstances")[0]
    assert run["InstanceMarketOptions"]["SpotOptions"]["MaxPrice"] == f"{TYPES[GN7][4] * 0.8:.4f}"
    steps = [dialog.form.steps_list.item(i).text() for i in range(dialog.form.steps_list.count())]
    assert all(s.startswith("✓") for s in steps), steps
    assert any("Register the SSH key" in s for s in steps)
    assert any("198.51.100.7/32" in s for s in steps)
    assert any("PyTorch" in s for s in steps)
    assert "running" in dialog.form.outcome_label.text()
    assert "203.0.113." in dialog.form.outcome_label.text()
    sg = run["SecurityGroupIds"][0]
    assert [r["CidrBlock"] for r in tencent_server.ingress_rules(sg)] == ["198.51.100.7/32"]


def test_launch_error_shows_next_step_and_retry_reuses_the_token(qtbot, ctx, tc_account, tencent_server):
    from app.ui.cloud.launch_dialog import open_launch_dialog

    tencent_server.fail_next("RunInstances", "InvalidAccount.InsufficientBalance", "balance is not enough")
    dialog = open_launch_dialog(ctx, _offer())
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 1, timeout=10000)
    qtbot.waitUntil(lambda: dialog.form.cidr_edit.text() != "", timeout=10000)
    dialog.form.launch_button.click()
    qtbot.waitUntil(lambda: dialog.form.launch_button.text() == "Retry", timeout=20000)
    assert "balance is too low" in dialog.form.outcome_label.text()
    assert "Top up" in dialog.form.outcome_label.text()
    token = dialog.client_token
    with qtbot.waitSignal(dialog.launched, timeout=20000):
        dialog.form.launch_button.click()
    tokens = {r["ClientToken"] for r in tencent_server.requests_of("RunInstances")}
    assert tokens == {token}


def test_instances_page_lists_costs_and_runs_stop_start_terminate(qtbot, ctx, tc_account, tencent_server):
    from app.ui.cloud.instances_page import InstancesPage, TerminateConfirmDialog

    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    _wait_idle(qtbot, ctx)
    assert page.table.rowCount() == 0
    dialog = page.open_launch(_offer())
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 1, timeout=10000)
    result = _launch_from_dialog(qtbot, ctx, dialog, spot=False)
    iid = result.entry.id
    dialog.accept()
    qtbot.waitUntil(lambda: any(e.id == iid and e.state == "running" for e in page.entries), timeout=10000)
    page.select(iid)
    from tests.ui.instance_cells import cell_texts

    cells = cell_texts(page.table, 0)
    assert cells["state"] == "running"
    assert cells["billing"] == "on demand"
    assert cells["price"] == f"¥{TYPES[GN7][4]:.4f}"
    assert cells["ip"].startswith("203.0.113.")
    assert "Billing now: 1 instance" in page.summary_label.text()
    # cost so far ticks up live: once the launch's reloads have landed (and with the minute's
    # reconcile held), move the page's clock an hour on: its last load was an hour ago
    _wait_idle(qtbot, ctx)
    page.reconcile_timer.stop()
    price = TYPES[GN7][4]
    first = page.costs_now().get(page.selected_id()).so_far
    page.fetched_at -= 3600.0
    later = page.costs_now().get(page.selected_id()).so_far
    # one more hour billed at the hourly price (sums of floats: 0.0072 + 8.68 may exceed 8.6872 in the last bit)
    assert first + price - 1e-9 <= later < first + 2 * price

    def shown_cost() -> float:
        text = cell_texts(page.table, 0)["cost"]
        assert text.startswith("¥")
        return float(text[1:].replace(",", ""))

    qtbot.waitUntil(lambda: shown_cost() >= later - 0.0001, timeout=10000)  # the next tick shows it
    page.reconcile_timer.start()
    # copy SSH command
    command = page.copy_ssh_command()
    assert command.startswith("ssh ")
    assert cells["ip"] in command
    assert QApplication.clipboard().text() == command
    # stop says what still bills
    assert page.stop_button.isEnabled()
    page.stop_button.click()
    qtbot.waitUntil(lambda: "stopped." in page.status_label.text(), timeout=10000)
    assert "disks still bill" in page.status_label.text()
    assert tencent_server.billing_state(iid) == ("STOPPED", "STOP_CHARGING")
    qtbot.waitUntil(
        lambda: page.selected_entry() is not None and page.selected_entry().state == "stopped", timeout=5000
    )
    assert "Nothing is billing" in page.summary_label.text()
    # start
    page.select(iid)
    page.start_button.click()
    qtbot.waitUntil(lambda: tencent_server.billing_state(iid)[0] == "RUNNING", timeout=10000)
    _wait_idle(qtbot, ctx)
    page.reconcile()
    qtbot.waitUntil(
        lambda: page.selected_entry() is not None and page.selected_entry().state == "running", timeout=10000
    )
    # terminate needs the id typed
    page.select(iid)
    confirm = page.terminate_selected()
    assert isinstance(confirm, TerminateConfirmDialog)
    assert not confirm.ok_button.isEnabled()
    qtbot.keyClicks(confirm.id_edit, "ins-wrong")
    assert not confirm.ok_button.isEnabled()
    confirm.id_edit.setText(iid)
    assert confirm.ok_button.isEnabled()
    confirm.ok_button.click()
    qtbot.waitUntil(lambda: tencent_server.billing_state(iid)[0] == "SHUTDOWN", timeout=10000)
    qtbot.waitUntil(lambda: "no longer bills" in page.status_label.text(), timeout=10000)
    _wait_idle(qtbot, ctx)
    assert all(e.id != iid for e in page.visible_entries())
    page.show_ended.setChecked(True)
    assert any(e.id == iid and e.state == "terminated" for e in page.visible_entries())


def test_a_reconcile_that_listed_the_cloud_before_a_terminate_does_not_bring_the_row_back(
    qtbot, ctx, tc_account, tencent_server
):
    """The minute's reconcile asked the cloud just before the user's terminate and its answer
    arrives after it (made explicit: the server holds that answer until the terminate is done)."""
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage

    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    _wait_idle(qtbot, ctx)
    dialog = page.open_launch(_offer())
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 1, timeout=10000)
    iid = _launch_from_dialog(qtbot, ctx, dialog, spot=False).entry.id
    dialog.accept()
    _wait_idle(qtbot, ctx)
    qtbot.waitUntil(lambda: any(e.id == iid and e.state == "running" for e in page.entries), timeout=10000)
    hold = tencent_server.hold_next_answer("DescribeInstances")
    page.reconcile()
    assert hold.reached.wait(20)  # the cloud said RUNNING; the answer is on its way
    page.select(iid)
    confirm = page.terminate_selected()
    confirm.id_edit.setText(iid)
    confirm.ok_button.click()
    qtbot.waitUntil(lambda: "no longer bills" in page.status_label.text(), timeout=20000)
    hold.release()
    _wait_idle(qtbot, ctx, timeout=20000)
    assert all(e.id != iid for e in page.visible_entries())
    assert cloud_service(ctx).ledger.get(iid, "tencent").state == "terminated"
    assert not page.reconciling


def test_instances_page_without_an_account_says_nothing_was_checked(qtbot, ctx):
    from app.ui.cloud.instances_page import InstancesPage

    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: "nothing was checked" in page.sync_label.text(), timeout=10000)
    assert "Checked with the clouds" not in page.sync_label.text()
    assert "Accounts page" in page.sync_label.text()


def test_instance_launched_before_a_crash_appears_after_restart(qtbot, ctx, tc_account, tencent_server):
    """Another LabGPU run launched it (here: straight through the provider) and died before recording
    it: the page's reconcile at start finds it by its tag."""
    from app.cloud import sshkeys
    from app.cloud.base import LaunchRequest
    from app.cloud.tencent import TencentProvider
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage
    from tests.fixtures.tencent_server import tencent_account, tencent_creds

    inst = TencentProvider().launch(
        tencent_account(tencent_server, name="lab-tc"),
        tencent_creds(),
        LaunchRequest(
            instance_type=GN7,
            region="ap-guangzhou",
            zone="ap-guangzhou-6",
            public_key=sshkeys.key_for_launch(ctx.paths, "tencent").public_key,  # Tencent imports RSA only
            ssh_cidr="198.51.100.7/32",
            client_token="crashed-launch",
        ),
    )
    assert cloud_service(ctx).ledger.get(inst.id) is None
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: any(e.id == inst.id for e in page.entries), timeout=10000)
    assert "Checked with the clouds" in page.sync_label.text()


def test_audit_dialog_lists_actions_and_exports_csv_without_secrets(
    qtbot, ctx, tc_account, tencent_server, tmp_path, labgpu_home
):
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage

    svc = cloud_service(ctx)
    from app.cloud.launch_plan import LaunchOptions

    res = svc.launch(LaunchOptions(account="lab-tc", instance_type=GN7, ssh_from="198.51.100.7/32"))
    svc.stop(res.entry.id)
    svc.terminate(res.entry.id)
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    dialog = page.open_audit()
    qtbot.waitUntil(lambda: len(dialog.entries) >= 3, timeout=10000)
    actions = [dialog.table.item(r, 2).text() for r in range(dialog.table.rowCount())]
    assert {"launch", "stop", "terminate"} <= set(actions)
    assert all(
        dialog.table.item(r, 5).text()
        for r in range(dialog.table.rowCount())
        if dialog.table.item(r, 2).text() in ("launch", "stop", "terminate")
    )  # request ids
    out = tmp_path / "audit.csv"
    dialog.export_to(out)
    qtbot.waitUntil(lambda: out.exists() and "Wrote" in dialog.status_label.text(), timeout=10000)
    text = out.read_text()
    assert text.splitlines()[0].startswith("time,account,provider,action")
    assert TEST_SECRET_KEY not in text
    assert TEST_SECRET_ID not in text
    _wait_idle(qtbot, ctx)
    for path in list(labgpu_home.rglob("*")) + [out]:
        if path.is_file():
            data = path.read_bytes()
            assert TEST_SECRET_KEY.encode() not in data, path
            assert TEST_SECRET_ID.encode() not in data, path


def test_offers_can_open_the_launch_dialog_through_navigation(qtbot, ctx, tc_account):
    from app.ui.cloud.instances_page import InstancesPage

    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    page.activate({"launch": _offer()})
    dialog = page._dialogs[-1]
    assert dialog.isVisible()
    assert dialog.form.type_edit.text() == GN7
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 1, timeout=10000)
    _wait_idle(qtbot, ctx)


def test_instances_page_shows_both_clouds_and_aws_stop_says_ebs_bills(
    qtbot, ctx, tc_account, tencent_server, moto
):
    """Tencent through the TC3 server and AWS through moto's HTTP server, in one table."""
    from app.cloud.launch_plan import LaunchOptions
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage
    from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET

    svc = cloud_service(ctx)
    svc.accounts.add(Account("lab-aws", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET))
    aws = svc.launch(
        LaunchOptions(account="lab-aws", instance_type="g5.xlarge", ssh_from="198.51.100.7/32")
    ).entry
    tc = svc.launch(LaunchOptions(account="lab-tc", instance_type=GN7, ssh_from="198.51.100.7/32")).entry
    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(
        lambda: {e.id for e in page.entries} >= {aws.id, tc.id} and page.last_reconcile != "", timeout=15000
    )
    from tests.ui.instance_cells import cell_texts

    rows = [cell_texts(page.table, r) for r in range(page.table.rowCount())]
    shown = {(c["account"], c["zone"].split(" · ")[0]) for c in rows}
    assert shown == {("lab-aws", "AWS"), ("lab-tc", "Tencent Cloud")}
    summary = page.summary_label.text()
    assert "2 instance(s)" in summary
    # one total in the display currency (the AWS dollars converted), as the tray and `labgpu cost` say it
    assert "¥" in summary and "$" not in summary and "unknown" not in summary
    page.select(aws.id)
    qtbot.waitUntil(page.stop_button.isEnabled, timeout=5000)
    page.stop_button.click()
    qtbot.waitUntil(lambda: "stopped." in page.status_label.text(), timeout=15000)
    assert "EBS" in page.status_label.text()
    _wait_idle(qtbot, ctx)


def test_import_aws_profiles_from_the_credentials_file(qtbot, ctx, secret_service, monkeypatch, tmp_path):
    from app.core import secrets
    from app.ui.cloud.accounts_page import AccountsPage

    creds = tmp_path / "credentials"
    creds.write_text(
        "[lab]\naws_access_key_id = AKIAIMPORTTEST000001\naws_secret_access_key = importSecret/123\n"
    )
    config = tmp_path / "config"
    config.write_text("[profile lab]\nregion = eu-west-1\n")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(creds))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(config))
    for k in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(k, raising=False)
    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    _wait_idle(qtbot, ctx)
    page.import_aws_action.trigger()
    qtbot.waitUntil(lambda: any(i.account.name == "aws-lab" for i in page.infos), timeout=10000)
    info = next(i for i in page.infos if i.account.name == "aws-lab")
    assert info.account.region == "eu-west-1"
    assert page.table.item(0, 5).text() == "AWS profile lab"
    assert secrets.get_secret("account:aws-lab:secret") == "importSecret/123"
    page.import_aws_action.trigger()  # a second import keeps the existing account
    qtbot.waitUntil(lambda: "Already there" in page.result_label.text(), timeout=10000)


def test_launch_dialog_without_an_account_says_where_to_add_one(qtbot, ctx, secret_service):
    from app.ui.cloud.launch_dialog import open_launch_dialog

    dialog = open_launch_dialog(ctx, _offer())
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.form.account_note.isVisibleTo(dialog), timeout=10000)
    assert "No Tencent Cloud account yet" in dialog.form.account_note.text()
    assert not dialog.form.launch_button.isEnabled()
    _wait_idle(qtbot, ctx)
    # and a way there: the button closes the dialog and opens the Accounts page
    pages = []
    ctx.navigate_requested.connect(lambda pid, _p: pages.append(pid))
    assert dialog.form.accounts_button.isVisibleTo(dialog)
    dialog.form.accounts_button.click()
    assert pages == ["accounts"] and not dialog.isVisible()


def test_launch_dialog_with_an_existing_key_registers_that_key(
    qtbot, ctx, tc_account, tencent_server, tmp_path
):
    import subprocess

    from app.ui.cloud.launch_dialog import open_launch_dialog

    key = tmp_path / "id_rsa"  # Tencent imports RSA keys only
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "rsa", "-b", "3072", "-N", "", "-C", "me@laptop", "-f", str(key)], check=True
    )
    public = key.with_suffix(".pub").read_text().split()
    dialog = open_launch_dialog(ctx, _offer())
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 1, timeout=10000)
    dialog.form.key_file_radio.setChecked(True)
    dialog.form.key_path_edit.setText(str(key))
    result = _launch_from_dialog(qtbot, ctx, dialog, spot=False)
    [kp] = tencent_server.key_pairs
    assert kp["PublicKey"].split()[:2] == public[:2]
    run = tencent_server.requests_of("RunInstances")[0]
    assert run["LoginSettings"]["KeyIds"] == [kp["KeyId"]]
    assert result.ssh_key_path == str(key)


def test_launch_dialog_on_aws_through_moto(qtbot, ctx, secret_service, moto, monkeypatch, tencent_server):
    from app.core.accounts import Account, Credentials
    from app.ui.cloud import cloud_service
    from app.ui.cloud.launch_dialog import open_launch_dialog
    from tests.fixtures.moto_server import AWS_KEY_ID, AWS_SECRET, ON_DEMAND

    monkeypatch.setenv("LABGPU_PUBLIC_IP_URLS", tencent_server.endpoint + "/_ip")
    cloud_service(ctx).accounts.add(
        Account("lab-aws", "aws", "us-east-1", moto.url), Credentials(AWS_KEY_ID, AWS_SECRET)
    )
    offer = _offer(
        provider="aws",
        region="us-east-1",
        instance_type="g5.xlarge",
        gpu_model="A10G",
        vram_gb=24,
        price_on_demand=ON_DEMAND["g5.xlarge"],
        price_spot=None,
        currency="USD",
    )
    dialog = open_launch_dialog(ctx, offer)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 1, timeout=10000)
    result = _launch_from_dialog(qtbot, ctx, dialog, spot=False)
    assert result.entry.provider == "aws"
    assert result.entry.state == "running"
    assert "$" in dialog.form.outcome_label.text()
    inst = moto.ec2().describe_instances()["Reservations"][0]["Instances"][0]
    assert inst["InstanceType"] == "g5.xlarge"


def test_retry_after_a_lost_answer_yields_one_instance(qtbot, ctx, tc_account, tencent_server):
    from app.ui.cloud.launch_dialog import open_launch_dialog
    from tests.fixtures.tencent_cvm_server import DROP

    tencent_server.fail_next("RunInstances", DROP)  # Tencent creates it, the answer never arrives
    dialog = open_launch_dialog(ctx, _offer())
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 1, timeout=10000)
    qtbot.waitUntil(lambda: dialog.form.cidr_edit.text() != "", timeout=10000)
    dialog.form.launch_button.click()
    qtbot.waitUntil(lambda: dialog.form.launch_button.text() == "Retry", timeout=20000)
    assert "Cannot reach Tencent Cloud" in dialog.form.outcome_label.text()
    assert "never makes a second instance" in dialog.form.outcome_label.text()
    assert len(tencent_server.instances) == 1
    with qtbot.waitSignal(dialog.launched, timeout=20000):
        dialog.form.launch_button.click()
    assert dialog.launch_result.entry.id == next(iter(tencent_server.instances))
    assert len(tencent_server.instances) == 1


def test_a_huawei_cloud_account_is_added_from_the_dialog(qtbot, ctx, secret_service, labgpu_home):
    """Huawei Cloud is offered as a full account (ECS instances since issue 28, and its OBS buckets as sync
    targets), no longer "buckets only"; its keys go to the keyring and the list names the cloud."""
    from app.core import secrets
    from app.ui.cloud.accounts_page import AccountsPage

    page = AccountsPage(ctx)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: page.keyring_ok is True, timeout=10000)
    dialog = page.open_dialog()
    index = dialog.provider_combo.findData("huawei")
    assert index >= 0 and "buckets only" not in dialog.provider_combo.itemText(index)
    dialog.provider_combo.setCurrentIndex(index)
    qtbot.keyClicks(dialog.name_edit, "lab-obs")
    dialog.region_combo.setCurrentText("cn-north-4")
    qtbot.keyClicks(dialog.key_edit, "HPUAEXAMPLEKEY0000001")
    qtbot.keyClicks(dialog.secret_edit, "obs-secret-for-the-test-only")
    with qtbot.waitSignal(dialog.saved, timeout=10000):
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
    qtbot.waitUntil(lambda: any(i.account.name == "lab-obs" for i in page.infos), timeout=5000)
    assert secrets.get_secret("account:lab-obs:secret") == "obs-secret-for-the-test-only"
    row = next(r for r in range(page.table.rowCount()) if page.table.item(r, 0).text() == "lab-obs")
    assert "Huawei" in page.table.item(row, 1).text()
