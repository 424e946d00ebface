"""Import and check OpenVPN client profiles (``.ovpn``). Pure: no processes, no keyring.

Why this exists: a profile a provider hands out is a program for a root process. LabGPU keeps a
self-contained copy it has CHECKED and hands only that copy to OpenVPN.

How :func:`parse_ovpn` works:

1. :mod:`app.core.ovpn_parse` reads the file exactly as OpenVPN 2.6 does (inline blocks end where
   OpenVPN ends them, its quoting, comments, ``--`` prefixes, ``setenv opt``, line limits);
2. each directive is checked against an ALLOW-LIST (:data:`ALLOWED`): a client option that runs
   nothing, loads nothing and writes nothing, with arguments of the expected shape. Everything
   else is one of:

   - LabGPU's own (``management*``, ``daemon``, ``log``, ``log-append``, ``writepid``, ``status``,
     ``syslog``, ``auth-nocache``, ``askpass``…): removed, always (so none of them can write a
     file, with or without ``--allow-scripts``); listed in :attr:`OvpnProfile.stripped`;
   - never a LabGPU client (``config`` includes, ``server``, ``cd``/``chroot``, ``<connection>``,
     ``genkey``…): :class:`ProfileError`;
   - anything else — programs (``up``, ``down``, ``*-verify``, ``plugin``, ``iproute``…),
     libraries (``providers`` with a path, ``engine``, ``pkcs11-*``), files written
     (``replay-persist``, ``tls-export-cert``…), ``script-security`` ≥ 2, ``setenv`` of names
     that are not known to be harmless, file arguments LabGPU cannot inline, and every directive
     LabGPU does not know: :class:`UnsafeProfileError` naming each line (number and text),
     unless ``allow_scripts=True`` (the user saw those lines and confirmed);
3. file references (``ca ca.crt``) are read next to the profile and inlined; ``auth-user-pass``
   loses its file or inline credentials (they live in the keyring);
4. the profile LabGPU stores — and OpenVPN later runs — is :func:`ovpn_parse.serialize` of the
   checked directives, never the user's text.
"""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass, field
from pathlib import Path

from . import ovpn_parse
from .errors import InputError, LabGpuError
from .i18n import QT_TRANSLATE_NOOP, translate
from .ovpn_parse import Directive, OvpnSyntaxError, ProfileError

PROFILE_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,47}$")
MAX_PROFILE_BYTES = 1024 * 1024

# Options that take a file OpenVPN reads, and that LabGPU inlines (or keeps inline).
FILE_DIRECTIVES = (
    "ca",
    "cert",
    "key",
    "tls-auth",
    "tls-crypt",
    "tls-crypt-v2",
    "extra-certs",
    "pkcs12",
    "crl-verify",
    "dh",
    "secret",
)
# Options OpenVPN accepts as an inline block <name>…</name> (OPT_P_INLINE), client side.
INLINE_OK = (*FILE_DIRECTIVES, "peer-fingerprint", "verify-hash", "http-proxy-user-pass")
# LabGPU passes these itself (or they would fight with how it runs openvpn): always removed.
STRIPPED_DIRECTIVES = (
    "management",
    "management-hold",
    "management-query-passwords",
    "management-query-proxy",
    "management-query-remote",
    "management-client",
    "management-client-auth",
    "management-client-user",
    "management-client-group",
    "management-forget-disconnect",
    "management-signal",
    "management-log-cache",
    "management-up-down",
    "management-external-key",
    "management-external-cert",
    "daemon",
    "log",
    "log-append",
    "writepid",
    "syslog",
    "auth-nocache",
    "askpass",
    "status",
    "status-version",
    "service",
    "errors-to-stderr",
    "machine-readable-output",
    "suppress-timestamps",
)
# Never acceptable in a client profile LabGPU runs, whatever the user confirms.
REFUSED_DIRECTIVES = (
    "config",
    "cd",
    "chroot",
    "server",
    "server-bridge",
    "server-ipv6",
    "mode",
    "client-config-dir",
    "ccd-exclusive",
    "tmp-dir",
    "genkey",
    "mktun",
    "rmtun",
    "test-crypto",
    "tls-server",
    "help",
    "version",
)
# The OpenSSL providers built into OpenSSL itself (loaded by name, never from a path).
BUILTIN_PROVIDERS = ("default", "legacy", "base", "fips", "null")
# setenv names that only label the connection (read by OpenVPN itself or sent to the server).
SAFE_SETENV = re.compile(
    r"^(UV_[A-Za-z0-9_]{1,64}|CLIENT_CERT|FORWARD_COMPATIBLE|PUSH_PEER_INFO|SERVER_POLL_TIMEOUT|IV_GUI_VER)$"
)

