"""Parse the SSH command line a rental site shows ("ssh -p 12345 root@region-1.example.com").

Pure: no paramiko, no I/O. Users paste what the provider printed; it is read exactly as OpenSSH
reads it (tests compare with the real ``ssh -G``): BSD getopt clusters (``-vp22``), options after
the destination, the FIRST ``-p``/``-o Port`` and ``-l``/``-o User``/destination user win,
``ssh://user@host:port``, bare IPv6 destinations (``root@2001:db8::7``), host names lower-cased
(an address literal is made numeric, but keeps the case it was written in when that is all that differs).
Options are checked against ALLOW-lists: honoured (``-p -i -J -l -4 -6``, ``-o`` Port, User,
IdentityFile, ProxyJump, AddressFamily) or harmless to ignore (``-v -A -C -t``…), port forwards ``-L -R -D``,
``-o ServerAliveInterval=…`` and other keywords in ``_O_IGNORED`` with a value ssh accepts).
Anything else — ``-F FILE``, ``-o HostName``, ``-o LocalCommand``, ``-o PermitLocalCommand``,
``-o ProxyCommand``, a remote command, any option not listed — is refused with a clear message,
never silently dropped. A bare word without ``@`` may be a ``~/.ssh/config`` alias: the
connection code resolves it.

Address family (OpenSSH's ssh.c): ``-4``/``-6`` set it outright, so the last flag wins and a flag
beats any ``-o AddressFamily``; ``-o AddressFamily=any|inet|inet6`` applies only while nothing set it
yet (the first value wins, as for every -o). It also decides how an address literal is made numeric:
ssh resolves it with that family only (``-6 127.1`` stays "127.1", ``-4 ::ffff:1.2.3.4`` becomes
"1.2.3.4"). It applies to the destination's own TCP connection only: the ``ssh -W`` that OpenSSH runs
for a ProxyJump hop gets no -4/-6 (the hop's own ~/.ssh/config entry may set it).
"""

from __future__ import annotations

import ipaddress
import re
import shlex
import socket
from dataclasses import dataclass, field

from .errors import InputError
from .i18n import QT_TRANSLATE_NOOP, translate
from .logsetup import register_secret

DEFAULT_PORT = 22

# What LabGPU reads from a command line is read the way OpenSSH reads it (BSD getopt, options
# after the destination, the first -p/-l/-o Port/-o User wins) and checked against ALLOW-lists:
# an option that is neither honoured nor harmless to ignore is refused, never silently dropped.
# Flags without an argument that change nothing about where and how LabGPU logs in.
# Not -f (ssh refuses it without a command). -4/-6 are honoured (the address family), not listed here.
_FLAGS = set("AaCgkNnqTtvXxYy")
_FAMILY_FLAGS = {"4": "inet", "6": "inet6"}
ADDRESS_FAMILIES = ("any", "inet", "inet6")  # ssh_config(5) AddressFamily
# Every option letter OpenSSH knows that takes an argument (so "-X value" is split like ssh does).
_WITH_ARG = set("bceilmopBDEFIJLOPQRSWw")
# Of those, the ones LabGPU honours (p i J l o) or may ignore: port forwards (``hosts forward`` does that).
_ALLOWED_WITH_ARG = set("piJloLRD")
# -o keywords (lower case): honoured, or harmless to ignore with a value OpenSSH would accept.
_YES_NO = ("yes", "no")
_O_IGNORED: dict[str, tuple[str, ...] | None] = {
    # None: any single value; a tuple: one of those (lower case).
    "stricthostkeychecking": ("yes", "no", "ask", "accept-new", "off"),  # LabGPU always verifies
    "userknownhostsfile": None,  # LabGPU keeps its own known_hosts (and reads ~/.ssh/known_hosts)
    "serveraliveinterval": (),
    "serveralivecountmax": (),
    "connecttimeout": (),
    "connectionattempts": (),
    "compression": _YES_NO,
    "tcpkeepalive": _YES_NO,
    "identitiesonly": _YES_NO,
    "forwardagent": _YES_NO,
    "forwardx11": _YES_NO,
    "forwardx11trusted": _YES_NO,
    "batchmode": _YES_NO,
    "checkhostip": _YES_NO,
    "hashknownhosts": _YES_NO,
    "visualhostkey": _YES_NO,
    "exitonforwardfailure": _YES_NO,
    "requesttty": ("yes", "no", "force", "auto"),
    "loglevel": ("quiet", "fatal", "error", "info", "verbose", "debug", "debug1", "debug2", "debug3"),
}
_O_HONOURED = ("port", "user", "identityfile", "proxyjump", "addressfamily")

