"""The first-run welcome: shown once, language at once, an account or not, a tour, seen for good."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog

from app.core.paths import default_paths
from app.ui import first_run
from tests.fixtures import clirun


def _nav_text(window, page_id: str) -> str:
    return window.nav.item(window.page_ids().index(page_id)).text()


def _saved() -> dict:
    return json.loads(default_paths().settings_file.read_text(encoding="utf-8"))


@pytest.fixture
def welcome(app_window, qtbot):
    """The window of a fresh install and the welcome as run_gui opens it."""
    ctx, window = app_window
    from app.ui.app import open_welcome

    assert first_run.should_show(ctx)
    open_welcome(ctx, window, False, 0)
    dialog = window.findChild(QDialog, first_run.OBJECT_NAME)
    assert isinstance(dialog, first_run.FirstRunDialog)
    qtbot.waitUntil(dialog.isVisible, timeout=5000)
    yield ctx, window, dialog
    if ctx.language != "en":  # translators are per process: leave the next test in English
        first_run.apply_language(ctx, "en")


def test_first_start_shows_the_welcome_and_the_test_window_does_not(app_window, qtbot):
    ctx, window = app_window
    assert not ctx.settings.first_run_done
    assert window.findChild(QDialog, first_run.OBJECT_NAME) is None  # build_main_window alone shows nothing
    dialog = first_run.maybe_show(ctx, window)
    assert dialog is not None and dialog.isVisible() and dialog.isModal()
    assert dialog.step() == 0
    assert dialog.next_button.isDefault()
    assert first_run.show_welcome(ctx, window) is dialog  # one at a time


def test_choosing_chinese_switches_the_dialog_and_the_window_at_once(welcome, qtbot):
    ctx, window, dialog = welcome
    assert dialog.next_button.text() == "Next"
    assert _nav_text(window, "settings") == "Settings"
    qtbot.mouseClick(dialog.language_buttons["zh_CN"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _nav_text(window, "settings") == "设置", timeout=10000)
    assert ctx.language == "zh_CN"
    assert dialog.next_button.text() == "下一步"
    assert dialog.windowTitle() == "欢迎使用 LabGPU"
    assert "没有账号" in dialog.without_text.text()
    assert dialog.language_buttons["zh_CN"].isChecked()
    assert _saved()["language"] == "zh_CN"
    assert not ctx.settings.first_run_done  # choosing a language is not finishing
    qtbot.mouseClick(dialog.language_buttons["en"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _nav_text(window, "settings") == "Settings", timeout=10000)
    assert dialog.next_button.text() == "Next" and dialog.isVisible()


def test_enter_goes_to_the_next_step_wherever_the_focus_is(welcome, qtbot):
    _ctx, _window, dialog = welcome
    dialog.language_buttons["en"].setFocus()
    qtbot.keyClick(dialog.language_buttons["en"], Qt.Key.Key_Return)
    assert dialog.step() == 1
    qtbot.keyClick(dialog, Qt.Key.Key_Enter)
    assert dialog.step() == 2
    assert dialog.next_button.text() == "Finish"
    qtbot.mouseClick(dialog.back_button, Qt.MouseButton.LeftButton)
    assert dialog.step() == 1


@pytest.mark.parametrize("how", ["skip", "esc", "finish"])
def test_skip_esc_or_finish_marks_it_seen_for_good(welcome, qtbot, how):
    ctx, window, dialog = welcome
    if how == "skip":
        qtbot.mouseClick(dialog.skip_button, Qt.MouseButton.LeftButton)
    elif how == "esc":
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    else:
        for _ in range(3):
            qtbot.keyClick(dialog, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: ctx.settings.first_run_done, timeout=5000)
    assert _saved()["first_run_done"] is True
    assert not first_run.should_show(ctx)
    ctx.shutdown(3000)

    from app.ui.app import build_main_window

    _a, ctx2, window2 = build_main_window("en")  # a restart: a new context, the same LABGPU_HOME
    ctx2.errors.interactive = False
    qtbot.addWidget(window2)
    try:
        assert ctx2.settings.first_run_done
        assert first_run.maybe_show(ctx2, window2) is None
    finally:
        ctx2.shutdown(3000)


def test_the_account_step_says_what_works_without_an_account(welcome, qtbot):
    _ctx, _window, dialog = welcome
    qtbot.keyClick(dialog, Qt.Key.Key_Return)
    assert dialog.step() == 1
    text = dialog.without_text.text()
    for words in ("compare GPU offers", "advisor", "cost estimator", "SSH server", "Hosts"):
        assert words in text
    qtbot.mouseClick(dialog.no_account_button, Qt.MouseButton.LeftButton)
    assert dialog.step() == 2 and dialog.isVisible()


def test_add_account_lands_on_the_accounts_page_then_the_tour(welcome, qtbot):
    ctx, window, dialog = welcome
    dialog.go_to_step(1)
    qtbot.mouseClick(dialog.add_account_button, Qt.MouseButton.LeftButton)
    assert window.current_page_id() == "accounts"
    page = window.pages["accounts"]
    opened = page._dialog
    if page.add_button.isEnabled():  # a keyring: the page's own Add dialog is open
        assert opened is not None and opened.isVisible()
        assert not dialog.isVisible()  # out of the way until the account dialog closes
        opened.reject()
    qtbot.waitUntil(dialog.isVisible, timeout=5000)
    assert dialog.step() == 2  # back at the tour
    assert not ctx.settings.first_run_done


def test_the_tour_buttons_go_to_their_pages(welcome, qtbot):
    ctx, window, dialog = welcome
    ids = list(dialog.tour_rows)
    assert ids == [p for p in window.page_ids() if p in first_run.PAGE_LINES]
    assert {"offers", "advisor", "accounts", "hosts", "settings"} <= set(ids)
    for page_id in reversed(ids):  # settings first: the window starts on the first page
        dialog = first_run.show_welcome(ctx, window, 2)
        assert dialog.step() == 2
        _name, _line, button = dialog.tour_rows[page_id]
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        assert window.current_page_id() == page_id
        assert not dialog.isVisible()
        QApplication.processEvents()
    assert ctx.settings.first_run_done


def test_settings_page_shows_the_welcome_again(app_window, qtbot):
    ctx, window = app_window
    first_run.mark_seen(ctx)
    assert first_run.maybe_show(ctx, window) is None
    window.show_page("settings")
    page = window.pages["settings"]
    qtbot.mouseClick(page.welcome_button, Qt.MouseButton.LeftButton)
    dialog = window.findChild(QDialog, first_run.OBJECT_NAME)
    assert isinstance(dialog, first_run.FirstRunDialog)
    assert dialog.isVisible() and dialog.step() == 0
    assert dialog.parent() is window  # not the page: a language switch rebuilds the pages
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def test_a_damaged_flag_means_not_seen_without_a_traceback(qtbot, capsys):
    from app.ui.context import AppContext
    from app.ui.main_window import MainWindow

    paths = default_paths().ensure()
    paths.settings_file.write_text(json.dumps({"schema_version": 1, "first_run_done": "yes",
                                               "language": "en"}), encoding="utf-8")
    ctx = AppContext(paths, "en")
    ctx.errors.interactive = False
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    try:
        assert ctx.settings.first_run_done is False
        assert any("first_run_done" in n.fields for n in ctx.settings_store.notices)
        window.show()
        dialog = first_run.maybe_show(ctx, window)
        assert dialog is not None and dialog.isVisible()
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        assert _saved()["first_run_done"] is True
    finally:
        ctx.shutdown(3000)
    assert "Traceback" not in capsys.readouterr().err


def test_screenshot_of_the_welcome_in_chinese(tmp_path, labgpu_home):
    import sys

    out = tmp_path / "welcome.png"
    r = clirun.run([sys.executable, "-m", "app", "--screenshot", str(out), "--first-run",
                        "--first-run-step", "3", "--lang", "zh_CN", "--size", "1024x640"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    from PySide6.QtGui import QImage

    img = QImage(str(out))
    assert (img.width(), img.height()) == (1024, 640)
    assert not default_paths().settings_file.exists() or not _saved().get("first_run_done")
