"""The spot recovery policy in the UI: the "Spot recovery" section (the launch dialog for a spot launch,
the Jobs view's start form) and the dialog that edits a job's or an instance's policy.

Every field is a field of app.core.recoverypolicy.RecoveryPolicy and is saved to its store
(RecoveryPolicyStore, which the watcher's recovery reads): nothing here is decorative. A policy the
store refuses shows its sentence and next step under the fields and is not saved.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.ui import theme
from app.ui.shared.plain import PlainLabel

if TYPE_CHECKING:
    from app.core.recoverypolicy import RecoveryPolicy
    from app.ui.context import AppContext


def _names(text: str) -> tuple[str, ...]:
    return tuple(t.strip() for t in text.replace(";", ",").split(",") if t.strip())


class RecoveryEditor(QGroupBox):
    """The policy's fields, as a checkable section (unchecked: no policy)."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None, checked: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("recoveryEditor")
        self.setTitle(self.tr("Spot recovery"))
        self.setCheckable(True)
        self.setChecked(checked)
        box = QVBoxLayout(self)
        self.body = QWidget(self)  # folded away while the section is off
        box.addWidget(self.body)
        outer = QVBoxLayout(self.body)
        outer.setContentsMargins(0, 0, 0, 0)
        note = PlainLabel(self.tr("When the cloud reclaims the spot instance, LabGPU saves the latest checkpoint in "
                                  "the warning window, relaunches where there is capacity and resumes the job — "
                                  "by itself, while the window, the tray or `labgpu watch` runs."), self)
        note.setWordWrap(True)
        note.setStyleSheet("color: palette(mid);")
        outer.addWidget(note)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        self.resume_edit = QLineEdit(self)
        self.resume_edit.setObjectName("recoveryResume")
        self.resume_edit.setPlaceholderText("python train.py --resume {checkpoint}")
        self.resume_edit.setToolTip(self.tr("{checkpoint} becomes the saved checkpoint's path on the new instance"))
        form.addRow(self.tr("Resume with:"), self.resume_edit)
        self.ckpt_remote = QLineEdit(self)
        self.ckpt_remote.setObjectName("recoveryCheckpointRemote")
        self.ckpt_remote.setPlaceholderText(self.tr("on the instance, e.g. /root/ckpt"))
        self.ckpt_local = QLineEdit(self)
        self.ckpt_local.setObjectName("recoveryCheckpointLocal")
        self.ckpt_local.setPlaceholderText(self.tr("on this computer, e.g. ~/ckpt"))
        form.addRow(self.tr("Checkpoints from:"), self.ckpt_remote)
        form.addRow(self.tr("Saved to:"), self.ckpt_local)
        self.code_local = QLineEdit(self)
        self.code_local.setObjectName("recoveryCodeLocal")
        self.code_local.setPlaceholderText(self.tr("on this computer, e.g. ~/project"))
        self.code_remote = QLineEdit(self)
        self.code_remote.setObjectName("recoveryCodeRemote")
        self.code_remote.setPlaceholderText(self.tr("on the new instance, e.g. /root/project"))
        form.addRow(self.tr("Code from:"), self.code_local)
        form.addRow(self.tr("Code to:"), self.code_remote)
        self.other_zones = QCheckBox(self.tr("then the region's other zones"), self)
        self.other_zones.setObjectName("recoveryOtherZones")
        self.other_zones.setChecked(True)
        form.addRow(self.tr("Relaunch in:"), self._row(PlainLabel(self.tr("the same zone first,"), self),
                                                       self.other_zones))
        self.regions_edit = QLineEdit(self)
        self.regions_edit.setObjectName("recoveryRegions")
        self.regions_edit.setPlaceholderText(self.tr("none; e.g. ap-shanghai, ap-beijing"))
        form.addRow(self.tr("Then regions:"), self.regions_edit)
        self.accounts_edit = QLineEdit(self)
        self.accounts_edit.setObjectName("recoveryAccounts")
        self.accounts_edit.setPlaceholderText(self.tr("none; e.g. lab-ali or lab-ali:ecs.gn7i-c8g1.2xlarge"))
        form.addRow(self.tr("Then accounts:"), self.accounts_edit)
        self.spot_check = QCheckBox(self.tr("spot"), self)
        self.spot_check.setObjectName("recoverySpot")
        self.spot_check.setChecked(True)
        self.on_demand_check = QCheckBox(self.tr("on demand"), self)
        self.on_demand_check.setObjectName("recoveryOnDemand")
        form.addRow(self.tr("Relaunch as:"), self._row(self.spot_check, self.on_demand_check))
        self.budget_spin = QDoubleSpinBox(self)
        self.budget_spin.setObjectName("recoveryBudget")
        self.budget_spin.setRange(0.0, 1_000_000.0)
        self.budget_spin.setDecimals(2)
        self.budget_spin.setSpecialValueText(self.tr("no cap"))
        self.budget_spin.setToolTip(self.tr("The most the whole run may cost, in the account's currency"))
        self.attempts_spin = QSpinBox(self)
        self.attempts_spin.setObjectName("recoveryAttempts")
        self.attempts_spin.setRange(1, 50)
        self.attempts_spin.setValue(5)
        form.addRow(self.tr("Run budget:"), self.budget_spin)
        form.addRow(self.tr("Launch attempts:"), self.attempts_spin)
        outer.addLayout(form)
        self.error_label = PlainLabel(self)
        self.error_label.setObjectName("recoveryError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {theme.css('error')};")
        self.error_label.hide()
        outer.addWidget(self.error_label)
        for edit in (self.resume_edit, self.ckpt_remote, self.ckpt_local, self.code_local, self.code_remote,
                     self.regions_edit, self.accounts_edit):
            edit.textChanged.connect(self.changed)
        self.toggled.connect(self._on_toggled)
        self.body.setVisible(checked)

    @Slot(bool)
    def _on_toggled(self, on: bool) -> None:
        self.body.setVisible(on)
        self.changed.emit()

    def _row(self, *widgets: QWidget) -> QWidget:
        box = QWidget(self)
        lay = QHBoxLayout(box)
        lay.setContentsMargins(0, 0, 0, 0)
        for w in widgets:
            lay.addWidget(w)
        lay.addStretch(1)
        return box

    def policy(self) -> RecoveryPolicy:
        """The fields as a policy (not validated: the store checks it when it is saved)."""
        from app.core.recoverypolicy import RecoveryPolicy

        budget = self.budget_spin.value()
        return RecoveryPolicy(
            enabled=True, resume=self.resume_edit.text(), checkpoint_remote=self.ckpt_remote.text(),
            checkpoint_local=self.ckpt_local.text(), code_local=self.code_local.text(),
            code_remote=self.code_remote.text(), other_zones=self.other_zones.isChecked(),
            regions=_names(self.regions_edit.text()), accounts=_names(self.accounts_edit.text()),
            spot=self.spot_check.isChecked(), on_demand=self.on_demand_check.isChecked(),
            budget=budget if budget > 0 else None, max_attempts=self.attempts_spin.value())

    def set_policy(self, p: RecoveryPolicy | None) -> None:
        self.setChecked(p is not None and p.enabled)
        if p is None:
            return
        self.resume_edit.setText(p.resume)
        self.ckpt_remote.setText(p.checkpoint_remote)
        self.ckpt_local.setText(p.checkpoint_local)
        self.code_local.setText(p.code_local)
        self.code_remote.setText(p.code_remote)
        self.other_zones.setChecked(p.other_zones)
        self.regions_edit.setText(", ".join(p.regions))
        self.accounts_edit.setText(", ".join(p.accounts))
        self.spot_check.setChecked(p.spot)
        self.on_demand_check.setChecked(p.on_demand)
        self.budget_spin.setValue(p.budget or 0.0)
        self.attempts_spin.setValue(p.max_attempts)

    def checked_policy(self) -> RecoveryPolicy | None:
        """The validated policy when the section is on (None when off); an error shows under the fields
        and is raised (InputError)."""
        from app.core.errors import LabGpuError

        if not self.isChecked():
            self.show_error("")
            return None
        try:
            p = self.policy().validate()
        except LabGpuError as exc:
            from app.ui.errors import describe

            message, hint = describe(exc)
            self.show_error(f"{message} {hint}".strip())
            raise
        self.show_error("")
        return p

    def show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.setVisible(bool(text))