_NAME_HOST_RE = re.compile(r"^[A-Za-z0-9_.\-]+$")
_USER_RE = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_.\-]{0,63}$")
_PORT_RE = re.compile(r"^[0-9]{1,5}$")
_O_RE = re.compile(r"^\s*([A-Za-z0-9]+)(?:\s*=\s*|\s+)(.*?)\s*$", re.S)
_FWD_HOST = r"(?:[A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:.]+\])"
_FWD_RE = re.compile(r"^(?:(?:[A-Za-z0-9_.\-*]+|\[[0-9A-Fa-f:.]+\]):)?([0-9]{1,5}):" + _FWD_HOST + r":([0-9]{1,5})$")
_DYN_RE = re.compile(r"^(?:(?:[A-Za-z0-9_.\-*]+|\[[0-9A-Fa-f:.]+\]):)?([0-9]{1,5})$")


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
    address_family: str = ""  # "" = any, "inet" (-4: IPv4 only), "inet6" (-6: IPv6 only)

    @property
    def effective_port(self) -> int:
        return self.port or DEFAULT_PORT

    @property
    def jump_spec(self) -> str:
        return ",".join(h.spec() for h in self.jump)

    def command(self) -> str:
        """The equivalent OpenSSH command (for "Copy SSH command")."""
        parts = ["ssh"]
        if self.address_family in ("inet", "inet6"):
            parts.append("-4" if self.address_family == "inet" else "-6")
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
    """A TCP port as OpenSSH takes it: decimal digits only, 1–65535."""
    if not isinstance(text, str) or not _PORT_RE.match(text):
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "port {port!r} is not a number"), port=text)
    port = int(text)
    if not 1 <= port <= 65535:
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "port {port} is outside 1–65535"), port=port)
    return port


def _bad_host(host: str) -> InputError:
    return _bad(QT_TRANSLATE_NOOP("LabGPU", "{host!r} is not a host name or address"), host=host)


def _ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return "%" not in text


def check_host(host: str) -> str:
    """A host name, an IPv4 address, or an IPv6 address (bare, or in brackets as -J and ssh:// write
    it); returned without brackets. Never starts with "-"."""
    if not host or host.startswith("-"):
        raise _bad_host(host)
    if host.startswith("[") and host.endswith("]") and _ipv6(host[1:-1]):
        return host[1:-1]
    if _NAME_HOST_RE.match(host) or _ipv6(host):
        return host
    raise _bad_host(host)


_FAMILY_CONSTANTS = {"inet": socket.AF_INET, "inet6": socket.AF_INET6}


def numeric_form(host: str, family: str = "") -> str:
    """An address literal in the form OpenSSH turns it into (ssh.c resolve_addr: getaddrinfo with
    AI_NUMERICHOST in the address family, then getnameinfo NI_NUMERICHOST: "0" → "0.0.0.0", "127.1" →
    "127.0.0.1", "2001:0db8::0007" → "2001:db8::7"); names, and literals of another family than
    ``family`` ("inet"/"inet6"), unchanged. Like OpenSSH (strcasecmp), an address that differs from that
    form only in case stays as written: "2001:DB8::7" is kept, "2001:DB8:0::7" → "2001:db8::7".
    No I/O: a numeric lookup never asks a resolver."""
    try:
        found = socket.getaddrinfo(host, None, _FAMILY_CONSTANTS.get(family, socket.AF_UNSPEC),
                                   socket.SOCK_STREAM, 0, socket.AI_NUMERICHOST)
        numeric = socket.getnameinfo(found[0][4], socket.NI_NUMERICHOST | socket.NI_NUMERICSERV)[0]
    except (OSError, UnicodeError, ValueError, IndexError):
        return host
    return host if numeric.lower() == host.lower() else numeric


