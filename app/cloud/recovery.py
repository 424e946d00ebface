"""Reconcile: bring the ledger in line with every account's cloud, and recover launches cut short.

``CloudService.reconcile()`` (app/cloud/launch.py) runs this: every region where an account has (or
is launching) something is listed; a pending launch the cloud shows (by its ``labgpu-launch`` tag or
client token) is recorded and audited as recovered, and one the cloud never shows is given up after
``NOT_LAUNCHED_AFTER``. A guard chosen at launch that never reached its instance (a crash between
the two) is saved for the instance found. ``accounts`` limits it to some accounts (the watcher
reconciles each account on its own, so one hung cloud never holds up another's: app/watch/reconcile.py).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Collection
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from app.cloud.base import Account, ClientTokenFinder, Credentials, Instance
from app.core.errors import LabGpuError
from app.core.guards import GuardStore
from app.core.instances import ReconcileResult
from app.core.vocab import TERMINAL_STATES

if TYPE_CHECKING:
    from app.cloud.launch import CloudService

log = logging.getLogger(__name__)

NOT_LAUNCHED_AFTER = timedelta(minutes=10)  # a pending launch the cloud never shows is given up after this


def reconcile(svc: CloudService, accounts_only: Collection[str] | None = None) -> ReconcileResult:
    """Bring the ledger in line with every account's cloud (or only the named accounts), including
    launches cut short."""
    accounts = svc.accounts.instance_accounts()  # a storage-only account (OBS) has no instances to ask about
    if accounts_only is not None:
        accounts = [a for a in accounts if a.name in accounts_only]
    creds_cache: dict[str, Credentials] = {}
    by_name = {a.name: a for a in accounts}
    # Every region where an account has (or is launching) something, not only its default one.
    regions: dict[str, set[str]] = {a.name: {a.region} for a in accounts}
    for e in svc.ledger.list(include_terminated=False):
        if e.account in regions and e.region:
            regions[e.account].add(e.region)
    for p in svc.pending.open():
        if p.account in regions and p.region:
            regions[p.account].add(p.region)
    scoped = [
        dataclasses.replace(a, region=r) if r != a.region else a
        for a in accounts
        for r in sorted(regions[a.name])
    ]

    def list_fn(account: Account) -> list[Instance]:
        creds = creds_cache.setdefault(account.name, svc.accounts.credentials(account.name))
        return svc.provider(account.provider).list_instances(account, creds)

    def price_fn(inst: Any) -> tuple[float, str, str] | None:
        return svc._price_for(dataclasses.replace(by_name[inst.account], region=inst.region), inst)

    result = svc.ledger.reconcile(scoped, list_fn, price_fn)
    for pending in svc.pending.open():
        account = by_name.get(pending.account)
        if account is None or pending.account in result.errors:
            continue
        if pending.region and pending.region != account.region:
            account = dataclasses.replace(account, region=pending.region)
        entry = next((e for e in result.entries if e.client_token == pending.client_token), None)
        if entry is None:
            try:
                creds = creds_cache.setdefault(account.name, svc.accounts.credentials(account.name))
                provider = svc.provider(account.provider)
                inst = (provider.find_by_client_token(account, creds, pending.client_token)
                        if isinstance(provider, ClientTokenFinder) else None)
            except LabGpuError as exc:
                log.info("pending launch %s not checked: %s", pending.client_token, exc)
                continue
            if inst is not None:
                price = svc._price_for(account, inst)
                entry = svc.ledger.observe(
                    inst,
                    client_token=pending.client_token,
                    price_per_hour=price[0] if price else None,
                    currency=price[1] if price else None,
                    price_source=price[2] if price else "",
                )
        if entry is not None:
            svc.pending.finish(pending.client_token, entry.id)
            svc.audit.record(
                account=account.name,
                provider=account.provider,
                action="recover-launch",
                resource=entry.id,
                result="ok",
                detail=f"launch {pending.client_token} found after restart",
            )
        elif datetime.now(timezone.utc) - pending.created_at > NOT_LAUNCHED_AFTER:
            svc.pending.not_launched(pending.client_token, "the cloud shows no instance for this launch")
    apply_intended_guards(svc)
    if any(p.status == "done" for p in svc.pending.all()):
        result = ReconcileResult(svc.ledger.list(), result.errors, result.gone)
    return dataclasses.replace(result, accounts=len(accounts))


def apply_intended_guards(svc: CloudService) -> list[str]:
    """The guards chosen at launch for instances that have none yet (the launch was cut short between
    "instance created" and "guard saved"): saved as chosen, and the watcher installs a watchdog the guard
    asks for when it next reaches the instance. Returns the instance ids guarded here."""
    guards = GuardStore(svc.store)
    done: list[str] = []
    for intended in svc.pending.unapplied_guards():
        entry = svc.ledger.get(intended.instance_id)
        if entry is not None and entry.state not in TERMINAL_STATES and guards.get(intended.instance_id) is None:
            guards.set(intended.instance_id, intended.config)
            done.append(intended.instance_id)
            hours = intended.config.max_hours
            if hours is not None and svc.backstops.get(intended.instance_id) is None:
                try:  # the launch's maximum runtime went to the cloud with it: what the cloud holds, read back now
                    svc.confirm_backstop(intended.instance_id, hours)
                except LabGpuError as exc:
                    log.info("backstop of %s not read back after the restart: %s", intended.instance_id, exc)
            svc.audit.record(
                account=entry.account,
                provider=entry.provider,
                action="recover-guard",
                resource=entry.id,
                result="ok",
                detail=f"guard chosen at launch {intended.client_token} saved after restart",
            )
        svc.pending.guard_applied(intended.client_token)
    return done
