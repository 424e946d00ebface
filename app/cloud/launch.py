"""Launch orchestration and instance actions (app/cloud/actions.py, a mixin) for any registered Provider:
the one API the CLI and the cloud UI call (from a worker thread: every method blocks on the keyring or the network).

Idempotency: a launch gets a client token; a pending-launch record (token, account, type, zone,
time) is written to the Store *before* the cloud is called, so a crash mid-launch leaves a trace.
``reconcile()`` (run at start and periodically) finds such instances by their ``labgpu-launch`` tag
or client token and records them; retrying ``launch(..., client_token=same)`` yields one instance.
On capacity errors the launch moves on to the region's other zones and says so through progress.
Every state-changing call is written to the audit log with its request id.

Contract:
    svc = CloudService(paths)                       # paths=None: default_paths()
    svc.accounts (AccountBook) · svc.ledger (Ledger) · svc.audit (AuditLog) · svc.pending (PendingLaunches)
    svc.test_connection(name) -> str                # who the keys belong to
    svc.launch(LaunchOptions(...), progress=fn) -> LaunchResult      # fn(step, message)
        LaunchOptions.region: "" = the account's region; any other region works with the same keys.
        A NetworkError from launch carries .client_token: retry with it (never a second instance).
    svc.reconcile(accounts=None) -> ReconcileResult  # every (or the named) account and region in use + pending
    svc.start(id) -> LedgerEntry · svc.stop(id) -> (LedgerEntry, what still bills) · svc.terminate(id)
    svc.refresh_prices(account_name=None, instance_types=(), errors=None) -> list[Offer]
    svc.on_demand_price(account, type) -> (price | None, source) · svc.pending.open()
    svc.ssh_command(id) -> str
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import os
import time
from collections.abc import Callable, Collection, Sequence
from typing import Any

from app.cloud import netaddr, pricing, recovery, registry, sshkeys
from app.cloud.actions import InstanceActions
from app.cloud.base import (
    Account,
    CapacityError,
    ClientTokenFinder,
    CloudBackstop,
    CloudError,
    Credentials,
    Instance,
    LaunchRequest,
    PriceTooLowError,
    Provider,
    ZoneLister,
    collect_calls,
    collect_request_ids,
    get_provider,
)
from app.cloud.errors import NetworkError
from app.cloud.launch_plan import (
    LAUNCH_RETRY_HINT,
    ZONE_KEPT_HINT,
    LaunchOptions,
    LaunchResult,
    attempt_token,
    lowest_price_error,
    new_client_token,
)
from app.core import live_prices, providers
from app.core.accounts import AccountBook, storage_only, storage_only_error, validate_account
from app.core.audit import AuditLog
from app.core.backstops import (
    MSG_NO_API,
    MSG_NOT_READ,
    BackstopPlan,
    BackstopReading,
    BackstopRecord,
    BackstopStore,
    plan_backstop,
    record_of,
)
from app.core.errors import InputError, LabGpuError
from app.core.hosts import SSH_KEY_PATH_TAG
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.instances import Ledger, LedgerEntry, PendingLaunches, ReconcileResult
from app.core.launch_defaults import launch_defaults
from app.core.ledgerdb import CLOCK
from app.core.paths import Paths, default_paths
from app.core.store import Store
from app.core.vocab import TERMINAL_STATES, InstanceState, LaunchStep

log = logging.getLogger(__name__)

ProgressCallback = Callable[[str, str], None]
WAIT_TIMEOUT_S = float(os.environ.get("LABGPU_LAUNCH_WAIT_S", "600"))
POLL_S = 3.0
class CloudService(InstanceActions):
    def __init__(
        self,
        paths: Paths | None = None,
        store: Store | None = None,
        provider_factory: Callable[[str], Provider] = get_provider,
    ) -> None:
        self.paths = (paths or default_paths()).ensure()
        self.store = store or Store(paths=self.paths)
        self.store.migrate()
        self.accounts = AccountBook(self.store)
        self.ledger = Ledger(self.store)
        self.audit = AuditLog(self.store)
        self.pending = PendingLaunches(self.store)
        self.backstops = BackstopStore(self.store)
        self._provider_factory = provider_factory

    def close(self) -> None:
        self.store.close()

    # -- helpers ---------------------------------------------------------------------------------
    def provider(self, provider_id: str) -> Provider:
        return self._provider_factory(provider_id)

    def _resolve(self, name: str, region: str = "") -> tuple[Account, Credentials, Provider]:
        """Account (in ``region`` when given: one account reaches every region), keys, provider."""
        account = self.accounts.get(name)
        if storage_only(account):
            raise storage_only_error(account)
        if region and region != account.region:
            account = dataclasses.replace(account, region=region)
            validate_account(account)
        return account, self.accounts.credentials(name), self.provider(account.provider)

    def _audited(
        self, account: Account, action: str, resource: str, fn: Callable[[], Any], detail: str = ""
    ) -> Any:
        """Run ``fn`` and write the audit rows: one per state-changing sub-call the provider reported
        (key import, security group rule…), and one for the user's action with its request id."""
        main_rid = ""
        result_text = "ok"
        result: Any = None
        with collect_calls() as calls, collect_request_ids() as ids:
            try:
                result = fn()
                main_rid = ids[-1] if ids else ""
            except LabGpuError as exc:
                main_rid = getattr(exc, "request_id", "")
                result_text = f"error:{exc.code or type(exc).__name__}"
                raise
            except Exception as exc:
                result_text = f"error:{type(exc).__name__}"
                raise
            finally:
                subs = list(calls)
                if result_text == "ok" and subs and subs[-1][2] == main_rid:
                    subs.pop()  # the action's own call: written below as the action's row
                for sub_action, sub_resource, rid in subs:
                    self.audit.record(
                        account=account.name,
                        provider=account.provider,
                        action=sub_action,
                        resource=sub_resource,
                        result="ok",
                        request_id=rid,
                        detail=f"{action} {resource}".strip(),
                    )
                if isinstance(result, Instance):
                    resource = result.id
                self.audit.record(
                    account=account.name,
                    provider=account.provider,
                    action=action,
                    resource=resource,
                    result=result_text,
                    request_id=main_rid,
                    detail=detail,
                )
        return result

    # -- accounts --------------------------------------------------------------------------------
    def test_connection(self, name: str) -> str:
        """The provider's key check. A storage-only account is checked too when its cloud has a plugin
        that validates keys (Huawei Cloud: ECS); the other instance features still refuse it."""
        account = self.accounts.get(name)
        if storage_only(account) and registry.factory(account.provider) is None:
            raise storage_only_error(account)
        return self.provider(account.provider).validate(account, self.accounts.credentials(name))

    # -- prices ----------------------------------------------------------------------------------
    def refresh_prices(
        self,
        account_name: str | None = None,
        instance_types: Sequence[str] = (),
        errors: dict[str, LabGpuError] | None = None,
    ) -> list[Any]:
        """Live prices with one account (or every account) into the cache. With ``errors`` given, an
        account that fails is recorded there and the others still refresh; otherwise the error raises."""
        accounts = self.accounts.instance_accounts()
        # Every account: those whose cloud has a price API LabGPU reads (a cloud without one, Paperspace, would
        # only say so on each refresh; named, its account still says why)
        names = [account_name] if account_name else [
            a.name for a in accounts if providers.spec(a.provider).capabilities.live_prices]
        if not names and accounts:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "None of your accounts' clouds publishes prices LabGPU can read "
                                            "({clouds}): the offers keep the bundled catalog's prices."),
                QT_TRANSLATE_NOOP("LabGPU", "The catalog's date is shown beside each price."),
                code="NoPriceApi",
                clouds=", ".join(sorted({providers.display_name(a.provider) for a in accounts})),
            )
        if not names:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "No cloud account is set up, so no live prices can be fetched."),
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Add one with 'labgpu accounts add {providers} NAME --region R'."
                ),
                code="NoAccount",
                providers="|".join(providers.launchable_ids()),
            )
        out = []
        for name in names:
            try:
                account, creds, provider = self._resolve(name)
                out.extend(live_prices.refresh_prices(account, provider, creds, instance_types, self.paths))
            except LabGpuError as exc:
                if errors is None:
                    raise
                errors[name] = exc
        return out

    def billing_currency(self, account: Account) -> str:
        """The currency the account is billed in (an international site's USD, not the provider's CNY)."""
        return pricing.billing_currency(account)

    def on_demand_price(self, account: Account, instance_type: str) -> tuple[float | None, str]:
        """(price/h, source): live cache first, then the bundled catalog, in the account's region and
        billing currency only."""
        return pricing.on_demand_price(self.paths, account, instance_type)

    def zones(self, account: Account, instance_type: str = "") -> list[str]:
        """The zones of the account's region that sell ``instance_type``, in the order a launch on
        "any zone" tries them; [] where the provider lists none (the cloud then picks one)."""
        provider = self.provider(account.provider)
        if not isinstance(provider, ZoneLister):
            return []
        return list(provider.zones(account, self.accounts.credentials(account.name), instance_type))

    def spot_price(self, account: Account, instance_type: str, zone: str) -> float | None:
        return pricing.spot_price(self.paths, account, instance_type, zone)

    def _price_for(self, account: Account, inst: Any) -> tuple[float, str, str] | None:
        return pricing.price_for(self.paths, account, inst)

    # -- launch ----------------------------------------------------------------------------------
    def launch(self, opts: LaunchOptions, progress: ProgressCallback | None = None) -> LaunchResult:
        def report(step: str, message: str = "") -> None:
            log.info("launch %s: %s %s", token, step, message)
            if step == LaunchStep.IMAGE and message:
                notes.append(message)  # "says which image": kept for the result, not only the dialog
            if progress:
                progress(step, message)

        notes: list[str] = []
        token = opts.client_token or new_client_token()
        account, creds, provider = self._resolve(opts.account, opts.region)
        if not opts.instance_type:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "No instance type was given."),
                QT_TRANSLATE_NOOP("LabGPU", "Pass --type, e.g. g5.xlarge."),
                code="NoInstanceType",
            )
        # Fail before touching the cloud when the SSH source is unknown: never open port 22 to the world.
        cidr = netaddr.ssh_source_cidr(opts.ssh_from)
        # The key this cloud's key import takes (its spec's ssh_key_types): a chosen key of another
        # type is refused here, before any cloud call; LabGPU's own key is ed25519 or RSA per cloud.
        key = sshkeys.key_for_launch(self.paths, account.provider, opts.ssh_key_path)
        report("key", translate(
            QT_TRANSLATE_NOOP("LabGPU", "SSH key for this launch: {path} ({type}, {fingerprint}).")
        ).format(path=key.private_path, type=sshkeys.TYPE_TITLES.get(key.key_type, key.key_type),
                 fingerprint=key.fingerprint))
        # The spot maximum the caller worked out (app/usecases/launch.py: the settings' share of the price it
        # looked up), else the default share of the price known here; the student's own cap wins.
        # A cloud whose spot instances take no maximum (Google Cloud) gets none: nothing to work out or send.
        capped = opts.spot and providers.spec(account.provider).capabilities.spot_cap
        given = opts.spot_cap if capped and opts.max_price is None else None
        od, src = (self.on_demand_price(account, opts.instance_type)
                   if capped and opts.max_price is None and given is None else (None, opts.price_source))
        plan = launch_defaults(account.region, spot=opts.spot, on_demand=od,
                               max_price=opts.max_price if capped else None, zone=opts.zone)
        if given is not None:
            plan = dataclasses.replace(plan, spot_cap=given)
        if not capped:
            plan = dataclasses.replace(plan, spot_cap=None)
        if capped and plan.spot_cap is None:
            raise InputError(
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "LabGPU does not know the on-demand price of {type}, so it cannot set "
                    "the default spot maximum.",
                ),
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Refresh prices with this account, or set a maximum price (--max-price)."
                ),
                code="NoOnDemandPrice",
                type=opts.instance_type,
            )
        max_price = plan.spot_cap.price if plan.spot_cap is not None else None
        if plan.spot_cap is not None and plan.spot_cap.default:
            notes.append(
                translate(
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Spot maximum {price} per hour = {pct} % of on-demand ({source})."
                    )
                ).format(price=f"{max_price:.4f}", pct=round((plan.spot_cap.fraction or 0.0) * 100), source=src)
            )
            report("request", notes[-1])

        # The maximum runtime handed to the cloud too (its clock, so a laptop clock that is off does not move
        # it): only where the plugin sends it and the cloud's documented limits allow it; else why not.
        backstop = plan_backstop(opts.max_runtime_hours, CLOCK.to_cloud(account.provider))
        refusal: tuple[str, dict[str, Any]] = ("", {})
        if backstop is not None:
            if isinstance(provider, CloudBackstop):
                refusal = provider.backstop_refusal(account, backstop, opts.spot)
            else:
                refusal = (MSG_NO_API, {"cloud": providers.display_name(account.provider)})
        sent = backstop if backstop is not None and not refusal[0] else None
        if opts.client_token and isinstance(provider, ClientTokenFinder):
            # A retry with a token already used: if the cloud made that launch's instance (any zone
            # attempt), that is the answer and nothing is requested again. A terminated one counts only
            # when this computer has the launch pending (it was cut short, then ended in the console).
            found = provider.find_by_client_token(account, creds, token)
            if found is not None and (found.state not in TERMINAL_STATES or self.pending.get(token) is not None):
                report(
                    "request",
                    translate(QT_TRANSLATE_NOOP("LabGPU", "This launch already went through: {id}.")).format(
                        id=found.id
                    ),
                )
                entry = self.ledger.observe(found, client_token=token)
                self.pending.finish(token, found.id)
                held = self._confirm_backstop(account, creds, provider, found.id, backstop, refusal, report)
                if held is not None:
                    notes.append(held.text())
                if opts.wait:
                    entry = self._wait_running(account, creds, provider, found, report)
                return LaunchResult(entry, token, notes, str(key.private_path), key.key_type, key.fingerprint, key.own,
                                    held)
        # The zones a launch tries, in order: the one the student chose (kept: a capacity error there ends
        # the launch), else every zone of the region that sells the type, as the cloud lists them.
        zones: list[str] = [plan.zone]
        if not plan.zone and opts.zones is not None:  # listed once by the caller
            zones = [z for z in opts.zones if z] or [""]
        elif not plan.zone and isinstance(provider, ZoneLister):
            zones = [z for z in provider.zones(account, creds, opts.instance_type) if z] or [""]
        self.pending.begin(
            client_token=token,
            account=account.name,
            provider=account.provider,
            region=account.region,
            zone=opts.zone,
            instance_type=opts.instance_type,
            spot=opts.spot,
            max_price=max_price,
            guard=opts.guard,
        )
        tried: list[str] = []
        too_low: list[PriceTooLowError] = []
        attempt = 0
        instance: Instance | None = None
        while instance is None:
            zone = zones.pop(0)
            if sent is not None:  # the deadline from the cloud's clock now (the calls so far have set it)
                sent = backstop = plan_backstop(opts.max_runtime_hours, CLOCK.to_cloud(account.provider))
            req = LaunchRequest(
                instance_type=opts.instance_type,
                region=account.region,
                zone=zone,
                image_id=opts.image_id,
                spot=opts.spot,
                max_price=max_price,
                disk_gb=opts.disk_gb,
                ssh_key_name=key.cloud_name,
                public_key=key.public_key,
                ssh_cidr=cidr,
                client_token=attempt_token(token, attempt),
                name=opts.name or f"labgpu-{token[3:11]}",
                # The host made from the instance logs in with this key (the user tag is the provider's:
                # it knows the image).
                tags={"labgpu-launch": token, SSH_KEY_PATH_TAG: str(key.private_path)},
                backstop=sent,
            )
            detail = f"{opts.instance_type} {zone or account.region} {'spot' if opts.spot else 'on-demand'}"
            try:
                instance = self._audited(
                    account,
                    "launch",
                    token,
                    functools.partial(provider.launch, account, creds, req, report),
                    detail,
                )
            except (CapacityError, PriceTooLowError) as exc:
                # No capacity, or the spot maximum under the zone's spot price (SpotMaxPriceTooLow): another
                # zone may work. A price refusal moves on only when no zone was asked for; when every zone
                # refused, the error names the lowest spot price seen, which the cap would need.
                price_low = isinstance(exc, PriceTooLowError)
                if isinstance(exc, PriceTooLowError):
                    too_low.append(exc)
                    if opts.zone or not isinstance(provider, ZoneLister):
                        self.pending.fail(token, exc.one_line())
                        raise
                elif opts.zone:
                    # A zone the student chose is kept (their disks, data or VPC may be there): only "Any zone"
                    # moves on to the others.
                    kept = CapacityError(exc.template, ZONE_KEPT_HINT, provider=exc.provider, code=exc.code,
                                     request_id=exc.request_id, retryable=exc.retryable,
                                     **{**exc.params, "zone": opts.zone, "why": exc.hint()})
                    self.pending.fail(token, kept.one_line())
                    raise kept from None
                # A cloud that picked the zone itself (no zone list) names it in the error.
                zone = zone or str(exc.params.get("zone") or "").strip("?")
                tried.append(zone or account.region)
                zones = [z for z in zones if z and z not in tried]
                if not zones:
                    final = lowest_price_error(too_low) if price_low else exc
                    self.pending.fail(token, final.one_line())
                    raise final from None
                msg = translate(QT_TRANSLATE_NOOP("LabGPU", "{zone}: {reason} Trying {next}…")).format(
                    zone=zone or account.region, reason=exc.text(), next=zones[0]
                )
                notes.append(msg)
                report("zone", msg)
                attempt += 1
            except NetworkError as exc:
                # Ambiguous: the request may have reached the cloud. The pending record stays open for
                # reconcile, and the hint says how to retry without a second instance.
                params = {k: v for k, v in exc.params.items() if k != "token"}
                err = NetworkError(exc.template, LAUNCH_RETRY_HINT, provider=exc.provider, code=exc.code,
                                   request_id=exc.request_id, retryable=True, token=token, **params)
                err.client_token = token
                raise err from None
            except CloudError as exc:
                self.pending.fail(token, exc.one_line())
                raise
        price = self._price_for(account, instance)
        if opts.spot and price and price[2].startswith("on-demand") and max_price is not None:
            price = (max_price, price[1], "spot maximum (upper bound)")
        entry = self.ledger.observe(
            instance,
            client_token=token,
            price_per_hour=price[0] if price else None,
            currency=price[1] if price else None,
            price_source=price[2] if price else "",
        )
        self.pending.finish(token, instance.id)
        held = self._confirm_backstop(account, creds, provider, instance.id, backstop, refusal, report)
        if held is not None:
            notes.append(held.text())
        rule = providers.spec(account.provider).spot_rule if opts.spot else ""
        if rule:  # what Stop, the guards and Terminate do with this cloud's spot instance, said at launch
            notes.append(translate(str(rule)))
        if opts.wait:
            entry = self._wait_running(account, creds, provider, instance, report)
        return LaunchResult(entry, token, notes, str(key.private_path), key.key_type, key.fingerprint, key.own,
                            held)

    def confirm_backstop(self, instance_id: str, hours: float) -> BackstopRecord | None:
        """A launch cut short before its read-back (the recovery): what the cloud holds for the maximum runtime
        asked at launch, read back and recorded now (the deadline counted from the launch)."""
        entry = self._entry(instance_id)
        account, creds, provider = self._resolve(entry.account, entry.region)
        plan = plan_backstop(hours, entry.launched_at or CLOCK.to_cloud(account.provider))
        if plan is None:
            return None
        refusal: tuple[str, dict[str, Any]] = (MSG_NO_API, {"cloud": providers.display_name(account.provider)})
        if isinstance(provider, CloudBackstop):
            refusal = provider.backstop_refusal(account, plan, entry.spot)
        return self._confirm_backstop(account, creds, provider, instance_id, plan, refusal, lambda *_a: None)

    def _confirm_backstop(self, account: Account, creds: Credentials, provider: Provider, instance_id: str,
                          plan: BackstopPlan | None, refusal: tuple[str, dict[str, Any]],
                          report: ProgressCallback) -> BackstopRecord | None:
        """Read back what the cloud holds for the launch's maximum runtime and record it (the guard badge says
        "enforced by the cloud" only from this record); None when the launch asked for none. Never fails the
        launch: a read that fails is recorded as not enforced, with why."""
        if plan is None:
            return None
        cloud = providers.display_name(account.provider)
        if refusal[0]:
            reading = BackstopReading(False, reason=refusal[0], params=dict(refusal[1]))
        else:
            assert isinstance(provider, CloudBackstop)
            try:
                reading = provider.read_backstop(account, creds, instance_id, plan)
            except LabGpuError as exc:
                log.info("backstop of %s not read back: %s", instance_id, exc)
                reading = BackstopReading(False, reason=MSG_NOT_READ, params={"cloud": cloud, "detail": exc.text()})
        rec = record_of(instance_id, account.provider, plan.hours, reading, CLOCK.to_cloud(account.provider))
        self.backstops.save(rec)
        report(LaunchStep.REQUEST, rec.text())
        return rec

    def _wait_running(
        self,
        account: Account,
        creds: Credentials,
        provider: Provider,
        instance: Instance,
        report: ProgressCallback,
    ) -> LedgerEntry:
        deadline = time.monotonic() + WAIT_TIMEOUT_S
        delay = 0.3
        report(
            "wait",
            translate(QT_TRANSLATE_NOOP("LabGPU", "Waiting for {id} to be running…")).format(id=instance.id),
        )
        failures = 0
        while True:
            try:
                listed = provider.list_instances(account, creds)
            except LabGpuError as exc:
                # The launch itself succeeded and is in the ledger: a flaky status check must not turn
                # it into an error (the user would launch again and pay twice).
                failures += 1
                log.info("status check after launch failed (%d): %s", failures, exc)
                if failures >= 3 or time.monotonic() > deadline:
                    report(
                        "wait",
                        translate(
                            QT_TRANSLATE_NOOP(
                                "LabGPU",
                                "{id} was launched, but its state could not be checked; it is in the "
                                "instances list and will be refreshed there.",
                            )
                        ).format(id=instance.id),
                    )
                    got = self.ledger.get(instance.id, instance.provider)
                    assert got is not None
                    return got
                time.sleep(delay)
                continue
            seen = next((i for i in listed if i.id == instance.id), None)
            if seen is not None:
                entry = self.ledger.observe(seen)
                if seen.state == InstanceState.RUNNING and (
                    seen.public_ip or time.monotonic() > deadline - WAIT_TIMEOUT_S + 60
                ):
                    return entry
                if seen.state in (InstanceState.TERMINATED, InstanceState.FAILED, InstanceState.TERMINATING):
                    raise CloudError(
                        QT_TRANSLATE_NOOP("LabGPU", "Instance {id} stopped right after launch ({state})."),
                        QT_TRANSLATE_NOOP(
                            "LabGPU",
                            "Check the cloud console for the reason (spot capacity, image), "
                            "then launch again.",
                        ),
                        provider=account.provider,
                        code="LaunchFailed",
                        id=instance.id,
                        state=seen.raw_state or seen.state,
                    )
            if time.monotonic() > deadline:
                got = self.ledger.get(instance.id, instance.provider)
                assert got is not None
                return got
            time.sleep(delay)
            delay = min(POLL_S, delay * 1.5)  # quick first looks, then every few seconds

    # -- reconcile -------------------------------------------------------------------------------
    def reconcile(self, accounts: Collection[str] | None = None) -> ReconcileResult:
        """Bring the ledger in line with every account's cloud, including launches cut short."""
        return recovery.reconcile(self, accounts)
