"""The Jobs page driven like a user (pytest-qt) against the real sshd running the training stand-in: the
start form splits the command as a shell splits words and shows the argument list, the job starts, its
steps/s and step and its log tail update as it runs, Stop ends it; the jobs are read back after a restart
of the page (the store)."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.remote.gpu_support import save_host

STANDIN = Path(__file__).resolve().parents[1] / "fixtures" / "train_standin.py"
SITE = sysconfig.get_paths()["purelib"]
pytestmark = pytest.mark.usefixtures("private_home")


@pytest.fixture
def script(sshd) -> str:
    save_host(sshd, "gpu1")
    folder = sshd.remote_dir("jobs-page")
    (folder / "train_standin.py").write_text(STANDIN.read_text())
    sshd.chown_to_user(folder)
    return str(folder / "train_standin.py")


def _page(app_window):
    _ctx, window = app_window
    assert window.show_page("jobs")
    page = window.pages["jobs"]
    page.refresh_timer.setInterval(300)  # the chosen job is asked of its host more often than a user needs
    return page


def _cell(page, col: int) -> str:
    row = page.table.currentRow() if page.table.currentRow() >= 0 else 0
    item = page.table.item(row, col)
    return item.text() if item is not None else ""


def test_start_watch_progress_and_log_then_stop(qtbot, app_window, script):
    page = _page(app_window)
    assert page.table.rowCount() == 0 and "No job yet" in page.details_label.text()
    qtbot.mouseClick(page.new_button, Qt.MouseButton.LeftButton)
    dlg = page.dialog
    assert dlg is not None and dlg.isVisible()
    dlg.host_combo.setCurrentText("gpu1")
    dlg.command_edit.setText('python3 "unclosed')
    assert "Not a complete command" in dlg.argv_label.text()
    dlg.command_edit.setText(f"python3 {script} --steps 3000 --sleep 0.02 --site {SITE} --echo-argv 'a b' '$HOME;x'")
    assert dlg.argv == ["python3", script, "--steps", "3000", "--sleep", "0.02", "--site", SITE, "--echo-argv",
                        "a b", "$HOME;x"]
    assert '"a b", "$HOME;x"]' in dlg.argv_label.text()
    dlg.name_edit.setText("standin")
    qtbot.mouseClick(dlg.start_button, Qt.MouseButton.LeftButton)
    assert page.dialog is None

    qtbot.waitUntil(lambda: bool(page.rows) and page.chosen_row() is not None and _cell(page, 2) == "running",
                    timeout=30_000)
    assert _cell(page, 0) == "standin" and _cell(page, 1) == "gpu1"
    assert _cell(page, 7) == "—"  # a saved server: LabGPU knows no price
    # the log tail: the arguments arrived exactly, and the bar moves
    qtbot.waitUntil(lambda: any(line.startswith("ARGV ") for line in page.log_view.lines()), timeout=30_000)
    assert 'ARGV ["a b", "$HOME;x"]' in page.log_view.lines()
    qtbot.waitUntil(lambda: "it/s" in page.log_view.toPlainText(), timeout=30_000)
    first_bar = page.log_view.lines()[-1]
    qtbot.waitUntil(lambda: page.log_view.lines()[-1] != first_bar and "it/s" in page.log_view.lines()[-1],
                    timeout=30_000)
    assert sum("it/s" in line for line in page.log_view.lines()) == 1  # a redrawn bar stays one line
    # steps/s and the step from the host's refreshes
    qtbot.waitUntil(lambda: _cell(page, 5) not in ("", "—") and _cell(page, 4) not in ("", "—"), timeout=30_000)
    rate = float(_cell(page, 5).replace(",", ""))
    assert 5 < rate < 60  # the stand-in sleeps 0.02 s a step
    step = _cell(page, 4)
    qtbot.waitUntil(lambda: _cell(page, 4) != step, timeout=30_000)
    assert _cell(page, 6) != "—"  # an ETA from the total

    page.window().activateWindow()  # the start dialog had the focus: keys reach the window again
    qtbot.waitUntil(page.isActiveWindow, timeout=5_000)
    qtbot.keyClick(page.table, Qt.Key.Key_Delete)  # Stop (asks first when interactive)
    assert page.stop_task is not None
    qtbot.waitUntil(lambda: _cell(page, 2).startswith("exited"), timeout=30_000)
    assert not page.stop_button.isEnabled()


def test_the_jobs_survive_a_new_page(qtbot, app_window, script):
    from app.core.jobs import JobSpec
    from app.core.paths import default_paths
    from app.usecases.jobs import start_job

    ctx, window = app_window
    rec = start_job(default_paths(), ctx.store, JobSpec(host="gpu1", argv=["python3", script, "--steps", "3",
                                                                          "--sleep", "0.01", "--site", SITE],
                                                        name="short"))
    page = _page(app_window)
    qtbot.waitUntil(lambda: [r.rec.id for r in page.rows] == [rec.id], timeout=10_000)
    qtbot.waitUntil(lambda: "standin: 3 steps" in page.log_view.toPlainText(), timeout=30_000)
    qtbot.waitUntil(lambda: _cell(page, 2) == "exited 0", timeout=30_000)
    assert "then: nothing" in page.details_label.text()
    assert not page.stop_button.isEnabled()


def test_the_tray_names_a_job_that_ends_and_opens_the_jobs_page(qtbot, labgpu_home, script):
    """A real watcher's event (the job failed on the sshd host) becomes the tray's notification naming it."""
    import threading

    from app.core.jobs import JobSpec
    from app.core.paths import default_paths
    from app.ui.context import AppContext
    from app.ui.tray import CostTray
    from app.usecases import jobs as usecase
    from app.watch import Watcher

    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    navigated: list[tuple[str, object]] = []
    ctx.navigate_requested.connect(lambda page, payload: navigated.append((page, payload)))
    tray = CostTray(ctx, open_window=lambda: None, quit_app=lambda: None)
    watcher = Watcher(ctx.paths, store=ctx.store, notify=tray.post_event)
    try:
        rec = usecase.start_job(ctx.paths, ctx.store, JobSpec(
            host="gpu1", argv=["python3", script, "--steps", "3", "--sleep", "0.01", "--site", SITE, "--exit", "2"],
            name="bert"))
        stop = threading.Event()
        for _chunk in usecase.follow(ctx.paths, ctx.store, rec.id, stop_event=stop, poll_s=0.1):
            pass  # until the job has ended and its log is read
        with qtbot.waitSignal(tray.notified, timeout=10_000) as shown:
            [ev] = watcher.check_jobs()
        assert shown.args[0] == "Job bert failed on gpu1"
        assert shown.args[1] == ev.message and "exit code 2" in ev.message
        tray._on_icon_message_clicked()
        assert navigated == [("jobs", {"job": rec.id})]
    finally:
        watcher.close()
        tray.close()
        ctx.shutdown(5000)


def test_the_monitor_plots_a_jobs_steps_per_second_under_utilization(qtbot, labgpu_home):
    """The monitor reads the steps/s the refreshes store and draws them beside the GPUs' utilization."""
    from app.core.jobs import JobRecord, JobStore
    from app.core.paths import default_paths
    from app.ui.context import AppContext
    from app.ui.monitor.page import MonitorPage
    from tests.ui.monitor_data import FeedSource

    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    import time

    src = FeedSource()
    src.load("gpu1", time.time(), 300, gpus=1)
    page = MonitorPage(ctx, hub=src, autostart=False)
    qtbot.addWidget(page)
    page.resize(1000, 800)
    page.show()
    try:
        page.watch("gpu1", remember=False)
        page.rebuild()
        jobs = JobStore(ctx.store)
        t0 = time.time() - 30
        rec = JobRecord(id="0123456789abcdef", host="gpu1", name="standin", checked_at=t0, steps_per_s=12.5)
        jobs.save(rec)
        plots = page.panels["gpu1"].plots
        page.load_steps()
        qtbot.waitUntil(lambda: rec.id in plots.steps_curves, timeout=10_000)
        assert plots.ci.getItem(0, 0) is plots.main_plot() and plots.ci.getItem(1, 0) is plots.steps_plot()
        assert plots.ci.getItem(2, 0) is plots.plots["memory_used_mib"]
        page.redraw()
        qtbot.waitUntil(lambda: plots.steps_plot().viewRange()[0][1] > time.time() - 60, timeout=5_000)
        assert page.following and not page.live_button.isVisibleTo(page)  # its arrival is not a user's zoom
        rec.checked_at, rec.steps_per_s = t0 + 15, 14.0
        jobs.save(rec)
        qtbot.waitUntil(lambda: page._jobs_task is None, timeout=10_000)
        page.load_steps()
        qtbot.waitUntil(lambda: len(plots.steps_curves[rec.id].getData()[0]) == 2, timeout=10_000)
        x, y = plots.steps_curves[rec.id].getData()
        assert list(x) == [t0, t0 + 15] and list(y) == [12.5, 14.0]
    finally:
        page.shutdown()
        ctx.shutdown(5000)


