"""What the rest of LabGPU knows about a cloud provider: one frozen ``ProviderSpec`` per provider.

A provider plugin (a package ``app/cloud/<name>/``, or a test's toy) declares its spec once and
registers it here with :func:`register_spec`; core, cloud, ui and cli read names, credential
fields, regions, billing rule, tag names and capabilities from the spec instead of spelling
provider ids out. The clouds LabGPU only lists in the offers catalog (no launching) have specs in
:mod:`app.core.catalog_providers`; a launchable cloud's whole spec lives in its plugin's spec.py.

Core never imports ``app.cloud``: the launchable providers' specs arrive when the composition
root's loader runs (``app.wiring.install_provider_loader`` fills :mod:`app.core.provider_loader`
from ``app/__init__.py``), the first time a spec is asked for.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from . import provider_loader
from .i18n import QT_TRANSLATE_NOOP, language, translate


@dataclass(frozen=True)
class BillingRule:
    """How one provider turns running time into billed time, and the sentence that says so."""

    provider: str
    increment_s: int | None  # 1 = per second, 60 = per minute, None = not known
    minimum_s: int  # billed at least this long per start
    settlement: str  # "hourly", "weekly", "monthly", "" (not stated)
    sentence: str  # QT_TRANSLATE_NOOP template, shown via translate()
    source: str  # URL of the public page the rule comes from

    @property
    def known(self) -> bool:
        return self.increment_s is not None

    def text(self) -> str:
        return translate(self.sentence)


UNKNOWN_RULE_SENTENCE = QT_TRANSLATE_NOOP("LabGPU", "Billing rule unknown for this provider: time is "
                                                    "prorated, the real bill may be higher.")


def unknown_rule(provider: str) -> BillingRule:
    return BillingRule(provider, None, 0, "", UNKNOWN_RULE_SENTENCE, "")


@dataclass(frozen=True)
class CredentialField:
    """One credential the account dialog and ``labgpu accounts add`` ask for.

    ``key`` names the Credentials attribute it fills: "key_id", "secret" or "session_token".
    ``label`` is a QT_TRANSLATE_NOOP template (context "LabGPU"); ``hint`` a placeholder.
    """

    key: str
    label: str
    secret: bool = False
    optional: bool = False
    hint: str = ""
    prompt: str = ""  # what ``labgpu accounts add`` asks (plain text; "" = the label)
    # A whole document rather than a token (a service-account JSON key): spaces and line breaks are part of
    # it; ``labgpu accounts add`` reads it as the rest of stdin, after the single-line fields.
    multiline: bool = False


@dataclass(frozen=True)
class AccountField:
    """A setting of an account that is not a secret (a project id, a tenant, a subscription…), kept in
    ``Account.extra[key]``. The account dialog shows one field per AccountField; ``labgpu accounts add``
    takes it as ``--KEY-WITH-DASHES VALUE``. ``label``/``hint`` are QT_TRANSLATE_NOOP templates (context
    "LabGPU"); ``pattern`` a regular expression the whole value must match ("" = one line of printable text).
    """

    key: str
    label: str
    optional: bool = False
    hint: str = ""
    pattern: str = ""

    @property
    def option(self) -> str:
        """The CLI option: ``project_id`` → ``--project-id``."""
        return "--" + self.key.replace("_", "-")


@dataclass(frozen=True)
class Capabilities:
    """What a launchable provider can do (read by the launcher, dialogs and watchers)."""

    launch: bool = False  # LabGPU can launch, list and stop its instances
    spot: bool = False  # spot / preemptible instances (the watcher polls interruption notices)
    stop_without_charging: bool = False  # a stopped instance bills nothing for compute and disks
    live_prices: bool = False  # refresh_prices() reads prices with an account
    console_fingerprints: bool = False  # host_key_fingerprints() reads them from the console
    zones: bool = False  # zones() lists the region's zones for capacity failover
    find_by_client_token: bool = False  # crash recovery finds a launch by its client token
    spot_price_history: bool = False  # spot_price_history() reads past spot prices with an account
    # Its object storage can be a sync target (buckets through the S3-compatible API), so LabGPU keeps
    # accounts of it even when it cannot launch there: such an account is storage-only (Huawei Cloud's
    # OBS), and the instance features skip it (see storage_only and app.core.accounts.instance_accounts).
    storage: bool = False
    # The cloud has no stop (Lambda): an instance bills until it is terminated. Its plugin's stop raises
    # StopRefusedError, so the guards terminate after their pull (app/watch/stopping.py); the guards' badges
    # and `labgpu guard ls` say "terminate" for it before the fact.
    stop_terminates: bool = False
    # Its spot instances take a maximum price (AWS, Tencent, Alibaba, Huawei, Azure); Google Cloud's Spot VMs
    # have none (they bill the current Spot price): no cap is worked out, asked for or sent there.
    spot_cap: bool = True


@dataclass(frozen=True)
class SpotNoticeSource:
    """Where a spot instance learns that it will be reclaimed: its metadata service, asked from the
    instance itself (app/remote/spotwatch.py builds the probe and the parser from this; plain data,
    since remote never imports a plugin). A 404 answer means nothing is pending.

    ``format``: "aws-instance-action-json" (``{"action": "terminate", "time": "…Z"}``) or
    "timestamp" (the reclaim time as text, ``2018-08-18 12:05:33`` or ``2015-01-05T18:02:00Z``; a
    time without a zone marker is in ``tz``: "UTC" or an offset such as "+08:00").
    "flag" (``TRUE`` once the reclaim has begun, ``FALSE`` before: Google Cloud's ``instance/preempted``),
    read as a reclaim at the instance's own clock, once; or "azure-scheduled-events" (Azure's Scheduled Events
    document: a ``Preempt`` event's ``NotBefore``, an RFC 1123 time; no such event = nothing pending).
    ``token_url``: a session token is first fetched with PUT there (``token_ttl_header`` gives its
    lifetime) and sent on the GET in ``token_header`` (AWS IMDSv2); "" = no token.
    ``header``: one more request header the service requires on the GET, as "Name: value" (Google's
    ``Metadata-Flavor: Google``); "" = none. ``action``: what the reclaim does to the instance where the
    answer does not say it ("terminate", or "stop" for Google Cloud's instanceTerminationAction STOP).
    """

    url: str
    format: str = "timestamp"
    tz: str = "UTC"
    token_url: str = ""
    token_header: str = ""
    token_ttl_header: str = ""
    header: str = ""
    action: str = "terminate"


SPOT_NOTICE_FORMATS = ("aws-instance-action-json", "timestamp", "flag", "azure-scheduled-events")

# The OpenSSH key types (ssh-keygen -t names: "ed25519", "rsa", "ecdsa", "dsa") a provider's key
# import takes, preferred first, when its spec says nothing (catalog-only clouds, test toys).
DEFAULT_SSH_KEY_TYPES: tuple[str, ...] = ("ed25519", "rsa")


@dataclass(frozen=True)
class ImportOption:
    """One option an account importer takes (``--NAME`` on ``labgpu accounts import``)."""

    name: str  # "profile", "region", "name", "endpoint": the importer function's keyword
    help: str = ""  # the CLI's help text (plain)
    required: bool = False  # the CLI asks for it; the Accounts page passes the spec's default region


@dataclass(frozen=True)
class ImporterDecl:
    """An account importer a plugin offers: keys found on this computer become accounts.

    ``target`` is ``"package.module:function"``, imported only when the importer runs; the function
    takes ``env`` (a mapping like os.environ, None = os.environ) and the options as keywords and
    returns ``app.core.accounts.ImportCandidate``s. ``label`` (QT_TRANSLATE_NOOP, context "LabGPU")
    is the Accounts page's Import menu entry; ``help`` the CLI's. ``sources`` maps the kind of an
    ImportCandidate.source ("aws-profile" in "aws-profile:lab") to a QT_TRANSLATE_NOOP title with
    ``{name}`` for the rest, shown in the accounts table.
    """

    id: str  # `labgpu accounts import ID`, and its alias `labgpu accounts import-ID`
    label: str
    target: str
    options: tuple[ImportOption, ...] = ()
    help: str = ""
    sources: tuple[tuple[str, str], ...] = ()

    def option(self, name: str) -> ImportOption | None:
        return next((o for o in self.options if o.name == name), None)


@dataclass(frozen=True)
class EventSourceDecl:
    """Where a cloud keeps the history of API calls made on an account (app/core/cloudevents.py reads it
    through the plugin's ``lookup_events``, app/cloud/base.py CloudEventReader): plain data."""

    service: str  # display name: "AWS CloudTrail", "Tencent CloudAudit", "Alibaba Cloud ActionTrail"
    api: str  # the action read: "LookupEvents" / "LookUpEvents"
    max_days: int  # how far back the API reads
    doc: str  # URL of the API reference
    window_days: int = 0  # the widest StartTime..EndTime one request may ask (0 = max_days)


@dataclass(frozen=True)
class ProviderSpec:
    id: str  # what the CLI and files use
    name: str  # English display name, marked with QT_TRANSLATE_NOOP("LabGPU", …)
    name_zh: str = ""  # Chinese display name ("" = the English one)
    currency: str = "USD"  # the currency it bills in
    billing: BillingRule | None = None  # None = unknown rule
    regions: tuple[str, ...] = ()  # offered in the account dialog (the user may type another)
    default_region: str = ""
    # (region prefix, ISO country) pairs, first match wins; exact regions that are in mainland China
    region_countries: tuple[tuple[str, str], ...] = ()
    mainland_regions: tuple[str, ...] = ()
    credentials: tuple[CredentialField, ...] = ()
    account_fields: tuple[AccountField, ...] = ()  # its non-secret account settings (Account.extra)
    # What a region id of this cloud looks like (a regular expression the whole id matches; "" = the
    # common shape ``xx-name-1``): Azure's locations are one word ("eastus"), Paperspace's "ny2"
    region_pattern: str = ""
    endpoint_hint: str = ""  # placeholder of the custom endpoint field (QT_TRANSLATE_NOOP)
    # An alternative site the account dialog offers as a check box (Tencent's international site)
    alt_endpoint: str = ""
    alt_endpoint_label: str = ""
    protocols: tuple[str, ...] = ()  # endpoint protocols the account may choose (account.extra)
    tags: Mapping[str, str] = field(default_factory=dict)  # role → tag name on its instances
    capabilities: Capabilities = field(default_factory=Capabilities)
    limitations: Mapping[str, str] = field(default_factory=dict)  # feature → reason (QT_TRANSLATE_NOOP)
    fractional_type_prefixes: tuple[str, ...] = ()  # instance families that are vGPU slices
    account_hint: str = ""  # example name for a new account
    importers: tuple[ImporterDecl, ...] = ()  # where existing keys can be imported from
    # Why no public price list is readable without an account (QT_TRANSLATE_NOOP); "" = not stated
    no_public_prices: str = ""
    spot_notice: SpotNoticeSource | None = None  # how a spot instance hears of its reclaim (spot=True)
    # SSH key types the cloud's key-pair import takes, preferred first (ssh-keygen -t names); a launch
    # registers LabGPU's own key of the first one LabGPU makes (app/cloud/sshkeys.py) and refuses a
    # chosen key of another type before any cloud call. Each plugin cites the document it follows.
    ssh_key_types: tuple[str, ...] = DEFAULT_SSH_KEY_TYPES
    # What Stop, the guards and Terminate do with its spot instances (QT_TRANSLATE_NOOP), said before and
    # after a spot launch; "" = nothing beyond the spot notice
    spot_rule: str = ""
    event_source: EventSourceDecl | None = None  # its API call history (CloudTrail, CloudAudit, ActionTrail)
    order: int = 1000  # place in lists (built-ins first)

    def display_name(self, lang: str | None = None) -> str:
        """The name in ``lang`` ("en", "zh_CN"; None: the user's language): in Chinese ``name_zh``
        (when the spec has one), otherwise the English ``name``."""
        if self.name_zh and (language() if lang is None else lang).startswith("zh"):
            return self.name_zh
        return self.name

    @property
    def billing_rule(self) -> BillingRule:
        return self.billing if self.billing is not None else unknown_rule(self.id)

    def account_field(self, key: str) -> AccountField | None:
        return next((f for f in self.account_fields if f.key == key), None)

    def credential(self, key: str) -> CredentialField | None:
        return next((c for c in self.credentials if c.key == key), None)

    def tag(self, role: str, default: str = "") -> str:
        return self.tags.get(role, default)


class ProviderPluginError(ImportError):
    """A provider plugin could not be imported (raised, never skipped)."""


_SPECS: dict[str, ProviderSpec] = {}
_lock = threading.RLock()
_loaded = False
_loading = False


def register_spec(spec: ProviderSpec) -> ProviderSpec:
    with _lock:
        _SPECS[spec.id] = spec
    return spec


def unregister_spec(provider_id: str) -> None:
    with _lock:
        _SPECS.pop(provider_id, None)


def _ensure_loaded() -> None:
    """Run the loader once. Other threads wait for it; the loading thread itself (a plugin asking for
    a spec while it is imported) sees what is registered so far."""
    global _loaded, _loading
    loader = provider_loader.loader
    if _loaded or loader is None:
        return
    with _lock:
        if _loaded or _loading:
            return
        _loading = True
        try:
            loader()
            _loaded = True
        finally:
            _loading = False


def specs() -> list[ProviderSpec]:
    """Every registered provider, built-ins first."""
    _ensure_loaded()
    with _lock:
        return sorted(_SPECS.values(), key=lambda s: (s.order, s.id))


def find_spec(provider_id: str) -> ProviderSpec | None:
    _ensure_loaded()
    return _SPECS.get(provider_id)


def spec(provider_id: str) -> ProviderSpec:
    """The spec of `provider_id`; KeyError when no plugin registered it."""
    found = find_spec(provider_id)
    if found is None:
        raise KeyError(provider_id)
    return found


def launchable_ids() -> tuple[str, ...]:
    """Ids of the providers LabGPU can launch on (accounts, launch dialog, CLI choices)."""
    return tuple(s.id for s in specs() if s.capabilities.launch)


def account_ids() -> tuple[str, ...]:
    """Ids of the providers LabGPU keeps accounts of: those it launches on, and those whose object
    storage alone it uses (Capabilities.storage without launch)."""
    return tuple(s.id for s in specs() if s.capabilities.launch or s.capabilities.storage)


def storage_only(provider_id: str) -> bool:
    """True when LabGPU keeps accounts of ``provider_id`` for its buckets only: no launching, no
    instance list, no live prices with them."""
    found = find_spec(provider_id)
    return found is not None and found.capabilities.storage and not found.capabilities.launch


def has(provider_id: str, capability: str) -> bool:
    found = find_spec(provider_id)
    return bool(found is not None and getattr(found.capabilities, capability))


def spot_notice_source(provider_id: str) -> SpotNoticeSource | None:
    """Where `provider_id`'s spot instances read interruption notices; None when it has no spot
    capability or declared no source (the watcher then does not poll)."""
    found = find_spec(provider_id)
    if found is None or not found.capabilities.spot:
        return None
    return found.spot_notice


def importers() -> list[tuple[ProviderSpec, ImporterDecl]]:
    """Every account importer of every registered provider, in the providers' order."""
    return [(s, imp) for s in specs() for imp in s.importers]


def find_importer(importer_id: str) -> tuple[ProviderSpec, ImporterDecl] | None:
    return next(((s, imp) for s, imp in importers() if imp.id == importer_id), None)


def source_title(source: str) -> str | None:
    """The title an importer declared for an ImportCandidate.source ("aws-profile:lab" →
    "AWS profile lab"), or None when no importer declared its kind."""
    kind, _, rest = source.partition(":")
    for _spec, imp in importers():
        for k, template in imp.sources:
            if k == kind:
                return translate(template).format(name=rest)
    return None


def billing_rule(provider_id: str) -> BillingRule:
    found = find_spec(provider_id)
    return found.billing_rule if found is not None else unknown_rule(provider_id)


def display_name(provider_id: str, lang: str | None = None) -> str:
    """How a provider is named to a user, in ``lang`` (None: the user's language): the one name the
    offers table, the offer details, the filters, the cloud pages and the CLI show; an unknown id as it is."""
    found = find_spec(provider_id)
    return found.display_name(lang) if found is not None else provider_id


class _Names(Mapping[str, str]):
    """id → English display name of every registered provider (a live view of the registry)."""

    def __getitem__(self, key: str) -> str:
        found = find_spec(key)
        if found is None:
            raise KeyError(key)
        return found.name

    def __iter__(self) -> Iterator[str]:
        return iter([s.id for s in specs()])

    def __len__(self) -> int:
        return len(specs())

    def __repr__(self) -> str:
        return repr(dict(self))


class _Currencies(Mapping[str, str]):
    """id → the currency the provider bills in (a live view of the registry)."""

    def __getitem__(self, key: str) -> str:
        found = find_spec(key)
        if found is None:
            raise KeyError(key)
        return found.currency

    def __iter__(self) -> Iterator[str]:
        return iter([s.id for s in specs()])

    def __len__(self) -> int:
        return len(specs())


NAMES: Mapping[str, str] = _Names()
CURRENCIES: Mapping[str, str] = _Currencies()


def _register_catalog_clouds() -> None:
    from .catalog_providers import CATALOG_SPECS

    for s in CATALOG_SPECS:
        register_spec(s)


_register_catalog_clouds()
