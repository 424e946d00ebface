"""Property tests for the SSH command parser, with the real OpenSSH client as the reference.

Thousands of generated command lines: the parser either accepts one or refuses it with LabGPU's own
InputError (never another exception). For accepted lines, what LabGPU saves (user, host, port, key,
jump, address family) is what ``ssh -G`` (OpenSSH's own reading of the same argv, without any config file) says.
"""

from __future__ import annotations

import os
import pwd
import shlex
import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.core.errors import InputError, LabGpuError
from app.core.sshcmd import SshTarget, parse_ssh_command  # noqa: F401

SSH = shutil.which("ssh")
if SSH is None:  # a skip is not a pass: the README's test set-up installs openssh-client
    pytest.fail("the OpenSSH client is needed as the reference: apt-get install openssh-client",
                pytrace=False)
LOCAL_USER = pwd.getpwuid(os.getuid()).pw_name

_hosts = st.one_of(
    st.sampled_from([
        "h", "gpu-1.example.com", "Region-1.Example.COM", "10.0.0.5", "2001:db8::7", "::1", "[::1]",
        "[2001:db8::7]", "host:22", "-bad", "a_b", "fe80::1%eth0", "UPPER", "h;rm", "", "x y", "h.",
        "*", "?",
    ]),
    st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,20}", fullmatch=True),
)
_users = st.one_of(
    st.sampled_from(["root", "ubuntu", "a.b", "x-y", "", "bad user", "a@b", "-l", "$(id)"]),
    st.from_regex(r"[a-z_][a-z0-9_.-]{0,10}", fullmatch=True),
)
_ports = st.one_of(
    st.integers(-5, 70000).map(str),
    st.sampled_from(["abc", "+22", "022", " 22", "0x10", "２２", "", "2_2", "22 "]),
)
_keys = st.sampled_from(["~/.ssh/lab.pem", "/keys/my key", "k.pem", "%d/key", "${HOME}/k", "-i", "id",
                         "/etc/hostname", "/etc/passwd"])
_jumps = st.one_of(
    st.sampled_from(["none", "j1", "me@bastion:2200", "a@j1:2200,[::1]:22", "j1,j2", "[::1]", "2001:db8::1",
                     "ssh://u@j:22", "@j", "j:0", "j:abc"]),
    st.builds(lambda u, h, p: f"{u}@{h}:{p}" if u else f"{h}:{p}", _users, _hosts, _ports),
)
_o_keywords = st.sampled_from([
    "Port", "User", "IdentityFile", "ProxyJump", "HostName", "ProxyCommand", "LocalCommand",
    "PermitLocalCommand", "StrictHostKeyChecking", "UserKnownHostsFile", "ServerAliveInterval",
    "Compression", "LogLevel", "RequestTTY", "ControlPath", "Include", "Match", "port", "USER",
    "ConnectTimeout", "ForwardAgent", "KnownHostsCommand", "SetEnv", "Banana", "AddressFamily", "addressfamily",
])
_o_values = st.one_of(_ports, _users, _hosts, _keys, st.sampled_from(
    ["yes", "no", "ask", "accept-new", "30", "/dev/null", "nc %h %p", "quiet", "force", "\"a b\"", "none",
     "inet", "inet6", "any", "INET6", "ipv6"]))
_o_option = st.builds(
    lambda k, sep, v, attached: (["-o" + k + sep + v] if attached else ["-o", k + sep + v]),
    _o_keywords, st.sampled_from(["=", " ", " = ", "="]), _o_values, st.booleans(),
)
_forwards = st.sampled_from(["8888:localhost:8888", "127.0.0.1:6006:localhost:6006", "8080", "x:y", "70000:h:1",
                             "[::1]:8888:h:22", "1:h:0"])
