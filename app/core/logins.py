"""SSH logins as the host recorded them: sshd's own log lines, the journal, syslog files, wtmp/btmp.

Pure parsing (issue 27): app/remote/loginread.py runs the commands on the host and hands the TEXT
here. Everything in a log line may have been chosen by whoever knocked on the port: the user name
an attacker sends is written verbatim into sshd's message ("Invalid user x from 1.2.3.4 port 22 from
203.0.113.9 port 36466"), so

- sshd's formats are matched ANCHORED AT THE END: the real address is the LAST "from ADDR port N"
  (sshd appends it after the user), never the first one found;
- a source is only text that parses as an IP address (``ipaddress``), in its canonical form;
- every text field is made plain (control, format and bidi characters become "?") and capped;
- a line longer than :data:`MAX_LINE` is cut and never yields an event (a genuine sshd result line is
  a few hundred characters; a cut one could end in a forged "from ADDR port N");
- ``FailedLogins`` (app/core/loginfailed.py) keeps a bounded summary however many failures arrive.

Times: syslog and journal times are the host's clock; :class:`HostContext` carries the host's time
zone and how far its clock is off, and every time returned is true UTC.
"""

from __future__ import annotations

import ipaddress
import json
import math
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone, tzinfo
from functools import lru_cache

MAX_LINE = 4096  # a longer line is cut there before parsing (its tail dropped, counted)
MAX_JSON_LINE = 16 * MAX_LINE  # one `journalctl -o json` record (MESSAGE itself is held to MAX_LINE)
USER_CAP = 64
LINE_CAP = 300

METHODS = frozenset({"publickey", "password", "keyboard-interactive", "hostbased", "gssapi-with-mic",
                     "gssapi-keyex", "none"})
SSHD_IDENTIFIERS = frozenset({"sshd", "sshd-session", "sshd-auth"})

# What kind of sshd message an event came from, so one attempt's several lines can be told apart
# ("Invalid user" + "Failed password for invalid user" + "Connection closed by invalid user").
KIND_ACCEPTED = "accepted"
KIND_FAILED = "failed"
KIND_INVALID_USER = "invalid-user"
KIND_CLOSED = "closed-preauth"
KIND_MAX_TRIES = "max-attempts"
KIND_SESSION = "session"  # a wtmp record
KIND_BAD_LOGIN = "bad-login"  # a btmp record


@dataclass
class ParseStats:
    """What the parsers dropped, for a reader that wants to say so (optional argument)."""

    lines_cut: int = 0
    chars_dropped: int = 0


