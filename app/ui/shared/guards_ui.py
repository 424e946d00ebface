"""Guards in the UI: the editor (launch dialog section and "Edit guards…" dialog) and the badge text.

A guard belongs to a LabGPU instance (by id: it may stop it through its cloud) or to a Hosts-page
server (by name: no cloud API, so it notifies only — said plainly next to the choice). A new
guard's values come from app.usecases.guards.default_guard (the Settings' idle rule, as in `labgpu
guard set`). Saving goes through the guards use case in a task (set_guard / remove_guard: the
watchdog installed, confirmed or removed on the host); a value it refuses shows its sentence and
next step, and so does a watchdog the host refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt, Signal, Slot
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.ui import theme
from app.ui.shared.limits import apply_limits, setting_limits
from app.ui.shared.plain import PlainLabel
from app.usecases.changes import Changes

if TYPE_CHECKING:
    from app.core.guards import GuardConfig
    from app.core.paths import Paths
    from app.core.settings import Settings
    from app.core.store import Store
    from app.ui.context import AppContext
    from app.ui.tasks import Task
    from app.usecases.guards import GuardOutcome, RemovedGuard


def defaults_from_settings(settings: Settings) -> GuardConfig:
    """A new guard's values (the same as `labgpu guard set` starts from)."""
    from app.usecases.guards import default_guard

    return default_guard(settings)


def badge(cfg: Any, can_stop: bool, price_known: bool = True, backstop: Any = None, terminates: bool = False) -> str:
    """Short text for a table column: which guards are active on this target; a budget whose price is not
    known is said to be off (it cannot act until a price is), never shown as if it guarded. ``backstop`` (an
    app.core.backstops.BackstopRecord): the maximum runtime says "enforced by the cloud" and what the cloud
    does only when the cloud accepted it (read back after the launch), else that the cloud's backstop is off
    and why. ``terminates``: the cloud has no stop (Capabilities.stop_terminates), so the guard's stop terminates."""
    if cfg is None:
        return QCoreApplication.translate("GuardsUi", "none")
    parts = []
    stop = can_stop and cfg.on_idle == "stop"
    parts.append(QCoreApplication.translate("GuardsUi", "idle <{pct}% {min} min → {action}").format(
        pct=_n(cfg.idle_below_pct), min=_n(cfg.idle_minutes),
        action=((QCoreApplication.translate("GuardsUi", "terminate") if terminates
                 else QCoreApplication.translate("GuardsUi", "stop")) if stop
                else QCoreApplication.translate("GuardsUi", "notify"))))
    if cfg.budget is not None and not price_known:
        parts.append(QCoreApplication.translate("GuardsUi", "budget {amount} {cur} OFF: price unknown").format(
            amount=_n(cfg.budget), cur=cfg.currency))
    elif cfg.budget is not None:
        parts.append(QCoreApplication.translate("GuardsUi", "budget {amount} {cur}").format(
            amount=_n(cfg.budget), cur=cfg.currency))
    if cfg.max_hours is not None:
        part = QCoreApplication.translate("GuardsUi", "max {h} h").format(h=_n(cfg.max_hours))
        if backstop is not None:
            part += " " + backstop_badge(backstop)
        parts.append(part)
    if cfg.stop_on_process_exit:
        parts.append(QCoreApplication.translate("GuardsUi", "until {process} exits").format(
            process=cfg.stop_on_process_exit))
    if cfg.watchdog:
        parts.append(QCoreApplication.translate("GuardsUi", "watchdog"))
    text = " · ".join(parts)
    if not can_stop:
        text += " " + QCoreApplication.translate("GuardsUi", "(notify only)")
    return text


def _n(v: float) -> str:
    return f"{float(v):g}"


def backstop_badge(rec: Any) -> str:
    """The cloud's part of a maximum runtime, in brackets: "(enforced by the cloud: terminate at …)" only when the
    cloud accepted it, else "(cloud backstop off: why)". The reason is LabGPU's own sentence with the cloud's
    code; any text from the cloud in it is shown as plain text by the table and capped here."""
    if rec.accepted:
        return QCoreApplication.translate("GuardsUi", "(enforced by the cloud: {what})").format(what=rec.what())
    why = " ".join(str(rec.why()).split())
    return QCoreApplication.translate("GuardsUi", "(cloud backstop off: {why})").format(
        why=why if len(why) <= 160 else why[:159] + "…")


