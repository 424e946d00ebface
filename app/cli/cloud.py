"""Cloud commands: launch, ls, start/stop/terminate, audit here; accounts (accountscmd.py) and live prices
(pricescmd.py) registered here too.

Scripts rely on this exact interface. Secrets are read from stdin (one per line) when stdin
is not a terminal and prompted for with getpass otherwise; never from argv. Progress goes to
stderr, results to stdout (--json for machines); errors are one stderr line naming the code.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone
from typing import Any

from app.cli.auditcmd import add_cloud_options, cmd_audit_cloud
from app.cli.guard_args import add_guard_options, launch_guard
from app.cli.output import print_json, print_table, terminal_safe, translate
from app.cli.recovery import add_recovery_shortcuts, policy_from_shortcuts
from app.cli.waits import add_wait_options
from app.cli.waits import register as register_waits
from app.core import providers
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.i18n import translate as translate_template
from app.core.vocab import TERMINAL_STATES

from .accountscmd import (
    cmd_accounts_add,
    cmd_accounts_ls,
    cmd_accounts_rm,
    cmd_accounts_test,
    importer_options,
    service,
)
from .pricescmd import cmd_prices_refresh


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    acc = subparsers.add_parser("accounts", help=translate("LabGPU", "cloud accounts (secrets kept in the OS keyring)"))
    asub = acc.add_subparsers(
        title=translate("LabGPU", "commands"), dest="accounts_command", metavar="ACTION", required=True
    )

    add = asub.add_parser(
        "add", help=translate("LabGPU", "add an account; reads key id and secret from stdin or prompts")
    )
    add.add_argument(
        "provider",
        choices=providers.account_ids(),
        help=translate("LabGPU", "the cloud"),
    )
    add.add_argument("name", help=translate("LabGPU", "an account name of your choice, e.g. lab-aws"))
    add.add_argument(
        "--region", required=True, help=translate("LabGPU", "the account's region, e.g. ap-guangzhou or us-east-1")
    )
    add.add_argument(
        "--endpoint", default="", help=translate("LabGPU", "custom endpoint URL, e.g. http://127.0.0.1:9000")
    )
    add.add_argument(
        "--protocol",
        choices=("https", "http"),
        default=None,
        help=translate(
            "LabGPU",
            "providers that take one (e.g. tencent): protocol for the endpoint (default: from the URL, else https)",
        ),
    )
    seen: set[str] = set()
    for spec in providers.specs():  # each cloud's own settings (a project id, a tenant…): one option per key
        for setting in spec.account_fields:
            if setting.key in seen:
                continue
            seen.add(setting.key)
            add.add_argument(setting.option, dest=f"setting_{setting.key}", default=None, metavar="VALUE",
                             help=translate("LabGPU", "{cloud}: {setting}").format(
                                 cloud=spec.display_name(), setting=translate("LabGPU", setting.label)))
    add.add_argument("--test", action="store_true", help=translate("LabGPU", "test the connection after adding"))
    add.set_defaults(func=cmd_accounts_add)

    ls = asub.add_parser("ls", help=translate("LabGPU", "list accounts (key ids masked)"))
    ls.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    ls.set_defaults(func=cmd_accounts_ls)

    test = asub.add_parser("test", help=translate("LabGPU", "check an account's keys with the provider"))
    test.add_argument("name", help=translate("LabGPU", "account name (labgpu accounts ls)"))
    test.set_defaults(func=cmd_accounts_test)

    rm = asub.add_parser("rm", help=translate("LabGPU", "remove an account and its keyring entries"))
    rm.add_argument("name", help=translate("LabGPU", "account name (labgpu accounts ls)"))
    rm.set_defaults(func=cmd_accounts_rm)

    imp = asub.add_parser("import", help=translate("LabGPU", "import keys already on this computer as accounts"))
    isub = imp.add_subparsers(title=translate("LabGPU", "commands"), dest="importer", metavar="PROVIDER", required=True)
    for _owner, decl in providers.importers():
        importer_options(isub.add_parser(decl.id, help=decl.help), decl)
        # the older spelling, kept for scripts: `accounts import-aws` = `accounts import aws`
        same = translate("LabGPU", "same as 'accounts import {id}'").format(id=decl.id)
        importer_options(asub.add_parser(f"import-{decl.id}", help=same), decl)

    prices = subparsers.add_parser("prices", help=translate("LabGPU", "live prices from the providers"))
    psub = prices.add_subparsers(
        title=translate("LabGPU", "commands"), dest="prices_command", metavar="ACTION", required=True
    )
    ref = psub.add_parser(
        "refresh",
        help=translate(
            "LabGPU",
            "fetch live prices with an account (all accounts by "
            "default), "
            "or --public: public price lists that need no account (Azure)",
        ),
    )
    ref.add_argument(
        "--public",
        action="store_true",
        help=translate("LabGPU", "fetch the public price lists that need no account (Azure Retail Prices API)"),
    )
    ref.add_argument(
        "--azure-endpoint",
        default=None,
        metavar="URL",
        help=translate(
            "LabGPU",
            "with --public: Azure Retail Prices API address, e.g. a mirror "
            "(default: the azure_prices_endpoint setting, else https://prices.azure.com/api/retail/prices)",
        ),
    )
    ref.add_argument("--account", default=None, help=translate("LabGPU", "only this account (default: all)"))
    ref.add_argument(
        "--type", action="append", default=[], dest="types", help=translate("LabGPU", "instance type (repeatable)")
    )
    ref.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    ref.set_defaults(func=cmd_prices_refresh)

    la = subparsers.add_parser("launch", help=translate("LabGPU", "launch a GPU instance"))
    la.add_argument("--account", required=True, help=translate("LabGPU", "account name (labgpu accounts ls)"))
    la.add_argument(
        "--type", required=True, dest="instance_type", help=translate("LabGPU", "instance type, e.g. g5.xlarge")
    )
    la.add_argument(
        "--zone", default="", help=translate("LabGPU", "zone (default: any; on no capacity the others are tried)")
    )
    la.add_argument("--region", default="", help=translate("LabGPU", "region (default: the account's region)"))
    la.add_argument(
        "--image", default="", help=translate("LabGPU", "image id (default: a CUDA/PyTorch GPU image, else Ubuntu)")
    )
    la.add_argument(
        "--spot", action="store_true", help=translate("LabGPU", "spot instance (can be reclaimed; much cheaper)")
    )
    la.add_argument(
        "--max-price",
        type=float,
        default=None,
        help=translate(
            "LabGPU",
            "spot maximum per hour in the provider's currency "
            "(default: the spot share setting, 80 %% unless changed, × on-demand)",
        ),
    )
    la.add_argument(
        "--ssh-from", default="", help=translate("LabGPU", "CIDR allowed to SSH in (default: your public address)")
    )
    la.add_argument(
        "--ssh-key",
        default="",
        help=translate(
            "LabGPU",
            "existing private key of a type the cloud "
            "imports (default: "
            "LabGPU's own key: ed25519 for AWS, RSA 4096 for Tencent and Alibaba)",
        ),
    )
    la.add_argument("--disk-gb", type=int, default=100, help=translate("LabGPU", "system disk size (default 100 GB)"))
    la.add_argument("--name", default="", help=translate("LabGPU", "instance name tag"))
    la.add_argument(
        "--client-token", default="", help=translate("LabGPU", "retry an earlier launch (same token = same instance)")
    )
    la.add_argument("--no-wait", action="store_true", help=translate("LabGPU", "return once the request is accepted"))
    la.add_argument("--json", action="store_true", help=translate("LabGPU", "print the instance as JSON"))
    la.add_argument(
        "--progress",
        action="store_true",
        help=translate("LabGPU", "print each step on stderr (default only when stderr is a terminal)"),
    )
    add_guard_options(la, launch=True)
    add_recovery_shortcuts(la)  # --recovery-resume/-checkpoint/-code (app/cli/recovery.py)
    add_wait_options(la)  # --wait --until --zones --clouds (app/cli/waits.py)
    la.set_defaults(func=cmd_launch)
    register_waits(subparsers)  # labgpu waits [ls | cancel ID]

    ils = subparsers.add_parser(
        "ls",
        help=translate(
            "LabGPU",
            "LabGPU instances on all accounts, reconciled with the clouds (exit 3: an account "
            "could not "
            "be asked; its instances are shown as last seen)",
        ),
    )
    ils.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    ils.add_argument(
        "--offline", action="store_true", help=translate("LabGPU", "show the local ledger without asking the clouds")
    )
    ils.add_argument("--all", action="store_true", help=translate("LabGPU", "include terminated instances"))
    ils.set_defaults(func=cmd_ls)

    action_help = {
        "start": translate("LabGPU", "start an instance"),
        "stop": translate("LabGPU", "stop an instance (it can be started again)"),
        "terminate": translate("LabGPU", "terminate (delete) an instance"),
    }
    for action in ("start", "stop", "terminate"):
        p = subparsers.add_parser(action, help=action_help[action])
        p.add_argument("id", help=translate("LabGPU", "a LabGPU instance id (labgpu ls)"))
        p.add_argument("--json", action="store_true", help=translate("LabGPU", "print the instance as JSON"))
        p.set_defaults(func=cmd_action, action=action)

    au = subparsers.add_parser("audit", help=translate("LabGPU", "the local log of state-changing cloud calls"))
    au.add_argument("--csv", metavar="FILE", default=None, help=translate("LabGPU", "export everything as CSV"))
    au.add_argument("--limit", type=int, default=50, help=translate("LabGPU", "show the last N entries (default 50)"))
    au.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    add_cloud_options(au)
    au.set_defaults(func=cmd_audit)


# -- instances ------------------------------------------------------------------------------------


def _progress(step: str, message: str = "") -> None:
    print(terminal_safe(f"[{step}] {message}".rstrip()), file=sys.stderr, flush=True)  # may quote the cloud


def cmd_launch(args: argparse.Namespace) -> int:
    from app.cloud.launch_plan import LaunchOptions
    from app.core.settings import SettingsStore
    from app.usecases import launch as launching
    from app.usecases.guards import WatchdogResult, default_guard

    if args.max_price is not None and not args.spot and not args.wait:  # with --wait: the price cap
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "--max-price only applies to spot launches."),
            QT_TRANSLATE_NOOP("LabGPU", "Add --spot, or leave --max-price out."),
            code="MaxPriceWithoutSpot",
        )
    recovery = policy_from_shortcuts(args, spot=args.spot)  # refused before any cloud call
    svc = service()
    settings = SettingsStore(svc.paths).load()
    plan = launching.plan_launch(
        svc, settings, args.account, args.instance_type, region=args.region, zone=args.zone, list_zones=False
    )  # listed by the launch, after its checks
    guard = launch_guard(default_guard(settings, currency=plan.currency), args)
    opts = LaunchOptions(
        account=args.account,
        instance_type=args.instance_type,
        zone=args.zone,
        region=args.region,
        image_id=args.image,
        spot=args.spot,
        max_price=args.max_price if args.spot else None,
        ssh_from=args.ssh_from,
        ssh_key_path=args.ssh_key,
        disk_gb=args.disk_gb,
        name=args.name,
        client_token=args.client_token,
        wait=not args.no_wait,
    )
    show = _progress if (args.progress or sys.stderr.isatty()) else None
    if args.wait:  # keep trying while sold out (app/cli/waits.py); ends with the launch, or raises why not
        from app.cli.waits import run_wait

        outcome = run_wait(args, svc, settings, opts, guard, progress=show).launched
    else:
        outcome = launching.launch(svc, settings, opts, guard=guard, plan=plan, progress=show)
    result, guarded = outcome.result, outcome.guard
    e = result.entry
    if recovery is not None:  # the spot recovery policy, for the new instance
        from app.core.recoverypolicy import INSTANCE, RecoveryPolicyStore

        recovery = RecoveryPolicyStore(svc.store).set(INSTANCE, e.id, recovery)
    if args.json:
        doc = e.to_json()
        doc["notes"] = result.notes
        doc["guard"] = guarded.config.to_json() if guarded is not None else None
        doc["watchdog"] = (guarded.watchdog if guarded is not None else WatchdogResult.NONE).value
        doc["guard_note"] = guarded.text() if guarded is not None else ""
        doc["ssh_key"] = result.ssh_key_path
        doc["ssh_key_type"] = result.ssh_key_type
        doc["ssh_key_fingerprint"] = result.ssh_key_fingerprint
        doc["ssh_key_own"] = result.ssh_key_own
        # the maximum runtime handed to the cloud, as read back: None without one
        doc["backstop"] = result.backstop.to_json() if result.backstop is not None else None
        doc["recovery"] = recovery.to_json() if recovery is not None else None
        print_json(doc)
    else:
        for note in result.notes:
            print(note)
        from app.cloud.sshkeys import TYPE_TITLES

        print(
            translate_template(
                QT_TRANSLATE_NOOP("LabGPU", "SSH key registered with {provider}: {path} ({type}, {fingerprint}{own}).")
            ).format(
                provider=providers.display_name(e.provider),
                path=result.ssh_key_path,
                type=TYPE_TITLES.get(result.ssh_key_type, result.ssh_key_type),
                fingerprint=result.ssh_key_fingerprint,
                own=translate("LabGPU", ", LabGPU's own key") if result.ssh_key_own else "",
            )
        )
        print(
            f"{e.id} {e.state} {e.instance_type} {e.zone} {'spot' if e.spot else 'on-demand'} "
            f"{e.public_ip or '-'} {_money(e.price_per_hour, e.currency)}/h"
        )
        if e.public_ip:
            print(translate("LabGPU", "ssh: {ssh_command}").format(ssh_command=svc.ssh_command(e.id)))
        _print_guard(e.id, guarded)
        if recovery is not None:
            print(
                translate(
                    "LabGPU", "Spot recovery: resume with {resume} (change it: labgpu recovery set {id} …)"
                ).format(resume=terminal_safe(recovery.resume), id=e.id)
            )
    return 0


def _print_guard(instance_id: str, guarded: Any) -> None:
    """What the launch did with the guard: the guard saved, and the watchdog's outcome."""
    from app.cli.guardcmd import describe_guard

    if guarded is None:
        print(translate("LabGPU", "No guards: {id} runs until you stop it.").format(id=instance_id))
        return
    print(translate("LabGPU", "Guards of {id}: {guards}").format(id=instance_id, guards=describe_guard(guarded.config)))
    if guarded.text():
        print(terminal_safe(" ".join(t for t in (guarded.text(), guarded.hint_text()) if t)))