def plain(text: str, cap: int) -> str:
    """``text`` safe to show anywhere: control/format/bidi/separator/unassigned characters → "?",
    at most ``cap`` characters."""
    text = text[:cap]
    if text.isprintable():  # the usual case: nothing in Cc/Cf/Cs/Co/Cn/Zl/Zp
        return text
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        out.append("?" if cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") else ch)
    return "".join(out)


def _cut(line: str, stats: ParseStats | None) -> tuple[str, bool]:
    """(the line held to MAX_LINE, whether it was or may have been cut). A line of exactly MAX_LINE
    characters counts as cut too: a reader that cut it before handing it over leaves that length
    (sshd's messages are ASCII: it writes other bytes as \\ooo)."""
    line = line.rstrip("\r\n")
    if len(line) < MAX_LINE:
        return line, False
    if len(line) > MAX_LINE and stats is not None:
        stats.lines_cut += 1
        stats.chars_dropped += len(line) - MAX_LINE
    return line[:MAX_LINE], True


@lru_cache(maxsize=8192)  # a flood of failed logins repeats its few thousand sources
def parse_address(text: str) -> str:
    """The canonical text of an IP address, or "" for anything else (names, garbage, "0.0.0.0", "::")."""
    if not text or len(text) > 64:
        return ""
    try:
        addr = ipaddress.ip_address(text)
    except ValueError:
        return ""
    if addr.is_unspecified:
        return ""
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        return str(addr.ipv4_mapped)
    return str(addr)


# -- sshd's messages ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ParsedMessage:
    kind: str  # KIND_*
    accepted: bool
    method: str  # one of METHODS or ""
    user: str  # plain, capped
    invalid_user: bool
    source: str  # canonical IP text or ""
    port: int
    key_type: str = ""
    key_fp: str = ""


_FP = r"SHA256:[A-Za-z0-9+/]{43}"
_KEYTYPE = r"[A-Z][A-Z0-9-]{1,31}"
# The ": extra" sshd appends (format_method_key, then ", " + the method's info): "TYPE SHA256:FP", for a
# certificate "TYPE-CERT SHA256:FP ID KEYID (serial N) CA TYPE SHA256:FP", for hostbased
# '…, client user "U", client host "H"'. Only its leading key is read; an MD5 or "(null)" one gives "".
_EXTRA_KEY = re.compile(rf"(?P<kt>{_KEYTYPE}) (?P<fp>{_FP})(?![A-Za-z0-9+/=])")
_AUTH_HEAD = re.compile(r"(?P<verb>Accepted|Failed|Postponed|Partial) (?P<method>.*?) for (?P<rest>.*)")
_TAIL_FROM = re.compile(r" from (?P<addr>[^ ]+) port (?P<port>\d{1,5}) ssh2(?=: |\Z)")
_INVALID = re.compile(r"Invalid user (?P<user>.*) from (?P<addr>[^ ]+) port (?P<port>\d{1,5})")
_CLOSED = re.compile(r"Connection closed by (?P<who>authenticating|invalid) user (?P<user>.*) "
                     r"(?P<addr>[^ ]+) port (?P<port>\d{1,5})")
_MAXTRIES = re.compile(r"maximum authentication attempts exceeded for (?P<inv>invalid user )?(?P<user>.*) "
                       r"from (?P<addr>[^ ]+) port (?P<port>\d{1,5}) ssh2")
_PREAUTH = " [preauth]"


def _port(text: str) -> int | None:
    port = int(text)
    return port if 0 < port <= 65535 else None


def _method(word: str) -> str:
    base = word.split("/", 1)[0]  # "keyboard-interactive/pam"
    return base if base in METHODS else ""


# The common shape, read in one pass: a user name without spaces or ":" can hold no forged " from ADDR port N"
# (there is exactly one), and nothing follows but sshd's own key of a publickey login. Anything else (a user
# with spaces, certificates, hostbased, other methods' info) takes the general path below.
_FAST_AUTH = re.compile(r"(?P<verb>Accepted|Failed) (?P<method>[a-z-]{4,30}(?:/[a-z]{1,10})?) for "
                        r"(?P<inv>invalid user )?(?P<user>[^\s:]{1,100}) from (?P<addr>[0-9A-Fa-f.:]{2,45}) "
                        r"port (?P<port>\d{1,5}) ssh2"
                        r"(?:: (?P<kt>[A-Z][A-Z0-9-]{1,31}) (?P<fp>SHA256:[A-Za-z0-9+/]{43}))?")


def _fast_auth(msg: str) -> ParsedMessage | None | bool:
    """The common shape's ParsedMessage (None: not a login after all), or False: take the general path."""
    m = _FAST_AUTH.fullmatch(msg)
    if m is None:
        return False
    method = _method(m["method"])
    if m["kt"] is not None and method != "publickey":
        return False
    kind = KIND_ACCEPTED if m["verb"] == "Accepted" else KIND_FAILED
    return _made(kind, kind == KIND_ACCEPTED, method, m["user"], m["inv"] is not None, m["addr"], m["port"],
                 m["kt"] or "", m["fp"] or "")


def parse_sshd_message(msg: str) -> ParsedMessage | None:
    """One sshd message (without any syslog prefix) → what it says about an authentication result,
    or None for every other message. See the module docstring for forged fields."""
    msg = msg.rstrip("\r\n")
    if len(msg) >= MAX_LINE:  # cut (or may have been): its end is not sshd's
        return None
    fast = _fast_auth(msg)
    if fast is not False:
        return fast  # type: ignore[return-value]
    if msg.startswith("error: "):  # syslog's prefix for error() (not on stderr / -E)
        msg = msg[len("error: "):]
    preauth = msg.endswith(_PREAUTH)
    body = msg[: -len(_PREAUTH)] if preauth else msg
    if body.startswith(("Accepted ", "Failed ", "Postponed ", "Partial ")):
        return _auth_log(body)
    if body.startswith("Invalid user "):
        m = _INVALID.fullmatch(body)
        if m is None:
            return None
        return _made(KIND_INVALID_USER, False, "", m["user"], True, m["addr"], m["port"])
    if body.startswith("Connection closed by ") and preauth:
        m = _CLOSED.fullmatch(body)
        if m is None:
            return None
        return _made(KIND_CLOSED, False, "", m["user"], m["who"] == "invalid", m["addr"], m["port"])
    if body.startswith("maximum authentication attempts exceeded for "):
        m = _MAXTRIES.fullmatch(body)
        if m is None:
            return None
        return _made(KIND_MAX_TRIES, False, "", m["user"], m["inv"] is not None, m["addr"], m["port"])
    return None


def _made(kind: str, accepted: bool, method: str, user: str, invalid: bool, addr: str, port_text: str,
          key_type: str = "", key_fp: str = "") -> ParsedMessage | None:
    port = _port(port_text)
    source = parse_address(addr)
    if port is None or not source:
        return None
    return ParsedMessage(kind, accepted, method, plain(user, USER_CAP), invalid, source, port, key_type, key_fp)


def _auth_log(body: str) -> ParsedMessage | None:
    """"%s %s%s%s for %s%.100s from %.200s port %d ssh2%s%s" (auth.c auth_log)."""
    head = _AUTH_HEAD.fullmatch(body)
    if head is None or head["verb"] in ("Postponed", "Partial"):
        return None
    rest = head["rest"]
    # Which " from ADDR port N ssh2" is sshd's own (the user name before it and, for a certificate
    # or hostbased, the key ID / client names after it are the client's text):
    # 1. the LAST one followed by nothing or exactly ": TYPE SHA256:FP" — always sshd's: a forgery
    #    after sshd's own would have to end the message, but sshd writes the end of a certificate
    #    (" CA TYPE FP") or hostbased ('host "…"') line itself; a forgery before it is followed by
    #    the rest of the line;
    # 2. else (a certificate, hostbased, an MD5 key, a method's info) the FIRST one followed by ": ": a
    #    forgery in the user name before it would need a ":" there, and OpenSSH cuts the name at its
    #    first ":" (user:style).
    found = None
    for m in _TAIL_FROM.finditer(rest):
        tail = rest[m.end():]
        if not tail or _EXTRA_KEY.fullmatch(tail, 2) is not None:
            found = m
    if found is None:
        found = next(_TAIL_FROM.finditer(rest), None)
        if found is None:
            return None
    tail = rest[found.end():]
    extra = _EXTRA_KEY.match(tail, 2) if tail else None
    method = _method(head["method"])
    key_type, key_fp = (extra["kt"], extra["fp"]) if extra is not None and method in ("publickey", "hostbased") \
        else ("", "")
    user = rest[: found.start()]
    invalid = user.startswith("invalid user ")
    if invalid:
        user = user[len("invalid user "):]
    kind = KIND_ACCEPTED if head["verb"] == "Accepted" else KIND_FAILED
    return _made(kind, kind == KIND_ACCEPTED, method, user, invalid, found["addr"], found["port"], key_type, key_fp)


# -- the host's clock -------------------------------------------------------------------------------
_OFFSET = re.compile(r"([+-])(\d{2}):?(\d{2})")


@lru_cache(maxsize=64)
def parse_utcoffset(text: str) -> timezone | None:
    """``date +%z`` ("+0800", "-0530") or "+08:00" → a fixed offset; None for anything else."""
    m = _OFFSET.fullmatch(text.strip())
    if m is None or int(m[3]) >= 60:
        return None
    delta = timedelta(hours=int(m[2]), minutes=int(m[3]))
    if delta >= timedelta(hours=24):
        return None
    return timezone(-delta if m[1] == "-" else delta)


@dataclass(frozen=True)
class HostContext:
    host_now: datetime  # the host's clock reading (aware), taken with the read
    host_tz: tzinfo  # from the host's `date +%z`
    clock_offset_s: float  # host clock − true clock (seconds); every parsed time is corrected by −offset
    note: str = ""  # what was assumed ("" when the probe was clean)

    @classmethod
    def from_probe(cls, host_epoch: float, host_utcoffset: str, local_epoch: float) -> HostContext:
        """``date +%s`` and ``date +%z`` read on the host, and the true time of that read here."""
        notes = []
        tz = parse_utcoffset(host_utcoffset)
        if tz is None:
            tz = timezone.utc
            notes.append(f"the host's time zone {plain(host_utcoffset, 40)!r} was not understood; UTC assumed")
        if not (math.isfinite(host_epoch) and math.isfinite(local_epoch)) or not (
            0 <= host_epoch < 253402300799 and 0 <= local_epoch < 253402300799
        ):
            notes.append("the host's clock could not be read; it is taken as right")
            host_epoch = local_epoch if math.isfinite(local_epoch) and 0 <= local_epoch < 253402300799 else 0.0
            local_epoch = host_epoch
        return cls(datetime.fromtimestamp(host_epoch, tz), tz, host_epoch - local_epoch, "; ".join(notes))

    def to_true_utc(self, host_time: datetime) -> datetime | None:
        """A time on the host's clock → true UTC (None when it falls outside datetime's range)."""
        try:
            return (host_time - timedelta(seconds=self.clock_offset_s)).astimezone(timezone.utc)
        except (OverflowError, ValueError):
            return None


# -- one login ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LoginEvent:
    time: datetime | None  # UTC, already corrected by clock_offset_s; None = the log line had no time
    user: str  # as sshd wrote it, made plain, capped 64 chars
    method: str  # one of METHODS or "" (unknown, e.g. from wtmp)
    source: str  # an IP address in canonical text or "" — never anything that is not a parsed address
    port: int  # 0 = unknown
    accepted: bool
    invalid_user: bool  # sshd said "invalid user"
    key_type: str  # "ED25519", "RSA", … ("" unless publickey/hostbased)
    key_fp: str  # "SHA256:…" or ""
    origin: str  # "journal" | "syslog" | "sshd-log" | "wtmp" | "btmp"
    line: str  # the source line made plain, capped 300 chars
    kind: str = ""  # KIND_*: which message it came from

    def to_json(self) -> dict[str, object]:
        return {
            "time": self.time.astimezone(timezone.utc).isoformat() if self.time is not None else "",
            "user": self.user,
            "method": self.method,
            "source": self.source,
            "port": self.port,
            "accepted": self.accepted,
            "invalid_user": self.invalid_user,
            "key_type": self.key_type,
            "key_fp": self.key_fp,
            "origin": self.origin,
            "kind": self.kind,
        }


def _event(p: ParsedMessage, time: datetime | None, origin: str, line: str) -> LoginEvent:
    return LoginEvent(time, p.user, p.method, p.source, p.port, p.accepted, p.invalid_user, p.key_type,
                      p.key_fp, origin, plain(line, LINE_CAP), p.kind)


# -- syslog files (/var/log/auth.log, /var/log/secure) ----------------------------------------------
_MONTHS = {m: i for i, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                                        "Nov", "Dec"), start=1)}
_TRADITIONAL = re.compile(r"(?P<mon>[A-Z][a-z]{2}) {1,2}(?P<day>\d{1,2}) (?P<h>\d{2}):(?P<m>\d{2}):(?P<s>\d{2}) "
                          r"(?P<host>\S+) (?P<rest>.*)")
