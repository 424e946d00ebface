"""Starting openvpn (argv, log, pid) and reading from its log why it stopped."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import subprocess
import time
from pathlib import Path

from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import atomic_write_text
from app.core.vpnprofiles import ProfileError, parse_ovpn
from app.remote.vpn.diagnosis import auth_failed_error, diagnose_log
from app.remote.vpn.pids import openvpn_children, openvpn_children_lock, pid_alive
from app.remote.vpn.privileges import find_openvpn, install_hint, privilege_plan
from app.remote.vpn.states import STARTING, VpnError, VpnStatus
from app.remote.vpn.store import VpnStore

log = logging.getLogger(__name__)


class OpenvpnProcess(VpnStore):
    """The openvpn process of a profile (a base of :class:`VpnManager`)."""

    def checked_profile_file(self, name: str) -> Path:
        """Check the stored profile again, as OpenVPN will read it, and return its path.

        Profiles stored by an older LabGPU were checked by a looser reader (an inline block
        closed by a line merely starting with ``</secret>`` hid directives from it): each start
        re-reads the stored file with :mod:`app.core.ovpn_parse`, checks it against the
        allow-list with the confirmation stored at import, and rewrites it when the rewritten
        form differs, so what OpenVPN runs is always what was checked."""
        meta = self.profile(name)
        path = self._profile_file(name)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise VpnError(
                QT_TRANSLATE_NOOP("LabGPU", "The stored VPN profile '{name}' is damaged ({reason})."),
                QT_TRANSLATE_NOOP("LabGPU", "Import the .ovpn file again."),
                code="VpnProfileDamaged",
                name=name,
                reason=exc.strerror or type(exc).__name__,
            ) from None
        try:
            prof = parse_ovpn(data, None, allow_scripts=bool(meta.allow_scripts))
        except ProfileError as exc:
            raise VpnError(
                QT_TRANSLATE_NOOP(
                    "LabGPU", "The stored VPN profile '{name}' does not pass LabGPU's checks: {reason}"
                ),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "It was not started. Import the .ovpn file again ('labgpu vpn add {name} FILE.ovpn'), "
                    "which shows the lines in question.",
                ),
                code="VpnProfileRecheck",
                name=name,
                reason=exc.text(),
            ) from None
        if prof.text.encode("utf-8") != data:
            atomic_write_text(path, prof.text, mode=0o600)
            log.warning("VPN %s: stored profile rewritten to its checked form before starting", name)
        return path

    def _spawn(self, name: str) -> int:
        config = self.checked_profile_file(name)
        binary = find_openvpn()
        plan = privilege_plan(binary, netns=self.netns)
        sock = self.socket_path(name, create=True)
        with contextlib.suppress(FileNotFoundError):
            sock.unlink()
        with contextlib.suppress(FileNotFoundError):
            self._pid_file(name).unlink()
        argv = [
            *plan.prefix,
            binary,
            "--config",
            str(config),
            "--management",
            str(sock),
            "unix",
            "--management-hold",
            "--management-query-passwords",
            "--auth-nocache",
            "--writepid",
            str(self._pid_file(name)),
        ]
        if plan.method == "pkexec" and hasattr(os, "getuid"):
            import pwd

            argv += ["--management-client-user", pwd.getpwuid(os.getuid()).pw_name]
        self.runtime_dir.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            self.runtime_dir.chmod(0o700)
        self._rotate_log(name)
        logf = open(self._log_file(name), "ab")  # noqa: SIM115 - handed to the child, closed below
        try:
            stamp = time.strftime("%Y-%m-%d %H:%M:%S")
            logf.write(f"\n--- LabGPU starts openvpn for {name} at {stamp} ---\n".encode())
            logf.flush()
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=logf,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                close_fds=True,
            )
        except OSError as exc:
            raise VpnError(
                QT_TRANSLATE_NOOP("LabGPU", "Could not start OpenVPN: {reason}."),
                install_hint(),
                code="VpnStartFailed",
                reason=exc.strerror or str(exc),
            ) from None
        finally:
            logf.close()
        with openvpn_children_lock:
            openvpn_children[proc.pid] = proc
        self._update_runtime(
            name,
            pid=proc.pid,
            started=time.time(),
            method=plan.method,
            user_down=False,
            want_up=True,
            socket=str(sock),
            status=VpnStatus(STARTING, since=time.time()).to_dict(),
        )
        log.info("VPN %s: openvpn started (pid %d, %s)", name, proc.pid, plan.method)
        return proc.pid

    def _rotate_log(self, name: str, limit: int = 5 * 1024 * 1024) -> None:
        """Keep one previous log (``.log.1``): each start appends, a long-lived laptop must not fill up."""
        path = self._log_file(name)
        with contextlib.suppress(OSError):
            if path.stat().st_size > limit:
                os.replace(path, path.with_name(path.name + ".1"))

    def log_tail(self, name: str, lines: int = 25) -> str:
        try:
            data = self._log_file(name).read_bytes()[-8192:]
        except OSError:
            return ""
        return "\n".join(data.decode("utf-8", "replace").splitlines()[-lines:])

    def _wait_exit(self, pid: int, timeout: float) -> bool:
        """Wait (at most ``timeout`` s) for ``pid`` to be gone; True when it is."""
        deadline = time.monotonic() + timeout
        while pid_alive(pid):
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True

    def last_run_lines(self, name: str, lines: int = 4) -> list[str]:
        """OpenVPN's own last lines of its latest run (after LabGPU's start marker)."""
        text = self.log_tail(name, 200)
        marker = text.rfind("--- LabGPU starts openvpn")
        if marker >= 0:
            text = text[marker:].split("\n", 1)[-1] if "\n" in text[marker:] else ""
        out = []
        for ln in text.splitlines():
            ln = re.sub(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d ", "", ln.strip())
            if ln and not ln.startswith("MANAGEMENT:"):  # LabGPU's own connection, not the reason
                out.append(ln)
        return out[-lines:]

    def _exit_error(self, name: str, pid: int = 0) -> VpnError:
        """OpenVPN is gone (or going) before CONNECTED: the reason, from its own last log lines."""
        pid = pid or int(self._read_runtime(name).get("pid") or 0)
        if pid:
            self._wait_exit(pid, 5.0)  # its last lines are flushed when it has exited
        if not pid or not pid_alive(pid):
            self._remove_socket(name)  # its control socket (and a private /tmp folder for it) goes with it
        last = self.last_run_lines(name)
        err = diagnose_log("\n".join(last) or self.log_tail(name))
        if err is not None:
            if err.code == "VpnAuthFailed":
                err = auth_failed_error(name)
            err.params.setdefault("openvpn", " | ".join(last)[-600:])
            return err
        return VpnError(
            QT_TRANSLATE_NOOP("LabGPU", "OpenVPN exited before the tunnel came up. Its last lines: {openvpn}"),
            QT_TRANSLATE_NOOP("LabGPU", "Fix what OpenVPN reports (see {log} for the full log) and connect again."),
            code="VpnExited",
            openvpn=(" | ".join(last) or "(none)")[-600:],
            log=str(self._log_file(name)),
        )