def test_the_log_view_keeps_a_terminal_s_lines_bounded_whatever_the_log(qtbot):
    """Carriage-return bars stay one line, colour codes and binary junk are dropped, lines and their count
    are capped: a log of any size or content leaves a bounded view."""
    from app.ui.jobs.logview import MAX_LINE_CHARS, MAX_LINES, LogView

    view = LogView()
    qtbot.addWidget(view)
    view.feed("start\n\x1b[32mgreen\x1b[0m\n 10%|#  | 1/10")
    view.feed("\r 20%|## | 2/10")
    view.feed("\r 30%|###| 3/10\nnext")
    assert view.lines() == ["start", "green", " 30%|###| 3/10", "next"]
    view.feed(" line\n" + "\x00\x01\xff\ufffd binary\n")
    assert view.lines()[-3:] == ["next line", "\xff\ufffd binary", ""]
    view.feed("x" * (3 * MAX_LINE_CHARS) + "\n")
    assert len(view.lines()[-2]) == MAX_LINE_CHARS
    view.feed("".join(f"row {i}\n" for i in range(3 * MAX_LINES)))
    lines = view.lines()
    assert len(lines) <= MAX_LINES and lines[-2] == f"row {3 * MAX_LINES - 1}"
    view.feed("\r".join(f"{i}/1000000" for i in range(200_000)))  # a bar redrawn for ever, no newline
    assert view.lines()[-1] == "199999/1000000" and len(view.lines()) <= MAX_LINES


