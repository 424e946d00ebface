"""ssh -4 / -6 (and AddressFamily in ~/.ssh/config) as OpenSSH honours them, against real sshds: one on
127.0.0.1 and one on ::1, on the same port, each with its own host key, so the key that answers shows
which address the connection used (and each sshd's log names the peer address).

This machine's /etc/hosts has no name for both loopbacks, so a test resolver answers one name,
``gpu.dual.test``, with both addresses, exactly as an /etc/hosts line per family would: it asks the
system's getaddrinfo for each literal in the family the caller asked for (so the family filter is the
system's own) and lists them in the order the test gives; every other name goes to the system."""

from __future__ import annotations

import shutil
import socket
import subprocess

import pytest

from app.core.hosts import HostRecord, HostStore, record_from_command
from app.core.paths import default_paths
from app.remote.hostkeys import fingerprint_matcher
from app.remote.ssh import HostUnreachableError, open_connection
from tests.fixtures.sshd import SshdServer

pytestmark = pytest.mark.usefixtures("private_home")
NAME = "gpu.dual.test"


def _has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


if not _has_ipv6_loopback():  # the CI machines have ::1 on lo (ip -6 addr show lo): a skip would hide a break
    pytest.fail("these tests need IPv6 loopback (::1 on lo)", pytrace=False)


def _port_free_on_both() -> int:
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s4:
            s4.bind(("127.0.0.1", 0))
            port = int(s4.getsockname()[1])
            try:
                with socket.socket(socket.AF_INET6, socket.SOCK_STREAM) as s6:
                    s6.bind(("::1", port))
            except OSError:
                continue
            return port
    raise AssertionError("no port free on both 127.0.0.1 and ::1")


def _stop(server: SshdServer) -> None:
    proc, server.proc = server.proc, None
    if proc is not None:
        proc.terminate()
        proc.wait(10)
    shutil.rmtree(server.workdir, ignore_errors=True)


@pytest.fixture(scope="module")
def pair():
    port = _port_free_on_both()
    v4 = SshdServer.start_new(listen="127.0.0.1", port=port)
    try:
        v6 = SshdServer.start_new(listen="::1", port=port)
    except BaseException:
        _stop(v4)
        raise
    with open(v6.authorized_keys, "a") as fh:  # one client key logs in on both
        fh.write(v4.client_pub + "\n")
    try:
        yield v4, v6
    finally:
        _stop(v4)
        _stop(v6)


@pytest.fixture
def resolver(monkeypatch):
    """``order`` lists the addresses ``gpu.dual.test`` resolves to, first first."""
    real = socket.getaddrinfo
    order: list[str] = ["127.0.0.1", "::1"]

    def getaddrinfo(host, port, family=0, type=0, proto=0, flags=0):  # noqa: A002 - socket's own names
        if host != NAME:
            return real(host, port, family, type, proto, flags)
        if flags & socket.AI_NUMERICHOST:  # a name is no numeric host (ssh's literal check asks this)
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        out = []
        for literal in order:
            try:
                out += real(literal, port, family, type, proto, flags | socket.AI_NUMERICHOST)
            except socket.gaierror:
                continue  # not of the family asked for
        if not out:
            raise socket.gaierror(socket.EAI_ADDRFAMILY, "Address family for hostname not supported")
        return out

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return order


def _record(v4: SshdServer, flags: str, host: str = NAME) -> HostRecord:
    return record_from_command("dual", f"ssh {flags} -p {v4.port} -i {v4.client_key} {v4.user}@{host}".replace(
        "  ", " "))


def _connect(rec: HostRecord, server: SshdServer, monkeypatch, tmp_path, label: str):
    """A fresh data folder per connection: both servers answer for one name and port, with different keys."""
    monkeypatch.setenv("LABGPU_HOME", str(tmp_path / label))
    return open_connection(rec, default_paths(), accept=fingerprint_matcher(server.host_key_fingerprint))


