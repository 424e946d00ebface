"""``labgpu logins HOST``: who logged in to a host over SSH, which logins were unusual and why.

Reads what is new in the host's login records (app/usecases/logins.py), alerts once per unusual login
(notification channels, audit log) and prints the logins of the window asked for: the accepted ones one
per line, the failed ones as one summary line (``--failed`` lists them too). ``--json`` prints the list of
logins, accepted and failed, each with time (ISO-8601 UTC), user, method, source, accepted, unusual and
why. Exit status: 0 when the host's SSH log was read, 4 when only part of the records could be read
(session records without failed logins or keys; what is missing is said on stderr), 1 on an error.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timedelta, timezone
from typing import Any

from app.cli.output import print_json, print_table, terminal_safe, translate
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.units import duration_seconds

EXIT_PARTIAL = 4

MSG_BAD_SINCE = QT_TRANSLATE_NOOP("Logins", "Not a time: {value}")
HINT_BAD_SINCE = QT_TRANSLATE_NOOP("Logins", "Give a span such as 30m, 24h or 7d, or a date such as 2026-12-01 or "
                                             "2026-12-01T08:00.")


def parse_since(value: str, now: datetime | None = None) -> datetime:
    """"24h", "30m", "7d", "2w" back from now, or an ISO date / time (local time when it has no zone)."""
    now = now or datetime.now(timezone.utc)
    span = duration_seconds(value)
    if span is not None:
        return now - timedelta(seconds=span)
    try:
        t = datetime.fromisoformat((value or "").strip().replace("Z", "+00:00"))
    except ValueError:
        raise InputError(MSG_BAD_SINCE, HINT_BAD_SINCE, code="BadSince", value=str(value)[:60]) from None
    return (t if t.tzinfo else t.astimezone()).astimezone(timezone.utc)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "logins",
        help=translate("Logins", "who logged in to a host over SSH, and which logins were unusual"),
        description=translate("Logins", "Reads the host's SSH login records (the journal, /var/log/auth.log or "
                                        "/var/log/secure, else wtmp) over SSH and shows the logins; an unusual "
                                        "one (an address LabGPU never connected from, your unusual hours, a user "
                                        "or key LabGPU did not set up) is alerted once."),
    )
    p.add_argument("host", help=translate("Logins", "a saved host or a launched instance's name"))
    p.add_argument("--since", default="24h", help=translate("Logins", "how far back: 30m, 24h, 7d or a date "
                                                                      "(default 24h)"))
    p.add_argument("--json", action="store_true", help=translate("Logins", "print the logins as JSON"))
    p.add_argument("--failed", action="store_true", help=translate("Logins", "list failed logins one by one too"))
    where = p.add_mutually_exclusive_group()
    where.add_argument("--log", metavar="FILE", help=translate("Logins", "the host's sshd log file, where its sshd "
                                                                         "writes with -E FILE (kept for this "
                                                                         "host)"))
    where.add_argument("--system-log", action="store_true",
                       help=translate("Logins", "forget --log: read the system's journal or log again"))
    p.set_defaults(func=cmd_logins)


def _when(t: datetime | None) -> str:
    return t.astimezone().strftime("%Y-%m-%d %H:%M:%S") if t else translate("Logins", "unknown")


def cmd_logins(args: argparse.Namespace) -> int:
    from app.core.paths import default_paths
    from app.core.store import Store
    from app.usecases import logins as usecase
    from app.usecases.logins import SHORT_WHY

    since = parse_since(args.since)
    paths = default_paths()
    store = Store(paths=paths)
    if args.log is not None:
        path = args.log.strip()
        if not path.startswith("/") or "\n" in path or len(path) > 400:
            raise InputError(QT_TRANSLATE_NOOP("Logins", "The log path must be an absolute path on the host: {path}"),
                             QT_TRANSLATE_NOOP("Logins", "For example: labgpu logins {host} --log /var/log/sshd.log"),
                             code="BadLogPath", path=path[:100], host=args.host)
        usecase.set_log_path(store, args.host, path)
    elif args.system_log:
        usecase.set_log_path(store, args.host, "")
    alert = usecase.notify_alert(paths, store)
    report = usecase.check_host(paths, store, args.host, since=since, alert=alert)
    for note in report.notes:
        print(terminal_safe(note), file=sys.stderr)
    if args.json:
        print_json([x.to_json() for x in report.logins])
    else:
        shown = [x for x in report.logins if x.accepted or args.failed]
        rows = []
        for x in shown:
            why = ", ".join(translate("Logins", SHORT_WHY.get(w, w)) for w in x.why)
            mark = (translate("Logins", "LabGPU") if x.own else
                    translate("Logins", "UNUSUAL: ") + why if x.unusual else "")
            rows.append([_when(x.time), terminal_safe(x.user), x.method or "—", x.source or "—",
                         translate("Logins", "accepted") if x.accepted else translate("Logins", "failed"),
                         terminal_safe(mark)])
        if rows:
            print_table([translate("Logins", "Time"), translate("Logins", "User"), translate("Logins", "Method"),
                         translate("Logins", "Source"), translate("Logins", "Result"), translate("Logins", "Note")],
                        rows)
        else:
            print(translate("Logins", "No accepted SSH login of {host} since {since}.").format(
                host=args.host, since=_when(since)))
        f = report.failed
        if f.get("count"):
            top = ", ".join(f"{terminal_safe(s)} ({n})" for s, n in f.get("top_sources", [])[:3])
            print(translate("Logins", "{count} failed logins from {sources} addresses; most from {top}.").format(
                count=f["count"], sources=f.get("sources", 0), top=top))
        n_unusual = sum(1 for x in report.logins if x.unusual and not x.own)
        if n_unusual:
            print(translate("Logins", "{n} unusual logins: if one was not you, stop the instance and change its "
                                      "keys.").format(n=n_unusual), file=sys.stderr)
    from app.notify.dispatch import notifier_for

    notifier_for(paths).flush(10.0)
    return 0 if report.complete else EXIT_PARTIAL
