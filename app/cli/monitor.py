"""Monitor and guard commands: `labgpu monitor` and `labgpu watch` here; `labgpu cost` (costcmd.py) and
`labgpu guard` (guardcmd.py) registered here too.

`monitor NAME --json` prints one JSON object per sample per line (the issue's exact shape); with
`--once` one sample, then exit (non-zero when the host-level `error` is filled).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
from datetime import datetime, timezone
from typing import Any

from app.cli.guard_args import add_guard_options
from app.cli.output import print_table, terminal_safe, translate

from .costcmd import cmd_cost
from .guardcmd import cmd_guard_ls, cmd_guard_rm, cmd_guard_set, connect_host

EXIT_HOST_ERROR = 1


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    mon = subparsers.add_parser("monitor", help=translate("LabGPU", "GPU utilization, memory, temperature and power "
                                                                    "of a host"))
    mon.add_argument("name", metavar="NAME", help=translate("LabGPU", "a host of `labgpu hosts ls` or a LabGPU "
                                                                      "instance id"))
    mon.add_argument("--once", action="store_true", help=translate("LabGPU", "one sample, then exit"))
    mon.add_argument("--json", action="store_true", help=translate("LabGPU", "one JSON object per sample per line"))
    mon.add_argument("--interval", type=float, default=None, help=argparse.SUPPRESS)
    mon.set_defaults(func=cmd_monitor)

    cost = subparsers.add_parser("cost", help=translate("LabGPU", "what the instances cost: per instance and in total"))
    cost.add_argument("--month", metavar="YYYY-MM", default=None, help=translate("LabGPU", "a calendar month (UTC); "
                                                                                           "default: this one"))
    cost.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    cost.add_argument("--csv", metavar="FILE", default=None, help=translate("LabGPU", "also write the month's report "
                                                                                      "as CSV"))
    cost.set_defaults(func=cmd_cost)

    guard = subparsers.add_parser("guard", help=translate("LabGPU", "idle, budget and runtime guards per instance or "
                                                                    "host"))
    gsub = guard.add_subparsers(
        title=translate("LabGPU", "commands"), dest="guard_command", metavar="ACTION", required=True
    )
    gs = gsub.add_parser("set", help=translate("LabGPU", "set (or change) the guards of an instance or host"))
    gs.add_argument(
        "id", metavar="ID", help=translate("LabGPU", "a LabGPU instance id, or a host of `labgpu hosts ls`")
    )
    add_guard_options(gs)  # the same options as `labgpu launch` (app/cli/guard_args.py)
    gs.add_argument(
        "--pull",
        action="append",
        default=[],
        metavar="REMOTE=LOCAL",
        help=translate(
            "LabGPU",
            "save a download sync pair for this host: the checkpoints pulled before "
            "a guard "
            "stops it (and on a spot interruption); repeatable",
        ),
    )
    gs.add_argument(
        "--no-watchdog",
        action="store_true",
        help=translate("LabGPU", "remove the on-instance watchdog (the other guards stay)"),
    )
    gs.set_defaults(func=cmd_guard_set)
    gl = gsub.add_parser("ls", help=translate("LabGPU", "list the guards"))
    gl.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    gl.set_defaults(func=cmd_guard_ls)
    gr = gsub.add_parser("rm", help=translate("LabGPU", "remove the guards of an instance or host"))
    gr.add_argument(
        "id", metavar="ID", help=translate("LabGPU", "a LabGPU instance id, or a host of `labgpu hosts ls`")
    )
    gr.set_defaults(func=cmd_guard_rm)

    watch = subparsers.add_parser(
        "watch", help=translate("LabGPU", "apply the guards until interrupted (one watcher at a time)")
    )
    watch.add_argument("--json", action="store_true", help=translate("LabGPU", "print each guard event as a JSON line"))
    watch.add_argument(
        "--no-wait",
        action="store_true",
        help=translate(
            "LabGPU", "exit at once when another LabGPU applies the guards (default: wait and take over when it ends)"
        ),
    )
    watch.add_argument("--period", type=float, default=1.0, help=argparse.SUPPRESS)
    watch.add_argument("--interval", type=float, default=None, help=argparse.SUPPRESS)
    watch.set_defaults(func=cmd_watch)


# -- monitor -------------------------------------------------------------------------------------


def _fmt(v: float | None, unit: str = "", digits: int = 0) -> str:
    return "N/A" if v is None else f"{v:.{digits}f}{unit}"


def _print_sample_table(sample: Any) -> None:
    when = sample.time.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    print(f"{terminal_safe(sample.host)}  {when}")  # a host's words: shown, never obeyed
    if sample.error:
        print(translate("LabGPU", "  error: {error}").format(error=terminal_safe(sample.error)))
    rows = [
        [
            g.index if g.index is not None else "?",
            g.name or "N/A",
            _fmt(g.utilization_gpu, " %"),
            f"{_fmt(g.memory_used_mib)} / {_fmt(g.memory_total_mib)} MiB",
            _fmt(g.temperature_c, " C"),
            f"{_fmt(g.power_w, '', 1)} / {_fmt(g.power_limit_w, ' W', 1)}",
            g.status,
        ]
        for g in sample.gpus
    ]
    if rows:
        print_table(
            [
                translate("LabGPU", "GPU"),
                translate("LabGPU", "NAME"),
                translate("LabGPU", "UTIL"),
                translate("LabGPU", "MEMORY"),
                translate("LabGPU", "TEMP"),
                translate("LabGPU", "POWER"),
                translate("LabGPU", "STATUS"),
            ],
            rows,
        )
    if sample.processes:
        print_table(
            [
                translate("LabGPU", "PID"),
                translate("LabGPU", "GPU"),
                translate("LabGPU", "PROCESS"),
                translate("LabGPU", "MEMORY"),
            ],
            [[p.pid, p.gpu_uuid[:12], p.name, _fmt(p.used_memory_mib, " MiB")] for p in sample.processes],
        )
    print(flush=True)


def _emit(sample: Any, as_json: bool) -> None:
    if as_json:
        sys.stdout.write(json.dumps(sample.to_json(), ensure_ascii=False) + "\n")
        sys.stdout.flush()
    else:
        if sys.stdout.isatty():
            sys.stdout.write("\x1b[H\x1b[2J")
        _print_sample_table(sample)


def cmd_monitor(args: argparse.Namespace) -> int:
    from app.core.errors import LabGpuError
    from app.core.gpumon import HostSample
    from app.remote.ssh import find_host

    find_host(args.name)  # unknown name: a clear error before any connection
    if args.once:
        from app.remote.gpustream import snapshot

        try:
            conn = connect_host(args.name)
        except LabGpuError as exc:
            if not args.json:
                raise
            _emit(HostSample(args.name, datetime.now(timezone.utc), error=exc.one_line()), True)
            return EXIT_HOST_ERROR
        try:
            sample = snapshot(conn, args.name)
        finally:
            conn.close()
        _emit(sample, args.json)
        return EXIT_HOST_ERROR if sample.error else 0

    from app.remote.gpustream import GpuStream

    conns: list[Any] = []

    def connect() -> Any:
        if conns and conns[-1].is_active:
            return conns[-1]
        conn = conns[-1].ensure() if conns else connect_host(args.name)
        if not conns:
            conns.append(conn)
        return conn

    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stream = GpuStream(
        args.name, connect, lambda s: _emit(s, args.json), interval_s=args.interval or _settings_interval()
    )
    try:
        stream.start()
        try:
            while not stop.wait(0.5):
                pass
        except KeyboardInterrupt:
            pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        stream.stop()
        for c in conns:
            c.close()
    return 0


def _settings_interval() -> float:
    from app.core.settings import SettingsStore

    return float(SettingsStore().load().monitor_interval_s)


# -- watch ---------------------------------------------------------------------------------------


def cmd_watch(args: argparse.Namespace) -> int:
    from app.core.paths import default_paths
    from app.watch import MonitorHub, Watcher

    paths = default_paths()

    def notify(ev: Any) -> None:
        if args.json:
            sys.stdout.write(json.dumps(ev.to_json(), ensure_ascii=False, default=str) + "\n")
        else:
            sys.stdout.write(f"{ev.time:%Y-%m-%d %H:%M:%S} [{ev.kind}] {terminal_safe(ev.message)}\n")
        sys.stdout.flush()

    watcher = Watcher(paths, notify=notify, kind="watch")
    stop = threading.Event()
    if not watcher.acquire():
        if args.no_wait:
            watcher.lock.require()  # raises WatchLocked: who holds it and what to do
        info = watcher.lock.holder_info()
        who = info.describe() if info is not None else translate("LabGPU", "another LabGPU")
        print(
            translate(
                "LabGPU", "The guards are applied by {who}; waiting to take over when it ends (Ctrl-C to stop)"
            ).format(who=who),
            file=sys.stderr,
            flush=True,
        )
        previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
        try:
            if not watcher.wait_acquire(stop):
                watcher.close()
                return 0
        except KeyboardInterrupt:
            watcher.close()
            return 0
        finally:
            signal.signal(signal.SIGTERM, previous)
        print(translate("LabGPU", "Took over the guards from {who}").format(who=who), file=sys.stderr, flush=True)
    hub = MonitorHub(paths, store=watcher.store, interval_s=args.interval or _settings_interval())
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        targets = sorted(watcher.guards.all())
        for tid in targets:
            hub.watch(tid)
        print(
            translate("LabGPU", "Watching {n} guarded target(s): {value} (Ctrl-C to stop)").format(
                n=len(targets), value=", ".join(targets) or "-"
            ),
            file=sys.stderr,
            flush=True,
        )
        try:
            watcher.run(hub, period_s=args.period, until=stop)
        except KeyboardInterrupt:
            pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        hub.close()
        watcher.close()
    return 0