def test_dash_6_uses_only_the_ipv6_address_of_a_name_that_has_both(pair, resolver, monkeypatch, tmp_path):
    v4, v6 = pair
    resolver[:] = ["127.0.0.1", "::1"]  # IPv4 first: ignoring -6 would reach the 127.0.0.1 server
    rec = _record(v4, "-6")
    assert (rec.hostname, rec.address_family) == (NAME, "inet6")
    log_before = len(v6.log_text())
    with _connect(rec, v6, monkeypatch, tmp_path, "six") as conn:
        assert conn.fingerprint == v6.host_key_fingerprint
        assert conn.transport.sock.getpeername()[0] == "::1"
        assert conn.exec(["true"])[0] == 0
    assert "Connection from ::1 port" in v6.log_text()[log_before:]


def test_dash_4_uses_only_the_ipv4_address(pair, resolver, monkeypatch, tmp_path):
    v4, _v6 = pair
    resolver[:] = ["::1", "127.0.0.1"]  # IPv6 first: ignoring -4 would reach the ::1 server
    rec = _record(v4, "-4")
    assert (rec.hostname, rec.address_family) == (NAME, "inet")
    log_before = len(v4.log_text())
    with _connect(rec, v4, monkeypatch, tmp_path, "four") as conn:
        assert conn.fingerprint == v4.host_key_fingerprint
        assert conn.transport.sock.getpeername()[0] == "127.0.0.1"
    assert "Connection from 127.0.0.1 port" in v4.log_text()[log_before:]


def test_without_a_flag_the_first_address_answers_as_with_openssh(pair, resolver, monkeypatch, tmp_path):
    _v4, v6 = pair
    resolver[:] = ["::1", "127.0.0.1"]
    with _connect(_record(_v4, ""), v6, monkeypatch, tmp_path, "any") as conn:
        assert conn.fingerprint == v6.host_key_fingerprint


def test_address_family_in_ssh_config_is_honoured_and_the_command_line_wins(
    pair, resolver, monkeypatch, tmp_path, private_home
):
    v4, v6 = pair
    resolver[:] = ["127.0.0.1", "::1"]
    (private_home / ".ssh" / "config").write_text(f"Host {NAME}\n    AddressFamily inet6\n")
    with _connect(_record(v4, ""), v6, monkeypatch, tmp_path, "config") as conn:
        assert conn.fingerprint == v6.host_key_fingerprint
    with _connect(_record(v4, "-4"), v4, monkeypatch, tmp_path, "flag") as conn:  # -4 beats the config
        assert conn.fingerprint == v4.host_key_fingerprint


def test_dash_4_to_an_ipv6_address_says_why_it_cannot_connect(pair, monkeypatch, tmp_path):
    v4, _v6 = pair
    rec = _record(v4, "-4", host="::1")
    assert rec.hostname == "::1"  # OpenSSH accepts the line too (ssh -G), then finds no IPv4 address
    with pytest.raises(HostUnreachableError) as err:
        _connect(rec, v4, monkeypatch, tmp_path, "bad")
    assert "no IPv4 address (-4)" in err.value.text()
    assert err.value.hint()
    r = subprocess.run(["ssh", "-F", "/dev/null", "-4", "-o", "BatchMode=yes", "-p", str(v4.port), "::1", "true"],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 255  # OpenSSH cannot either


def test_the_family_is_saved_with_the_host_and_given_back_in_its_command(labgpu_home):
    store = HostStore()
    store.add(record_from_command("six", "ssh -6 -p 2222 root@gpu.example.com"))
    store.add(record_from_command("four", "ssh root@gpu.example.com -4"))
    store.add(record_from_command("any", "ssh -o AddressFamily=any root@gpu.example.com"))
    got = {r.name: r for r in store.list()}
    assert {n: r.address_family for n, r in got.items()} == {"six": "inet6", "four": "inet", "any": ""}
    assert got["six"].ssh_command() == "ssh -6 -p 2222 root@gpu.example.com"
    assert got["four"].ssh_command() == "ssh -4 root@gpu.example.com"
    assert got["any"].ssh_command() == "ssh root@gpu.example.com"
