"""Profiles that try to smuggle root code past LabGPU's check, against the REAL OpenVPN.

Each trick is first shown to be real: plain ``openvpn --config`` (in the test's client network
namespace, against the lab server of tests/fixtures/openvpn.py) runs the hidden ``up`` command,
which creates a marker file. Then LabGPU must refuse the same file, naming the offending lines
(number and text), store nothing, and — for profiles it accepts after removing what it controls —
bring the tunnel up with nothing run and nothing written.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from app.core import secrets
from app.core.ovpn_parse import read_config
from app.core.paths import default_paths
from app.core.vpnprofiles import ProfileError, UnsafeProfileError, load_ovpn, parse_ovpn
from app.remote.vpn import CONNECTED, VpnError, VpnManager

pytestmark = pytest.mark.netns


def _blocks(lab, key_file: str = "client.key") -> dict[str, str]:
    p = lab.pki
    return {
        "ca": (p / "ca.crt").read_text().strip(),
        "cert": (p / "client.crt").read_text().strip(),
        "key": (p / key_file).read_text().strip(),
        "tls-crypt": (p / "tc.key").read_text().strip(),
    }


def _header(lab) -> list[str]:
    return [
        "client",
        "dev tun",
        "proto udp",
        f"remote {lab.server_ip} {lab.port}",
        "nobind",
        "remote-cert-tls server",
        "disable-dco",
        "connect-retry 1 2",
        "tls-timeout 1",
        "verb 3",
    ]


def _up(marker: Path) -> str:
    return f"up \"/bin/sh -c 'echo ran > {marker}'\""


def _profile(lab, marker: Path, trick: str, *, raw_auth: bool) -> str:
    """The lab's client profile with ``trick`` (``{UP}`` = the marker-writing up line) inside."""
    b = _blocks(lab, "client.key" if raw_auth else "client-enc.key")
    parts = [*_header(lab)]
    if raw_auth:  # plain openvpn has no keyring: credentials inline
        parts += ["<auth-user-pass>", lab.username, lab.password, "</auth-user-pass>"]
    else:
        parts.append("auth-user-pass")
    parts += ["<cert>", b["cert"], "</cert>", "<key>", b["key"], "</key>"]
    parts += ["<tls-crypt>", b["tls-crypt"], "</tls-crypt>"]
    text = "\n".join(parts) + "\n" + trick.replace("{CA}", b["ca"]).replace("{UP}", _up(marker))
    if "{CA}" not in trick:
        text += "<ca>\n" + b["ca"] + "\n</ca>\n"
    return text


# Each trick hides "script-security 2" and the marker-writing "up" from a reader that does not
# read the file exactly as OpenVPN does.
TRICKS = {
    # The reported hole: OpenVPN ends <ca> at a line merely STARTING with </ca>; a reader that
    # waits for an exact "</ca>" line sees the rest as certificate text. The exact "</ca>" that
    # closes it for such a reader sits inside a <dh> block, which a client never loads.
    "close-tag-prefix": "<ca>\n{CA}\n</ca>xyz\nscript-security 2\n{UP}\n<dh>\n</ca>\n</dh>\n",
    # The same with the block's end hidden at a 255-byte piece of a long line (fgets pieces).
    "close-tag-at-255-bytes": (
        "<ca>\n{CA}\n</ca>\n<dh>\n" + "A" * 255 + "</dh>\nscript-security 2\n{UP}\n<dh>\n</dh>\n"
    ),
    "crlf": "script-security 2\r\n{UP}\r\n",
    "double-dash": "--script-security 2\n--{UP}\n",
    "quoted-names": '\'script-security\' "2"\n"up" "/bin/sh -c \'echo ran > {M}\'"\n',
    "comments": "; harmless\nscript-security 2 # needed\n   {UP} ; trailing comment\n",
    "setenv-opt": "setenv opt script-security 2\nsetenv opt {UP}\n",
    "inline-opener-quoted": '"<ca>"\n{CA}\n</ca>\nscript-security 2\n{UP}\n',
}


def _run_plain_openvpn(lab, config: Path, marker: Path, timeout: float = 40) -> str:
    """Plain openvpn in the client namespace until the marker appears or it exits; its output."""
    out = config.with_suffix(".log")
    with open(out, "wb") as f:
        proc = subprocess.Popen(
            lab.in_client(["openvpn", "--config", str(config)]),
            stdin=subprocess.DEVNULL,
            stdout=f,
            stderr=subprocess.STDOUT,
            cwd=config.parent,
        )
    try:
        deadline = time.monotonic() + timeout
        while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
    return out.read_text(errors="replace")


