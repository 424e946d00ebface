"""Parsing the SSH command lines providers print (pure, no server)."""

from __future__ import annotations

import pytest

from app.core.errors import InputError
from app.core.hosts import record_from_command
from app.core.sshcmd import JumpHop, parse_ssh_command


@pytest.mark.parametrize(
    ("text", "host", "user", "port", "key", "jump"),
    [
        ("ssh -p 12345 root@region-1.example.com", "region-1.example.com", "root", 12345, "", ""),
        ("ssh root@region-1.example.com -p 12345", "region-1.example.com", "root", 12345, "", ""),
        ("ssh root@10.0.0.5", "10.0.0.5", "root", None, "", ""),
        (
            "ssh -p12345 -i ~/.ssh/lab.pem ubuntu@ec2.example.com",
            "ec2.example.com",
            "ubuntu",
            12345,
            "~/.ssh/lab.pem",
            "",
        ),
        ("ssh -J me@bastion:2200 -l alice gpu01", "gpu01", "alice", None, "", "me@bastion:2200"),
        ("ssh -o Port=2222 -o User=bob -o ProxyJump=jump1,jump2 box", "box", "bob", 2222, "", "jump1,jump2"),
        ("ssh -v -A -C -o ServerAliveInterval=30 root@h", "h", "root", None, "", ""),
        ("ssh ssh://carol@gpu.example.com:2022", "gpu.example.com", "carol", 2022, "", ""),
        ("ssh -p 2022 carol@2001:db8::1", "2001:db8::1", "carol", 2022, "", ""),  # OpenSSH: no IPv6 in ssh://
        ("ssh myalias", "myalias", "", None, "", ""),
        (
            "ssh -L 8888:localhost:8888 -p 30022 root@connect.cloud.example",
            "connect.cloud.example",
            "root",
            30022,
            "",
            "",
        ),
    ],
)
def test_parses_what_providers_print(text, host, user, port, key, jump):
    t = parse_ssh_command(text)
    assert (t.host, t.user, t.port, t.key_path, t.jump_spec) == (host, user, port, key, jump)


def test_jump_hops_are_structured():
    t = parse_ssh_command("ssh -J a@j1:2200,[::1]:22 u@h")
    assert t.jump == (JumpHop("j1", "a", 2200), JumpHop("::1", "", 22))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "ssh",
        "ssh -p notaport root@h",
        "ssh -p 70000 root@h",
        "ssh root@h uptime",
        "ssh -o ProxyCommand='nc %h %p' root@h",
        "ssh 'root@h;rm -rf /'",
        "ssh -p",
        "ssh -Z root@h",
        "ssh 'bad user@h'",
        "ssh 'unterminated",
    ],
)
def test_refuses_what_cannot_work(text):
    with pytest.raises(InputError) as ei:
        parse_ssh_command(text)
    assert ei.value.code == "BadSshCommand"
    assert "ssh -p 12345" in ei.value.hint()


def test_command_round_trip():
    t = parse_ssh_command("ssh -p 12345 -i '/keys/my key' -J j root@h")
    assert parse_ssh_command(t.command()) == t
    assert parse_ssh_command("ssh -p 22 root@h").command() == "ssh root@h"


def test_record_from_command_vpn_uses_private_address():
    rec = record_from_command("lab", "ssh -p 2222 alice@10.8.0.1", via_vpn="uni")
    assert (rec.connect_address, rec.via_vpn, rec.effective_port, rec.address) == (
        "10.8.0.1",
        "uni",
        2222,
        "alice@10.8.0.1:2222",
    )
    assert record_from_command("k", "ssh -i k.pem u@h").auth == "key"
    with pytest.raises(InputError):
        record_from_command("bad name", "ssh u@h")


@pytest.mark.parametrize(
    ("text", "host", "family"),
    [
        ("ssh -6 root@gpu.example.com", "gpu.example.com", "inet6"),
        ("ssh root@gpu.example.com -4", "gpu.example.com", "inet"),  # after the destination too
        ("ssh -4 -6 h", "h", "inet6"),  # the last flag wins
        ("ssh -o AddressFamily=inet6 -4 h", "h", "inet"),  # a flag beats -o, before or after it
        ("ssh -4 -o AddressFamily=inet6 h", "h", "inet"),
        ("ssh -o AddressFamily=inet -o AddressFamily=inet6 h", "h", "inet"),  # the first -o wins
        ("ssh -o AddressFamily=any h", "h", ""),
        ("ssh -6 127.1", "127.1", "inet6"),  # no IPv6 address: kept as written, as ssh -G shows
        ("ssh -4 127.1", "127.0.0.1", "inet"),
        ("ssh -4 root@::FFFF:1.2.3.4", "1.2.3.4", "inet"),
        ("ssh -vp2222 -6C h", "h", "inet6"),  # in a cluster
    ],
)
def test_address_family_is_kept_as_openssh_reads_it(text, host, family):
    t = parse_ssh_command(text)
    assert (t.host, t.address_family) == (host, family)
    assert parse_ssh_command(t.command()) == t  # "Copy SSH command" keeps -4/-6
    assert record_from_command("h", text).address_family == family


def test_a_bad_address_family_is_refused():
    with pytest.raises(InputError) as ei:
        parse_ssh_command("ssh -o AddressFamily=ipv6 h")
    assert "has a value ssh refuses" in ei.value.text()
