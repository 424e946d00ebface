"""The spot recovery policy's editors, driven like a user (pytest-qt): the launch dialog's "Spot recovery"
section (shown for a spot launch only) saves the policy for the instance the Tencent peer launched; a
policy it refuses shows its sentence and next step and nothing is launched; the Jobs view's start form
saves it for the job it started on the test sshd, and its "Spot recovery…" dialog changes and removes a
job's policy — each in the store the watcher's recovery reads (app.core.recoverypolicy)."""

from __future__ import annotations

import sysconfig
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.core.recoverypolicy import INSTANCE, JOB, RecoveryPolicyStore
from tests.remote.gpu_support import save_host
from tests.ui import test_guards_ui as guards_tests
from tests.ui.test_guards_ui import _launch, _offer, _wait_idle

STANDIN = Path(__file__).resolve().parents[1] / "fixtures" / "train_standin.py"
SITE = sysconfig.get_paths()["purelib"]
RESUME = "python train.py --resume {checkpoint}"

ctx = guards_tests.ctx  # the guards tests' fixtures: an English app context, the Tencent peer's account
tc_account = guards_tests.tc_account


def _fill(editor, resume: str = RESUME) -> None:
    editor.setChecked(True)
    editor.resume_edit.setText(resume)
    editor.ckpt_remote.setText("/root/ckpt")
    editor.ckpt_local.setText("~/ckpt")
    editor.regions_edit.setText("ap-shanghai, ap-beijing")
    editor.on_demand_check.setChecked(True)
    editor.budget_spin.setValue(60.0)
    editor.attempts_spin.setValue(4)


def test_a_spot_launch_saves_its_recovery_policy_for_the_new_instance(qtbot, ctx, tc_account, tencent_server):
    from app.ui.cloud.instances_page import InstancesPage

    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    _wait_idle(qtbot, ctx)

    def configure(d):
        assert d.form.recovery_editor.isHidden()  # on demand: nothing is reclaimed, no section
        d.form.spot_check.setChecked(True)
        assert not d.form.recovery_editor.isHidden()
        _fill(d.form.recovery_editor)
        d.form.guard_editor.setChecked(False)

    dialog = _launch(qtbot, ctx, page, configure)
    iid = dialog.launch_result.entry.id
    qtbot.waitUntil(lambda: dialog.recovery_saved is not None, timeout=10000)
    saved = RecoveryPolicyStore(ctx.store).get(INSTANCE, iid)
    assert saved is not None and saved.resume == RESUME and saved.checkpoint_remote == "/root/ckpt"
    assert saved.regions == ("ap-shanghai", "ap-beijing") and saved.on_demand and saved.spot
    assert saved.budget == 60.0 and saved.max_attempts == 4 and saved.other_zones
    assert "Spot recovery: resume with python train.py --resume {checkpoint}" in dialog.form.outcome_label.text()
    dialog.accept()
    _wait_idle(qtbot, ctx)


def test_a_refused_policy_says_why_and_nothing_is_launched(qtbot, ctx, tc_account, tencent_server):
    from app.ui.cloud import cloud_service
    from app.ui.cloud.instances_page import InstancesPage

    page = InstancesPage(ctx)
    qtbot.addWidget(page)
    _wait_idle(qtbot, ctx)
    dialog = page.open_launch(_offer())
    qtbot.waitUntil(lambda: dialog.form.account_combo.count() == 1, timeout=10000)
    qtbot.waitUntil(lambda: dialog.form.cidr_edit.text() == "198.51.100.7/32", timeout=10000)
    dialog.form.spot_check.setChecked(True)
    _fill(dialog.form.recovery_editor, resume="python train.py --resume {ckpt}")
    dialog.form.launch_button.click()
    error = dialog.form.recovery_editor.error_label
    assert error.isVisibleTo(dialog) and "{checkpoint}" in error.text() and "labgpu recovery set" in error.text()
    assert not dialog.running and dialog.form.stack.currentIndex() == 0
    assert cloud_service(ctx).ledger.list() == [] and RecoveryPolicyStore(ctx.store).all() == []
    # switched off, the section asks nothing
    dialog.form.recovery_editor.setChecked(False)
    assert dialog.recovery_policy() is None and not error.isVisibleTo(dialog)
    dialog.close()
    _wait_idle(qtbot, ctx)


@pytest.fixture
def script(sshd, private_home) -> str:
    save_host(sshd, "gpu1")
    folder = sshd.remote_dir("jobs-recovery")
    (folder / "train_standin.py").write_text(STANDIN.read_text())
    sshd.chown_to_user(folder)
    return str(folder / "train_standin.py")


def test_the_jobs_view_saves_changes_and_removes_a_jobs_policy(qtbot, app_window, script):
    ctx, window = app_window
    assert window.show_page("jobs")
    page = window.pages["jobs"]
    qtbot.mouseClick(page.new_button, Qt.MouseButton.LeftButton)
    dlg = page.dialog
    dlg.host_combo.setCurrentText("gpu1")
    dlg.command_edit.setText(f"python3 {script} --steps 100000 --sleep 0.05 --site {SITE}")
    dlg.name_edit.setText("with-recovery")
    assert dlg.recovery_editor.body.isHidden()  # off: folded away
    _fill(dlg.recovery_editor, resume="python3 train.py --resume {nope}")
    qtbot.mouseClick(dlg.start_button, Qt.MouseButton.LeftButton)
    assert page.dialog is dlg and "{checkpoint}" in dlg.recovery_editor.error_label.text()  # not started
    dlg.recovery_editor.resume_edit.setText(f"python3 {script} --resume {{checkpoint}}")
    qtbot.mouseClick(dlg.start_button, Qt.MouseButton.LeftButton)
    assert page.dialog is None
    qtbot.waitUntil(lambda: page.chosen_row() is not None and page.chosen_row().rec.name == "with-recovery",
                    timeout=30_000)
    job_id = page.chosen_row().rec.id
    try:
        store = RecoveryPolicyStore(ctx.store)
        qtbot.waitUntil(lambda: store.get(JOB, job_id) is not None, timeout=10_000)
        assert store.get(JOB, job_id).resume == f"python3 {script} --resume {{checkpoint}}"
        page._show_details()
        assert "Spot recovery: resume with python3" in page.details_label.text()

        # change it from the Jobs view
        edit = page.edit_recovery()
        assert edit.editor.isChecked() and edit.editor.attempts_spin.value() == 4
        edit.editor.attempts_spin.setValue(7)
        edit.editor.other_zones.setChecked(False)
        assert edit.save()
        changed = store.get(JOB, job_id)
        assert changed.max_attempts == 7 and not changed.other_zones and changed.budget == 60.0
        assert "at most 7 launch attempts" in page.details_label.text()
        # a refused change keeps the dialog open and the stored policy as it was
        edit = page.edit_recovery()
        edit.editor.ckpt_local.setText("")
        assert not edit.save() and edit.isVisible() and "both folders" in edit.editor.error_label.text()
        assert store.get(JOB, job_id) == changed
        edit.reject()
        # switched off and saved: removed
        edit = page.edit_recovery()
        edit.editor.setChecked(False)
        assert edit.save()
        assert store.get(JOB, job_id) is None and "Spot recovery: off" in page.details_label.text()
    finally:
        page.stop(job_id)
        qtbot.waitUntil(lambda: page.stop_task is None, timeout=30_000)
