"""The Monitor page's link to the app's MonitorHub: the hub itself (created on first use), the SSH
connections it streams over, the queued hand-over of samples to the GUI thread, and the hosts it can watch."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from app.ui.context import AppContext

log = logging.getLogger(__name__)


class SampleBridge(QObject):
    """Hands samples from the hub's threads to the GUI thread (a queued signal)."""

    sample_received = Signal(object)

    def deliver(self, sample: object) -> None:
        try:
            self.sample_received.emit(sample)
        except RuntimeError:  # the page is gone while a stream still reports
            pass


def monitor_hub(ctx: AppContext) -> Any:
    """The app's MonitorHub (created on first use, closed by ctx.shutdown())."""
    hub = ctx.services.monitor
    if hub is None:
        from app.watch.hub import MonitorHub

        hub = MonitorHub(ctx.paths, interval_s=float(getattr(ctx.settings, "monitor_interval_s", 1.0) or 1.0),
                         connect=_connect_via_hosts(ctx))
        ctx.services.monitor = hub
    return hub


def _connect_via_hosts(ctx: AppContext) -> Any:
    """Connections for the hub: the Hosts page's live connection when it has one (one SSH session
    per host), else LabGPU's own, reconnected with ``ensure()`` when it drops."""
    own: dict[str, Any] = {}
    lock = threading.Lock()

    def connect(host: str) -> Any:
        svc = ctx.services.hosts
        conn = svc.connections.get(host) if svc is not None else None
        if conn is not None:
            return conn
        from app.remote.ssh import open_connection

        with lock:
            mine = own.get(host)
        if mine is not None:
            return mine.ensure()
        mine = open_connection(host, ctx.paths)
        with lock:
            own[host] = mine
        return mine

    return connect


def list_hosts(paths: Any) -> list[tuple[str, str]]:
    """(name, source) of every host LabGPU can watch: usecases.hosts.all_hosts (saved hosts, then
    running launched instances)."""
    from app.usecases.hosts import all_hosts

    return [(e.name, str(e.source)) for e in all_hosts(paths)]
