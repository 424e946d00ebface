"""Export a chosen time range of one host's GPU history to CSV (core ``export_csv``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QDateTime, Qt, QTimeZone, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.shared.plain import PlainLabel

if TYPE_CHECKING:
    from app.ui.context import AppContext
    from app.ui.tasks import Task
    from app.watch.hub import MonitorHub


class ExportDialog(QDialog):
    exported = Signal(str, int)  # path, rows

    def __init__(self, ctx: AppContext, hub: MonitorHub, hosts: list[str], t0: float, t1: float,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.hub = hub
        self.rows_written: int | None = None
        self.setObjectName("exportDialog")
        self.setWindowTitle(self.tr("Export GPU history"))
        self.setMinimumWidth(520)
        layout = QVBoxLayout(self)
        form = QFormLayout()
        self.host_combo = QComboBox(self)
        for h in hosts:
            self.host_combo.addItem(h, h)
        form.addRow(self.tr("Host:"), self.host_combo)
        self.from_edit = QDateTimeEdit(self)
        self.to_edit = QDateTimeEdit(self)
        for edit, t in ((self.from_edit, t0), (self.to_edit, t1)):
            edit.setCalendarPopup(True)
            edit.setDisplayFormat("yyyy-MM-dd HH:mm:ss")
            edit.setDateTime(QDateTime.fromSecsSinceEpoch(int(t), QTimeZone.systemTimeZone()))
        form.addRow(self.tr("From:"), self.from_edit)
        form.addRow(self.tr("To:"), self.to_edit)
        path_row = QHBoxLayout()
        self.path_edit = QLineEdit(self)
        self.path_edit.setText(str(Path.home() / "labgpu-gpu-history.csv"))
        browse = QPushButton(self.tr("Browse…"), self)
        browse.clicked.connect(self._on_browse_clicked)
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(browse)
        form.addRow(self.tr("File:"), path_row)
        layout.addLayout(form)
        note = PlainLabel(self.tr("1-second samples where they are still in memory (the last 24 hours), "
                              "1-minute means before. Unknown values are empty cells."), self)
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(mid);")
        layout.addWidget(note)
        self.result_label = PlainLabel(self)
        self.result_label.setObjectName("exportResult")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.result_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        self.export_button = self.buttons.addButton(self.tr("Export"), QDialogButtonBox.ButtonRole.ActionRole)
        self.export_button.setDefault(True)
        self.export_button.clicked.connect(self.export)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    @Slot()
    def _on_browse_clicked(self) -> None:
        path, _f = QFileDialog.getSaveFileName(self, self.tr("Export GPU history"), self.path_edit.text(),
                                               self.tr("CSV files (*.csv)"))
        if path:
            self.path_edit.setText(path)

    def range(self) -> tuple[float, float]:
        return (self.from_edit.dateTime().toSecsSinceEpoch() * 1.0,
                self.to_edit.dateTime().toSecsSinceEpoch() * 1.0)

    @Slot()
    def export(self) -> Task | None:
        from app.core.gpuhistory import export_csv

        host = self.host_combo.currentData()
        t0, t1 = self.range()
        path = self.path_edit.text().strip()
        if not host:
            self.result_label.setText(self.tr("Choose a host first."))
            return None
        if t1 <= t0:
            self.result_label.setText(self.tr("The end must be after the start."))
            return None
        if not path:
            self.result_label.setText(self.tr("Choose a file to write."))
            return None
        self.export_button.setEnabled(False)
        self.result_label.setText(self.tr("Exporting…"))

        def done(rows: int) -> None:
            self.export_button.setEnabled(True)
            self.rows_written = rows
            if self.rows_written == 0:
                self.result_label.setText(self.tr("Nothing recorded for {host} in that range; {path} has only "
                                                  "the header.").format(host=host, path=path))
            else:
                self.result_label.setText(self.tr("{rows} rows written to {path}.").format(
                    rows=self.rows_written, path=path))
            self.exported.emit(path, self.rows_written)

        def failed(exc: BaseException) -> None:
            from app.ui.errors import describe

            self.export_button.setEnabled(True)
            if isinstance(exc, OSError):
                message, hint = (exc.strerror or str(exc)), self.tr("Choose another folder or file name.")
            else:
                message, hint = describe(exc)
            self.result_label.setText(self.tr("Export failed: {message} {hint}").format(message=message, hint=hint))

        return self.ctx.runner.run(self, export_csv, path, self.hub.history, getattr(self.hub, "archive", None),
                                   host, t0, t1, name="monitor-export", on_done=done, on_error=failed)