def _is_address(host: str) -> bool:
    try:
        if ":" in host:
            socket.inet_pton(socket.AF_INET6, host)
        else:
            socket.inet_aton(host)
    except (OSError, ValueError):
        return False
    return True


def check_user(user: str) -> str:
    if user and not _USER_RE.match(user):
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "{user!r} is not a valid user name"), user=user)
    return user


def parse_hop(spec: str) -> JumpHop:
    """``[user@]host[:port]`` or ``ssh://[user@]host[:port]`` (OpenSSH refuses an IPv6 address in
    an ``ssh://`` URI, brackets or not: so does LabGPU; like OpenSSH it drops one trailing dot of a URI's
    host and refuses a URI host starting with "." or holding "..")."""
    uri = spec.startswith("ssh://")
    if uri:
        spec = spec[len("ssh://") :]
        if spec.endswith("/"):
            spec = spec[:-1]
        if "[" in spec or spec.rsplit("@", 1)[-1].count(":") > 1:
            raise _bad(QT_TRANSLATE_NOOP(
                "LabGPU", "an IPv6 address cannot be written in an ssh:// URI; use: ssh -p PORT user@ADDRESS"))
    user = ""
    if "@" in spec:
        user, spec = spec.rsplit("@", 1)
        if not user:
            raise _bad(QT_TRANSLATE_NOOP("LabGPU", "{user!r} is not a valid user name"), user=user)
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
    elif ":" in spec:  # a bare IPv6 address here is ambiguous for OpenSSH too: it must be in brackets
        raise _bad_host(spec)
    else:
        host = spec
    if uri:
        if host.endswith("."):
            host = host[:-1]
        if host.startswith(".") or ".." in host:
            raise _bad_host(host)
    return JumpHop(
        host=check_host(host if ":" not in host else f"[{host}]").lower(), user=check_user(user), port=port
    )


def parse_jump(spec: str) -> tuple[JumpHop, ...]:
    if not spec or spec.lower() == "none":
        return ()
    return tuple(parse_hop(s) for s in spec.split(",") if s.strip())


def _refuse_option(opt: str) -> InputError:
    if opt == "F":
        return _bad(QT_TRANSLATE_NOOP(
            "LabGPU", "option -F (another ssh config file) cannot be honoured; LabGPU reads ~/.ssh/config only"))
    return _bad(QT_TRANSLATE_NOOP("LabGPU", "option -{opt} is not supported"), opt=opt)


def _refuse_o(keyword: str) -> InputError:
    k = keyword.lower()
    if k == "proxycommand":
        return _bad(QT_TRANSLATE_NOOP("LabGPU", "ProxyCommand is not supported; use -J (ProxyJump)"))
    if k == "hostname":
        return _bad(QT_TRANSLATE_NOOP(
            "LabGPU", "-o HostName cannot be honoured; put the real host name in the command (user@HOST)"))
    return _bad(
        QT_TRANSLATE_NOOP("LabGPU", "option -o {option} cannot be honoured by LabGPU; remove it"), option=keyword
    )


def _check_key_path(path: str) -> str:
    if not path or "%" in path or "${" in path or "\n" in path or "\0" in path:
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "key file {path!r} cannot be used"), path=path)
    return path


def _check_forward(opt: str, value: str) -> None:
    m = (_DYN_RE if opt == "D" else _FWD_RE).match(value)
    if not m or not all(1 <= int(p) <= 65535 for p in m.groups()):
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "-{opt} {value!r} is not a valid forward"), opt=opt, value=value)


