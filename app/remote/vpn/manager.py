"""VpnManager: profiles and tunnels of this user, for the CLI, the GUI and the SSH code."""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
from collections.abc import Callable

from app.core import secrets
from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vpnprofiles import secret_key
from app.remote.vpn.diagnosis import credentials_missing_error
from app.remote.vpn.driver import TunnelDriver
from app.remote.vpn.keeper import KeeperControl, keepers
from app.remote.vpn.management import ManagementBusyError, ManagementClosedError, ManagementSession
from app.remote.vpn.monitor import VpnMonitor
from app.remote.vpn.pids import pid_alive
from app.remote.vpn.process import OpenvpnProcess
from app.remote.vpn.states import (
    DISCONNECTED,
    FAILED,
    NEEDS_CREDENTIALS,
    VpnError,
    VpnStatus,
    parse_state_fields,
)

log = logging.getLogger(__name__)


class VpnManager(OpenvpnProcess, KeeperControl):
    """Profiles, and the tunnels of this user: safe to create anywhere (CLI, GUI, ssh code).

    Thread-safe for distinct profiles; one owner per profile's management connection at a time."""

    # -- profiles ---------------------------------------------------------------------------------
    def remove_profile(self, name: str) -> bool:
        """Stop its tunnel, delete the profile and its keyring entries; False if it did not exist."""
        exists = self._meta_file(name).exists()
        if not exists:
            return False
        with contextlib.suppress(VpnError):
            self.down(name)
        for what in ("username", "password", "key_passphrase"):
            with contextlib.suppress(secrets.SecretsUnavailableError):
                secrets.delete_secret(secret_key(name, what))
        for p in (
            self._profile_file(name),
            self._meta_file(name),
            self._runtime_file(name),
            self._log_file(name),
        ):
            with contextlib.suppress(FileNotFoundError):
                p.unlink()
        return True

    # -- the management connection ----------------------------------------------------------------
    def attach(self, name: str, timeout: float = 10.0) -> ManagementSession:
        """Connect to the management socket of a running openvpn (waiting for it to appear)."""
        sock = self.socket_path(name)
        deadline = time.monotonic() + timeout
        if not self.is_keeper:
            self._yield_keeper(name)
        while True:
            pid = self.pid(name) or int(self._read_runtime(name).get("pid") or 0)
            try:
                return ManagementSession(sock, timeout=max(min(3.0, deadline - time.monotonic()), 0.5))
            except ManagementBusyError:
                raise
            except (OSError, ManagementClosedError):
                if not pid_alive(pid) or self._wait_exit(pid, 0.5):
                    raise self._exit_error(name) from None
            if time.monotonic() > deadline:
                raise VpnError(
                    QT_TRANSLATE_NOOP("LabGPU", "OpenVPN did not open its control socket in time."),
                    QT_TRANSLATE_NOOP("LabGPU", "See {log} for the full log."),
                    code="VpnTimeout",
                    log=str(self._log_file(name)),
                )
            time.sleep(0.02)

    # -- the public API ---------------------------------------------------------------------------
    def up(
        self, name: str, timeout: float = 30.0, on_status: Callable[[VpnStatus], None] | None = None
    ) -> VpnStatus:
        """Bring the tunnel up and return once CONNECTED; the openvpn process keeps running."""
        self.profile(name)
        missing = self.missing_credentials(name)
        if missing:
            raise credentials_missing_error(name, missing)
        started = False
        if not self.is_running(name):
            self._spawn(name)
            started = True
        else:
            self._update_runtime(name, user_down=False, want_up=True)
        try:
            st = self._drive_until_connected(name, timeout, on_status)
        except BaseException as exc:
            if started:
                with contextlib.suppress(VpnError):
                    self._stop_process(name, record=False)
            if isinstance(exc, LabGpuError):
                with contextlib.suppress(VpnError, OSError):
                    self.record_status(name, VpnStatus(FAILED, since=time.time(), message=exc.one_line()))
            raise
        if self.spawn_keepers and keepers["enabled"] and not self.is_keeper:
            self.spawn_keeper(name)
        return st

    def ensure_up(self, name: str, timeout: float = 30.0) -> VpnStatus:
        """Up unless already CONNECTED (cheap to call before every connection through it)."""
        st = self.status(name)
        if st.is_up:
            return st
        return self.up(name, timeout)

    def _drive_until_connected(
        self, name: str, timeout: float, on_status: Callable[[VpnStatus], None] | None
    ) -> VpnStatus:
        deadline = time.monotonic() + timeout
        try:
            session = self.attach(name, timeout=min(timeout, 10.0))
        except ManagementBusyError:
            return self._wait_recorded_up(name, deadline, timeout)

        def report(st: VpnStatus) -> None:
            self.record_status(name, st)
            if on_status:
                on_status(st)

        driver = TunnelDriver(name, session, report)
        try:
            return self._drive(name, session, driver, deadline, timeout)
        except (OSError, EOFError) as exc:
            # The management connection broke (a BrokenPipeError or reset while sending, EOF
            # while reading): openvpn is exiting. Never a success, never a traceback.
            log.info("VPN %s: management connection lost during start-up: %r", name, exc)
            if driver.error is not None:
                raise driver.error from None
            pid = int(self._read_runtime(name).get("pid") or 0)
            if isinstance(exc, TimeoutError) and pid and not self._wait_exit(pid, 1.0):
                raise VpnError(
                    QT_TRANSLATE_NOOP("LabGPU", "OpenVPN did not answer on its control connection in time."),
                    QT_TRANSLATE_NOOP("LabGPU", "See {log}, then connect again."),
                    code="VpnTimeout",
                    log=str(self._log_file(name)),
                ) from None
            raise self._exit_error(name, pid) from None
        finally:
            session.close()

    def _drive(
        self, name: str, session: ManagementSession, driver: TunnelDriver, deadline: float, timeout: float
    ) -> VpnStatus:
        driver.take_over(session)
        while not driver.status.is_up:
            if driver.error is not None:
                raise driver.error
            if driver.exited:
                raise self._exit_error(name)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise VpnError(
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "The VPN '{profile}' did not connect within {seconds:.0f} s "
                        "(last state: {state}).",
                    ),
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "Check that the VPN server is reachable, then see {log}."
                    ),
                    code="VpnDown",
                    profile=name,
                    seconds=timeout,
                    state=driver.status.state,
                    log=str(self._log_file(name)),
                )
            try:
                line = session.read_line(min(remaining, 1.0))
            except TimeoutError:
                continue
            if line.startswith(">"):
                driver.handle(line)
        if not driver.status.is_up:  # pragma: no cover - the loop above only ends on CONNECTED
            raise self._exit_error(name)
        return driver.status

    def _wait_recorded_up(self, name: str, deadline: float, timeout: float) -> VpnStatus:
        """Another LabGPU process (the desktop app) drives this tunnel: follow what it records."""
        while True:
            st = VpnStatus.from_dict(self._read_runtime(name).get("status") or {})
            if st.is_up:
                return st
            if not self.is_running(name):
                raise self._exit_error(name)
            if time.monotonic() > deadline:
                raise VpnError(
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "The VPN '{profile}' did not connect within {seconds:.0f} s (last state: {state}).",
                    ),
                    QT_TRANSLATE_NOOP("LabGPU", "Check that the VPN server is reachable, then see {log}."),
                    code="VpnDown",
                    profile=name,
                    seconds=timeout,
                    state=st.state,
                    log=str(self._log_file(name)),
                )
            time.sleep(0.2)

    def _stop_process(self, name: str, *, record: bool = True, timeout: float = 10.0) -> None:
        pid = self.pid(name)
        if pid:
            try:
                session = self.attach(name, timeout=2.0)
            except VpnError:
                session = None
            if session is not None:
                try:
                    session.command("signal SIGTERM", timeout=3.0)
                except (OSError, TimeoutError, EOFError):
                    pass
                finally:
                    session.close()
            else:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while pid_alive(pid) and time.monotonic() < deadline:
                time.sleep(0.02)
            if pid_alive(pid):
                log.warning("VPN %s: openvpn %d ignored SIGTERM; killing it", name, pid)
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
                end = time.monotonic() + 5
                while pid_alive(pid) and time.monotonic() < end:
                    time.sleep(0.02)
            if pid_alive(pid):
                raise VpnError(
                    QT_TRANSLATE_NOOP(
                        "LabGPU", "OpenVPN (process {pid}) of profile '{profile}' could not be stopped."
                    ),
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "It runs with other rights than LabGPU: stop it as administrator (sudo kill {pid}).",
                    ),
                    code="VpnStopFailed",
                    pid=pid,
                    profile=name,
                )
        with contextlib.suppress(FileNotFoundError):
            self._pid_file(name).unlink()
        self._remove_socket(name)
        if record:
            self.record_status(name, VpnStatus(DISCONNECTED, since=time.time()))

    def down(self, name: str) -> VpnStatus:
        """Stop the tunnel and remember that the user wants it down (no auto-reconnect)."""
        self.profile(name)
        self._update_runtime(name, user_down=True, want_up=False)
        self._stop_process(name)
        return VpnStatus(DISCONNECTED, since=time.time())

    def status(self, name: str) -> VpnStatus:
        """The tunnel's state now: asks openvpn when its socket is free, else the last recorded state."""
        self.profile(name)
        if not self.is_running(name):
            doc = self._read_runtime(name)
            last = VpnStatus.from_dict(doc.get("status") or {})
            msg = last.message if last.state in (FAILED,) else ""
            return VpnStatus(
                DISCONNECTED, since=last.since if last.state == DISCONNECTED else 0.0, message=msg
            )
        try:
            session = self.attach(name, timeout=2.0)
        except ManagementBusyError:
            return VpnStatus.from_dict(self._read_runtime(name).get("status") or {})
        except VpnError:
            return VpnStatus(DISCONNECTED, since=time.time())
        try:
            driver = TunnelDriver(name, session, answer_prompts=not self.user_wants_down(name))
            for line in session.greeting:
                if line.startswith(">"):
                    driver.handle(line)
            lines = session.command("state", multiline=True, on_event=driver.handle)
            st = (
                parse_state_fields(lines[-1]) if lines and not lines[0].startswith("ERROR") else driver.status
            )
            if driver.pending_prompt:
                st = VpnStatus(NEEDS_CREDENTIALS, since=time.time(), message=driver.pending_prompt)
        except (OSError, TimeoutError, EOFError):
            return VpnStatus(DISCONNECTED, since=time.time())
        finally:
            session.close()
        self.record_status(name, st)
        return st

    def is_up(self, name: str) -> bool:
        return self.status(name).is_up

    def watch(
        self, name: str, on_status: Callable[[VpnStatus], None], *, auto_reconnect: bool = True
    ) -> VpnMonitor:
        """A started :class:`VpnMonitor` for ``name``; call ``close()`` when done."""
        mon = VpnMonitor(self, name, on_status, auto_reconnect=auto_reconnect)
        mon.start()
        return mon
