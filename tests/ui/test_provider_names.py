"""A provider has one name per language: the offers table, the offer details and the provider filter
show it in Chinese in a Chinese UI (from the provider specs), in English in an English one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from app.core import providers
from tests.ui import test_offers_page as offers_tests

ctx = offers_tests.ctx  # the offers page tests' fixture: an English app context
_page = offers_tests._page

CHINESE = {"tencent": "腾讯云", "alibaba": "阿里云", "huawei": "华为云"}


def _shown(qtbot, page) -> dict[str, tuple[str, str, str]]:
    """provider id → (its text in the table's provider column, in the details pane, in the filter menu)."""
    col = page.model.column_of("provider")
    out: dict[str, tuple[str, str, str]] = {}
    for row in range(page.proxy.rowCount()):
        offer = page.proxy.offer_at(row)
        if offer.provider in out:
            continue
        cell = str(page.proxy.index(row, col).data(Qt.ItemDataRole.DisplayRole))
        page.table.selectRow(row)
        qtbot.waitUntil(lambda o=offer: page.current_offer() == o, timeout=5000)
        detail = page.details.fields["provider"].text()
        menu = page.filter_bar.provider_actions[offer.provider].text()
        out[offer.provider] = (cell, detail, menu)
    return out


def test_chinese_ui_names_providers_in_chinese(qtbot, ctx):
    from app.ui import i18n

    app = QApplication.instance()
    i18n.install(app, "zh_CN")
    try:
        shown = _shown(qtbot, _page(qtbot, ctx))
    finally:
        i18n.install(app, "en")
    for pid, name in CHINESE.items():
        assert shown[pid] == (name, name, name), pid
    for pid, texts in shown.items():  # every provider as its spec names it in Chinese
        assert set(texts) == {providers.display_name(pid, "zh_CN")}, pid
    assert providers.display_name("aws", "zh_CN") == providers.spec("aws").name_zh


def test_english_ui_names_providers_in_english(qtbot, ctx):
    shown = _shown(qtbot, _page(qtbot, ctx))
    assert shown["tencent"] == ("Tencent Cloud",) * 3
    assert shown["alibaba"] == ("Alibaba Cloud",) * 3
    for pid, texts in shown.items():
        assert set(texts) == {providers.spec(pid).name}, pid
