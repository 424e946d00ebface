"""Channels: what each kind needs, where it is kept, and the checks an address must pass.

A channel's settings live in ``Settings.extra["notify"]`` (:class:`NotifySettings`); every token,
password, signing secret and every address that carries one (a Feishu/DingTalk webhook holds its
access token, an ntfy topic is its own password) lives in the keyring under
``notify:<channel>:<field>`` (app.core.secrets), and the file keeps only those entry names and, for an
address kept there, its scheme and host (``url_hint``) so a list can say where a channel goes.

Addresses: ``https`` only. ``http`` is accepted for a loopback literal (127.0.0.0/8, ::1) alone: a
relay or test stand-in on this computer, where nothing leaves the machine; any other plain-http address
is refused, so a secret never crosses a network unencrypted. Certificates are always verified; a channel
may name its own CA file (``ca_file``: a self-hosted ntfy or a campus mail server with a private CA,
the tests' throwaway CA) — trusted in addition to the system's, never instead of verification.
"""

from __future__ import annotations

import ipaddress
import re
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.settings import Settings, read_section, write_section

from .events import TOPICS

SECTION = ("notify",)

EMAIL = "email"
SERVERCHAN = "serverchan"
PUSHPLUS = "pushplus"
FEISHU = "feishu"
DINGTALK = "dingtalk"
NTFY = "ntfy"
WEBHOOK = "webhook"
KINDS = (EMAIL, SERVERCHAN, PUSHPLUS, FEISHU, DINGTALK, NTFY, WEBHOOK)

KIND_TITLES = {
    EMAIL: QT_TRANSLATE_NOOP("Notify", "Email (SMTP over TLS)"),
    SERVERCHAN: QT_TRANSLATE_NOOP("Notify", "WeChat via ServerChan"),
    PUSHPLUS: QT_TRANSLATE_NOOP("Notify", "WeChat via PushPlus"),
    FEISHU: QT_TRANSLATE_NOOP("Notify", "Feishu / Lark group bot"),
    DINGTALK: QT_TRANSLATE_NOOP("Notify", "DingTalk group bot"),
    NTFY: QT_TRANSLATE_NOOP("Notify", "ntfy"),
    WEBHOOK: QT_TRANSLATE_NOOP("Notify", "Webhook (signed with HMAC-SHA256)"),
}


@dataclass(frozen=True)
class SecretField:
    name: str  # the keyring entry is notify:<channel>:<name>
    label: str  # marked for translation
    required: bool = True
    is_url: bool = False  # an address kept in the keyring: checked like any address


SECRET_FIELDS: dict[str, tuple[SecretField, ...]] = {
    EMAIL: (SecretField("password", QT_TRANSLATE_NOOP("Notify", "SMTP password"), required=False),),
    SERVERCHAN: (SecretField("sendkey", QT_TRANSLATE_NOOP("Notify", "ServerChan SendKey")),),
    PUSHPLUS: (SecretField("token", QT_TRANSLATE_NOOP("Notify", "PushPlus token")),),
    FEISHU: (SecretField("url", QT_TRANSLATE_NOOP("Notify", "Webhook address"), is_url=True),
             SecretField("secret", QT_TRANSLATE_NOOP("Notify", "Signing secret"), required=False)),
    DINGTALK: (SecretField("url", QT_TRANSLATE_NOOP("Notify", "Webhook address"), is_url=True),
               SecretField("secret", QT_TRANSLATE_NOOP("Notify", "Signing secret"), required=False)),
    NTFY: (SecretField("url", QT_TRANSLATE_NOOP("Notify", "Topic address"), is_url=True),
           SecretField("token", QT_TRANSLATE_NOOP("Notify", "Access token"), required=False)),
    WEBHOOK: (SecretField("url", QT_TRANSLATE_NOOP("Notify", "Webhook address"), is_url=True),
              SecretField("secret", QT_TRANSLATE_NOOP("Notify", "Signing secret"))),
}

SECURITY = ("ssl", "starttls")  # implicit TLS (usually port 465) or STARTTLS (usually 587)
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")


