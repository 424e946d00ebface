"""One logged-in SSH session (see the package docstring for the threading contract)."""

from __future__ import annotations

import logging
import select
import shlex
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import paramiko

from app.core import secrets
from app.core.errors import LabGpuError
from app.core.hosts import HostRecord
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.paths import Paths, default_paths
from app.remote import fastssh
from app.remote.hostkeys import AcceptCallback, HostKeyError, KnownHosts

from .dial import dial
from .errors import HostAuthError, HostUnreachableError, SshError
from .ownsession import OwnSession
from .target import Target, console_fingerprints_for, find_host, resolve_target
from .tuning import DEFAULT_TUNING, RECONNECT_DELAYS, TransportTuning

log = logging.getLogger("app.remote.ssh")


class Connection:
    """One logged-in SSH session to a host (see the module docstring for the threading contract)."""

    def __init__(
        self,
        record: HostRecord,
        paths: Paths | None = None,
        accept: AcceptCallback | None = None,
        *,
        expected_fingerprints: Sequence[str] = (),
        tuning: TransportTuning | None = None,
        password: str | None = None,
        vpn_timeout: float = 60.0,
    ) -> None:
        self.record = record
        self.paths = paths or default_paths()
        self.accept = accept
        self.expected = tuple(expected_fingerprints)
        self.tuning = tuning or DEFAULT_TUNING
        self._password = password
        self.vpn_timeout = vpn_timeout
        self.transport: paramiko.Transport | None = None
        self._hops: list[paramiko.Transport] = []
        self.fingerprint = ""
        self.target: Target | None = None
        self._lock = threading.RLock()
        self._closed = False
        self.own_session: OwnSession | None = None  # this session as the host saw it, for the login watch

    # lifecycle ----------------------------------------------------------------------------------
    def connect(self) -> Connection:
        with self._lock:
            self._closed = False
            self._teardown()
            if self.record.via_vpn:
                self._vpn_up()
            target = resolve_target(self.record, self.paths, password=self._password)
            self.target = target
            known = KnownHosts(self.paths)
            sock: Any = None
            hops: list[paramiko.Transport] = []
            try:
                for i, hop in enumerate(target.jump):
                    t, _fp = dial(hop, sock, self.tuning, known, self.accept, ())
                    hops.append(t)
                    nxt = target.jump[i + 1] if i + 1 < len(target.jump) else target
                    sock = self._direct_tcpip(t, hop, nxt)
                expected = self.expected
                if not expected and not known.known_keys(target.hostname, target.port):
                    expected = tuple(console_fingerprints_for(self.record, self.paths))  # first contact only
                self.transport, self.fingerprint = dial(
                    target, sock, self.tuning, known, self.accept, expected
                )
            except BaseException:
                for t in reversed(hops):
                    t.close()
                raise
            self._hops = hops
            log.info("connected to %s (%s)", target.name, self.fingerprint)
            self.own_session = OwnSession(self.paths, self.record.name)
            self.own_session.start(self.transport, direct=not hops)
            return self

    def _direct_tcpip(self, via: paramiko.Transport, hop: Target, nxt: Target) -> paramiko.Channel:
        try:
            return via.open_channel(
                "direct-tcpip",
                (nxt.hostname, nxt.port),
                ("127.0.0.1", 0),
                timeout=self.tuning.connect_timeout,
            )
        except (paramiko.ChannelException, paramiko.SSHException, EOFError, OSError) as exc:
            raise HostUnreachableError(
                QT_TRANSLATE_NOOP("LabGPU", "The jump host {jump} could not reach {host} ({why})."),
                QT_TRANSLATE_NOOP(
                    "LabGPU", "Check the address behind the jump host and that it allows TCP forwarding."
                ),
                code="JumpFailed",
                jump=hop.display,
                host=nxt.display,
                why=str(exc) or type(exc).__name__,
            ) from None

    def _vpn_up(self) -> None:
        from app.remote.vpn import VpnManager  # imported when a host needs it: openvpn's modules stay unloaded

        VpnManager(self.paths).ensure_up(self.record.via_vpn, self.vpn_timeout)

    @property
    def is_active(self) -> bool:
        t = self.transport
        return bool(t is not None and t.is_active() and t.is_authenticated())

    def ensure(
        self, attempts: int = len(RECONNECT_DELAYS) + 1, cancelled: Callable[[], bool] | None = None
    ) -> Connection:
        """Reconnect if the transport died, with backoff; host-key and auth errors are not retried."""
        if self.is_active:
            return self
        last: LabGpuError | None = None
        for i in range(attempts):
            if self._closed or (cancelled and cancelled()):
                break
            try:
                return self.connect()
            except (HostKeyError, HostAuthError, secrets.SecretsUnavailableError, secrets.SecretsError):
                raise
            except LabGpuError as exc:
                last = exc
                log.info("reconnect %s attempt %d failed: %s", self.record.name, i + 1, exc.one_line())
            if i < attempts - 1:
                time.sleep(RECONNECT_DELAYS[min(i, len(RECONNECT_DELAYS) - 1)])
        if last is not None:
            raise last
        raise self._error(
            "ConnectionClosed",
            QT_TRANSLATE_NOOP("LabGPU", "The connection to {host} was closed."),
        )

    def _teardown(self) -> None:
        t, self.transport = self.transport, None
        if t is not None:
            t.close()
        for h in reversed(self._hops):
            h.close()
        self._hops = []

    def close(self) -> None:
        own = self.own_session
        if own is not None:  # a short session through NAT or a jump host: let the host's answer land (bounded)
            own.wait(1.0)
        with self._lock:
            self._closed = True
            self._teardown()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # channels -----------------------------------------------------------------------------------
    def _error(self, code: str, message: str, hint: str = "", **params: Any) -> SshError:
        """An SshError about this connection's host (``{host}`` in the templates)."""
        return SshError(message, hint, code=code, host=self.record.name, **params)

    def _active_transport(self) -> paramiko.Transport:
        t = self.transport
        if t is None or not t.is_active():
            raise self._error(
                "NotConnected",
                QT_TRANSLATE_NOOP("LabGPU", "Not connected to {host}."),
                QT_TRANSLATE_NOOP("LabGPU", "Connect first (it may have dropped)."),
            )
        return t

    def open_sftp(
        self, window_size: int | None = None, max_packet_size: int | None = None
    ) -> paramiko.SFTPClient:
        """A new SFTP client on its own channel; use it from one thread at a time, close it after."""
        client = paramiko.SFTPClient.from_transport(
            self._active_transport(), window_size=window_size, max_packet_size=max_packet_size
        )
        if client is None:
            raise self._error(
                "NoSftp",
                QT_TRANSLATE_NOOP("LabGPU", "{host} refused to open SFTP."),
                QT_TRANSLATE_NOOP("LabGPU", "Enable the sftp subsystem on the server."),
            )
        return client

    def open_direct_tcpip(
        self, host: str, port: int, origin: tuple[str, int] = ("127.0.0.1", 0), timeout: float = 10.0
    ) -> paramiko.Channel:
        return self._active_transport().open_channel("direct-tcpip", (host, port), origin, timeout=timeout)

    def exec(
        self,
        cmd_argv: Sequence[str],
        *,
        timeout: float | None = 60.0,
        stdin: bytes | None = None,
        max_output: int = 64 * 1024 * 1024,
    ) -> tuple[int, str, str]:
        """Run a command (argv quoted with shlex.quote) and return (exit status, stdout, stderr).

        The remote user's shell parses the command line, which is why every argument is quoted:
        file names from anywhere (remote listings, user input) cannot inject shell syntax.
        """
        command = " ".join(shlex.quote(str(a)) for a in cmd_argv)
        chan = self._active_transport().open_session(timeout=self.tuning.connect_timeout)
        out, err = bytearray(), bytearray()
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            chan.exec_command(command)
            if stdin is not None:
                fastssh.sendall(chan, stdin)
            fastssh.shutdown_write(chan)  # a command that ends at once has its CLOSE racing this EOF
            while True:
                if chan.recv_ready():
                    out += chan.recv(65536)
                    continue
                if chan.recv_stderr_ready():
                    err += chan.recv_stderr(65536)
                    continue
                # Done only at the channel's EOF: OpenSSH sends the exit status when the command exits,
                # and the output still in its pipe after that (so exit status alone cut output short).
                if chan.eof_received and not chan.recv_ready() and not chan.recv_stderr_ready():
                    break
                if len(out) + len(err) > max_output:
                    raise self._error(
                        "OutputTooLarge",
                        QT_TRANSLATE_NOOP("LabGPU", "The command on {host} printed too much output."),
                    )
                wait = 1.0 if deadline is None else max(0.0, min(1.0, deadline - time.monotonic()))
                if deadline is not None and time.monotonic() >= deadline:
                    raise self._error(
                        "CommandTimeout",
                        QT_TRANSLATE_NOOP("LabGPU", "The command on {host} did not finish in {secs} s."),
                        QT_TRANSLATE_NOOP("LabGPU", "Retry; if it keeps happening the server is overloaded."),
                        secs=int(timeout or 0),
                    )
                select.select([chan], [], [], wait)
                if chan.closed and not chan.recv_ready() and not chan.recv_stderr_ready():
                    break
            rc = chan.recv_exit_status()
        finally:
            chan.close()
        return rc, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")

    def open_stream(self, cmd_argv: Sequence[str]) -> paramiko.Channel:
        """Start a long-running command (argv quoted as in :meth:`exec`) on its own channel.

        stderr is merged into stdout; the caller reads from the returned channel on one thread,
        and ``close()`` s it to stop the command (sshd then hangs up on it). Used by the GPU
        monitor for ``nvidia-smi -l 1``: one process per host instead of one per sample.
        """
        command = " ".join(shlex.quote(str(a)) for a in cmd_argv)
        chan = self._active_transport().open_session(timeout=self.tuning.connect_timeout)
        try:
            chan.set_combine_stderr(True)
            chan.exec_command(command)
            fastssh.shutdown_write(chan)
        except BaseException:
            chan.close()
            raise
        return chan


def open_connection(
    host_name_or_record: str | HostRecord,
    paths: Paths | None = None,
    accept: AcceptCallback | None = None,
    *,
    expected_fingerprints: Sequence[str] = (),
    tuning: TransportTuning | None = None,
    password: str | None = None,
) -> Connection:
    """Connect (blocking) to a saved host by name, or to a record not saved yet; returns it logged in.

    ``accept`` decides a first-contact host key (None: refuse, raising HostKeyUnknownError whose
    ``.prompt`` a UI can show before retrying). The caller must ``close()`` the connection.
    """
    paths = paths or default_paths()
    rec = (
        host_name_or_record
        if isinstance(host_name_or_record, HostRecord)
        else find_host(host_name_or_record, paths)
    )
    return Connection(
        rec, paths, accept, expected_fingerprints=expected_fingerprints, tuning=tuning, password=password
    ).connect()
