"""ctx.runner.run(owner, ...): callbacks dropped when the owner is gone or the task cancelled.

Every worker here waits on a threading.Event the test sets (no sleeps): the owner is deleted, the
page rebuilt or the task cancelled while the worker is provably still running.
"""

from __future__ import annotations

import threading

import shiboken6
from PySide6.QtWidgets import QLabel, QWidget


def _delivered(task) -> list[bool]:
    """Filled once the task's `done` reached the GUI thread (its finished/failed were queued before it).
    Connected right after ``run``, while the worker still waits on the test's barrier."""
    seen: list[bool] = []
    task.done.connect(lambda: seen.append(True))
    return seen


def test_result_for_a_live_owner_arrives(app_window, qtbot):
    ctx, _window = app_window
    owner = QLabel()
    qtbot.addWidget(owner)
    got: list[object] = []
    ctx.runner.run(owner, lambda x: x * 2, 21, name="double", on_done=lambda r: (owner.setText(str(r)), got.append(r)))
    qtbot.waitUntil(lambda: got == [42], timeout=10000)
    assert owner.text() == "42"


def test_result_for_a_deleted_owner_is_dropped(app_window, qtbot):
    ctx, _window = app_window
    barrier = threading.Event()
    started = threading.Event()
    owner = QLabel()
    owner.show()
    calls: list[str] = []

    def work() -> str:
        started.set()
        assert barrier.wait(30)
        return "late"

    def on_done(result: str) -> None:
        calls.append("done")
        owner.setText(result)  # would raise "Internal C++ object already deleted"

    def on_error(exc: BaseException) -> None:
        calls.append("error")
        owner.setText(str(exc))

    task = ctx.runner.run(owner, work, name="late", on_done=on_done, on_error=on_error,
                          on_progress=lambda _p: calls.append("progress"))
    delivered = _delivered(task)
    assert started.wait(30)
    owner.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(owner), timeout=10000)
    assert task.dropped and not task.cancelled
    barrier.set()
    qtbot.waitUntil(lambda: bool(delivered), timeout=10000)
    assert task.result == "late"
    assert calls == []
    assert ctx.runner.active() == []


def test_error_for_a_deleted_owner_is_dropped_too(app_window, qtbot):
    ctx, _window = app_window
    barrier = threading.Event()
    parent = QWidget()
    owner = QLabel(parent)  # deleted with its parent
    calls: list[BaseException] = []

    def work() -> None:
        assert barrier.wait(30)
        raise ValueError("too late")

    task = ctx.runner.run(owner, work, on_error=calls.append)
    delivered = _delivered(task)
    parent.deleteLater()
    qtbot.waitUntil(lambda: not shiboken6.isValid(owner), timeout=10000)
    barrier.set()
    qtbot.waitUntil(lambda: bool(delivered), timeout=10000)
    assert isinstance(task.error, ValueError)
    assert calls == []


def test_language_switch_while_a_page_task_runs(app_window, qtbot):
    ctx, window = app_window
    window.show_page("settings")
    old_page = window.pages["settings"]
    barrier = threading.Event()
    started = threading.Event()
    calls: list[object] = []
    reported: list[object] = []
    ctx.errors.reported.connect(reported.append)

    def work(task) -> str:
        started.set()
        assert barrier.wait(30)
        task.report("almost")
        return "result"

    def on_done(result: str) -> None:
        calls.append(result)
        old_page.language_combo.setToolTip(result)  # a child of the rebuilt (deleted) page

    task = ctx.runner.run(old_page, work, name="page-task", on_done=on_done, on_error=calls.append,
                          on_progress=calls.append)
    delivered = _delivered(task)
    assert started.wait(30)
    old_page.language_combo.setCurrentIndex(old_page.language_combo.findData("zh_CN"))
    qtbot.waitUntil(lambda: window.nav.item(window.page_ids().index("settings")).text() == "设置", timeout=10000)
    assert window.pages["settings"] is not old_page
    assert task.dropped  # retired at once, before Qt deletes it
    qtbot.waitUntil(lambda: not shiboken6.isValid(old_page), timeout=10000)
    barrier.set()
    qtbot.waitUntil(lambda: bool(delivered), timeout=10000)
    assert task.result == "result"
    assert calls == []
    assert reported == []
    # the rebuilt page's own tasks still deliver
    new_page = window.pages["settings"]
    got: list[str] = []
    ctx.runner.run(new_page, lambda: "fresh", on_done=got.append)
    qtbot.waitUntil(lambda: got == ["fresh"], timeout=10000)


def test_cancelled_task_callbacks_never_run(app_window, qtbot):
    ctx, _window = app_window
    barrier = threading.Event()
    owner = QWidget()
    qtbot.addWidget(owner)
    calls: list[object] = []

    def work() -> str:
        assert barrier.wait(30)
        return "done"

    task = ctx.runner.run(owner, work, on_done=calls.append, on_error=calls.append)
    delivered = _delivered(task)
    task.cancel()
    assert task.cancelled and task.dropped
    barrier.set()
    qtbot.waitUntil(lambda: bool(delivered), timeout=10000)
    assert task.result == "done"  # the work ran to its end (it does not look at the flag)
    assert calls == []


def test_cancel_stops_cooperative_work_early(app_window, qtbot):
    ctx, _window = app_window
    owner = QWidget()
    qtbot.addWidget(owner)
    started = threading.Event()
    calls: list[object] = []

    def work(task) -> str:
        started.set()
        while not task.wait_cancel(30):  # wakes at once on cancel
            pass
        return "stopped early"

    task = ctx.runner.run(owner, work, on_done=calls.append, on_error=calls.append)
    delivered = _delivered(task)
    assert started.wait(30)
    task.cancel()
    qtbot.waitUntil(lambda: bool(delivered), timeout=10000)
    assert task.result == "stopped early"
    assert calls == []


def test_stop_ends_cooperative_work_and_still_delivers(app_window, qtbot):
    ctx, _window = app_window
    owner = QWidget()
    qtbot.addWidget(owner)
    started = threading.Event()
    got: list[object] = []

    def work(task) -> str:
        started.set()
        assert task.cancel_event.wait(30)
        return "stopped"

    task = ctx.runner.run(owner, work, on_done=got.append)
    assert started.wait(30)
    task.stop()
    qtbot.waitUntil(lambda: got == ["stopped"], timeout=10000)
    assert task.cancelled and not task.dropped


def test_typed_services_are_created_once_and_closed_in_order(qtbot):
    import pytest

    from app.core.paths import default_paths
    from app.ui.context import AppContext
    from app.ui.shared.services import cloud_service

    ctx = AppContext(default_paths(), "en")
    closed: list[str] = []

    class Svc:
        def __init__(self, name: str) -> None:
            self.name = name

        def close(self) -> None:
            closed.append(self.name)

    ctx.services.vpn = Svc("vpn")
    ctx.services.tray = Svc("tray")
    ctx.services.hosts = Svc("hosts")
    ctx.services.vpn = ctx.services.vpn  # set again: keeps its place, as a dict key did
    with pytest.raises(AttributeError):
        ctx.services.vpnn = Svc("typo")
    svc = cloud_service(ctx)
    assert cloud_service(ctx) is svc and ctx.services.cloud is svc
    ctx.shutdown(3000)
    assert closed == ["vpn", "tray", "hosts"]
