"""The desktop app's VPN service: one :class:`VpnMonitor` per profile, re-emitted as Qt signals.

Lives in ``ctx.services.vpn`` so it outlives page rebuilds (language switch) and a tray icon
can use it later (``statuses()`` and ``status_changed``). Monitors run in their own threads
(the Qt-free ``app.remote.vpn.VpnMonitor``); their callbacks only emit signals, which Qt queues
onto the GUI thread. On close, a tunnel the user still wants keeps running (a keeper process
answers its prompts until the app starts again).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from app.core.paths import Paths
from app.core.settings import read_section
from app.notify.dispatch import notifier_for
from app.notify.vpn import VpnDropWatch
from app.remote.vpn import DISCONNECTED, VpnManager, VpnMonitor, VpnStatus, set_keepers_enabled

if TYPE_CHECKING:
    from app.ui.context import AppContext

log = logging.getLogger(__name__)


@dataclass
class VpnUiSettings:
    """``extra["vpn"]`` (set by hand in settings.json; the app only reads it)."""

    disconnect_on_exit: bool = True  # tunnels connected from this window go down when it quits


def vpn_settings(ctx: AppContext) -> VpnUiSettings:
    return read_section(ctx.settings, ("vpn",), VpnUiSettings)


def vpn_service(ctx: AppContext) -> VpnService:
    """The app's VpnService (created on first use, closed by ctx.shutdown()), its options from settings."""
    service = ctx.services.vpn
    if not isinstance(service, VpnService):
        service = VpnService(ctx.paths)
        ctx.services.vpn = service
    service.disconnect_on_exit = vpn_settings(ctx).disconnect_on_exit
    return service


class VpnService(QObject):
    status_changed = Signal(str, object)  # profile name, VpnStatus — on the GUI thread
    profiles_changed = Signal()

    def __init__(self, paths: Paths, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.manager = VpnManager(paths)
        set_keepers_enabled(False)  # the monitors own the management sockets while the app runs
        self._monitors: dict[str, VpnMonitor] = {}
        self._status: dict[str, VpnStatus] = {}
        self._lock = threading.Lock()
        self._closed = False
        # Tunnels connected from this window go down with it (VpnUiSettings.disconnect_on_exit);
        # tunnels started elsewhere (``labgpu vpn up``) are left to their keeper.
        self.disconnect_on_exit = True
        self._started_here: set[str] = set()
        self._drops = VpnDropWatch(notifier_for(paths))  # a tunnel that drops by itself: a notice away

    # -- monitors ---------------------------------------------------------------------------------
    def sync_profiles(self) -> list[str]:
        """Start a monitor for every stored profile, stop those of removed ones; returns the names."""
        names = [p.name for p in self.manager.profiles()]
        with self._lock:
            if self._closed:
                return names
            gone = [n for n in self._monitors if n not in names]
            new = [n for n in names if n not in self._monitors]
        for n in gone:
            self._forget(n)
        for n in new:
            mon = VpnMonitor(self.manager, n, self._listener(n))
            with self._lock:
                self._monitors[n] = mon
                self._status.setdefault(n, VpnStatus(DISCONNECTED))
            mon.start()
        return names

    def _listener(self, name: str) -> Callable[[VpnStatus], None]:
        def on_status(st: VpnStatus) -> None:
            self._on_monitor_status(name, st)

        return on_status

    def _forget(self, name: str) -> None:
        with self._lock:
            mon = self._monitors.pop(name, None)
            self._status.pop(name, None)
        if mon is not None:
            mon.close()

    def _on_monitor_status(self, name: str, st: VpnStatus) -> None:
        with self._lock:
            self._status[name] = st
        try:
            self._drops.observe(name, st.state, st.is_up, st.message, self.manager.user_wants_down(name))
        except Exception:  # noqa: BLE001 - a notice never stops the tunnel's watcher
            log.exception("VPN %s: the drop notice failed", name)
        if not self._closed:
            self.status_changed.emit(name, st)

    def monitor(self, name: str) -> VpnMonitor | None:
        with self._lock:
            return self._monitors.get(name)

    # -- Qt-free status API (tray, other pages) ---------------------------------------------------
    def statuses(self) -> dict[str, VpnStatus]:
        with self._lock:
            return dict(self._status)

    def status(self, name: str) -> VpnStatus:
        with self._lock:
            return self._status.get(name, VpnStatus(DISCONNECTED))

    # -- the user's buttons (non-blocking) --------------------------------------------------------
    def connect_profile(self, name: str) -> None:
        mon = self.monitor(name) or self._start_one(name)
        self._started_here.add(name)
        mon.connect()

    def disconnect_profile(self, name: str) -> None:
        """Blocking for up to a few seconds when the monitor does not hold the socket: call via the runner."""
        self._started_here.discard(name)
        mon = self.monitor(name)
        if mon is not None:
            mon.disconnect()
        else:
            self.manager.down(name)

    def credentials_changed(self, name: str) -> None:
        mon = self.monitor(name)
        if mon is not None:
            mon.credentials_changed()

    def remove_profile(self, name: str) -> bool:
        """Blocking (stops the tunnel, deletes keyring entries): call via the runner."""
        self._forget(name)
        ok = self.manager.remove_profile(name)
        self.profiles_changed.emit()
        return ok

    def _start_one(self, name: str) -> VpnMonitor:
        self.sync_profiles()
        mon = self.monitor(name)
        assert mon is not None, name
        return mon

    def close(self) -> None:
        with self._lock:
            self._closed = True
            monitors = list(self._monitors.values())
            self._monitors.clear()
        set_keepers_enabled(True)  # closing monitors hand tunnels still wanted to keepers
        for mon in monitors:
            if self.disconnect_on_exit and mon.name in self._started_here:
                log.info("VPN %s: disconnecting on exit", mon.name)
                mon.disconnect()
                mon.wait_down(5.0)
            mon.close()