def backstop_sentence(rec: Any) -> str:
    """The editor's line under the maximum runtime for a launched instance: what the cloud enforces, or why not."""
    if rec.accepted:
        return QCoreApplication.translate("GuardsUi", "Enforced by the cloud, even when this computer is off: {what}. "
                                                      "Changing the maximum runtime here does not move it.").format(
            what=rec.what())
    why = " ".join(str(rec.why()).split())
    return QCoreApplication.translate("GuardsUi", "Not enforced by the cloud: {why}. Only LabGPU's watcher (and the "
                                                  "watchdog, if on) stops it.").format(
        why=why if len(why) <= 300 else why[:299] + "…")


class GuardEditor(QGroupBox):
    """The guard fields. ``can_stop`` False (a server without a cloud API): stop choices are off."""

    changed = Signal()

    def __init__(self, cfg: Any, can_stop: bool = True, parent: QWidget | None = None,
                 enabled_by_default: bool = True) -> None:
        super().__init__(parent)
        self.can_stop = can_stop
        self.setObjectName("guardEditor")
        self.setTitle(self.tr("Guards"))
        self.setCheckable(True)
        self.setChecked(enabled_by_default)
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        # A narrow window (the launch dialog's 760 px) puts a long label above its field instead of scrolling.
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        idle_row = QHBoxLayout()
        self.idle_pct = QDoubleSpinBox(self)
        self.idle_pct.setObjectName("idlePct")
        apply_limits(self.idle_pct, setting_limits("guard_idle_below_pct"))
        self.idle_minutes = QDoubleSpinBox(self)
        self.idle_minutes.setObjectName("idleMinutes")
        apply_limits(self.idle_minutes, setting_limits("guard_idle_minutes"), suffix=self.tr(" min"))
        self.on_idle = QComboBox(self)
        self.on_idle.setObjectName("onIdle")
        self.on_idle.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.on_idle.setMinimumContentsLength(12)
        self.on_idle.addItem(self.tr("notify me"), "notify")
        self.on_idle.addItem(self.tr("pull checkpoints, then stop it"), "stop")
        idle_row.addWidget(PlainLabel(self.tr("every GPU below"), self))
        idle_row.addWidget(self.idle_pct)
        idle_row.addWidget(PlainLabel(self.tr("for"), self))
        idle_row.addWidget(self.idle_minutes)
        idle_row.addWidget(PlainLabel(self.tr("→"), self))
        idle_row.addWidget(self.on_idle, 1)
        form.addRow(self.tr("Idle:"), idle_row)
        self.idle_note = PlainLabel(self.tr("A missing sample (N/A, MIG, a dropped connection) counts as busy: "
                                        "a guard never stops on data it does not have."), self)
        self.idle_note.setWordWrap(True)
        self.idle_note.setStyleSheet("color: palette(mid);")
        form.addRow(self.idle_note)  # the whole width: a wrapped sentence never clipped in the field column
        budget_row = QHBoxLayout()
        self.budget = QDoubleSpinBox(self)
        self.budget.setObjectName("budget")
        self.budget.setRange(0, 10_000_000)
        self.budget.setDecimals(2)
        self.budget.setSpecialValueText(self.tr("no budget"))
        self.currency = QComboBox(self)
        self.currency.addItem("CNY", "CNY")
        self.currency.addItem("USD", "USD")
        budget_row.addWidget(self.budget, 1)
        budget_row.addWidget(self.currency)
        form.addRow(self.tr("Budget (warn at 80 %, stop at 100 %):"), budget_row)
        self.max_hours = QDoubleSpinBox(self)
        self.max_hours.setObjectName("maxHours")
        self.max_hours.setRange(0, 24 * 365)
        self.max_hours.setDecimals(1)
        self.max_hours.setSuffix(self.tr(" h"))
        self.max_hours.setSpecialValueText(self.tr("no limit"))
        form.addRow(self.tr("Maximum runtime:"), self.max_hours)
        self.backstop_note = PlainLabel(self.tr("At launch it is also handed to the cloud where it can be (Tencent "
                                                "terminates, Alibaba releases, AWS shuts down at that time), so the "
                                                "bill ends even when this computer is off."), self)
        self.backstop_note.setObjectName("backstopNote")
        self.backstop_note.setWordWrap(True)
        self.backstop_note.setStyleSheet("color: palette(mid);")
        form.addRow(self.backstop_note)  # the whole width: a wrapped sentence never clipped in the field column
        self.process = QLineEdit(self)
        self.process.setObjectName("processExit")
        self.process.setPlaceholderText(self.tr("a PID or part of a process name, e.g. train.py"))
        form.addRow(self.tr("Stop when this process exits:"), self.process)
        self.sync_before = QCheckBox(self.tr("Pull checkpoints (the host's \"before stop\" sync) before stopping"),
                                     self)
        form.addRow("", self.sync_before)
        self.watchdog = QCheckBox(self.tr("Also install the on-instance watchdog (stops it even when this "
                                          "computer sleeps)"), self)
        self.watchdog.setObjectName("watchdog")
        form.addRow("", self.watchdog)
        self.notify_only = PlainLabel(self.tr("This server has no cloud API: LabGPU can only notify you. It never "
                                          "stops it — stop it yourself when told."), self)
        self.notify_only.setObjectName("notifyOnly")
        self.notify_only.setWordWrap(True)
        self.notify_only.setStyleSheet(f"color: {theme.css('warning')}; font-weight: 600;")
        form.addRow(self.notify_only)  # the whole width: a wrapped sentence never clipped in the field column
        self.error_label = PlainLabel(self)
        self.error_label.setObjectName("guardError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {theme.css('error')};")
        self.error_label.hide()
        form.addRow(self.error_label)  # the whole width: a wrapped sentence never clipped in the field column
        self.set_config(cfg)
        self.notify_only.setVisible(not can_stop)
        if not can_stop:
            self.on_idle.setCurrentIndex(0)
            self.on_idle.setEnabled(False)
            self.on_idle.setItemText(0, self.tr("notify me (notify only)"))
            for w in (self.max_hours, self.process, self.sync_before, self.watchdog):
                w.setEnabled(False)
            self.budget.setToolTip(self.tr("Notify only: the budget warns, it cannot stop a server."))
        for w in (self.idle_pct, self.idle_minutes, self.budget, self.max_hours):
            w.valueChanged.connect(self.changed)
        self.on_idle.currentIndexChanged.connect(self.changed)
        self.toggled.connect(self.changed)

    def set_config(self, cfg: Any) -> None:
        self.idle_pct.setValue(float(cfg.idle_below_pct))
        self.idle_minutes.setValue(float(cfg.idle_minutes))
        self.on_idle.setCurrentIndex(max(0, self.on_idle.findData(cfg.on_idle if self.can_stop else "notify")))
        self.budget.setValue(float(cfg.budget or 0.0))
        self.currency.setCurrentIndex(max(0, self.currency.findData(cfg.currency)))
        self.max_hours.setValue(float(cfg.max_hours or 0.0))
        self.process.setText(cfg.stop_on_process_exit or "")
        self.sync_before.setChecked(bool(cfg.sync_before_stop))
        self.watchdog.setChecked(bool(cfg.watchdog))

    def config(self) -> Any:
        """The GuardConfig shown (not validated here: GuardStore.set validates)."""
        from app.core.guards import GuardConfig

        return GuardConfig(
            idle_below_pct=self.idle_pct.value(),
            idle_minutes=self.idle_minutes.value(),
            on_idle=str(self.on_idle.currentData()) if self.can_stop else "notify",
            budget=self.budget.value() or None,
            currency=str(self.currency.currentData()),
            max_hours=(self.max_hours.value() or None) if self.can_stop else None,
            stop_on_process_exit=(self.process.text().strip() or None) if self.can_stop else None,
            sync_before_stop=self.sync_before.isChecked(),
            watchdog=self.watchdog.isChecked() and self.can_stop,
        )

    def set_backstop(self, rec: Any) -> None:
        """Say what the cloud holds for this instance's maximum runtime (an app.core.backstops.BackstopRecord)."""
        self.backstop_note.setText(backstop_sentence(rec))
        self.backstop_note.setStyleSheet("color: palette(mid);" if rec.accepted
                                         else f"color: {theme.css('warning')};")

    def show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))
        window = self.window()
        if window is not self and window.isVisible():
            fit_height(window)  # the whole reason shows