_NUM = re.compile(r"^-?[0-9]{1,10}$")
_WORD = re.compile(r"^[A-Za-z0-9_.:+/@\-]{1,128}$")  # cipher names, keywords, addresses
_HOST = re.compile(r"^[A-Za-z0-9_.:%\-\[\]]{1,253}$")
_TEXT = re.compile(r"^[^\x00-\x1f\x7f]{0,255}$")  # printable text (verify-x509-name, pull-filter…)


def _n(*choices: str) -> re.Pattern[str]:
    return re.compile("^(" + "|".join(re.escape(c) for c in choices) + ")$")


@dataclass(frozen=True)
class Rule:
    """Allowed when min_args ≤ len(args) ≤ max_args and each argument matches its pattern
    (the last pattern repeats)."""

    min_args: int = 0
    max_args: int = 0
    patterns: tuple[re.Pattern[str], ...] = ()

    def allows(self, args: tuple[str, ...]) -> bool:
        if not self.min_args <= len(args) <= self.max_args:
            return False
        for i, a in enumerate(args):
            pat = self.patterns[min(i, len(self.patterns) - 1)] if self.patterns else _WORD
            if not pat.match(a):
                return False
        return True


def _r(lo: int, hi: int, *patterns: re.Pattern[str]) -> Rule:
    return Rule(lo, hi, patterns)


