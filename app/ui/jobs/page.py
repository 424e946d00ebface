"""The Jobs page: start a training command detached on a host (the start form), the jobs with their state,
runtime, steps/s, ETA and the cost of the run so far, the chosen job's live log tail, and Stop.

Everything blocking runs through ``ctx.runner``: the list is read from the store (the jobs survive a
restart there), the chosen running job is refreshed from its host every few seconds (status, only its new
log bytes, progress: app.usecases.jobs.refresh), and its log is followed from an offset (only new bytes,
shown by a bounded plain-text view). The watcher (window, tray or ``labgpu watch``) acts on a job's end.
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QMessageBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.vocab import JobState
from app.ui import theme
from app.ui.context import AppContext
from app.ui.jobs.logview import LogView
from app.ui.jobs.rows import (
    JobRow,
    argv_line,
    cost_text,
    details_text,
    duration_text,
    load_rows,
    progress_text,
    rate_text,
    state_text,
)
from app.ui.jobs.start_dialog import StartJobDialog
from app.ui.shared.fit_columns import fit_columns, refit
from app.ui.shared.plain import PlainLabel, ask, cap, plain_tooltip
from app.ui.widgets import remember_splitter, toolbar_button
from app.usecases.changes import Change

LIST_MS = 5_000  # the store is read again this often (another process's refreshes), and on Change.JOBS
REFRESH_MS = 5_000  # the chosen running job is asked of its host this often
TAIL_BYTES = 64 * 1024  # the log tail starts this far before the end
COLUMNS = 9
ELIDE = (0, 8)  # the name and the last line give up width first; the host (an instance id) never does


class JobsPage(QWidget):
    page_id = "jobs"

    @staticmethod
    def nav_title() -> str:
        return QCoreApplication.translate("JobsPage", "Jobs")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.rows: list[JobRow] = []
        self.dialog: StartJobDialog | None = None
        self.start_task: Any = None
        self.stop_task: Any = None
        self.list_task: Any = None
        self.refresh_task: Any = None
        self.follow_task: Any = None
        self.followed: str | None = None  # the job whose log the view shows
        self._choose: str | None = None  # a job just started: chosen once the list has it
        self._reload = False
        self._closed = False

        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 20, 24, 16)
        title = PlainLabel(self.tr("Jobs"), self)
        title.setStyleSheet("font-size: 20px; font-weight: 600;")
        outer.addWidget(title)
        sub = PlainLabel(self.tr("Training runs started on a host, detached: they keep running when the "
                                 "connection drops, the laptop sleeps or LabGPU closes. When one ends, LabGPU can "
                                 "pull its results and stop the instance."), self)
        sub.setWordWrap(True)
        sub.setStyleSheet("color: palette(mid);")
        outer.addWidget(sub)

        bar = QHBoxLayout()
        self.new_button = toolbar_button(self, self.tr("&New job…"), self._on_new_button_clicked, bar,
                                         self.tr("Start a command on a host (Ctrl+N)"))
        self.stop_button = toolbar_button(self, self.tr("&Stop…"), self._on_stop_button_clicked, bar,
                                          self.tr("Stop the chosen job: TERM, then KILL after 10 s (Del)"))
        self.refresh_button = toolbar_button(self, self.tr("&Refresh"), self._on_refresh_button_clicked, bar,
                                             self.tr("Ask the hosts about every job now (F5)"))
        self.recovery_button = toolbar_button(self, self.tr("Spot re&covery…"), self._on_recovery_button_clicked,
                                              bar, self.tr("What LabGPU does by itself when the chosen job's spot "
                                                           "instance is reclaimed"))
        self.recovery_button.setObjectName("jobRecovery")
        bar.addStretch(1)
        self.status_label = PlainLabel(self)
        self.status_label.setObjectName("jobsStatus")
        self.status_label.setStyleSheet("color: palette(mid);")
        bar.addWidget(self.status_label)
        outer.addLayout(bar)

        self.table = QTableWidget(0, COLUMNS, self)
        self.table.setObjectName("jobsTable")
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setVisible(False)
        self.table.itemSelectionChanged.connect(self._on_selection_changed)
        fit_columns(self.table, ELIDE)

        log_box = QWidget(self)
        log_layout = QVBoxLayout(log_box)
        log_layout.setContentsMargins(0, 6, 0, 0)
        self.details_label = PlainLabel(log_box)
        self.details_label.setObjectName("jobDetails")
        self.details_label.setWordWrap(True)
        self.details_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        log_layout.addWidget(self.details_label)
        self.argv_label = PlainLabel(log_box)
        self.argv_label.setObjectName("jobArgvShown")
        self.argv_label.setStyleSheet("color: palette(mid);")
        self.argv_label.setWordWrap(True)  # a long command wraps between its arguments
        self.argv_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        log_layout.addWidget(self.argv_label)
        self.log_title = PlainLabel(self.tr("Log"), log_box)
        self.log_title.setStyleSheet("font-weight: 600;")
        log_layout.addWidget(self.log_title)
        self.log_view = LogView(log_box)
        log_layout.addWidget(self.log_view, 1)

        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.table)
        split.addWidget(log_box)
        split.setSizes([200, 320])
        split.setChildrenCollapsible(False)
        remember_splitter(split, ctx.settings, "jobs")
        outer.addWidget(split, 1)
        self._retranslate_headers()

        self.list_timer = QTimer(self)
        self.list_timer.setInterval(LIST_MS)
        self.list_timer.timeout.connect(self.load)
        self.list_timer.start()
        self.refresh_timer = QTimer(self)
        self.refresh_timer.setInterval(REFRESH_MS)
        self.refresh_timer.timeout.connect(self.refresh_chosen)
        self.refresh_timer.start()
        ctx.changed.connect(self._on_changed)
        QShortcut(QKeySequence.StandardKey.New, self, self._on_new_button_clicked)
        QShortcut(QKeySequence.StandardKey.Delete, self.table, self._on_stop_button_clicked)
        QShortcut(QKeySequence.StandardKey.Refresh, self, self._on_refresh_button_clicked)
        QShortcut(QKeySequence("Ctrl+L"), self, self.log_view.setFocus)
        self._update_buttons()
        self._show_details()
        self.load()

    def _retranslate_headers(self) -> None:
        self.table.setHorizontalHeaderLabels([
            self.tr("Name"), self.tr("Host"), self.tr("State"), self.tr("Runtime"), self.tr("Step"),
            self.tr("Steps/s"), self.tr("ETA"), self.tr("Cost so far"), self.tr("Last line")])

    # the list ------------------------------------------------------------------------------------------
    @Slot(object)
    def _on_changed(self, kinds: object) -> None:
        if isinstance(kinds, frozenset) and (Change.JOBS in kinds or Change.LEDGER in kinds):
            self.load()

    @Slot()
    def load(self) -> Any:
        """Read the jobs from the store (a task); a change meanwhile reads them again after it."""
        if self._closed:
            return None
        if self.list_task is not None:
            self._reload = True
            return self.list_task
        self._reload = False
        self.list_task = self.ctx.runner.run(self, load_rows, self.ctx.paths, self.ctx.store, name="jobs-list",
                                             on_done=self._on_rows_loaded, on_error=self._on_list_failed)
        return self.list_task

    def _list_done(self) -> bool:
        self.list_task = None
        if self._reload:
            self.load()
            return True
        return False

    @Slot(object)
    def _on_rows_loaded(self, rows: list[JobRow]) -> None:
        if self._list_done():
            return
        chosen = self._choose or self.chosen_id()
        self.rows = sorted(rows, key=lambda r: (r.rec.state != JobState.RUNNING, -r.rec.created_at))
        self.table.setRowCount(len(self.rows))
        now = time.time()
        for i, row in enumerate(self.rows):
            self._fill_row(i, row, now)
        refit(self.table, ELIDE)
        running = sum(1 for r in self.rows if r.rec.state == JobState.RUNNING)
        self.status_label.setText(self.tr("{running} running · {all} in all").format(running=running,
                                                                                  all=len(self.rows)))
        ids = [r.rec.id for r in self.rows]
        if chosen in ids:
            self._choose = None
            self.table.selectRow(ids.index(chosen))
        elif self.rows:
            self.table.selectRow(0)
        self._show_details()
        self._update_buttons()

    def _fill_row(self, i: int, row: JobRow, now: float) -> None:
        rec = row.rec
        cells = [rec.display_name, rec.host, state_text(rec, row.stalled), duration_text(row.runtime_s(now)),
                 progress_text(rec), rate_text(rec.steps_per_s), duration_text(rec.eta_s), cost_text(row, now),
                 rec.last_line]
        for c, text in enumerate(cells):
            text = cap(text, 500)
            item = self.table.item(i, c)
            if item is None:
                item = QTableWidgetItem(text)
                if 3 <= c <= 7:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(i, c, item)
            elif item.text() != text:
                item.setText(text)
            tip = text if c in (0, 1, 8) else rec.error if c == 2 else ""
            item.setToolTip(plain_tooltip(tip) if tip else "")
            if c == 2:  # the stall badge (not the idle guard's: a job can stall on a busy GPU) stands out
                item.setForeground(theme.color("error") if row.stalled else self.table.palette().text().color())

    @Slot(object)
    def _on_list_failed(self, exc: object) -> None:
        from app.ui.errors import describe

        if self._list_done():
            return
        message, hint = describe(exc)  # type: ignore[arg-type]
        self.status_label.setText(self.tr("The jobs could not be read: {message} {hint}").format(
            message=message, hint=hint))

    def chosen_row(self) -> JobRow | None:
        model = self.table.selectionModel()
        rows = model.selectedRows() if model is not None else []
        if not rows:
            return None
        i = rows[0].row()
        return self.rows[i] if 0 <= i < len(self.rows) else None

    def chosen_id(self) -> str | None:
        row = self.chosen_row()
        return row.rec.id if row is not None else None

    def _show_details(self) -> None:
        row = self.chosen_row()
        self.details_label.setText(details_text(row) + "\n" + self._recovery_text(row) if row is not None else
                                   self.tr("No job yet: New job… starts a command on a host."))
        self.argv_label.setText(self.tr("Command: {argv}").format(argv=cap(argv_line(row.rec), 600))
                                if row is not None else "")

    def _recovery_text(self, row: Any) -> str:
        from app.core.recoverypolicy import JOB, RecoveryPolicyStore
        from app.ui.shared.recovery_ui import policy_summary

        return policy_summary(RecoveryPolicyStore(self.ctx.store).get(JOB, row.rec.id))

    @Slot()
    def _on_recovery_button_clicked(self) -> None:
        self.edit_recovery()

    def edit_recovery(self) -> Any:
        """The chosen job's spot recovery policy in a dialog (saved to the store the watcher reads)."""
        from app.core.recoverypolicy import JOB
        from app.ui.shared.recovery_ui import RecoveryDialog

        row = self.chosen_row()
        if row is None:
            return None
        dialog = RecoveryDialog(self.ctx, JOB, row.rec.id, row.rec.display_name, self)
        dialog.saved.connect(lambda _p: self._show_details())
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def _update_buttons(self) -> None:
        row = self.chosen_row()
        self.new_button.setEnabled(self.start_task is None)
        self.recovery_button.setEnabled(row is not None)
        self.stop_button.setEnabled(row is not None and row.rec.state == JobState.RUNNING and self.stop_task is None)

    @Slot()
    def _on_selection_changed(self) -> None:
        self._show_details()
        self._update_buttons()
        row = self.chosen_row()
        if row is not None and row.rec.id != self.followed:
            self.follow(row)

    # the chosen job: refresh and log tail ---------------------------------------------------------------
    @Slot()
    def refresh_chosen(self) -> Any:
        """Ask the chosen running job's host about it (status, new log bytes, progress): a task."""
        row = self.chosen_row()
        if self._closed or row is None or row.rec.state != JobState.RUNNING or self.refresh_task is not None \
                or not self.isVisible():  # another page is shown: the watcher refreshes every job meanwhile
            return None
        from app.usecases.jobs import refresh

        def done(_rec: object) -> None:
            self.refresh_task = None
            self.load()

        def failed(exc: BaseException) -> None:
            from app.ui.errors import describe

            self.refresh_task = None
            message, _hint = describe(exc)
            self.status_label.setText(self.tr("{host} could not be asked: {message}").format(
                host=row.rec.host, message=message))
            self.load()

        self.refresh_task = self.ctx.runner.run(self, refresh, self.ctx.paths, self.ctx.store, row.rec.id,
                                                changes=self.ctx.changes, name="jobs-refresh", on_done=done,
                                                on_error=failed)
        return self.refresh_task

    def follow(self, row: JobRow) -> Any:
        """Show the job's log: its last TAIL_BYTES, then only new bytes as they come (a task)."""
        if self.follow_task is not None:
            self.follow_task.cancel()
            self.follow_task = None
        self.followed = row.rec.id
        self.log_view.reset()
        self.log_title.setText(self.tr("Log of {name}").format(name=row.rec.display_name))
        from app.usecases.jobs import follow

        paths, store, job_id = self.ctx.paths, self.ctx.store, row.rec.id

        def run(task: Any = None) -> None:
            for chunk in follow(paths, store, job_id, from_offset=-TAIL_BYTES, stop_event=task.cancel_event):
                task.report(chunk)

        def failed(exc: BaseException) -> None:
            from app.ui.errors import describe

            message, _hint = describe(exc)
            self.log_view.feed("\n" + self.tr("[the log could not be read: {message}]").format(message=message) + "\n")

        self.follow_task = self.ctx.runner.run(self, run, name="jobs-log", on_progress=self.log_view.feed,
                                               on_error=failed)
        return self.follow_task

    # start and stop -------------------------------------------------------------------------------------
    def host_names(self) -> list[str]:
        from app.usecases.hosts import all_hosts

        return [e.name for e in all_hosts(self.ctx.paths, self.ctx.store)]

    @Slot()
    def _on_new_button_clicked(self) -> None:
        if self.start_task is not None or self.dialog is not None:
            return
        from app.core.syncpairs import SyncStore

        row = self.chosen_row()
        self.dialog = StartJobDialog(self.host_names(), SyncStore(store=self.ctx.store).pairs(), self,
                                     host=row.rec.host if row is not None else "")
        self.dialog.accepted.connect(self._on_dialog_accepted)
        self.dialog.finished.connect(self._on_dialog_finished)
        self.dialog.open()

    @Slot(int)
    def _on_dialog_finished(self, _result: int) -> None:
        if self.dialog is not None:
            self.dialog.deleteLater()
            self.dialog = None

    @Slot()
    def _on_dialog_accepted(self) -> None:
        if self.dialog is None:
            return
        spec = self.dialog.spec()
        self.start(spec, self.dialog.recovery_policy())

    def start(self, spec: Any, recovery: Any = None) -> Any:
        """Start ``spec`` (a JobSpec) in a task; the steps it takes show in the status line. ``recovery``: the
        job's spot recovery policy (app.core.recoverypolicy), saved for it once it started."""
        from app.usecases.jobs import start_job

        paths, store, changes = self.ctx.paths, self.ctx.store, self.ctx.changes

        def run(task: Any = None) -> Any:
            rec = start_job(paths, store, spec, on_step=task.report if task is not None else None, changes=changes)
            if recovery is not None:
                from app.core.recoverypolicy import JOB, RecoveryPolicyStore

                RecoveryPolicyStore(store).set(JOB, rec.id, recovery)
            return rec

        def done(rec: Any) -> None:
            self.start_task = None
            self.status_label.setText(self.tr("{name} runs on {host}.").format(name=rec.display_name, host=rec.host))
            self._choose = rec.id
            self.load()
            self._update_buttons()

        def failed(exc: BaseException) -> None:
            self.start_task = None
            self.status_label.setText(self.tr("The job was not started."))
            self._update_buttons()
            self.ctx.errors.report(exc)

        self.status_label.setText(self.tr("Starting {name} on {host}…").format(
            name=spec.name or (spec.argv[0] if spec.argv else ""), host=spec.host))
        self.start_task = self.ctx.runner.run(self, run, name="jobs-start", on_done=done, on_error=failed,
                                              on_progress=self.status_label.setText)
        self._update_buttons()
        return self.start_task

    @Slot()
    def _on_stop_button_clicked(self) -> None:
        row = self.chosen_row()
        if row is None or row.rec.state != JobState.RUNNING or self.stop_task is not None:
            return
        if self.ctx.errors.interactive:
            answer = ask(self, self.tr("Stop job"),
                         self.tr("Stop {name} on {host}? It gets TERM, then KILL after 10 seconds; what it did not "
                                 "save is lost.").format(name=row.rec.display_name, host=row.rec.host))
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.stop(row.rec.id)

    def stop(self, job_id: str) -> Any:
        from app.usecases.jobs import stop_job

        def done(rec: Any) -> None:
            self.stop_task = None
            self.status_label.setText(self.tr("{name} stopped ({state}).").format(name=rec.display_name,
                                                                                  state=state_text(rec)))
            self.load()

        def failed(exc: BaseException) -> None:
            self.stop_task = None
            self.status_label.setText(self.tr("The job was not stopped."))
            self._update_buttons()
            self.ctx.errors.report(exc)

        self.stop_task = self.ctx.runner.run(self, stop_job, self.ctx.paths, self.ctx.store, job_id,
                                             changes=self.ctx.changes, name="jobs-stop", on_done=done,
                                             on_error=failed)
        self._update_buttons()
        return self.stop_task

    @Slot()
    def _on_refresh_button_clicked(self) -> Any:
        from app.usecases.jobs import list_jobs

        paths, store, changes = self.ctx.paths, self.ctx.store, self.ctx.changes

        def run() -> int:
            return len(list_jobs(paths, store, refresh=True, changes=changes))

        self.status_label.setText(self.tr("Asking the hosts…"))
        return self.ctx.runner.run(self, run, name="jobs-refresh-all", on_done=lambda _n: self.load(),
                                   on_error=self._on_list_failed)

    # page protocol --------------------------------------------------------------------------------------
    def activate(self, payload: object) -> None:
        """``{"job": id}`` (the tray's notification of a job's end) chooses that job."""
        if isinstance(payload, dict) and payload.get("job"):
            self._choose = str(payload["job"])
            self.load()

    def refresh(self) -> None:
        self.load()

    def shutdown(self) -> None:
        self._closed = True
        self.list_timer.stop()
        self.refresh_timer.stop()
        for task in (self.follow_task, self.refresh_task, self.list_task):
            if task is not None:
                task.cancel()
