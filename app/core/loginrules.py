"""Is an SSH login unusual, and why (issue 27): pure rules over a parsed :class:`LoginEvent`.

Only ACCEPTED logins can be unusual; failed ones are noise summarised by ``FailedLogins``
(app/core/loginfailed.py). One of
LabGPU's own sessions (the exact source address and port the host saw in SSH_CONNECTION) is never
unusual. An IPv4-mapped IPv6 address ("::ffff:1.2.3.4") is the same as its IPv4 address everywhere
here. A login whose time is unknown is never "unusual-hour", and one whose source is unknown ("",
e.g. a console login in wtmp) is never "unknown-source": the alert never claims what it did not see.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass
from datetime import tzinfo
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.logins import LoginEvent

CONTEXT = "Logins"

UNKNOWN_SOURCE = "unknown-source"
UNUSUAL_HOUR = "unusual-hour"
UNKNOWN_USER = "unknown-user"
UNKNOWN_KEY = "unknown-key"
CODES = (UNKNOWN_SOURCE, UNUSUAL_HOUR, UNKNOWN_USER, UNKNOWN_KEY)

# code → an English sentence part (a template: {source}, {time}, {hours}, {user}, {key})
WHY_TEXT: dict[str, str] = {
    UNKNOWN_SOURCE: QT_TRANSLATE_NOOP("Logins", "from {source}, an address LabGPU has never connected from"),
    UNUSUAL_HOUR: QT_TRANSLATE_NOOP("Logins", "at {time}, inside your unusual hours ({hours})"),
    UNKNOWN_USER: QT_TRANSLATE_NOOP("Logins", "as a user LabGPU did not set up ({user})"),
    UNKNOWN_KEY: QT_TRANSLATE_NOOP("Logins", "with a key LabGPU does not know ({key})"),
}

Address = IPv4Address | IPv6Address
Network = IPv4Network | IPv6Network


@dataclass(frozen=True)
class LoginPolicy:
    own_sessions: frozenset[tuple[str, int]]  # (address, port) of LabGPU's own SSH sessions (SSH_CONNECTION)
    own_sources: frozenset[str]  # addresses LabGPU's own sessions came from (recent)
    trusted_networks: tuple[Network, ...]  # the VPN ranges and the student's own networks
    expected_users: frozenset[str]  # the login user(s) LabGPU set up for this host (empty = not judged)
    known_keys: frozenset[str]  # SHA256 fingerprints of keys LabGPU uses / set up (empty = not judged)
    unusual_hours: tuple[int, int] | None  # [start, end) hours in ``tz``, may wrap midnight; None = off
    tz: tzinfo  # the student's (laptop) time zone


@dataclass(frozen=True)
class Verdict:
    own: bool  # one of LabGPU's own sessions (exact address+port) → never unusual
    unusual: bool
    why: tuple[str, ...]  # codes from CODES, in that order


def address(text: str) -> Address | None:
    """An address (IPv4-mapped IPv6 folded to IPv4), or None for anything that is not one."""
    try:
        addr = ipaddress.ip_address(text.strip())
    except ValueError:
        return None
    if isinstance(addr, IPv6Address) and addr.ipv4_mapped is not None:
        return addr.ipv4_mapped
    return addr


def _network_holds(net: Network, addr: Address) -> bool:
    if net.version == addr.version:
        return addr in net
    if isinstance(net, IPv6Network) and isinstance(addr, IPv4Address):  # a ::ffff:0:0/96-style range
        return IPv6Address("::ffff:" + str(addr)) in net
    return False


def in_hours(hour: int, hours: tuple[int, int]) -> bool:
    """``hour`` inside [start, end), wrapping midnight when start > end; start == end is empty."""
    start, end = hours[0] % 24, hours[1] % 24
    if start == end:
        return False
    return start <= hour < end if start < end else (hour >= start or hour < end)


def _is_own(ev: LoginEvent, policy: LoginPolicy) -> bool:
    addr = address(ev.source)
    if addr is None or ev.port <= 0:
        return False
    return any(address(a) == addr and p == ev.port for a, p in policy.own_sessions)


def judge(ev: LoginEvent, policy: LoginPolicy) -> Verdict:
    """Why (if at all) an accepted login is unusual under ``policy``."""
    if _is_own(ev, policy):
        return Verdict(own=True, unusual=False, why=())
    if not ev.accepted:
        return Verdict(own=False, unusual=False, why=())
    why: list[str] = []
    addr = address(ev.source)
    if addr is not None:
        known = any(address(a) == addr for a in policy.own_sources) or any(
            _network_holds(net, addr) for net in policy.trusted_networks
        )
        if not known:
            why.append(UNKNOWN_SOURCE)
    if policy.unusual_hours is not None and ev.time is not None:
        try:
            hour = ev.time.astimezone(policy.tz).hour
        except (OverflowError, ValueError):
            hour = -1
        if hour >= 0 and in_hours(hour, policy.unusual_hours):
            why.append(UNUSUAL_HOUR)
    if policy.expected_users and ev.user not in policy.expected_users:
        why.append(UNKNOWN_USER)
    if policy.known_keys and ev.key_fp and ev.key_fp not in policy.known_keys:
        why.append(UNKNOWN_KEY)
    return Verdict(own=False, unusual=bool(why), why=tuple(why))


def identity(text: str) -> str:
    return text


def _hours_text(hours: tuple[int, int]) -> str:
    return f"{hours[0] % 24:02d}:00–{hours[1] % 24:02d}:00"


def why_texts(v: Verdict, ev: LoginEvent, policy: LoginPolicy,
              tr: Callable[[str], str] = identity) -> list[str]:
    """One sentence part per reason, translated by ``tr`` (a translation whose placeholders do not
    fit falls back to the English template)."""
    time_text = ""
    if ev.time is not None:
        try:
            time_text = ev.time.astimezone(policy.tz).strftime("%H:%M")
        except (OverflowError, ValueError):
            time_text = ""
    values = {
        "source": ev.source or "?",
        "time": time_text or "?",
        "hours": _hours_text(policy.unusual_hours) if policy.unusual_hours is not None else "",
        "user": ev.user,
        "key": (ev.key_type + " " + ev.key_fp).strip(),
    }
    out = []
    for code in v.why:
        template = WHY_TEXT.get(code)
        if template is None:
            continue
        try:
            out.append(tr(template).format(**values))
        except (KeyError, IndexError, ValueError):
            out.append(template.format(**values))
    return out