_FLAG = Rule()
# The allow-list: client options that run no program, load no library and write no file.
ALLOWED: dict[str, Rule] = {
    **dict.fromkeys(
        (
            "client",
            "pull",
            "tls-client",
            "nobind",
            "persist-key",
            "persist-tun",
            "persist-remote-ip",
            "persist-local-ip",
            "float",
            "remote-random",
            "remote-random-hostname",
            "mute-replay-warnings",
            "route-nopull",
            "route-noexec",
            "ifconfig-noexec",
            "ifconfig-nowarn",
            "disable-dco",
            "comp-noadapt",
            "allow-pull-fqdn",
            "push-peer-info",
            "passtos",
            "fast-io",
            "tcp-nodelay",
            "up-delay",
            "up-restart",
            "block-outside-dns",
            "register-dns",
            "tls-exit",
            "single-session",
            "opt-verify",
            "ping-timer-rem",
            "mlock",
            "mtu-test",
            "tun-ipv6",
            "disable-occ",
            "block-ipv6",
            "http-proxy-retry",
            "socks-proxy-retry",
            "bind",
            "no-replay",
            "allow-recursive-routing",
            "use-prediction-resistance",
            "force-tls-key-material-export",
        ),
        _FLAG,
    ),
    "auth-user-pass": _FLAG,  # as LabGPU writes it: credentials come from the keyring
    "dev": _r(1, 1, re.compile(r"^[A-Za-z0-9_.\-]{1,15}$")),
    "dev-type": _r(1, 1, _n("tun", "tap")),
    "proto": _r(1, 1, _n("udp", "tcp", "udp4", "udp6", "tcp4", "tcp6", "tcp-client", "tcp4-client", "tcp6-client")),
    "proto-force": _r(1, 1, _n("udp", "tcp")),
    "remote": _r(1, 3, _HOST, _NUM, _WORD),
    "local": _r(1, 1, _HOST),
    "port": _r(1, 1, _NUM),
    "rport": _r(1, 1, _NUM),
    "lport": _r(1, 1, _NUM),
    "resolv-retry": _r(1, 1, _WORD),
    "connect-retry": _r(1, 2, _NUM),
    "connect-retry-max": _r(1, 1, _NUM),
    "connect-timeout": _r(1, 1, _NUM),
    "server-poll-timeout": _r(1, 1, _NUM),
    "remote-cert-tls": _r(1, 1, _n("server", "client")),
    "remote-cert-ku": _r(1, 15, _WORD),
    "remote-cert-eku": _r(1, 1, _TEXT),
    "ns-cert-type": _r(1, 1, _n("server", "client")),
    "verify-x509-name": _r(1, 2, _TEXT, _WORD),
    "x509-username-field": _r(1, 15, _WORD),
    "x509-track": _r(1, 1, _WORD),
    "verify-hash": _r(1, 2, _WORD),
    "peer-fingerprint": _r(1, 1, _WORD),
    "cipher": _r(1, 1, _WORD),
    "data-ciphers": _r(1, 1, _WORD),
    "data-ciphers-fallback": _r(1, 1, _WORD),
    "ncp-ciphers": _r(1, 1, _WORD),
    "auth": _r(1, 1, _WORD),
    "tls-version-min": _r(1, 2, _WORD),
    "tls-version-max": _r(1, 1, _WORD),
    "tls-cipher": _r(1, 1, _WORD),
    "tls-ciphersuites": _r(1, 1, _WORD),
    "tls-groups": _r(1, 1, _WORD),
    "ecdh-curve": _r(1, 1, _WORD),
    "tls-cert-profile": _r(1, 1, _WORD),
    "key-direction": _r(1, 1, _n("0", "1")),
    "comp-lzo": _r(0, 1, _n("yes", "no", "adaptive")),
    "compress": _r(0, 1, _WORD),
    "allow-compression": _r(1, 1, _n("yes", "no", "asym")),
    "compat-mode": _r(1, 1, _WORD),
    "verb": _r(1, 1, _NUM),
    "mute": _r(1, 1, _NUM),
    "keepalive": _r(2, 2, _NUM),
    "ping": _r(1, 1, _NUM),
    "ping-restart": _r(1, 1, _NUM),
    "ping-exit": _r(1, 1, _NUM),
    "inactive": _r(1, 2, _NUM),
    "session-timeout": _r(1, 1, _NUM),
    "tls-timeout": _r(1, 1, _NUM),
    "hand-window": _r(1, 1, _NUM),
    "tran-window": _r(1, 1, _NUM),
    "reneg-sec": _r(1, 2, _NUM),
    "reneg-bytes": _r(1, 1, _NUM),
    "reneg-pkts": _r(1, 1, _NUM),
    "replay-window": _r(1, 2, _NUM),
    "tun-mtu": _r(1, 2, _NUM),
    "tun-mtu-extra": _r(1, 1, _NUM),
    "tun-mtu-max": _r(1, 1, _NUM),
    "link-mtu": _r(1, 1, _NUM),
    "mssfix": _r(0, 2, _NUM, _WORD),
    "fragment": _r(1, 2, _NUM, _WORD),
    "mtu-disc": _r(1, 1, _WORD),
    "max-packet-size": _r(1, 1, _NUM),
    "sndbuf": _r(1, 1, _NUM),
    "rcvbuf": _r(1, 1, _NUM),
    "txqueuelen": _r(1, 1, _NUM),
    "shaper": _r(1, 1, _NUM),
    "tcp-queue-limit": _r(1, 1, _NUM),
    "bcast-buffers": _r(1, 1, _NUM),
    "socket-flags": _r(1, 4, _WORD),
    "mark": _r(1, 1, _NUM),
    "bind-dev": _r(1, 1, _WORD),
    "nice": _r(1, 1, _NUM),
    "lladdr": _r(1, 1, _WORD),
    "topology": _r(1, 1, _n("net30", "p2p", "subnet")),
    "ifconfig": _r(2, 2, _HOST),
    "ifconfig-ipv6": _r(2, 2, _HOST),
    "route": _r(1, 4, _HOST, _HOST, _HOST, _NUM),
    "route-ipv6": _r(1, 3, _HOST, _HOST, _NUM),
    "route-gateway": _r(1, 1, _HOST),
    "route-ipv6-gateway": _r(1, 1, _HOST),
    "route-metric": _r(1, 1, _NUM),
    "route-delay": _r(0, 2, _NUM),
    "route-method": _r(1, 1, _WORD),
    "max-routes": _r(1, 1, _NUM),
    "redirect-gateway": _r(0, 6, _WORD),
    "redirect-private": _r(0, 6, _WORD),
    "dhcp-option": _r(1, 2, _WORD, _TEXT),
    "dns": _r(1, 6, _TEXT),
    "windows-driver": _r(1, 1, _WORD),
    "explicit-exit-notify": _r(0, 1, _NUM),
    "auth-retry": _r(1, 1, _n("none", "nointeract", "interact")),
    "static-challenge": _r(2, 3, _TEXT, _NUM, _WORD),
    "pull-filter": _r(2, 2, _n("accept", "ignore", "reject"), _TEXT),
    "ignore-unknown-option": _r(1, 15, _WORD),
    "script-security": _r(1, 1, _n("0", "1")),
    "providers": _r(1, 5, _n(*BUILTIN_PROVIDERS)),
    "http-proxy": _r(2, 4, _HOST, _NUM, _n("auto", "auto-nct"), _n("none", "basic", "ntlm", "ntlm2")),
    "http-proxy-timeout": _r(1, 1, _NUM),
    "http-proxy-option": _r(1, 2, _WORD, _TEXT),
    "socks-proxy": _r(1, 2, _HOST, _NUM),
    "user": _r(1, 1, _WORD),
    "group": _r(1, 1, _WORD),
    "setenv-safe": _r(1, 2, re.compile(r"^[A-Za-z0-9_]{1,64}$"), _TEXT),
    "setenv": _r(1, 2, SAFE_SETENV, _TEXT),
}


