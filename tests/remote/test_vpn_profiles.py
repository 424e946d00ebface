"""The .ovpn import rules (app.core.vpnprofiles) and the privilege/diagnosis logic of app.remote.vpn.

The parser is pure; the privilege and tun-permission checks run real processes as a real
unprivileged user (``labgpu-test`` from tests/fixtures/sshd.py), which is what a student's
desktop session looks like.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.core.errors import InputError
from app.core.vpnprofiles import (
    ProfileError,
    Remote,
    UnsafeProfileError,
    load_ovpn,
    parse_ovpn,
    secret_key,
    validate_profile_name,
)
from app.remote.vpn import VpnError, diagnose_log, parse_state_fields, privilege_plan

CA = "-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----"
KEY = "-----BEGIN PRIVATE KEY-----\nMIGHplain\n-----END PRIVATE KEY-----"
ENC_KEY = "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIHsecret\n-----END ENCRYPTED PRIVATE KEY-----"
LEGACY_ENC = (
    "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,00\n\nMHc\n"
    "-----END EC PRIVATE KEY-----"
)


def _profile(*lines: str, key: str = KEY) -> str:
    return (
        "\n".join(
            [
                "client",
                "dev tun",
                "proto udp",
                "remote vpn.example.edu 1194",
                *lines,
                "<ca>",
                CA,
                "</ca>",
                "<key>",
                key,
                "</key>",
            ]
        )
        + "\n"
    )


def test_plain_profile_keeps_inline_blocks_and_needs_nothing():
    p = parse_ovpn(_profile())
    assert p.remotes == [Remote("vpn.example.edu", 1194, "udp")]
    assert not p.needs_auth
    assert not p.needs_key_passphrase
    assert "<ca>\n" + CA + "\n</ca>" in p.text
    assert p.dangerous == []


def test_auth_user_pass_file_is_dropped_and_credentials_come_from_the_keyring():
    p = parse_ovpn(_profile("auth-user-pass /home/me/creds.txt"))
    assert p.needs_auth
    assert "creds.txt" not in p.text
    assert "\nauth-user-pass\n" in p.text
    inline = parse_ovpn(_profile("<auth-user-pass>", "alice", "hunter2", "</auth-user-pass>"))
    assert inline.needs_auth
    assert "hunter2" not in inline.text


@pytest.mark.parametrize("key", [ENC_KEY, LEGACY_ENC])
def test_encrypted_private_key_needs_passphrase(key):
    assert parse_ovpn(_profile(key=key)).needs_key_passphrase


def test_askpass_means_key_passphrase_and_is_stripped():
    p = parse_ovpn(_profile("askpass /etc/pass.txt"))
    assert p.needs_key_passphrase
    assert "askpass" not in p.text


def test_directives_labgpu_controls_are_stripped():
    p = parse_ovpn(
        _profile(
            "management 127.0.0.1 7505",
            "daemon",
            "log /tmp/x.log",
            "writepid /tmp/p",
            "auth-nocache",
            "status /tmp/s",
        )
    )
    for word in ("management", "daemon", "log /tmp", "writepid", "status /tmp"):
        assert word not in p.text
    assert set(p.stripped) >= {"management", "daemon", "log", "writepid", "auth-nocache", "status"}


@pytest.mark.parametrize(
    "line",
    [
        "up /etc/openvpn/update-resolv-conf",
        "down /x.sh",
        "script-security 2",
        "plugin /usr/lib/openvpn/openvpn-plugin-down-root.so /x",
        "route-up '/bin/sh x'",
        "tls-verify /bin/check",
        "--up /x.sh",
    ],
)
def test_programs_need_explicit_confirmation(line):
    with pytest.raises(UnsafeProfileError) as info:
        parse_ovpn(_profile(line))
    assert info.value.dangerous == [line]
    assert info.value.code == "VpnUnsafeProfile"
    assert line in info.value.text()
    allowed = parse_ovpn(_profile(line), allow_scripts=True)
    # kept, rewritten from what was checked (quotes and a leading "--" normalised)
    assert line.split()[0].lstrip("-") in [d.name for d in allowed.directives]
    assert allowed.dangerous == [line]


@pytest.mark.parametrize(
    "line",
    ["config other.conf", "server 10.8.0.0 255.255.255.0", "mode server", "cd /etc", "chroot /var/empty"],
)
def test_never_acceptable_directives_are_refused(line):
    with pytest.raises(ProfileError) as info:
        parse_ovpn(_profile(line), allow_scripts=True)
    assert info.value.code == "VpnProfileRefused"


def test_file_references_are_inlined_relative_to_the_profile(tmp_path):
    (tmp_path / "ca.crt").write_text(CA + "\n")
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "me.key").write_text(ENC_KEY + "\n")
    (tmp_path / "ta.key").write_text(
        "-----BEGIN OpenVPN Static key V1-----\nab\n-----END OpenVPN Static key V1-----\n"
    )
    ovpn = tmp_path / "lab.ovpn"
    ovpn.write_text("client\nremote 10.0.0.1 443 tcp\nca ca.crt\nkey keys/me.key\ntls-auth ta.key 1\n")
    p = load_ovpn(ovpn)
    assert p.needs_key_passphrase
    assert p.remotes == [Remote("10.0.0.1", 443, "tcp")]
    assert "<ca>\n" + CA + "\n</ca>" in p.text
    assert "key-direction 1\n<tls-auth>" in p.text
    assert "ca ca.crt" not in p.text
    assert sorted(p.inlined) == ["ca ca.crt", "key keys/me.key", "tls-auth ta.key"]


def test_missing_referenced_file_is_a_clear_error(tmp_path):
    ovpn = tmp_path / "lab.ovpn"
    ovpn.write_text("client\nremote 10.0.0.1\nca missing.crt\n")
    with pytest.raises(ProfileError) as info:
        load_ovpn(ovpn)
    assert info.value.code == "VpnProfileFile"
    assert "missing.crt" in info.value.text()
    assert "next to the .ovpn" in info.value.hint()


def test_default_port_and_proto_apply_to_remotes():
    p = parse_ovpn("client\nport 1195\nproto tcp-client\nremote a.example\nremote b.example 443 udp\n")
    assert p.remotes == [Remote("a.example", 1195, "tcp-client"), Remote("b.example", 443, "udp")]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("client\ndev tun\n", "VpnProfileNoRemote"),
        ("client\nremote a\n<ca>\nxx\n", "VpnProfileBlock"),
        ("client\nremote a\n<bogus>\nx\n</bogus>\n", "VpnProfileBlock"),
        ("client\nremote a\n\x00\x01", "VpnProfileBinary"),
        ("client\nremote a\n<connection>\nremote b\n</connection>\n", "VpnProfileConnection"),
    ],
)
def test_broken_profiles(text, code):
    with pytest.raises(ProfileError) as info:
        parse_ovpn(text)
    assert info.value.code == code


def test_profile_names_and_secret_keys():
    assert validate_profile_name("lab-vpn_2.eu") == "lab-vpn_2.eu"
    for bad in ("", "../x", "a b", "-x", "x" * 49, "名字"):
        with pytest.raises(InputError):
            validate_profile_name(bad)
    assert secret_key("lab", "password") == "vpn:lab:password"


def test_state_lines():
    st = parse_state_fields("1796216666,CONNECTED,SUCCESS,10.8.0.2,10.99.1.1,1194,,")
    assert st.state == "CONNECTED"
    assert st.is_up
    assert (st.local_ip, st.remote, st.since) == ("10.8.0.2", "10.99.1.1:1194", 1796216666.0)
    assert (
        parse_state_fields("1796216666,RECONNECTING,server-pushed-connection-reset,,,,,").message
        == "server-pushed-connection-reset"
    )


def test_privileges_per_os():
    assert privilege_plan("/usr/sbin/openvpn", euid=0, platform="linux").method == "root"
    assert privilege_plan("/x", netns="ns1").prefix == ("ip", "netns", "exec", "ns1")
    with pytest.raises(VpnError) as win:
        privilege_plan("C:/OpenVPN/bin/openvpn.exe", platform="win32")
    assert "interactive service" in win.value.hint()
    with pytest.raises(VpnError) as mac:
        privilege_plan("/opt/homebrew/sbin/openvpn", platform="darwin")
    assert "Tunnelblick" in mac.value.hint()


def _as_test_user(argv: list[str], env: dict[str, str], cwd: str) -> subprocess.CompletedProcess:
    from tests.fixtures.sshd import TEST_USER, ensure_test_user

    ensure_test_user()
    try:
        return subprocess.run(
            ["setpriv", "--reuid", TEST_USER, "--regid", TEST_USER, "--clear-groups", *argv],
            capture_output=True,
            text=True,
            env=env,
            cwd=cwd,
            timeout=120,  # an upper bound: a cold CLI start as a user who cannot write bytecode, on a busy machine
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"{argv[2:]} as {TEST_USER} did not end within 120 s; its output so far:\n"
                    f"{exc.stdout!r}\n{exc.stderr!r}")


@pytest.fixture
def user_dir():
    """A folder the unprivileged user can reach (pytest's tmp_path is private to root)."""
    import tempfile

    d = Path(tempfile.mkdtemp(prefix="labgpu-vpn-user-"))
    d.chmod(0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)


def test_unprivileged_user_gets_a_clear_next_step(vpn_lab, user_dir):
    """A real non-root user, no pkexec on this machine: `vpn up` says what to do instead."""
    tmp_path = user_dir
    home = tmp_path / "home"
    home.mkdir()
    ovpn = home / "certonly.ovpn"
    ovpn.write_text(vpn_lab.client_profile(key_file="client.key", auth=False))
    from tests.fixtures.sshd import ensure_test_user

    pw = ensure_test_user()
    for p in (tmp_path, home, ovpn):
        os.chown(p, pw.pw_uid, pw.pw_gid)
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "LABGPU_HOME": str(home / "lg"),
        "LC_ALL": "C.UTF-8",
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    root = str(Path(__file__).resolve().parents[2])
    r = _as_test_user([sys.executable, "-m", "app", "vpn", "add", "cert", str(ovpn)], env, root)
    assert r.returncode == 0, _what_the_user_saw(r, home)
    r = _as_test_user([sys.executable, "-m", "app", "vpn", "up", "cert"], env, root)
    assert r.returncode == 2, _what_the_user_saw(r, home)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, _what_the_user_saw(r, home)
    if shutil.which("pkexec"):
        pytest.fail("this machine has pkexec: the test expects the documented no-pkexec path")
    assert "[VpnNoPrivileges]" in lines[0], _what_the_user_saw(r, home)
    assert "nmcli connection import type openvpn file" in lines[0]


def _what_the_user_saw(r: subprocess.CompletedProcess, home: Path) -> str:
    """Everything a failure needs (it failed only in full runs on a loaded machine): the command's
    exit status and output, and what earlier tests could have left for the same user."""
    from tests.fixtures.sshd import TEST_USER

    procs = subprocess.run(["ps", "-u", TEST_USER, "-o", "pid,etimes,args"], capture_output=True, text=True).stdout
    files = sorted(str(p.relative_to(home)) for p in home.rglob("*"))[:60]
    tmp = sorted(p.name for p in Path("/tmp").glob("labgpu-vpn-*"))[:20]
    return (f"exit {r.returncode}\nstdout:\n{r.stdout[-3000:]}\nstderr:\n{r.stderr[-3000:]}\n"
            f"{TEST_USER}'s processes:\n{procs[-3000:]}\nfiles in its home: {files}\n/tmp/labgpu-vpn-*: {tmp}\n"
            f"pkexec: {shutil.which('pkexec')}")


def test_real_openvpn_without_rights_is_diagnosed(vpn_lab):
    """What openvpn prints when a normal user asks for a tun device maps to the privileges message.
    (``--mktun`` opens no connection: no traffic at all, and inside the client namespace anyway.)"""
    from tests.fixtures.sshd import TEST_USER, ensure_test_user

    ensure_test_user()
    r = subprocess.run(
        vpn_lab.in_client(
            [
                "setpriv",
                "--reuid",
                TEST_USER,
                "--regid",
                TEST_USER,
                "--clear-groups",
                "/usr/sbin/openvpn",
                "--mktun",
                "--dev",
                "tun7",
            ]
        ),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert r.returncode != 0
    err = diagnose_log(r.stdout + r.stderr)
    assert err is not None, r.stdout[-2000:]
    assert err.code == "VpnNoPrivileges"
    assert "pkexec" in err.hint()


def test_socket_path_falls_back_to_a_private_tmp_folder_when_too_long(tmp_path):
    from app.core.paths import Paths
    from app.remote.vpn import VpnManager

    deep = tmp_path / ("d" * 60) / ("e" * 60)
    mgr = VpnManager(Paths(deep / "c", deep / "data", deep / "cache", deep / "log"), netns="")
    asked = mgr.socket_path("lab")
    assert not asked.parent.exists(), "asking whether a profile runs leaves no folder in /tmp"
    assert not mgr.is_running("lab") and not asked.parent.exists()
    sock = mgr.socket_path("lab", create=True)
    assert sock == asked
    assert len(str(sock)) <= 100
    assert sock.parent.name.startswith("labgpu-vpn-0-")
    assert sock.parent.stat().st_mode & 0o777 == 0o700
    assert mgr.socket_path("lab") == sock, "stable: status/down find the same socket later"
    sock.parent.chmod(0o777)
    try:
        with pytest.raises(VpnError) as info:
            mgr.socket_path("lab")
        assert info.value.code == "VpnSocketDir"
    finally:
        shutil.rmtree(sock.parent)
    short = VpnManager(Paths(tmp_path / "c", tmp_path / "d", tmp_path / "k", tmp_path / "l"), netns="")
    assert short.socket_path("lab") == tmp_path / "d" / "runtime" / "vpn" / "lab.sock"


def test_openvpn_missing_says_how_to_install(tmp_path):
    from app.remote.vpn import find_openvpn

    not_exec = tmp_path / "openvpn"
    not_exec.write_text("#!/bin/sh\n")
    with pytest.raises(VpnError) as info:
        find_openvpn([str(tmp_path / "nope"), str(not_exec)])
    assert info.value.code == "VpnOpenvpnMissing"
    assert "apt install openvpn" in info.value.hint()
    assert os.access(find_openvpn(), os.X_OK)