_letter_option = st.builds(
    lambda letter, value, attached: ([f"-{letter}{value}"] if attached and value else [f"-{letter}", value]),
    st.sampled_from(list("piJlLRDFbcemEIOQSWwP")),
    st.one_of(_ports, _users, _keys, _jumps, _forwards, _hosts),
    st.booleans(),
)
_specific = st.one_of(
    st.builds(lambda p: ["-p", p], _ports),
    st.builds(lambda u: ["-l", u], _users),
    st.builds(lambda k: ["-i", k], _keys),
    st.builds(lambda j: ["-J", j], _jumps),
    st.builds(lambda f: ["-L", f], _forwards),
)
_flags = st.text(alphabet="46AaCfgkNnqTtvXxYyGVMsK1Z", min_size=1, max_size=3).map(lambda s: ["-" + s])
_option = st.one_of(_flags, _letter_option, _o_option, _specific, _specific)
_dest = st.one_of(
    _hosts,
    st.builds(lambda u, h: f"{u}@{h}", _users, _hosts),
    st.builds(lambda u, h, p: f"ssh://{u}@{h}:{p}", _users, _hosts, _ports),
    st.builds(lambda h, p: f"ssh://{h}:{p}", _hosts, _ports),
)


@st.composite
def ssh_argvs(draw: st.DrawFn) -> list[str]:
    before = [t for opt in draw(st.lists(_option, max_size=4)) for t in opt]
    after = [t for opt in draw(st.lists(_option, max_size=2)) for t in opt]
    tail = draw(st.sampled_from([[], [], [], ["uptime"], ["--"], ["--", "ls"]]))
    dashdash = draw(st.sampled_from([[], [], ["--"]]))
    return [*before, *dashdash, draw(_dest), *after, *tail]


_ok_hosts = st.one_of(st.sampled_from(["h", "gpu-1.example.com", "Region-1.Example.COM", "10.0.0.5", "2001:db8::7",
                                         "::1", "127.1", "0", "2001:0DB8::0007", "2001:DB8::7", "::FFFF:1.2.3.4"]),
                      st.from_regex(r"[a-z][a-z0-9-]{0,12}(\.[a-z]{2,5}){0,2}", fullmatch=True))
_ok_users = st.from_regex(r"[a-z_][a-z0-9_.-]{0,10}", fullmatch=True)
_ok_ports = st.integers(1, 65535).map(str)
_ok_option = st.one_of(
    st.builds(lambda p, a: [f"-p{p}"] if a else ["-p", p], _ok_ports, st.booleans()),
    st.builds(lambda u: ["-l", u], _ok_users),
    st.builds(lambda k, v: ["-o", f"{k}={v}"], st.sampled_from(["Port", "port", "PORT"]), _ok_ports),
    st.builds(lambda v: ["-o", f"User {v}"], _ok_users),
    st.builds(lambda v: ["-o", f"ServerAliveInterval={v}"], st.integers(0, 999).map(str)),
    st.builds(lambda v: ["-o", f"StrictHostKeyChecking={v}"], st.sampled_from(["yes", "no", "accept-new"])),
    st.builds(lambda f: ["-L", f], st.sampled_from(["8888:localhost:8888", "127.0.0.1:6006:localhost:6006"])),
    st.builds(lambda j: ["-J", j], st.sampled_from(["j1", "me@bastion:2200", "a@j1:2200,[::1]:22"])),
    st.builds(lambda k: ["-i", k], st.sampled_from(["/etc/hostname", "~/.ssh/none.pem"])),
    st.text(alphabet="ACqtTvNnXxYyk46", min_size=1, max_size=3).map(lambda s: ["-" + s]),
    st.builds(lambda v: ["-o", f"AddressFamily={v}"], st.sampled_from(["any", "inet", "inet6", "Inet6"])),
)
_ok_dest = st.one_of(
    _ok_hosts,
    st.builds(lambda u, h: f"{u}@{h}", _ok_users, _ok_hosts),
    st.builds(lambda u, h, p: f"ssh://{u}@{h if ':' not in h else '[' + h + ']'}:{p}", _ok_users, _ok_hosts, _ok_ports),
)


@st.composite
def valid_ssh_argvs(draw: st.DrawFn) -> list[str]:
    """Mostly command lines a provider could print: options before and after the destination."""
    before = [t for opt in draw(st.lists(_ok_option, max_size=4)) for t in opt]
    after = [t for opt in draw(st.lists(_ok_option, max_size=3)) for t in opt]
    return [*before, draw(_ok_dest), *after]


