"""Launch a GPU instance: from an offer (prefilled) or from the instances page.

The form asks for the account, zone, image, disk, SSH key, who may reach SSH (prefilled with this
computer's public address) and spot with a maximum price (default: the settings' fraction of the
on-demand price). Launch shows each step as it happens; an error shows its sentence and next step
and a Retry that reuses the same client token, so a retry, a double click or a timeout never makes
a second instance. The progress page (steps, keep trying, Stop waiting) is launch_progress.py.

Other pages open it with ``open_launch_dialog(ctx, offer, parent)``, or navigate to the instances
page with ``ctx.navigate("instances", {"launch": offer})``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Signal, Slot
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QFileDialog, QVBoxLayout, QWidget

from app.core import providers
from app.ui import theme
from app.ui.cloud import cloud_service, cloud_settings, error_sentence, money, provider_name, remember
from app.ui.cloud.launch_form import LaunchForm
from app.ui.cloud.launch_progress import LaunchProgress
from app.usecases.launch import LaunchOutcome, LaunchPlan

if TYPE_CHECKING:
    from app.cloud.launch_plan import LaunchOptions, LaunchResult
    from app.core.guards import GuardConfig
    from app.core.models import Offer
    from app.ui.context import AppContext


class LaunchDialog(LaunchProgress, QDialog):
    launched = Signal(object)  # LaunchResult

    def __init__(self, ctx: AppContext, offer: Offer | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        from app.cloud.launch_plan import new_client_token

        self.ctx = ctx
        self.offer = offer
        self.client_token = new_client_token()  # one per dialog: retries reuse it
        self.accounts: list[Any] = []
        self.on_demand: tuple[float | None, str] = (None, "")
        self.billing_currency = "USD"  # the chosen account's, once the background load said it
        self.launch_result: LaunchResult | None = None
        self.guard_saved: GuardConfig | None = None  # the guard as the launch saved it
        self.recovery_saved: Any = None  # the spot recovery policy as the launch saved it (app.core.recoverypolicy)
        self.plan: LaunchPlan | None = None  # the launch's defaults, worked out once for the chosen account and type
        self.error: BaseException | None = None
        self.running = False
        self._zone_request = 0
        self._init_progress()
        self.setObjectName("launchDialog")
        self.setWindowTitle(self.tr("Launch a GPU instance"))
        self.setMinimumSize(760, 600)
        self._build()
        self._load_accounts()
        self._detect_address()

    # -- layout ----------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.form = LaunchForm(self.ctx, self.offer, self)
        layout.addWidget(self.form)
        f = self.form
        f.account_combo.currentIndexChanged.connect(self._on_account_combo_changed)
        f.accounts_button.clicked.connect(self._on_accounts_button_clicked)
        f.type_edit.editingFinished.connect(self._on_type_edit_finished)
        f.key_browse.clicked.connect(self._on_key_browse_clicked)
        f.key_path_edit.textChanged.connect(self._update_key_note)
        f.key_file_radio.toggled.connect(self._update_key_note)
        f.spot_check.toggled.connect(self._on_spot_check_toggled)
        f.copy_ssh_button.clicked.connect(self._on_copy_ssh_button_clicked)
        f.back_button.clicked.connect(self._on_back_button_clicked)
        f.launch_button.clicked.connect(self._on_launch_button_clicked)
        f.close_button.clicked.connect(self._on_close_button_clicked)
        f.stop_wait_button.clicked.connect(self._on_stop_wait_button_clicked)
        # The spot maximum LabGPU filled in (not one the student typed): redone for another account, type or
        # currency, so a cap made for one cloud is never sent to another (a $0.80 cap is not ¥0.80).
        self._auto_cap: float | None = None
        f.max_price_spin.valueChanged.connect(self._update_price_note)
        self._on_spot_check_toggled(f.spot_check.isChecked())

    # -- loading ---------------------------------------------------------------------------------
    def _load_accounts(self) -> None:
        svc = cloud_service(self.ctx)
        self.ctx.runner.run(
            self,
            svc.accounts.instance_accounts,  # not the storage-only ones (OBS)
            name="launch-accounts",
            on_done=self._on_accounts_loaded,
            on_error=self._on_load_failed,
        )

    @Slot(object)
    def _on_accounts_loaded(self, accounts: object) -> None:
        all_accounts = list(accounts)  # type: ignore[call-overload]
        wanted = self.offer.provider if self.offer is not None else ""
        self.accounts = [a for a in all_accounts if not wanted or a.provider == wanted]
        offer = self.offer
        if offer is not None:  # the offer's region first
            self.accounts.sort(key=lambda a: (a.region != offer.region, a.name))
        self.form.account_combo.blockSignals(True)
        self.form.account_combo.clear()
        for a in self.accounts:
            self.form.account_combo.addItem(f"{a.name} — {provider_name(a.provider)} {a.region}", a.name)
        last = cloud_settings(self.ctx).account
        if self.offer is None and last:
            self.form.account_combo.setCurrentIndex(max(0, self.form.account_combo.findData(last)))
        self.form.account_combo.blockSignals(False)
        if not self.accounts:
            self.form.account_note.setText(
                self.tr("No {provider} account yet: add one on the Accounts page, then launch again.").format(
                    provider=provider_name(wanted)
                ) if wanted else self.tr("No cloud account yet: add one on the Accounts page, then launch again.")
            )
            self.form.account_note.show()
            self.form.accounts_button.show()
            self.form.launch_button.setEnabled(False)
            return
        self.form.accounts_button.hide()
        self._on_account_combo_changed()

    @Slot()
    def _on_accounts_button_clicked(self) -> None:
        """No account for this cloud yet: the Accounts page, where one is added (the dialog closes)."""
        self.reject()
        self.ctx.navigate("accounts")

    def current_account(self) -> Any:
        name = self.form.account_combo.currentData()
        return next((a for a in self.accounts if a.name == name), None)

    @Slot()
    def _on_account_combo_changed(self, _index: int = 0) -> None:
        account = self.current_account()
        if account is None:
            return
        notes = []
        # (a price for "all regions", as Lambda's, is the account's region's too)
        if self.offer is not None and self.offer.region not in ("", "all regions", account.region):
            notes.append(
                self.tr(
                    "This account launches in {region}; the offer is in {offer}. Edit the account's "
                    "region (or add one) to launch there."
                ).format(region=account.region, offer=self.offer.region)
            )
        self.form.account_note.setText("\n".join(notes))
        self.form.account_note.setVisible(bool(notes))
        # A spot maximum belongs to one account's cloud and currency: another account starts from the default.
        self.on_demand = (None, "")
        self._set_auto_cap(None)
        self.form.max_price_spin.setEnabled(self.form.spot_check.isChecked() and self._spot_capped())
        self._update_key_note()
        self._load_zones_and_price()

    def key_refused(self) -> bool:
        """The chosen key is one this account's cloud does not import (or cannot be read): Launch waits."""
        return bool(self.form.key_note.property("refused"))

    @Slot()
    def _update_key_note(self, *_args: object) -> None:
        """Under the key field: which key this launch registers with the chosen account's cloud, its
        type and whether that cloud imports it (launch_keys.key_note). Launch waits while it is refused."""
        from app.cloud import sshkeys
        from app.ui.cloud.launch_keys import key_note

        account = self.current_account()
        if account is None:
            return
        accepted = sshkeys.accepted_types(account.provider)
        self.form.key_path_edit.setPlaceholderText(f"~/.ssh/id_{accepted[0] if accepted else 'ed25519'}")
        path = self.form.key_path_edit.text().strip() if self.form.key_file_radio.isChecked() else ""
        text, refused = key_note(self.ctx.paths, account.provider, path)
        self.form.key_note.setText(text)
        self.form.key_note.setProperty("refused", refused)
        self.form.key_note.setStyleSheet(f"color: {theme.css('error' if refused else 'muted')};")
        if not self.running and self.launch_result is None:
            self.form.launch_button.setEnabled(not refused)

    @Slot()
    def _on_type_edit_finished(self) -> None:
        self._load_zones_and_price()

    def _load_zones_and_price(self) -> None:
        """The launch's plan (app/usecases/launch.plan_launch): the price, the currency and the zones, looked
        up once in the background; the launch reuses it."""
        from app.usecases.launch import plan_launch

        account = self.current_account()
        itype = self.form.type_edit.text().strip()
        if account is None or not itype:
            return
        svc = cloud_service(self.ctx)
        self._zone_request += 1
        ticket = self._zone_request
        self.plan = None
        settings, offer = self.ctx.settings, self.offer

        def load() -> LaunchPlan:
            return plan_launch(svc, settings, account.name, itype, offer=offer)

        self.ctx.runner.run(
            self,
            load,
            name="launch-zones",
            on_done=lambda r: self._on_zones_loaded(ticket, r),
            on_error=lambda e: self._on_zones_failed(ticket, e),
        )

    def _on_zones_loaded(self, ticket: int, plan: LaunchPlan) -> None:
        if ticket != self._zone_request:
            return
        self.plan = plan
        self.billing_currency = plan.currency
        if plan.zones_error is not None:
            self._on_zones_failed(ticket, plan.zones_error)
        combo = self.form.zone_combo
        keep = combo.currentData() or (self.offer.zone if self.offer is not None else "")
        combo.clear()
        combo.addItem(self.tr("Any zone (tries each on capacity errors)"), "")
        for z in plan.zones or ():
            combo.addItem(z, z)
        if keep:
            combo.setCurrentIndex(max(0, combo.findData(keep)))
        self.on_demand = (plan.on_demand, plan.price_source)
        self._update_price_note()

    def _on_zones_failed(self, ticket: int, exc: Any) -> None:
        if ticket != self._zone_request:
            return
        message, hint = error_sentence(exc)
        self.form.account_note.setText(
            self.tr("Could not ask the cloud for zones: {message}").format(message=message)
            + (f"\n{hint}" if hint else "")
        )
        self.form.account_note.show()

    def _on_load_failed(self, exc: object) -> None:
        message, hint = error_sentence(exc)  # type: ignore[arg-type]
        self.form.account_note.setText(message + (f"\n{hint}" if hint else ""))
        self.form.account_note.show()

    def _detect_address(self) -> None:
        from app.cloud import netaddr

        def detect() -> str:
            addr = netaddr.public_address()
            return f"{addr}/{32 if ':' not in addr else 128}"

        last = cloud_settings(self.ctx).ssh_from_custom
        if last:
            self.form.cidr_edit.setText(last)
        self.ctx.runner.run(
            self,
            detect,
            name="public-address",
            on_done=self._on_address_detected,
            on_error=self._on_address_failed,
        )

    @Slot(object)
    def _on_address_detected(self, cidr: object) -> None:
        if not self.form.cidr_edit.text().strip():
            self.form.cidr_edit.setText(str(cidr))
        self.form.cidr_note.setText(
            self.tr(
                "Your public address is {cidr}; only it (or the range you type, e.g. your "
                "VPN's) may connect to port 22."
            ).format(cidr=cidr)
        )

    @Slot(object)
    def _on_address_failed(self, exc: object) -> None:
        self.form.cidr_edit.setPlaceholderText(self.tr("e.g. 203.0.113.7/32 or your VPN range"))
        self.form.cidr_note.setText(
            self.tr(
                "Your public address could not be found, so LabGPU will not guess: type the "
                "address or VPN range that may connect to SSH."
            )
        )
        self.form.cidr_note.setStyleSheet(f"color: {theme.css('warning')};")

    def _update_price_note(self) -> None:
        account = self.current_account()
        if account is None:
            return
        # The account's billing currency (Tencent's or Alibaba's international site: USD), never a CNY label
        # on a USD amount; the spot maximum typed here is sent in it.
        currency = self.billing_currency
        od, source = self.on_demand
        spin = self.form.max_price_spin
        # What Stop, the guards and Terminate will do with this cloud's spot instance, said before launch.
        rule = providers.spec(account.provider).spot_rule if self.form.spot_check.isChecked() else ""
        rule_text = "\n" + QCoreApplication.translate("LabGPU", rule) if rule else ""
        if od is None:
            if self._auto_cap is not None and spin.value() == self._auto_cap:
                self._set_auto_cap(None)
            self.form.price_note.setText(
                self.tr(
                    "The on-demand price is not known yet: refresh prices on the Offers "
                    "page, or give a spot maximum."
                )
                + rule_text
            )
            return
        sources = {"catalog": self.tr("bundled catalog"), "live": self.tr("live price"), "offer": self.tr("the offer")}
        text = self.tr("On demand: {price}/h ({source}).").format(price=money(od, currency, 4),
                                                                  source=sources.get(source, source))
        if self.form.spot_check.isChecked() and self._spot_capped():
            value = spin.value()
            cap = self.plan.default_cap if self.plan is not None else None  # worked out once, by the plan
            if (value == 0.0 or value == self._auto_cap) and cap is not None and cap.price != value:
                self._set_auto_cap(cap.price)
            text += " " + self.tr("Spot maximum {price}/h = {pct} % of on-demand.").format(
                price=money(spin.value(), currency, 4), pct=round(100 * spin.value() / od) if od else "?")
        self.form.price_note.setText(text + rule_text)

    def _set_auto_cap(self, price: float | None) -> None:
        """Fill in LabGPU's default spot maximum (None: back to "default", worked out at launch)."""
        self._auto_cap = price
        self.form.max_price_spin.blockSignals(True)
        self.form.max_price_spin.setValue(price or 0.0)
        self.form.max_price_spin.blockSignals(False)

    # -- slots -----------------------------------------------------------------------------------
    @Slot(bool)
    def _spot_capped(self) -> bool:
        """Whether the account's cloud takes a spot maximum (Google Cloud's Spot VMs take none)."""
        account = self.current_account()
        return account is None or providers.spec(account.provider).capabilities.spot_cap

    def _on_spot_check_toggled(self, on: bool) -> None:
        self.form.max_price_spin.setEnabled(on and self._spot_capped())
        self.form.recovery_editor.setVisible(on)  # recovery acts on a reclaim: a spot instance's
        self._update_price_note()

    @Slot()
    def _on_key_browse_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Choose an SSH private key"), str(self.form.key_path_edit.text() or "~/.ssh")
        )
        if path:
            self.form.key_path_edit.setText(path)
            self.form.key_file_radio.setChecked(True)

    def options(self) -> LaunchOptions:
        from app.cloud.launch_plan import LaunchOptions

        account = self.current_account()
        max_price = self.form.max_price_spin.value() if self.form.spot_check.isChecked() else 0.0
        return LaunchOptions(
            account=account.name if account else "",
            instance_type=self.form.type_edit.text().strip(),
            zone=str(self.form.zone_combo.currentData() or ""),
            image_id=self.form.image_edit.text().strip(),
            spot=self.form.spot_check.isChecked(),
            max_price=max_price or None,
            ssh_from=self.form.cidr_edit.text().strip(),
            ssh_key_path=self.form.key_path_edit.text().strip() if self.form.key_file_radio.isChecked() else "",
            disk_gb=self.form.disk_spin.value(),
            client_token=self.client_token,
            wait=True,
        )

    @Slot()
    def _on_launch_button_clicked(self) -> None:
        if self.running:
            return  # a double click never sends a second launch
        if self.launch_result is not None:
            self.accept()
            return
        opts = self.options()
        guard = self.guard_config()
        if guard is not None:
            from app.core.errors import LabGpuError

            try:
                guard.validate()
            except LabGpuError as exc:
                self.form.guard_editor.show_error(f"{exc.text()} {exc.hint()}".strip())
                return
            self.form.guard_editor.show_error("")
        from app.core.errors import LabGpuError

        try:
            recovery = self.recovery_policy()
        except LabGpuError:  # the section says what is wrong and what to do
            return
        if self.key_refused():  # the note under the key field says why and what to do
            return
        if not opts.account or not opts.instance_type:
            self.form.account_note.setText(self.tr("Choose an account and an instance type."))
            self.form.account_note.show()
            return
        if not opts.ssh_from:
            self.form.cidr_note.setText(
                self.tr(
                    "Type the address or range that may connect to SSH (e.g. "
                    "203.0.113.7/32): LabGPU never opens SSH to the whole internet."
                )
            )
            self.form.cidr_note.setStyleSheet(f"color: {theme.css('error')};")
            return
        remember(
            self.ctx,
            account=opts.account,
            disk_gb=opts.disk_gb,
            spot=opts.spot,
            ssh_key_path=opts.ssh_key_path,
        )
        self.running = True
        self.error = None
        until = str(self.form.keep_trying_combo.currentData()) if self.form.keep_trying_check.isChecked() else ""
        self._start_progress(opts, until)
        svc = cloud_service(self.ctx)
        settings, guard, plan, changes = self.ctx.settings, self.guard_config(), self.plan, self.ctx.changes

        def run(task: Any) -> LaunchOutcome:
            from app.usecases.launch import launch

            def progress(step: str, message: str = "") -> None:
                task.report((step, message))

            if until:  # keep trying while it is sold out (蹲卡): the wait is stored, so the watcher can go on
                outcome = self._wait_for_gpu(svc, settings, opts, guard, changes, until, task, progress)
            else:
                outcome = launch(svc, settings, opts, guard=guard, plan=plan, changes=changes, progress=progress)
            if recovery is not None:  # the spot recovery policy, for the new instance
                from app.core.recoverypolicy import INSTANCE, RecoveryPolicyStore

                self.recovery_saved = RecoveryPolicyStore(svc.store).set(INSTANCE, outcome.result.entry.id, recovery)
            return outcome

        self.task = self.ctx.runner.run(
            self,
            run,
            name="launch",
            on_done=self._on_launch_done,
            on_error=self._on_launch_failed,
            on_progress=self._on_launch_progress,
        )

    def _on_launch_done(self, outcome: LaunchOutcome) -> None:
        from app.cloud.sshkeys import TYPE_TITLES
        from app.ui.cloud.instances_page import state_title
        from app.ui.shared.guards_ui import badge

        result = outcome.result
        self.running = False
        self._end_progress(failed=False)
        self.launch_result = result
        entry = result.entry
        lines = [
            self.tr("{id} is {state} in {zone}.").format(
                id=entry.id, state=state_title(entry.state), zone=entry.zone
            )
        ]
        if entry.public_ip:
            lines.append(self.tr("Public address: {ip}").format(ip=entry.public_ip))
        if entry.price_per_hour is not None:
            lines.append(
                self.tr("It bills {price}/h until you stop or terminate it.").format(
                    price=money(entry.price_per_hour, entry.currency, 4)
                )
            )
        if result.ssh_key_path:
            lines.append(self.tr("SSH key registered: {path} ({type}).").format(
                path=result.ssh_key_path, type=TYPE_TITLES.get(result.ssh_key_type, result.ssh_key_type)))
        lines.extend(result.notes)
        if outcome.guard is not None:  # the guard as saved, and what became of the watchdog
            self.guard_saved = outcome.guard.config
            lines.append(self.tr("Guards: {guards}").format(
                guards=badge(outcome.guard.config, True, backstop=result.backstop)))
            lines.extend(t for t in (outcome.guard.text(), outcome.guard.hint_text()) if t)
        if self.recovery_saved is not None:
            from app.ui.shared.recovery_ui import policy_summary

            lines.append(policy_summary(self.recovery_saved))
        f = self.form
        f.outcome_label.setStyleSheet(f"color: {theme.css('ok')};")
        f.outcome_label.setText("\n".join(lines))
        f.progress_title.setText(self.tr("Launched"))
        f.launch_button.setText(self.tr("Done"))
        f.launch_button.setEnabled(True)
        f.close_button.hide()
        f.copy_ssh_button.setVisible(bool(entry.public_ip))
        self.launched.emit(result)

    def recovery_policy(self) -> Any:
        """The spot recovery policy for the new instance (validated), or None: not a spot launch, or the
        section is off. A refused field shows in the section and raises (LabGpuError)."""
        if not self.form.spot_check.isChecked():
            return None
        return self.form.recovery_editor.checked_policy()

    def guard_config(self) -> GuardConfig | None:
        """The guards chosen for the new instance, or None when the section is switched off."""
        cfg: GuardConfig = self.form.guard_editor.config()
        return cfg if self.form.guard_editor.isChecked() else None

    @Slot(object)
    def _on_launch_failed(self, exc: object) -> None:
        self.running = False
        self.error = exc  # type: ignore[assignment]
        message, hint = error_sentence(exc)  # type: ignore[arg-type]
        self._end_progress(failed=True)
        self.form.progress_title.setText(self.tr("The launch did not complete"))
        self.form.outcome_label.setStyleSheet(f"color: {theme.css('error')};")
        self.form.outcome_label.setText(message + (f"\n{hint}" if hint else ""))
        self.form.launch_button.setText(self.tr("Retry"))
        self.form.launch_button.setToolTip(self.tr("Retries the same launch: it never makes a second instance."))
        self.form.launch_button.setEnabled(True)
        self.form.back_button.show()
        self.form.close_button.setText(self.tr("Close"))

    @Slot()
    def _on_back_button_clicked(self) -> None:
        """Back to the form. After a definite refusal nothing was created, so changed settings get a new
        client token; after a network error or timeout the launch may exist, so the token stays."""
        from app.cloud.errors import NetworkError
        from app.cloud.launch_plan import new_client_token

        if self.error is not None and not isinstance(self.error, NetworkError):
            self.client_token = new_client_token()
        self.form.launch_button.setText(self.tr("Launch"))
        self.form.back_button.hide()
        self.form.stack.setCurrentIndex(0)

    @Slot()
    def _on_copy_ssh_button_clicked(self) -> None:
        if self.launch_result is None:
            return
        try:
            command = cloud_service(self.ctx).ssh_command(self.launch_result.entry.id)
        except Exception as exc:  # noqa: BLE001 - shown as a sentence
            self.form.outcome_label.setText(error_sentence(exc)[0])
            return
        QGuiApplication.clipboard().setText(command)
        self.form.copy_ssh_button.setText(self.tr("Copied"))

    @Slot()
    def _on_close_button_clicked(self) -> None:
        if self.running:
            self.hide()  # the launch goes on; the instances page shows it
            return
        self.reject()


def open_launch_dialog(ctx: AppContext, offer: Any = None, parent: QWidget | None = None,
                       spot: bool | None = None) -> LaunchDialog:
    """Open the launch dialog (non-modal) prefilled from ``offer`` (an app.core.models.Offer);
    ``spot`` forces the spot choice (a relaunch after an interruption keeps the same billing)."""
    dialog = LaunchDialog(ctx, offer, parent)
    if spot is not None:
        dialog.form.spot_check.setChecked(spot)
    dialog.open()
    return dialog