class _Reader:
    """The values OpenSSH would end up with; the first -p/-o Port and -l/-o User/destination user win."""

    def __init__(self) -> None:
        self.port: int | None = None
        self.user: str | None = None
        self.keys: list[str] = []
        self.jump: str | None = None
        self.options: dict[str, str] = {}
        self.family: str | None = None  # "any", "inet", "inet6"; None = not set

    def set_port(self, value: str) -> None:
        if self.port is None:
            self.port = parse_port(value)

    def set_user(self, value: str) -> None:
        if self.user is None:
            if not value:
                raise _bad(QT_TRANSLATE_NOOP("LabGPU", "{user!r} is not a valid user name"), user=value)
            self.user = check_user(value)

    def add_key(self, value: str) -> None:
        path = _check_key_path(value)
        if path not in self.keys:
            self.keys.append(path)
        if len(self.keys) > 1:
            raise _bad(QT_TRANSLATE_NOOP("LabGPU", "only one key file (-i) can be saved with a host"))

    def option(self, value: str) -> None:
        m = _O_RE.match(value)
        if not m or not m.group(2):
            raise _bad(QT_TRANSLATE_NOOP("LabGPU", "-o {option!r} is not Keyword=Value"), option=value)
        keyword, arg = m.group(1), m.group(2)
        k = keyword.lower()
        if len(arg) >= 2 and arg[0] == arg[-1] == '"':
            arg = arg[1:-1]
        if k not in _O_HONOURED and k not in _O_IGNORED:
            raise _refuse_o(keyword)
        if any(c.isspace() for c in arg) or not arg or '"' in arg:
            raise _bad(QT_TRANSLATE_NOOP("LabGPU", "-o {option!r} is not Keyword=Value"), option=value)
        if k == "port":
            parse_port(arg)  # OpenSSH checks the value even when an earlier one already won
            self.set_port(arg)
        elif k == "user":
            self.set_user(arg)
        elif k == "identityfile":
            self.add_key(arg)
        elif k == "proxyjump":
            if self.jump is None:
                parse_jump(arg)
                self.jump = "" if arg.lower() == "none" else arg
        elif k == "addressfamily":
            if arg.lower() not in ADDRESS_FAMILIES:  # ssh checks it even when -4/-6 already decided
                raise _bad(QT_TRANSLATE_NOOP("LabGPU", "-o {option!r} has a value ssh refuses"), option=value)
            if self.family is None:
                self.family = arg.lower()
        else:
            allowed = _O_IGNORED[k]
            if allowed == () and not _PORT_RE.match(arg) or allowed and arg.lower() not in allowed:
                raise _bad(QT_TRANSLATE_NOOP("LabGPU", "-o {option!r} has a value ssh refuses"), option=value)
            self.options.setdefault(k, arg)

    def letter(self, opt: str, value: str) -> None:
        if opt == "p":
            self.set_port(value)
        elif opt == "l":
            self.set_user(value)
        elif opt == "i":
            self.add_key(value)
        elif opt == "J":
            if self.jump is not None:
                raise _bad(QT_TRANSLATE_NOOP("LabGPU", "only one -J (ProxyJump) is allowed; separate hops by commas"))
            parse_jump(value)
            self.jump = "" if value.lower() == "none" else value
        elif opt == "o":
            self.option(value)
        elif opt in "LRD":
            _check_forward(opt, value)
        else:
            raise _refuse_option(opt)

    def destination(self, dest: str) -> str:
        """Apply ``[user@]host`` or ``ssh://[user@]host[:port]`` the way ssh does; returns the host."""
        if dest.startswith("ssh://"):
            hop = parse_hop(dest)
            if hop.user:
                self.set_user(hop.user)
            if hop.port is not None and self.port is None:
                self.port = hop.port
            return hop.host
        if "@" in dest:
            user, host = dest.rsplit("@", 1)
            if not user:
                raise _bad(QT_TRANSLATE_NOOP("LabGPU", "{user!r} is not a valid user name"), user=user)
            self.set_user(user)
        else:
            host = dest
        if host.startswith("["):  # ssh would look up the brackets as part of the name
            raise _bad_host(host)
        host = check_host(host)  # OpenSSH lower-cases a name; an address literal is only made numeric
        return host if _is_address(host) else host.lower()


