"""Parse the SSH command line a rental site shows ("ssh -p 12345 root@region-1.example.com").

Pure: no paramiko, no I/O. Users paste what the provider printed, so this accepts what OpenSSH
accepts for the parts LabGPU uses (``-p``, ``-i``, ``-J``, ``-l``, ``-o Key=Value`` for Port, User,
HostName, IdentityFile, ProxyJump), options after the destination, and ``ssh://user@host:port``;
it ignores harmless flags (``-v``, ``-A``, ``-C``…) and refuses what LabGPU cannot honour (a
remote command, ``-o ProxyCommand``) with a clear message rather than silently dropping it.
A bare word without ``@`` may be a ``~/.ssh/config`` alias: the connection code resolves it.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP, translate

DEFAULT_PORT = 22

# Flags without an argument that change nothing LabGPU needs.
_FLAGS = set("46AaCfGgKkMNnqsTtVvXxYy")
# Options with an argument that LabGPU may safely ignore (forwards, logging, ciphers…).
_IGNORED_WITH_ARG = set("BbcDEeFILmOQRSWw")

_HOST_RE = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.\-]+)$")
_USER_RE = re.compile(r"^[A-Za-z0-9_.\-]{1,64}$")


@dataclass(frozen=True)
class JumpHop:
    """One ``-J`` hop: ``[user@]host[:port]`` (port None = 22 or what ssh_config says)."""

    host: str
    user: str = ""
    port: int | None = None

    def spec(self) -> str:
        out = f"{self.user}@" if self.user else ""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return out + host + (f":{self.port}" if self.port else "")


@dataclass(frozen=True)
class SshTarget:
    """What an SSH command line says about where and how to log in."""

    host: str
    user: str = ""
    port: int | None = None
    key_path: str = ""
    jump: tuple[JumpHop, ...] = ()
    options: dict[str, str] = field(default_factory=dict)

    @property
    def effective_port(self) -> int:
        return self.port or DEFAULT_PORT

    @property
    def jump_spec(self) -> str:
        return ",".join(h.spec() for h in self.jump)

    def command(self) -> str:
        """The equivalent OpenSSH command (for "Copy SSH command")."""
        parts = ["ssh"]
        if self.port and self.port != DEFAULT_PORT:
            parts += ["-p", str(self.port)]
        if self.key_path:
            parts += ["-i", self.key_path]
        if self.jump:
            parts += ["-J", self.jump_spec]
        parts.append(f"{self.user}@{self.host}" if self.user else self.host)
        return shlex.join(parts)


def _bad(reason: str, **params: object) -> InputError:
    """``reason`` is a marked template, translated here: the dialog shows it while the user types."""
    text = translate(reason)
    try:
        text = text.format(**params)
    except (KeyError, IndexError, ValueError):
        pass
    return InputError(
        QT_TRANSLATE_NOOP("LabGPU", "This SSH command cannot be used: {reason}"),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            'Paste the command as the provider shows it, e.g. "ssh -p 12345 root@region-1.example.com".',
        ),
        code="BadSshCommand",
        reason=text,
    )


def parse_port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "port {port!r} is not a number"), port=text) from None
    if not 1 <= port <= 65535:
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "port {port} is outside 1–65535"), port=port)
    return port


def check_host(host: str) -> str:
    if not host or not _HOST_RE.match(host) or host.startswith("-"):
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "{host!r} is not a host name or address"), host=host)
    return host.strip("[]")


def check_user(user: str) -> str:
    if user and not _USER_RE.match(user):
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "{user!r} is not a valid user name"), user=user)
    return user


def parse_hop(spec: str) -> JumpHop:
    """``[user@]host[:port]`` or ``ssh://[user@]host[:port]``."""
    spec = spec.strip()
    if spec.startswith("ssh://"):
        spec = spec[len("ssh://") :].rstrip("/")
    user = ""
    if "@" in spec:
        user, spec = spec.rsplit("@", 1)
    port: int | None = None
    if spec.startswith("["):
        end = spec.find("]")
        if end < 0:
            raise _bad(QT_TRANSLATE_NOOP("LabGPU", "{host!r} is not a host name or address"), host=spec)
        host, rest = spec[1:end], spec[end + 1 :]
        if rest.startswith(":"):
            port = parse_port(rest[1:])
        elif rest:
            raise _bad(QT_TRANSLATE_NOOP("LabGPU", "{host!r} is not a host name or address"), host=spec)
    elif spec.count(":") == 1:
        host, p = spec.split(":")
        port = parse_port(p)
    else:
        host = spec
    return JumpHop(
        host=check_host(host if ":" not in host else f"[{host}]"), user=check_user(user), port=port
    )


