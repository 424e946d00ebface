"""The provider protocol, the records it trades in, and the CloudError family.

Providers are stateless classes registered by id; each call gets the account and its credentials,
so rotated keys take effect at once and no client is cached forever.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from app.core import providers

# Account, Credentials and Instance are defined in core (re-exported here) so the
# ledger, account book and audit log (core, no app.cloud import) share the same records.
from app.core.accounts import Account as Account
from app.core.accounts import Credentials as Credentials
from app.core.backstops import BackstopPlan, BackstopReading
from app.core.cloudevents import CloudEvent
from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.models import Instance as Instance
from app.core.models import Offer
from app.core.spothistory import SpotPricePoint
from app.core.vocab import BILLING_STATES as VOCAB_BILLING_STATES
from app.core.vocab import LAUNCH_STEPS as VOCAB_LAUNCH_STEPS

LABGPU_TAG_KEY = "labgpu"  # every instance LabGPU launches carries this tag (value "1")
LABGPU_TAG_VALUE = "1"


class CloudError(LabGpuError):
    """An error a provider reported, mapped to a sentence and a next step."""

    def __init__(self, message: str, hint: str = "", *, provider: str = "", code: str = "",
                 request_id: str = "", retryable: bool = False, **params: Any) -> None:
        self.provider = provider
        self.request_id = request_id
        self.retryable = retryable
        super().__init__(message, hint, code=code, **params)


class AuthError(CloudError):
    pass


class CapacityError(CloudError):
    """No capacity for this type in this zone: another zone may work."""


class QuotaError(CloudError):
    pass


class PriceTooLowError(CloudError):
    pass


class ThrottledError(CloudError):
    pass


class NotFoundError(CloudError):
    pass


class SdkMissingError(CloudError):
    pass


class NotSupportedError(CloudError):
    """The provider cannot do this (its spec does not declare the capability)."""


class StopRefusedError(CloudError):
    """The cloud will not stop this instance (e.g. AWS and a one-time spot instance): terminating is
    the only way to end its bill. Guards and the Stop button take that alternative (see the AWS
    plugin's stop and app/watch/watcher.py)."""


@dataclass(frozen=True)
class LaunchRequest:
    instance_type: str
    region: str
    zone: str = ""  # empty = let the launcher try each zone of the region
    image_id: str = ""  # empty = pick a GPU image (CUDA/PyTorch) or plain Ubuntu
    spot: bool = False
    max_price: float | None = None  # per hour, native currency; None = default fraction of on-demand
    disk_gb: int = 100
    ssh_key_name: str = ""
    public_key: str = ""  # OpenSSH public key line to register
    ssh_cidr: str = ""  # who may reach port 22, e.g. "203.0.113.7/32"
    client_token: str = ""  # idempotency: the same token yields the same instance
    name: str = ""
    tags: dict[str, str] = field(default_factory=dict)
    # A maximum runtime handed to the cloud (its CloudBackstop plugin sends it), None: none asked or the
    # cloud cannot take it (CloudService asked backstop_refusal first).
    backstop: BackstopPlan | None = None


# Normalised lifecycle states: app.core.vocab.InstanceState (provider states map onto these).
# "stopped_billing": stopped by the OS or the cloud, but its compute still bills (Tencent STOPPED with
# StopChargingMode KEEP_CHARGING, Alibaba Stopped with StoppedMode KeepCharging): never shown or counted as free.
# "isolated": held by the cloud and not billing, but not gone: it may come back (Tencent SHUTDOWN: an instance in
# arrears or in the recycle bin, restorable until it is destroyed).
BILLING_STATES = VOCAB_BILLING_STATES


# progress(step, message="") — step is one of LAUNCH_STEPS (or "zone" when the launcher moves on to
# another zone); message is an already-formatted sentence for the user (may be empty).
ProgressFn = Callable[..., None]
LAUNCH_STEPS = VOCAB_LAUNCH_STEPS  # app.core.vocab.LaunchStep

# Request ids of the cloud calls made on this thread, so the audit log can record them without the
# Provider protocol returning them from every method. Providers call report_request_id().
_calls = threading.local()


def report_request_id(request_id: str) -> None:
    """Providers call this after each state-changing API call with the provider's request id."""
    ids = getattr(_calls, "ids", None)
    if ids is not None and request_id:
        ids.append(request_id)


def report_call(action: str, resource: str, request_id: str) -> None:
    """Like report_request_id, naming the API action and resource, so each state-changing call made
    inside one user action (key import, security group, run) gets its own audit row."""
    calls = getattr(_calls, "calls", None)
    if calls is not None:
        calls.append((action, resource, request_id))
    report_request_id(request_id)


@contextmanager
def collect_calls() -> Iterator[list[tuple[str, str, str]]]:
    """(action, resource, request id) of the calls reported with report_call on this thread."""
    outer = getattr(_calls, "calls", None)
    calls: list[tuple[str, str, str]] = []
    _calls.calls = calls
    try:
        yield calls
    finally:
        if outer is not None:
            outer.extend(calls)
        _calls.calls = outer


@contextmanager
def collect_request_ids() -> Iterator[list[str]]:
    """Collect the request ids reported on this thread inside the block (nesting keeps the outer list)."""
    outer = getattr(_calls, "ids", None)
    ids: list[str] = []
    _calls.ids = ids
    try:
        yield ids
    finally:
        if outer is not None:
            outer.extend(ids)
        _calls.ids = outer


@runtime_checkable
class Provider(Protocol):
    id: str
    display_name: str
    # Features the provider cannot do, with the reason the UI shows, e.g. {"stop_charging": "..."}
    limitations: dict[str, str]

    def validate(self, account: Account, creds: Credentials) -> str:
        """Check the credentials; returns who they belong to (ARN, account id)."""
        ...

    def list_instances(self, account: Account, creds: Credentials) -> list[Instance]: ...

    def launch(self, account: Account, creds: Credentials, req: LaunchRequest,
               progress: ProgressFn | None = None) -> Instance: ...

    def start(self, account: Account, creds: Credentials, instance_id: str) -> None: ...

    def stop(self, account: Account, creds: Credentials, instance_id: str) -> str:
        """Stop; returns a sentence on what still bills (disks on AWS, nothing with STOP_CHARGING)."""
        ...

    def terminate(self, account: Account, creds: Credentials, instance_id: str) -> None: ...

    def refresh_prices(self, account: Account, creds: Credentials,
                       instance_types: Sequence[str]) -> list[Offer]: ...

    # Optional methods are the protocols below: a provider has one when it defines the method, and
    # callers ask ``isinstance(provider, ZoneLister)`` (runtime_checkable: the method's presence).


@runtime_checkable
class ZoneLister(Protocol):
    def zones(self, account: Account, creds: Credentials, instance_type: str = "") -> list[str]:
        """The region's available zones (with a type: those selling it), in the order a launch on
        "any zone" tries them."""
        ...


@runtime_checkable
class ClientTokenFinder(Protocol):
    def find_by_client_token(self, account: Account, creds: Credentials, token: str) -> Instance | None:
        """The instance a launch with this client token made (any zone attempt of it), or None."""
        ...


@runtime_checkable
class ConsoleFingerprints(Protocol):
    def host_key_fingerprints(self, account: Account, creds: Credentials, instance_id: str) -> list[str]:
        """The SSH host key fingerprints the instance printed on its console at first boot."""
        ...


@runtime_checkable
class SpotPriceHistory(Protocol):
    def spot_price_history(self, account: Account, creds: Credentials, instance_type: str,
                           zone: str | None = None, days: int = 7) -> list[SpotPricePoint]:
        """Every zone's (or one zone's) spot price changes over the last ``days`` days."""
        ...


@runtime_checkable
class StopRefusal(Protocol):
    def stop_refusal(self, account: Account, creds: Credentials, instance_id: str) -> str:
        """Why the cloud will not stop this instance (a translation template), or ""."""
        ...


@runtime_checkable
class OsShutdownSettler(Protocol):
    def stop_charging_after_os_shutdown(self, account: Account, creds: Credentials,
                                        instance_id: str) -> str | None:
        """Stop without charging an instance its own OS shut down; the stop's note, or None."""
        ...


@runtime_checkable
class CloudBackstop(Protocol):
    """A cloud that enforces a maximum runtime itself: the plugin's launch sends ``req.backstop`` in
    its RunInstances (and, when the cloud refuses only that field, launches without it and remembers why)."""

    def backstop_refusal(self, account: Account, plan: BackstopPlan, spot: bool) -> tuple[str, dict[str, Any]]:
        """Why this cloud would not take ``plan`` (a translation template and its parameters), or ("", {})
        when the launch sends it."""
        ...

    def read_backstop(self, account: Account, creds: Credentials, instance_id: str,
                      plan: BackstopPlan) -> BackstopReading:
        """What the cloud holds for the launched instance, read back (or why it holds nothing)."""
        ...


@runtime_checkable
class CloudEventReader(Protocol):
    """A cloud whose spec declares an ``event_source``: its API call history (app/core/cloudevents.py)."""

    def lookup_events(self, account: Account, creds: Credentials, region: str, start: datetime, end: datetime,
                      max_events: int) -> list[CloudEvent]:
        """The events of ``region`` between ``start`` and ``end`` (UTC), newest first, at most
        ``max_events``, the API's own paging followed up to app.core.cloudevents.MAX_PAGES pages."""
        ...


def spot_price_history(provider: Provider, account: Account, creds: Credentials, instance_type: str,
                       zone: str | None = None, days: int = 7) -> list[SpotPricePoint]:
    """The provider's spot price changes over the last `days` days (all zones, or one)."""
    if not isinstance(provider, SpotPriceHistory):
        raise NotSupportedError(
            QT_TRANSLATE_NOOP("LabGPU", "{cloud} does not publish a spot price history LabGPU can read."),
            QT_TRANSLATE_NOOP("LabGPU", "Compare the current spot price in the offers table instead."),
            code="NotSupported", provider=account.provider, cloud=providers.display_name(account.provider))
    return provider.spot_price_history(account, creds, instance_type, zone=zone or None, days=days)


def get_provider(provider_id: str) -> Provider:
    from app.cloud import registry

    make = registry.factory(provider_id)
    if make is None:
        raise CloudError("LabGPU cannot manage instances on {provider} yet.",
                         "Use {launchable}, or add the server by its SSH command.",
                         code="UnsupportedProvider", provider=provider_id,
                         launchable=" / ".join(providers.display_name(p) for p in providers.launchable_ids()))
    return make()
