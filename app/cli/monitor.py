"""Monitor and guard commands: `labgpu monitor`, `labgpu cost`, `labgpu guard`, `labgpu watch`.

`monitor NAME --json` prints one JSON object per sample per line (the issue's exact shape); with
`--once` one sample, then exit (non-zero when the host-level `error` is filled).
"""

from __future__ import annotations

import argparse
import csv
import json
import signal
import sys
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from app.cli.guard_args import add_guard_options, apply_guard_options
from app.cli.output import print_json, print_table, terminal_safe, translate
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

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


def _connect(name: str) -> Any:
    from app.cli.hosts import is_interactive, tty_accept
    from app.core.paths import default_paths
    from app.remote.ssh import open_connection

    return open_connection(name, default_paths(), tty_accept if is_interactive() else None)


def cmd_monitor(args: argparse.Namespace) -> int:
    from app.core.errors import LabGpuError
    from app.core.gpumon import HostSample
    from app.remote.ssh import find_host

    find_host(args.name)  # unknown name: a clear error before any connection
    if args.once:
        from app.remote.gpustream import snapshot

        try:
            conn = _connect(args.name)
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
        conn = conns[-1].ensure() if conns else _connect(args.name)
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


# -- cost ----------------------------------------------------------------------------------------

MSG_BAD_MONTH = QT_TRANSLATE_NOOP("LabGPU", "{month!r} is not a month.")
HINT_BAD_MONTH = QT_TRANSLATE_NOOP("LabGPU", "Write it as YYYY-MM, e.g. 2026-12.")


def month_report_doc(month: str, now: datetime | None = None) -> dict[str, Any]:
    """The month's cost per instance and account, and ``running``: what bills now, as the tray and the
    instances page count it (app.usecases.costs: the billing instances, the known costs summed, the
    ones whose price is unknown named in ``running.unknown``)."""
    from app.core.currency import convert, effective_rate
    from app.core.guards import GuardStore
    from app.core.instances import Ledger
    from app.core.ledgerdb import utc
    from app.core.monthreport import month_report
    from app.core.paths import default_paths
    from app.core.settings import SettingsStore
    from app.core.store import Store
    from app.usecases.costs import running_costs

    try:
        lines = month_report(Store(paths=default_paths()), month, now)
    except ValueError:
        raise InputError(MSG_BAD_MONTH, HINT_BAD_MONTH, code="BadMonth", month=month) from None
    settings = SettingsStore().load()
    rate, currency = effective_rate(settings), str(settings.display_currency or "CNY")
    t = utc(now)  # the ledger's clock (ledgerdb.CLOCK.wall) when no moment is given
    store = Store(paths=default_paths())
    store.migrate()
    running = running_costs(Ledger(store), GuardStore(store), rate, t)
    runs = _runs_doc(store, lines, rate, t)
    instances: list[dict[str, Any]] = []
    accounts: dict[str, dict[str, Any]] = {}
    tot_cny = tot_usd = 0.0
    unknown = []
    for m in lines:
        cny, usd = convert(m.cost, m.currency, "CNY", rate), convert(m.cost, m.currency, "USD", rate)
        instances.append(
            {
                "id": m.id,
                "account": m.account,
                "provider": m.provider,
                "instance_type": m.instance_type,
                "state": m.state,
                "spot": m.spot,
                "currency": m.currency,
                "price_per_hour": m.price_per_hour,
                "hours": round(m.hours, 4),
                "cost": _r(m.cost),
                "cost_cny": _r(cny),
                "cost_usd": _r(usd),
                "run": m.run_id or None,
            }
        )
        a = accounts.setdefault(m.account, {"account": m.account, "cost_cny": 0.0, "cost_usd": 0.0, "unknown": []})
        if cny is None or usd is None:
            a["unknown"].append(m.id)
            unknown.append(m.id)
            continue
        a["cost_cny"] += cny
        a["cost_usd"] += usd
        tot_cny += cny
        tot_usd += usd
    run_tot = running.totals
    return {
        "month": month,
        "instances": instances,
        "accounts": [{**a, "cost_cny": _r(a["cost_cny"]), "cost_usd": _r(a["cost_usd"])} for a in accounts.values()],
        "total": {"cost_cny": _r(tot_cny), "cost_usd": _r(tot_usd), "unknown": unknown},
        "runs": runs,
        "running": {
            "instances": [c.to_json() for c in running.billing],
            "per_hour_cny": _r(run_tot.per_hour_cny),
            "per_hour_usd": _r(run_tot.per_hour_usd),
            "so_far_cny": _r(run_tot.so_far_cny),
            "so_far_usd": _r(run_tot.so_far_usd),
            "unknown": list(running.unknown),
            "text": running.billing_text(currency),
        },
        "rate": rate.describe(),
    }


