"""Import and check OpenVPN client profiles (``.ovpn``). Pure: no processes, no keyring.

Why this exists: a profile a provider hands out is a program for a root process. LabGPU keeps a
self-contained, cleaned copy and knows before connecting which secrets it will need.

What :func:`parse_ovpn` does with a profile:

- inline blocks (``<ca>``, ``<cert>``, ``<key>``, ``<tls-crypt>``, ``<tls-auth>``, ``<tls-crypt-v2>``,
  ``<extra-certs>``, ``<pkcs12>``…) are kept; a file reference (``ca ca.crt``) is read relative
  to the profile's folder and inlined, so the stored copy does not depend on the download folder;
- ``auth-user-pass`` (with or without a file) means "needs username/password": the file
  argument is dropped, the credentials come from the keyring through the management interface;
- an encrypted private key (``ENCRYPTED`` PEM, or ``askpass``) means "needs the key passphrase";
- directives LabGPU itself controls (``management*``, ``daemon``, ``log``, ``writepid``,
  ``auth-nocache``…) are removed, because the app passes its own;
- directives that run programs or load code (``up``, ``down``, ``route-up``, ``script-security``,
  ``plugin``, ``tls-verify``…) make :class:`UnsafeProfileError` unless ``allow_scripts=True``
  (the user confirmed, having seen :attr:`OvpnProfile.dangerous`);
- things that can never be a LabGPU client profile (``config`` includes, ``server``/``mode
  server``, ``cd``/``chroot``, no ``remote``) are refused with a clear message.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

from .errors import InputError, LabGpuError
from .i18n import QT_TRANSLATE_NOOP

PROFILE_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,47}$")
MAX_PROFILE_BYTES = 1024 * 1024

# Blocks that may appear inline as <name>...</name>.
INLINE_BLOCKS = (
    "ca",
    "cert",
    "key",
    "tls-auth",
    "tls-crypt",
    "tls-crypt-v2",
    "extra-certs",
    "dh",
    "pkcs12",
    "secret",
    "crl-verify",
    "http-proxy-user-pass",
    "auth-user-pass",
    "connection",
)
# Directives whose first argument names a file that can be inlined.
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
)
# Run an external program or load code into the (root) openvpn process.
DANGEROUS_DIRECTIVES = (
    "up",
    "down",
    "route-up",
    "route-pre-down",
    "ipchange",
    "tls-verify",
    "auth-user-pass-verify",
    "client-connect",
    "client-disconnect",
    "learn-address",
    "script-security",
    "plugin",
    "up-restart",
    "iproute",
    "tls-export-cert",
)
# LabGPU passes these itself (or they would fight with how it runs openvpn).
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
    "pull-filter-labgpu",
)
# Never acceptable in a client profile LabGPU runs.
REFUSED_DIRECTIVES = (
    "config",
    "cd",
    "chroot",
    "server",
    "server-bridge",
    "mode",
    "client-config-dir",
    "ccd-exclusive",
    "tmp-dir",
)


class ProfileError(InputError):
    """The .ovpn file cannot be used as it is."""


class UnsafeProfileError(ProfileError):
    """The profile would run programs as root; needs the user's explicit confirmation."""

    def __init__(self, dangerous: list[str]) -> None:
        super().__init__(
            QT_TRANSLATE_NOOP("LabGPU", "This profile runs programs or plug-ins when it connects: {lines}."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Import it only if you trust who made it, and confirm explicitly "
                "(--allow-scripts on the command line).",
            ),
            code="VpnUnsafeProfile",
            lines="; ".join(dangerous),
        )
        self.dangerous = dangerous


@dataclass(frozen=True)
class Remote:
    host: str
    port: int
    proto: str


@dataclass
class OvpnProfile:
    """The cleaned profile and what connecting with it needs."""

    text: str  # cleaned, self-contained config for openvpn --config
    remotes: list[Remote] = field(default_factory=list)
    needs_auth: bool = False  # auth-user-pass: username and password from the keyring
    needs_key_passphrase: bool = False  # the private key is encrypted
    dangerous: list[str] = field(default_factory=list)  # lines that run programs (kept if allowed)
    stripped: list[str] = field(default_factory=list)  # directives removed because LabGPU sets them
    inlined: list[str] = field(default_factory=list)  # file references that were inlined
    dev: str = "tun"


def validate_profile_name(name: str) -> str:
    if not PROFILE_NAME_RE.match(name or ""):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "'{name}' is not a valid VPN profile name."),
            QT_TRANSLATE_NOOP(
                "LabGPU", "Use 1–48 letters, digits, '.', '_' or '-', starting with a letter or digit."
            ),
            code="VpnBadName",
            name=name,
        )
    return name


def _split(line: str) -> list[str]:
    try:
        return shlex.split(line, comments=False, posix=True)
    except ValueError:
        return line.split()


def _block_needs_passphrase(pem: str) -> bool:
    return "ENCRYPTED" in pem and "PRIVATE KEY" in pem


