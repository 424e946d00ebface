"""The start form of a training job: host, command (split as a shell would, shown as the argument list it
will run), working folder, an upload sync pair before it, what happens when it ends, the progress
pattern, the TensorBoard log folder and the stall guard. ``spec()`` gives the JobSpec once accepted."""

from __future__ import annotations

import json
import shlex
from dataclasses import fields
from typing import Any

from PySide6.QtCore import Qt, Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import LabGpuError
from app.core.syncmodel import UP
from app.core.syncpairs import SyncPair
from app.core.vocab import JobThen
from app.ui import theme
from app.ui.shared.plain import PlainLabel, cap

MAX_ARGV_SHOWN = 600  # characters of the argument list shown under the command


def split_command(text: str) -> list[str]:
    """The command line split as a POSIX shell splits words (quotes, backslashes), nothing expanded:
    the job runs exactly these arguments. ValueError for an unclosed quote."""
    return shlex.split(text, posix=True)


def argv_text(argv: list[str]) -> str:
    """The argument list as it will run, each argument quoted on its own: ["python", "train.py", "--lr", "3e-4"]."""
    return json.dumps(argv, ensure_ascii=False)


def then_titles() -> list[tuple[JobThen, str]]:
    from PySide6.QtCore import QCoreApplication

    return [(JobThen.NOTHING, QCoreApplication.translate("StartJobDialog", "Nothing")),
            (JobThen.PULL, QCoreApplication.translate("StartJobDialog", "Pull the host's download pairs")),
            (JobThen.PULL_AND_STOP, QCoreApplication.translate("StartJobDialog", "Pull, then stop the instance")),
            (JobThen.PULL_AND_TERMINATE,
             QCoreApplication.translate("StartJobDialog", "Pull, then terminate the instance"))]


