"""How LabGPU tells its own SSH sessions apart (app/remote/ssh/ownsession.py): when its socket's address is
what the host sees, and reading the host's ``$SSH_CONNECTION`` answer — a hostile or odd one included."""

from __future__ import annotations

import pytest

from app.remote.ssh.ownsession import MARK, parse_ssh_connection, seen_unchanged


@pytest.mark.parametrize(("local", "remote", "unchanged"), [
    ("127.0.0.1", "127.0.0.1", True),  # the same machine
    ("::1", "::1", True),
    ("8.8.4.4", "1.1.1.1", True),  # a global address: what the host sees
    ("2001:4860::1", "2606:4700::1", True),
    ("10.8.0.6", "10.8.0.1", True),  # a VPN tunnel: both ends private
    ("192.168.1.5", "192.168.1.20", True),  # a lab's LAN
    ("192.168.1.5", "1.1.1.1", False),  # home router: NAT
    ("100.64.3.4", "1.1.1.1", False),  # carrier-grade NAT
    ("::ffff:192.168.1.5", "1.1.1.1", False),  # an IPv4-mapped address is its IPv4 address
    ("fe80::1%eth0", "1.1.1.1", False),
    ("not-an-address", "1.1.1.1", False),
])
def test_which_local_addresses_a_host_sees_unchanged(local: str, remote: str, unchanged: bool) -> None:
    assert seen_unchanged(local, remote) is unchanged


@pytest.mark.parametrize(("answer", "pair"), [
    (MARK + "203.0.113.9 50412 10.0.0.4 22\n", ("203.0.113.9", 50412)),
    ("Welcome!\n" + MARK + "::ffff:198.51.100.3 61000 10.0.0.4 22\n", ("198.51.100.3", 61000)),
    ("banner without a newline" + MARK + "2001:db8::7 40000 2001:db8::1 22\n", ("2001:db8::7", 40000)),
    (MARK + "1.2.3.4 50412 10.0.0.4 22\r\n", ("1.2.3.4", 50412)),
    # the banner imitates the answer: the last one (printed after the rc file) counts
    (MARK + "6.6.6.6 1 6.6.6.6 22\n" + MARK + "1.2.3.4 5 10.0.0.4 22\n", ("1.2.3.4", 5)),
    (MARK + "\n", None),  # not an SSH session's environment (a console, su)
    ("", None),
    ("This service allows sftp connections only.\n", None),
    (MARK + "-oProxyCommand=x 22 10.0.0.4 22\n", None),
    (MARK + "1.2.3.4 70000 10.0.0.4 22\n", None),
    (MARK + "1.2.3.4 0 10.0.0.4 22\n", None),
    (MARK + "1.2.3.4 123456789 10.0.0.4 22\n", None),
    (MARK + "1.2.3.4 22 10.0.0.4\n", None),
    (MARK + "1.2.3.4 22 10.0.0.4 22 extra\n", None),
    (MARK + "1.2.3.4 ２２ 10.0.0.4 22\n", None),  # full-width digits are not a port
    (MARK + "<b>1.2.3.4</b> 22 10.0.0.4 22\n", None),
    ("x" * 5000 + MARK + "1.2.3.4 22 10.0.0.4 22\n", None),  # past what is read
])
def test_the_hosts_answer_is_read_strictly(answer: str, pair: tuple[str, int] | None) -> None:
    assert parse_ssh_connection(answer.encode()) == pair
