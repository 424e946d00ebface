"""A cloud's own account settings and credential shapes, declared in its spec alone (issue 28's clouds):
a project id / tenant kept in the account (not the keyring), an API key with no key id, a JSON key that is a
whole document, a one-word region id. The accounts dialog and `labgpu accounts add` ask for exactly what the
spec declares; the secrets go to the keyring, the settings to the account.
"""

from __future__ import annotations

import dataclasses
import io
import json

import pytest

from tests.cloud.toy_provider import TOY_SPEC

KEYED = dataclasses.replace(
    TOY_SPEC, id="toyproj", name="Toy Projects", name_zh="", order=501,
    credentials=TOY_SPEC.credentials[1:],  # an API key: the secret alone
    account_fields=(),
    region_pattern=r"[a-z]+[0-9]*",  # one word, e.g. "eastus"
    regions=("eastus", "westus2"), default_region="eastus",
)
API_KEY = "toy-api-key-000000000000000001"  # a test credential


def _spec_with_fields():
    from app.core.providers import AccountField, CredentialField

    return dataclasses.replace(
        KEYED,
        credentials=(CredentialField("key_id", "Client email", optional=True),
                     CredentialField("secret", "JSON key", secret=True, multiline=True)),
        account_fields=(AccountField("tenant_id", "Tenant ID", pattern=r"[0-9a-f-]{36}"),
                        AccountField("project_id", "Project ID", optional=True, hint="e.g. my-lab-123")),
    )


DOC = '{\n  "type": "service_account",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\nAAAA\\n-----END ' \
      'PRIVATE KEY-----\\n",\n  "client_email": "lab@example.iam"\n}'
TENANT = "0b7c4b1e-1111-4222-8333-944445555666"


@pytest.fixture
def fielded():
    from app.cloud.registry import register_plugin, unregister_plugin

    spec = _spec_with_fields()
    register_plugin(spec)
    try:
        yield spec
    finally:
        unregister_plugin(spec.id)


def _stored_files(home):
    return b"".join(p.read_bytes() for p in home.rglob("*") if p.is_file())


def test_cli_asks_for_the_api_key_alone_and_the_settings_as_options(fielded, secret_service, labgpu_home,
                                                                    monkeypatch, capsys):
    from app.cli import main
    from app.core.accounts import AccountBook
    from app.core.paths import default_paths
    from app.core.store import Store

    # A JSON key is read whole from stdin (after the key id line): its line breaks are part of it.
    monkeypatch.setattr("sys.stdin", io.StringIO("lab@example.iam\n" + DOC + "\n"))
    assert main(["accounts", "add", fielded.id, "lab", "--region", "eastus", "--tenant-id", TENANT,
                 "--project-id", "my-lab-123"]) == 0
    assert "added toyproj account lab" in capsys.readouterr().out
    book = AccountBook(Store(paths=default_paths()))
    account = book.get("lab")
    assert (account.region, account.extra) == ("eastus", {"tenant_id": TENANT, "project_id": "my-lab-123"})
    assert book.credentials("lab").secret == DOC
    assert b"PRIVATE KEY" not in _stored_files(labgpu_home)
    [row] = json.loads((main(["accounts", "ls", "--json"]), capsys.readouterr().out)[1])
    assert row["provider"] == fielded.id

    # A required setting left out, a malformed one, an option of another cloud: each one line with a next step.
    monkeypatch.setattr("sys.stdin", io.StringIO("lab@example.iam\n" + DOC))
    assert main(["accounts", "add", fielded.id, "lab2", "--region", "eastus"]) != 0
    err = capsys.readouterr().err
    assert "[MissingSetting]" in err and "--tenant-id" in err
    monkeypatch.setattr("sys.stdin", io.StringIO("lab@example.iam\n" + DOC))
    assert main(["accounts", "add", fielded.id, "lab2", "--region", "eastus", "--tenant-id", "nope"]) != 0
    assert "[BadSetting]" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("AKIDEXAMPLE\nsecret\n"))
    assert main(["accounts", "add", "aws", "lab3", "--region", "us-east-1", "--tenant-id", TENANT]) != 0
    err = capsys.readouterr().err
    assert "[BadSetting]" in err and "--tenant-id is not a setting of AWS accounts" in err
    assert not book.exists("lab2") and not book.exists("lab3")