@pytest.fixture
def manager(vpn_lab, secret_service):
    mgr = VpnManager(default_paths(), netns=vpn_lab.cli_ns)
    yield mgr
    for prof in mgr.profiles():
        mgr.remove_profile(prof.name)
    for what in ("username", "password", "key_passphrase"):
        secrets.delete_secret(f"vpn:lab:{what}")


@pytest.mark.parametrize("trick", sorted(TRICKS))
def test_trick_is_real_in_openvpn_and_refused_by_labgpu(vpn_lab, manager, tmp_path, trick):
    marker = tmp_path / "ran-as-root"
    body = TRICKS[trick].replace("{M}", str(marker))
    raw = tmp_path / "raw.ovpn"
    raw.write_text(_profile(vpn_lab, marker, body, raw_auth=True), newline="")
    output = _run_plain_openvpn(vpn_lab, raw, marker)
    assert marker.exists(), f"the trick does not work in OpenVPN itself:\n{output[-3000:]}"
    marker.unlink()

    evil = tmp_path / "evil.ovpn"
    evil.write_text(_profile(vpn_lab, marker, body, raw_auth=False), newline="")
    with pytest.raises(UnsafeProfileError) as info:
        manager.add_profile("lab", evil)
    text = evil.read_bytes().decode()
    lines = text.replace("\r\n", "\n").split("\n")
    up_no = next(i for i, ln in enumerate(lines, 1) if "ran >" in ln and "dh" not in ln)
    shown = info.value.text()
    assert f"line {up_no}: " in shown, shown
    assert "script-security" in shown and "/bin/sh -c" in shown
    assert manager.profiles() == []
    assert not any((default_paths().data_dir / "vpn" / "profiles").glob("*.ovpn"))
    assert not marker.exists()


def test_old_stored_profile_with_a_smuggled_up_is_not_started(vpn_lab, manager, tmp_path):
    """A profile stored by an older LabGPU (whose reader missed the trick) is checked again
    before each start: openvpn is never started with it, and the marker never appears."""
    marker = tmp_path / "ran-as-root"
    manager.add_profile(
        "lab",
        vpn_lab.ovpn_path,
        username=vpn_lab.username,
        password=vpn_lab.password,
        key_passphrase=vpn_lab.key_passphrase,
    )
    stored = default_paths().data_dir / "vpn" / "profiles" / "lab.ovpn"
    stored.write_text(_profile(vpn_lab, marker, TRICKS["close-tag-prefix"], raw_auth=False))
    meta = json.loads(stored.with_suffix(".json").read_text())
    assert meta["allow_scripts"] is False
    with pytest.raises(VpnError) as info:
        manager.up("lab", timeout=30)
    assert info.value.code == "VpnProfileRecheck"
    assert "script-security 2" in info.value.text()
    assert vpn_lab.client_pids() == []
    assert not marker.exists()


def test_accepted_profile_runs_nothing_and_writes_nothing(vpn_lab, manager, tmp_path):
    """BOM, CRLF, comments, "--" prefixes and quoting are read like OpenVPN reads them; the
    directives LabGPU controls (log, status, writepid, management, daemon) are removed, so the
    tunnel comes up and none of their files is ever written."""
    written = {n: tmp_path / n for n in ("log-file", "log-append-file", "status-file", "pid-file")}
    extra = (
        "; a comment\n"
        "# another\n"
        f"--log {written['log-file']}\n"
        f"log-append '{written['log-append-file']}'\n"
        f'"status" "{written["status-file"]}" 1\n'
        f"writepid {written['pid-file']}\n"
        "management 127.0.0.1 7505\n"
        "daemon\n"
        "script-security 1\n"
        "setenv UV_LAB labgpu\n"
        "verb 3 # trailing comment\n"
    )
    text = "\ufeff" + vpn_lab.client_profile(extra=extra).replace("\n", "\r\n")
    ovpn = tmp_path / "lab.ovpn"
    ovpn.write_text(text, newline="")
    manager.add_profile(
        "lab",
        ovpn,
        username=vpn_lab.username,
        password=vpn_lab.password,
        key_passphrase=vpn_lab.key_passphrase,
    )
    stored = (default_paths().data_dir / "vpn" / "profiles" / "lab.ovpn").read_bytes()
    names = {d.name for d in read_config(stored)}
    assert not names & {"log", "log-append", "status", "writepid", "management", "daemon"}
    assert {"script-security", "setenv", "verb", "remote", "ca", "key"} <= names
    # directive lines are rewritten (no CR, no BOM); inline bodies are kept byte for byte
    assert b"\r" not in stored.split(b"<ca>")[0] and not stored.startswith(b"\xef\xbb\xbf")
    assert str(tmp_path).encode() not in stored
    st = manager.up("lab", timeout=60)
    try:
        assert st.state == CONNECTED
        assert [p for p in written.values() if p.exists()] == []
    finally:
        manager.down("lab")