def _money(v: float | None, cur: str, digits: int = 4) -> str:
    from app.core.currency import money_text

    return money_text(v, cur, digits)


def cmd_ls(args: argparse.Namespace) -> int:
    svc = service()
    status = 0
    if args.offline:
        entries = svc.ledger.list()
    else:
        result = svc.reconcile()
        for name, exc in result.errors.items():
            text = exc.one_line() if hasattr(exc, "one_line") else str(exc)
            print(
                "labgpu: "
                + translate("LabGPU", "account {name} not refreshed (shown as last seen): {text}").format(
                    name=name, text=terminal_safe(text)
                ),
                file=sys.stderr,
            )
            status = 3  # the list may be stale: a script must not take it as the whole truth
        entries = result.entries
    for p in svc.pending.open():
        print(
            "labgpu: "
            + translate(
                "LabGPU",
                "launch {client_token} ({instance_type}, account {account}, sent "
                "{created_at} UTC) is not confirmed yet; it may be billing",
            ).format(
                client_token=p.client_token,
                instance_type=p.instance_type,
                account=p.account,
                created_at=p.created_at.strftime("%Y-%m-%d %H:%M"),
            ),
            file=sys.stderr,
        )
    if not args.all:  # terminated ones stay visible for an hour, so a script sees the outcome
        now = datetime.now(timezone.utc)
        entries = [
            e
            for e in entries
            if e.state not in TERMINAL_STATES or e.ended_at is None or (now - e.ended_at).total_seconds() < 3600
        ]
    if args.json:
        print_json([e.to_json() for e in entries])
        return status
    rows = [
        [
            e.id,
            e.account,
            e.instance_type,
            e.zone,
            e.state,
            "spot" if e.spot else "on-demand",
            e.public_ip,
            _money(e.price_per_hour, e.currency),
            _money(e.cost_so_far, e.currency, 2),
        ]
        for e in entries
    ]
    print_table(
        [
            translate("LabGPU", "ID"),
            translate("LabGPU", "ACCOUNT"),
            translate("LabGPU", "TYPE"),
            translate("LabGPU", "ZONE"),
            translate("LabGPU", "STATE"),
            translate("LabGPU", "MARKET"),
            translate("LabGPU", "PUBLIC IP"),
            translate("LabGPU", "PRICE/H"),
            translate("LabGPU", "COST SO FAR"),
        ],
        rows,
    )
    return status


