"""Plumbing the provider plugins share: the lazy SDK import (loud when a package is missing), polling
a resource until it reaches a state under a deadline, throttling backoff, number parsing, endpoint
parsing, progress sentences, the region check of a key's validation, account importers' names and
file errors, and live offers filled from the bundled catalog. A plugin's client builds on
:class:`PluginClient`; everything here is cloud-neutral (no SDK is imported by this module).
"""

from __future__ import annotations

import importlib
import re
import time
from collections.abc import Callable, Mapping, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlparse

from app.cloud.base import CloudError, SdkMissingError
from app.core.accounts import AccountError
from app.core.gcpause import gc_paused
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.models import Offer
from app.core.providers import ProviderSpec

T = TypeVar("T")

BAD_ENDPOINT = QT_TRANSLATE_NOOP("LabGPU", "The endpoint {endpoint} is not an http(s) URL or host name.")


def load_sdk(provider: str, names: Sequence[tuple[str, str]], message: str, hint: str) -> tuple[Any, ...]:
    """``from module import name`` for each (module, name), imported on first use so the app starts
    without the SDK. A missing package is an SdkMissingError naming it, with ``message`` and ``hint``
    (translation templates; ``{module}`` is the missing module)."""
    out: list[Any] = []
    with gc_paused():  # ~40 % of an SDK import's CPU was collector passes that free nothing (app/core/gcpause.py)
        for module, name in names:
            try:
                mod = importlib.import_module(module)
                try:
                    out.append(getattr(mod, name))
                except AttributeError:
                    out.append(importlib.import_module(f"{module}.{name}"))
            except ImportError as exc:
                raise SdkMissingError(message, hint, provider=provider, code="SdkMissing",
                                      module=getattr(exc, "name", "") or module.split(".")[0]) from None
    return tuple(out)


def to_float(value: Any) -> float | None:
    """A number from an API field ("1.25", 1.25); None for an empty, missing or unreadable value."""
    try:
        return None if value in (None, "") else float(value)
    except (TypeError, ValueError):
        return None


def parse_endpoint(endpoint: str, *, default_host: str, provider: str, hint: str) -> tuple[str, str]:
    """An account's endpoint → (host[:port], protocol); "" → (``default_host``, "https").

    Accepts a URL ("http://127.0.0.1:9000") or a bare host; anything else is a BadEndpoint error
    whose next step is ``hint`` (a translation template naming the cloud's own hosts)."""
    text = (endpoint or "").strip()
    if not text:
        return default_host, "https"
    if "://" not in text:
        return text.rstrip("/"), "https"
    url = urlparse(text)
    scheme = url.scheme.lower()
    if scheme not in ("http", "https") or not url.netloc:
        raise CloudError(BAD_ENDPOINT, hint, provider=provider, code="BadEndpoint", endpoint=text)
    return url.netloc, scheme


def say(template: str, **params: Any) -> str:
    """A progress sentence in the user's language (the UI installs the translator)."""
    return translate(template).format(**params)


def spec_identity(spec: ProviderSpec) -> tuple[str, str, dict[str, str]]:
    """A provider class's ``id``, ``display_name`` and ``limitations``, as its spec declares them."""
    return spec.id, spec.name, dict(spec.limitations)


def stepper(progress: Callable[..., None] | None) -> Callable[[str, str], None]:
    """A launch's ``step(name, message)``: the caller's progress function, or nothing when it gave none."""

    def step(name: str, message: str = "") -> None:
        if progress is not None:
            progress(name, message)

    return step


def public_key_of(public_key: str, provider: str) -> str:
    """The launch's SSH public key as "type blob" (its comment dropped): what a cloud's key import compares;
    a launch without one is refused before any call (NoSshKey)."""
    if not public_key:
        raise CloudError(
            QT_TRANSLATE_NOOP("LabGPU", "No SSH public key was given for the new instance."),
            QT_TRANSLATE_NOOP("LabGPU", "Create a key or choose an existing one in the launch dialog."),
            provider=provider, code="NoSshKey")
    return " ".join(public_key.split()[:2])