# Passwords that come pasted with the command (a provider's page shows them next to it). They are
# recognised before anything else reads the text, so no error message, log line or label ever
# repeats them: ``sshpass -p SECRET ssh …`` (sshpass(1): -p password, -f file, -d fd, -e env,
# -P prompt), ``ssh user:SECRET@host`` (OpenSSH would send "user:SECRET" as the user name) and
# prose such as ``密码: SECRET`` / ``Password: SECRET``.
# An English label is a word of its own: "/etc/passwd ::1" (a path, then an IPv6 address) is no password.
_PROSE_SECRET_RE = re.compile(
    r"(?i)(密码|口令|(?<![A-Za-z0-9_/.\-])(?:password|passwd))(?:\s*[:：=]\s*|(?<=[码令])\s+)(\S+)"
)
_USER_PASS_RE = re.compile(r"^[A-Za-z0-9_.][A-Za-z0-9_.\-]*:([^@\s/][^@\s]*)@\S+$")
_DEST_PREFIX_RE = re.compile(r"^(?:-[oJ])?(?:[A-Za-z]+=)?(?:ssh://)?")
_SSHPASS_WITH_ARG = ("-f", "-d", "-P")
PASSWORD_IN_COMMAND = "PasswordInCommand"  # noqa: S105 - an error code, not a password


def find_pasted_secret(text: str) -> tuple[str, str] | None:
    """(what was found, the secret) for a password pasted with the command, else None. ``what`` is
    a fixed label ("sshpass -p", "user:password@host", "密码:", "password:"), never the secret;
    the secret is "" for ``sshpass`` without ``-p`` (it still wraps the command)."""
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    for k, w in enumerate(words):
        if w == "sshpass" or w.endswith("/sshpass"):
            j = k + 1
            while j < len(words) and words[j].startswith("-"):
                opt = words[j]
                if opt == "-p":
                    return "sshpass -p", words[j + 1] if j + 1 < len(words) else ""
                if opt.startswith("-p"):
                    return "sshpass -p", opt[2:]
                j += 2 if opt in _SSHPASS_WITH_ARG else 1
            return "sshpass", ""
    for w in words:
        m = _USER_PASS_RE.match(_DEST_PREFIX_RE.sub("", w, count=1))
        if m:
            return "user:password@host", m.group(1)
    m = _PROSE_SECRET_RE.search(text)
    if m:
        label = m.group(1)
        return (label if not label.isascii() else label.lower()) + ":", m.group(2).strip("\"'")
    return None


def _refuse_pasted_secret(text: str) -> None:
    found = find_pasted_secret(text)
    if found is None:
        return
    form, secret = found
    if secret:
        register_secret(secret)  # any later log line that still holds it is redacted
    raise InputError(
        QT_TRANSLATE_NOOP(
            "LabGPU", "The SSH command contains a password ({form}); LabGPU never takes a password from the command."
        ),
        QT_TRANSLATE_NOOP(
            "LabGPU",
            "Remove it from the command and type it in the Password field (it is kept in the system keyring).",
        ),
        code=PASSWORD_IN_COMMAND,
        form=form,
    )


# One word that ssh(1) would take as its destination: ``[user@]host`` (an ssh_config alias included),
# never an option; a typo with more words ("sssh root@host") or a path ("/", "notes.txt:") is not one.
_BARE_DESTINATION = re.compile(r"(?:[A-Za-z0-9._][A-Za-z0-9._-]*@)?[A-Za-z0-9_][A-Za-z0-9._-]*")


def _is_ssh_word(word: str) -> bool:
    return word == "ssh" or word.endswith("/ssh") or word.lower() == "ssh.exe"