def cmd_action(args: argparse.Namespace) -> int:
    svc = service()
    note = ""
    if args.action == "start":
        entry = svc.start(args.id)
    elif args.action == "stop":
        entry, note = svc.stop(args.id)
    else:
        entry = svc.terminate(args.id)
    if args.json:
        doc = entry.to_json()
        doc["note"] = note
        print_json(doc)
    else:
        print(f"{entry.id} {entry.state}")
    if note:
        print(translate_template(note), file=sys.stderr)
    return 0


def cmd_audit(args: argparse.Namespace) -> int:
    if getattr(args, "cloud", None):
        return cmd_audit_cloud(args)
    svc = service()
    if args.csv:
        n = svc.audit.export_csv(args.csv)
        print(translate("LabGPU", "{n} audit entries written to {csv}").format(n=n, csv=args.csv), file=sys.stderr)
        return 0
    entries = svc.audit.list(args.limit)
    if args.json:
        print_json(
            [
                {
                    "time": e.time,
                    "account": e.account,
                    "provider": e.provider,
                    "action": e.action,
                    "resource": e.resource,
                    "result": e.result,
                    "request_id": e.request_id,
                    "detail": e.detail,
                }
                for e in entries
            ]
        )
        return 0
    print_table(
        [
            translate("LabGPU", "TIME"),
            translate("LabGPU", "ACCOUNT"),
            translate("LabGPU", "ACTION"),
            translate("LabGPU", "RESOURCE"),
            translate("LabGPU", "RESULT"),
            translate("LabGPU", "REQUEST ID"),
        ],
        [
            [e.time.strftime("%Y-%m-%d %H:%M:%S"), e.account, e.action, e.resource, e.result, e.request_id]
            for e in entries
        ],
    )
    return 0