def parse_ovpn(text: str, base_dir: Path | None = None, *, allow_scripts: bool = False) -> OvpnProfile:
    """Check and clean an .ovpn profile; see the module docstring for the rules."""
    if len(text.encode("utf-8", "replace")) > MAX_PROFILE_BYTES:
        raise ProfileError(
            QT_TRANSLATE_NOOP("LabGPU", "The profile is larger than 1 MiB; this is not an OpenVPN profile."),
            QT_TRANSLATE_NOOP("LabGPU", "Choose the .ovpn file your VPN provider gave you."),
            code="VpnProfileTooBig",
        )
    if "\x00" in text:
        raise ProfileError(
            QT_TRANSLATE_NOOP("LabGPU", "The profile contains binary data."),
            QT_TRANSLATE_NOOP("LabGPU", "Choose the .ovpn file your VPN provider gave you."),
            code="VpnProfileBinary",
        )
    out: list[str] = []
    prof = OvpnProfile(text="")
    default_port, default_proto = 1194, "udp"
    raw_remotes: list[list[str]] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    i = 0
    while i < len(lines):
        raw = lines[i]
        line = raw.strip()
        i += 1
        if not line or line[0] in "#;":
            out.append(raw)
            continue
        m = re.match(r"^<([A-Za-z0-9\-]+)>$", line)
        if m:
            tag = m.group(1).lower()
            if tag not in INLINE_BLOCKS:
                raise ProfileError(
                    QT_TRANSLATE_NOOP("LabGPU", "Unknown inline block <{tag}> in the profile."),
                    QT_TRANSLATE_NOOP("LabGPU", "Check the .ovpn file; OpenVPN would refuse it too."),
                    code="VpnProfileBlock",
                    tag=tag,
                )
            body: list[str] = []
            while i < len(lines) and lines[i].strip().lower() != f"</{tag}>":
                body.append(lines[i])
                i += 1
            if i >= len(lines):
                raise ProfileError(
                    QT_TRANSLATE_NOOP("LabGPU", "The inline block <{tag}> is not closed."),
                    QT_TRANSLATE_NOOP("LabGPU", "The file looks truncated: download the profile again."),
                    code="VpnProfileBlock",
                    tag=tag,
                )
            i += 1
            if tag == "auth-user-pass":
                prof.needs_auth = True  # never keep an inline password in a file: keyring only
                prof.stripped.append("<auth-user-pass>")
                out.append("auth-user-pass")
                continue
            if tag == "connection":
                raise ProfileError(
                    QT_TRANSLATE_NOOP("LabGPU", "<connection> blocks are not supported."),
                    QT_TRANSLATE_NOOP("LabGPU", "Ask your provider for a profile with plain 'remote' lines."),
                    code="VpnProfileConnection",
                )
            if tag == "key" and _block_needs_passphrase("\n".join(body)):
                prof.needs_key_passphrase = True
            out.append(f"<{tag}>")
            out.extend(body)
            out.append(f"</{tag}>")
            continue
        words = _split(line)
        if not words:
            continue
        name = words[0].lower().lstrip("-")
        args = words[1:]
        if name in REFUSED_DIRECTIVES and not (name == "mode" and args and args[0] == "p2p"):
            raise ProfileError(
                QT_TRANSLATE_NOOP("LabGPU", "The profile uses '{directive}', which LabGPU does not run."),
                QT_TRANSLATE_NOOP("LabGPU", "Use a client profile (one with 'client' and 'remote' lines)."),
                code="VpnProfileRefused",
                directive=name,
            )
        if name in DANGEROUS_DIRECTIVES:
            prof.dangerous.append(line)
            out.append(raw)
            continue
        if name in STRIPPED_DIRECTIVES:
            prof.stripped.append(name)
            if name == "askpass":
                prof.needs_key_passphrase = True
            continue
        if name == "auth-user-pass":
            prof.needs_auth = True
            if args:
                prof.stripped.append("auth-user-pass " + args[0])
            out.append("auth-user-pass")
            continue
        if name in FILE_DIRECTIVES and args and args[0] != "[inline]":
            ref = Path(args[0]).expanduser()
            if not ref.is_absolute() and base_dir is not None:
                ref = base_dir / ref
            try:
                content = ref.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                raise ProfileError(
                    QT_TRANSLATE_NOOP("LabGPU", "The profile refers to '{file}', which cannot be read."),
                    QT_TRANSLATE_NOOP(
                        "LabGPU",
                        "Put that file next to the .ovpn file (or use a profile with inline blocks) "
                        "and import again.",
                    ),
                    code="VpnProfileFile",
                    file=args[0],
                ) from None
            if name == "key" and _block_needs_passphrase(content):
                prof.needs_key_passphrase = True
            prof.inlined.append(f"{name} {args[0]}")
            if name == "tls-auth" and len(args) > 1:
                out.append(f"key-direction {args[1]}")
            out.append(f"<{name}>")
            out.extend(content.rstrip("\n").split("\n"))
            out.append(f"</{name}>")
            continue
        if name == "remote":
            raw_remotes.append(args)
        elif name == "port" and args and args[0].isdigit():
            default_port = int(args[0])
        elif name == "proto" and args:
            default_proto = args[0].lower()
        elif name == "dev" and args:
            prof.dev = args[0]
        out.append(raw)
    for args in raw_remotes:
        if not args:
            continue
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
        raise UnsafeProfileError(prof.dangerous)
    prof.text = "\n".join(out).rstrip("\n") + "\n"
    return prof


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
    text = data.decode("utf-8", errors="replace")
    return parse_ovpn(text, path.parent, allow_scripts=allow_scripts)


def secret_key(profile: str, what: str) -> str:
    """Keyring key for a profile's secret: ``what`` is username, password or key_passphrase."""
    assert what in ("username", "password", "key_passphrase")
    return f"vpn:{profile}:{what}"


__all__ = [
    "OvpnProfile",
    "ProfileError",
    "Remote",
    "UnsafeProfileError",
    "LabGpuError",
    "load_ovpn",
    "parse_ovpn",
    "secret_key",
    "validate_profile_name",
]