def shown_line(numbered: str) -> str:
    """``"12: up /x"`` → "line 12: up /x" in the user's language."""
    number, _sep, text = numbered.partition(": ")
    return translate(QT_TRANSLATE_NOOP("LabGPU", "line {line}: {text}")).format(line=number, text=text)


class UnsafeProfileError(ProfileError):
    """The profile has lines LabGPU does not run without the user's explicit confirmation."""

    def __init__(self, dangerous: list[str], lines: list[str] | None = None) -> None:
        shown = lines if lines is not None else dangerous
        super().__init__(
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "This profile runs programs, loads libraries or writes files as administrator, or has "
                "lines LabGPU does not know to be safe: {lines}.",
            ),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Import it only if you trust who made it, and confirm explicitly "
                "(--allow-scripts on the command line), or remove those lines.",
            ),
            code="VpnUnsafeProfile",
            lines="; ".join(shown_line(s) for s in shown),
        )
        self.dangerous = dangerous  # the lines' text
        self.lines = shown  # "NUMBER: text"


@dataclass(frozen=True)
class Remote:
    host: str
    port: int
    proto: str


@dataclass
class OvpnProfile:
    """The checked profile and what connecting with it needs."""

    text: str  # re-serialized from the checked directives: what openvpn --config gets
    remotes: list[Remote] = field(default_factory=list)
    needs_auth: bool = False  # auth-user-pass: username and password from the keyring
    needs_key_passphrase: bool = False  # the private key is encrypted
    dangerous: list[str] = field(default_factory=list)  # text of lines needing --allow-scripts
    dangerous_lines: list[str] = field(default_factory=list)  # the same as "NUMBER: text"
    stripped: list[str] = field(default_factory=list)  # directives removed because LabGPU sets them
    inlined: list[str] = field(default_factory=list)  # file references that were inlined
    directives: list[Directive] = field(default_factory=list)  # what ``text`` holds, parsed
    dev: str = "tun"


def validate_profile_name(name: str) -> str:
    if not PROFILE_NAME_RE.match(name or ""):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "'{name}' is not a valid VPN profile name."),
            QT_TRANSLATE_NOOP("LabGPU", "Use 1–48 letters, digits, '.', '_' or '-', starting with a letter or digit."),
            code="VpnBadName",
            name=name,
        )
    return name


def _block_needs_passphrase(pem: str) -> bool:
    return ("ENCRYPTED" in pem and "PRIVATE KEY" in pem) or "Proc-Type: 4,ENCRYPTED" in pem


def is_allowed(d: Directive) -> bool:
    """Whether one directive (as it will be written) is on the allow-list."""
    if d.inline is not None:
        return d.name in INLINE_OK and not d.optional
    if d.name in FILE_DIRECTIVES or d.name == "http-proxy-user-pass":
        return False  # a path root would read: LabGPU inlines these or refuses them
    rule = ALLOWED.get(d.name)
    return rule is not None and rule.allows(d.args)