def _not_ssh(first: str) -> InputError:
    """The first word is not ``ssh`` (``sssh …``, ``scp …``, ``rm -rf /``, nothing):
    LabGPU reads only ssh commands (and never runs one)."""
    if not first:
        return _bad(QT_TRANSLATE_NOOP("LabGPU", "the command must start with ssh"))
    shown = first if len(first) <= 40 else first[:39] + "…"
    return _bad(QT_TRANSLATE_NOOP("LabGPU", "the command must start with ssh, not {word!r}"), word=shown)


def parse_ssh_command(text: str) -> SshTarget:
    """Parse ``ssh [options] [user@]host [options]``: the first word must be ``ssh`` (or a path to it),
    or the whole text one destination word (``root@gpu1``, an ssh_config alias), read as ``ssh WORD``.

    A password pasted with it (``sshpass -p``, ``user:pass@host``, ``密码:``/``password:``) is
    refused with an error that never repeats it (code PasswordInCommand)."""
    _refuse_pasted_secret(text)
    try:
        argv = shlex.split(text.strip())
    except ValueError as exc:
        raise _bad("{why}", why=str(exc)) from None
    if len(argv) == 1 and not _is_ssh_word(argv[0]) and _BARE_DESTINATION.fullmatch(argv[0]):
        argv = ["ssh", *argv]  # a lone destination ("gpubox", "root@gpu1") is what ``ssh`` would be given
    if not argv or not _is_ssh_word(argv[0]):
        raise _not_ssh(argv[0] if argv else "")
    argv = argv[1:]
    if not argv:
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "no host given"))

    r = _Reader()
    host = ""
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":  # end of options: the next word is the destination, anything after is a command
            i += 1
            if not host and i < len(argv):
                host = r.destination(argv[i])
                i += 1
            if i < len(argv):
                raise _bad(
                    QT_TRANSLATE_NOOP("LabGPU", "a remote command ({cmd!r}) cannot be saved with a host"),
                    cmd=" ".join(argv[i:]),
                )
            break
        if arg.startswith("-") and len(arg) > 1:
            letters = arg[1:]
            j = 0
            while j < len(letters):
                c = letters[j]
                if c in _FLAGS:
                    j += 1
                    continue
                if c in _FAMILY_FLAGS:  # set outright: the last -4/-6 wins over everything before
                    r.family = _FAMILY_FLAGS[c]
                    j += 1
                    continue
                if c in _WITH_ARG:
                    if c not in _ALLOWED_WITH_ARG:
                        raise _refuse_option(c)
                    value = letters[j + 1 :]
                    if not value:
                        i += 1
                        if i >= len(argv):
                            raise _bad(QT_TRANSLATE_NOOP("LabGPU", "option -{opt} needs a value"), opt=c)
                        value = argv[i]
                    r.letter(c, value)
                    break
                raise _refuse_option(c)
            i += 1
            continue
        if host:
            raise _bad(
                QT_TRANSLATE_NOOP("LabGPU", "a remote command ({cmd!r}) cannot be saved with a host"),
                cmd=" ".join(argv[i:]),
            )
        host = r.destination(arg)
        i += 1
    if not host:
        raise _bad(QT_TRANSLATE_NOOP("LabGPU", "no host given"))
    family = r.family if r.family in ("inet", "inet6") else ""
    host = numeric_form(host, family)  # after every option: a -4/-6 after the destination counts too
    jump = parse_jump(r.jump or "")
    if jump:  # OpenSSH refuses a last hop that is the destination itself ("jumphost loop")
        last = jump[-1]
        if (numeric_form(last.host).lower() == host.lower() and (last.port or DEFAULT_PORT) == (r.port or DEFAULT_PORT)
                and (last.user or r.user or "") == (r.user or "")):
            raise _bad(QT_TRANSLATE_NOOP("LabGPU", "the jump host {host} is the destination itself"), host=host)
    return SshTarget(
        host=host,
        user=r.user or "",
        port=r.port,
        key_path=r.keys[0] if r.keys else "",
        jump=jump,
        options=dict(r.options),
        address_family=family,
    )
