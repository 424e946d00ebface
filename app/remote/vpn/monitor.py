"""The live watcher (Qt-free; the UI wraps it): VpnMonitor."""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.core.errors import LabGpuError
from app.remote.vpn.diagnosis import credential_labels
from app.remote.vpn.driver import TunnelDriver
from app.remote.vpn.management import ManagementBusyError, ManagementSession
from app.remote.vpn.states import (
    DISCONNECTED,
    FAILED,
    NEEDS_CREDENTIALS,
    STARTING,
    VpnError,
    VpnStatus,
)

if TYPE_CHECKING:
    from app.remote.vpn.manager import VpnManager

log = logging.getLogger(__name__)


class VpnMonitor:
    """Owns one profile's management connection in a thread while the app runs.

    Streams every state to ``on_status`` (from its thread), answers credential prompts, and
    restarts openvpn when it died while the user wanted the tunnel up. ``connect()`` and
    ``disconnect()`` are the user's buttons; ``disconnect`` is remembered, so nothing reconnects
    after it."""

    RECONNECT_BACKOFF = (1.0, 2.0, 5.0, 10.0, 30.0)

    def __init__(
        self,
        manager: VpnManager,
        name: str,
        on_status: Callable[[VpnStatus], None],
        *,
        auto_reconnect: bool = True,
    ) -> None:
        self.manager = manager
        self.name = name
        self.on_status = on_status
        self.auto_reconnect = auto_reconnect
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._want_connect = False
        self._session: ManagementSession | None = None
        self._driver: TunnelDriver | None = None
        self._thread = threading.Thread(target=self._run, name=f"vpn-monitor:{name}", daemon=True)
        self._lock = threading.Lock()
        self.last = VpnStatus(DISCONNECTED)
        self.seen_up = False
        self.reconnects = 0

    def start(self) -> None:
        self._thread.start()

    def close(self, timeout: float = 5.0) -> None:
        """Stop watching; a tunnel the user still wants stays up, looked after by a keeper."""
        self._stop.set()
        self._wake.set()
        with self._lock:
            if self._session is not None:
                self._session.close()
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join(timeout)
        with contextlib.suppress(VpnError, OSError):
            if self.manager.is_running(self.name) and not self.manager.user_wants_down(self.name):
                self.manager.spawn_keeper(self.name)

    def connect(self) -> None:
        """The user asked for the tunnel: start openvpn if needed (in the monitor's thread)."""
        self.manager._update_runtime(self.name, user_down=False, want_up=True)
        self._want_connect = True
        self._wake.set()

    def disconnect(self) -> None:
        """The user asked for the tunnel to go down: no reconnect until ``connect()``."""
        self.manager._update_runtime(self.name, user_down=True, want_up=False)
        self._want_connect = False
        with self._lock:
            session = self._session
        if session is not None:
            with contextlib.suppress(OSError):
                session.send("signal SIGTERM")
        else:
            with contextlib.suppress(VpnError):
                self.manager._stop_process(self.name)
        self._wake.set()

    def wait_down(self, timeout: float) -> bool:
        """After ``disconnect()``: wait until openvpn has exited (True) or ``timeout`` passed."""
        deadline = time.monotonic() + timeout
        while self.manager.is_running(self.name):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.05)
        return True

    def credentials_changed(self) -> None:
        """Credentials were stored: answer the prompt openvpn is waiting on (if any)."""
        with self._lock:
            driver = self._driver
        if driver is not None and driver.pending_prompt:
            driver.error = None
            try:
                driver.answer_pending()
            except LabGpuError as exc:
                self._emit(VpnStatus(FAILED, since=time.time(), message=exc.text()))
        self._wake.set()

    def _emit(self, st: VpnStatus) -> None:
        if st == self.last:
            return
        self.last = st
        if st.is_up:
            self.seen_up = True
        with contextlib.suppress(VpnError, OSError):
            self.manager.record_status(self.name, st)
        try:
            self.on_status(st)
        except Exception:  # noqa: BLE001
            log.exception("VPN status listener failed")

    def _run(self) -> None:
        backoff = 0
        while not self._stop.is_set():
            try:
                running = self.manager.is_running(self.name)
                if not running:
                    wants = not self.manager.user_wants_down(self.name)
                    if self._want_connect or (self.auto_reconnect and self.seen_up and wants):
                        if not self._want_connect:
                            delay = self.RECONNECT_BACKOFF[min(backoff, len(self.RECONNECT_BACKOFF) - 1)]
                            self._emit(
                                VpnStatus(
                                    "RECONNECTING",
                                    since=time.time(),
                                    message=f"openvpn stopped; restarting in {delay:.0f} s",
                                )
                            )
                            if self._stop.wait(delay):
                                break
                            backoff += 1
                            self.reconnects += 1
                        self._want_connect = False
                        missing = self.manager.missing_credentials(self.name)
                        if missing:
                            self._emit(
                                VpnStatus(
                                    NEEDS_CREDENTIALS, since=time.time(), message=credential_labels(missing)
                                )
                            )
                            self.seen_up = False
                            continue
                        self._emit(VpnStatus(STARTING, since=time.time()))
                        self.manager._spawn(self.name)
                        running = True
                    else:
                        if self.last.state not in (DISCONNECTED, FAILED, NEEDS_CREDENTIALS):
                            self._emit(VpnStatus(DISCONNECTED, since=time.time()))
                        self._wake.wait(1.0)
                        self._wake.clear()
                        continue
                self._watch_session()
                if self.last.is_up:
                    backoff = 0
            except ManagementBusyError:
                self._stop.wait(0.5)
            except LabGpuError as exc:
                self.seen_up = False
                self._emit(VpnStatus(FAILED, since=time.time(), message=exc.one_line()))
                self._wake.wait(2.0)
                self._wake.clear()
            except Exception:  # noqa: BLE001 - the watcher must survive anything and say so
                log.exception("VPN monitor %s failed", self.name)
                self._stop.wait(2.0)

    def _watch_session(self) -> None:
        self.manager.retire_keeper(self.name)
        session = self.manager.attach(self.name, timeout=10.0)
        driver = TunnelDriver(
            self.name, session, self._emit, answer_prompts=not self.manager.user_wants_down(self.name)
        )
        with self._lock:
            if self._stop.is_set():
                session.close()
                return
            self._session, self._driver = session, driver
        failed: VpnStatus | None = None
        reached_up = self.last.is_up
        try:
            driver.take_over(session)
            while not self._stop.is_set():
                if driver.error is not None and driver.error.code in ("VpnAuthFailed", "VpnKeyPassphrase"):
                    # Wrong credentials: stop instead of hammering the server; the user fixes them.
                    self.manager._update_runtime(self.name, want_up=False)
                    self.seen_up = False
                    session.send("signal SIGTERM")
                    if self.last.state != FAILED:
                        self._emit(VpnStatus(FAILED, since=time.time(), message=driver.error.one_line()))
                    failed = self.last
                    driver.error = None
                try:
                    line = session.read_line(1.0)
                except TimeoutError:
                    continue
                except EOFError:
                    break
                if line.startswith(">"):
                    driver.handle(line)
                    reached_up = reached_up or self.last.is_up
                    if self.last.state == FAILED:
                        failed = self.last
        except (OSError, EOFError) as exc:
            # The connection broke while talking to openvpn (it is exiting): the check below says why.
            log.info("VPN %s: management connection lost: %r", self.name, exc)
            time.sleep(0.2)
        finally:
            with self._lock:
                self._session, self._driver = None, None
            session.close()
        if not self._stop.is_set():
            time.sleep(0.05)  # let the process finish exiting before is_running() looks
            if not self.manager.is_running(self.name):
                if failed is None and not reached_up and not self.manager.user_wants_down(self.name):
                    # openvpn died before the tunnel came up: say why, in OpenVPN's own words.
                    self.seen_up = False
                    err = self.manager._exit_error(self.name)
                    failed = VpnStatus(FAILED, since=time.time(), message=err.one_line())
                # A failure stays on screen (with its next step) instead of a plain "disconnected".
                self._emit(failed or VpnStatus(DISCONNECTED, since=time.time()))
