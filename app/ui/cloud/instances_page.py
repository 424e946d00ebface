"""Every LabGPU instance across all accounts, reconciled with the clouds, with its running cost.

The table shows the local ledger at once, then asks every account's cloud (at start and every
60 s, and on F5) so an instance launched just before a crash still shows up. It reads the ledger
again at once on ``Change.LEDGER`` (and the guards on ``Change.GUARDS``) from ``ctx.changed``: a stop
from the tray shows here without waiting for a poll. Uptime and cost so far tick every second from
the last read; costs, what is billing and the totals line are :func:`app.usecases.costs.running_costs`
(the tray's and ``labgpu cost``'s rule). Actions: start, stop (saying what still bills), terminate
(typing the id to confirm), copy the SSH command, and the audit log.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Slot
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QCheckBox, QPushButton, QVBoxLayout, QWidget

from app.core.vocab import RUNNING_STATES, TERMINAL_STATES, InstanceState
from app.ui import theme
from app.ui.cloud import cloud_service, duration, error_sentence, money
from app.ui.cloud.instance_actions import InstanceActions, TerminateConfirmDialog
from app.ui.cloud.instances_table import (
    COL_PRICE,
    COL_RUN,
    COLUMNS,
    fill_rows,
    fit,
    fit_if_cut,
    make_table,
    run_texts,
    set_line,
    state_title,
)
from app.ui.shared.plain import PlainLabel
from app.ui.widgets import FlowLayout
from app.usecases.changes import Change
from app.usecases.costs import RunningCosts, running_costs

if TYPE_CHECKING:
    from app.ui.context import AppContext

__all__ = ["InstancesPage", "TerminateConfirmDialog", "state_title"]

RECONCILE_MS = 60_000
TICK_MS = 1_000


class InstancesPage(InstanceActions, QWidget):
    page_id = "instances"

    COLUMNS = COLUMNS

    @staticmethod
    def nav_title() -> str:
        return QCoreApplication.translate("InstancesPage", "Instances")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.entries: list[Any] = []
        self.mono: Callable[[], float] = time.monotonic  # when the ledger was read; tests may freeze it
        self.fetched_at = self.mono()
        self.last_reconcile: str = ""
        self.reconcile_errors: dict[str, Any] = {}
        self.reconciling = False
        # Each read of the ledger is numbered when it starts; a read that started before the one on
        # screen is older news (a reconcile begun before a terminate finished) and is dropped.
        self._reads_started = 0
        self._read_shown = 0
        self.busy: set[str] = set()
        self.guards: dict[str, Any] = {}  # instance id → GuardConfig
        self.backstops: dict[str, Any] = {}  # instance id → the cloud-enforced maximum runtime (BackstopRecord)
        self.runs: dict[str, Any] = {}  # instance id → its run (app.core.runs: reclaimed, then relaunched)
        self._dialogs: list[Any] = []
        self._closed = False
        self._build()
        self.reconcile_timer = QTimer(self)
        self.reconcile_timer.setInterval(RECONCILE_MS)
        self.reconcile_timer.timeout.connect(self.reconcile)
        self.reconcile_timer.start()
        self.tick_timer = QTimer(self)
        self.tick_timer.setInterval(TICK_MS)
        self.tick_timer.timeout.connect(self._on_tick_timer_timeout)
        self.tick_timer.start()
        ctx.changed.connect(self._on_changed)
        self.load_ledger()
        QTimer.singleShot(0, self.reconcile)

    # -- layout ----------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        title = PlainLabel(self.tr("Instances"), self)
        title.setStyleSheet("font-size: 18px; font-weight: 600;")
        layout.addWidget(title)
        self.summary_label = PlainLabel(self)
        self.summary_label.setObjectName("billingSummary")
        self.summary_label.setStyleSheet("font-size: 14px;")
        layout.addWidget(self.summary_label)
        bar = FlowLayout()  # wraps rather than cutting labels in a narrow window or in Chinese
        self.launch_button = QPushButton(self.tr("Launch…"), self)
        self.launch_button.setToolTip(self.tr("Launch a GPU instance (Ctrl+L)"))
        self.launch_button.clicked.connect(lambda: self.open_launch())
        self.start_button = QPushButton(self.tr("Start"), self)
        self.start_button.clicked.connect(lambda: self.start_selected())
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.clicked.connect(lambda: self.stop_selected())
        self.terminate_button = QPushButton(self.tr("Terminate…"), self)
        self.terminate_button.clicked.connect(lambda: self.terminate_selected())
        self.copy_button = QPushButton(self.tr("Copy SSH command"), self)
        self.copy_button.clicked.connect(lambda: self.copy_ssh_command())
        self.refresh_button = QPushButton(self.tr("Refresh"), self)
        self.refresh_button.setToolTip(self.tr("Ask every account's cloud now (F5)"))
        self.refresh_button.clicked.connect(self.refresh)
        self.audit_button = QPushButton(self.tr("Audit log…"), self)
        self.audit_button.clicked.connect(lambda: self.open_audit())
        self.guards_button = QPushButton(self.tr("Edit guards…"), self)
        self.guards_button.setObjectName("editGuards")
        self.guards_button.setToolTip(self.tr("Idle, budget, maximum runtime and process guards of this instance"))
        self.guards_button.clicked.connect(lambda: self.edit_guards())
        self.recovery_button = QPushButton(self.tr("Spot recovery…"), self)
        self.recovery_button.setObjectName("instanceRecovery")
        self.recovery_button.setToolTip(self.tr("What LabGPU does by itself when this spot instance is reclaimed"))
        self.recovery_button.clicked.connect(lambda: self.edit_recovery())
        self.report_button = QPushButton(self.tr("Monthly report…"), self)
        self.report_button.setObjectName("monthlyReport")
        self.report_button.clicked.connect(lambda: self.open_report())
        self.show_ended = QCheckBox(self.tr("Show terminated"), self)
        self.show_ended.toggled.connect(lambda _on: self._fill())
        for w in (
            self.launch_button,
            self.start_button,
            self.stop_button,
            self.terminate_button,
            self.copy_button,
            self.guards_button,
            self.recovery_button,
            self.refresh_button,
            self.audit_button,
            self.report_button,
        ):
            bar.addWidget(w)
        bar.addWidget(self.show_ended)
        layout.addLayout(bar)
        self.table = make_table(self)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        layout.addWidget(self.table, 1)
        self.empty_label = PlainLabel(
            self.tr(
                "No LabGPU instance. Launch one from an offer (Offers page) or with "
                "Launch…; instances LabGPU launched elsewhere appear here too."
            ),
            self,
        )
        self.empty_label.setWordWrap(True)
        layout.addWidget(self.empty_label)
        self.status_label = PlainLabel(self)
        self.status_label.setObjectName("instancesStatus")
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status_label)
        self.sync_label = PlainLabel(self)
        self.sync_label.setObjectName("syncLabel")
        self.sync_label.setWordWrap(True)
        self.sync_label.setStyleSheet(f"color: {theme.css('muted')};")
        layout.addWidget(self.sync_label)
        QShortcut(QKeySequence("Ctrl+L"), self, lambda: self.open_launch())
        QShortcut(QKeySequence.StandardKey.Copy, self.table, lambda: self.copy_ssh_command())
        self._update_buttons()

    # -- data ------------------------------------------------------------------------------------
    def load_ledger(self) -> Any:
        svc = cloud_service(self.ctx)
        self.load_guards()
        read = self._next_read()
        return self.ctx.runner.run(
            self,
            svc.ledger.list,
            name="ledger",
            on_done=lambda entries: self._show_read(read, entries),
            on_error=self._on_load_failed,
        )

    def _next_read(self) -> int:
        self._reads_started += 1
        return self._reads_started

    def _show_read(self, read: int, entries: object) -> bool:
        if read < self._read_shown:
            return False
        self._read_shown = read
        self._on_entries(entries)
        return True

    def load_guards(self) -> Any:
        from app.core.backstops import BackstopStore
        from app.core.guards import GuardStore
        from app.core.runs import RunStore

        def read() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
            return (GuardStore(self.ctx.store).all(), dict(BackstopStore(self.ctx.store).all()),
                    RunStore(self.ctx.store).by_instance())

        return self.ctx.runner.run(self, read, name="guards",
                                   on_done=self._on_guards_loaded, on_error=self._on_load_failed)

    @Slot(object)
    def _on_guards_loaded(self, loaded: object) -> None:
        read: tuple[dict[str, Any], dict[str, Any], dict[str, Any]] = loaded  # type: ignore[assignment]
        self.guards, self.backstops, self.runs = dict(read[0]), dict(read[1]), dict(read[2])
        self._fill()

    def refresh(self) -> None:
        self.reconcile()

    @Slot(object)
    def _on_changed(self, kinds: frozenset[Change]) -> None:
        """Another view (the tray, a dialog) or an action here changed the ledger or the guards."""
        if self._closed:
            return
        if Change.LEDGER in kinds:
            self.load_ledger()  # reads the guards too
        elif Change.GUARDS in kinds:
            self.load_guards()

    @Slot()
    def reconcile(self) -> Any:
        if self.reconciling or self._closed:
            return None
        self.reconciling = True
        self.sync_label.setText(self.tr("Checking with the clouds…"))
        svc = cloud_service(self.ctx)
        read = self._next_read()
        return self.ctx.runner.run(
            self,
            svc.reconcile,
            name="reconcile",
            on_done=lambda result: self._on_reconciled(result, read),
            on_error=self._on_reconcile_failed,
        )

    def _on_reconciled(self, result: object, read: int = 0) -> None:
        self.reconciling = False
        self.reconcile_errors = dict(getattr(result, "errors", {}) or {})
        self.last_reconcile = time.strftime("%H:%M:%S")
        if not self._show_read(read or self._next_read(), result.entries):  # type: ignore[attr-defined]
            # Older than the list on screen (an action finished meanwhile): read the ledger again,
            # which now holds both what this reconcile saw and what the action did.
            self.load_ledger()
        if getattr(result, "accounts", -1) == 0:
            self.sync_label.setText(
                self.tr("No cloud account yet, so nothing was checked: add one on the Accounts page (Ctrl+4).")
            )
            return
        lines = [
            self.tr("Checked with the clouds at {time}; again every minute (F5 now).").format(
                time=self.last_reconcile
            )
        ]
        for name, exc in self.reconcile_errors.items():
            message, hint = error_sentence(exc)
            lines.append(
                self.tr("Account {name} could not be checked: {message} {hint}").format(
                    name=name, message=message, hint=hint
                )
            )
        self.sync_label.setText("\n".join(lines))

    @Slot(object)
    def _on_reconcile_failed(self, exc: object) -> None:
        self.reconciling = False
        message, hint = error_sentence(exc)  # type: ignore[arg-type]
        self.sync_label.setText(
            self.tr("The clouds could not be checked: {message} {hint}").format(message=message, hint=hint)
        )

    @Slot(object)
    def _on_load_failed(self, exc: object) -> None:
        message, hint = error_sentence(exc)  # type: ignore[arg-type]
        self.status_label.setText(message + (f"\n{hint}" if hint else ""))

    @Slot(object)
    def _on_entries(self, entries: object) -> None:
        self.entries = list(entries)  # type: ignore[call-overload]
        self.fetched_at = self.mono()
        self._fill()

    def visible_entries(self) -> list[Any]:
        if self.show_ended.isChecked():
            return list(self.entries)
        return [e for e in self.entries if e.state not in TERMINAL_STATES]

    def _fill(self) -> None:
        selected = self.selected_id()
        rows = self.visible_entries()
        fill_rows(self.table, rows, self.busy, self._guard_text, selected)
        self.empty_label.setVisible(not rows)
        self._on_tick_timer_timeout()
        fit(self.table)
        self._update_buttons()

    def _guard_text(self, e: Any) -> str:
        from app.core import providers
        from app.ui.shared.guards_ui import badge

        cfg = self.guards.get(e.id)
        return (badge(cfg, True, price_known=e.price_per_hour is not None, backstop=self.backstops.get(e.id),
                      terminates=providers.has(e.provider, "stop_terminates"))
                if cfg is not None else "—")

    def since_read_s(self) -> float:
        return self.mono() - self.fetched_at

    def costs_now(self) -> RunningCosts:
        """Every entry's cost at this tick, what is billing and the totals (app.usecases.costs)."""
        from app.core.currency import effective_rate

        return running_costs(self.entries, self.guards, effective_rate(self.ctx.settings),
                             since_read_s=self.since_read_s())

    def projected_text(self, c: Any, e: Any) -> str:
        if e.state not in RUNNING_STATES:
            return "—"
        if c.hours_to_budget is not None:
            if c.hours_to_budget <= 0:
                return self.tr("budget reached")
            return self.tr("budget in {time}").format(time=duration(c.hours_to_budget * 3600))
        if c.cost_at_max_runtime is not None:
            return self.tr("{cost} at max. runtime").format(cost=money(c.cost_at_max_runtime, c.currency, 2))
        if c.per_day is not None:
            return self.tr("{cost}/day").format(cost=money(c.per_day, c.currency, 2))
        return "—"

    @Slot()
    def _on_tick_timer_timeout(self) -> None:
        try:
            costs: RunningCosts | None = self.costs_now()
        except Exception:  # noqa: BLE001 - a damaged entry shows unknown, the table goes on
            costs = None
        for r, e in enumerate(self.visible_entries()):
            c = costs.get(e.id) if costs is not None else None
            live = costs.entries.get(e.id, e) if costs is not None else e
            if self.table.item(r, COL_PRICE) is None:
                continue
            set_line(self.table, r, "uptime", duration(live.uptime_s) if e.state in RUNNING_STATES else "—")
            set_line(self.table, r, "cost", money(c.so_far if c else None, e.currency, 4))
            if c is not None:
                set_line(self.table, r, "price", money(c.per_hour, e.currency, 4))
                price_item = self.table.item(r, COL_PRICE)
                if c.notes and price_item is not None:
                    price_item.setToolTip("\n".join(QCoreApplication.translate("LabGPU", n) for n in c.notes))
            set_line(self.table, r, "projected", self.projected_text(c, e) if c is not None else "—")
            self._show_run(r, e, costs)
        fit_if_cut(self.table)
        self._show_totals(costs)

    def _show_run(self, r: int, e: Any, costs: RunningCosts | None) -> None:
        """The run cell: the run, this instance's place in it and the run's cost so far — the sum of its
        instances' costs from the same rule as every row (app.core.runs.run_cost)."""
        from app.core.runs import run_cost

        item = self.table.item(r, COL_RUN)
        run = self.runs.get(e.id)
        if item is None:
            return
        if run is None:
            item.setText("—")
            item.setToolTip("")
            return
        cur = str(getattr(self.ctx.settings, "display_currency", "CNY") or "CNY")
        total = "?"
        if costs is not None:
            rc = run_cost(run, costs.instances, costs.rate)
            total = money(rc.so_far(cur), cur, 2) + (" + ?" if rc.unknown else "")
        text, tip = run_texts(run, e.id, total)
        item.setText(text)
        item.setToolTip(tip)

    def _show_totals(self, costs: RunningCosts | None) -> None:
        cur = str(getattr(self.ctx.settings, "display_currency", "CNY") or "CNY")
        if costs is None:
            self.summary_label.setText("")
        else:  # the tray's and `labgpu cost`'s line (app.usecases.costs)
            self.summary_label.setText(costs.billing_text(cur))
        colour = f"color: {theme.css('warning')}; font-weight: 600;" if costs and costs.billing \
            else f"color: {theme.css('ok')};"
        self.summary_label.setStyleSheet(f"font-size: 14px; {colour}")

    def selected_id(self) -> str:
        items = self.table.selectedItems()
        return str(items[0].data(Qt.ItemDataRole.UserRole)) if items else ""

    def selected_entry(self) -> Any:
        iid = self.selected_id()
        return next((e for e in self.entries if e.id == iid), None)

    def select(self, instance_id: str) -> None:
        for r in range(self.table.rowCount()):
            item = self.table.item(r, 0)
            if item is not None and item.data(Qt.ItemDataRole.UserRole) == instance_id:
                self.table.selectRow(r)

    def _update_buttons(self) -> None:
        e = self.selected_entry()
        free = e is not None and e.id not in self.busy
        self.start_button.setEnabled(bool(free and e.state in (InstanceState.STOPPED, InstanceState.STOPPED_BILLING)))
        self.stop_button.setEnabled(bool(free and e.state == InstanceState.RUNNING))
        self.terminate_button.setEnabled(
            bool(free and e.state not in (*TERMINAL_STATES, InstanceState.TERMINATING))
        )
        self.copy_button.setEnabled(bool(e is not None and (e.public_ip or e.private_ip)))
        self.guards_button.setEnabled(bool(e is not None and e.state not in TERMINAL_STATES))
        self.recovery_button.setEnabled(bool(e is not None and e.spot and e.state not in TERMINAL_STATES))

    def edit_recovery(self) -> Any:
        """The chosen spot instance's recovery policy in a dialog (saved to the store the watcher reads)."""
        from app.core.recoverypolicy import INSTANCE
        from app.ui.shared.recovery_ui import RecoveryDialog

        e = self.selected_entry()
        if e is None or not e.spot:
            return None
        dialog = RecoveryDialog(self.ctx, INSTANCE, e.id, e.id, self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def activate(self, payload: object) -> None:
        """``{"launch": offer}`` opens the launch dialog for that offer; ``{"select": id}`` selects a row."""
        if isinstance(payload, dict):
            if "launch" in payload:
                self.open_launch(payload["launch"], payload.get("spot"))
            if "select" in payload:
                self.select(str(payload["select"]))

    def shutdown(self) -> None:
        self._closed = True
        self.reconcile_timer.stop()
        self.tick_timer.stop()
        for d in self._dialogs:
            try:
                d.close()
            except RuntimeError:
                pass
