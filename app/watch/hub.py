"""MonitorHub: one GpuStream per watched host, the history, and subscribers (Qt-free)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from app.core.gpuhistory import GpuHistory, MinuteArchive
from app.core.gpumon import HostSample
from app.core.paths import Paths, default_paths
from app.core.store import Store

log = logging.getLogger(__name__)

ConnectFn = Callable[[str], Any]  # host name → logged-in app.remote.ssh.Connection


class _ConnectionKeeper:
    """The default connection source: one Connection per host, reconnected with ``ensure()``.

    The window passes its own ``connect`` (the Hosts page's live connection) instead, so the
    monitor rides the host's existing SSH session.
    """

    def __init__(self, paths: Paths) -> None:
        self.paths = paths
        self._conns: dict[str, Any] = {}
        self._lock = threading.Lock()

    def __call__(self, host: str) -> Any:
        from app.remote.ssh import open_connection

        with self._lock:
            conn = self._conns.get(host)
        if conn is not None:
            return conn.ensure()
        conn = open_connection(host, self.paths)
        with self._lock:
            self._conns[host] = conn
        return conn

    def close(self, host: str | None = None) -> None:
        with self._lock:
            items = list(self._conns.items()) if host is None else [(host, self._conns.get(host))]
            for name, _ in items:
                self._conns.pop(name, None)
        for _, conn in items:
            if conn is not None:
                conn.close()


class MonitorHub:
    def __init__(self, paths: Paths | None = None, clock: Callable[[], float] = time.time, *,
                 connect: ConnectFn | None = None, store: Store | None = None,
                 interval_s: float = 1.0, process_every_s: float = 5.0, retry_s: float = 10.0,
                 history_capacity_s: int = 86_400) -> None:
        self.paths = paths or default_paths()
        self.clock = clock
        self.store = store or Store(paths=self.paths)
        self._keeper = _ConnectionKeeper(self.paths) if connect is None else None
        self._connect: ConnectFn = connect or self._keeper  # type: ignore[assignment]
        self.interval_s = interval_s
        self.process_every_s = process_every_s
        self.retry_s = retry_s
        self.history = GpuHistory(history_capacity_s)
        self.archive = MinuteArchive(self.store)
        self._streams: dict[str, Any] = {}
        self._states: dict[str, str] = {}
        self._subs: list[Callable[[HostSample], None]] = []
        self._lock = threading.Lock()
        self._last_prune: float | None = None

    def watch(self, host_name: str) -> None:
        from app.remote.gpustream import GpuStream

        with self._lock:
            if host_name in self._streams:
                return
            def on_state(state: str, _detail: str, h: str = host_name) -> None:
                self._states[h] = state

            stream = GpuStream(
                host_name, lambda: self._connect(host_name), self._on_sample,
                interval_s=self.interval_s, process_every_s=self.process_every_s, retry_s=self.retry_s,
                on_state=on_state,
            )
            self._streams[host_name] = stream
        stream.start()

    def unwatch(self, host_name: str) -> None:
        with self._lock:
            stream = self._streams.pop(host_name, None)
        if stream is not None:
            stream.stop()
        if self._keeper is not None:
            self._keeper.close(host_name)

    def connection(self, host_name: str) -> Any:
        """The logged-in connection the monitor uses for `host_name` (other watches share it)."""
        return self._connect(host_name)

    def watched(self) -> list[str]:
        with self._lock:
            return sorted(self._streams)

    def subscribe(self, cb: Callable[[HostSample], None]) -> Callable[[], None]:
        with self._lock:
            self._subs.append(cb)

        def unsubscribe() -> None:
            with self._lock:
                if cb in self._subs:
                    self._subs.remove(cb)

        return unsubscribe

    def states(self) -> dict[str, str]:
        with self._lock:
            return {h: self._states.get(h, "idle") for h in self._streams}

    def suspicious(self) -> list[str]:
        """Hosts that reported more GPUs than any real machine (their extra uuids are dropped)."""
        with self._lock:
            streams = dict(self._streams)
        return sorted(h for h, s in streams.items() if getattr(s, "suspicious", False)
                      or self.history.dropped(h) > 0)

    def _on_sample(self, sample: HostSample) -> None:
        try:
            self.history.append(sample)
        except Exception:  # noqa: BLE001 - one host's bad sample must not stop the others' graphs
            log.exception("could not keep a GPU sample of %s", sample.host)
        try:
            self.archive.add(sample)
            now = self.clock()
            if self._last_prune is None or now - self._last_prune >= 3600:
                self._last_prune = now
                self.archive.prune(now)  # keep ARCHIVE_DAYS of minutes
        except Exception:  # noqa: BLE001 - a full disk must not stop the live graphs
            log.exception("could not archive a GPU sample")
        with self._lock:
            subs = list(self._subs)
        for cb in subs:
            try:
                cb(sample)
            except Exception:  # noqa: BLE001
                log.exception("monitor subscriber failed")

    def close(self) -> None:
        with self._lock:
            streams = list(self._streams.values())
            self._streams.clear()
        for s in streams:
            s.stop()
        if self._keeper is not None:
            self._keeper.close()
        try:
            self.archive.flush()
        except Exception:  # noqa: BLE001
            log.exception("could not flush the GPU archive")
