"""SSH connections to saved hosts: key / agent / password auth, ~/.ssh/config, ProxyJump, VPN.

Threading contract (the sync engine and the UI rely on it):

- A :class:`Connection` owns one ``paramiko.Transport``. paramiko runs one thread per Transport
  that alone reads and writes the socket; that thread is the connection's owning thread. Nothing
  else touches the socket.
- Any thread may open channels on it: :meth:`Connection.open_sftp` returns a NEW SFTP client on
  its own channel each call, :meth:`Connection.exec` and :meth:`Connection.open_direct_tcpip` open
  their own channels. A channel/SFTP client must then be used by one thread at a time (open one
  per worker for parallel transfers).
- Everything here blocks: the UI calls it through ``ctx.runner`` only.

Connecting: the host record (``app.core.hosts``) is merged with ``~/.ssh/config`` (explicit
values win, as on the ssh command line); a host marked ``via_vpn`` brings its VPN profile up
first (``app.remote.vpn.VpnManager``) and is reached at its private address; ``ProxyJump`` hops
are chained through ``direct-tcpip`` channels passed as ``sock=``. Every hop's host key goes
through :mod:`app.remote.hostkeys` — never auto-added.
"""

from __future__ import annotations

import logging
import os
import select
import shlex
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import paramiko

from app.core import secrets
from app.core.errors import LabGpuError
from app.core.hosts import OWN_KEY_DIR, HostRecord, HostStore, instance_hosts, passphrase_key, password_key
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.logsetup import register_secret
from app.core.paths import Paths, default_paths
from app.core.sshcmd import JumpHop, parse_jump
from app.remote import vouch

from . import fastssh
from .hostkeys import AcceptCallback, HostKeyError, KnownHosts, verify_host_key

log = logging.getLogger(__name__)


class SshError(LabGpuError):
    pass


class HostUnreachableError(SshError):
    pass


class HostAuthError(SshError):
    pass


@dataclass
class TransportTuning:
    """Transport settings; the sync engine measures and may pass its own.

    AES-GCM first (AES-NI: fastest in paramiko's crypto backend), CTR next; the window and packet
    sizes are paramiko's ``Transport`` defaults unless changed: larger windows made downloads
    slower here (see shared notes), so the sync engine sets them per measurement.
    """

    ciphers: tuple[str, ...] = (
        "aes128-gcm@openssh.com",
        "aes128-ctr",
        "aes256-gcm@openssh.com",
        "aes256-ctr",
        "aes192-ctr",
    )
    window_size: int = 4 * 1024 * 1024
    max_packet_size: int = 32768
    keepalive_s: int = 15
    connect_timeout: float = 10.0
    auth_timeout: float = 15.0
    compression: bool = False


DEFAULT_TUNING = TransportTuning()
DEFAULT_KEY_FILES = ("~/.ssh/id_ed25519", "~/.ssh/id_ecdsa", "~/.ssh/id_rsa")
RECONNECT_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)


@dataclass
class Target:
    """A host record after ~/.ssh/config was applied: exactly what will be dialled."""

    name: str
    hostname: str
    port: int
    user: str
    auth: str
    key_files: list[str] = field(default_factory=list)
    jump: list[Target] = field(default_factory=list)
    password: str | None = None  # only in memory, e.g. while adding a host

    @property
    def display(self) -> str:
        return f"{self.user}@{self.hostname}:{self.port}"


def ssh_config_path() -> Path:
    return Path(os.path.expanduser("~/.ssh/config"))


def _ssh_config() -> paramiko.SSHConfig | None:
    path = ssh_config_path()
    if not path.is_file():
        return None
    try:
        return paramiko.SSHConfig.from_path(str(path))
    except (OSError, paramiko.SSHException, ValueError) as exc:
        log.warning("ignoring unreadable %s: %s", path, exc)
        return None