def test_a_host_s_markup_shows_literally_on_the_jobs_page(qtbot, app_window):
    from app.core.jobs import JobRecord, JobStore
    from app.core.vocab import JobState

    ctx, _window = app_window
    hostile = '<img src="file:///dev/zero"><a href="https://evil.example">click</a>'
    JobStore(ctx.store).save(JobRecord(id="00000000000000aa", host="gpu1", name="<b>bold</b>", argv=[hostile],
                                       state=JobState.EXITED, exit_code=0, runtime_s=5, last_line=hostile,
                                       then_done="pulled; <i>odd</i>", error=hostile))
    page = _page(app_window)
    qtbot.waitUntil(lambda: page.table.rowCount() == 1, timeout=10_000)
    assert _cell(page, 0) == "<b>bold</b>" and _cell(page, 8) == hostile
    assert hostile in page.details_label.text() and "<i>odd</i>" in page.details_label.text()
    assert page.details_label.textFormat() == Qt.TextFormat.PlainText
    assert '<img src=\\"file:///dev/zero\\">' in page.argv_label.text()  # the argument list as JSON, literally
    assert page.argv_label.textFormat() == Qt.TextFormat.PlainText


def test_a_stalled_job_wears_its_stall_badge(qtbot, app_window):
    """No progress for its stall minutes while it runs: the state says stalled (the idle guard's badge is
    the monitor's; a job can stall on a busy GPU)."""
    import time

    from app.core.jobs import JobRecord, JobStore

    ctx, _window = app_window
    jobs = JobStore(ctx.store)
    rec = JobRecord(id="00000000000000bb", host="nowhere", name="stuck", stall_minutes=1,
                    last_progress_at=time.time() - 120)
    jobs.save(rec)
    page = _page(app_window)
    page.refresh_timer.stop()  # the host does not exist: only the store's record is shown
    qtbot.waitUntil(lambda: _cell(page, 2) == "stalled 1 min", timeout=10_000)
    rec.last_progress_at = time.time()
    jobs.save(rec)
    page.load()
    qtbot.waitUntil(lambda: _cell(page, 2) == "running", timeout=10_000)
