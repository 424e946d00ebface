"""Local port forwards through a real sshd to an HTTP server listening on the server's 127.0.0.1."""

from __future__ import annotations

import http.server
import threading
import urllib.error
import urllib.request

import pytest

from app.core.hosts import HostRecord
from app.remote.hostkeys import fingerprint_matcher
from app.remote.ssh import open_connection
from app.remote.tunnels import LocalForward, TunnelError, service_port

pytestmark = pytest.mark.usefixtures("private_home")


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 - http.server API
        body = f"tensorboard-ish {self.path}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def http_server():
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    t = threading.Thread(target=srv.serve_forever, name="test-http", daemon=True)
    t.start()
    try:
        yield srv.server_address[1]
    finally:
        srv.shutdown()
        srv.server_close()
        t.join(5)


@pytest.fixture
def conn(sshd):
    rec = HostRecord(
        name="box",
        hostname=sshd.host,
        port=sshd.port,
        user=sshd.user,
        key_path=str(sshd.client_key),
        auth="key",
    )
    c = open_connection(rec, accept=fingerprint_matcher(sshd.host_key_fingerprint))
    yield c
    c.close()


def test_forward_reaches_remote_loopback_http(conn, http_server):
    fwd = LocalForward(conn, http_server).start()
    try:
        assert fwd.local_port != http_server
        assert fwd.url == f"http://127.0.0.1:{fwd.local_port}/"
        assert fwd.check_remote()
        for i in range(3):  # several requests, each a new local connection → new channel
            with urllib.request.urlopen(f"{fwd.url}run/{i}", timeout=30) as resp:
                assert resp.read() == f"tensorboard-ish /run/{i}".encode()
        assert fwd.connections_served >= 3
    finally:
        fwd.stop()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(fwd.url, timeout=2)


def test_forward_to_nothing_fails_cleanly(conn):
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    closed = s.getsockname()[1]
    s.close()
    with LocalForward(conn, closed) as fwd:
        assert not fwd.check_remote()
        with pytest.raises((urllib.error.URLError, ConnectionError)):
            urllib.request.urlopen(fwd.url, timeout=3)
        assert fwd.last_error


def test_busy_local_port_is_a_clear_error(conn, http_server):
    with pytest.raises(TunnelError) as ei:
        LocalForward(conn, 6006, local_port=http_server).start()
    assert ei.value.code == "PortBusy"


def test_service_names():
    assert service_port("tensorboard") == 6006
    assert service_port("Jupyter") == 8888
    assert service_port("8080") == 8080
    with pytest.raises(TunnelError):
        service_port("tensorbored")
    with pytest.raises(TunnelError):
        service_port("0")
