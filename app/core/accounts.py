"""Cloud accounts: labels, regions and endpoints in the Store; secrets only in the OS keyring.

The database row keeps the account's name, provider, region, endpoint, a masked key id for display
and the *names* of its keyring entries (``account:<name>:key_id``, ``account:<name>:secret``,
``account:<name>:session_token``). Secrets are written to the keyring before anything is written to
the database, so a missing keyring (``SecretsUnavailableError``) leaves nothing behind.

``Account`` and ``Credentials`` are defined here (core) and re-exported by ``app.cloud.base``, so
core modules (ledger, audit) and providers trade the same records without core importing app.cloud.

Contract used by the CLI and the UI:
    book = AccountBook(Store(paths=paths))
    book.add(Account("lab", "aws", "us-east-1"), Credentials(key_id, secret))  # → Account
    book.list() / book.get(name) / book.info(name) (AccountInfo with key_id_masked)
    book.edit(name, region=..., endpoint=..., extra=..., credentials=...)
    book.remove(name)
    book.credentials(name)  # → Credentials (reads the keyring; blocks: call off the GUI thread)
    book.import_candidates(cands, replace=False) → list[ImportResult]
The candidates come from the importers the provider plugins declare (ProviderSpec.importers, e.g.
app/cloud/aws/importer.py); core only stores them.
Every method may block on the keyring: the UI calls them through ctx.runner.
"""

from __future__ import annotations

import builtins
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from . import damage, providers, secrets
from .errors import InputError, LabGpuError
from .i18n import QT_TRANSLATE_NOOP, translate
from .store import Store, register_schema

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$")

register_schema(
    "accounts",
    [
        """
    CREATE TABLE cloud_accounts (
        name TEXT PRIMARY KEY,
        provider TEXT NOT NULL,
        region TEXT NOT NULL,
        endpoint TEXT NOT NULL DEFAULT '',
        extra_json TEXT NOT NULL DEFAULT '{}',
        key_id_masked TEXT NOT NULL DEFAULT '',
        secret_entries_json TEXT NOT NULL DEFAULT '[]',
        source TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    """,
    ],
)


@dataclass(frozen=True)
class Account:
    """A cloud account as providers see it: no secret here (those come as Credentials)."""

    name: str  # the user's label, unique
    provider: str  # "aws" | "tencent"
    region: str
    endpoint: str = ""  # custom endpoint URL (AWS endpoint_url; Tencent host or URL)
    extra: dict[str, str] = field(default_factory=dict)  # e.g. {"protocol": "http"} for Tencent

    @property
    def protocol(self) -> str:
        """Tencent only: "https" (default) or "http" (local test servers, some VPC endpoints)."""
        return self.extra.get("protocol", "https")


@dataclass(frozen=True)
class Credentials:
    key_id: str
    secret: str = field(repr=False)
    session_token: str = field(default="", repr=False)


@dataclass(frozen=True)
class AccountInfo:
    """What lists show: the account plus the masked key id (no keyring access needed)."""

    account: Account
    key_id_masked: str
    source: str  # "manual", "aws-profile:<p>", "env"
    created_at: datetime
    updated_at: datetime

    def to_json(self) -> dict[str, Any]:
        a = self.account
        return {
            "name": a.name,
            "provider": a.provider,
            "region": a.region,
            "endpoint": a.endpoint,
            "protocol": a.protocol if _spec_protocols(a.provider) else "",
            "key_id": self.key_id_masked,
            "storage_only": providers.storage_only(a.provider),
            "source": self.source,
            "created_at": self.created_at.isoformat(),
            "updated_at": self.updated_at.isoformat(),
        }


class AccountError(LabGpuError):
    pass


def secret_entry(name: str, kind: str) -> str:
    """Keyring entry name for one of an account's secrets (kind: key_id, secret, session_token)."""
    return f"account:{name}:{kind}"


def mask_key_id(key_id: str) -> str:
    """'AKIAIOSFODNN7EXAMPLE' → 'AKIA…MPLE': enough to tell keys apart, too little to use one."""
    key_id = key_id.strip()
    if len(key_id) <= 8:
        return "…" + key_id[-2:] if key_id else ""
    return f"{key_id[:4]}…{key_id[-4:]}"


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(microsecond=0)


REGION_PATTERN = r"[a-z]{2,}(-[a-z0-9]+)+"  # the common region id (us-east-1, ap-guangzhou, cn-north-4)
_SETTING_RE = re.compile(r"[^\x00-\x1f\x7f]{1,256}")  # one line of printable text


