"""The launch dialog opened without an offer and without any cloud account says so in plain words
("No cloud account yet", never "No a cloud account yet"), in English and in Chinese."""

from __future__ import annotations

import pytest

EXPECTED = {
    "en": "No cloud account yet: add one on the Accounts page, then launch again.",
    "zh_CN": "还没有云账号：请先在“云账号”页添加，然后再创建。",
}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_launch_without_any_account_names_no_cloud(qtbot, labgpu_home, secret_service, lang):
    from app.core.paths import default_paths
    from app.ui import i18n
    from app.ui.app import create_app
    from app.ui.cloud.launch_dialog import open_launch_dialog
    from app.ui.context import AppContext

    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    ctx.language = i18n.install(create_app(), lang)
    try:
        dialog = open_launch_dialog(ctx)
        qtbot.addWidget(dialog)
        qtbot.waitUntil(lambda: dialog.form.account_note.isVisibleTo(dialog), timeout=10000)
        assert dialog.form.account_note.text() == EXPECTED[lang]
        assert not dialog.form.launch_button.isEnabled()
        dialog.reject()
    finally:
        ctx.shutdown(5000)
