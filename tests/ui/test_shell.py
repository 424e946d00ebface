"""The main window, navigation, language switch, settings persistence, task runner, error dialog."""

from __future__ import annotations

import json
import threading

from PySide6.QtCore import Qt

from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import default_paths
from tests.fixtures import clirun


def test_window_shows_only_pages_that_exist_and_ctrl_digits_navigate(app_window, qtbot):
    ctx, window = app_window
    ids = window.page_ids()
    assert "settings" in ids
    assert len(ids) == window.nav.count() == window.stack.count()
    qtbot.keyClick(window, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert window.current_page_id() == ids[0]
    qtbot.keyClick(window, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    assert window.current_page_id() == "settings"


def test_language_switch_retranslates_and_persists(app_window, qtbot):
    ctx, window = app_window
    window.show_page("settings")
    page = window.pages["settings"]
    assert window.nav.item(window.page_ids().index("settings")).text() == "Settings"
    page.language_combo.setCurrentIndex(page.language_combo.findData("zh_CN"))
    qtbot.waitUntil(lambda: window.nav.item(window.page_ids().index("settings")).text() == "设置", timeout=10000)
    assert window.current_page_id() == "settings"
    saved = json.loads(default_paths().settings_file.read_text(encoding="utf-8"))
    assert saved["language"] == "zh_CN"
    page = window.pages["settings"]
    page.language_combo.setCurrentIndex(page.language_combo.findData("en"))
    qtbot.waitUntil(lambda: window.nav.item(window.page_ids().index("settings")).text() == "Settings", timeout=10000)


def test_last_page_and_geometry_survive_restart(qtbot):
    from app.ui.app import build_main_window

    _a, ctx, window = build_main_window("en")
    ctx.errors.interactive = False
    qtbot.addWidget(window)
    window.show()
    window.show_page("settings")
    window.move(0, 0)
    window.resize(970, 640)  # fits the 800x800 offscreen screen's rules after Qt's clamping
    window.close()
    ctx.shutdown()
    _a, ctx2, window2 = build_main_window("en")
    qtbot.addWidget(window2)
    assert window2.current_page_id() == "settings"
    assert window2.height() == 640
    assert ctx2.settings.window_geometry
    ctx2.shutdown()


def test_task_runner_delivers_result_progress_and_errors_on_gui_thread(app_window, qtbot):
    ctx, _window = app_window
    gui = threading.current_thread()
    seen = []

    def work(n, task):
        for i in range(n):
            task.report(i)
        return threading.current_thread() is not gui

    results = []
    ctx.runner.submit(work, 3, on_progress=lambda p: seen.append((p, threading.current_thread() is gui)),
                      on_done=results.append)
    import gc

    gc.collect()  # the caller keeps no Task reference: the runner must
    qtbot.waitUntil(lambda: bool(results), timeout=5000)
    assert results == [True]
    qtbot.waitUntil(lambda: len(seen) == 3)
    assert seen == [(0, True), (1, True), (2, True)]

    def fail():
        raise LabGpuError(QT_TRANSLATE_NOOP("LabGPU", "Disk {name} is full"), "Free space", name="x")

    errors = []
    ctx.runner.submit(fail, on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=5000)
    assert errors[0].text() == "Disk x is full"


def test_task_runner_shutdown_cancels_cooperative_work(app_window):
    ctx, _window = app_window

    def long(task):
        while not task.wait_cancel(0.05):
            pass
        return "stopped"

    t = ctx.runner.submit(long)
    assert ctx.runner.shutdown(3000)
    assert t.cancelled and t.result == "stopped"


def test_same_error_shows_one_dialog(app_window, qtbot):
    ctx, _window = app_window
    shown = []
    handled = []
    ctx.errors.shown.connect(shown.append)
    ctx.errors.reported.connect(handled.append)  # after the reporter's own slot: counts handled reports
    err = LabGpuError(QT_TRANSLATE_NOOP("LabGPU", "Disk {name} is full"), name="a")
    for _ in range(3):
        ctx.errors.report(err)
    ctx.errors.report(LabGpuError(QT_TRANSLATE_NOOP("LabGPU", "Disk {name} is full"), name="b"))
    qtbot.waitUntil(lambda: len(handled) == 4, timeout=10000)  # all four reports were handled
    assert len(shown) == 2


def test_screenshot_cli_writes_a_png_in_chinese(tmp_path, labgpu_home):
    import sys

    out = tmp_path / "settings.png"
    r = clirun.run([sys.executable, "-m", "app", "--screenshot", str(out), "--page", "settings",
                        "--lang", "zh_CN"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    from PySide6.QtGui import QImage

    img = QImage(str(out))
    assert (img.width(), img.height()) == (1280, 800)


def test_navigation_titles_match_the_pages_own_titles():
    """The window lists pages without importing them; their English titles must match for translation."""
    import importlib

    from app.ui.main_window import available_pages

    for _page_id, module, cls, title in available_pages():
        assert getattr(importlib.import_module(module), cls).nav_title() == title


def test_pages_are_built_only_when_first_shown(app_window):
    ctx, window = app_window
    first = window.current_page_id()
    others = [p for p in window.page_ids() if p != first]
    assert all(not window.pages.is_built(p) for p in others)
    window.show_page("settings")
    assert window.pages.is_built("settings")


def test_billing_watchers_start_without_opening_their_pages(app_window, qtbot):
    """The instances page reconciles with the clouds at start even if the user stays on the offers page."""
    from app.ui.main_window import BACKGROUND_PAGES

    ctx, window = app_window
    window.finish_startup()
    wanted = [p for p in BACKGROUND_PAGES if p in window.pages]
    assert "instances" in wanted
    qtbot.waitUntil(lambda: all(window.pages.is_built(p) for p in wanted), timeout=5000)


def test_unknown_page_is_a_clear_error(tmp_path):
    import sys

    r = clirun.run([sys.executable, "-m", "app", "--screenshot", str(tmp_path / "x.png"), "--page", "nope"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2
    assert "no page named 'nope'" in r.stderr
    # and nothing else: the first page's background loads end before the window goes (they printed "Error
    # calling Python override of QRunnable::run()" and "Signal source has been deleted" at the exit)
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_language_follows_the_system_locale_by_default():
    import subprocess
    import sys

    code = ("from PySide6.QtCore import QCoreApplication; a = QCoreApplication([]);"
            "from app.ui.i18n import resolve_language; print(resolve_language('system'))")
    seen = {}
    for loc in ("zh_CN.UTF-8", "C.UTF-8"):
        env = {**__import__("os").environ, "LC_ALL": loc, "LANG": loc, "LANGUAGE": ""}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
        seen[loc] = out.stdout.strip()
    assert seen == {"zh_CN.UTF-8": "zh_CN", "C.UTF-8": "en"}