def resolve_target(
    rec: HostRecord, paths: Paths | None = None, *, password: str | None = None, _depth: int = 0
) -> Target:
    """Merge the record with ~/.ssh/config (record wins) and resolve ProxyJump hops."""
    if _depth > 5:
        raise SshError(
            QT_TRANSLATE_NOOP("LabGPU", "ProxyJump for {host} loops or is too long."),
            QT_TRANSLATE_NOOP("LabGPU", "Check the -J hosts and ~/.ssh/config."),
            code="JumpLoop",
            host=rec.name,
        )
    cfg = _ssh_config()
    alias = rec.connect_address
    c: dict[str, Any] = dict(cfg.lookup(alias)) if cfg else {}
    hostname = rec.connect_address if rec.via_vpn else c.get("hostname", alias)
    port = rec.port or int(c.get("port", 22))
    user = rec.user or c.get("user", "") or os.environ.get("USER", "") or "root"
    keys: list[str] = []
    if rec.key_path:
        keys.append(rec.key_path)
    for k in c.get("identityfile", []) or []:
        if k not in keys:
            keys.append(k)
    jump_spec = rec.jump or ("" if rec.via_vpn else c.get("proxyjump", ""))
    hops: list[Target] = []
    for hop in parse_jump(jump_spec):
        hops.append(_hop_target(hop, paths, _depth + 1))
    # Nested ProxyJump of the first hop precedes it (OpenSSH semantics: the chain is flattened).
    flat: list[Target] = []
    for h in hops:
        flat.extend(h.jump)
        flat.append(replace(h, jump=[]))
    return Target(
        name=rec.name,
        hostname=hostname,
        port=port,
        user=user,
        auth=rec.auth,
        key_files=[os.path.expanduser(k) for k in keys],
        jump=flat,
        password=password,
    )


def _hop_target(hop: JumpHop, paths: Paths | None, depth: int) -> Target:
    saved = HostStore(paths=paths).find(hop.host)
    if saved is not None:
        rec = replace(saved, user=hop.user or saved.user, port=hop.port or saved.port)
    else:
        rec = HostRecord(name=hop.host, hostname=hop.host, user=hop.user, port=hop.port)
    return resolve_target(rec, paths, _depth=depth)


def find_host(name: str, paths: Paths | None = None) -> HostRecord:
    """A saved host, or a launched instance shown as a host."""
    hs = HostStore(paths=paths)
    rec = hs.find(name)
    if rec is not None:
        return rec
    for inst in instance_hosts(paths=paths, store=hs.store):
        if name in (inst.name, inst.instance_id):
            return inst
    return hs.get(name)  # raises HostNotFoundError


def set_console_voucher(voucher: vouch.ConsoleVoucher | None) -> None:
    """See app.remote.vouch (kept here for callers that already hold this module)."""
    vouch.set_console_voucher(voucher)


def console_fingerprints_for(rec: HostRecord, paths: Paths | None = None) -> list[str]:
    """For a launched instance: the host-key fingerprints its cloud says it printed at boot.

    An independent channel (the cloud's API) vouching for the key, so a match needs no prompt and a
    mismatch is refused. Best effort: any problem (no voucher, no account, no output yet, no network)
    gives [] and the user is asked as on any first contact.
    """
    voucher = vouch.console_voucher()
    if voucher is None or not rec.instance_id:
        return []
    try:
        return [str(f) for f in voucher(rec, paths)]
    except Exception as exc:  # noqa: BLE001 - a bonus check; never blocks connecting
        log.info("no console fingerprints for %s: %s", rec.instance_id, type(exc).__name__)
        return []


# -- dialling ------------------------------------------------------------------------------------
def _unreachable(target: Target, why: str) -> HostUnreachableError:
    return HostUnreachableError(
        QT_TRANSLATE_NOOP("LabGPU", "Cannot reach {host} ({why})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Check that the server is running, the address and port are right and "
            "your network (or VPN) is up, then retry.",
        ),
        code="HostUnreachable",
        host=target.display,
        why=why,
    )


def _dial(
    target: Target,
    sock: Any,
    tuning: TransportTuning,
    known: KnownHosts,
    accept: AcceptCallback | None,
    expected: Sequence[str],
) -> tuple[paramiko.Transport, str]:
    """TCP (or ``sock``) → SSH handshake → host-key check → auth. Returns (transport, fingerprint)."""
    if sock is None:
        try:
            sock = socket.create_connection((target.hostname, target.port), timeout=tuning.connect_timeout)
        except socket.gaierror as exc:
            raise _unreachable(target, f"name not found: {exc.strerror or exc}") from None
        except TimeoutError:
            raise _unreachable(target, "timed out") from None
        except OSError as exc:
            raise _unreachable(target, exc.strerror or type(exc).__name__) from None
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    transport = paramiko.Transport(
        sock, default_window_size=tuning.window_size, default_max_packet_size=tuning.max_packet_size
    )
    transport.name = f"ssh:{target.name}"  # type: ignore[attr-defined]
    fastssh.install(transport)  # this transport's fast data paths, if the paramiko probe allows
    ok = False
    try:
        opts = transport.get_security_options()
        available = set(opts.ciphers)
        preferred = [c for c in tuning.ciphers if c in available]
        opts.ciphers = tuple(preferred + [c for c in opts.ciphers if c not in preferred])
        transport.use_compression(tuning.compression)
        # Like OpenSSH: ask first for the host-key types already trusted for this address, so a
        # server with several keys is not mistaken for a changed one.
        known_types = [k.get_name() for k in known.known_keys(target.hostname, target.port)]
        if known_types:
            wanted: list[str] = []
            for kt in known_types:
                wanted += ["rsa-sha2-512", "rsa-sha2-256", "ssh-rsa"] if kt == "ssh-rsa" else [kt]
            keys = tuple(opts.key_types)
            first = [k for k in dict.fromkeys(wanted) if k in keys]
            opts.key_types = tuple(first + [k for k in keys if k not in first])
        try:
            transport.start_client(timeout=tuning.connect_timeout)
        except (paramiko.SSHException, EOFError, OSError) as exc:
            raise _unreachable(target, f"SSH handshake failed: {exc}") from None
        key = transport.get_remote_server_key()
        fp = verify_host_key(
            known,
            host=target.name,
            hostname=target.hostname,
            port=target.port,
            key=key,
            accept=accept,
            expected=tuple(expected),
        )
        _authenticate(transport, target, tuning)
        transport.set_keepalive(tuning.keepalive_s)
        ok = True
        return transport, fp
    finally:
        if not ok:
            transport.close()