def _parse(argv: list[str]) -> SshTarget | None:
    error: InputError | None = None
    try:
        return parse_ssh_command(shlex.join(["ssh", *argv]))
    except InputError as exc:
        error = exc
    assert error.code == "BadSshCommand"
    assert error.text() and error.hint()
    return None


def ssh_g(argv: list[str]) -> tuple[int, dict[str, list[str]], str]:
    r = subprocess.run([SSH, "-F", "/dev/null", "-G", *argv], capture_output=True, text=True, timeout=30,
                       stdin=subprocess.DEVNULL)
    out: dict[str, list[str]] = {}
    for line in r.stdout.splitlines():
        k, _, v = line.partition(" ")
        out.setdefault(k, []).append(v)
    return r.returncode, out, r.stderr


@settings(max_examples=2000, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80))
def test_any_text_is_parsed_or_refused_with_labgpus_error(text: str) -> None:
    try:
        parse_ssh_command(text)
    except LabGpuError:
        pass


@settings(max_examples=2000, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(ssh_argvs())
def test_generated_command_lines_are_parsed_or_refused_with_labgpus_error(argv: list[str]) -> None:
    t = _parse(argv)
    if t is not None:
        assert t.host and not t.host.startswith("-")
        assert t.port is None or 1 <= t.port <= 65535
        again = parse_ssh_command(t.command())  # "Copy SSH command" gives back the same target
        assert (again.host, again.user, again.effective_port, again.key_path, again.jump) == (
            t.host, t.user, t.effective_port, t.key_path, t.jump)


def _agrees_with_openssh(argv: list[str]) -> None:
    t = _parse(argv)
    if t is None:
        return
    rc, g, err = ssh_g(argv)
    assert rc == 0, f"LabGPU accepted {argv!r}, OpenSSH refuses it: {err.strip()}"
    assert g["hostname"] == [t.host], argv
    assert g["user"] == [t.user or LOCAL_USER], argv
    assert g["port"] == [str(t.port or 22)], argv
    assert g["addressfamily"] == [t.address_family or "any"], argv
    if t.key_path:
        path = os.path.expanduser(t.key_path)
        if "not accessible" in err:  # OpenSSH drops a missing -i file with a warning; LabGPU finds no key there
            assert not os.path.exists(path), argv
        else:  # -i (expanded) or -o IdentityFile (shown as written) comes first
            assert g["identityfile"][0] in (t.key_path, path), argv
    if t.jump:
        assert g.get("proxyjump") == [t.jump_spec] or len(g.get("proxyjump", [])) == 1, argv


@settings(max_examples=250, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(ssh_argvs(), valid_ssh_argvs(), valid_ssh_argvs()))
@example(["-p", "6022", "root@2001:db8::7"])
@example(["root@region-1.example.com", "-p", "12345"])
@example(["-o", "Port=5", "-p", "6", "h"])
@example(["-l", "bob", "alice@h"])
@example(["alice@h", "-o", "User=x"])
@example(["-p", "1", "ssh://u@h:99"])
@example(["-vp22", "Host.EXAMPLE.com"])
@example(["127.1", "-6"])  # OpenSSH keeps "127.1" under -6 (resolved as IPv6 only, it is no address)
@example(["-4", "root@::FFFF:1.2.3.4"])  # under -4 the v4-mapped address becomes 1.2.3.4
@example(["-6", "-4", "-o", "AddressFamily=inet6", "h"])  # the last flag wins, -o does not override it
@example(["-o", "AddressFamily=inet", "-o", "AddressFamily=inet6", "h"])  # the first -o wins
@example(["-o", "AddressFamily=any", "-6", "2001:0db8::0007"])
@example(["-4", "2001:0DB8::0007", "-p", "22"])  # not an IPv4 address: kept as written
@example(["-vf", "h"])  # ssh: "Cannot fork into background without a command"
@example(["--", "ssh://gpu-1.example.com:22 "])
@example(["-oport 38027", "ssh://rwate@Oqh.:51235"])  # a URI host loses one trailing dot
@example(["-p", "1", "-oPort = accept-new", "h"])  # -o Port is checked even when -p already won
@example(["::1", "-J", "a@j1:2200,[::1]:22"])  # "jumphost loop"
@example(["root@::ffff:1.2.3.4"])
def test_accepted_command_lines_agree_with_ssh_G(argv: list[str]) -> None:
    _agrees_with_openssh(argv)


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["-F", "/tmp/other_config", "h"], "-F"),
        (["-o", "LocalCommand=touch /tmp/x", "h"], "LocalCommand"),
        (["-o", "PermitLocalCommand=yes", "h"], "PermitLocalCommand"),
        (["-o", "HostName=evil.example", "h"], "HostName"),
        (["-oControlPath=/tmp/c", "h"], "ControlPath"),
        (["-W", "h:22", "h"], "-W"),
        (["-o", "ProxyCommand=nc %h %p", "h"], "ProxyCommand"),
        (["[::1]"], "[::1]"),
    ],
)
def test_options_labgpu_cannot_honour_are_refused_by_name(argv: list[str], why: str) -> None:
    with pytest.raises(InputError) as ei:
        parse_ssh_command(shlex.join(["ssh", *argv]))
    assert why in ei.value.text()


