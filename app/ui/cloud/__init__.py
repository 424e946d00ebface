"""The cloud pages: accounts, launch, instances and the audit log, on top of app.cloud.launch.

Every page shares one :class:`app.cloud.launch.CloudService` kept in ``ctx.services.cloud``
(its own Store connection per thread); every call on it blocks (keyring, network), so pages call
it only through ``ctx.runner``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from app.core.settings import read_section, write_section
from app.ui.shared.services import cloud_service as cloud_service  # the cloud pages import it from here

if TYPE_CHECKING:
    from app.ui.context import AppContext

SETTINGS_KEY = "cloudui"  # ctx.settings.extra["cloudui"]: last choices that survive a restart


@dataclass
class CloudUiSettings:
    """The cloud pages' last choices (``extra["cloudui"]``); no secret is kept here."""

    account: str = ""  # the launch dialog's last account
    disk_gb: int = 100
    spot: bool = False
    ssh_key_path: str = ""
    ssh_from_custom: str = ""  # the SSH source CIDR typed last
    tests: dict[str, tuple[bool, str]] = field(default_factory=dict)  # account → (ok, sentence) of its last test


def cloud_settings(ctx: AppContext) -> CloudUiSettings:
    return read_section(ctx.settings, (SETTINGS_KEY,), CloudUiSettings)


def remember(ctx: AppContext, **values: Any) -> None:
    """Set some fields of the cloud settings and save the file."""
    write_section(ctx.settings, (SETTINGS_KEY,), replace(cloud_settings(ctx), **values))
    try:
        ctx.save_settings()
    except OSError:
        pass


def provider_name(provider: str) -> str:
    """The provider's name in the user's language (from its ProviderSpec)."""
    from app.core import providers  # here: the window finds its pages through this package before it shows

    return providers.display_name(provider)


def money(amount: float | None, currency: str, digits: int = 2) -> str:
    from app.core.currency import money_text

    return money_text(amount, currency, digits)


def duration(seconds: float) -> str:
    seconds = int(max(0, seconds))
    d, rest = divmod(seconds, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    if d:
        return QCoreApplication.translate("CloudUi", "{d} d {h} h").format(d=d, h=h)
    if h:
        return QCoreApplication.translate("CloudUi", "{h} h {m} min").format(h=h, m=m)
    return QCoreApplication.translate("CloudUi", "{m} min {s} s").format(m=m, s=s)


def error_sentence(exc: BaseException) -> tuple[str, str]:
    """(message, next step) for any error a cloud call raised."""
    from app.ui.errors import describe

    message, hint = describe(exc)
    code = getattr(exc, "code", "")
    if code and code not in message:
        message = f"{message} [{code}]"
    return message, hint