_RFC3339 = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})T(?P<h>\d{2}):(?P<m>\d{2}):(?P<s>\d{2})(?:\.(?P<frac>\d{1,9}))?"
                      r"(?P<tz>Z|[+-]\d{2}:\d{2}) (?P<host>\S+) (?P<rest>.*)")
_TAG = re.compile(r"(?P<ident>[^\s\[\]:]+)(?:\[(?P<pid>\d{1,10})\])?: (?P<msg>.*)")


def _traditional_time(m: re.Match[str], ctx: HostContext) -> datetime | None:
    mon = _MONTHS.get(m["mon"])
    if mon is None:
        return None
    now = ctx.host_now.astimezone(ctx.host_tz)
    year = now.year - 1 if mon > now.month else now.year  # December lines read in January
    try:
        local = datetime(year, mon, int(m["day"]), int(m["h"]), int(m["m"]), int(m["s"]), tzinfo=ctx.host_tz)
    except ValueError:
        return None
    return ctx.to_true_utc(local)


@lru_cache(maxsize=4096)  # lines of one second share their stamp
def _rfc3339_local(date: str, h: str, mi: str, sec: str, frac: str | None, zone: str) -> datetime | None:
    tz = timezone.utc if zone == "Z" else parse_utcoffset(zone)
    if tz is None:
        return None
    micro = int((frac or "0").ljust(6, "0")[:6])
    try:
        y, mo, d = (int(x) for x in date.split("-"))
        return datetime(y, mo, d, int(h), int(mi), int(sec), micro, tzinfo=tz)
    except ValueError:
        return None


