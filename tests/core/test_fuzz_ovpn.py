"""Property-based tests (Hypothesis) for the .ovpn reader and checker.

- thousands of generated profiles — directive soups, inline-block tricks, quoting, comments,
  CRLF, BOM, long lines — never raise anything but LabGPU's own errors;
- a profile the checker accepts contains, once re-serialized and re-read, only allowed
  directives, the same ones, and checking it again changes nothing;
- the reader is compared with the REAL OpenVPN: ``echo msg …`` lines make OpenVPN print the
  tokens it read (``ECHO:msg …``), for generated raw lines and for what :func:`quote` writes.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.core.errors import LabGpuError
from app.core.ovpn_parse import Directive, OvpnSyntaxError, quote, read_config, serialize
from app.core.vpnprofiles import (
    ALLOWED,
    REFUSED_DIRECTIVES,
    STRIPPED_DIRECTIVES,
    is_allowed,
    parse_ovpn,
)

NAMES = sorted(
    {
        *ALLOWED,
        *STRIPPED_DIRECTIVES,
        *REFUSED_DIRECTIVES,
        "up",
        "down",
        "route-up",
        "plugin",
        "providers",
        "engine",
        "pkcs11-providers",
        "replay-persist",
        "script-security",
        "setenv",
        "setenv-safe",
        "tls-verify",
        "auth-user-pass",
        "auth-user-pass-verify",
        "ca",
        "key",
        "tls-auth",
        "crl-verify",
        "iproute",
        "echo",
        "UP",
        "",
    }
)
TAGS = ["ca", "cert", "key", "tls-crypt", "tls-auth", "secret", "dh", "connection", "auth-user-pass", "up", "x"]
ARGS = [
    "2",
    "1",
    "0",
    "udp",
    "10.0.0.1",
    "1194",
    "/bin/sh -c 'touch /tmp/x'",
    "/tmp/evil.so",
    "legacy",
    "default",
    "AES-256-GCM",
    "LD_PRELOAD",
    "UV_X",
    "opt",
    "up",
    "",
]
BODY_LINES = ["MIIB", "-----BEGIN X-----", "script-security 2", " up /x", "", "A" * 255 + "</ca>"]
_text = st.text(
    alphabet=st.sampled_from(list("ab-_/.:#;'\"\\ \t<>=x0129ü")) | st.characters(codec="utf-8"),
    max_size=12,
)


def _token(draw: st.DrawFn) -> str:
    word = draw(st.sampled_from(ARGS) | _text)
    style = draw(st.sampled_from(["bare", "dq", "sq", "escaped", "quote()"]))
    if style == "dq":
        return '"' + word + '"'
    if style == "sq":
        return "'" + word + "'"
    if style == "escaped":
        return word.replace(" ", "\\ ").replace('"', '\\"')
    if style == "quote()":
        return quote(word)
    return word


@st.composite
def profile_lines(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["directive", "directive", "block", "close", "comment", "blank", "noise", "long"]))
    if kind == "directive":
        name = draw(st.sampled_from(NAMES))
        prefix = draw(st.sampled_from(["", "", "--", "setenv opt ", " \t"]))
        name_tok = draw(st.sampled_from([name, f'"{name}"', f"'{name}'"]))
        args = [_token(draw) for _ in range(draw(st.integers(0, 4)))]
        tail = draw(st.sampled_from(["", "", " # c", " ;c", "#x"]))
        return prefix + " ".join([name_tok, *args]) + tail
    if kind == "block":
        tag = draw(st.sampled_from(TAGS))
        opener = draw(st.sampled_from([f"<{tag}>", f'"<{tag}>"', f"--<{tag}>", f"  <{tag}>  # c"]))
        body = draw(
            st.lists(st.sampled_from(["MIIB", "-----BEGIN X-----", "script-security 2", " up /x", ""]), max_size=3)
        )
        close = draw(
            st.sampled_from([f"</{tag}>", f"</{tag}>xyz", f"  </{tag}>", f"</{tag.upper()}>", "", f"# </{tag}>"])
        )
        return "\n".join([opener, *body, close])
    if kind == "close":
        return draw(st.sampled_from(TAGS).map(lambda t: f"</{t}>"))
    if kind == "comment":
        return draw(st.sampled_from(["#", ";", "  # x", "; up /x"])) + draw(_text)
    if kind == "blank":
        return draw(st.sampled_from(["", "  ", "\t", "\v"]))
    if kind == "long":
        return draw(st.sampled_from(["# ", "verb 3 # ", "A"])) + "x" * draw(st.integers(240, 520))
    return draw(_text)


@st.composite
def profiles(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(profile_lines(), max_size=14))
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), "remote 10.0.0.1 1194 udp")
    eol = draw(st.sampled_from(["\n", "\r\n", "\n", "\r"]))
    text = eol.join(lines) + draw(st.sampled_from(["", eol]))
    data = text.encode("utf-8")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    if draw(st.integers(0, 9)) == 0:
        data += draw(st.binary(max_size=8))
    return data


def _same(a: list[Directive], b: list[Directive]) -> bool:
    def key(d: Directive) -> tuple:
        return (d.name, d.args, d.inline, d.optional)

    return [key(d) for d in a] == [key(d) for d in b]


FUZZ = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(profiles(), st.booleans())
def test_any_profile_is_accepted_or_refused_with_labgpus_own_error(data, allow_scripts):
    try:
        prof = parse_ovpn(data, None, allow_scripts=allow_scripts)
    except LabGpuError as exc:
        error = exc
    else:
        error = None
    if error is not None:
        assert error.code.startswith("Vpn"), error.code
        assert error.text() and error.hint()
        return
    again = read_config(prof.text.encode("utf-8"))
    assert _same(again, prof.directives)
    names = {d.name for d in again}
    assert not names & set(STRIPPED_DIRECTIVES)
    assert not names & set(REFUSED_DIRECTIVES)
    if not allow_scripts:
        assert all(is_allowed(d) for d in again), [d for d in again if not is_allowed(d)]
        assert prof.dangerous == []
    # checking the checked profile again changes nothing
    assert parse_ovpn(prof.text, None, allow_scripts=allow_scripts).text == prof.text


@pytest.mark.parametrize("base", [None, "tmp"])
def test_a_file_under_an_unknown_users_home_is_refused_not_a_traceback(base, tmp_path):
    """Found by the fuzzer above: 'ca ~0' (the home of a user "0" that does not exist) made
    Path.expanduser raise RuntimeError out of the importer."""
    with pytest.raises(LabGpuError) as err:
        parse_ovpn(b"client\nremote vpn.example.org 1194\nca ~0\n", tmp_path if base else None)
    assert err.value.code == "VpnProfileFile" and "~0" in err.value.text()


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(profiles())
def test_serialize_reads_back_the_same_directives(data):
    try:
        directives = read_config(data)
    except OvpnSyntaxError:
        return
    try:
        text = serialize(directives)
    except OvpnSyntaxError as exc:
        reason = exc.text()
    else:
        reason = ""
    if reason:  # a line OpenVPN would not read, or a value that cannot be written back
        assert "256" in reason or "line break" in reason, reason
        return
    assert _same(read_config(text.encode("utf-8")), directives)


# -- the real OpenVPN as the oracle -------------------------------------------------------------

OPENVPN = shutil.which("openvpn") or "/usr/sbin/openvpn"


def _openvpn_echo(lines: list[str]) -> tuple[int, list[str]]:
    """Run openvpn on a config of ``lines``; its exit status and the ECHO lines it printed."""
    with tempfile.TemporaryDirectory() as d:
        cfg = Path(d) / "t.conf"
        cfg.write_bytes(("\n".join(lines) + "\n").encode("utf-8"))
        r = subprocess.run(
            [OPENVPN, "--config", str(cfg), "--show-ciphers"],
            capture_output=True,
            timeout=30,
        )
    out = r.stdout.decode("utf-8", "replace")
    return r.returncode, [ln.split("ECHO:", 1)[1] for ln in out.splitlines() if "ECHO:" in ln]


ORACLE = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_oracle_text = st.text(alphabet=st.sampled_from(list("ab/.:#;'\"\\ \t<>x0ü")), min_size=0, max_size=10)


@pytest.fixture(scope="module")
def openvpn_binary() -> str:
    if not Path(OPENVPN).exists():
        pytest.fail("openvpn is needed for the oracle tests (apt-get install openvpn)")
    return OPENVPN


@ORACLE
@given(tokens=st.lists(_oracle_text, min_size=1, max_size=12))
def test_quote_is_read_back_by_openvpn_itself(openvpn_binary, tokens):
    lines = [f"echo msg {quote(t)}" for t in tokens]
    rc, echoed = _openvpn_echo(lines)
    assert rc == 0
    assert echoed == [f"msg {t}" for t in tokens]
    ours = read_config(("\n".join(lines) + "\n").encode())
    assert [d.args for d in ours] == [("msg", t) for t in tokens]


@ORACLE
@given(raw=st.lists(_oracle_text, min_size=1, max_size=5).map(" ".join))
def test_reader_tokenizes_raw_lines_like_openvpn(openvpn_binary, raw):
    line = "echo msg " + raw
    rc, echoed = _openvpn_echo([line])
    try:
        ours = read_config((line + "\n").encode())
    except OvpnSyntaxError:
        assert rc != 0, f"LabGPU refused a line OpenVPN reads: {line!r}"
        return
    assert rc == 0, f"OpenVPN refused a line LabGPU reads: {line!r}"
    (d,) = ours
    assert d.name == "echo"
    # A backslash before the newline escapes it: OpenVPN's last token then ends in "\n" (printed
    # as a line break, so the printed line lacks it).
    assert echoed[:1] == [" ".join(d.args).removesuffix("\n")]