def test_bare_ipv6_destination_is_read_as_openssh_reads_it() -> None:
    t = parse_ssh_command("ssh -p 6022 root@2001:db8::7")
    assert (t.user, t.host, t.port) == ("root", "2001:db8::7", 6022)
    assert t.command() == "ssh -p 6022 root@2001:db8::7"
    _agrees_with_openssh(["-p", "6022", "root@2001:db8::7"])


@pytest.mark.parametrize(
    "argv",
    [
        ["-p", "6022", "root@2001:db8::7"],
        ["root@2001:db8::7", "-p6022"],
        ["2001:db8::7"],
        ["-p", "6022", "2001:db8::7"],
        ["-l", "root", "2001:db8::7", "-p", "6022"],
        ["-o", "User=root", "-o", "Port=6022", "::1"],
        ["-p", "6022", "root@::"],
        ["root@2001:0db8:0:0::7"],  # made numeric: 2001:db8::7
        ["-p", "6022", "root@2001:DB8::7"],  # only the case differs: OpenSSH keeps it as written
        ["ABCD::1", "-l", "ubuntu"],
        ["root@::ffff:1.2.3.4"],
        ["root@::FFFF:102:304"],  # → ::ffff:1.2.3.4
        ["-J", "[::1]:2200", "ubuntu@2001:db8::7"],
    ],
)
def test_ipv6_destinations_agree_with_ssh_G(argv: list[str]) -> None:
    t = parse_ssh_command(shlex.join(["ssh", *argv]))  # accepted, and read as OpenSSH reads it
    rc, g, err = ssh_g(argv)
    assert rc == 0, err
    assert (g["user"], g["hostname"], g["port"]) == ([t.user or LOCAL_USER], [t.host], [str(t.effective_port)])


@pytest.mark.parametrize(
    "argv",
    [
        ["-p", "6022", "root@[2001:db8::7]"],
        ["-p", "6022", "[2001:db8::7]"],
        ["root@[2001:db8::7]:6022"],
        ["ssh://root@[2001:db8::7]:6022"],
        ["ssh://root@2001:db8::7"],
    ],
)
def test_bracketed_ipv6_destination_is_refused_as_openssh_cannot_use_it(argv: list[str]) -> None:
    with pytest.raises(InputError) as ei:
        parse_ssh_command(shlex.join(["ssh", *argv]))
    assert ei.value.code == "BadSshCommand"
    rc, g, _ = ssh_g(argv)
    # OpenSSH refuses the line, or keeps the brackets as part of a name it then cannot resolve.
    assert rc != 0 or g["hostname"][0].startswith("[")


def test_openssh_cannot_resolve_a_bracketed_destination() -> None:
    r = subprocess.run([SSH, "-F", "/dev/null", "-o", "BatchMode=yes", "-p", "1", "root@[::1]", "true"],
                       capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert r.returncode == 255 and "Could not resolve hostname [::1]" in r.stderr, r.stderr
