"""Long-lived services the pages share: ``ctx.services``, one typed slot per service.

Each slot starts empty and is filled on first use by its feature's accessor (``cloud_service(ctx)``
below, ``monitor_hub(ctx)`` and ``watch_service(ctx)`` in app.ui.monitor, ``HostConnectionService.of``
and ``vpn_service(ctx)`` in app.ui.remote); ``ctx.shutdown()`` closes them in the order they were
created. A slot another feature reads is typed by a Protocol here (what it uses of the service),
since feature packages never import each other.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from app.cloud.launch import CloudService
    from app.ui.context import AppContext
    from app.watch.hub import MonitorHub


class Closable(Protocol):
    def close(self) -> None: ...


class HostConnections(Closable, Protocol):
    """app.ui.remote's HostConnectionService, as the monitor sees it: the live connection per host."""

    @property
    def connections(self) -> Mapping[str, Any]: ...


class GuardWatcher(Closable, Protocol):
    """app.ui.monitor's WatchService: applies guards in the background."""

    def guard_changed(self, target: str) -> None: ...


class VpnWatcher(Closable, Protocol):
    """app.ui.remote's VpnService, as the tray sees it: ``status_changed(name, status)``."""

    status_changed: Any  # SignalInstance


class Services:
    """The slots of ``ctx.services``. Assigning an unknown name raises (a typo is not a new service)."""

    NAMES = ("cloud", "monitor", "hosts", "watch", "vpn", "tray")

    cloud: CloudService | None
    monitor: MonitorHub | None
    hosts: HostConnections | None
    watch: GuardWatcher | None
    vpn: VpnWatcher | None
    tray: Closable | None  # the tray shell (app.ui.tray.TrayShell)

    def __init__(self) -> None:
        object.__setattr__(self, "_order", [])
        for name in self.NAMES:
            object.__setattr__(self, name, None)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self.NAMES:
            raise AttributeError(f"ctx.services has no slot {name!r} (slots: {', '.join(self.NAMES)})")
        object.__setattr__(self, name, value)
        order: list[str] = self._order  # type: ignore[attr-defined]
        if value is None:
            if name in order:
                order.remove(name)
        elif name not in order:
            order.append(name)

    def created(self) -> list[Any]:
        """The services set so far, oldest first."""
        return [getattr(self, name) for name in self._order]  # type: ignore[attr-defined]

    def close_all(self) -> None:
        """Close every service that has ``close()``, oldest first (they stay in their slots)."""
        for svc in self.created():
            close = getattr(svc, "close", None)
            if callable(close):
                close()


def cloud_service(ctx: AppContext) -> CloudService:
    """The app's CloudService (created on first use). Every call on it blocks (keyring, network):
    call it only through ``ctx.runner``."""
    svc = ctx.services.cloud
    if svc is None:
        from app.cloud.launch import CloudService

        svc = CloudService(ctx.paths)
        ctx.services.cloud = svc
    return svc
