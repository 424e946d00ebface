"""Spot price history of one offer through the app's CloudService: which account to ask, then the
provider's ``spot_price_history`` (see app.cloud.base.spot_price_history). Blocking (keyring,
network): the UI calls it through ctx.runner."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.cloud.base import spot_price_history
from app.core import providers
from app.core.accounts import Account, validate_account
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.spothistory import SpotPricePoint

if TYPE_CHECKING:
    from app.cloud.launch import CloudService


@dataclass(frozen=True)
class SpotHistory:
    account: str  # the account that was asked
    region: str
    instance_type: str
    points: list[SpotPricePoint]


def account_for(accounts: list[Account], provider_id: str, region: str) -> Account | None:
    """An account of the provider, one set up for `region` first (any account reaches every region)."""
    mine = [a for a in accounts if a.provider == provider_id]
    same = [a for a in mine if a.region == region]
    return next(iter(same or mine), None)


def load_spot_history(service: CloudService, provider_id: str, region: str, instance_type: str,
                      zone: str = "", days: int = 7) -> SpotHistory:
    account = account_for(service.accounts.list(), provider_id, region)
    if account is None:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "No {cloud} account is set up, so its spot price history cannot be read."),
            QT_TRANSLATE_NOOP("LabGPU", "Add an account for {cloud} on the Accounts page, then try again."),
            code="NoAccount", cloud=providers.display_name(provider_id))
    creds = service.accounts.credentials(account.name)
    if region and region != account.region:
        account = dataclasses.replace(account, region=region)
        validate_account(account)
    points = spot_price_history(service.provider(provider_id), account, creds, instance_type,
                                zone=zone or None, days=days)
    return SpotHistory(account.name, account.region, instance_type, points)
