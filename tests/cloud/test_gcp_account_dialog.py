"""The accounts dialog with a Google Cloud account, as a student fills it: the service account's e-mail, the
JSON key pasted whole, the optional API key for live prices, the project when it is not the key's; the key and
the API key go to the keyring, the project to the account, and the account's test reaches the peer."""

from __future__ import annotations

from tests.fixtures.gcp_compute_server import API_KEY, PROJECT
from tests.fixtures.gcp_fixtures import peer_fixtures

gcp_server_module, gcp_server = peer_fixtures()


def test_the_dialog_takes_the_json_key_and_the_api_key(qtbot, gcp_server, secret_service, labgpu_home):
    from app.cloud.launch import CloudService
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
        dialog.provider_combo.setCurrentIndex(dialog.provider_combo.findData("gcp"))
        assert dialog.secret_doc.isVisibleTo(dialog) and not dialog.secret_edit.isVisibleTo(dialog)
        assert dialog.token_edit.isVisibleTo(dialog)
        assert dialog.token_label.text() == "API key for live prices (optional)"
        rows = {label.text(): edit for label, edit in dialog._setting_rows}
        assert set(rows) == {"Project ID"} and rows["Project ID"].placeholderText() == "empty: the key's project_id"

        qtbot.keyClicks(dialog.name_edit, "lab-gcp")
        dialog.region_combo.setCurrentText("us-central1")
        qtbot.keyClicks(dialog.key_edit, gcp_server.key.client_email)
        dialog.secret_doc.setPlainText(gcp_server.key.json_text())
        qtbot.keyClicks(dialog.token_edit, API_KEY)
        qtbot.keyClicks(rows["Project ID"], PROJECT)
        dialog.endpoint_edit.setText(gcp_server.url)
        with qtbot.waitSignal(dialog.saved, timeout=10000):
            dialog.buttons.button(dialog.buttons.StandardButton.Save).click()
        book = AccountBook(Store(paths=default_paths()))
        assert book.get("lab-gcp").extra == {"project": PROJECT}
        creds = book.credentials("lab-gcp")
        assert (creds.key_id, creds.session_token) == (gcp_server.key.client_email, API_KEY)
        assert creds.secret == gcp_server.key.json_text()
        assert PROJECT in CloudService().test_connection("lab-gcp")
        stored = b"".join(p.read_bytes() for p in labgpu_home.rglob("*") if p.is_file())
        assert gcp_server.key.pem_body.encode() not in stored and API_KEY.encode() not in stored
    finally:
        qtbot.waitUntil(lambda: not ctx.runner.active(), timeout=10000)
        ctx.shutdown(5000)
