"""A connection that goes while logging in is a lost connection (retried), not a refused login.

`labgpu logs -f` reconnecting after a cut once reported "[AuthFailed] … refused the login" and gave up:
paramiko raises the same exception when the server says no and when the transport dies mid-login.
The peer here is a real SSH server (paramiko's, on 127.0.0.1) that hangs up on the first login
request, and answers the next connection normally; a real refusal stays AuthFailed
(tests/remote/test_ssh.py::test_wrong_key_is_refused)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import paramiko
import pytest

from app.core.hosts import HostRecord
from app.core.paths import default_paths
from app.remote.hostkeys import KnownHosts
from app.remote.ssh import Connection, HostUnreachableError, open_connection

pytestmark = pytest.mark.usefixtures("private_home")


class _HangsUpOnce(paramiko.ServerInterface):
    def __init__(self, transport: paramiko.Transport, hang_up: bool) -> None:
        self.transport = transport
        self.hang_up = hang_up

    def get_allowed_auths(self, username: str) -> str:
        return "publickey"

    def check_auth_publickey(self, username: str, key: paramiko.PKey) -> int:
        if self.hang_up:
            self.transport.sock.close()  # the network goes mid-login
            return paramiko.AUTH_FAILED
        return paramiko.AUTH_SUCCESSFUL


class _Peer:
    def __init__(self, host_key: paramiko.PKey, hang_ups: int) -> None:
        self.host_key = host_key
        self.hang_ups = hang_ups
        self.logins = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.transports: list[paramiko.Transport] = []
        self.thread = threading.Thread(target=self._serve, name="login-peer", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            try:
                sock, _ = self.listener.accept()
            except OSError:
                return
            t = paramiko.Transport(sock)
            t.add_server_key(self.host_key)
            self.transports.append(t)
            hang_up = self.logins < self.hang_ups
            self.logins += 1
            try:
                t.start_server(server=_HangsUpOnce(t, hang_up))
            except (paramiko.SSHException, EOFError, OSError):
                t.close()

    def close(self) -> None:
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accept() (close alone does not)
        except OSError:
            pass
        self.listener.close()
        for t in self.transports:
            t.close()
            if t.is_alive():
                t.join(10)
        self.thread.join(10)


@pytest.fixture
def peer(sshd) -> Iterator[tuple[_Peer, HostRecord]]:
    key = paramiko.Ed25519Key.from_path(str(sshd.host_key))
    p = _Peer(key, hang_ups=1)
    KnownHosts(default_paths()).add("127.0.0.1", p.port, key)
    rec = HostRecord(name="cut", hostname="127.0.0.1", port=p.port, user="student",
                     key_path=str(sshd.client_key), auth="key")
    try:
        yield p, rec
    finally:
        p.close()


def test_a_login_cut_mid_way_is_a_lost_connection_and_the_reconnect_logs_in(peer):
    p, rec = peer
    with pytest.raises(HostUnreachableError) as info:
        open_connection(rec)
    assert info.value.code == "LoginInterrupted", info.value.one_line()
    assert "lost while logging in" in info.value.text() and "refused" not in info.value.text()
    conn = Connection(rec)
    try:
        conn.ensure()  # the connection's own reconnect: the next try logs in
        assert conn.is_active and p.logins == 2
    finally:
        conn.close()