def _runs_doc(store: Any, lines: list[Any], rate: Any, now: datetime) -> list[dict[str, Any]]:
    """The runs with an instance in the month (app.core.runs): their instances in order, the run's total
    in the month (the sum of its lines) and in all (the sum of its instances' costs so far, the one
    billing rule of app.usecases.costs)."""
    from app.core.guards import GuardStore
    from app.core.instances import Ledger
    from app.core.monthreport import month_runs
    from app.core.runs import run_cost
    from app.usecases.costs import running_costs

    months = month_runs(store, lines, rate)
    if not months:
        return []
    members = {i for m in months for i in m.run.instance_ids}
    entries = [e for e in Ledger(store).list(include_terminated=True, now=now) if e.id in members]
    costs = running_costs(entries, GuardStore(store), rate, now)
    out = []
    for m in months:
        whole = run_cost(m.run, costs.instances, rate)
        out.append(
            {
                **m.run.to_json(),
                "hours": round(m.hours, 4),
                "cost_cny": _r(m.cost_cny),
                "cost_usd": _r(m.cost_usd),
                "unknown": list(m.unknown),
                "so_far_cny": _r(whole.totals.so_far_cny),
                "so_far_usd": _r(whole.totals.so_far_usd),
                "so_far_unknown": list(whole.unknown),
            }
        )
    return out


def _r(v: float | None) -> float | None:
    return None if v is None else round(v, 6)


def write_report_csv(doc: dict[str, Any], path: Path) -> int:
    import io

    from app.core.paths import atomic_write_text

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(
        [
            "month",
            "account",
            "instance",
            "provider",
            "instance_type",
            "spot",
            "hours",
            "currency",
            "cost",
            "cost_cny",
            "cost_usd",
            "run",
        ]
    )
    for i in doc["instances"]:
        w.writerow(
            [
                doc["month"],
                i["account"],
                i["id"],
                i["provider"],
                i["instance_type"],
                i["spot"],
                i["hours"],
                i["currency"],
                _cell(i["cost"]),
                _cell(i["cost_cny"]),
                _cell(i["cost_usd"]),
                _cell(i["run"]),
            ]
        )
    for run in doc["runs"]:  # each run's total in the month: the sum of its instances' rows above
        w.writerow(
            [
                doc["month"],
                "RUN",
                " -> ".join(m["id"] for m in run["instances"]),
                "",
                "",
                "",
                run["hours"],
                "",
                "",
                _cell(run["cost_cny"]),
                _cell(run["cost_usd"]),
                run["id"],
            ]
        )
    w.writerow(
        [
            doc["month"],
            "TOTAL",
            "",
            "",
            "",
            "",
            "",
            "",
            "",
            _cell(doc["total"]["cost_cny"]),
            _cell(doc["total"]["cost_usd"]),
            "",
        ]
    )
    atomic_write_text(path, buf.getvalue(), mode=0o644)
    return len(doc["instances"])


def _cell(v: Any) -> str:
    return "" if v is None else str(v)