def _refused(d: Directive) -> ProfileError:
    if d.name == "connection":
        return ProfileError(
            QT_TRANSLATE_NOOP("LabGPU", "<connection> blocks are not supported (line {line})."),
            QT_TRANSLATE_NOOP("LabGPU", "Ask your provider for a profile with plain 'remote' lines."),
            code="VpnProfileConnection",
            line=d.line,
        )
    return ProfileError(
        QT_TRANSLATE_NOOP("LabGPU", "The profile uses '{directive}' (line {line}), which LabGPU does not run."),
        QT_TRANSLATE_NOOP("LabGPU", "Use a client profile (one with 'client' and 'remote' lines)."),
        code="VpnProfileRefused",
        directive=d.name,
        line=d.line,
    )


def _read_ref(name: str, ref: str, base_dir: Path | None, d: Directive) -> str:
    try:
        path = Path(ref).expanduser()
    except RuntimeError:  # "~nosuchuser": no home to expand to; read the name as written (it will not be found)
        path = Path(ref)
    if not path.is_absolute():
        if base_dir is None:
            raise ProfileError(
                QT_TRANSLATE_NOOP("LabGPU", "The profile refers to '{file}' (line {line}), which cannot be read."),
                QT_TRANSLATE_NOOP("LabGPU", "Import the .ovpn file again."),
                code="VpnProfileFile",
                file=ref,
                line=d.line,
            )
        path = base_dir / path
    try:
        st = path.stat()
        # A regular file of sensible size only: never a FIFO, a device (/dev/zero) or a folder.
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_PROFILE_BYTES:
            raise OSError
        data = path.read_bytes()[: MAX_PROFILE_BYTES + 1]
        if len(data) > MAX_PROFILE_BYTES:
            raise OSError
        return data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        raise ProfileError(
            QT_TRANSLATE_NOOP("LabGPU", "The profile refers to '{file}' (line {line}), which cannot be read."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Put that file next to the .ovpn file (or use a profile with inline blocks) and import again.",
            ),
            code="VpnProfileFile",
            file=ref,
            line=d.line,
        ) from None


def check_directives(
    directives: list[Directive], base_dir: Path | None = None, *, allow_scripts: bool = False
) -> OvpnProfile:
    """Apply the rules of the module docstring to parsed directives."""
    prof = OvpnProfile(text="")
    kept: list[Directive] = []
    default_port, default_proto = 1194, "udp"
    raw_remotes: list[tuple[str, ...]] = []

    def keep(d: Directive) -> None:
        if not is_allowed(d):
            prof.dangerous.append(d.text)
            prof.dangerous_lines.append(d.shown())
        kept.append(d)

    for d in directives:
        name, args = d.name, d.args
        if name in REFUSED_DIRECTIVES and not (name == "mode" and args == ("p2p",)) or name == "connection":
            raise _refused(d)
        if name in STRIPPED_DIRECTIVES:
            prof.stripped.append(name)
            if name == "askpass":
                prof.needs_key_passphrase = True
            continue
        if name == "auth-user-pass":
            prof.needs_auth = True  # credentials from the keyring, never from a file or the profile
            if d.inline is not None:
                prof.stripped.append("<auth-user-pass>")
            elif args:
                prof.stripped.append("auth-user-pass " + args[0])
            kept.append(Directive("auth-user-pass", (), d.line, d.text, None, d.optional))
            continue
        if name in FILE_DIRECTIVES and d.inline is None and args and not d.optional:
            if name == "crl-verify" and len(args) > 1 or len(args) > 2:
                keep(d)  # "crl-verify DIR dir": a folder OpenVPN reads; not inlinable
                continue
            if name in ("tls-auth", "secret") and len(args) == 2:
                if args[1] not in ("0", "1"):
                    keep(d)
                    continue
                kept.append(Directive("key-direction", (args[1],), d.line, d.text))
            elif len(args) == 2:
                keep(d)
                continue
            content = _read_ref(name, args[0], base_dir, d)
            if name == "key" and _block_needs_passphrase(content):
                prof.needs_key_passphrase = True
            prof.inlined.append(f"{name} {args[0]}")
            if content and not content.endswith("\n"):
                content += "\n"
            d = Directive(name, (), d.line, d.text, content)
            kept.append(d)
            if ovpn_parse.read_config(ovpn_parse.serialize([d]).encode("utf-8")) != [
                Directive(name, (), 1, f"<{name}>", content)
            ]:
                raise OvpnSyntaxError(
                    d.line, d.text, QT_TRANSLATE_NOOP("LabGPU", "the referenced file cannot be inlined")
                )
            continue
        if name == "key" and d.inline is not None and _block_needs_passphrase(d.inline):
            prof.needs_key_passphrase = True
        if name == "remote" and args:
            raw_remotes.append(args)
        elif name == "port" and args and args[0].isdigit():
            default_port = int(args[0])
        elif name == "proto" and args:
            default_proto = args[0].lower()
        elif name == "dev" and args:
            prof.dev = args[0]
        keep(d)
    for args in raw_remotes:
        port = int(args[1]) if len(args) > 1 and args[1].isdigit() else default_port
        proto = args[2].lower() if len(args) > 2 else default_proto
        prof.remotes.append(Remote(args[0], port, proto))
    if not prof.remotes:
        raise ProfileError(
            QT_TRANSLATE_NOOP(
                "LabGPU", "The profile has no 'remote' line: it does not say which server to connect to."
            ),
            QT_TRANSLATE_NOOP("LabGPU", "Choose the client profile your VPN provider gave you."),
            code="VpnProfileNoRemote",
        )
    if prof.dangerous and not allow_scripts:
        raise UnsafeProfileError(prof.dangerous, prof.dangerous_lines)
    prof.text = ovpn_parse.serialize(kept)
    prof.directives = kept
    return prof


