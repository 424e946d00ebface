"""The audit log of state-changing cloud calls (time, account, action, resource, result, request id),
viewable and exportable as CSV. It never holds a secret (the core log redacts before writing)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.ui.cloud import cloud_service, error_sentence
from app.ui.cloud.cloudevents_view import CloudEventsView
from app.ui.shared.plain import PlainLabel

if TYPE_CHECKING:
    from app.ui.context import AppContext


class AuditDialog(QDialog):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.entries: list[Any] = []
        self.setObjectName("auditDialog")
        self.setWindowTitle(self.tr("Audit log of cloud actions"))
        self.resize(900, 480)
        outer = QVBoxLayout(self)
        self.tabs = QTabWidget(self)
        outer.addWidget(self.tabs, 1)
        local = QWidget(self.tabs)
        layout = QVBoxLayout(local)
        self.tabs.addTab(local, self.tr("LabGPU's calls"))
        # the cloud's own history of API calls, with the ones LabGPU did not make marked (issue 27)
        self.cloud_events = CloudEventsView(ctx, self.tabs)
        self.tabs.addTab(self.cloud_events, self.tr("Cloud events"))
        self.table = QTableWidget(0, 7, local)
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Time (local)"),
                self.tr("Account"),
                self.tr("Action"),
                self.tr("Resource"),
                self.tr("Result"),
                self.tr("Request id"),
                self.tr("Detail"),
            ]
        )
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table, 1)
        self.status_label = PlainLabel(self)
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status_label)
        bar = QHBoxLayout()
        self.export_button = QPushButton(self.tr("Export CSV…"), self)
        self.export_button.clicked.connect(self._on_export_button_clicked)
        self.reload_button = QPushButton(self.tr("Reload"), self)
        self.reload_button.clicked.connect(self.reload)
        close = QPushButton(self.tr("Close"), self)
        close.clicked.connect(self.accept)
        bar.addWidget(self.export_button)
        bar.addWidget(self.reload_button)
        bar.addStretch(1)
        layout.addLayout(bar)
        closing = QHBoxLayout()
        closing.addStretch(1)
        closing.addWidget(close)
        outer.addLayout(closing)
        self.reload()

    @Slot()
    def reload(self) -> Any:
        svc = cloud_service(self.ctx)
        return self.ctx.runner.run(
            self, svc.audit.list, name="audit-list", on_done=self._on_loaded, on_error=self._on_failed
        )

    @Slot(object)
    def _on_loaded(self, entries: object) -> None:
        self.entries = list(entries)  # type: ignore[call-overload]
        self.table.setRowCount(len(self.entries))
        for r, e in enumerate(self.entries):
            local = e.time.astimezone().strftime("%Y-%m-%d %H:%M:%S")
            values = [
                local,
                e.account,
                self.action_title(e.action),
                e.resource,
                self.result_title(e.result),
                e.request_id,
                e.detail,
            ]
            for c, v in enumerate(values):
                item = QTableWidgetItem(v)
                if c == 4 and v != "ok":
                    item.setForeground(Qt.GlobalColor.red)
                self.table.setItem(r, c, item)
        self.status_label.setText(self.tr("{n} entries, newest first.").format(n=len(self.entries)))

    def action_title(self, action: str) -> str:
        titles = {
            "launch": self.tr("launch"),
            "start": self.tr("start"),
            "stop": self.tr("stop"),
            "terminate": self.tr("terminate"),
            "recover-launch": self.tr("found after restart"),
            "cloud-foreign-call": self.tr("alerted: a cloud call not made by LabGPU"),
        }
        return titles.get(action, action)

    def result_title(self, result: str) -> str:
        if result == "ok":
            return self.tr("ok")
        return self.tr("error {code}").format(code=result.partition(":")[2] or result)

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        message, hint = error_sentence(exc)  # type: ignore[arg-type]
        self.status_label.setText(message + (f" {hint}" if hint else ""))

    @Slot()
    def _on_export_button_clicked(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            self.tr("Export the audit log"),
            str(Path.home() / "labgpu-audit.csv"),
            self.tr("CSV files (*.csv)"),
        )
        if path:
            self.export_to(Path(path))

    def export_to(self, path: Path) -> Any:
        svc = cloud_service(self.ctx)
        return self.ctx.runner.run(
            self,
            svc.audit.export_csv,
            path,
            name="audit-export",
            on_done=lambda n: self.status_label.setText(
                self.tr("Wrote {n} entries to {path}.").format(n=n, path=path)
            ),
            on_error=self._on_failed,
        )