def apply_guard(paths: Paths, store: Store, target_id: str, cfg: GuardConfig | None, changes: Changes,
                task: Task | None = None) -> GuardOutcome | RemovedGuard:
    """Blocking (a task): the guards use case, its steps reported as the task's progress."""
    from app.usecases.guards import remove_guard, set_guard

    def progress(text: str) -> None:
        if task is not None:
            task.report(text)

    if cfg is None:
        return remove_guard(paths, store, target_id, changes=changes, progress=progress)
    return set_guard(paths, store, target_id, cfg, changes=changes, progress=progress)


def fit_height(window: QWidget) -> None:
    """Grow ``window`` to the height its wrapped lines need at its width (a layout's size hint counts
    a wrapped label as one line, so a dialog of wrapped sentences opens clipped)."""
    lay = window.layout()
    if lay is not None:
        lay.activate()
    need = window.heightForWidth(window.width())
    if need > window.height():
        window.resize(window.width(), need)


class EditGuardsDialog(QDialog):
    """"Edit guards…" for one instance or server. Saving runs the guards use case in a task: with the
    watchdog box on it is installed (and confirmed) on the host, the step shown while it runs; a
    watchdog the host refused leaves the box off, says why and what to do, and keeps the dialog open."""

    saved = Signal(str, object)  # target id, GuardConfig | None (removed)

    def __init__(self, ctx: AppContext, target_id: str, current: Any, can_stop: bool,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.target_id = target_id
        self.outcome: GuardOutcome | RemovedGuard | None = None
        self.setObjectName("editGuardsDialog")
        self.setWindowTitle(self.tr("Guards of {target}").format(target=target_id))
        self.setMinimumWidth(620)
        layout = QVBoxLayout(self)
        who = PlainLabel(self.tr("Guards of {target}").format(target=target_id) if can_stop else
                     self.tr("Guards of {target} (a server without a cloud API: notify only)").format(
                         target=target_id), self)
        who.setStyleSheet("font-weight: 600;")
        who.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(who)
        from app.usecases.guards import default_guard_for

        self.editor = GuardEditor(current or default_guard_for(ctx.settings, ctx.store, target_id), can_stop, self,
                                  enabled_by_default=current is not None)
        if can_stop:
            from app.core.backstops import BackstopStore

            held = BackstopStore(ctx.store).get(target_id)  # one local SQLite read, no network
            if held is not None:
                self.editor.set_backstop(held)
        layout.addWidget(self.editor)
        self.progress_label = PlainLabel(self)
        self.progress_label.setObjectName("guardProgress")
        self.progress_label.setWordWrap(True)
        self.progress_label.hide()
        layout.addWidget(self.progress_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel, self)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        fit_height(self)

    def _show_progress(self, text: object) -> None:
        self.progress_label.setText(str(text))
        self.progress_label.setVisible(bool(text))

    @Slot()
    def save(self) -> Any:
        cfg = self.editor.config() if self.editor.isChecked() else None
        self.buttons.setEnabled(False)
        self.editor.show_error("")
        self._show_progress(self.tr("Saving…"))

        def done(result: object) -> None:
            from app.usecases.guards import GuardOutcome, WatchdogResult

            out: GuardOutcome | RemovedGuard = result  # type: ignore[assignment]
            self.outcome = out
            self.buttons.setEnabled(True)
            self._show_progress("")
            stored = out.config if isinstance(out, GuardOutcome) else None
            self.saved.emit(self.target_id, stored)
            if out.watchdog != WatchdogResult.FAILED:
                self.accept()
                return
            if stored is not None:
                self.editor.watchdog.setChecked(bool(stored.watchdog))
            self.editor.show_error(f"{out.text()} {out.hint_text()}".strip())
            close = self.buttons.button(QDialogButtonBox.StandardButton.Cancel)
            if close is not None:
                close.setText(self.tr("Close"))

        def failed(exc: object) -> None:
            from app.ui.errors import describe

            self.buttons.setEnabled(True)
            self._show_progress("")
            message, hint = describe(exc)  # type: ignore[arg-type]
            self.editor.show_error(f"{message} {hint}".strip())

        return self.ctx.runner.run(self, apply_guard, self.ctx.paths, self.ctx.store, self.target_id, cfg,
                                   self.ctx.changes, name="guard-save", on_done=done, on_error=failed,
                                   on_progress=self._show_progress)
