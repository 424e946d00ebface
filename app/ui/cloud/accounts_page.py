"""Cloud accounts: list, add, edit, remove, import (the importers the plugins declare) and test connection.

The list comes from the Store (names, regions, masked key ids); secrets stay in the keyring and
are read only by a test or a launch, off the GUI thread. When no keyring backend exists the page
says what to install and offers nothing that would need one.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt, Slot
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QMenu,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.core import providers
from app.core.i18n import join_names, translate
from app.ui import theme
from app.ui.cloud import cloud_service, cloud_settings, error_sentence, provider_name, remember
from app.ui.shared.plain import PlainLabel, plain_box, plain_tooltip
from app.ui.widgets import configure_record_table

if TYPE_CHECKING:
    from app.core.accounts import ImportResult
    from app.ui.context import AppContext


class AccountsPage(QWidget):
    page_id = "accounts"

    COLUMNS = ("name", "provider", "region", "endpoint", "key", "source", "status")

    @staticmethod
    def nav_title() -> str:
        return QCoreApplication.translate("AccountsPage", "Accounts")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.infos: list[Any] = []
        # account → (ok, sentence) of the last test, kept across restarts (no secret in it)
        self.status: dict[str, tuple[bool, str]] = dict(cloud_settings(ctx).tests)
        self.keyring_ok: bool | None = None
        self._dialog: Any = None
        self._build()
        self.refresh()
        self._check_keyring()

    # -- layout ----------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 16)
        title = PlainLabel(self.tr("Cloud accounts"), self)
        title.setStyleSheet("font-size: 18px; font-weight: 600;")
        layout.addWidget(title)
        self.keyring_banner = PlainLabel(self)
        self.keyring_banner.setObjectName("keyringBanner")
        self.keyring_banner.setWordWrap(True)
        self.keyring_banner.setStyleSheet(
            f"background: {theme.css('note_bg')}; color: {theme.css('warning')}; padding: 8px;"
            f" border: 1px solid {theme.css('note_border')}; border-radius: 4px;"
        )
        self.keyring_banner.hide()
        layout.addWidget(self.keyring_banner)
        bar = QHBoxLayout()
        self.add_button = QPushButton(self.tr("Add…"), self)
        self.add_button.setToolTip(self.tr("Add an account (Ctrl+N)"))
        self.add_button.clicked.connect(self._on_add_button_clicked)
        self.edit_button = QPushButton(self.tr("Edit…"), self)
        self.edit_button.clicked.connect(self._on_edit_button_clicked)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.clicked.connect(self._on_remove_button_clicked)
        self.test_button = QPushButton(self.tr("Test connection"), self)
        self.test_button.setToolTip(self.tr("Ask the cloud whether these keys work (Ctrl+T)"))
        self.test_button.clicked.connect(self._on_test_button_clicked)
        self.import_button = QToolButton(self)
        self.import_button.setText(self.tr("Import"))
        self.import_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.import_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.import_button.setMinimumWidth(96)
        menu = QMenu(self.import_button)
        # One entry per importer the provider plugins declare (ProviderSpec.importers); each action
        # is also the attribute import_<id>_action.
        self.import_actions: dict[str, QAction] = {}
        for _owner, decl in providers.importers():
            action = menu.addAction(translate(decl.label))
            action.triggered.connect(lambda _checked=False, key=decl.id: self.run_import(key))
            self.import_actions[decl.id] = action
            setattr(self, f"import_{decl.id}_action", action)
        self.import_button.setMenu(menu)
        for w in (
            self.add_button,
            self.edit_button,
            self.remove_button,
            self.test_button,
            self.import_button,
        ):
            bar.addWidget(w)
        bar.addStretch(1)
        layout.addLayout(bar)
        self.table = QTableWidget(0, len(self.COLUMNS), self)
        self.table.setObjectName("accountsTable")
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Name"),
                self.tr("Provider"),
                self.tr("Region"),
                self.tr("Endpoint"),
                self.tr("Key id"),
                self.tr("Source"),
                self.tr("Last test"),
            ]
        )
        configure_record_table(self.table)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.doubleClicked.connect(lambda _i: self._on_edit_button_clicked())
        layout.addWidget(self.table, 1)
        self.result_label = PlainLabel(self)
        self.result_label.setObjectName("testResult")
        self.result_label.setWordWrap(True)
        self.result_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.result_label)
        self.empty_label = PlainLabel(
            self.tr(
                "No cloud account yet. Add one with your {clouds} keys, or import the keys their own "
                "command-line tools already keep on this computer (Import)."
            ).format(clouds=join_names([providers.display_name(p) for p in providers.launchable_ids()])),
            self,
        )
        self.empty_label.setWordWrap(True)
        layout.addWidget(self.empty_label)
        QShortcut(QKeySequence.StandardKey.New, self, self._on_add_button_clicked)
        QShortcut(QKeySequence("Ctrl+T"), self, self._on_test_button_clicked)
        QShortcut(QKeySequence.StandardKey.Delete, self.table, self._on_remove_button_clicked)
        self._update_buttons()

    # -- data ------------------------------------------------------------------------------------
    def refresh(self) -> None:
        svc = cloud_service(self.ctx)
        self.ctx.runner.run(
            self,
            svc.accounts.infos,
            name="list-accounts",
            on_done=self._on_infos_loaded,
            on_error=self.ctx.errors.report,
        )

    def _check_keyring(self) -> None:
        from app.core import secrets

        def probe() -> tuple[bool, str, str]:
            try:
                secrets.get_secret("probe:keyring-available")  # raises where no real backend exists
            except secrets.SecretsUnavailableError as exc:
                return False, exc.text(), exc.hint()
            except secrets.SecretsError:
                return True, "", ""  # a locked keyring: saving will say so and how to unlock
            return True, "", ""

        self.ctx.runner.run(self, probe, name="keyring-probe", on_done=self._on_keyring_probed)

    @Slot(object)
    def _on_keyring_probed(self, result: tuple[bool, str, str]) -> None:
        ok, _message, hint = result
        self.keyring_ok = bool(ok)
        if not ok:
            self.keyring_banner.setText(
                self.tr(
                    "No secure keyring: LabGPU cannot store cloud keys on this computer."
                )
                + f"\n{hint}"
            )
        self.keyring_banner.setVisible(not ok)
        self.empty_label.setVisible(not self.infos and self.keyring_ok is not False)  # the banner says what to do
        self._update_buttons()

    @Slot(object)
    def _on_infos_loaded(self, infos: object) -> None:
        selected = self.selected_name()
        self.infos = list(infos)  # type: ignore[call-overload]
        self.table.setRowCount(len(self.infos))
        for row, info in enumerate(self.infos):
            acc = info.account
            ok, sentence = self.status.get(acc.name, (None, ""))
            status = "" if ok is None else ("✓ " if ok else "✗ ") + sentence
            values = [
                acc.name,
                provider_name(acc.provider),
                acc.region,
                acc.endpoint or self.tr("default"),
                info.key_id_masked,
                self.source_title(info.source),
                status,
            ]
            for col, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setData(Qt.ItemDataRole.UserRole, acc.name)
                if col == 6 and ok is not None:
                    item.setForeground(theme.color("ok" if ok else "error"))
                    item.setToolTip(plain_tooltip(sentence))
                self.table.setItem(row, col, item)
            if acc.name == selected:
                self.table.selectRow(row)
        if self.infos and not self.table.selectedItems():
            self.table.selectRow(0)
        self.empty_label.setVisible(not self.infos and self.keyring_ok is not False)
        self._update_buttons()

    def selected_name(self) -> str:
        items = self.table.selectedItems()
        return str(items[0].data(Qt.ItemDataRole.UserRole)) if items else ""

    def select(self, name: str) -> None:
        for row in range(self.table.rowCount()):
            item = self.table.item(row, 0)
            if item is not None and item.text() == name:
                self.table.selectRow(row)

    def _update_buttons(self) -> None:
        has = bool(self.selected_name())
        can_store = self.keyring_ok is not False
        self.add_button.setEnabled(can_store)
        self.import_button.setEnabled(can_store)
        self.edit_button.setEnabled(has)
        self.remove_button.setEnabled(has)
        self.test_button.setEnabled(has)

    # -- actions ---------------------------------------------------------------------------------
    @Slot()
    def _on_add_button_clicked(self) -> None:
        self.open_dialog()

    @Slot()
    def _on_edit_button_clicked(self) -> None:
        name = self.selected_name()
        info = next((i for i in self.infos if i.account.name == name), None)
        if info is not None:
            self.open_dialog(info)

    def open_dialog(self, info: Any = None) -> Any:
        from app.ui.cloud.account_dialog import AccountDialog

        dialog = AccountDialog(self.ctx, self, edit=info)
        dialog.saved.connect(self._on_dialog_saved)
        self._dialog = dialog
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    @Slot(str)
    def _on_dialog_saved(self, name: str) -> None:
        self.status.pop(name, None)
        self._save_status()
        self.result_label.setText(
            self.tr("Saved {name}. Use Test connection to check the keys.").format(name=name)
        )
        self.refresh()

    @Slot()
    def _on_remove_button_clicked(self) -> None:
        name = self.selected_name()
        if not name:
            return
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Remove account"),
            self.tr("Remove the account {name} and delete its keys from the keyring?").format(name=name),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setInformativeText(
            self.tr(
                "Instances it launched keep running and billing: stop or terminate them "
                "first on the Instances page."
            )
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(
            lambda result: self._remove_confirmed(name) if result == QMessageBox.StandardButton.Yes else None
        )
        self._dialog = plain_box(box)  # the account's name is data
        box.finished.connect(box.deleteLater)
        box.open()

    def _remove_confirmed(self, name: str) -> None:
        svc = cloud_service(self.ctx)
        self.ctx.runner.run(
            self,
            svc.accounts.remove,
            name,
            name="remove-account",
            on_done=lambda _r: self._on_removed(name),
            on_error=self._on_action_failed,
        )

    def _on_removed(self, name: str) -> None:
        self.status.pop(name, None)
        self._save_status()
        self.result_label.setText(self.tr("Removed {name}.").format(name=name))
        self.refresh()

    @Slot()
    def _on_test_button_clicked(self) -> None:
        name = self.selected_name()
        if not name:
            return
        self.test(name)

    def test(self, name: str) -> Any:
        svc = cloud_service(self.ctx)
        self.test_button.setEnabled(False)
        self.result_label.setText(self.tr("Testing {name}…").format(name=name))
        return self.ctx.runner.run(
            self,
            svc.test_connection,
            name,
            name="test-account",
            on_done=lambda who: self._on_tested(name, True, str(who)),
            on_error=lambda exc: self._on_tested(name, False, exc),
        )

    def _on_tested(self, name: str, ok: bool, result: Any) -> None:
        if ok:
            sentence = self.tr("Connected: {who}").format(who=result)
            self.result_label.setStyleSheet(f"color: {theme.css('ok')};")
            self.result_label.setText(f"{name}: {sentence}")
        else:
            message, hint = error_sentence(result)
            sentence = message
            self.result_label.setStyleSheet(f"color: {theme.css('error')};")
            self.result_label.setText(f"{name}: {message}" + (f"\n{hint}" if hint else ""))
        self.status[name] = (ok, time.strftime("%Y-%m-%d %H:%M ") + sentence)
        self._save_status()
        self.test_button.setEnabled(True)
        self._on_infos_loaded(self.infos)

    def _save_status(self) -> None:
        remember(self.ctx, tests=dict(self.status))

    def source_title(self, source: str) -> str:
        kind, _, rest = source.partition(":")
        if kind == "manual":
            return self.tr("typed in")
        declared = providers.source_title(source)
        if declared is not None:
            return declared
        if kind == "env":
            return self.tr("environment ({name})").format(name=rest)
        return source

    def _on_action_failed(self, exc: object) -> None:
        message, hint = error_sentence(exc)  # type: ignore[arg-type]
        self.result_label.setStyleSheet(f"color: {theme.css('error')};")
        self.result_label.setText(message + (f"\n{hint}" if hint else ""))

    # -- import ----------------------------------------------------------------------------------
    def run_import(self, importer_id: str) -> Any:
        """Run a plugin's account importer off the GUI thread and add what it finds."""
        from app.cloud.registry import run_importer

        svc = cloud_service(self.ctx)
        env = dict(os.environ)
        return self.ctx.runner.run(
            self,
            lambda: svc.accounts.import_candidates(run_importer(importer_id, env=env)),
            name=f"import-{importer_id}",
            on_done=self._on_imported,
            on_error=self._on_action_failed,
        )

    @Slot(object)
    def _on_imported(self, imported: Iterable[ImportResult]) -> None:
        results = list(imported)
        if not results:
            self.result_label.setText(self.tr("Nothing to import: no keys were found in those places."))
        else:
            added = [r.name for r in results if r.status == "added"]
            skipped = [r.name for r in results if r.status == "skipped"]
            text = self.tr("Imported: {added}.").format(added=", ".join(added) or self.tr("none"))
            if skipped:
                text += " " + self.tr("Already there (kept): {names}.").format(names=", ".join(skipped))
            self.result_label.setStyleSheet("")
            self.result_label.setText(text)
        self.refresh()

    def shutdown(self) -> None:
        if self._dialog is not None:
            try:
                self._dialog.close()
            except RuntimeError:
                pass
