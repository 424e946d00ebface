"""Start the desktop app (or render one screenshot of it and exit)."""

from __future__ import annotations

import argparse
import gc
import logging
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from PySide6.QtWidgets import QApplication

    from app.ui.context import AppContext
    from app.ui.first_run import FirstRunDialog
    from app.ui.main_window import MainWindow

log = logging.getLogger(__name__)

_damage_listener = None  # the current window's ErrorReporter.report_damage (damaged state → dialog)
TRAY_DELAY_MS = 600  # the tray starts after the first page, off the path to the first window


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x", 1))
        return max(w, 640), max(h, 480)
    except ValueError:
        return 1280, 800


def create_app(argv: list[str] | None = None) -> QApplication:
    from PySide6.QtWidgets import QApplication

    from app import APP_ID, APP_NAME

    existing = QApplication.instance()
    app = QApplication(argv or [sys.argv[0]]) if existing is None else cast(QApplication, existing)
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(APP_ID)
    app.setDesktopFileName(APP_ID)
    if not app.property(_HINTS_PROPERTY):
        from app.ui.theme import apply_color_scheme, apply_hint_color

        apply_color_scheme(app)  # a dark system scheme where the platform gives no dark palette
        apply_hint_color(app)
        hints = app.styleHints()
        if hasattr(hints, "colorSchemeChanged"):  # Qt ≥ 6.5: follow a light/dark switch
            def follow(scheme: object) -> None:
                apply_color_scheme(app, scheme)
                apply_hint_color(app)

            hints.colorSchemeChanged.connect(follow)
        app.setProperty(_HINTS_PROPERTY, True)
    return app


_HINTS_PROPERTY = "labgpuHints"  # set on the QApplication once its colour scheme is followed


def build_main_window(language_override: str | None = None,
                      defer_first_page: bool = False) -> tuple[QApplication, AppContext, MainWindow]:
    """The app's QApplication, context and window, wired but not shown (tests use this too)."""
    from app.core import damage
    from app.core.paths import default_paths
    from app.ui import i18n
    from app.ui.context import AppContext
    from app.ui.main_window import MainWindow

    app = create_app()
    paths = default_paths().ensure()
    early: list[damage.DamageNotice] = []  # found while the settings load, before the dialogs exist
    damage.add_listener(early.append)
    try:
        ctx = AppContext(paths, "en")
    finally:
        damage.remove_listener(early.append)
    global _damage_listener
    if _damage_listener is not None:  # one window per process: the previous one (tests) stops listening
        damage.remove_listener(_damage_listener)
    _damage_listener = ctx.errors.report_damage
    damage.add_listener(_damage_listener)
    for notice in early:
        ctx.errors.report_damage(notice)
    ctx.language = i18n.install(app, i18n.resolve_language(ctx.settings.language, language_override))
    window = MainWindow(ctx, defer_first_page=defer_first_page)
    app.aboutToQuit.connect(lambda: ctx.shutdown(3000))
    return app, ctx, window