def cmd_cost(args: argparse.Namespace) -> int:
    from app.cli.output import rate_text
    from app.core.currency import effective_rate
    from app.core.settings import SettingsStore

    month = args.month or datetime.now(timezone.utc).strftime("%Y-%m")
    doc = month_report_doc(month)
    if args.csv:
        write_report_csv(doc, Path(args.csv))
    if args.json:
        print_json(doc)
        return 0
    rows = [
        [
            i["id"],
            i["account"],
            i["instance_type"],
            i["state"],
            f"{i['hours']:.2f}",
            "?" if i["cost"] is None else f"{i['cost']:.2f} {i['currency']}",
            "?" if i["cost_cny"] is None else f"{i['cost_cny']:.2f}",
            "?" if i["cost_usd"] is None else f"{i['cost_usd']:.2f}",
            i["run"] or "-",
        ]
        for i in doc["instances"]
    ]
    print(translate("LabGPU", "Cost in {month} (UTC)").format(month=month))
    print_table(
        [
            translate("LabGPU", "ID"),
            translate("LabGPU", "ACCOUNT"),
            translate("LabGPU", "TYPE"),
            translate("LabGPU", "STATE"),
            translate("LabGPU", "HOURS"),
            translate("LabGPU", "COST"),
            translate("LabGPU", "CNY"),
            translate("LabGPU", "USD"),
            translate("LabGPU", "RUN"),
        ],
        rows,
    )
    t = doc["total"]
    print(
        translate("LabGPU", "Total: {cost_cny:.2f} CNY / {cost_usd:.2f} USD  ({rate})").format(
            cost_cny=t["cost_cny"], cost_usd=t["cost_usd"], rate=rate_text(effective_rate(SettingsStore().load()))
        )
    )
    if t["unknown"]:
        print(translate("LabGPU", "Not in the total (price unknown): {join}").format(join=", ".join(t["unknown"])))
    for run in doc["runs"]:  # a reclaimed spot instance and its relaunch: one run, its total
        chain = " -> ".join(
            f"{m['id']}" + (" (reclaimed, relaunched)" if m["reason"] == "relaunched" else "") for m in run["instances"]
        )
        print(translate("LabGPU", "Run {id}: {chain}").format(id=run["id"], chain=terminal_safe(chain)))
        print(
            f"  in {month}: {run['cost_cny']:.2f} CNY / {run['cost_usd']:.2f} USD, {run['hours']:.2f} h"
            + (f"; price unknown: {', '.join(run['unknown'])}" if run["unknown"] else "")
        )
        print(
            f"  so far in all: {run['so_far_cny']:.2f} CNY / {run['so_far_usd']:.2f} USD"
            + (f"; price unknown: {', '.join(run['so_far_unknown'])}" if run["so_far_unknown"] else "")
        )
    r = doc["running"]
    print(r["text"])  # the tray's and the instances page's line: the unknown prices named
    return 0


# -- guards --------------------------------------------------------------------------------------

MSG_NO_TARGET = QT_TRANSLATE_NOOP("LabGPU", "No instance or host named {id}.")
HINT_NO_TARGET = QT_TRANSLATE_NOOP("LabGPU", "Use an id from `labgpu ls` or a name from `labgpu hosts ls`.")
MSG_NO_GUARD = QT_TRANSLATE_NOOP("LabGPU", "{id} has no guards.")
HINT_NO_GUARD = QT_TRANSLATE_NOOP("LabGPU", "See `labgpu guard ls`.")


def _stores() -> tuple[Any, Any, Any]:
    from app.core.guards import GuardStore
    from app.core.hosts import HostStore
    from app.core.instances import Ledger
    from app.core.paths import default_paths
    from app.core.store import Store

    store = Store(paths=default_paths())
    store.migrate()
    return GuardStore(store), Ledger(store), HostStore(store=store)


