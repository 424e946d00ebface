"""One connection to an openvpn management socket: the line protocol, nothing about tunnels."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from app.core.i18n import QT_TRANSLATE_NOOP
from app.remote.vpn.states import VpnError


def mgmt_quote(value: str) -> str:
    """Management-protocol quoting: double quotes, backslash-escaped ``\\`` and ``\"``."""
    if "\n" in value or "\r" in value:
        raise VpnError(
            QT_TRANSLATE_NOOP("LabGPU", "A stored VPN credential contains a line break."),
            QT_TRANSLATE_NOOP("LabGPU", "Enter the VPN credentials again."),
            code="VpnBadCredential",
        )
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


class ManagementBusyError(VpnError):
    """Another client (usually the desktop app) holds the single management connection."""


class ManagementClosedError(VpnError):
    """OpenVPN closed the management connection (it is exiting, or refused the client)."""


class ManagementSession:
    """One connection to an openvpn management socket, used from one thread at a time
    (``send`` alone is safe from another thread, e.g. to ask the owner's openvpn to stop)."""

    def __init__(self, path: Path, timeout: float = 5.0) -> None:
        self.path = path
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(timeout)
        self._buf = b""
        self._send_lock = threading.Lock()
        # Who each reply still to come belongs to, in sending order ("async": a send() whose
        # one-line SUCCESS:/ERROR: reply nobody waits for; "cmd": the command() waiting). The
        # interface answers in order, so an async reply is never taken for a command's.
        self._order: deque[str] = deque()
        self._closed = False
        try:
            self._sock.connect(str(path))
        except OSError:
            self._sock.close()
            raise
        # OpenVPN greets with ">INFO:OpenVPN Management Interface …". A busy interface accepts
        # nothing (queued in the backlog): no greeting within the timeout means "busy".
        self.greeting: list[str] = []
        try:
            first = self.read_line(timeout)
        except EOFError:
            self.close()
            raise ManagementClosedError(
                QT_TRANSLATE_NOOP("LabGPU", "OpenVPN closed its control connection."),
                QT_TRANSLATE_NOOP("LabGPU", "See the VPN log for details."),
                code="VpnExited",
            ) from None
        except TimeoutError:
            self.close()
            raise ManagementBusyError(
                QT_TRANSLATE_NOOP("LabGPU", "The VPN is being managed by another LabGPU window."),
                QT_TRANSLATE_NOOP("LabGPU", "Use that window, or close it and retry."),
                code="VpnBusy",
            ) from None
        self.greeting.append(first)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._sock.close()

    def send(self, command: str) -> None:
        """Send a one-line-reply command without waiting for its reply (safe from any thread)."""
        with self._send_lock:
            self._sock.sendall(command.encode("utf-8") + b"\n")
            self._order.append("async")

    def _reply_owner(self) -> str:
        with self._send_lock:
            return self._order.popleft() if self._order else ""

    def read_line(self, timeout: float | None) -> str:
        """The next line that is not a reply owed to send(); TimeoutError when none came in
        ``timeout`` s, EOFError when closed."""
        while True:
            line = self._read_raw(timeout)
            if line.startswith(("SUCCESS:", "ERROR:")) and self._reply_owner() == "async":
                continue
            return line

    def _read_raw(self, timeout: float | None) -> str:
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._buf:
            if self._closed:
                raise EOFError
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                raise TimeoutError
            self._sock.settimeout(remaining if remaining is None else max(remaining, 0.01))
            try:
                chunk = self._sock.recv(65536)
            except TimeoutError:
                raise
            except OSError as exc:
                raise EOFError from exc
            if not chunk:
                raise EOFError
            self._buf += chunk
        line, self._buf = self._buf.split(b"\n", 1)
        return line.decode("utf-8", "replace").rstrip("\r")

    def command(
        self,
        cmd: str,
        *,
        multiline: bool = False,
        timeout: float = 5.0,
        on_event: Callable[[str], None] | None = None,
    ) -> list[str]:
        """Send ``cmd`` and return its reply lines; real-time ``>`` lines go to ``on_event``."""
        with self._send_lock:
            self._sock.sendall(cmd.encode("utf-8") + b"\n")
            self._order.append("cmd")
        lines: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.read_line(max(deadline - time.monotonic(), 0.01))
            if line.startswith(">"):
                if on_event:
                    on_event(line)
                continue
            if multiline:
                if line == "END":
                    with self._send_lock:
                        if self._order and self._order[0] == "cmd":
                            self._order.popleft()
                    return lines
                if line.startswith("ERROR:") and not lines:
                    return [line]
                lines.append(line)
            else:
                return [line]
