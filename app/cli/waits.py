"""Waiting for a GPU (蹲卡) on the command line: ``labgpu launch --wait`` drives the wait in the foreground
(app.usecases.waitlaunch), and ``labgpu waits [ls | cancel ID]`` lists and cancels the stored waits.

A wait outlives the command: when ``labgpu launch --wait`` is stopped (Ctrl+C, a closed terminal), the
wait stays stored and the watcher (the window, the tray or ``labgpu watch``) takes it over once this
process's lease runs out; ``labgpu waits cancel ID`` ends it.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import datetime
from typing import Any

from app.cli.output import print_json, print_table, terminal_safe, translate
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.i18n import translate as translate_template

MSG_WAITING = QT_TRANSLATE_NOOP("LabGPU", "Waiting for {type} until {until} (wait {id}): LabGPU keeps trying "
                                          "while it is sold out. Ctrl+C leaves the wait to the watcher; "
                                          "'labgpu waits cancel {id}' ends it.")
MSG_LEFT = QT_TRANSLATE_NOOP("LabGPU", "Left the wait {id} to the watcher (the window, the tray or 'labgpu "
                                       "watch'); 'labgpu waits cancel {id}' ends it.")


def add_wait_options(la: argparse.ArgumentParser) -> None:
    """The options ``labgpu launch`` takes for waiting."""
    la.add_argument("--wait", action="store_true",
                    help=translate("LabGPU", "keep trying while the type is sold out (蹲卡), until --until; notifies "
                                             "when it lands"))
    la.add_argument("--until", default="6h", help=translate("LabGPU", "how long to keep trying, e.g. 6h, 90m, 2d "
                                                                      "(default 6h)"))
    la.add_argument("--zones", default="", help=translate("LabGPU", "zones to try, comma-separated (default: every "
                                                                    "zone of the region)"))
    la.add_argument("--clouds", default="",
                    help=translate("LabGPU", "other clouds to try too, comma-separated (e.g. tencent,alibaba): each "
                                             "account there "
                         "with the same GPU model and count"))


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    wa = subparsers.add_parser("waits", help=translate("LabGPU", "launches waiting for a sold-out GPU (labgpu launch "
                                                                 "--wait)"))
    wsub = wa.add_subparsers(title=translate("LabGPU", "commands"), dest="waits_cmd")
    wa.add_argument("--json", action="store_true", help=translate("LabGPU", "print the waits as JSON"))
    wa.set_defaults(func=cmd_waits_ls)
    ls = wsub.add_parser("ls", help=translate("LabGPU", "list the waits"))
    ls.add_argument("--json", action="store_true", help=translate("LabGPU", "print the waits as JSON"))
    ls.set_defaults(func=cmd_waits_ls)
    cancel = wsub.add_parser("cancel", help=translate("LabGPU", "stop a wait (nothing is launched after this)"))
    cancel.add_argument("id", help=translate("LabGPU", "wait id (labgpu waits)"))
    cancel.set_defaults(func=cmd_waits_cancel)


def _csv(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def run_wait(args: argparse.Namespace, svc: Any, settings: Any, opts: Any, guard: Any,
             progress: Any = None) -> Any:
    """Store the wait and drive it here until it lands (the LaunchOutcome, printed by ``labgpu launch``) or
    ends (LabGpuError with the reason); Ctrl+C leaves it stored for the watcher."""
    import dataclasses

    from app.usecases.waitlaunch import WaitLauncher, ended_error, notify_announce, parse_duration

    until_s = parse_duration(args.until)
    waiter = WaitLauncher(svc, settings, announce=notify_announce(svc.paths), launch_progress=progress)
    opts = dataclasses.replace(opts, guard=guard)
    zones = _csv(args.zones) or ([opts.zone] if opts.zone else [])
    wait = waiter.create(opts, until_s=until_s, max_price=args.max_price, zones=zones, clouds=_csv(args.clouds),
                         hold=True)
    until = datetime.fromtimestamp(wait.deadline).strftime("%Y-%m-%d %H:%M")
    print(terminal_safe(translate_template(MSG_WAITING).format(type=opts.instance_type, until=until, id=wait.id)),
          file=sys.stderr, flush=True)

    def said(text: str) -> None:
        print(terminal_safe(text), file=sys.stderr, flush=True)

    try:
        out = waiter.run(wait.id, sleep=time.sleep, progress=said if progress is not None else None)
    except KeyboardInterrupt:
        said(translate_template(MSG_LEFT).format(id=wait.id))
        raise
    finally:
        from app.notify.dispatch import notifier_for

        notifier_for(svc.paths).flush(30)
    if out.launched is None:
        raise ended_error(out.wait)
    return out


def cmd_waits_ls(args: argparse.Namespace) -> int:
    from app.cloud.launch import CloudService
    from app.core.launchwaits import LaunchWaits

    svc = CloudService()
    waits = LaunchWaits(svc.store).all()
    if args.json:
        print_json([{"id": w.id, "account": w.account, "type": w.instance_type, "state": w.state,
                     "attempts": w.attempts, "deadline": w.deadline, "next_try": w.next_try,
                     "max_price": w.max_price, "zones": w.zones, "clouds": w.clouds,
                     "instance_id": w.instance_id, "detail": w.detail} for w in waits])
        return 0

    def when(t: float) -> str:
        return datetime.fromtimestamp(t).strftime("%m-%d %H:%M")

    print_table(
        [
            translate("LabGPU", "id"),
            translate("LabGPU", "type"),
            translate("LabGPU", "account"),
            translate("LabGPU", "state"),
            translate("LabGPU", "attempts"),
            translate("LabGPU", "until"),
            translate("LabGPU", "instance"),
            translate("LabGPU", "detail"),
        ],
        [
            [
                w.id,
                w.instance_type,
                w.account,
                w.state,
                w.attempts,
                when(w.deadline),
                w.instance_id or "-",
                terminal_safe(w.detail)[:120],
            ]
            for w in waits
        ],
    )
    return 0


def cmd_waits_cancel(args: argparse.Namespace) -> int:
    from app.cloud.launch import CloudService
    from app.core.settings import SettingsStore
    from app.usecases.waitlaunch import WaitLauncher

    svc = CloudService()
    w = WaitLauncher(svc, SettingsStore(svc.paths).load()).cancel(args.id)
    print(f"{w.id} {w.state}")
    return 0
