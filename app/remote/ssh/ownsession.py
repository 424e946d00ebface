"""Each SSH session LabGPU opens tells the login watch it is LabGPU's own (issue 27's rule: never alert one).

Every connection is a new login in the host's log — the monitor's, a sync's, a job's, the watcher's —
and at the student's unusual hours (01–06 by default) the login watch (app/usecases/logins.py) alerts
any accepted login that is not one of LabGPU's own sessions: the exact address and port the host saw
(app/core/loginrules.py). So each connection notes that pair in ``login_own`` (app/core/loginstore.py):

- when the host sees the connection's own socket address unchanged — a direct connection from a
  loopback or global address, or with both ends private (a LAN, a VPN tunnel) — that address and
  port, at once, in :meth:`Connection.connect`, before the host can have logged anything a check reads;
- otherwise (a private address talking to a public one: NAT; or through a jump host, whose own address
  and port the target sees), the host's own word: ``$SSH_CONNECTION`` read on one exec channel in the
  background right after login (at most ``MAX_REPLY`` bytes and ``TIMEOUT_S`` in all), what follows its last
  :data:`MARK` parsed strictly (two addresses, two ports) and ignored when unusable (an SFTP-only account,
  a forced command, a banner only). A login check in the ~2 round trips before it is noted can still alert
  that one session.

A failure here never fails the connection: it is logged, and the login watch's rules stay as they were.
"""

from __future__ import annotations

import logging
import socket
import threading
import time

import paramiko

from app.core.loginrules import address
from app.core.paths import Paths
from app.remote import fastssh

log = logging.getLogger("app.remote.ssh")

MAX_REPLY = 1024  # bytes of the host's answer read (a banner-printing shell included)
TIMEOUT_S = 10.0  # for the channel to open, and for the whole answer
MARK = "@@labgpu-conn "  # before the answer: a login shell's banner may end without a newline
COMMAND = f'printf "{MARK}%s\\n" "$SSH_CONNECTION"'


def seen_unchanged(local: str, remote: str) -> bool:
    """Whether a host at ``remote`` sees a direct connection from ``local`` with that same address (no NAT
    between): loopback, a global local address, or both ends non-global (a LAN, a VPN tunnel)."""
    lo, re_ = address(local), address(remote)
    if lo is None or re_ is None:
        return False
    if lo.is_loopback or lo.is_global:
        return True
    return not re_.is_global


def parse_ssh_connection(data: bytes) -> tuple[str, int] | None:
    """(client address, client port) from ``$SSH_CONNECTION`` as :data:`COMMAND` prints it (after the last
    :data:`MARK`: "CLIENT CPORT SERVER SPORT"); None for anything else."""
    text = data[:MAX_REPLY].decode("ascii", "replace")
    at = text.rfind(MARK)
    if at < 0:
        return None
    parts = text[at + len(MARK):].split("\n", 1)[0].strip().split(" ")
    if len(parts) != 4 or not all(p.isdigit() and len(p) <= 5 for p in (parts[1], parts[3])):
        return None
    client, server, port = address(parts[0]), address(parts[2]), int(parts[1])
    if client is None or server is None or not 0 < port < 65536:
        return None
    return str(client), port


def note(paths: Paths, host: str, address: str, port: int) -> None:
    """Record one of LabGPU's own sessions to ``host`` (its database, a connection of its own)."""
    from app.core.loginstore import LoginStore
    from app.core.store import Store

    store = Store(paths=paths)
    try:
        LoginStore(store).note_own(host, address, port)
    finally:
        store.close()


def ask_host(transport: paramiko.Transport) -> tuple[str, int] | None:
    """The session as the host saw it (``$SSH_CONNECTION``), or None when it does not say."""
    try:
        chan = transport.open_session(timeout=TIMEOUT_S)
    except (paramiko.SSHException, OSError, EOFError):
        return None
    try:
        chan.settimeout(TIMEOUT_S)
        chan.exec_command(COMMAND)
        fastssh.shutdown_write(chan)  # never after the channel's CLOSE: OpenSSH drops the whole connection
        data = b""
        deadline = time.monotonic() + TIMEOUT_S  # in all: a host trickling bytes cannot hold the thread
        while len(data) < MAX_REPLY and time.monotonic() < deadline:
            chan.settimeout(max(0.1, deadline - time.monotonic()))
            chunk = chan.recv(MAX_REPLY - len(data))
            if not chunk:
                break
            data += chunk
    except (paramiko.SSHException, OSError, EOFError):  # a timeout is an OSError
        return None
    finally:
        chan.close()
    return parse_ssh_connection(data)


class OwnSession:
    """Notes one connection's session (see the module docstring); :meth:`wait` for the background one."""

    def __init__(self, paths: Paths, host: str) -> None:
        self.paths = paths
        self.host = host
        self.noted: tuple[str, int] | None = None
        self._thread: threading.Thread | None = None

    def start(self, transport: paramiko.Transport, direct: bool) -> None:
        """Right after login: at once when the socket's own address is what the host sees, else ask it."""
        sock = transport.sock
        if direct and isinstance(sock, socket.socket):
            try:
                local, remote = sock.getsockname(), sock.getpeername()
            except OSError:
                local = remote = None
            if local is not None and remote is not None and seen_unchanged(str(local[0]), str(remote[0])):
                self._save((str(address(str(local[0]))), int(local[1])))
                return
        self._thread = threading.Thread(target=lambda: self._save(ask_host(transport)),
                                        name=f"own-session-{self.host}", daemon=True)
        self._thread.start()

    def _save(self, pair: tuple[str, int] | None) -> None:
        if pair is None:
            log.info("%s did not say how it saw this session; its login may be judged as anyone's", self.host)
            return
        try:
            note(self.paths, self.host, pair[0], pair[1])
        except Exception as exc:  # noqa: BLE001 - never fails the connection; said in the log
            log.warning("could not note LabGPU's own session to %s: %s", self.host, exc)
            return
        self.noted = pair

    def wait(self, timeout: float = TIMEOUT_S) -> tuple[str, int] | None:
        """What was noted, once the host answered (or ``timeout`` passed)."""
        t = self._thread
        if t is not None:
            t.join(timeout)
        return self.noted