@pytest.mark.parametrize(
    ("line", "what"),
    [
        ("providers /tmp/labgpu-evil.so", "loads a library"),
        ("providers legacy /tmp/labgpu-evil.so", "loads a library"),
        ("engine dynamic", "loads an engine"),
        ("pkcs11-providers /tmp/labgpu-evil.so", "loads a library"),
        ("replay-persist /etc/labgpu-replay", "writes a file"),
        ("tls-export-cert /tmp", "writes files"),
        ("iproute /tmp/evil-ip", "runs a program"),
        ("plugin /tmp/labgpu-evil.so", "loads a library"),
        ("script-security 3", "allows scripts"),
        ("setenv LD_PRELOAD /tmp/labgpu-evil.so", "dangerous environment"),
        ("auth-user-pass-verify /bin/true via-env", "runs a program"),
        ("tls-verify /bin/true", "runs a program"),
        ("http-proxy 10.0.0.1 3128 /etc/shadow", "reads a root-only file and sends it"),
        ("dev-node /dev/sda", "opens a device"),
        ("some-future-option 1", "unknown"),
    ],
)
def test_loaders_writers_and_unknown_directives_are_refused_with_the_line(vpn_lab, line, what):
    text = vpn_lab.client_profile(extra=line)
    no = text.split("\n").index(line) + 1
    with pytest.raises(UnsafeProfileError) as info:
        parse_ovpn(text)
    assert info.value.lines == [f"{no}: {line}"], what
    assert f"line {no}: {line}" in info.value.text()


def test_providers_with_a_path_is_a_real_library_load_in_openvpn(vpn_lab, tmp_path):
    """Why ``providers PATH`` is refused: OpenVPN hands the path to OpenSSL to load as code."""
    lib = tmp_path / "labgpu-evil-provider.so"
    cfg = tmp_path / "p.ovpn"
    cfg.write_text(_profile(vpn_lab, tmp_path / "m", f"providers {lib}\n", raw_auth=True))
    out = _run_plain_openvpn(vpn_lab, cfg, tmp_path / "never", timeout=20)
    assert str(lib) in out  # OpenSSL tried to load it (and failed only because it does not exist)
    with pytest.raises(UnsafeProfileError):
        parse_ovpn(cfg.read_text())


@pytest.mark.parametrize(
    ("tail", "code"),
    [
        ("<dh>\nnever closed\n", "VpnProfileBlock"),
        ("<up>\n/bin/true\n</up>\n", "VpnProfileBlock"),
        ("config /etc/openvpn/other.conf\n", "VpnProfileRefused"),
        ("remote-random\n# " + "x" * 260 + "\nscript-security 2\n", "VpnProfileSyntax"),
        ('up "/bin/sh -c \\x"\n', "VpnProfileSyntax"),
        ("script-security 2 'unterminated\n", "VpnProfileSyntax"),
    ],
)
def test_profiles_openvpn_itself_refuses_are_refused(vpn_lab, tail, code):
    with pytest.raises(ProfileError) as info:
        parse_ovpn(vpn_lab.client_profile() + tail, allow_scripts=True)
    assert info.value.code == code


def test_a_referenced_file_cannot_smuggle_directives_into_the_rewritten_profile(tmp_path):
    """``ca evil.crt`` is inlined; a line in that file starting with ``</ca>`` would end the
    block in the rewritten profile and turn the rest into directives — refused instead."""
    (tmp_path / "evil.crt").write_text("MIIB\n</ca>\nscript-security 2\nup /tmp/x\n<ca>\nMIIB\n")
    ovpn = tmp_path / "lab.ovpn"
    ovpn.write_text("client\nremote 10.0.0.1\nca evil.crt\n")
    with pytest.raises(ProfileError) as info:
        load_ovpn(ovpn, allow_scripts=True)
    assert "line 3" in info.value.text()


@pytest.mark.parametrize("ref", ["/dev/zero", "/dev/stdin", "fifo", "folder"])
def test_referenced_files_must_be_regular_files(tmp_path, ref):
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "folder").mkdir()
    ovpn = tmp_path / "lab.ovpn"
    ovpn.write_text(f"client\nremote 10.0.0.1\nca {ref}\n")
    with pytest.raises(ProfileError) as info:
        load_ovpn(ovpn)
    assert info.value.code == "VpnProfileFile"