def _rfc3339_time(m: re.Match[str], ctx: HostContext) -> datetime | None:
    local = _rfc3339_local(m["date"], m["h"], m["m"], m["s"], m["frac"], m["tz"])
    return None if local is None else ctx.to_true_utc(local)


def parse_syslog_line(line: str, ctx: HostContext, *, stats: ParseStats | None = None) -> LoginEvent | None:
    """One auth.log / secure line, traditional ("Dec  5 23:50:28 HOST sshd[123]: MSG", host local
    time, no year) or RFC 3339 ("2026-12-05T23:50:28.123456+08:00 HOST sshd[123]: MSG"). Only lines
    whose identifier field is sshd / sshd-session / sshd-auth count."""
    text, cut = _cut(line, stats)
    if cut:
        return None
    m3 = _RFC3339.fullmatch(text)
    if m3 is not None:
        rest, time = m3["rest"], _rfc3339_time(m3, ctx)
    else:
        mt = _TRADITIONAL.fullmatch(text)
        if mt is None:
            return None
        rest, time = mt["rest"], _traditional_time(mt, ctx)
    tag = _TAG.fullmatch(rest)
    if tag is None or tag["ident"] not in SSHD_IDENTIFIERS:
        return None
    parsed = parse_sshd_message(tag["msg"])
    return None if parsed is None else _event(parsed, time, "syslog", text)


