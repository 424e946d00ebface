"""Who logged in to a host: read its SSH login records, judge each accepted login, alert once.

``check_host`` is the one journey (the CLI's ``labgpu logins HOST``, the Hosts page's "Recent logins" and
the watcher every few minutes call it): connect with the host key verified, probe where sshd's words are
(app/remote/loginread.py), read what is new since the last check (bounded per check), parse it as sshd
writes it (app/core/logins.py), judge each accepted login against what LabGPU knows (app/core/loginrules.py:
the addresses its own sessions came from as the host saw them, ``SSH_CONNECTION``; the student's trusted
networks; the login user and the keys LabGPU logs in with; the unusual hours), store it
(app/core/loginstore.py) and alert:

- each unusual accepted login once (``login-unusual``), naming only what the log said (user, method,
  source address, time, why); never one of LabGPU's own sessions;
- failed logins as one summary (``login-failures``: count, distinct sources, the top few) once the
  tally since the last summary reaches the threshold, and at most once per quiet period per host.

An alert goes to ``alert(kind, host, params, message)``: the watcher's event (tray, notification
channels, audit) or, from the CLI, :func:`notify_alert` (channels + audit log).
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from app.core.audit import AuditLog
from app.core.errors import LabGpuError
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.loginfailed import FailedLogins
from app.core.loginrules import LoginPolicy, judge, why_texts
from app.core.logins import (
    HostContext,
    LoginEvent,
    parse_journal_json,
    parse_last_line,
    parse_sshd_log_line,
    parse_syslog_line,
)
from app.core.loginstore import LoginSettings, LoginState, LoginStore, StoredLogin
from app.core.paths import Paths
from app.core.settings import SettingsStore, read_section
from app.core.store import Store
from app.core.vocab import GuardEventKind as K
from app.remote import loginread

if TYPE_CHECKING:
    from app.remote.ssh import Connection

log = logging.getLogger(__name__)

Connect = Callable[[], "Connection"]
Alert = Callable[[str, str, dict[str, Any], str], None]  # (kind, host, params, message)

FIRST_WINDOW_S = 24 * 3600  # a host's first read goes back this far (journal) / this many bytes (file)
TOP = 5
KEEP_FAILED = 2000  # failed logins kept one by one per check (the newest; all are counted)
KEEP_ACCEPTED = 5000  # accepted logins kept per check (a log with more is a forged flood: said)

NOTE_JOURNAL_DENIED = QT_TRANSLATE_NOOP(
    "Logins", "The system journal on {host} is readable only by the groups adm and systemd-journal, and sudo asks "
              "{user} for a password. Add the user to one: sudo usermod -aG adm {user}")
NOTE_FILE_DENIED = QT_TRANSLATE_NOOP(
    "Logins", "{path} on {host} is not readable by {user}, and sudo asks for a password. Add the user to the group "
              "that reads it: sudo usermod -aG adm {user}")
NOTE_NO_LOG = QT_TRANSLATE_NOOP(
    "Logins", "{host} keeps no SSH log LabGPU can read (no journal, no /var/log/auth.log or /var/log/secure). If its "
              "sshd writes elsewhere (sshd -E FILE), give the path: labgpu logins {host} --log FILE")
NOTE_WTMP_ONLY = QT_TRANSLATE_NOOP(
    "Logins", "Only the session records (wtmp) of {host} could be read: they show who logged in and from where, "
              "but not failed logins or which key was used.")
NOTE_NOTHING = QT_TRANSLATE_NOOP(
    "Logins", "No login record of {host} could be read: no SSH log and no session records (wtmp).")
NOTE_LOST = QT_TRANSLATE_NOOP(
    "Logins", "The log of {host} was rotated and compressed before LabGPU finished reading it: some logins "
              "between two checks were not read.")
NOTE_MORE = QT_TRANSLATE_NOOP(
    "Logins", "{host} has more log than one check reads ({mib} MiB); the rest is read at the next check.")
NOTE_CLOCK = QT_TRANSLATE_NOOP(
    "Logins", "The clock of {host} is {offset} off; login times are shown corrected.")
NOTE_CUT = QT_TRANSLATE_NOOP("Logins", "{count} log lines longer than 4 KiB were cut.")
NOTE_FLOOD = QT_TRANSLATE_NOOP("Logins", "{host} logged {count} accepted logins since the last check; the newest "
                                         "{kept} were kept.")
NOTE_USER_PATH = QT_TRANSLATE_NOOP(
    "Logins", "The log file {path} on {host} is {state}. Check the path (labgpu logins {host} --log FILE).")
STATE_MISSING = QT_TRANSLATE_NOOP("Logins", "missing")
STATE_DENIED = QT_TRANSLATE_NOOP("Logins", "not readable")

MSG_UNUSUAL = QT_TRANSLATE_NOOP("Logins", "{target}: SSH login by {user} from {source} at {time} ({method}) — {why}")
MSG_FAILURES = QT_TRANSLATE_NOOP("Logins", "{target}: {count} failed SSH logins from {sources} addresses since "
                                           "{since}; most from {top}")
TIME_UNKNOWN = QT_TRANSLATE_NOOP("Logins", "an unknown time (before {first})")
# a verdict's reasons in a word or two (a table's column; the whole sentence is why_texts)
SHORT_WHY = {
    "unknown-source": QT_TRANSLATE_NOOP("Logins", "new address"),
    "unusual-hour": QT_TRANSLATE_NOOP("Logins", "unusual hour"),
    "unknown-user": QT_TRANSLATE_NOOP("Logins", "unknown user"),
    "unknown-key": QT_TRANSLATE_NOOP("Logins", "unknown key"),
}


def _tr(text: str) -> str:
    return translate(text, "Logins")


@dataclass
class LoginReport:
    host: str
    source: str  # "journal", "file", "last" or ""
    path: str  # the log file read ("" for the journal / wtmp)
    complete: bool  # an sshd log was read: failed logins, methods and keys are known
    notes: list[str]  # translated: what could not be read, or was read only in part
    logins: list[StoredLogin]  # newest first, since the asked time
    failed: dict[str, Any]  # the failed logins among ``logins``: count, sources, top sources / users
    alerts: list[tuple[str, dict[str, Any]]] = field(default_factory=list)  # (kind, params) sent in this check
    clock_offset_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"host": self.host, "source": self.source, "path": self.path, "complete": self.complete,
                "notes": self.notes, "failed": self.failed, "clock_offset_s": round(self.clock_offset_s, 1),
                "logins": [x.to_json() for x in self.logins]}


def settings_of(paths: Paths) -> LoginSettings:
    return read_section(SettingsStore(paths).load(), ["logins"], LoginSettings)


def policy_for(paths: Paths, store: Store, host: str, settings: LoginSettings, ls: LoginStore,
               now: float) -> LoginPolicy:
    from app.core.hosts import HostStore

    rec = HostStore(store, paths).find(host)
    users = {rec.user} if rec is not None and rec.user else set()
    sources, sessions = ls.own(host, now)
    return LoginPolicy(own_sessions=sessions, own_sources=sources, trusted_networks=settings.networks(),
                       expected_users=frozenset(users), known_keys=ls.keys(host),
                       unusual_hours=settings.hours(), tz=datetime.now().astimezone().tzinfo or timezone.utc)


def _offset_text(seconds: float) -> str:
    s = abs(seconds)
    m = round(s / 60)  # the probe and the local clock are read a moment apart: whole minutes
    word = f"{m // 60} h {m % 60} min" if m >= 60 else f"{m} min"
    return ("+" if seconds >= 0 else "−") + word


def _choose(pr: loginread.Probe, st: LoginState, host: str) -> tuple[str, str, bool, list[str]]:
    """(source, path, sudo, notes) from what the probe found."""
    notes: list[str] = []
    user = pr.head.user or "?"
    if st.user_path:
        state = pr.files.get(st.user_path, "missing")
        if state == "ok" or (state == "denied" and pr.sudo):
            return "file", st.user_path, state != "ok", notes
        notes.append(_tr(NOTE_USER_PATH).format(path=st.user_path, host=host,
                                                state=_tr(STATE_MISSING if state == "missing" else STATE_DENIED)))
    if pr.journal == "ok" or (pr.journal == "denied" and pr.sudo):
        return "journal", "", pr.journal != "ok", notes
    if pr.journal == "denied":
        notes.append(_tr(NOTE_JOURNAL_DENIED).format(host=host, user=user))
    for path in loginread.SYSTEM_LOGS:
        state = pr.files.get(path, "missing")
        if state == "ok" or (state == "denied" and pr.sudo):
            return "file", path, state != "ok", notes
        if state == "denied":
            notes.append(_tr(NOTE_FILE_DENIED).format(path=path, host=host, user=user))
    if not st.user_path and pr.journal != "denied" and not any(
            pr.files.get(p) == "denied" for p in loginread.SYSTEM_LOGS):
        notes.append(_tr(NOTE_NO_LOG).format(host=host))
    if pr.last:
        notes.append(_tr(NOTE_WTMP_ONLY).format(host=host))
        return "last", "", False, notes
    return "", "", False, notes


class Collected:
    """What one check read, bounded whatever the log holds: the accepted logins (the newest
    KEEP_ACCEPTED), the failed ones summarised (FailedLogins) with the newest KEEP_FAILED kept one by one."""

    def __init__(self) -> None:
        self.accepted: deque[LoginEvent] = deque(maxlen=KEEP_ACCEPTED)
        self.failed_tail: deque[LoginEvent] = deque(maxlen=KEEP_FAILED)
        self.failed = FailedLogins()
        self.accepted_seen = 0

    def append(self, ev: LoginEvent) -> None:
        if ev.accepted:
            self.accepted.append(ev)
            self.accepted_seen += 1
        else:
            self.failed.add(ev)
            self.failed_tail.append(ev)

    def extend(self, evs: Iterable[LoginEvent]) -> None:
        for ev in evs:
            self.append(ev)


def _read(conn: Connection, st: LoginState, source: str, path: str, sudo: bool, local_now: float,
          notes: list[str], host: str, jver: int) -> tuple[LoginState, Collected, HostContext | None]:
    """Everything new since ``st`` (bounded per check), parsed; the state to save next."""
    events = Collected()
    ctx: HostContext | None = None
    first = st.first_read is None or st.source != source or st.path != path
    if first:
        st = replace(st, source=source, path=path, cursor="", inode="", offset=0)

    def context(head: loginread.HostHead) -> HostContext:
        return HostContext.from_probe(float(head.now if head.now is not None else local_now), head.tz or "+0000",
                                      local_now)

    cut = 0
    if source == "journal":
        cursor, budget = st.cursor, loginread.BUDGET
        since = int(local_now - FIRST_WINDOW_S)
        while True:
            head, jchunk = loginread.read_journal(conn, cursor, since, version=jver, sudo=sudo)
            ctx = ctx or context(head)
            for line in jchunk.lines:
                ev, cur = parse_journal_json(line, ctx)
                cursor = cur or cursor
                if ev is not None:
                    events.append(ev)
            budget -= jchunk.nbytes
            if not jchunk.more or not jchunk.lines:
                break
            if budget <= 0:
                notes.append(_tr(NOTE_MORE).format(host=host, mib=max(1, loginread.BUDGET >> 20)))
                break
        st = replace(st, cursor=cursor)
    elif source == "file":
        inode, offset = st.inode, st.offset
        left = False
        for head, chunk in loginread.iter_file(conn, path, inode, offset, sudo=sudo,
                                               tail=loginread.FIRST_TAIL):
            ctx = ctx or context(head)
            if chunk.status != "ok":
                notes.append(_tr(NOTE_USER_PATH).format(path=path, host=host, state=_tr(
                    STATE_MISSING if chunk.status == "missing" else STATE_DENIED)))
                break
            if chunk.lost:
                notes.append(_tr(NOTE_LOST).format(host=host))
            cut += chunk.cut_lines
            for line in chunk.lines:
                ev = parse_syslog_line(line, ctx)
                if ev is None and path == st.user_path:
                    # a file only sshd writes (-E): no time in it; a line read at the first read is older
                    ev = parse_sshd_log_line(line, ctx, None if first else ctx.host_now)
                if ev is not None:
                    events.append(ev)
            inode, offset = chunk.inode, chunk.offset
            left = chunk.more and not chunk.lost
        if left:
            notes.append(_tr(NOTE_MORE).format(host=host, mib=max(1, loginread.BUDGET >> 20)))
        st = replace(st, inode=inode, offset=offset)
    elif source == "last":
        for failed in (False, True):
            if failed and not sudo:
                continue
            head, lchunk = loginread.read_last(conn, failed, sudo=sudo)
            ctx = ctx or context(head)
            events.extend(ev for ev in (parse_last_line(line, ctx, failed) for line in lchunk.lines) if ev)
    if cut:
        notes.append(_tr(NOTE_CUT).format(count=cut))
    return st, events, ctx


def check_host(paths: Paths, store: Store, host: str, *, since: datetime | None = None,
               connect: Connect | None = None, now: float | None = None, alert: Alert | None = None,
               settings: LoginSettings | None = None) -> LoginReport:
    """Read ``host``'s logins that are new since the last check, judge, store and alert; the report lists
    what is stored since ``since`` (default: the last 24 hours). Raises a LabGpuError when the host cannot
    be reached, or when no login record of it can be read at all."""
    from app.usecases.guards import connect_target

    t = time.time() if now is None else now
    settings = settings or settings_of(paths)
    ls = LoginStore(store)
    st = ls.state(host)
    conn = (connect or connect_target(paths, host))()
    try:
        pr = loginread.probe(conn, tuple(p for p in (st.user_path, *loginread.SYSTEM_LOGS) if p))
        ls.note_own(host, pr.head.client, pr.head.client_port, t)
        ls.note_own(host, pr.head.client, 0, t)
        from app.remote.ssh.auth import login_used

        method, fp = login_used(getattr(conn, "transport", None))
        if method == "publickey":
            ls.note_key(host, fp, t)
        source, path, sudo, notes = _choose(pr, st, host)
        if not source:
            raise LabGpuError(NOTE_NOTHING, NOTE_NO_LOG, code="NoLoginRecords", host=host)
        st, events, ctx = _read(conn, st, source, path, sudo, t, notes, host, pr.journal_version)
    finally:
        conn.close()
    offset = ctx.clock_offset_s if ctx is not None else 0.0
    if abs(offset) > 60:
        notes.append(_tr(NOTE_CLOCK).format(host=host, offset=_offset_text(offset)))
    if events.accepted_seen > KEEP_ACCEPTED:
        notes.append(_tr(NOTE_FLOOD).format(host=host, count=events.accepted_seen, kept=KEEP_ACCEPTED))
    policy = policy_for(paths, store, host, settings, ls, t)
    rows = []
    for ev in list(events.failed_tail) + list(events.accepted):
        v = judge(ev, policy)
        rows.append({**{k: getattr(ev, k) for k in ("time", "user", "method", "source", "port", "accepted",
                                                   "invalid_user", "key_type", "key_fp", "origin", "line")},
                     "own": v.own, "unusual": v.unusual, "why": v.why})
    failed = events.failed
    new_ids = ls.add(host, rows, t)
    first_read = st.first_read if st.first_read is not None else t
    st = replace(st, sudo=sudo, first_read=first_read, last_read=t, notes=tuple(notes))
    report = LoginReport(host, source, path, source in ("journal", "file"), notes, [], {}, clock_offset_s=offset)
    sent = _alert_unusual(ls, host, new_ids, policy, first_read, alert, report)
    st = _alert_failures(st, failed, settings, t, alert, report, host)
    ls.save_state(st)
    ls.mark_alerted(sent)
    window = since or datetime.fromtimestamp(t - FIRST_WINDOW_S, timezone.utc)
    report.logins = ls.recent(host, since=window)
    report.failed = summary([x for x in report.logins if not x.accepted])
    return report


def _when(x: StoredLogin, first_read: float) -> str:
    if x.time is None:
        first = datetime.fromtimestamp(first_read).astimezone()
        return _tr(TIME_UNKNOWN).format(first=first.strftime("%Y-%m-%d %H:%M"))
    return x.time.astimezone().strftime("%Y-%m-%d %H:%M:%S %Z").strip()


def _alert_unusual(ls: LoginStore, host: str, new_ids: list[int], policy: LoginPolicy, first_read: float,
                   alert: Alert | None, report: LoginReport) -> list[int]:
    sent: list[int] = []
    for x in ls.recent(host, accepted=True, ids=new_ids, limit=len(new_ids) or 1):
        if not x.unusual or x.own or x.alerted:
            continue
        ev = x.event()
        why = "; ".join(why_texts(judge(ev, policy), ev, policy, _tr))
        params = {"user": x.user or "?", "source": x.source or "?", "time": _when(x, first_read),
                  "method": x.method or "?", "why": why, "host": host, "job": x.source}
        message = _tr(MSG_UNUSUAL).format(target=host, **params)
        report.alerts.append((K.LOGIN_UNUSUAL, params))
        if alert is not None:
            alert(K.LOGIN_UNUSUAL, host, params, message)
        sent.append(x.id)
    return sent


def _merge_tally(old: dict[str, Any], new: FailedLogins, t: float) -> dict[str, Any]:
    sources = dict(old.get("sources") or {}) if isinstance(old.get("sources"), dict) else {}
    for src, n in new.top_sources(200):
        sources[src] = int(sources.get(src, 0)) + int(n)
    top = dict(sorted(sources.items(), key=lambda kv: -int(kv[1]))[:200])
    # exact while the tally holds every source; past 200, a lower bound (the union's overlap is unknown)
    exact = len(sources) <= 200 and new.distinct_sources() <= 200
    distinct = len(top) if exact else max(int(old.get("distinct") or 0), new.distinct_sources(), len(top))
    return {"count": int(old.get("count") or 0) + new.count, "since": old.get("since") or t,
            "distinct": distinct, "sources": top}


def _alert_failures(st: LoginState, failed: FailedLogins, settings: LoginSettings, t: float,
                    alert: Alert | None, report: LoginReport, host: str) -> LoginState:
    tally = _merge_tally(st.failed, failed, t) if failed.count else dict(st.failed)
    if int(tally.get("count") or 0) < settings.failed_threshold:
        return replace(st, failed=tally)
    if st.failed_alerted is not None and t - st.failed_alerted < settings.failed_quiet_hours * 3600:
        return replace(st, failed=tally)
    top = sorted((tally.get("sources") or {}).items(), key=lambda kv: -int(kv[1]))[:3]
    since = datetime.fromtimestamp(float(tally.get("since") or t)).astimezone().strftime("%Y-%m-%d %H:%M")
    params = {"count": int(tally["count"]), "sources": int(tally.get("distinct") or len(top)),
              "top": ", ".join(f"{s} ({n})" for s, n in top) or "?", "since": since, "host": host}
    report.alerts.append((K.LOGIN_FAILURES, params))
    if alert is not None:
        alert(K.LOGIN_FAILURES, host, params, _tr(MSG_FAILURES).format(target=host, **params))
    return replace(st, failed={}, failed_alerted=t)


def summary(failed: list[StoredLogin]) -> dict[str, Any]:
    """The failed logins of a list: count, distinct sources, the top sources and users."""
    agg = FailedLogins()
    for x in failed:
        agg.add(x.event())
    return {"count": agg.count, "sources": agg.distinct_sources(),
            "top_sources": [[s, n] for s, n in agg.top_sources(TOP)],
            "top_users": [[u, n] for u, n in agg.top_users(TOP)]}


def recent(paths: Paths, store: Store, host: str, since: datetime | None = None) -> list[StoredLogin]:
    """What was read of ``host`` before, without a connection (the Hosts page shows it at once)."""
    return LoginStore(store).recent(host, since=since or datetime.now(timezone.utc) - timedelta(days=7))


def set_log_path(store: Store, host: str, path: str) -> None:
    LoginStore(store).set_log_path(host, path)


def notify_alert(paths: Paths, store: Store) -> Alert:
    """From the CLI: the notification channels (app.notify, queued) and the audit log."""
    from app.notify.dispatch import notifier_for

    notifier = notifier_for(paths)
    audit = AuditLog(store)

    def send(kind: str, host: str, params: dict[str, Any], message: str) -> None:
        audit.record(account="", provider="ssh", action=kind, resource=host, detail=message)
        notifier.notify(kind, params, target=host, message=message)

    return send
