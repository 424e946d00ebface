"""What the instances page does to the selected instance: start, stop, terminate (typing the id to
confirm), copy the SSH command, and the dialogs it opens (launch, guards, monthly report, audit log).

:class:`InstanceActions` is mixed into :class:`app.ui.cloud.instances_page.InstancesPage`; its texts
keep the page's translation context ("InstancesPage"). A start, stop or terminate that ends (done or
failed) emits ``Change.LEDGER`` on ``ctx.changes``: this page, the tray and the monitor page read the
ledger again at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QLineEdit, QVBoxLayout, QWidget

from app.ui import theme
from app.ui.cloud import cloud_service, error_sentence
from app.ui.shared.plain import PlainLabel
from app.usecases.changes import Change

if TYPE_CHECKING:
    from app.ui.context import AppContext


class TerminateConfirmDialog(QDialog):
    """Terminating deletes the instance and its disk: the user types the id to confirm."""

    def __init__(self, instance_id: str, detail: str, parent: QWidget | None = None, refusal: str = "") -> None:
        super().__init__(parent)
        self.instance_id = instance_id
        self.setObjectName("terminateConfirm")
        self.setWindowTitle(self.tr("Terminate {id}?").format(id=instance_id))
        layout = QVBoxLayout(self)
        if refusal:  # Stop on an instance the cloud will not stop (AWS: a one-time spot instance)
            why = PlainLabel(
                self.tr(
                    "{id} cannot be stopped ({reason}). Terminating it is the only way to end its bill, "
                    "and it deletes its disk: pull what you need from it first."
                ).format(id=instance_id, reason=refusal),
                self,
            )
            why.setObjectName("stopRefusal")
            why.setWordWrap(True)
            why.setStyleSheet(f"color: {theme.css('warning')}; font-weight: 600;")
            layout.addWidget(why)
        text = PlainLabel(
            self.tr(
                "Terminating {id} ({detail}) deletes the instance and its system disk; data on it "
                "is lost. Billing stops."
            ).format(id=instance_id, detail=detail),
            self,
        )
        text.setWordWrap(True)
        layout.addWidget(text)
        layout.addWidget(PlainLabel(self.tr("Type the instance id to confirm:"), self))
        self.id_edit = QLineEdit(self)
        self.id_edit.setPlaceholderText(instance_id)
        layout.addWidget(self.id_edit)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.ok_button = self.buttons.addButton(self.tr("Terminate"), QDialogButtonBox.ButtonRole.DestructiveRole)
        self.ok_button.setEnabled(False)
        self.ok_button.clicked.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.id_edit.textChanged.connect(lambda t: self.ok_button.setEnabled(t.strip() == instance_id))


class InstanceActions:
    """Actions on the page's selected entry. The page provides ``ctx``, ``status_label``, ``busy``,
    ``guards``, ``_dialogs``, ``selected_entry()``, ``_fill()``, ``load_ledger()``, ``load_guards()``
    and ``reconcile()``."""

    ctx: AppContext
    status_label: QLabel
    busy: set[str]
    guards: dict[str, Any]
    _dialogs: list[Any]
    launch_dialog: Any

    @property
    def page_widget(self) -> QWidget:
        """The page these actions are mixed into (the parent of the dialogs they open)."""
        assert isinstance(self, QWidget)
        return self

    def selected_entry(self) -> Any:
        raise NotImplementedError

    def _fill(self) -> None:
        raise NotImplementedError

    def load_ledger(self) -> Any:
        raise NotImplementedError

    def load_guards(self) -> Any:
        raise NotImplementedError

    def reconcile(self) -> Any:
        raise NotImplementedError

    def _act(self, instance_id: str, fn: Any, done: Any, verb: str) -> Any:
        self.busy.add(instance_id)
        self._fill()
        self.status_label.setStyleSheet("")
        self.status_label.setText(
            QCoreApplication.translate("InstancesPage", "{verb} {id}…").format(verb=verb, id=instance_id)
        )

        def finished(result: Any) -> None:
            self.busy.discard(instance_id)
            done(result)
            self.ctx.changes.emit(Change.LEDGER)  # this page reloads on it, and so does every other view

        def failed(exc: Any) -> None:
            self.busy.discard(instance_id)
            message, hint = error_sentence(exc)
            self.status_label.setStyleSheet(f"color: {theme.css('error')};")
            self.status_label.setText(f"{instance_id}: {message}" + (f"\n{hint}" if hint else ""))
            self.ctx.changes.emit(Change.LEDGER)  # a failed call may still have changed the state

        return self.ctx.runner.run(self.page_widget, fn, instance_id, name=f"instance-{verb}", on_done=finished,
                                   on_error=failed)

    def start_selected(self) -> Any:
        e = self.selected_entry()
        if e is None:
            return None
        return self._act(
            e.id,
            cloud_service(self.ctx).start,
            lambda _r: self.status_label.setText(
                QCoreApplication.translate("InstancesPage", "{id} is starting; it bills again from now.").format(
                    id=e.id
                )
            ),
            QCoreApplication.translate("InstancesPage", "Starting"),
        )

    def stop_selected(self) -> Any:
        e = self.selected_entry()
        if e is None:
            return None

        svc = cloud_service(self.ctx)

        def stop(instance_id: str) -> tuple[str, Any]:
            """("stopped", (entry, note)), or ("refused", why) when the cloud will not stop it: decided
            from the instance's data first (CloudService.stop_refusal), or from the cloud's refusal."""
            from app.cloud.base import StopRefusedError

            why = svc.stop_refusal(instance_id) if e.spot else ""
            if why:
                return "refused", why
            try:
                return "stopped", svc.stop(instance_id)
            except StopRefusedError as exc:
                return "refused", str(exc.params.get("reason_text") or exc.text())

        def done(result: Any) -> None:
            kind, value = result
            if kind == "refused":  # the documented alternative, confirmed: the disk is deleted
                self.status_label.setStyleSheet(f"color: {theme.css('warning')}; font-weight: 600;")
                self.status_label.setText(
                    QCoreApplication.translate("InstancesPage", "{id} cannot be stopped: {reason}.").format(
                        id=e.id, reason=value
                    )
                )
                self.terminate_selected(refusal=str(value))
                return
            _entry, note = value
            self.status_label.setStyleSheet(f"color: {theme.css('warning')}; font-weight: 600;")
            self.status_label.setText(
                QCoreApplication.translate("InstancesPage", "{id} stopped. {note}").format(id=e.id, note=note)
            )

        return self._act(e.id, stop, done, QCoreApplication.translate("InstancesPage", "Stopping"))

    def terminate_selected(self, refusal: str = "") -> Any:
        e = self.selected_entry()
        if e is None:
            return None
        dialog = TerminateConfirmDialog(e.id, f"{e.instance_type}, {e.account}", self.page_widget, refusal=refusal)
        self._keep(dialog)
        dialog.accepted.connect(
            lambda: self._act(
                e.id,
                cloud_service(self.ctx).terminate,
                lambda _r: self.status_label.setText(
                    QCoreApplication.translate("InstancesPage", "{id} terminated: it no longer bills.").format(id=e.id)
                ),
                QCoreApplication.translate("InstancesPage", "Terminating"),
            )
        )
        dialog.open()
        return dialog

    def copy_ssh_command(self) -> str:
        e = self.selected_entry()
        if e is None:
            return ""
        try:
            command = cloud_service(self.ctx).ssh_command(e.id)
        except Exception as exc:  # noqa: BLE001 - shown as a sentence
            message, hint = error_sentence(exc)
            self.status_label.setText(message + (f" {hint}" if hint else ""))
            return ""
        QGuiApplication.clipboard().setText(command)
        self.status_label.setStyleSheet("")
        self.status_label.setText(
            QCoreApplication.translate("InstancesPage", "Copied: {command}").format(command=command)
        )
        return command

    def open_launch(self, offer: Any = None, spot: bool | None = None) -> Any:
        from app.ui.cloud.launch_dialog import open_launch_dialog

        dialog = open_launch_dialog(self.ctx, offer, self.page_widget, spot=spot)
        self.launch_dialog = dialog
        def launched(_result: object) -> None:
            self.ctx.changes.emit(Change.LEDGER)
            self.reconcile()

        dialog.launched.connect(launched)
        self._keep(dialog)
        return dialog

    def edit_guards(self) -> Any:
        from app.ui.shared.guards_ui import EditGuardsDialog

        e = self.selected_entry()
        if e is None:
            return None
        dialog = EditGuardsDialog(self.ctx, e.id, self.guards.get(e.id), True, self.page_widget)
        # the guard use case emits Change.GUARDS on ctx.changes once saved: the page reloads its guards then
        self._keep(dialog)
        dialog.open()
        return dialog

    def open_report(self) -> Any:
        from app.ui.cloud.month_report import MonthReportDialog

        dialog = MonthReportDialog(self.ctx, self.page_widget)
        self._keep(dialog)
        dialog.open()
        return dialog

    def open_audit(self) -> Any:
        from app.ui.cloud.audit_dialog import AuditDialog

        dialog = AuditDialog(self.ctx, self.page_widget)
        self._keep(dialog)
        dialog.open()
        return dialog

    def _keep(self, dialog: Any) -> None:
        """Hold the dialog while it is open; free it once it is done."""
        self._dialogs.append(dialog)

        def forget(_result: int = 0) -> None:
            if dialog in self._dialogs:
                self._dialogs.remove(dialog)
            dialog.deleteLater()

        dialog.finished.connect(forget)