def validate_account(account: Account) -> None:
    if not _NAME_RE.match(account.name or ""):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "'{name}' cannot be an account name."),
            QT_TRANSLATE_NOOP("LabGPU", "Use letters, digits, '.', '_' or '-' (at most 63)."),
            code="BadAccountName",
            name=account.name,
        )
    if account.provider not in providers.account_ids():
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "LabGPU cannot manage {provider} accounts."),
            QT_TRANSLATE_NOOP("LabGPU", "Choose one of: {choices}."),
            code="BadProvider",
            provider=account.provider,
            choices=" ".join(providers.account_ids()),
        )
    found = providers.find_spec(account.provider)
    if not re.fullmatch((found.region_pattern if found else "") or REGION_PATTERN, account.region or ""):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "'{region}' is not a region id."),
            QT_TRANSLATE_NOOP("LabGPU", "Use a {cloud} region id such as {example}."),
            code="BadRegion",
            region=account.region,
            cloud=providers.display_name(account.provider),
            example=providers.spec(account.provider).default_region or "us-east-1",
        )
    if account.endpoint and not re.match(r"^(https?://)?[A-Za-z0-9.\-\[\]:]+(/.*)?$", account.endpoint):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "'{endpoint}' is not an endpoint URL."),
            QT_TRANSLATE_NOOP("LabGPU", "Use a URL such as http://127.0.0.1:9000 or a host name."),
            code="BadEndpoint",
            endpoint=account.endpoint,
        )
    proto = account.extra.get("protocol", "https")
    if proto not in (_spec_protocols(account.provider) or ("https", "http")):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "'{protocol}' is not a protocol LabGPU can use."),
            QT_TRANSLATE_NOOP("LabGPU", "Use https (or http for a local test server)."),
            code="BadProtocol",
            protocol=proto,
        )
    if found is not None:
        _validate_settings(found, account)


def _validate_settings(spec: providers.ProviderSpec, account: Account) -> None:
    """The spec's account fields (providers.AccountField): each required one given, each given one in its shape."""
    for f in spec.account_fields:
        value = account.extra.get(f.key, "")
        if not value:
            if f.optional:
                continue
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "A {cloud} account needs its {setting}."),
                QT_TRANSLATE_NOOP("LabGPU", "Fill in {setting} (labgpu accounts add: {option} VALUE)."),
                code="MissingSetting", cloud=providers.display_name(account.provider), setting=translate(f.label),
                option=f.option,
            )
        if not (re.fullmatch(f.pattern, value) if f.pattern else _SETTING_RE.fullmatch(value)):
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "'{value}' is not a {cloud} {setting}."),
                QT_TRANSLATE_NOOP("LabGPU", "Copy it from the {cloud} console and paste it again."),
                code="BadSetting", value=value[:80], cloud=providers.display_name(account.provider),
                setting=translate(f.label),
            )


def storage_only(account: Account) -> bool:
    """True for an account kept for its cloud's buckets only (providers.storage_only: Huawei Cloud's OBS)."""
    return providers.storage_only(account.provider)


def instance_accounts(accounts: Iterable[Account]) -> builtins.list[Account]:
    """The accounts whose cloud LabGPU launches on: what the reconcile, the instance list, the launch
    dialog and the price refresh go through. A storage-only account has no instances to ask about."""
    return [a for a in accounts if not storage_only(a)]


def storage_only_error(account: Account) -> AccountError:
    """Why an instance feature (launch, instance list, start/stop, live prices, key test) refuses ``account``."""
    return AccountError(
        QT_TRANSLATE_NOOP("LabGPU", "'{name}' is a {cloud} account for object storage only: LabGPU cannot "
                                    "launch, list or price instances with it."),
        QT_TRANSLATE_NOOP("LabGPU", "Use it for bucket syncs (--account {name}); to rent a GPU, add an account "
                                    "of {launchable}."),
        code="StorageOnlyAccount",
        name=account.name,
        cloud=providers.display_name(account.provider),
        launchable=" / ".join(providers.display_name(p) for p in providers.launchable_ids()),
    )


def _asks_key_id(provider: str) -> bool:
    """Whether the provider's accounts have a key id (an API key alone has none)."""
    spec = providers.find_spec(provider)
    if spec is None or not spec.credentials:
        return True
    key = spec.credential("key_id")
    return key is not None and not key.optional


def _spec_protocols(provider: str) -> tuple[str, ...]:
    found = providers.find_spec(provider)
    return found.protocols if found is not None else ()