def _auth_error(target: Target, tried: list[str]) -> HostAuthError:
    return HostAuthError(
        QT_TRANSLATE_NOOP("LabGPU", "{host} refused the login (tried: {tried})."),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Check the user name and key or password: remove the host and add it again with the right ones.",
        ),
        code="AuthFailed",
        host=target.display,
        tried=", ".join(tried) or "nothing",
    )


def _is_passphrase_error(exc: BaseException) -> bool:
    # paramiko's PKey.from_path lets cryptography's TypeError escape for encrypted OpenSSH keys.
    return isinstance(exc, paramiko.PasswordRequiredException) or (
        isinstance(exc, TypeError) and "password" in str(exc).lower()
    )


def _load_key(path: str, target: Target) -> paramiko.PKey | None:
    try:
        try:
            return paramiko.PKey.from_path(path)
        except TypeError as exc:
            if _is_passphrase_error(exc):
                raise paramiko.PasswordRequiredException(str(exc)) from None
            raise
    except paramiko.PasswordRequiredException:
        passphrase = secrets.get_secret(passphrase_key(target.name))
        own = Path(path)
        if passphrase is None and own.parent.name == OWN_KEY_DIR and own.name.startswith("labgpu"):
            # LabGPU's own instance key: its random passphrase lives with the key, not the host.
            passphrase = secrets.get_secret(f"sshkey:{own.name}:passphrase")
        if passphrase is None:
            raise HostAuthError(
                QT_TRANSLATE_NOOP(
                    "LabGPU", "The key {path} needs a passphrase and none is stored for {host}."
                ),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "Add the host again with the passphrase ('labgpu hosts add … "
                    "--passphrase-stdin'), or load the key into your ssh-agent.",
                ),
                code="KeyPassphraseMissing",
                path=path,
                host=target.name,
            ) from None
        try:
            return paramiko.PKey.from_path(path, passphrase.encode())  # type: ignore[arg-type]
        except (paramiko.SSHException, ValueError, TypeError):
            raise HostAuthError(
                QT_TRANSLATE_NOOP("LabGPU", "The stored passphrase does not open the key {path}."),
                QT_TRANSLATE_NOOP("LabGPU", "Add the host again with the right passphrase."),
                code="KeyPassphraseWrong",
                path=path,
            ) from None
    except FileNotFoundError:
        return None
    except (OSError, paramiko.SSHException, ValueError) as exc:
        raise HostAuthError(
            QT_TRANSLATE_NOOP("LabGPU", "Cannot read the key {path} ({why})."),
            QT_TRANSLATE_NOOP("LabGPU", "Check the key file's path and permissions."),
            code="KeyUnreadable",
            path=path,
            why=type(exc).__name__,
        ) from None