@dataclass
class ChannelConfig:
    name: str = ""
    kind: str = ""
    enabled: bool = True
    events: list[str] = field(default_factory=lambda: list(TOPICS))
    # email
    host: str = ""
    port: int = 465
    security: str = "ssl"
    username: str = ""
    sender: str = ""
    recipients: list[str] = field(default_factory=list)
    # ntfy: 1 (min) … 5 (urgent); 0 = the server's default
    priority: int = 0
    # ServerChan / PushPlus: another address for the service ("" = the vendor's); a mirror, a test stand-in
    endpoint: str = ""
    ca_file: str = ""  # a CA to trust in addition to the system's ("" = the system's only)
    url_hint: str = ""  # where an address kept in the keyring points (scheme://host), for lists
    secret_keys: list[str] = field(default_factory=list)  # keyring entry names, never the values
    max_per_hour: int = 12  # the rate limit of this channel

    def validate(self) -> None:
        if self.security not in SECURITY:
            self.security = "ssl"
        self.events = [e for e in self.events if e in TOPICS]
        if not 0 <= self.priority <= 5:
            self.priority = 0
        if not 1 <= self.max_per_hour <= 3600:
            self.max_per_hour = 12
        if not 1 <= self.port <= 65535:
            self.port = 465


@dataclass
class NotifySettings:
    channels: list[ChannelConfig] = field(default_factory=list)
    dedupe_minutes: float = 30.0  # the same event about the same target is sent once in this window

    def validate(self) -> None:
        for c in self.channels:
            c.validate()
        if not 0 <= self.dedupe_minutes <= 24 * 60:
            self.dedupe_minutes = 30.0


def notify_settings(settings: Settings) -> NotifySettings:
    return read_section(settings, SECTION, NotifySettings)


def channel(settings: Settings, name: str) -> ChannelConfig | None:
    return next((c for c in notify_settings(settings).channels if c.name == name), None)


def put_channel(settings: Settings, cfg: ChannelConfig) -> None:
    """Add or replace the channel named ``cfg.name`` (the caller saves the settings)."""
    ns = notify_settings(settings)
    ns.channels = [c for c in ns.channels if c.name != cfg.name] + [cfg]
    write_section(settings, SECTION, ns)


def drop_channel(settings: Settings, name: str) -> ChannelConfig | None:
    ns = notify_settings(settings)
    gone = next((c for c in ns.channels if c.name == name), None)
    ns.channels = [c for c in ns.channels if c.name != name]
    write_section(settings, SECTION, ns)
    return gone


def secret_key(name: str, fieldname: str) -> str:
    return f"notify:{name}:{fieldname}"


# -- checks --------------------------------------------------------------------------------------

def check_name(name: str) -> str:
    name = name.strip()
    if not _NAME_RE.match(name):
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "The channel name {name!r} is not usable."),
                         QT_TRANSLATE_NOOP("LabGPU", "Use up to 40 letters, digits, '.', '_' or '-', "
                                                     "starting with a letter or digit."),
                         code="BadChannelName", name=name[:60])
    return name


def is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_url(url: str) -> str:
    """``url`` if it is an https address (or http to a loopback literal); else an InputError that never
    repeats the address (it may carry a token)."""
    url = url.strip()
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname or ""
        _ = parts.port  # a bad port raises here
    except ValueError:
        parts, host = None, ""
    if parts is None or not host or any(c.isspace() or ord(c) < 32 for c in url):
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "This is not a web address."),
                         QT_TRANSLATE_NOOP("LabGPU", "Paste the whole address, starting with https://."),
                         code="BadNotifyUrl")
    if parts.scheme == "https" or (parts.scheme == "http" and is_loopback(host)):
        return url
    raise InputError(QT_TRANSLATE_NOOP("LabGPU", "The address must start with https://."),
                     QT_TRANSLATE_NOOP("LabGPU", "LabGPU sends tokens and messages only over encrypted "
                                                 "connections (plain http only to 127.0.0.1 or ::1 on this "
                                                 "computer)."),
                     code="InsecureNotifyUrl")


def url_hint(url: str) -> str:
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    return f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")


