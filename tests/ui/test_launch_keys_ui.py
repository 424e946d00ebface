"""The launch dialog says which SSH key goes to which cloud (real keyring, the local Tencent CVM
server, moto for AWS): LabGPU's own RSA key for Tencent, its ed25519 key for AWS, a chosen key's type
and whether the account's cloud imports it; Launch waits while it does not."""

from __future__ import annotations

import subprocess

import pytest
from PySide6.QtCore import Qt

from tests.fixtures.tencent_cvm_server import TEST_SECRET_ID, TEST_SECRET_KEY

GN7 = "GN7.2XLARGE32"


@pytest.fixture
def ctx(qtbot, labgpu_home, monkeypatch):
    import app.cloud.launch as launch
    from app.cloud.tencent import TencentProvider
    from app.core.paths import default_paths
    from app.ui.context import AppContext

    monkeypatch.setattr(launch, "POLL_S", 0.05)
    monkeypatch.setattr(TencentProvider, "poll_interval", 0.05)
    monkeypatch.setattr(TencentProvider, "retry_base_delay", 0.01)
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
    book.add(Account("lab-tc", "tencent", "ap-guangzhou", tencent_server.endpoint),
             Credentials(TEST_SECRET_ID, TEST_SECRET_KEY))


def _keygen(tmp_path, kind: str):
    key = tmp_path / f"id_{kind}"
    subprocess.run(["ssh-keygen", "-q", "-t", kind, "-N", "", "-C", "me@laptop", "-f", str(key)], check=True)
    return key


def _dialog(qtbot, ctx):
    from app.ui.cloud.launch_dialog import open_launch_dialog

    dialog = open_launch_dialog(ctx)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 2, timeout=10000)
    return dialog


def _choose(dialog, account: str) -> None:
    dialog.form.account_combo.setCurrentIndex(dialog.form.account_combo.findData(account))


def test_the_dialog_says_which_of_labgpus_keys_each_cloud_gets(qtbot, ctx, accounts):
    from app.cloud import sshkeys

    dialog = _dialog(qtbot, ctx)
    assert dialog.form.key_new_radio.isChecked()
    rsa = sshkeys.own_key_path(ctx.paths, "rsa")
    ed = sshkeys.own_key_path(ctx.paths, "ed25519")
    _choose(dialog, "lab-tc")
    assert dialog.form.key_note.text() == (
        f"Tencent Cloud imports RSA keys: LabGPU's own RSA key ({rsa}) will be registered. "
        "It is made on this first launch; its passphrase is kept in the keyring.")
    assert dialog.form.key_path_edit.placeholderText() == "~/.ssh/id_rsa"
    _choose(dialog, "lab-aws")
    assert dialog.form.key_note.text().startswith(
        f"AWS imports ed25519 / RSA keys: LabGPU's own ed25519 key ({ed}) will be registered.")
    assert dialog.form.launch_button.isEnabled() and not dialog.key_refused()


def test_a_chosen_key_shows_its_type_and_launch_waits_while_the_cloud_refuses_it(
    qtbot, ctx, accounts, tencent_server, tmp_path
):
    ed_key = _keygen(tmp_path, "ed25519")
    rsa_key = _keygen(tmp_path, "rsa")
    dialog = _dialog(qtbot, ctx)
    _choose(dialog, "lab-tc")
    dialog.form.key_file_radio.setChecked(True)
    dialog.form.key_path_edit.setText(str(ed_key))
    assert dialog.form.key_note.text() == (
        f"Tencent Cloud imports RSA keys only, and {ed_key} is a key of type ed25519. Choose a key of type "
        "RSA, or leave the SSH key field empty to use LabGPU's own RSA key.")
    assert dialog.key_refused() and not dialog.form.launch_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.form.cidr_edit.text() == "198.51.100.7/32", timeout=10000)
    dialog._on_launch_button_clicked()  # even if it were clicked: nothing is sent
    assert dialog.form.stack.currentIndex() == 0 and not dialog.running
    assert "ImportKeyPair" not in tencent_server.actions() and "RunInstances" not in tencent_server.actions()
    _choose(dialog, "lab-aws")  # the same key is fine for AWS
    assert dialog.form.key_note.text().endswith(": AWS imports it.") and dialog.form.launch_button.isEnabled()
    _choose(dialog, "lab-tc")
    dialog.form.key_path_edit.setText(str(rsa_key))
    assert dialog.form.key_note.text().startswith(f"{rsa_key} is a key of type RSA (SHA256:")
    assert dialog.form.key_note.text().endswith(": Tencent Cloud imports it.")
    assert dialog.form.launch_button.isEnabled()
    dialog.form.key_path_edit.setText(str(tmp_path / "missing_key"))
    assert "cannot read the public half" in dialog.form.key_note.text() and not dialog.form.launch_button.isEnabled()
    dialog.form.key_new_radio.setChecked(True)  # back to LabGPU's own key
    assert dialog.form.key_note.text().startswith("Tencent Cloud imports RSA keys: LabGPU's own RSA key")
    assert dialog.form.launch_button.isEnabled()


def test_a_default_tencent_launch_from_the_dialog_registers_labgpus_rsa_key(
    qtbot, ctx, accounts, tencent_server
):
    from app.cloud import sshkeys

    dialog = _dialog(qtbot, ctx)
    _choose(dialog, "lab-tc")
    qtbot.keyClicks(dialog.form.type_edit, GN7)
    dialog._on_type_edit_finished()
    qtbot.waitUntil(lambda: dialog.form.cidr_edit.text() == "198.51.100.7/32", timeout=10000)
    qtbot.waitUntil(lambda: dialog.form.zone_combo.count() > 1, timeout=10000)
    with qtbot.waitSignal(dialog.launched, timeout=30000):
        qtbot.mouseClick(dialog.form.launch_button, Qt.MouseButton.LeftButton)
    rsa = sshkeys.own_key_path(ctx.paths, "rsa")
    [kp] = tencent_server.key_pairs
    assert kp["PublicKey"].split()[:2] == rsa.with_name("labgpu_rsa.pub").read_text().split()[:2]
    assert f"SSH key registered: {rsa} (RSA)." in dialog.form.outcome_label.text().splitlines()
    steps = [dialog.form.steps_list.item(i).text() for i in range(dialog.form.steps_list.count())]
    assert any("Register the SSH key" in s for s in steps), steps