def timed_out(provider: str, instance_id: str, state: str, seconds: float) -> CloudError:
    """An instance action that did not reach its state in time (it may still get there)."""
    return CloudError(
        QT_TRANSLATE_NOOP("LabGPU", "{instance_id} is still {state} after {seconds} s."),
        QT_TRANSLATE_NOOP("LabGPU", "Reload the instances page in a minute to see where it stands."),
        provider=provider,
        code="OperationTimeout",
        instance_id=instance_id,
        state=state or "?",
        seconds=int(seconds),
    )


def key_validated(provider: str, region: str, key_id: str, regions: Sequence[str], refused: str,
                  summary: str) -> str:
    """A key's validation: the account's region must be one the cloud listed for the key (an empty
    region or list passes), else ``refused`` (a translation template with ``{region}``); the answer is
    ``summary`` with the masked key and the number of regions (``{key}``, ``{n}``)."""
    if region and regions and region not in regions:
        raise CloudError(
            refused,
            QT_TRANSLATE_NOOP("LabGPU", "Edit the account and pick one of: {regions}."),
            provider=provider,
            code="InvalidRegion",
            region=region,
            regions=", ".join(regions[:12]),
        )
    return say(summary, key=masked_key(key_id), n=len(regions))


def profile_account_name(prefix: str, profile: str) -> str:
    """The account name an imported CLI profile gets: ``prefix-profile``, unsafe characters as '-'."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "-", profile).strip("-.") or "default"
    return f"{prefix}-{cleaned}"[:63]


def unreadable_file(path: Path, exc: BaseException, hint: str, code: str) -> AccountError:
    """An importer's refusal of a CLI configuration file it cannot parse; ``hint`` says how to fix it."""
    return AccountError(QT_TRANSLATE_NOOP("LabGPU", "{path} cannot be read ({reason})."), hint, code=code,
                        path=str(path), reason=type(exc).__name__)


def live_offer(provider: str, region: str, zone: str, instance_type: str, row: Mapping[str, str],
               fetched_at: datetime, **fields: Any) -> Offer:
    """A live offer read from the cloud now, dated today; interconnect and dedicated from the bundled
    catalog's ``row`` of the type. ``fields``: the specs and prices the cloud answered."""
    return Offer(provider=provider, region=region, zone=zone, instance_type=instance_type,
                 interconnect=row.get("interconnect", ""), dedicated=row.get("dedicated") == "yes",
                 price_date=date.today(), live=True, fetched_at=fetched_at, **fields)


def masked_key(key_id: str) -> str:
    """An access key id shown by its first six characters only."""
    return key_id[:6] + "…" if len(key_id) > 6 else key_id


class PluginClient:
    """What every plugin's client shares: an injectable sleep, the polling cadence, throttling backoff.

    Seconds; tests shorten them."""

    operation_timeout = 300.0
    poll_interval = 2.0
    retry_base_delay = 0.5
    max_attempts = 6

    def __init__(self, sleep: Callable[[float], None] = time.sleep) -> None:
        self._sleep = sleep
        # instance id → (code, detail) of a backstop field the cloud refused at launch (launched without it);
        # the plugin's read_backstop reports it once (CloudService asks on the same provider object)
        self.backstop_refused: dict[str, tuple[str, str]] = {}

    def _poll_delay(self, n: int) -> float:
        """0.25 s, 0.5 s, 1 s … up to poll_interval: quick operations end fast, slow ones cost few calls."""
        return min(self.poll_interval, 0.25 * float(2**n))

    def _backoff(self, attempt: int) -> float | None:
        """The wait before retrying a throttled call (exponential), or None when the attempts ran out."""
        if attempt >= self.max_attempts:
            return None
        return self.retry_base_delay * float(2 ** (attempt - 1))

    def poll_until(
        self,
        read: Callable[[], T],
        done: Callable[[T], bool],
        timeout: float,
        on_wait: Callable[[T], None] | None = None,
    ) -> tuple[T, bool]:
        """``read()`` until ``done`` says so or ``timeout`` seconds passed (monotonic clock); returns the
        last value read and whether it was done. ``read`` may raise (a failed state is an error);
        ``on_wait`` hears each value before a wait (a progress line)."""
        deadline = time.monotonic() + timeout
        polls = 0
        while True:
            value = read()
            if done(value):
                return value, True
            if time.monotonic() > deadline:
                return value, False
            if on_wait is not None:
                on_wait(value)
            self._sleep(self._poll_delay(polls))
            polls += 1
