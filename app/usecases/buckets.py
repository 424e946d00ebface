"""Which bucket and which account a bucket sync or listing uses.

``labgpu sync``, ``labgpu buckets`` and the Sync page all turn "a bucket URL and maybe an account
name" into a :class:`~app.cloud.storage.client.StorageTarget` and its credentials here:

* :func:`account_for` (no keyring): the URL parsed (:func:`app.core.buckets.parse_bucket_url`) and
  the account that reaches it: the one named, which must be of the URL's cloud (an account of
  another cloud is refused before any request, its keys would only earn a confusing signature
  error), or, when none is named, the only account of that cloud; none or several is an InputError
  that names them.
* :func:`resolve_bucket`: the same plus the account's credentials from the keyring. A keyring read
  may block (a locked keyring asks for its password): the sync job calls it on its own thread, the
  UI through ``ctx.runner``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from app.cloud.storage.client import StorageTarget, target_for
from app.core import providers
from app.core.accounts import Account, AccountBook, Credentials
from app.core.buckets import BucketUrl, parse_bucket_url
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import Paths
from app.core.store import Store

NO_ACCOUNT = QT_TRANSLATE_NOOP("LabGPU", "LabGPU has no {cloud} account for {url}.")
NO_ACCOUNT_HINT = QT_TRANSLATE_NOOP(
    "LabGPU", "Add one with 'labgpu accounts add {provider} NAME --region REGION', then pass --account NAME."
)
SEVERAL_ACCOUNTS = QT_TRANSLATE_NOOP("LabGPU", "Several {cloud} accounts could reach {url}: {names}.")
SEVERAL_ACCOUNTS_HINT = QT_TRANSLATE_NOOP("LabGPU", "Choose one with --account NAME.")


@contextmanager
def _book(paths: Paths | None, store: Store | None) -> Iterator[AccountBook]:
    if store is not None:
        yield AccountBook(store)
        return
    own = Store(paths=paths)
    try:
        yield AccountBook(own)
    finally:
        own.close()


def accounts_of(provider: str, *, paths: Paths | None = None, store: Store | None = None) -> list[Account]:
    """The saved accounts of one cloud, by name (no keyring access)."""
    with _book(paths, store) as book:
        return sorted((a for a in book.list() if a.provider == provider), key=lambda a: a.name)


def account_for(url_text: str | BucketUrl, account_name: str = "", *, paths: Paths | None = None,
                store: Store | None = None) -> tuple[BucketUrl, Account]:
    """The bucket location and the account that reaches it (see the module docstring); no keyring."""
    url = url_text if isinstance(url_text, BucketUrl) else parse_bucket_url(url_text)
    if account_name:
        with _book(paths, store) as book:
            account = book.get(account_name)
        target_for(account, url)  # refuses an account of another cloud (WrongAccount)
        return url, account
    found = accounts_of(url.provider, paths=paths, store=store)
    cloud = providers.display_name(url.provider)
    if not found:
        raise InputError(NO_ACCOUNT, NO_ACCOUNT_HINT, code="NoAccount", cloud=cloud, url=str(url),
                         provider=url.provider)
    if len(found) > 1:
        raise InputError(SEVERAL_ACCOUNTS, SEVERAL_ACCOUNTS_HINT, code="SeveralAccounts", cloud=cloud,
                         url=str(url), names=", ".join(a.name for a in found))
    return url, found[0]


def resolve_bucket(url_text: str | BucketUrl, account_name: str = "", *, paths: Paths | None = None,
                   store: Store | None = None) -> tuple[StorageTarget, Credentials]:
    """The target of ``url_text`` with its account (:func:`account_for`) and the account's
    credentials from the keyring (may block: never on the GUI thread)."""
    url, account = account_for(url_text, account_name, paths=paths, store=store)
    with _book(paths, store) as book:
        creds = book.credentials(account.name)
    return target_for(account, url), creds