def check_channel(cfg: ChannelConfig) -> ChannelConfig:
    """The non-secret fields checked (raises InputError); returns ``cfg``."""
    cfg.name = check_name(cfg.name)
    if cfg.kind not in KINDS:
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "Unknown channel kind {kind!r}."),
                         QT_TRANSLATE_NOOP("LabGPU", "Choose one of: {kinds}."), code="BadChannelKind",
                         kind=cfg.kind[:40], kinds=", ".join(KINDS))
    bad = [e for e in cfg.events if e not in TOPICS]
    if bad:
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "Unknown event {event!r}."),
                         QT_TRANSLATE_NOOP("LabGPU", "Choose from: {topics}."), code="BadNotifyEvent",
                         event=bad[0][:40], topics=", ".join(TOPICS))
    if cfg.endpoint:
        cfg.endpoint = check_url(cfg.endpoint)
    if cfg.ca_file and not Path(cfg.ca_file).is_file():
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "The CA file {path} does not exist."),
                         QT_TRANSLATE_NOOP("LabGPU", "Name a PEM file of certificates, or leave it empty "
                                                     "to trust the system's."),
                         code="NoCaFile", path=cfg.ca_file[:200])
    if cfg.kind == EMAIL:
        _check_email(cfg)
    if not 0 <= cfg.priority <= 5:
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "The priority must be 1 to 5 (0: the server's default)."),
                         "", code="BadPriority")
    return cfg


_ADDR_RE = re.compile(r"^[^@\s<>,;\"]+@[^@\s<>,;\"]+$")


def _check_email(cfg: ChannelConfig) -> None:
    cfg.host = cfg.host.strip()
    if not cfg.host or any(c.isspace() or c in "/@" for c in cfg.host):
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "The mail server name is missing or not a host name."),
                         QT_TRANSLATE_NOOP("LabGPU", "e.g. smtp.qq.com, smtp.163.com or smtp.gmail.com"),
                         code="BadSmtpHost")
    if cfg.security not in SECURITY:
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "The mail security must be ssl or starttls."), "",
                         code="BadSmtpSecurity")
    if not 1 <= cfg.port <= 65535:
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "The mail server port must be 1 to 65535."), "",
                         code="BadSmtpPort")
    cfg.recipients = [r.strip() for r in cfg.recipients if r.strip()]
    cfg.sender = cfg.sender.strip() or cfg.username.strip()
    if not cfg.sender:
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "A mail channel needs a sender address."),
                         QT_TRANSLATE_NOOP("LabGPU", "Give the login (often the address itself) or a From address."),
                         code="NoSender")
    for addr in (cfg.sender, *cfg.recipients):
        if not _ADDR_RE.match(addr):
            raise InputError(QT_TRANSLATE_NOOP("LabGPU", "{address!r} is not a mail address."),
                             QT_TRANSLATE_NOOP("LabGPU", "Write it as name@example.com."), code="BadMailAddress",
                             address=addr[:80])
    if not cfg.recipients:
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "A mail channel needs at least one recipient."),
                         QT_TRANSLATE_NOOP("LabGPU", "Give the address that should receive the notices."),
                         code="NoRecipient")


def check_secrets(kind: str, values: dict[str, str], *, have: set[str] | None = None) -> dict[str, str]:
    """The secret values of a ``kind`` channel checked: required ones present (or already stored: ``have``),
    addresses checked as addresses. Returns the non-empty values."""
    out: dict[str, str] = {}
    for f in SECRET_FIELDS.get(kind, ()):
        value = values.get(f.name, "").strip()
        if not value:
            if f.required and f.name not in (have or set()):
                raise InputError(QT_TRANSLATE_NOOP("LabGPU", "The {field} is missing."),
                                 QT_TRANSLATE_NOOP("LabGPU", "Paste it from the service's settings page."),
                                 code="MissingNotifySecret", field=f.name)
            continue
        if f.is_url:
            value = check_url(value)
        elif any(c.isspace() or ord(c) < 32 for c in value) and kind != EMAIL:
            raise InputError(QT_TRANSLATE_NOOP("LabGPU", "The {field} contains spaces or control characters."),
                             QT_TRANSLATE_NOOP("LabGPU", "Copy it again without spaces or line breaks."),
                             code="BadNotifySecret", field=f.name)
        out[f.name] = value
    return out
