"""Adding and editing a cloud account: one order for `labgpu accounts add` and the account dialog.

The fields are checked first (name, provider, region, endpoint, protocol, both keys: nothing is
written when one is wrong), the keys go to the OS keyring, then the account row is saved
(``AccountBook.add``: a keyring that fails leaves nothing behind); with ``test`` the provider is then
asked whether the keys work (the account stays saved when it says no, and the error is raised).
The protocol of a provider that takes one (ProviderSpec.protocols) is the one given, else the one
the endpoint URL names, else https.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol

from app.core import providers
from app.core.accounts import (
    Account,
    AccountBook,
    AccountInfo,
    Credentials,
    validate_account,
    validate_credentials,
)


class AccountService(Protocol):
    """What the use case needs of app.cloud.launch.CloudService."""

    accounts: AccountBook

    def test_connection(self, name: str) -> str: ...


@dataclass(frozen=True)
class AddedAccount:
    account: Account
    info: AccountInfo  # as stored (key id masked)
    connection: str = ""  # what the provider said the keys belong to; "" = not tested


def account_extra(provider: str, endpoint: str, protocol: str | None = None) -> dict[str, str]:
    """The account's provider-specific settings: its endpoint protocol when the provider takes one."""
    spec = providers.find_spec(provider)
    if spec is None or not spec.protocols:
        return {}
    return {"protocol": protocol or ("http" if endpoint.strip().startswith("http://") else "https")}


def new_account(
    name: str, provider: str, region: str, endpoint: str = "", *, protocol: str | None = None,
    extra: Mapping[str, str] | None = None,
) -> Account:
    """The Account the fields describe (not yet checked or saved)."""
    settings = dict(account_extra(provider, endpoint, protocol))
    settings.update(extra or {})
    return Account(name, provider, region, endpoint, settings)


def add_account(
    service: AccountService, account: Account, credentials: Credentials, *, test: bool = False,
    on_saved: Callable[[AddedAccount], None] | None = None,
) -> AddedAccount:
    """Check the fields, keep the keys in the keyring, save the account (``on_saved`` is told), then
    test it when asked: a failing test raises, the account stays saved."""
    validate_account(account)
    validate_credentials(credentials, account.provider)
    saved = service.accounts.add(account, credentials)
    added = AddedAccount(saved, service.accounts.info(saved.name))
    if on_saved is not None:
        on_saved(added)
    if test:
        added = replace(added, connection=service.test_connection(saved.name))
    return added


def edit_account(
    service: AccountService, name: str, *, region: str, endpoint: str, credentials: Credentials | None = None,
    extra: Mapping[str, str] | None = None,
) -> Account:
    """Change an account's region and endpoint, and its keys when new ones are given (both checked
    before anything is written)."""
    if credentials is not None:
        known = service.accounts.exists(name)  # an unknown name is said by edit(), after the keys are checked
        validate_credentials(credentials, service.accounts.get(name).provider if known else "")
    return service.accounts.edit(name, region=region, endpoint=endpoint, extra=extra, credentials=credentials)
