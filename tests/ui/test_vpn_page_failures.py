"""pytest-qt: the VPN page says why — a refused profile names its lines, and a tunnel OpenVPN
refuses to start shows as Failed with OpenVPN's own words — in English and in Chinese.

Real OpenVPN (tests/fixtures/openvpn.py, client openvpn in the client namespace via
LABGPU_VPN_NETNS), the real main window.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from app.core import secrets

pytestmark = pytest.mark.netns

SMUGGLED = "<dh>\nx\n</dh>xyz\nscript-security 2\nup /tmp/labgpu-not-here.sh\n<dh>\n</dh>\n"


@pytest.fixture
def vpn_env(vpn_lab, secret_service, monkeypatch):
    monkeypatch.setenv("LABGPU_VPN_NETNS", vpn_lab.cli_ns)
    yield vpn_lab
    for what in ("username", "password", "key_passphrase"):
        secrets.delete_secret(f"vpn:bad:{what}")


def _page(window):
    window.show_page("vpn")
    return window.pages["vpn"]


def _window(qtbot, lang: str):
    from app.ui.app import build_main_window

    _app, ctx, window = build_main_window(lang)
    ctx.errors.interactive = False
    qtbot.addWidget(window)
    window.show()
    return ctx, window


@pytest.mark.parametrize(
    ("lang", "words", "line"),
    [("en", "LabGPU does not know to be safe", "line {n}: {text}"), ("zh_CN", "管理员", "第 {n} 行：{text}")],
)
def test_smuggled_lines_are_named_in_the_refusal(qtbot, vpn_env, labgpu_home, tmp_path, lang, words, line):
    ctx, window = _window(qtbot, lang)
    try:
        page = _page(window)
        evil = tmp_path / "evil.ovpn"
        text = vpn_env.client_profile() + SMUGGLED
        evil.write_text(text)
        lines = text.split("\n")
        ss = lines.index("script-security 2") + 1
        page.start_import(str(evil))
        qtbot.waitUntil(lambda: page.findChild(QMessageBox, "vpnUnsafeBox") is not None, timeout=10000)
        box = page.findChild(QMessageBox, "vpnUnsafeBox")
        assert words in box.text()
        assert line.format(n=ss, text="script-security 2") in box.text()
        assert line.format(n=ss + 1, text="up /tmp/labgpu-not-here.sh") in box.text()
        box.button(QMessageBox.StandardButton.Cancel).click()
        qtbot.waitUntil(lambda: page.findChild(QMessageBox, "vpnUnsafeBox") is None or not box.isVisible())
        assert page.model.rowCount() == 0
    finally:
        window.close()
        ctx.shutdown(5000)


@pytest.mark.parametrize(("lang", "failed"), [("en", "Failed"), ("zh_CN", "失败")])
def test_openvpn_refusing_the_profile_shows_failed_with_its_words(qtbot, vpn_env, labgpu_home, tmp_path, lang, failed):
    lab = vpn_env
    ovpn = tmp_path / "bad.ovpn"
    ovpn.write_text(lab.client_profile(extra="tls-cipher LABGPU-NO-SUCH-CIPHER"))
    ctx, window = _window(qtbot, lang)
    try:
        page = _page(window)
        page.service.manager.add_profile(
            "bad", ovpn, username=lab.username, password=lab.password, key_passphrase=lab.key_passphrase
        )
        page.refresh()
        qtbot.waitUntil(lambda: page.model.rowCount() == 1, timeout=10000)
        page.select("bad")
        page._on_connect_clicked()
        cell = page.model.index(0, page.model.COLUMNS.index("state"))
        qtbot.waitUntil(lambda: cell.data() == failed, timeout=60000)
        qtbot.waitUntil(lambda: "cipher" in page.details.text().lower(), timeout=10000)
        # OpenVPN's own words: its >FATAL: line, or its last log lines once it has exited
        assert "labgpu-no-such-cipher" in page.details.text().lower()
        assert lab.client_pids() == []
    finally:
        window.close()
        ctx.shutdown(5000)