class StartJobDialog(QDialog):
    """Opened with ``open()``; read ``spec()`` after ``accepted``. ``pairs``: the saved sync pairs
    (the upload ones of the chosen host are offered)."""

    def __init__(self, hosts: list[str], pairs: list[SyncPair], parent: QWidget | None = None,
                 host: str = "") -> None:
        super().__init__(parent)
        self.setObjectName("startJobDialog")
        self.setWindowTitle(self.tr("Start a job"))
        self.setMinimumWidth(600)
        self.pairs = pairs
        self.argv: list[str] = []
        outer = QVBoxLayout(self)
        note = PlainLabel(self.tr("The command runs on the host detached (in tmux where the host has it): it keeps "
                                  "running when the connection drops, the laptop sleeps or LabGPU closes."), self)
        note.setWordWrap(True)
        outer.addWidget(note)
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)

        self.host_combo = QComboBox(self)
        self.host_combo.setObjectName("jobHost")
        self.host_combo.addItems(hosts)
        if host in hosts:
            self.host_combo.setCurrentText(host)
        self.host_combo.setToolTip(self.tr("A server of the Hosts page, or a running LabGPU instance"))
        self.host_combo.currentTextChanged.connect(self._on_host_changed)
        form.addRow(self.tr("&Host:"), self.host_combo)

        self.name_edit = QLineEdit(self)
        self.name_edit.setObjectName("jobName")
        self.name_edit.setMaxLength(100)
        self.name_edit.setPlaceholderText(self.tr("optional, e.g. resnet50-lr3e-4"))
        form.addRow(self.tr("&Name:"), self.name_edit)

        self.command_edit = QLineEdit(self)
        self.command_edit.setObjectName("jobCommand")
        self.command_edit.setPlaceholderText(self.tr("e.g. python train.py --epochs 10"))
        self.command_edit.textChanged.connect(self._on_command_changed)
        self.argv_label = PlainLabel(self)
        self.argv_label.setObjectName("jobArgv")
        self.argv_label.setWordWrap(True)
        self.argv_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        command = QVBoxLayout()  # the argument list right under the command, as wide as it
        command.setSpacing(2)
        command.addWidget(self.command_edit)
        command.addWidget(self.argv_label)
        command_label = PlainLabel(self.tr("&Command:"), self)
        command_label.setBuddy(self.command_edit)
        form.addRow(command_label, command)

        self.workdir_edit = QLineEdit(self)
        self.workdir_edit.setObjectName("jobWorkdir")
        self.workdir_edit.setPlaceholderText(self.tr("on the host; empty: the login folder"))
        form.addRow(self.tr("&Working folder:"), self.workdir_edit)

        self.sync_combo = QComboBox(self)
        self.sync_combo.setObjectName("jobSync")
        self.sync_combo.setToolTip(self.tr("An upload pair of this host (Sync page), synced before the job starts"))
        form.addRow(self.tr("&Upload first:"), self.sync_combo)

        self.then_combo = QComboBox(self)
        self.then_combo.setObjectName("jobThen")
        for value, title in then_titles():
            self.then_combo.addItem(title, value.value)
        self.then_combo.setToolTip(self.tr("Pulls run the host's download pairs (Sync page) first; stop and "
                                           "terminate are for LabGPU's own instances"))
        self.then_combo.currentIndexChanged.connect(self._on_then_changed)
        form.addRow(self.tr("When it &ends:"), self.then_combo)
        self.failure_check = QCheckBox(self.tr("Also stop or terminate when the job fails"), self)
        self.failure_check.setObjectName("jobStopOnFailure")
        self.failure_check.setToolTip(self.tr("Off: a job that exits with an error is pulled and you are told, "
                                              "and the instance keeps running so you can look at it"))
        form.addRow("", self.failure_check)

        self.pattern_edit = QLineEdit(self)
        self.pattern_edit.setObjectName("jobPattern")
        self.pattern_edit.setPlaceholderText(self.tr("optional regex with (?P<step>…), e.g. iter (?P<step>\\d+)"))
        self.pattern_edit.setToolTip(self.tr("tqdm bars, Hugging Face Trainer, PyTorch Lightning and 'step N' "
                                             "lines are read without one"))
        form.addRow(self.tr("&Progress pattern:"), self.pattern_edit)

        self.tb_edit = QLineEdit(self)
        self.tb_edit.setObjectName("jobTbLogdir")
        self.tb_edit.setPlaceholderText(self.tr("optional, on the host, e.g. runs/exp1"))
        form.addRow(self.tr("&TensorBoard folder:"), self.tb_edit)

        stall_row = QHBoxLayout()
        self.stall_spin = QSpinBox(self)
        self.stall_spin.setObjectName("jobStallMinutes")
        self.stall_spin.setRange(0, 10080)
        self.stall_spin.setSpecialValueText(self.tr("off"))
        self.stall_spin.setSuffix(self.tr(" min"))
        self.stall_spin.setToolTip(self.tr("No new step, log line or TensorBoard event for this long while the "
                                           "job runs: you are told"))
        self.stall_action = QComboBox(self)
        self.stall_action.setObjectName("jobStallAction")
        self.stall_action.addItem(self.tr("notify"), "notify")
        self.stall_action.addItem(self.tr("notify, pull and stop"), "stop")
        stall_row.addWidget(self.stall_spin)
        stall_row.addWidget(self.stall_action, 1)
        stall_label = PlainLabel(self.tr("&Stall guard:"), self)
        stall_label.setBuddy(self.stall_spin)
        form.addRow(stall_label, stall_row)
        outer.addLayout(form)
        from app.ui.shared.recovery_ui import RecoveryEditor

        # Spot recovery: saved for the job once it started (a job's policy wins over its instance's).
        self.recovery_editor = RecoveryEditor(self)
        outer.addWidget(self.recovery_editor)

        self.error_label = PlainLabel(self)
        self.error_label.setObjectName("jobFormError")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"color: {theme.css('error')};")
        self.error_label.hide()
        outer.addWidget(self.error_label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.start_button = buttons.addButton(self.tr("&Start"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.start_button.setObjectName("jobStart")
        self.start_button.setDefault(True)
        buttons.accepted.connect(self._on_accept)
        buttons.rejected.connect(self.reject)
        outer.addWidget(buttons)
        self._on_host_changed(self.host_combo.currentText())
        self._on_command_changed("")
        self._on_then_changed(0)

    # fields ----------------------------------------------------------------------------------------
    @Slot(str)
    def _on_host_changed(self, host: str) -> None:
        self.sync_combo.clear()
        self.sync_combo.addItem(self.tr("nothing"), None)
        for p in self.pairs:
            if p.host == host and p.direction == UP and p.id is not None:
                self.sync_combo.addItem(cap(f"{p.local_path} → {p.remote_path}", 120), p.id)

    @Slot(str)
    def _on_command_changed(self, text: str) -> None:
        try:
            self.argv = split_command(text)
        except ValueError as exc:
            self.argv = []
            self.argv_label.setText(self.tr("Not a complete command: {why}").format(why=str(exc)))
            self.argv_label.setStyleSheet(f"color: {theme.css('error')};")
            return
        self.argv_label.setStyleSheet("color: palette(mid);")
        if not self.argv:
            self.argv_label.setText(self.tr("Split as a shell splits words; nothing is expanded or run by a "
                                            "shell on the way."))
            return
        self.argv_label.setText(self.tr("Runs {n} arguments, exactly: {argv}").format(
            n=len(self.argv), argv=cap(argv_text(self.argv), MAX_ARGV_SHOWN)))

    @Slot(int)
    def _on_then_changed(self, _i: int) -> None:
        stops = self.then() in (JobThen.PULL_AND_STOP, JobThen.PULL_AND_TERMINATE)
        self.failure_check.setEnabled(stops)
        if not stops:
            self.failure_check.setChecked(False)

    def then(self) -> JobThen:
        return JobThen(str(self.then_combo.currentData()))

    # result ----------------------------------------------------------------------------------------
    def spec(self) -> Any:
        """The JobSpec of the form (app.core.jobs); InputError for a value that cannot work."""
        from app.core.jobs import JobSpec

        pattern = self.pattern_edit.text().strip() or None
        if pattern is not None:
            from app.core.jobprogress import validate_pattern

            validate_pattern(pattern)
        values: dict[str, Any] = {
            "host": self.host_combo.currentText().strip(), "argv": list(self.argv),
            "name": self.name_edit.text().strip(), "workdir": self.workdir_edit.text().strip(),
            "sync_pair": self.sync_combo.currentData(), "then": self.then(), "progress_pattern": pattern,
            "tb_logdir": self.tb_edit.text().strip() or None,
            "stall_minutes": float(self.stall_spin.value()) if self.stall_spin.value() else None,
            "stall_action": str(self.stall_action.currentData()),
        }
        known = {f.name for f in fields(JobSpec)}
        if "stop_on_failure" in known:
            values["stop_on_failure"] = self.failure_check.isChecked()
        return JobSpec(**{k: v for k, v in values.items() if k in known}).validate()

    def recovery_policy(self) -> Any:
        """The spot recovery policy for the job (validated), or None when the section is off; a refused
        field shows in the section and raises (LabGpuError)."""
        return self.recovery_editor.checked_policy()

    @Slot()
    def _on_accept(self) -> None:
        if not self.argv:
            self._show_error(self.tr("Type the command to run."))
            return
        try:
            self.recovery_policy()
        except LabGpuError:  # the section says what is wrong and what to do
            return
        try:
            self.spec()
        except LabGpuError as exc:
            from app.ui.errors import describe

            message, hint = describe(exc)
            self._show_error(f"{message} {hint}".strip())
            return
        self.accept()

    def _show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.error_label.show()
