"""Add/edit a sync pair: host, local folder, remote folder, direction, excludes and options."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QRadioButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.core.errors import LabGpuError
from app.core.syncmodel import DOWN, UP
from app.core.syncpairs import SyncPair
from app.core.syncplan import DEFAULT_EXCLUDES, remote_target
from app.ui import theme
from app.ui.shared.plain import PlainLabel


class SyncPairDialog(QDialog):
    """Opened non-modally with ``open()``; read ``pair()`` after ``accepted``."""

    def __init__(self, hosts: list[str], pair: SyncPair | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Edit sync pair") if pair else self.tr("New sync pair"))
        self.setMinimumWidth(560)
        self._id = pair.id if pair else None
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)

        self.host_combo = QComboBox(self)
        self.host_combo.setEditable(True)
        self.host_combo.addItems(hosts)
        self.host_combo.setMinimumWidth(240)
        self.host_combo.setToolTip(self.tr("A host from the Hosts page (or labgpu hosts add)"))
        form.addRow(self.tr("&Host:"), self.host_combo)

        local_row = QHBoxLayout()
        self.local_edit = QLineEdit(self)
        self.local_edit.setPlaceholderText(self.tr("Folder on this computer"))
        browse = QPushButton(self.tr("&Browse…"), self)
        browse.clicked.connect(self._on_browse_clicked)
        local_row.addWidget(self.local_edit, 1)
        local_row.addWidget(browse)
        local_label = PlainLabel(self.tr("&Local folder:"), self)
        local_label.setBuddy(self.local_edit)
        form.addRow(local_label, local_row)

        self.remote_edit = QLineEdit(self)
        self.remote_edit.setPlaceholderText(self.tr("e.g. ~/data or /mnt/datasets/imagenet"))
        form.addRow(self.tr("&Remote folder:"), self.remote_edit)

        dir_row = QHBoxLayout()
        self.up_radio = QRadioButton(self.tr("&Upload (local → remote)"), self)
        self.down_radio = QRadioButton(self.tr("Do&wnload (remote → local)"), self)
        group = QButtonGroup(self)
        group.addButton(self.up_radio)
        group.addButton(self.down_radio)
        self.up_radio.setChecked(True)
        dir_row.addWidget(self.up_radio)
        dir_row.addWidget(self.down_radio)
        dir_row.addStretch(1)
        form.addRow(self.tr("Direction:"), dir_row)

        self.excludes_edit = QPlainTextEdit(self)
        self.excludes_edit.setPlaceholderText(
            self.tr("One pattern per line, .gitignore syntax, e.g.\n*.ckpt\nruns/\n!runs/best.ckpt")
        )
        self.excludes_edit.setFixedHeight(90)
        form.addRow(self.tr("E&xcludes:"), self.excludes_edit)
        note = PlainLabel(self.tr("Always excluded: {names}").format(names="  ".join(DEFAULT_EXCLUDES)), self)
        note.setStyleSheet("color: palette(mid);")
        form.addRow("", note)

        self.gitignore_check = QCheckBox(self.tr("Honour .gitignore files in the source folder"), self)
        self.delete_check = QCheckBox(
            self.tr("Mirror: delete destination files missing from the source (shown in the preview first)"),
            self,
        )
        self.verify_check = QCheckBox(self.tr("Verify with sha256 (slower, reads every file)"), self)
        for cb in (self.gitignore_check, self.delete_check, self.verify_check):
            form.addRow("", cb)

        self.bw_spin = QSpinBox(self)
        self.bw_spin.setRange(0, 10_000_000)
        self.bw_spin.setSingleStep(1024)
        self.bw_spin.setSuffix(self.tr(" KiB/s"))
        self.bw_spin.setSpecialValueText(self.tr("unlimited"))
        form.addRow(self.tr("&Bandwidth limit:"), self.bw_spin)

        self.error_label = PlainLabel("", self)
        self.error_label.setStyleSheet(f"color: {theme.css('error')};")
        self.error_label.setWordWrap(True)

        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
            Qt.Orientation.Horizontal,
            self,
        )
        buttons.accepted.connect(self._on_buttons_accepted)
        buttons.rejected.connect(self.reject)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error_label)
        layout.addWidget(buttons)
        if pair:
            self.host_combo.setCurrentText(pair.host)
            self.local_edit.setText(pair.local_path)
            self.remote_edit.setText(pair.remote_path)
            (self.down_radio if pair.direction == DOWN else self.up_radio).setChecked(True)
            self.excludes_edit.setPlainText("\n".join(pair.excludes))
            self.gitignore_check.setChecked(pair.gitignore)
            self.delete_check.setChecked(pair.mirror_delete)
            self.verify_check.setChecked(pair.verify)
            self.bw_spin.setValue(int(pair.bwlimit_kbps or 0))

    def _on_browse_clicked(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self, self.tr("Choose the local folder"), self.local_edit.text()
        )
        if path:
            self.local_edit.setText(path)

    def _on_buttons_accepted(self) -> None:
        if not self.host_combo.currentText().strip():
            self.error_label.setText(self.tr("Choose a host. Add one on the Hosts page first."))
            return
        if not self.local_edit.text().strip():
            self.error_label.setText(self.tr("Enter the local folder."))
            return
        local = Path(self.local_edit.text().strip()).expanduser()
        if local.exists() and not local.is_dir():
            self.error_label.setText(self.tr("{path} is a file, not a folder. Choose a folder with Browse.").format(
                path=str(local)))
            return
        if not local.exists() and (not self.down_radio.isChecked() or not local.parent.is_dir()):
            # Upload reads the folder; a download may create it, but only inside a folder that exists.
            self.error_label.setText(self.tr("The folder {folder} does not exist on this computer. Check the path "
                                             "or choose a folder with Browse.").format(folder=str(local)))
            return
        if not self.remote_edit.text().strip():
            self.error_label.setText(self.tr("Enter the remote folder."))
            return
        try:
            remote_target(self.remote_edit.text().strip())  # the same check the engine makes
        except LabGpuError as exc:
            self.error_label.setText(f"{exc.text()} {exc.hint()}".strip())
            return
        self.accept()

    def pair(self) -> SyncPair:
        excludes = [ln.strip() for ln in self.excludes_edit.toPlainText().splitlines() if ln.strip()]
        return SyncPair(
            host=self.host_combo.currentText().strip(),
            local_path=self.local_edit.text().strip(),
            remote_path=self.remote_edit.text().strip(),
            direction=DOWN if self.down_radio.isChecked() else UP,
            excludes=excludes,
            gitignore=self.gitignore_check.isChecked(),
            mirror_delete=self.delete_check.isChecked(),
            verify=self.verify_check.isChecked(),
            bwlimit_kbps=float(self.bw_spin.value()) or None,
            id=self._id,
        )