def _authenticate(transport: paramiko.Transport, target: Target, tuning: TransportTuning) -> None:
    tried: list[str] = []
    user = target.user

    def try_key(pkey: paramiko.PKey, label: str) -> bool:
        tried.append(label)
        try:
            transport.auth_publickey(user, pkey)
        except paramiko.AuthenticationException:
            return False
        except paramiko.SSHException as exc:
            log.info("public key %s failed: %s", label, exc)
            return False
        return bool(transport.is_authenticated())

    if target.auth in ("key", "auto"):
        explicit = list(target.key_files)
        files = explicit + (
            [os.path.expanduser(k) for k in DEFAULT_KEY_FILES] if target.auth == "auto" else []
        )
        for path in dict.fromkeys(files):
            try:
                pkey = _load_key(path, target)
            except HostAuthError:
                if path in explicit or target.auth == "key":
                    raise
                continue  # an encrypted default key without stored passphrase: the agent may have it
            if pkey is None:
                if target.auth == "key" and path in explicit:
                    raise HostAuthError(
                        QT_TRANSLATE_NOOP("LabGPU", "The key file {path} does not exist."),
                        QT_TRANSLATE_NOOP("LabGPU", "Fix the path (-i) of this host."),
                        code="KeyMissing",
                        path=path,
                    )
                continue
            if try_key(pkey, os.path.basename(path)):
                return
    if target.auth in ("agent", "auto") or (target.auth == "key" and not target.key_files):
        agent = paramiko.Agent()
        try:
            for pkey in agent.get_keys():
                if try_key(pkey, "agent"):
                    return
        finally:
            agent.close()
    if target.auth in ("password", "auto"):
        password = target.password
        if password is None:
            try:
                password = secrets.get_secret(password_key(target.name))
            except secrets.SecretsUnavailableError:
                if target.auth == "password":
                    raise
                password = None
        if password is None and target.auth == "password":
            raise HostAuthError(
                QT_TRANSLATE_NOOP("LabGPU", "No password is stored for {host}."),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "Add the host again with its password (Hosts "
                    "page, "
                    "or 'labgpu hosts add … --password-stdin').",
                ),
                code="PasswordMissing",
                host=target.name,
            )
        if password is not None:
            register_secret(password)
            tried.append("password")
            try:
                transport.auth_password(user, password)
            except paramiko.AuthenticationException:
                pass
            except paramiko.SSHException as exc:
                log.info("password auth failed: %s", exc)
            if transport.is_authenticated():
                return
    raise _auth_error(target, tried)


# -- the connection -------------------------------------------------------------------------------
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
                    t, _fp = _dial(hop, sock, self.tuning, known, self.accept, ())
                    hops.append(t)
                    nxt = target.jump[i + 1] if i + 1 < len(target.jump) else target
                    sock = self._direct_tcpip(t, hop, nxt)
                expected = self.expected
                if not expected and not known.known_keys(target.hostname, target.port):
                    expected = tuple(console_fingerprints_for(self.record, self.paths))  # first contact only
                self.transport, self.fingerprint = _dial(
                    target, sock, self.tuning, known, self.accept, expected
                )
            except BaseException:
                for t in reversed(hops):
                    t.close()
                raise
            self._hops = hops
            log.info("connected to %s (%s)", target.name, self.fingerprint)
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
        try:
            from app.remote.vpn import VpnManager
        except ImportError:
            raise SshError(
                QT_TRANSLATE_NOOP(
                    "LabGPU", "{host} is reached via VPN {profile}, but VPN support is not installed."
                ),
                QT_TRANSLATE_NOOP("LabGPU", "Update LabGPU, or edit the host to connect directly."),
                code="VpnMissing",
                host=self.record.name,
                profile=self.record.via_vpn,
            ) from None
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
        raise SshError(
            QT_TRANSLATE_NOOP("LabGPU", "The connection to {host} was closed."),
            "",
            code="ConnectionClosed",
            host=self.record.name,
        )

    def _teardown(self) -> None:
        t, self.transport = self.transport, None
        if t is not None:
            t.close()
        for h in reversed(self._hops):
            h.close()
        self._hops = []

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._teardown()

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # channels -----------------------------------------------------------------------------------
    def _active_transport(self) -> paramiko.Transport:
        t = self.transport
        if t is None or not t.is_active():
            raise SshError(
                QT_TRANSLATE_NOOP("LabGPU", "Not connected to {host}."),
                QT_TRANSLATE_NOOP("LabGPU", "Connect first (it may have dropped)."),
                code="NotConnected",
                host=self.record.name,
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
            raise SshError(
                QT_TRANSLATE_NOOP("LabGPU", "{host} refused to open SFTP."),
                QT_TRANSLATE_NOOP("LabGPU", "Enable the sftp subsystem on the server."),
                code="NoSftp",
                host=self.record.name,
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
                chan.sendall(stdin)
            chan.shutdown_write()
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
                    raise SshError(
                        QT_TRANSLATE_NOOP("LabGPU", "The command on {host} printed too much output."),
                        "",
                        code="OutputTooLarge",
                        host=self.record.name,
                    )
                wait = 1.0 if deadline is None else max(0.0, min(1.0, deadline - time.monotonic()))
                if deadline is not None and time.monotonic() >= deadline:
                    raise SshError(
                        QT_TRANSLATE_NOOP("LabGPU", "The command on {host} did not finish in {secs} s."),
                        QT_TRANSLATE_NOOP("LabGPU", "Retry; if it keeps happening the server is overloaded."),
                        code="CommandTimeout",
                        host=self.record.name,
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
            chan.shutdown_write()
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
