"""`labgpu guard set|ls|rm`: the guards of an instance or a host; registered by monitor.py."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app.cli.guard_args import apply_guard_options
from app.cli.output import print_json, print_table, translate
from app.core import providers
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.vocab import InstanceState

# -- guards --------------------------------------------------------------------------------------

MSG_NO_TARGET = QT_TRANSLATE_NOOP("LabGPU", "No instance or host named {id}.")
HINT_NO_TARGET = QT_TRANSLATE_NOOP("LabGPU", "Use an id from `labgpu ls` or a name from `labgpu hosts ls`.")
MSG_NO_GUARD = QT_TRANSLATE_NOOP("LabGPU", "{id} has no guards.")
HINT_NO_GUARD = QT_TRANSLATE_NOOP("LabGPU", "See `labgpu guard ls`.")


def connect_host(name: str) -> Any:
    """An SSH connection to a saved host or an instance (a new host key asked on a terminal)."""
    from app.cli.hosts import is_interactive, tty_accept
    from app.core.paths import default_paths
    from app.remote.ssh import open_connection

    return open_connection(name, default_paths(), tty_accept if is_interactive() else None)


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
    out = set_guard(default_paths(), guards.store, args.id, cfg, connect=lambda: connect_host(args.id), pulls=pulls)
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
                # its cloud has no stop: the guard's stop terminates it (after the pull)
                "stop_terminates": entry is not None and providers.has(entry.provider, "stop_terminates"),
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
                (translate("LabGPU", "terminate") if i["stop_terminates"] else translate("LabGPU", "stop"))
                if i["can_stop"] else translate("LabGPU", "notify only"),
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
    out = remove_guard(default_paths(), guards.store, args.id, connect=lambda: connect_host(args.id))
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
