"""Settings → Notifications in the window: add an ntfy channel in the dialog (Send a test before saving),
save it (its secrets to the real Secret Service), then the section's Send a test shows what happened."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from app.core.paths import default_paths
from tests.notify import peers as P

pytestmark = pytest.mark.usefixtures("secret_service")


def _ctx():
    from app.ui.context import AppContext

    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    return ctx


def test_add_a_channel_and_send_a_test_from_settings(qtbot, peer, labgpu_home):
    from app.ui.settings_page import SettingsPage

    ctx = _ctx()
    page = SettingsPage(ctx)
    qtbot.addWidget(page)
    from app.ui.notify.section import NotifySection

    section = page.findChild(NotifySection)
    assert section is not None and section.table.rowCount() == 0
    assert not section.test_button.isEnabled()

    qtbot.mouseClick(section.add_button, Qt.MouseButton.LeftButton)
    from app.ui.notify.dialog import ChannelDialog

    dialog = next(w for w in page.window().findChildren(ChannelDialog))
    dialog.name_edit.setText("phone")
    dialog.kind_combo.setCurrentIndex(dialog.kind_combo.findData("ntfy"))
    assert dialog.form.isRowVisible(dialog.priority_combo) and not dialog.form.isRowVisible(dialog.host_edit)
    dialog.secret_edits["url"].setText(peer.base + P.NTFY_TOPIC)
    dialog.priority_combo.setCurrentIndex(dialog.priority_combo.findData(5))
    for topic, check in dialog.event_checks.items():
        check.setChecked(topic in ("stop-failed", "job-failed"))

    # Send a test before saving: the service refuses without its token, and says so in plain text
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.result_label.text().startswith("Failed"), timeout=30_000)
    assert "403" in dialog.result_label.text()
    dialog.secret_edits["token"].setText(P.NTFY_TOKEN)
    qtbot.mouseClick(dialog.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.result_label.text().startswith("Sent"), timeout=30_000)
    assert [r.headers["Priority"] for r in peer.received("ntfy")] == ["5"]

    with qtbot.waitSignal(dialog.accepted, timeout=30_000):
        dialog.buttons.accepted.emit()
    assert section.table.rowCount() == 1 and section.selected() == "phone"
    saved = json.loads((labgpu_home / "config" / "settings.json").read_text())["extra"]["notify"]["channels"][0]
    assert saved["events"] == ["stop-failed", "job-failed"] and saved["priority"] == 5
    assert saved["secret_keys"] == ["notify:phone:token", "notify:phone:url"]
    assert P.NTFY_TOKEN not in json.dumps(saved) and P.NTFY_TOPIC not in json.dumps(saved)

    # the section's Send a test uses the saved channel and its keyring entries
    assert section.test_button.isEnabled()
    qtbot.mouseClick(section.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: section.result_label.text().startswith("Sent a test notice on phone"),
                    timeout=30_000)
    assert len(peer.received("ntfy")) == 2
    assert section.table.item(0, 3).text().endswith("ok")

    # a refusal is shown as the service's words, as plain text, and in the list
    peer.services.clock = lambda: 0.0
    import keyring

    keyring.set_password("labgpu", "notify:phone:token", "tk_<b>not</b>valid")
    qtbot.mouseClick(section.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "failed" in section.result_label.text(), timeout=30_000)
    assert section.result_label.textFormat() == Qt.TextFormat.PlainText
    assert "403" in section.result_label.text() and "tk_<b>not</b>valid" not in section.result_label.text()
    ctx.shutdown(5000)
