"""The audit dialog's "Cloud events" tab: for a chosen account, the cloud's own history of API calls (AWS
CloudTrail, Tencent CloudAudit, Alibaba Cloud ActionTrail) read on a worker (app/usecases/cloudaudit.py), each
call marked made by LabGPU or not; the foreign ones (calls on LabGPU's resources LabGPU did not make, console
logins) in the error colour and with the words "Not made by LabGPU", and alerted once like `labgpu audit --cloud`.

Text from the cloud is shown as plain text only: table items (never rich text) and plain tooltips.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.core import providers
from app.core.i18n import translate as translate_template
from app.ui import theme
from app.ui.cloud import cloud_service, error_sentence
from app.ui.shared.plain import PlainLabel, plain_tooltip

if TYPE_CHECKING:
    from app.cloud.launch import CloudService
    from app.ui.context import AppContext
    from app.ui.tasks import Task
    from app.usecases.cloudaudit import CloudAuditReport

SPANS_H = (24, 7 * 24, 30 * 24, 90 * 24)  # the "since" choices, in hours


def read_events(svc: CloudService, account: str, since: datetime, task: Task | None = None) -> tuple[Any, int]:
    """On a worker: the account's events judged, and the foreign ones alerted once; (report, alerted now)."""
    from app.notify.dispatch import notifier_for
    from app.usecases.cloudaudit import alert_new, check_account

    report = check_account(svc, account, since, progress=task.report if task is not None else None)
    alerted = alert_new(svc, report, notifier_for(svc.paths))
    return report, len(alerted)


class CloudEventsView(QWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("cloudEventsView")
        self.report: CloudAuditReport | None = None
        self.task: Task | None = None
        layout = QVBoxLayout(self)
        bar = QHBoxLayout()
        bar.addWidget(PlainLabel(self.tr("Account:"), self))
        self.account_combo = QComboBox(self)
        self.account_combo.setMinimumContentsLength(14)
        bar.addWidget(self.account_combo)
        bar.addWidget(PlainLabel(self.tr("Since:"), self))
        self.since_combo = QComboBox(self)
        for hours, title in zip(SPANS_H, (self.tr("the last 24 hours"), self.tr("the last 7 days"),
                                          self.tr("the last 30 days"), self.tr("the last 90 days")), strict=True):
            self.since_combo.addItem(title, hours)
        bar.addWidget(self.since_combo)
        self.read_button = QPushButton(self.tr("Read events"), self)
        self.read_button.clicked.connect(self.read)
        bar.addWidget(self.read_button)
        bar.addStretch(1)
        layout.addLayout(bar)
        self.progress = QProgressBar(self)
        self.progress.setRange(0, 0)  # busy: the clouds do not say how many pages are left
        self.progress.setTextVisible(False)
        self.progress.hide()
        layout.addWidget(self.progress)
        self.table = QTableWidget(0, 7, self)
        self.table.setHorizontalHeaderLabels([self.tr("Time (local)"), self.tr("Event"), self.tr("Resource"),
                                              self.tr("Actor"), self.tr("Source address"),
                                              self.tr("Made by LabGPU"), self.tr("Note")])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table, 1)
        self.status_label = PlainLabel(self)
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_label.setText(self.tr("Choose an account and read its cloud's history of API calls: the calls "
                                          "LabGPU did not make are marked."))
        layout.addWidget(self.status_label)
        self._load_accounts()

    def _load_accounts(self) -> None:
        svc = cloud_service(self.ctx)
        self.ctx.runner.run(self, svc.accounts.instance_accounts, name="cloudevents-accounts",
                            on_done=self._on_accounts, on_error=self._on_failed)

    @Slot(object)
    def _on_accounts(self, accounts: list[Any]) -> None:
        self.account_combo.clear()
        for a in accounts:
            spec = providers.find_spec(a.provider)
            if spec is not None and spec.event_source is not None:
                self.account_combo.addItem(f"{a.name} ({spec.event_source.service})", a.name)
        self.read_button.setEnabled(self.account_combo.count() > 0)
        if not self.account_combo.count():
            self.status_label.setText(self.tr("No account of a cloud whose API call history LabGPU can read."))

    @Slot()
    def read(self) -> Task | None:
        account = self.account_combo.currentData()
        if not account:
            return None
        hours = int(self.since_combo.currentData() or 24)
        since = datetime.now(timezone.utc) - timedelta(hours=hours)
        self.read_button.setEnabled(False)
        self.progress.show()
        self.status_label.setText(self.tr("Reading the cloud's events of {account}…").format(account=account))
        self.task = self.ctx.runner.run(self, read_events, cloud_service(self.ctx), str(account), since,
                                        name="cloudevents-read", on_done=self._on_read, on_error=self._on_failed,
                                        on_progress=self._on_progress)
        return self.task

    @Slot(object)
    def _on_progress(self, region: object) -> None:
        self.status_label.setText(self.tr("Reading the events of region {region}…").format(region=str(region)[:64]))

    @Slot(object)
    def _on_read(self, result: tuple[Any, int]) -> None:
        report, alerted = result
        self.report = report
        self.progress.hide()
        self.read_button.setEnabled(True)
        verdicts = report.verdicts
        self.table.setRowCount(len(verdicts))
        foreign_color = theme.color("error")
        for r, v in enumerate(verdicts):
            ev = v.event
            note = self.tr("Not made by LabGPU: {why}").format(why=translate_template(v.why)) if v.foreign else ""
            values = [ev.time.astimezone().strftime("%Y-%m-%d %H:%M:%S"), ev.name,
                      v.resource or ", ".join(ev.resources[:3]), ev.actor, ev.source_ip,
                      self.tr("yes") if v.by_labgpu else self.tr("no"), note]
            tip = plain_tooltip("\n".join(x for x in (ev.name, ev.actor, ev.source_ip, ev.region, ev.request_id,
                                                      ", ".join(ev.resources), ev.raw) if x))
            for c, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setToolTip(tip)
                if v.foreign:
                    item.setForeground(foreign_color)
                self.table.setItem(r, c, item)
        n = len(report.foreign)
        text = self.tr("{total} calls read from {service} ({regions}); {n} not made by LabGPU, {new} alerted now.")
        self.status_label.setText(text.format(total=len(verdicts), service=report.source.service,
                                              regions=", ".join(report.regions), n=n, new=alerted))

    @Slot(object)
    def _on_failed(self, exc: object) -> None:
        self.progress.hide()
        self.read_button.setEnabled(self.account_combo.count() > 0)
        message, hint = error_sentence(exc)  # type: ignore[arg-type]
        self.status_label.setText(message + (f" {hint}" if hint else ""))
