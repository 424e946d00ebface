"""``labgpu audit --cloud ACCOUNT [--since 24h|7d|ISO] [--json]``: the cloud's own history of API calls on an
account (AWS CloudTrail, Tencent CloudAudit, Alibaba Cloud ActionTrail), each call marked made by LabGPU or
not; the calls on LabGPU's instances, security groups and key pairs that LabGPU did not make, and console
logins, are alerted once (notification channels, audit log). Registered from ``labgpu audit`` (app/cli/cloud.py):
without ``--cloud`` that command shows LabGPU's local audit log.

``--json`` prints a list of objects: time (ISO-8601 UTC), event, resources, actor, source, request_id,
by_labgpu, foreign, why. Exit status: 0 when the history was read (foreign calls or not), 1 on an error.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import Any

from app.cli.output import print_json, print_table, terminal_safe, translate
from app.core.i18n import translate as translate_template


def add_cloud_options(parser: argparse.ArgumentParser) -> None:
    """``--cloud`` and ``--since`` on ``labgpu audit``."""
    parser.add_argument("--cloud", metavar="ACCOUNT", default=None,
                        help=translate("LabGPU", "read the cloud's own history of API calls on this account and "
                                                 "mark the calls LabGPU did not make"))
    parser.add_argument("--since", default="24h",
                        help=translate("LabGPU", "with --cloud: how far back, 30m, 24h, 7d or a date (default 24h)"))


def _when(t: datetime) -> str:
    return t.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def cmd_audit_cloud(args: argparse.Namespace) -> int:
    from app.cli.accountscmd import service
    from app.cli.logins import parse_since
    from app.notify.dispatch import notifier_for
    from app.usecases import cloudaudit

    since = parse_since(args.since)
    svc = service()
    try:
        report = cloudaudit.check_account(svc, args.cloud, since)
        notifier = notifier_for(svc.paths)
        alerted = cloudaudit.alert_new(svc, report, notifier)
        notifier.flush(10.0)
    finally:
        svc.close()
    if args.json:
        print_json([_json(v) for v in report.verdicts])
        return 0
    yes, no = translate("LabGPU", "yes"), translate("LabGPU", "no")
    rows: list[list[Any]] = []
    for v in report.verdicts:
        ev = v.event
        note = translate("LabGPU", "NOT LABGPU: ") + translate_template(v.why) if v.foreign else ""
        rows.append([_when(ev.time), terminal_safe(ev.name), terminal_safe(v.resource or ", ".join(ev.resources[:3])
                                                                          or "—"),
                     terminal_safe(ev.actor or "—"), terminal_safe(ev.source_ip or "—"), yes if v.by_labgpu else no,
                     terminal_safe(note)])
    if rows:
        print_table([translate("LabGPU", "Time"), translate("LabGPU", "Event"), translate("LabGPU", "Resource"),
                     translate("LabGPU", "Actor"), translate("LabGPU", "Source"),
                     translate("LabGPU", "Made by LabGPU"), translate("LabGPU", "Note")], rows)
    else:
        print(translate("LabGPU", "{service} shows no call that changed anything on account {account} since "
                                  "{since}.").format(service=report.source.service, account=args.cloud,
                                                     since=_when(report.since)))
    if report.truncated:
        print(translate("LabGPU", "Only the newest {n} events were read: give a shorter --since to see the "
                                  "rest.").format(n=len(report.verdicts)), file=sys.stderr)
    foreign = report.foreign
    if foreign:
        print(translate("LabGPU", "Calls LabGPU did not make: {n} ({new} alerted now). If one was not you, disable "
                                  "the account's keys in the cloud console.").format(n=len(foreign), new=len(alerted)),
              file=sys.stderr)
    return 0


def _json(v: Any) -> dict[str, Any]:
    ev = v.event
    return {"time": ev.time.isoformat().replace("+00:00", "Z"), "event": ev.name, "resources": list(ev.resources),
            "actor": ev.actor, "source": ev.source_ip, "request_id": ev.request_id, "by_labgpu": v.by_labgpu,
            "foreign": v.foreign, "why": translate_template(v.why), "region": ev.region}
