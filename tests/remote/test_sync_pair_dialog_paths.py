"""The GUI's new-pair dialog accepts the same remote text as the CLI and refuses what the engine
refuses: '..' is refused with the reason shown; '-delete' is kept as typed (the
engine anchors it as ./-delete, so it can never become an option)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog

from app.core.syncplan import remote_target
from app.ui.remote.sync_pair_dialog import SyncPairDialog


def _fill(dlg: SyncPairDialog, local: str, remote: str) -> None:
    dlg.host_combo.setCurrentText("gpu1")
    dlg.local_edit.setText(local)  # an existing folder: the dialog refuses a missing one first
    dlg.remote_edit.setText(remote)


def test_dialog_refuses_parent_paths_and_keeps_dash_paths(qtbot, tmp_path):
    dlg = SyncPairDialog(["gpu1"])
    qtbot.addWidget(dlg)
    _fill(dlg, str(tmp_path), "../../etc")
    dlg._on_buttons_accepted()
    assert dlg.result() != QDialog.DialogCode.Accepted
    assert ".." in dlg.error_label.text()
    _fill(dlg, str(tmp_path), "-delete")
    dlg._on_buttons_accepted()
    assert dlg.result() == QDialog.DialogCode.Accepted
    assert dlg.pair().remote_path == "-delete"
    assert remote_target(dlg.pair().remote_path) == "./-delete"