def parse_ovpn(text: str | bytes, base_dir: Path | None = None, *, allow_scripts: bool = False) -> OvpnProfile:
    """Read a profile as OpenVPN does, check it and rewrite it; see the module docstring."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    if len(data) > MAX_PROFILE_BYTES:
        raise ProfileError(
            QT_TRANSLATE_NOOP("LabGPU", "The profile is larger than 1 MiB; this is not an OpenVPN profile."),
            QT_TRANSLATE_NOOP("LabGPU", "Choose the .ovpn file your VPN provider gave you."),
            code="VpnProfileTooBig",
        )
    if b"\x00" in data:
        raise ProfileError(
            QT_TRANSLATE_NOOP("LabGPU", "The profile contains binary data."),
            QT_TRANSLATE_NOOP("LabGPU", "Choose the .ovpn file your VPN provider gave you."),
            code="VpnProfileBinary",
        )
    directives = ovpn_parse.read_config(data)
    for d in directives:
        if d.inline is not None and d.name not in (*INLINE_OK, "auth-user-pass", "connection"):
            # OpenVPN stops on these too ("not expected to be inline"), or they are server-only.
            raise ProfileError(
                QT_TRANSLATE_NOOP("LabGPU", "Unknown inline block <{tag}> at line {line} of the profile."),
                QT_TRANSLATE_NOOP("LabGPU", "Check the .ovpn file; OpenVPN would refuse it too."),
                code="VpnProfileBlock",
                tag=d.name,
                line=d.line,
            )
    return check_directives(directives, base_dir, allow_scripts=allow_scripts)


def load_ovpn(path: Path, *, allow_scripts: bool = False) -> OvpnProfile:
    """Read ``path`` and :func:`parse_ovpn` it, with file references resolved next to it."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ProfileError(
            QT_TRANSLATE_NOOP("LabGPU", "Cannot read '{file}': {reason}."),
            QT_TRANSLATE_NOOP("LabGPU", "Check the path and that the file is readable."),
            code="VpnProfileRead",
            file=str(path),
            reason=exc.strerror or str(exc),
        ) from None
    return parse_ovpn(data, path.parent, allow_scripts=allow_scripts)


def secret_key(profile: str, what: str) -> str:
    """Keyring key for a profile's secret: ``what`` is username, password or key_passphrase."""
    assert what in ("username", "password", "key_passphrase")
    return f"vpn:{profile}:{what}"


__all__ = [
    "ALLOWED",
    "OvpnProfile",
    "OvpnSyntaxError",
    "ProfileError",
    "Remote",
    "UnsafeProfileError",
    "LabGpuError",
    "check_directives",
    "is_allowed",
    "load_ovpn",
    "parse_ovpn",
    "secret_key",
    "shown_line",
    "validate_profile_name",
]