def validate_credentials(creds: Credentials, provider: str = "") -> None:
    """Both the key id and the secret given (only the secret where the provider's spec asks for no key id,
    e.g. an API key), without spaces (but in a multi-line secret such as a JSON key)."""
    spec = providers.find_spec(provider) if provider else None
    declared = spec is not None and bool(spec.credentials)
    key_field = spec.credential("key_id") if spec is not None else None
    secret_field = spec.credential("secret") if spec is not None else None
    needs_key = not declared or (key_field is not None and not key_field.optional)
    if (needs_key and not creds.key_id.strip()) or not creds.secret.strip():
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "Both the key id and the secret are needed.") if needs_key
            else QT_TRANSLATE_NOOP("LabGPU", "The secret is needed."),
            QT_TRANSLATE_NOOP("LabGPU", "Copy them from the cloud console's access key page."),
            code="MissingSecret",
        )
    spaced = creds.key_id.strip() + ("" if secret_field is not None and secret_field.multiline
                                     else creds.secret.strip())
    if any(c.isspace() for c in spaced):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "The key id or secret contains spaces."),
            QT_TRANSLATE_NOOP("LabGPU", "Paste the values again without spaces or line breaks."),
            code="BadSecret",
        )


class AccountBook:
    """The accounts in the Store plus their keyring entries. Thread-safe (Store: one conn per thread)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- reading -------------------------------------------------------------------------------
    def _row_to_info(self, row: Any) -> AccountInfo:
        extra = json.loads(row["extra_json"] or "{}")
        acc = Account(
            row["name"],
            row["provider"],
            row["region"],
            row["endpoint"] or "",
            {str(k): str(v) for k, v in extra.items()},
        )
        return AccountInfo(
            acc,
            row["key_id_masked"],
            row["source"],
            datetime.fromisoformat(row["created_at"]),
            datetime.fromisoformat(row["updated_at"]),
        )

    def infos(self) -> list[AccountInfo]:
        rows = self.store.query("SELECT * FROM cloud_accounts ORDER BY provider, name")
        return [self._row_to_info(r) for r in rows]

    def list(self) -> builtins.list[Account]:
        return [i.account for i in self.infos()]

    def instance_accounts(self) -> builtins.list[Account]:
        """The accounts the instance features go through (storage-only ones left out)."""
        return instance_accounts(self.list())

    def exists(self, name: str) -> bool:
        return bool(self.store.query("SELECT 1 FROM cloud_accounts WHERE name=?", (name,)))

    def info(self, name: str) -> AccountInfo:
        rows = self.store.query("SELECT * FROM cloud_accounts WHERE name=?", (name,))
        if not rows:
            raise AccountError(
                QT_TRANSLATE_NOOP("LabGPU", "There is no account named '{name}'."),
                QT_TRANSLATE_NOOP("LabGPU", "List them with 'labgpu accounts ls' or add one."),
                code="NoSuchAccount",
                name=name,
            )
        return self._row_to_info(rows[0])

    def get(self, name: str) -> Account:
        return self.info(name).account

    def credentials(self, name: str) -> Credentials:
        """Read the account's secrets from the keyring (raises SecretsUnavailableError / AccountError)."""
        info = self.info(name)
        key_id = secrets.get_secret(secret_entry(name, "key_id")) or ""
        secret = secrets.get_secret(secret_entry(name, "secret"))
        if (not key_id and _asks_key_id(info.account.provider)) or not secret:
            raise AccountError(
                QT_TRANSLATE_NOOP("LabGPU", "The keyring has no credentials for account '{name}'."),
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Enter the key id and secret again (remove and add the account)."
                ),
                code="SecretMissing",
                name=name,
            )
        token = secrets.get_secret(secret_entry(name, "session_token")) or ""
        return Credentials(key_id, secret, token)

    # -- writing -------------------------------------------------------------------------------
    def _write_secrets(self, name: str, creds: Credentials) -> builtins.list[secrets.OwnedWrite]:
        """Secrets first: if the keyring fails, nothing has reached the database. On failure the
        writes made here are undone (only where the entry still holds what was written here)."""
        written: builtins.list[secrets.OwnedWrite] = []
        try:
            for kind, value in (
                ("key_id", creds.key_id.strip()),
                ("secret", creds.secret.strip()),
                ("session_token", creds.session_token.strip()),
            ):
                entry = secret_entry(name, kind)
                if value:
                    written.append(secrets.set_secret_owned(entry, value))
                elif kind in ("session_token", "key_id"):  # none (an API key alone): no stale entry
                    written.append(secrets.delete_secret_owned(entry))
        except BaseException:
            _undo(written)
            raise
        return written

    def _adding(self) -> Any:
        """Held while an account is added: LabGPU processes adding accounts take turns, so a second
        add of one name sees the first's row and writes no keyring entry."""
        return damage.file_lock(self.store.path.with_name(f".{self.store.path.name}.accounts-add.lock"))

    def add(self, account: Account, creds: Credentials, *, source: str = "manual") -> Account:
        validate_account(account)
        validate_credentials(creds, account.provider)
        with self._adding():
            if self.exists(account.name):
                raise AccountError(
                    QT_TRANSLATE_NOOP("LabGPU", "An account named '{name}' already exists."),
                    QT_TRANSLATE_NOOP("LabGPU", "Choose another name, or remove the old account first."),
                    code="AccountExists",
                    name=account.name,
                )
            written = self._write_secrets(account.name, creds)
            entries = [w.key for w in written if w.value]
            now = _now().isoformat()
            try:
                self.store.execute(
                    "INSERT INTO cloud_accounts(name, provider, region, endpoint, extra_json, key_id_masked,"
                    " secret_entries_json, source, created_at, updated_at) VALUES(?,?,?,?,?,?,?,?,?,?)",
                    (
                        account.name,
                        account.provider,
                        account.region,
                        account.endpoint.strip(),
                        json.dumps(account.extra, sort_keys=True),
                        mask_key_id(creds.key_id),
                        json.dumps(entries),
                        source,
                        now,
                        now,
                    ),
                )
            except BaseException:
                _undo(written)
                raise
        return self.get(account.name)

    def edit(
        self,
        name: str,
        *,
        region: str | None = None,
        endpoint: str | None = None,
        extra: Mapping[str, str] | None = None,
        credentials: Credentials | None = None,
    ) -> Account:
        old = self.get(name)
        new = Account(
            name,
            old.provider,
            region if region is not None else old.region,
            endpoint.strip() if endpoint is not None else old.endpoint,
            dict(extra) if extra is not None else dict(old.extra),
        )
        validate_account(new)
        masked = self.info(name).key_id_masked
        entries: builtins.list[str] | None = None
        if credentials is not None:
            validate_credentials(credentials, old.provider)
            entries = [w.key for w in self._write_secrets(name, credentials) if w.value]
            masked = mask_key_id(credentials.key_id)
        # Fixed column names only; every value is a bound parameter.
        extra_col = ", secret_entries_json=?" if entries is not None else ""
        sql = f"UPDATE cloud_accounts SET region=?, endpoint=?, extra_json=?, key_id_masked=?, updated_at=?{extra_col} WHERE name=?"  # noqa: S608, E501
        params: builtins.list[Any] = [
            new.region,
            new.endpoint,
            json.dumps(new.extra, sort_keys=True),
            masked,
            _now().isoformat(),
        ]
        if entries is not None:
            params.append(json.dumps(entries))
        self.store.execute(sql, [*params, name])
        return self.get(name)

    def remove(self, name: str) -> None:
        """Delete the keyring entries, then the row (a locked keyring stops here, nothing half-done)."""
        self.info(name)
        for kind in ("key_id", "secret", "session_token"):
            secrets.delete_secret(secret_entry(name, kind))
        self.store.execute("DELETE FROM cloud_accounts WHERE name=?", (name,))

    # -- import --------------------------------------------------------------------------------
    def import_candidates(
        self, candidates: Iterable[ImportCandidate], *, replace: bool = False
    ) -> builtins.list[ImportResult]:
        results = []
        for cand in candidates:
            if self.exists(cand.account.name):
                if not replace:
                    results.append(ImportResult(cand.account.name, "skipped", cand.source))
                    continue
                self.edit(
                    cand.account.name,
                    region=cand.account.region,
                    endpoint=cand.account.endpoint,
                    extra=cand.account.extra,
                    credentials=cand.credentials,
                )
                results.append(ImportResult(cand.account.name, "updated", cand.source))
                continue
            self.add(cand.account, cand.credentials, source=cand.source)
            results.append(ImportResult(cand.account.name, "added", cand.source))
        return results


def _undo(written: Sequence[secrets.OwnedWrite]) -> None:
    for write in reversed(written):
        secrets.undo_owned(write)


@dataclass(frozen=True)
class ImportCandidate:
    account: Account
    credentials: Credentials = field(repr=False)
    source: str  # "aws-profile:default", "env:AWS_ACCESS_KEY_ID", "env:TENCENTCLOUD_SECRET_ID"


@dataclass(frozen=True)
class ImportResult:
    name: str
    status: str  # "added" | "updated" | "skipped"
    source: str