# -- the journal -------------------------------------------------------------------------------------
def _journal_text(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and len(value) <= MAX_LINE * 4 and all(
        isinstance(b, int) and not isinstance(b, bool) and 0 <= b <= 255 for b in value
    ):
        return bytes(value).decode("utf-8", "replace")
    return None


def parse_journal_json(line: str, ctx: HostContext, *,
                       stats: ParseStats | None = None) -> tuple[LoginEvent | None, str]:
    """One ``journalctl -o json`` line → (the event or None, its __CURSOR or "")."""
    line = line.rstrip("\r\n")
    if len(line) > MAX_JSON_LINE:
        if stats is not None:
            stats.lines_cut += 1
            stats.chars_dropped += len(line)
        return None, ""
    try:
        rec = json.loads(line)
    except (ValueError, RecursionError):
        return None, ""
    if not isinstance(rec, dict):
        return None, ""
    cursor = rec.get("__CURSOR")
    cursor = cursor if isinstance(cursor, str) and len(cursor) <= 1024 and cursor.isprintable() else ""
    ident = _journal_text(rec.get("SYSLOG_IDENTIFIER"))
    if ident not in SSHD_IDENTIFIERS:
        return None, cursor
    msg = _journal_text(rec.get("MESSAGE"))
    if msg is None:
        return None, cursor
    msg, cut = _cut(msg, stats)
    parsed = None if cut else parse_sshd_message(msg)
    if parsed is None:
        return None, cursor
    time = None
    stamp = rec.get("__REALTIME_TIMESTAMP")
    if isinstance(stamp, str) and stamp.isdigit() and len(stamp) <= 18:
        try:
            host_time = datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(microseconds=int(stamp))
        except OverflowError:
            host_time = None
        time = ctx.to_true_utc(host_time) if host_time is not None else None
    return _event(parsed, time, "journal", f"{ident}: {msg}"), cursor


# -- sshd -E FILE ------------------------------------------------------------------------------------
def parse_sshd_log_line(line: str, ctx: HostContext, read_time: datetime | None, *,
                        stats: ParseStats | None = None) -> LoginEvent | None:
    """A line of the file ``sshd -E FILE`` writes: just "MSG\\r\\n", no time of its own (OpenSSH 9.2).
    ``read_time`` is the HOST's clock at the read that first saw the line (e.g. that read's
    ``ctx.host_now``), corrected like every host time; None when the line was already there."""
    text, cut = _cut(line, stats)
    if cut:
        return None
    parsed = parse_sshd_message(text)
    if parsed is None:
        return None
    time = ctx.to_true_utc(read_time) if read_time is not None else None
    return _event(parsed, time, "sshd-log", text)


# -- last / lastb ------------------------------------------------------------------------------------
_ISO = r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})"
_LAST_TAIL = re.compile(
    rf"\s+(?P<tty>\S+)\s+(?P<host>\S+)\s+(?P<t>{_ISO})"
    rf"(?:\s+-\s+(?:{_ISO}|crash|down)\s+\([^()]*\)|\s+still logged in|\s+still running|\s+gone - no logout)\s*"
)
_ISO_PARTS = re.compile(r"(?P<date>\d{4}-\d{2}-\d{2})T(?P<h>\d{2}):(?P<m>\d{2}):(?P<s>\d{2})(?:[.,](?P<frac>\d{1,9}))?"
                        r"(?P<tz>Z|[+-]\d{2}:?\d{2})")