def test_an_api_key_alone_and_a_one_word_region(secret_service, labgpu_home, monkeypatch, capsys):
    from app.cli import main
    from app.cloud.registry import register_plugin, unregister_plugin
    from app.core.accounts import AccountBook
    from app.core.paths import default_paths
    from app.core.store import Store

    register_plugin(KEYED)
    try:
        monkeypatch.setattr("sys.stdin", io.StringIO(API_KEY + "\n"))
        assert main(["accounts", "add", KEYED.id, "lab", "--region", "eastus"]) == 0
        creds = AccountBook(Store(paths=default_paths())).credentials("lab")
        assert (creds.key_id, creds.secret) == ("", API_KEY)
        monkeypatch.setattr("sys.stdin", io.StringIO(""))
        assert main(["accounts", "add", KEYED.id, "lab2", "--region", "eastus"]) != 0
        assert "[MissingSecret]" in capsys.readouterr().err
        monkeypatch.setattr("sys.stdin", io.StringIO(API_KEY + "\n"))
        assert main(["accounts", "add", KEYED.id, "lab2", "--region", "East US"]) != 0
        assert "[BadRegion]" in capsys.readouterr().err
    finally:
        unregister_plugin(KEYED.id)


def test_dialog_shows_the_clouds_own_fields_and_saves_them(qtbot, fielded, secret_service, labgpu_home):
    from app.core.accounts import AccountBook
    from app.core.paths import default_paths
    from app.core.store import Store
    from app.ui.cloud.accounts_page import AccountsPage
    from app.ui.context import AppContext

    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    try:
        page = AccountsPage(ctx)
        qtbot.addWidget(page)
        qtbot.waitUntil(lambda: page.keyring_ok is True, timeout=10000)
        dialog = page.open_dialog()
        dialog.provider_combo.setCurrentIndex(dialog.provider_combo.findData(fielded.id))
        labels = {label.text(): edit for label, edit in dialog._setting_rows}
        assert set(labels) == {"Tenant ID *", "Project ID"}
        assert labels["Project ID"].placeholderText() == "e.g. my-lab-123"
        assert dialog.secret_doc.isVisibleTo(dialog) and not dialog.secret_edit.isVisibleTo(dialog)
        assert dialog.secret_file_button.isVisibleTo(dialog)

        # Another cloud: its rows go, the one-line secret is back.
        dialog.provider_combo.setCurrentIndex(dialog.provider_combo.findData("aws"))
        assert dialog._setting_rows == [] and dialog.secret_edit.isVisibleTo(dialog)
        dialog.provider_combo.setCurrentIndex(dialog.provider_combo.findData(fielded.id))

        qtbot.keyClicks(dialog.name_edit, "lab-doc")
        dialog.region_combo.setCurrentText("westus2")
        qtbot.keyClicks(dialog.key_edit, "lab@example.iam")
        dialog.secret_doc.setPlainText(DOC)
        dialog.buttons.button(dialog.buttons.StandardButton.Save).click()  # the tenant is missing
        qtbot.waitUntil(dialog.error_label.isVisible, timeout=10000)
        assert "needs its Tenant ID" in dialog.error_label.text()
        qtbot.keyClicks(dict((label.text(), e) for label, e in dialog._setting_rows)["Tenant ID *"], TENANT)
        with qtbot.waitSignal(dialog.saved, timeout=10000):
            dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
        book = AccountBook(Store(paths=default_paths()))
        assert book.get("lab-doc").extra == {"tenant_id": TENANT}
        assert book.credentials("lab-doc").secret == DOC

        # Editing: the settings are shown and changed; the keys left empty stay as they were.
        qtbot.waitUntil(lambda: any(i.account.name == "lab-doc" for i in page.infos), timeout=10000)
        edit = page.open_dialog(next(i for i in page.infos if i.account.name == "lab-doc"))
        rows = {label.text(): e for label, e in edit._setting_rows}
        assert rows["Tenant ID *"].text() == TENANT
        qtbot.keyClicks(rows["Project ID"], "my-lab-9")
        with qtbot.waitSignal(edit.saved, timeout=10000):
            edit.buttons.button(edit.buttons.StandardButton.Save).click()
        assert book.get("lab-doc").extra == {"tenant_id": TENANT, "project_id": "my-lab-9"}
        assert book.credentials("lab-doc").secret == DOC
        assert b"PRIVATE KEY" not in _stored_files(labgpu_home)
    finally:
        qtbot.waitUntil(lambda: not ctx.runner.active(), timeout=10000)
        ctx.shutdown(5000)
