"""`labgpu cost`: what bills now and the monthly report (text, JSON, CSV); registered by monitor.py."""

from __future__ import annotations

import argparse
import csv
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from app.cli.output import print_json, print_table, terminal_safe, translate
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP

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