class RecoveryDialog(QDialog):
    """Edit the recovery policy of a job or an instance (``kind``: app.core.recoverypolicy JOB/INSTANCE).
    The section switched off and saved removes the policy."""

    saved = Signal(object)  # the policy saved, or None when removed

    def __init__(self, ctx: AppContext, kind: str, target: str, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from app.core.recoverypolicy import RecoveryPolicyStore

        self.ctx, self.kind, self.target = ctx, kind, target
        self.setObjectName("recoveryDialog")
        self.setWindowTitle(self.tr("Spot recovery of {name}").format(name=title))
        self.setMinimumWidth(560)
        layout = QVBoxLayout(self)
        self.editor = RecoveryEditor(self)
        self.editor.set_policy(RecoveryPolicyStore(ctx.store).get(kind, target))
        layout.addWidget(self.editor)
        self.status_label = PlainLabel(self)
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status_label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel,
                                   self)
        buttons.accepted.connect(self._on_save)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    @Slot()
    def _on_save(self) -> None:
        self.save()

    def save(self) -> bool:
        """Save (or remove, with the section off) the policy; False when a field is refused."""
        from app.core.errors import LabGpuError
        from app.core.recoverypolicy import RecoveryPolicyStore

        try:
            policy = self.editor.checked_policy()
        except LabGpuError:
            return False
        store = RecoveryPolicyStore(self.ctx.store)
        existing = store.get(self.kind, self.target)
        if policy is None:
            if existing is not None:
                store.remove(self.kind, self.target)
            self.saved.emit(None)
        else:
            self.saved.emit(store.set(self.kind, self.target, policy))
        self.accept()
        return True


def policy_summary(p: Any) -> str:
    """One line for a job's details: 'Spot recovery: resume with …; relaunch in …'."""
    from PySide6.QtCore import QCoreApplication

    if p is None or not p.enabled:
        return QCoreApplication.translate("RecoveryEditor", "Spot recovery: off")
    where = [QCoreApplication.translate("RecoveryEditor", "the same zone")]
    if p.other_zones:
        where.append(QCoreApplication.translate("RecoveryEditor", "other zones"))
    where += list(p.regions) + list(p.accounts)
    return QCoreApplication.translate("RecoveryEditor", "Spot recovery: resume with {resume}; relaunch in {where}; "
                                      "at most {n} launch attempts").format(
        resume=p.resume, where=" → ".join(where), n=p.max_attempts)
