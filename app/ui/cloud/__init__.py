"""The cloud pages: accounts, launch, instances and the audit log, on top of app.cloud.launch.

Every page shares one :class:`app.cloud.launch.CloudService` kept in ``ctx.services["cloud"]``
(its own Store connection per thread); every call on it blocks (keyring, network), so pages call
it only through ``ctx.runner``.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication

from app.core import providers
from app.ui.shared.services import cloud_service  # noqa: F401 - the cloud pages import it from here

SETTINGS_KEY = "cloudui"  # ctx.settings.extra["cloudui"]: last choices that survive a restart


def ui_state(ctx: Any) -> dict[str, Any]:
    state = ctx.settings.extra.setdefault(SETTINGS_KEY, {})
    if not isinstance(state, dict):
        state = ctx.settings.extra[SETTINGS_KEY] = {}
    return state


def remember(ctx: Any, **values: Any) -> None:
    ui_state(ctx).update(values)
    try:
        ctx.save_settings()
    except OSError:
        pass


def provider_name(provider: str) -> str:
    """The provider's name in the user's language (from its ProviderSpec)."""
    return providers.display_name(provider)


_SYMBOLS = {"CNY": "¥", "USD": "$"}


def money(amount: float | None, currency: str, digits: int = 2) -> str:
    if amount is None:
        return "—"
    return f"{_SYMBOLS.get(currency, currency + ' ')}{amount:,.{digits}f}"


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


def run_task(owner: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
    """``owner.ctx.runner.submit`` (the runner keeps each Task until its signals are delivered)."""
    return owner.ctx.runner.submit(fn, *args, **kwargs)