_REBOOT = re.compile(r"(?:reboot|shutdown)\s+system (?:boot|down)\s")


def _iso_time(text: str, ctx: HostContext) -> datetime | None:
    t = _ISO_PARTS.fullmatch(text)
    if t is None:
        return None
    tz = timezone.utc if t["tz"] == "Z" else parse_utcoffset(t["tz"])
    if tz is None:
        return None
    micro = int((t["frac"] or "0").ljust(6, "0")[:6])
    try:
        y, mo, d = (int(x) for x in t["date"].split("-"))
        local = datetime(y, mo, d, int(t["h"]), int(t["m"]), int(t["s"]), micro, tzinfo=tz)
    except ValueError:
        return None
    return ctx.to_true_utc(local)


def parse_last_line(line: str, ctx: HostContext, failed: bool, *,
                    stats: ParseStats | None = None) -> LoginEvent | None:
    """A ``last -i -w --time-format iso`` (wtmp) or ``lastb …`` (btmp, ``failed``) line:
    "USER  pts/0  1.2.3.4  2026-12-05T10:00:00+00:00 - 2026-12-05T11:00:00+00:00  (01:00)".
    (util-linux refuses -F together with --time-format.) The user may hold spaces (btmp records
    what a stranger typed), so the fields are taken from the RIGHT: the rightmost split whose tail is
    "TTY HOST TIME" and a logout part. "reboot" and "… begins" lines give None."""
    text, cut = _cut(line, stats)
    if cut or not text.strip() or _REBOOT.match(text):
        return None
    found = None
    for i in range(len(text) - 1, -1, -1):
        if text[i].isspace() and (i == 0 or not text[i - 1].isspace()):
            found = _LAST_TAIL.fullmatch(text, i)
            if found is not None:
                break
    if found is None:
        return None
    user = text[: found.start()].strip()
    if found["tty"] == "~":  # run-level / boot records
        return None
    return LoginEvent(_iso_time(found["t"], ctx), plain(user, USER_CAP), "", parse_address(found["host"]), 0,
                      not failed, False, "", "", "btmp" if failed else "wtmp", plain(text, LINE_CAP),
                      KIND_BAD_LOGIN if failed else KIND_SESSION)