def cmd_guard_set(args: argparse.Namespace) -> int:
    from app.core.errors import LabGpuError
    from app.core.paths import default_paths
    from app.core.settings import SettingsStore
    from app.usecases.guards import WatchdogResult, default_guard_for, set_guard

    guards, ledger, hosts = _stores()
    entry = ledger.get(args.id)
    if entry is None and hosts.find(args.id) is None:
        raise InputError(MSG_NO_TARGET, HINT_NO_TARGET, code="NoSuchTarget", id=args.id)
    cfg = guards.get(args.id) or default_guard_for(SettingsStore().load(), guards.store, args.id)
    apply_guard_options(cfg, args)
    if args.no_watchdog:
        cfg.watchdog = False
    pulls = [_parse_pull(p) for p in args.pull]
    out = set_guard(default_paths(), guards.store, args.id, cfg, connect=lambda: _connect(args.id), pulls=pulls)
    for remote, local in pulls:
        print(
            translate("LabGPU", "Before a stop: pull {id}:{remote} into {local}").format(
                id=args.id, remote=remote, local=local
            )
        )
    print(
        translate("LabGPU", "Guards of {id}: {describe_guard}").format(
            id=args.id, describe_guard=describe_guard(out.config)
        )
    )
    if out.watchdog == WatchdogResult.INSTALLED:
        print(
            translate(
                "LabGPU",
                "Watchdog running on {id} (pid {pid}): it shuts the machine down after "
                "{idle_minutes:g} min with every GPU under {idle_below_pct:g} %.",
            ).format(id=args.id, pid=out.pid, idle_minutes=cfg.idle_minutes, idle_below_pct=cfg.idle_below_pct)
        )
    elif out.watchdog == WatchdogResult.REMOVED:
        print(
            translate("LabGPU", "Removed the watchdog on {id}: it will not shut the machine down.").format(id=args.id)
        )
    elif out.watchdog == WatchdogResult.FAILED:
        raise LabGpuError(
            out.message, out.hint, code="WatchdogNotInstalled" if cfg.watchdog else "WatchdogNotRemoved", **out.params
        )
    if entry is None:
        print(
            translate(
                "LabGPU", "{id} is a server without a cloud API: its guards notify only (stop it yourself)."
            ).format(id=args.id)
        )
    print(translate("LabGPU", "They act while LabGPU runs: the window, the tray, or `labgpu watch`."))
    return 0


MSG_BAD_PULL = QT_TRANSLATE_NOOP("LabGPU", "--pull needs REMOTE=LOCAL, got {text!r}.")
HINT_BAD_PULL = QT_TRANSLATE_NOOP("LabGPU", "For example: --pull ~/run/checkpoints=/home/me/checkpoints")


def _parse_pull(text: str) -> tuple[str, str]:
    remote, sep, local = text.partition("=")
    if not sep or not remote.strip() or not local.strip():
        raise InputError(MSG_BAD_PULL, HINT_BAD_PULL, code="BadPull", text=text)
    return remote.strip(), str(Path(local.strip()).expanduser().resolve())


def describe_guard(cfg: Any) -> str:
    parts = [f"idle below {cfg.idle_below_pct:g} % for {cfg.idle_minutes:g} min → {cfg.on_idle}"]
    if cfg.budget is not None:
        parts.append(f"budget {cfg.budget:g} {cfg.currency} (warn 80 %, stop 100 %)")
    if cfg.max_hours is not None:
        parts.append(f"max {cfg.max_hours:g} h")
    if cfg.stop_on_process_exit:
        parts.append(f"stop when {cfg.stop_on_process_exit} exits")
    return "; ".join(parts)


