"""Local port forwards over an SSH connection: TensorBoard (6006) and Jupyter (8888) in a browser.

A :class:`LocalForward` listens on 127.0.0.1 (a free port unless one is asked for) and, for each
accepted local client, opens a ``direct-tcpip`` channel to ``remote_host:remote_port`` *as seen
from the server* (default 127.0.0.1, where notebooks usually listen) and copies bytes both ways.
Only loopback is bound: other machines on the user's network cannot use the tunnel. ``stop()``
closes the listener and every open pair and joins the threads it started.
"""

from __future__ import annotations

import logging
import select
import socket
import threading
from typing import Any

import paramiko

from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP

from . import fastssh
from .ssh import Connection

log = logging.getLogger(__name__)

SERVICES: dict[str, int] = {"tensorboard": 6006, "jupyter": 8888}


class TunnelError(LabGpuError):
    pass


def service_port(name_or_port: str | int) -> int:
    """``tensorboard`` → 6006, ``jupyter`` → 8888, or a port number."""
    if isinstance(name_or_port, int):
        port = name_or_port
    else:
        key = name_or_port.strip().lower()
        if key in SERVICES:
            return SERVICES[key]
        try:
            port = int(key)
        except ValueError:
            raise TunnelError(
                QT_TRANSLATE_NOOP("LabGPU", "{what!r} is neither tensorboard, jupyter nor a port."),
                QT_TRANSLATE_NOOP("LabGPU", "Give tensorboard, jupyter or a port number."),
                code="BadForward",
                what=name_or_port,
            ) from None
    if not 1 <= port <= 65535:
        raise TunnelError(
            QT_TRANSLATE_NOOP("LabGPU", "Port {port} is outside 1–65535."), "", code="BadForward", port=port
        )
    return port


class LocalForward:
    """127.0.0.1:<local_port> → (over SSH) → remote_host:remote_port."""

    def __init__(
        self, connection: Connection, remote_port: int, remote_host: str = "127.0.0.1", local_port: int = 0
    ) -> None:
        self.connection = connection
        self.remote_host = remote_host
        self.remote_port = remote_port
        self._requested_port = local_port
        self.local_port = 0
        self._listener: socket.socket | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self._pairs: set[tuple[socket.socket, Any]] = set()
        self._lock = threading.Lock()
        self.connections_served = 0
        self.last_error = ""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.local_port}/"

    def start(self) -> LocalForward:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.bind(("127.0.0.1", self._requested_port))
        except OSError as exc:
            sock.close()
            raise TunnelError(
                QT_TRANSLATE_NOOP("LabGPU", "Local port {port} is not free ({why})."),
                QT_TRANSLATE_NOOP("LabGPU", "Close what uses it or let LabGPU pick a free port."),
                code="PortBusy",
                port=self._requested_port,
                why=exc.strerror or "",
            ) from None
        sock.listen(16)
        self._listener = sock
        self.local_port = sock.getsockname()[1]
        t = threading.Thread(target=self._accept_loop, name=f"forward:{self.local_port}", daemon=True)
        self._threads.append(t)
        t.start()
        log.info(
            "forward 127.0.0.1:%d → %s:%d on %s",
            self.local_port,
            self.remote_host,
            self.remote_port,
            self.connection.record.name,
        )
        return self

    def check_remote(self, timeout: float = 5.0) -> bool:
        """True if something listens at the remote end now (opens and closes one channel)."""
        try:
            chan = self.connection.open_direct_tcpip(self.remote_host, self.remote_port, timeout=timeout)
        except (paramiko.ChannelException, paramiko.SSHException, EOFError, OSError, LabGpuError):
            return False
        chan.close()
        return True

    def _accept_loop(self) -> None:
        assert self._listener is not None
        while not self._stop.is_set():
            try:
                r, _, _ = select.select([self._listener], [], [], 0.2)
            except (OSError, ValueError):
                break
            if not r:
                continue
            try:
                client, peer = self._listener.accept()
            except OSError:
                break
            try:
                chan = self.connection.open_direct_tcpip(self.remote_host, self.remote_port, peer)
            except (paramiko.ChannelException, paramiko.SSHException, EOFError, OSError, LabGpuError) as exc:
                self.last_error = str(exc) or type(exc).__name__
                log.info("forward to %s:%d refused: %s", self.remote_host, self.remote_port, self.last_error)
                client.close()
                continue
            pair = (client, chan)
            with self._lock:
                self._pairs.add(pair)
                self.connections_served += 1
                self._threads = [t for t in self._threads if t.is_alive()]
                t = threading.Thread(
                    target=self._pump, args=(pair,), name=f"forward:{self.local_port}:pump", daemon=True
                )
                self._threads.append(t)
            t.start()

    def _pump(self, pair: tuple[socket.socket, Any]) -> None:
        client, chan = pair
        try:
            while not self._stop.is_set():
                r, _, _ = select.select([client, chan], [], [], 0.2)
                if client in r:
                    data = client.recv(65536)
                    if not data:
                        break
                    fastssh.sendall(chan, data)  # never after the far end closed: see fastssh.send
                if chan in r:
                    data = chan.recv(65536)
                    if not data:
                        break
                    client.sendall(data)
        except (OSError, EOFError, paramiko.SSHException):
            pass
        finally:
            with self._lock:
                self._pairs.discard(pair)
            chan.close()
            client.close()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._listener is not None:
            self._listener.close()
        with self._lock:
            pairs = list(self._pairs)
            threads = list(self._threads)
        for client, chan in pairs:
            chan.close()
            try:
                client.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        for t in threads:
            if t is not threading.current_thread():
                t.join(timeout)

    def __enter__(self) -> LocalForward:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
