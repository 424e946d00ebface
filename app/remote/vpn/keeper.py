"""The keeper: a tiny detached process (``labgpu vpn keep PROFILE``) that keeps answering
openvpn's prompts after the CLI returned (with --auth-nocache OpenVPN asks again after every
reconnect). It holds the management socket but lets go for a moment when another LabGPU client
signals it (SIGUSR1), so ``vpn status``/``vpn down`` still talk to openvpn itself; the desktop
app retires it."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.errors import LabGpuError
from app.remote.vpn.driver import TunnelDriver
from app.remote.vpn.management import ManagementBusyError, ManagementClosedError, ManagementSession
from app.remote.vpn.pids import openvpn_children, openvpn_children_lock, pid_alive
from app.remote.vpn.states import FAILED, NEEDS_CREDENTIALS, VpnStatus
from app.remote.vpn.store import VpnStore

if TYPE_CHECKING:
    from app.remote.vpn.manager import VpnManager

log = logging.getLogger(__name__)

# The desktop app's monitors hold the management sockets themselves: no VpnManager in that
# process (the SSH code's ensure_up included) leaves a keeper behind while it runs.
keepers: dict[str, bool] = {"enabled": True}


def set_keepers_enabled(enabled: bool) -> None:
    keepers["enabled"] = enabled


class KeeperControl(VpnStore):
    """Starting, yielding and retiring a profile's keeper (a base of :class:`VpnManager`)."""

    def keeper_pid(self, name: str) -> int:
        try:
            pid = int(self._read_runtime(name).get("keeper_pid") or 0)
        except (TypeError, ValueError):
            return 0
        if not pid or not pid_alive(pid):
            return 0
        cmdline = Path(f"/proc/{pid}/cmdline")
        if cmdline.exists():
            try:
                args = cmdline.read_bytes().split(b"\0")
            except OSError:
                return 0
            if b"vpn" not in args or b"keep" not in args or name.encode() not in args:
                return 0
        return pid

    def spawn_keeper(self, name: str) -> int:
        current = self.keeper_pid(name)
        if current:
            return current
        p = self.paths
        frozen = bool(getattr(sys, "frozen", False))  # the packaged app: its executable is the CLI
        argv = [
            *([sys.executable] if frozen else [sys.executable, "-m", "app"]),
            "vpn",
            "keep",
            name,
            "--config-dir",
            str(p.config_dir),
            "--data-dir",
            str(p.data_dir),
            "--cache-dir",
            str(p.cache_dir),
            "--log-dir",
            str(p.log_dir),
        ]
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                close_fds=True,
                cwd=str(Path.home() if frozen else Path(__file__).resolve().parents[3]),
            )
        except OSError as exc:
            log.warning("VPN %s: could not start the keeper: %s", name, exc)
            return 0
        with openvpn_children_lock:
            openvpn_children[proc.pid] = proc
        self._update_runtime(name, keeper_pid=proc.pid)
        return proc.pid

    def _yield_keeper(self, name: str) -> None:
        pid = self.keeper_pid(name)
        if pid:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGUSR1)

    def retire_keeper(self, name: str, timeout: float = 3.0) -> None:
        """Stop the keeper (the desktop app's monitor takes over the management socket)."""
        pid = self.keeper_pid(name)
        if not pid:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while pid_alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        self._update_runtime(name, keeper_pid=0)


def run_keeper(manager: VpnManager, name: str) -> int:
    """The keeper's loop (see VpnManager.spawn_keeper); returns when openvpn is gone.

    Signals only set a flag and shut the socket down (so a blocking read returns at once):
    SIGUSR1 = "let go for a moment", SIGTERM = "stop"."""
    manager.is_keeper = True
    flags = {"yield": False, "stop": False}
    holder: dict[str, ManagementSession | None] = {"session": None}

    def on_signal(sig: int, _frame: object) -> None:
        flags["stop" if sig == signal.SIGTERM else "yield"] = True
        sess = holder["session"]
        if sess is not None:
            with contextlib.suppress(OSError):
                sess._sock.shutdown(socket.SHUT_RDWR)

    signal.signal(signal.SIGUSR1, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    deadline = time.monotonic() + 10
    while not manager.pid(name):
        if time.monotonic() > deadline or flags["stop"]:
            return 1
        time.sleep(0.05)

    def alive() -> bool:
        return not flags["stop"] and bool(manager.pid(name)) and not manager.user_wants_down(name)

    while alive():
        if flags["yield"]:
            flags["yield"] = False
            time.sleep(1.0)  # the other client's queued connection is accepted meanwhile
            continue
        session = None
        try:
            session = ManagementSession(manager.socket_path(name), timeout=30.0)
            holder["session"] = session
            if flags["yield"] or flags["stop"]:
                continue
            driver = TunnelDriver(name, session, lambda st: manager.record_status(name, st))
            for line in session.greeting:
                if line.startswith(">"):
                    driver.handle(line)
            session.command("state on", on_event=driver.handle)
            while alive() and not flags["yield"]:
                try:
                    line = session.read_line(1.0)
                except TimeoutError:
                    continue
                if line.startswith(">"):
                    driver.handle(line)
                if driver.error is not None and driver.error.code in ("VpnAuthFailed", "VpnKeyPassphrase"):
                    manager.record_status(
                        name, VpnStatus(FAILED, since=time.time(), message=driver.error.text())
                    )
                    return 3
        except (ManagementBusyError, ManagementClosedError, EOFError, OSError, TimeoutError):
            if not flags["yield"]:
                time.sleep(0.5)
        except LabGpuError as exc:  # keyring locked, credentials gone: record, retry later
            manager.record_status(
                name, VpnStatus(NEEDS_CREDENTIALS, since=time.time(), message=exc.one_line())
            )
            time.sleep(5.0)
        finally:
            holder["session"] = None
            if session is not None:
                session.close()
    return 0