def cmd_guard_ls(args: argparse.Namespace) -> int:
    from app.core.paths import default_paths
    from app.watch.lock import WatchLock
    from app.watch.parts import budget_price

    guards, ledger, _hosts = _stores()
    info = WatchLock(default_paths().data_dir / "watch.lock").holder_info()
    holder = info.pid if info is not None else None
    items = []
    for tid, cfg in guards.all().items():
        entry = ledger.get(tid)
        price = None
        if entry is not None and cfg.budget is not None:
            price = budget_price(default_paths(), guards.store, entry)[0]
        items.append(
            {
                "id": tid,
                "kind": "instance" if entry else "host",
                "can_stop": entry is not None,
                "state": entry.state if entry else None,
                **cfg.to_json(),
                **_watchdog_fields(tid, cfg, entry),
                "budget_price_known": None if cfg.budget is None or entry is None else price is not None,
                "watcher_pid": holder,
                "watcher_kind": info.kind if info is not None else None,
            }
        )
    if args.json:
        print_json(items)
        return 0
    print_table(
        [
            translate("LabGPU", "ID"),
            translate("LabGPU", "KIND"),
            translate("LabGPU", "GUARDS"),
            translate("LabGPU", "ACTS"),
        ],
        [
            [
                i["id"],
                i["kind"],
                describe_guard(guards.get(i["id"])) + _watchdog_note(i) + _budget_note(i),
                translate("LabGPU", "stop") if i["can_stop"] else translate("LabGPU", "notify only"),
            ]
            for i in items
        ],
    )
    print(
        translate("LabGPU", "Watcher: {value}").format(
            value=info.describe() if info else translate("LabGPU", "none running (start the app or `labgpu watch`)")
        )
    )
    return 0


def _budget_note(item: dict[str, Any]) -> str:
    if item.get("budget_price_known") is False:
        return (
            "; BUDGET GUARD OFF: the price per hour is unknown (refresh the prices: "
            "`labgpu prices refresh`; it acts as soon as a price is known)"
        )
    return ""


def _watchdog_fields(target: str, cfg: Any, entry: Any = None) -> dict[str, Any]:
    """`guard ls`: the watchdog as the last connection saw it (watchdog.WatchdogBook), not the
    guard's wish: ``watchdog`` is True only while it was last seen running and able to act (never
    on a terminated instance: the machine went with it)."""
    from app.remote import watchdog

    seen = watchdog.WatchdogBook.default().get(target) or {}
    state = seen.get("state") or ("unchecked" if cfg.watchdog else "none")
    if entry is not None and entry.state == InstanceState.TERMINATED and state != "none":
        state, seen = "gone", {"message": "the instance is terminated"}
    return {
        "watchdog": bool(cfg.watchdog) and state in ("running", "unchecked"),
        "watchdog_state": state,
        "watchdog_message": seen.get("message", ""),
    }


def _watchdog_note(item: dict[str, Any]) -> str:
    state = item.get("watchdog_state")
    if state in (None, "none"):
        return ""
    why = item.get("watchdog_message") or ""
    return f"; watchdog: {state}" + (f" ({why})" if why else "")


def cmd_guard_rm(args: argparse.Namespace) -> int:
    from app.core.errors import LabGpuError
    from app.core.paths import default_paths
    from app.usecases.guards import WatchdogResult, remove_guard

    guards, _ledger, _hosts = _stores()
    out = remove_guard(default_paths(), guards.store, args.id, connect=lambda: _connect(args.id))
    if out.removed:
        print(translate("LabGPU", "Removed the guards of {id}").format(id=args.id))
    elif out.watchdog == WatchdogResult.NONE:
        raise InputError(MSG_NO_GUARD, HINT_NO_GUARD, code="NoGuard", id=args.id)
    if out.watchdog == WatchdogResult.FAILED:
        raise LabGpuError(out.message, out.hint, code="WatchdogNotRemoved", **out.params)
    if out.watchdog == WatchdogResult.REMOVED:
        print(
            translate("LabGPU", "Removed the watchdog on {id}: it will not shut the machine down.").format(id=args.id)
        )
    return 0


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
