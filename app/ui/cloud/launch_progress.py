"""The launch dialog's progress page (app/ui/cloud/launch_dialog.py inherits it): each step of the launch as it
happens, and the wait for a free GPU ("If sold out: keep trying for …", app/usecases/waitlaunch.py) driven on the
launch task, one line updated per round, with Stop waiting (the task ends at its next pause)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtWidgets import QListWidgetItem

from app.usecases.launch import GUARD_STEP

if TYPE_CHECKING:
    from app.cloud.launch_plan import LaunchOptions
    from app.core.guards import GuardConfig
    from app.ui.cloud.launch_form import LaunchForm
    from app.usecases.launch import LaunchOutcome


WAIT_STEP = "sold_out"  # the "keep trying" rounds (app/usecases/waitlaunch.py), one line updated per round


def step_title(step: str) -> str:
    titles = {
        "key": QCoreApplication.translate("LaunchDialog", "Register the SSH key"),
        "security_group": QCoreApplication.translate(
            "LaunchDialog", "Security group (SSH from your address only)"
        ),
        "image": QCoreApplication.translate("LaunchDialog", "Choose the image"),
        "request": QCoreApplication.translate("LaunchDialog", "Request the instance"),
        "zone": QCoreApplication.translate("LaunchDialog", "Try another zone"),
        "wait": QCoreApplication.translate("LaunchDialog", "Wait until it runs"),
        GUARD_STEP: QCoreApplication.translate("LaunchDialog", "Guards and watchdog"),
        WAIT_STEP: QCoreApplication.translate("LaunchDialog", "Wait for a free GPU"),
    }
    return titles.get(step, step)


class LaunchProgress:
    """The steps list, the keep-trying wait and Stop waiting, on the dialog's form."""

    form: LaunchForm

    def _init_progress(self) -> None:
        self._step_items: dict[str, QListWidgetItem] = {}
        self._current_step = ""
        self._stop_waiting = threading.Event()  # "Stop waiting": the keep-trying task ends at its next pause

    def _start_progress(self, opts: LaunchOptions, until: str) -> None:
        """The progress page for a launch (``until``: how long to keep trying while sold out, "" for none)."""
        self.form.launch_button.setEnabled(False)
        self.form.back_button.hide()
        self.form.close_button.setText(QCoreApplication.translate("LaunchDialog", "Hide"))
        self.form.close_button.setToolTip(QCoreApplication.translate(
            "LaunchDialog", "The launch goes on; the instance appears on the Instances page."
        ))
        self.form.stack.setCurrentIndex(1)
        self.form.progress_title.setText(
            QCoreApplication.translate("LaunchDialog", "Launching {type} with {account}…").format(
                type=opts.instance_type, account=opts.account)
            if not until else
            QCoreApplication.translate("LaunchDialog", "Waiting for {type} with {account}…").format(
                type=opts.instance_type, account=opts.account)
        )
        self._stop_waiting.clear()
        self.form.stop_wait_button.setEnabled(True)
        self.form.stop_wait_button.setVisible(bool(until))
        self.form.steps_list.clear()
        self._step_items.clear()
        self._current_step = ""
        self.form.outcome_label.clear()

    def _wait_for_gpu(self, svc: Any, settings: Any, opts: LaunchOptions, guard: GuardConfig | None, changes: Any,
                      until: str, task: Any, progress: Any) -> LaunchOutcome:
        """On the task's thread: store the wait and drive it until it lands, ends, or Stop waiting."""
        import dataclasses

        from app.core.launchwaits import WAITING
        from app.usecases.waitlaunch import WaitLauncher, ended_error, notify_announce, parse_duration

        stop = self._stop_waiting
        waiter = WaitLauncher(svc, settings, changes=changes, announce=notify_announce(svc.paths),
                              launch_progress=progress)
        wait = waiter.create(dataclasses.replace(opts, guard=guard), until_s=parse_duration(until),
                             max_price=opts.max_price if opts.spot else None,
                             zones=[opts.zone] if opts.zone else [], hold=True)
        out = waiter.run(wait.id, sleep=lambda s: None if stop.wait(s) else None,
                         progress=lambda text: task.report((WAIT_STEP, text)), stop=stop.is_set)
        if out.launched is not None:
            return out.launched
        if stop.is_set() and out.wait.state == WAITING:
            out = dataclasses.replace(out, wait=waiter.cancel(wait.id))
        raise ended_error(out.wait)

    @Slot()
    def _on_stop_wait_button_clicked(self) -> None:
        self._stop_waiting.set()
        self.form.stop_wait_button.setEnabled(False)

    def _mark(self, step: str, symbol: str, message: str = "") -> None:
        item = self._step_items.get(step)
        if item is None:
            item = QListWidgetItem()
            self._step_items[step] = item
            self.form.steps_list.addItem(item)
        item.setText(f"{symbol}  {step_title(step)}" + (f" — {message}" if message else ""))
        item.setData(Qt.ItemDataRole.UserRole, symbol)

    @Slot(object)
    def _on_launch_progress(self, payload: object) -> None:
        step, message = cast("tuple[str, str]", payload)
        if self._current_step and self._current_step != step:
            old = self._step_items.get(self._current_step)
            if old is not None and old.data(Qt.ItemDataRole.UserRole) == "…":
                old.setText("✓" + old.text()[1:])
                old.setData(Qt.ItemDataRole.UserRole, "✓")
        self._current_step = step
        self._mark(step, "…", str(message))

    def _end_progress(self, failed: bool) -> None:
        """The launch ended: no more waiting; the step under way failed (✗), or every open step is done (✓)."""
        self.form.stop_wait_button.hide()
        if failed:
            self._mark(self._current_step or "request", "✗")
            return
        for item in self._step_items.values():
            if item.data(Qt.ItemDataRole.UserRole) == "…":
                item.setText("✓" + item.text()[1:])
                item.setData(Qt.ItemDataRole.UserRole, "✓")