def run_gui(args: argparse.Namespace) -> int:
    from app.core.logsetup import setup_logging
    from app.core.paths import default_paths

    t0 = time.perf_counter()
    if args.screenshot and not os.environ.get("QT_QPA_PLATFORM") and not os.environ.get("DISPLAY") \
            and sys.platform.startswith("linux"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    setup_logging(default_paths())
    if getattr(args, "tray", False) and not args.screenshot:
        gc.enable()  # app/__main__.py pauses it for the window's start only
        return run_tray(args)
    app, ctx, window = build_main_window(args.lang, defer_first_page=not args.screenshot)
    ctx.errors.install_hooks()
    if args.page and not window.show_page(args.page):
        print(f"labgpu: no page named {args.page!r}; pages: {', '.join(window.page_ids())}", file=sys.stderr)
        ctx.shutdown(3000)  # the first page's background loads end before the window goes, as on a quit
        return 2
    first_run = bool(getattr(args, "first_run", False))
    step = max(0, int(getattr(args, "first_run_step", 1) or 1) - 1)
    if args.screenshot:
        gc.enable()
        ctx.errors.interactive = False
        window.resize(*_parse_size(args.size))
        window.show()
        dialog = None
        if first_run:  # the welcome over the window, at its step; nothing is marked seen
            from app.ui import first_run as welcome

            dialog = welcome.FirstRunDialog(ctx, window, step)
            dialog.open()
        return _screenshot(app, ctx, window, Path(args.screenshot), dialog)
    from PySide6.QtCore import QTimer

    window.show()
    log.info("window shown after %.3f s", time.perf_counter() - t0)
    probe = os.environ.get("LABGPU_STARTUP_PROBE")
    if probe:
        QTimer.singleShot(0, lambda: print(f"LABGPU_SHOWN {time.time():.6f}", flush=True))
    QTimer.singleShot(0, window.finish_startup)
    QTimer.singleShot(0, gc.enable)  # after the first page is built (app/__main__.py paused it for the start)
    QTimer.singleShot(0, lambda: _check_database(ctx))  # a damaged database is said at start, not later
    if first_run or not probe:  # after the first page is built; a startup benchmark never waits on it
        QTimer.singleShot(0, lambda: open_welcome(ctx, window, first_run, step))
    if not probe:
        from app.ui.tray import TrayShell

        shell = TrayShell(ctx, app, window)
        ctx.services.tray = shell
        QTimer.singleShot(TRAY_DELAY_MS, shell.start)
    if probe:
        # The first page is built and its catalog loaded: what the user sees as "ready".
        def _ready() -> None:
            if ctx.runner.active():
                QTimer.singleShot(5, _ready)
                return
            print(f"LABGPU_READY {time.time():.6f}", flush=True)
            app.quit()

        QTimer.singleShot(0, _ready)
    return int(app.exec())


def open_welcome(ctx: AppContext, window: MainWindow, asked: bool, step: int) -> None:
    """The first-run welcome, once (or when asked with --first-run)."""
    from app.ui import first_run

    if asked:
        first_run.show_welcome(ctx, window, step)
    else:
        first_run.maybe_show(ctx, window)


def _check_database(ctx: AppContext) -> None:
    """Open the database once the window is shown: a damaged one is set aside and its dialog shown now."""
    from app.core.errors import LabGpuError

    try:
        _ = ctx.store
    except LabGpuError as exc:
        ctx.errors.report(exc)


def run_tray(args: argparse.Namespace) -> int:
    """``labgpu --tray``: the tray alone; Open LabGPU builds the window the first time."""
    from app.core.paths import default_paths
    from app.ui import i18n
    from app.ui.context import AppContext
    from app.ui.tray import TrayShell

    app = create_app()
    ctx = AppContext(default_paths().ensure(), "en")
    ctx.language = i18n.install(app, i18n.resolve_language(ctx.settings.language, args.lang))
    ctx.errors.install_hooks()

    def make_window() -> MainWindow:
        from app.ui.main_window import MainWindow

        window = MainWindow(ctx)
        window.finish_startup()
        return window

    shell = TrayShell(ctx, app, None, make_window)
    ctx.services.tray = shell
    app.aboutToQuit.connect(lambda: ctx.shutdown(3000))
    shell.start()
    if args.page:
        shell.show_window()
        shell.window.show_page(args.page)
    log.info("started in the tray")
    if os.environ.get("LABGPU_STARTUP_PROBE"):
        _tray_probe(ctx, app, shell).start()
    return int(app.exec())


def _tray_probe(ctx: AppContext, app: QApplication, shell: Any) -> Any:
    """LABGPU_STARTUP_PROBE with ``--tray``: once the tray has read its first costs and the guards'
    loop has made its first pass (its jobs pass ended too), print "LABGPU_TRAY_UP <epoch>" and quit
    (tests check what the tray imported by then)."""
    import threading

    from PySide6.QtCore import QTimer

    def up() -> bool:
        if not shell.tray.loaded or ctx.runner.active():
            return False
        svc = ctx.services.watch
        watcher = getattr(svc, "watcher", None)
        if getattr(svc, "active", False) and watcher is not None and watcher.passes < 1:
            return False
        return not any(t.name == "labgpu-jobs" and t.is_alive() for t in threading.enumerate())

    timer = QTimer(app)
    timer.setInterval(20)

    def check() -> None:
        if up():
            timer.stop()
            print(f"LABGPU_TRAY_UP {time.time():.6f}", flush=True)
            app.quit()

    timer.timeout.connect(check)
    return timer


def _screenshot(app: QApplication, ctx: AppContext, window: MainWindow, path: Path,
                dialog: FirstRunDialog | None = None) -> int:
    from PySide6.QtCore import QElapsedTimer

    timer = QElapsedTimer()
    timer.start()
    # Let pages finish their first background loads (up to 3 s), then paint.
    while timer.elapsed() < 3000:
        app.processEvents()
        if not ctx.runner.active() and timer.elapsed() > 300:
            break
        time.sleep(0.01)
    for _ in range(5):
        app.processEvents()
    path.parent.mkdir(parents=True, exist_ok=True)
    if dialog is not None:
        from app.ui.first_run import render

        ok = render(dialog, window).save(str(path), "PNG")
    else:
        ok = window.grab().save(str(path), "PNG")
    ctx.shutdown(3000)
    if not ok:
        print(f"labgpu: could not write {path}", file=sys.stderr)
        return 1
    print(str(path))
    return 0