def parse_jump(spec: str) -> tuple[JumpHop, ...]:
    if not spec or spec.lower() == "none":
        return ()
    return tuple(parse_hop(s) for s in spec.split(",") if s.strip())


def parse_ssh_command(text: str) -> SshTarget:
    """Parse ``ssh [options] [user@]host`` (the leading ``ssh`` is optional)."""
    try:
        argv = shlex.split(text.strip())
    except ValueError as exc:
        raise _bad("{why}", why=str(exc)) from None
    if argv and (argv[0] == "ssh" or argv[0].endswith("/ssh") or argv[0].lower() == "ssh.exe"):
        argv = argv[1:]
    if not argv:
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "no host given"))

    port: int | None = None
    user = ""
    key = ""
    jump = ""
    options: dict[str, str] = {}
    dest = ""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            i += 1
            if i < len(argv) and not dest:
                dest = argv[i]
                i += 1
            break
        if arg.startswith("-") and len(arg) > 1:
            letters = arg[1:]
            j = 0
            while j < len(letters):
                c = letters[j]
                if c in _FLAGS:
                    j += 1
                    continue
                if c in "piJlo" or c in _IGNORED_WITH_ARG:
                    value = letters[j + 1 :]
                    if not value:
                        i += 1
                        if i >= len(argv):
                            raise _bad(QT_TRANSLATE_NOOP("LabGPU", "option -{opt} needs a value"), opt=c)
                        value = argv[i]
                    if c == "p":
                        port = parse_port(value)
                    elif c == "i":
                        key = value
                    elif c == "J":
                        jump = value
                    elif c == "l":
                        user = value
                    elif c == "o":
                        k, _, v = value.replace("=", " ", 1).partition(" ")
                        options[k.strip().lower()] = v.strip()
                    break
                raise _bad(QT_TRANSLATE_NOOP("LabGPU", "option -{opt} is not supported"), opt=c)
            i += 1
            continue
        if dest:
            raise _bad(
                QT_TRANSLATE_NOOP("LabGPU", "a remote command ({cmd!r}) cannot be saved with a host"),
                cmd=" ".join(argv[i:]),
            )
        dest = arg
        i += 1
    if not dest:
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "no host given"))

    for k, v in options.items():
        if k == "port":
            port = parse_port(v)
        elif k == "user":
            user = v
        elif k == "identityfile":
            key = v
        elif k == "proxyjump":
            jump = v
        elif k == "proxycommand":
            raise _bad(QT_TRANSLATE_NOOP("LabGPU", "ProxyCommand is not supported; use -J (ProxyJump)"))

    if dest.startswith("ssh://"):
        hop = parse_hop(dest)
        host, port = hop.host, hop.port or port
        user = hop.user or user
    else:
        if "@" in dest:
            u, dest = dest.rsplit("@", 1)
            user = u
        host = check_host(dest)
    known = {"port", "user", "identityfile", "proxyjump", "hostname"}
    extra = {k: v for k, v in options.items() if k not in known}
    if "hostname" in options:
        extra["hostname"] = options["hostname"]
    return SshTarget(
        host=host, user=check_user(user), port=port, key_path=key, jump=parse_jump(jump), options=extra
    )
