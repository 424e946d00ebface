"""Sync page: saved pairs (local folder ↔ a folder on a host, or a bucket location), a preview of what
will change, the sync itself with live progress and Cancel, and the history of runs. A bucket pair's
row shows its size and monthly storage cost, and warns when a running instance is in another region
(app/ui/remote/bucket_pairs.py works them out in the background).

All work runs through ``ctx.runner`` (listing, SSH, transfers); the page only shows results.
Mirror deletions are never applied blind: a pair with "mirror" is previewed first and the user
presses Sync again after seeing what will be deleted.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QMessageBox,
    QProgressBar,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import LabGpuError
from app.core.hosts import HostStore
from app.core.syncmodel import UP, SyncProgress, SyncResult, display_name
from app.core.syncpairs import SyncPair, SyncStore
from app.core.units import human_bytes
from app.ui import theme
from app.ui.context import AppContext
from app.ui.remote.bucket_pairs import BucketPairsPart, is_bucket_pair, where_text
from app.ui.remote.sync_history import SyncHistoryTable, fit_elided, keep_fitted
from app.ui.remote.sync_pair_dialog import SyncPairDialog
from app.ui.remote.sync_preview import MAX_PREVIEW_ROWS, PreviewModel
from app.ui.remote.sync_texts import progress_text, server_text, state_text
from app.ui.shared.plain import PlainLabel, ask, plain_tooltip
from app.ui.widgets import remember_splitter, toolbar_button
from app.usecases.changes import Change
from app.usecases.sync import JOBS, SyncJob, pair_request


class SyncPage(QWidget):
    page_id = "sync"
    STORAGE_COLUMN = 4
    ELIDED = (0, 1, 2)  # host or bucket, local folder, remote folder: elided in a narrow window

    @staticmethod
    def nav_title() -> str:
        return QCoreApplication.translate("SyncPage", "Sync")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.sync_store = SyncStore(store=ctx.store)
        self.pairs: list[SyncPair] = []
        self.dialog: SyncPairDialog | None = None
        self.dialog_keys: list[str] = []  # the key names the open dialog was given
        self.task: Any = None
        self.job: SyncJob | None = None
        self.preview_for: tuple[Any, ...] | None = None  # pair state the shown preview belongs to
        self.preview_deletions = 0
        self.last_progress: SyncProgress | None = None
        self.vpn = ""  # the VPN profile the running sync's host is reached through ("" = none)

        outer = QVBoxLayout(self)
        outer.setContentsMargins(24, 20, 24, 16)
        title = PlainLabel(self.tr("Sync"), self)
        title.setStyleSheet("font-size: 20px; font-weight: 600;")
        outer.addWidget(title)
        sub = PlainLabel(
            self.tr(
                "Keep a local folder and a folder on a host, or a bucket, in step: datasets up, "
                "checkpoints down. Unchanged files are skipped; newer files at the destination are "
                "never overwritten."
            ),
            self,
        )
        sub.setWordWrap(True)
        sub.setStyleSheet("color: palette(mid);")
        outer.addWidget(sub)

        bar = QHBoxLayout()
        self.add_button = toolbar_button(self,
            self.tr("&New pair…"),
            self._on_add_button_clicked,
            bar,
            self.tr("Add a local folder ↔ host folder or bucket pair (Ctrl+N)"),
        )
        self.edit_button = toolbar_button(self, self.tr("&Edit…"), self._on_edit_button_clicked, bar)
        self.remove_button = toolbar_button(self,
            self.tr("&Remove"),
            self._on_remove_button_clicked,
            bar,
            self.tr("Forget the pair (files are not touched)"),
        )
        bar.addStretch(1)
        self.preview_button = toolbar_button(self,
            self.tr("&Preview"),
            self._on_preview_button_clicked,
            bar,
            self.tr("List what will change without changing anything (Ctrl+P)"),
        )
        self.sync_button = toolbar_button(self,
            self.tr("&Sync now"), self._on_sync_button_clicked, bar, self.tr("Run the sync (Ctrl+Return)")
        )
        self.sync_button.setDefault(True)
        self.cancel_button = toolbar_button(self,
            self.tr("&Cancel"),
            self._on_cancel_button_clicked,
            bar,
            self.tr("Stop now; finished files stay, the rest resumes next time (Esc)"),
        )
        outer.addLayout(bar)

        self.pairs_table = QTableWidget(0, 6, self)
        self.pairs_table.setHorizontalHeaderLabels(
            [
                self.tr("Host or bucket"),
                self.tr("Local folder"),
                self.tr("Remote folder"),
                self.tr("Direction"),
                self.tr("Size · cost"),
                self.tr("Options"),
            ]
        )
        self._setup_table(self.pairs_table)
        keep_fitted(self.pairs_table, self.ELIDED)
        rows = self.pairs_table.verticalHeader().defaultSectionSize()
        self.pairs_table.setMinimumHeight(self.pairs_table.horizontalHeader().sizeHint().height() + 3 * rows + 4)
        self.buckets = BucketPairsPart(ctx, self._on_bucket_facts, self)
        self.egress_label = PlainLabel("", self)
        self.egress_label.setWordWrap(True)
        self.egress_label.setStyleSheet(f"color: {theme.css('warning')};")
        self.egress_label.setVisible(False)
        self.pairs_table.itemSelectionChanged.connect(self._on_pairs_table_selection_changed)
        self.pairs_table.doubleClicked.connect(self._on_edit_button_clicked)

        self.preview_model = PreviewModel(self)
        self.preview_table = QTableView(self)
        self.preview_table.setModel(self.preview_model)
        self._setup_table(self.preview_table)
        self.preview_table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.preview_label = PlainLabel(self.tr("Press Preview to see what will change."), self)
        self.preview_label.setWordWrap(True)

        self.history_table = SyncHistoryTable(self)
        self._setup_table(self.history_table)
        self.history_table.horizontalHeader().setSectionResizeMode(6, QHeaderView.ResizeMode.Stretch)

        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self._boxed(self.tr("Pairs"), self.pairs_table, self.egress_label))
        preview_box = self._boxed(self.tr("Preview"), self.preview_table, self.preview_label)
        split.addWidget(preview_box)
        split.addWidget(self._boxed(self.tr("History"), self.history_table))
        split.setSizes([160, 260, 160])
        split.setChildrenCollapsible(False)
        remember_splitter(split, ctx.settings, "sync")
        outer.addWidget(split, 1)

        prog = QHBoxLayout()
        self.state_label = PlainLabel(self.tr("Idle"), self)
        self.state_label.setMinimumWidth(180)
        self.progress_bar = QProgressBar(self)
        self.progress_bar.setRange(0, 1000)
        self.progress_bar.setValue(0)
        self.progress_bar.setTextVisible(True)
        self.progress_bar.setFormat("%p%")
        self.detail_label = PlainLabel("", self)
        self.detail_label.setMinimumWidth(380)
        prog.addWidget(self.state_label)
        prog.addWidget(self.progress_bar, 1)
        prog.addWidget(self.detail_label)
        outer.addLayout(prog)

        ctx.changed.connect(self._on_changed)  # a guard's pull elsewhere in the app wrote a history row
        QShortcut(QKeySequence.StandardKey.New, self, self._on_add_button_clicked)
        QShortcut(QKeySequence("Ctrl+P"), self, self._on_preview_button_clicked)
        QShortcut(QKeySequence("Ctrl+Return"), self, self._on_sync_button_clicked)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self._on_cancel_button_clicked)
        QShortcut(QKeySequence.StandardKey.Delete, self.pairs_table, self._on_remove_button_clicked)
        self.refresh()

    # building blocks ------------------------------------------------------------------------------
    @staticmethod
    def _setup_table(t: QAbstractItemView) -> None:
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setAlternatingRowColors(True)
        t.verticalHeader().setVisible(False)  # type: ignore[attr-defined]
        t.horizontalHeader().setStretchLastSection(True)  # type: ignore[attr-defined]

    def _boxed(self, title: str, *widgets: QWidget) -> QWidget:
        w = QWidget(self)
        lay = QVBoxLayout(w)
        lay.setContentsMargins(0, 6, 0, 0)
        lab = PlainLabel(title, w)
        lab.setStyleSheet("font-weight: 600;")
        lay.addWidget(lab)
        for x in widgets:
            lay.addWidget(x)
        return w

    # data -------------------------------------------------------------------------------------------
    def host_names(self) -> list[str]:
        from app.usecases.hosts import all_hosts

        return [e.name for e in all_hosts(self.ctx.paths, self.ctx.store)]

    def refresh(self) -> None:
        current = self.current_pair()
        self.pairs = self.sync_store.pairs()
        self.pairs_table.setRowCount(len(self.pairs))
        for row, p in enumerate(self.pairs):
            opts = []
            if p.excludes:
                opts.append(self.tr("1 exclude") if len(p.excludes) == 1
                            else self.tr("{count} excludes").format(count=str(len(p.excludes))))
            if p.gitignore:
                opts.append(".gitignore")
            if p.mirror_delete:
                opts.append(self.tr("mirror"))
            if p.verify:
                opts.append(self.tr("verify"))
            if p.bwlimit_kbps:
                opts.append(f"≤ {human_bytes(p.bwlimit_kbps * 1024)}/s")
            if p.encrypt_key:
                opts.append(self.tr("encrypted ({key})").format(key=p.encrypt_key))
            elif p.sse:
                opts.append(self.tr("KMS"))
            where, where_tip = where_text(p)
            cells = [
                where,
                p.local_path,
                p.remote_path,
                self.tr("Upload ↑") if p.direction == UP else self.tr("Download ↓"),
                "",
                ", ".join(opts),
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(plain_tooltip(where_tip if col == 0 else text))
                self.pairs_table.setItem(row, col, item)
            self.pairs_table.setItem(row, self.STORAGE_COLUMN, self.buckets.item(p))
        fit_elided(self.pairs_table, self.ELIDED)
        self.buckets.update(self.pairs)
        if self.pairs:
            ids = [p.id for p in self.pairs]
            row = ids.index(current.id) if current is not None and current.id in ids else 0
            self.pairs_table.selectRow(row)
        self._reload_history()
        self._update_buttons()

    def _on_bucket_facts(self, pair_id: int) -> None:
        ids = [p.id for p in self.pairs]
        if pair_id in ids:
            row = ids.index(pair_id)
            self.pairs_table.setItem(row, self.STORAGE_COLUMN, self.buckets.item(self.pairs[row]))
            fit_elided(self.pairs_table, self.ELIDED)
        self._show_egress()

    def _show_egress(self) -> None:
        pair = self.current_pair()
        warnings = self.buckets.egress(pair) if pair is not None else []
        self.egress_label.setText("\n".join(f"⚠ {w}" for w in warnings[:3]))
        self.egress_label.setVisible(bool(warnings))
        self._fit_egress()

    def _fit_egress(self) -> None:
        # a wrapped label in a splitter pane gets the height of one line unless it asks for more
        width = self.pairs_table.width()
        self.egress_label.setMinimumHeight(max(0, self.egress_label.heightForWidth(width)) if width > 0 else 0)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._fit_egress()

    def current_pair(self) -> SyncPair | None:
        rows = self.pairs_table.selectionModel().selectedRows() if self.pairs_table.selectionModel() else []
        if not rows:
            return None
        r = rows[0].row()
        return self.pairs[r] if 0 <= r < len(self.pairs) else None

    def _pair_key(self, p: SyncPair) -> tuple[Any, ...]:
        return (
            p.id,
            p.host,
            p.local_path,
            p.remote_path,
            p.direction,
            tuple(p.excludes),
            p.gitignore,
            p.mirror_delete,
            p.account,
            p.encrypt_key,
            p.sse,
        )

    @Slot(object)
    def _on_changed(self, kinds: object) -> None:
        if isinstance(kinds, frozenset) and Change.SYNC in kinds:
            self._reload_history()

    def _reload_history(self) -> None:
        pair = self.current_pair()
        self.history_table.show_runs(self.sync_store.runs(pair.id) if pair is not None else [])

    def _update_buttons(self) -> None:
        busy = self.task is not None
        has = self.current_pair() is not None
        self.add_button.setEnabled(not busy)
        self.edit_button.setEnabled(has and not busy)
        self.remove_button.setEnabled(has and not busy)
        self.preview_button.setEnabled(has and not busy)
        self.sync_button.setEnabled(has and not busy)
        self.cancel_button.setEnabled(busy)

    # pairs ------------------------------------------------------------------------------------------
    @Slot()
    def _on_pairs_table_selection_changed(self) -> None:
        pair = self.current_pair()
        if pair is None or self.preview_for is None or self.preview_for[0] != pair.id:
            self.preview_model.set_items([])
            self.preview_for = None
            self.preview_label.setText(self.tr("Press Preview to see what will change."))
        self._show_egress()
        self._reload_history()
        self._update_buttons()

    def _open_dialog(self, pair: SyncPair | None) -> None:
        from app.core.accounts import AccountBook
        from app.core.cryptkeys import CryptKeys

        accounts = AccountBook(self.ctx.store).list()  # the database only; the keys stay in the keyring
        keys = CryptKeys(store=self.ctx.store).names()  # names only; the keys stay in the keyring
        self.dialog_keys = keys
        self.dialog = SyncPairDialog(self.host_names(), pair, self, accounts=accounts, key_names=keys,
                                     ctx=self.ctx)
        self.dialog.accepted.connect(self._on_dialog_accepted)
        self.dialog.open()

    @Slot()
    def _on_add_button_clicked(self) -> None:
        if self.task is None:
            self._open_dialog(None)

    @Slot()
    def _on_edit_button_clicked(self) -> None:
        pair = self.current_pair()
        if pair is not None and self.task is None:
            self._open_dialog(pair)

    @Slot()
    def _on_dialog_accepted(self) -> None:
        if self.dialog is None:
            return
        pair = self.dialog.pair()
        self.dialog.deleteLater()
        self.dialog = None
        if pair.encrypt_key and pair.encrypt_key not in self.dialog_keys:
            # a new LabGPU key is made in the keyring first (on a worker), then the pair is saved
            self.buckets.create_key(pair.encrypt_key, lambda: self._save_pair(pair), self.state_label.setText)
            return
        self._save_pair(pair)

    def _save_pair(self, pair: SyncPair) -> None:
        pair = self.sync_store.save(pair)
        self.refresh()
        ids = [p.id for p in self.pairs]
        if pair.id in ids:
            self.pairs_table.selectRow(ids.index(pair.id))

    @Slot()
    def _on_remove_button_clicked(self) -> None:
        pair = self.current_pair()
        if pair is None or self.task is not None or pair.id is None:
            return
        if self.ctx.errors.interactive:
            answer = ask(
                self,
                self.tr("Remove pair"),
                self.tr("Forget the pair {local} ↔ {remote}? No files are deleted.").format(
                    local=pair.local_path,
                    remote=pair.remote_path if is_bucket_pair(pair) else f"{pair.host}:{pair.remote_path}"),
            )
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.sync_store.remove(pair.id)
        self.refresh()

    # preview and sync ----------------------------------------------------------------------------
    @Slot()
    def _on_preview_button_clicked(self) -> None:
        pair = self.current_pair()
        if pair is not None and self.task is None:
            self._start(pair, dry_run=True)

    @Slot()
    def _on_sync_button_clicked(self) -> None:
        pair = self.current_pair()
        if pair is None or self.task is not None:
            return
        if pair.mirror_delete and self.preview_for != self._pair_key(pair):
            # never delete blind: show what would go, then the user presses Sync again
            self._start(pair, dry_run=True, then_confirm=True)
            return
        self._start(pair, dry_run=False)

    def _start(self, pair: SyncPair, *, dry_run: bool, then_confirm: bool = False) -> None:
        self.last_progress = None
        # one job per pair in this app: a guard's pull of the same pair runs before or after it, never
        # beside it; the use case decides what the history keeps (a failed preview is not kept)
        if is_bucket_pair(pair):
            # the bucket engine's tables register when its state module is imported: have them in the
            # app's database (opened before) before the job's thread uses it
            import app.core.bucketstate  # noqa: F401

            self.ctx.store.migrate()
        self.vpn = self._vpn_of(pair)  # "waiting for the VPN" only where a VPN is involved
        request = pair_request(pair, pair.options(dry_run=dry_run))
        job = self.job = JOBS.start(request, paths=self.ctx.paths, store=self.sync_store,
                                    changes=self.ctx.changes)

        def wait(task: Any = None) -> SyncResult:
            stop = job.on_progress(task.report) if task is not None else None
            try:
                return job.result()
            finally:
                if stop is not None:
                    stop()

        def done(result: SyncResult) -> None:
            self._on_task_done(pair, result, dry_run, then_confirm)

        self.task = self.ctx.runner.run(
            self,
            wait,
            name="sync",
            on_done=done,
            on_error=self._on_task_failed,
            on_progress=self._on_task_progress,
        )
        self.state_label.setText(self.tr("Previewing…") if dry_run else self.tr("Starting…"))
        self.progress_bar.setValue(0)
        self.progress_bar.setRange(0, 0)  # busy until the plan says how much there is
        self.detail_label.setText("")
        self._update_buttons()

    @Slot()
    def _on_cancel_button_clicked(self) -> None:
        if self.task is None:
            return
        self.state_label.setText(self.tr("Cancelling…"))
        if self.job is not None:
            self.job.cancel()  # the engine closes its connection: workers stop at once
        self.task.stop()  # the outcome (Cancelled) is still delivered, to show it and reload the history

    def _vpn_of(self, pair: SyncPair) -> str:
        """The VPN profile the pair's host is reached through, "" for a direct host or a bucket."""
        if is_bucket_pair(pair) or not pair.host:
            return ""
        try:
            rec = HostStore(store=self.ctx.store).find(pair.host)
        except (LabGpuError, sqlite3.Error):
            return ""
        return rec.via_vpn if rec is not None else ""

    @Slot(object)
    def _on_task_progress(self, p: SyncProgress) -> None:
        if not isinstance(p, SyncProgress) or self.task is None:
            return
        self.last_progress = p
        self.state_label.setText(state_text(p.state, self.vpn))
        if p.state in ("transferring", "verifying", "deleting", "done") and p.bytes_total > 0:
            self.progress_bar.setRange(0, 1000)
            self.progress_bar.setValue(int(1000 * min(1.0, p.bytes_done / p.bytes_total)))
        elif p.state in ("transferring", "done") and p.files_total > 0:
            self.progress_bar.setRange(0, 1000)
            self.progress_bar.setValue(int(1000 * p.files_done / p.files_total))
        if p.state == "waiting":
            self.detail_label.setText(self.tr("attempt {attempt} — resumes by itself").format(attempt=str(p.attempt)))
            self.detail_label.setToolTip(plain_tooltip(p.message))  # why it waits (may quote the host)
            return
        self.detail_label.setToolTip("")
        if p.files_total or p.bytes_total:
            self.detail_label.setText(progress_text(p))

    def _finish_task(self) -> None:
        self.task = None
        self.job = None
        self.progress_bar.setRange(0, 1000)
        self._update_buttons()

    def _on_task_done(self, pair: SyncPair, result: SyncResult, dry_run: bool, then_confirm: bool) -> None:
        self._finish_task()
        if dry_run:
            plan = result.plan
            items = plan.items() if plan is not None else []
            self.preview_model.set_items(items)
            self.preview_table.resizeColumnToContents(0)
            self.preview_for = self._pair_key(pair)
            self.preview_deletions = len(plan.deletions) if plan is not None else 0
            self.progress_bar.setValue(0)
            self.state_label.setText(self.tr("Preview ready"))
            self.detail_label.setText("")
            text = (
                self.tr("{files} files to transfer ({bytes}), {deleted} to delete, {skipped} unchanged, "
                        "{conflicts} conflicts.").format(
                    files=str(result.files), bytes=human_bytes(result.bytes), deleted=str(result.deleted),
                    skipped=str(result.skipped), conflicts=str(result.conflicts))
            )
            if self.preview_model.total > MAX_PREVIEW_ROWS:
                text += " " + self.tr("Showing the first {shown} of {total} changes.").format(
                    shown=str(MAX_PREVIEW_ROWS), total=str(self.preview_model.total))
            if then_confirm and self.preview_deletions:
                text += " " + self.tr("Check the deletions below, then press Sync now again to apply them.")
            elif then_confirm:
                text += " " + self.tr("Nothing would be deleted; press Sync now again to run it.")
            self.preview_label.setText(text)
        else:
            self.buckets.recount(pair)  # its size and cost changed
            self.progress_bar.setValue(1000)
            self.state_label.setText(self.tr("Done"))
            self.preview_for = None
            self.preview_model.set_items([])
            text = (
                self.tr("{files} files ({bytes}) transferred, {skipped} unchanged, {deleted} deleted in "
                        "{seconds} s.").format(
                    files=str(result.files), bytes=human_bytes(result.bytes), skipped=str(result.skipped),
                    deleted=str(result.deleted), seconds=f"{result.seconds:.1f}")
            )
            if result.conflicts:
                text += " " + self.tr("{conflicts} destination files are newer and were kept.").format(
                    conflicts=str(result.conflicts))
            if result.not_transferred:
                self.state_label.setText(self.tr("Done, but incomplete"))
                first = result.not_transferred[0]
                text += " " + (
                    self.tr("{count} items were NOT transferred, e.g. {path} ({why}).").format(
                        count=str(len(result.not_transferred)), path=display_name(first["path"]), why=first["why"])
                )
            self.preview_label.setText(text)
            self.detail_label.setText(server_text(result))
        self._reload_history()

    def _on_task_failed(self, exc: BaseException) -> None:
        cancelled = getattr(exc, "code", "") == "Cancelled"
        self._finish_task()
        self.progress_bar.setValue(0)
        self.state_label.setText(self.tr("Cancelled") if cancelled else self.tr("Failed"))
        self.detail_label.setText("")
        self._reload_history()
        if not cancelled:
            self.ctx.errors.report(exc)

    def shutdown(self) -> None:
        self.buckets.shutdown()
        if self.task is not None:
            if self.job is not None:
                self.job.cancel()
            self.task.cancel()
