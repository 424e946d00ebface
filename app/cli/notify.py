"""`labgpu notify add|ls|test|rm`: the channels that carry notices away from the laptop.

Secrets (a password, a token, a signing secret, and an address that carries a token: a Feishu or
DingTalk webhook, an ntfy topic) are never arguments — argv lands in the shell history and in `ps`. They
are prompted for (hidden) on a terminal, or read from stdin with --secret-stdin, one line each, in the
order `labgpu notify add --help` lists them; they go to the system keyring, and settings.json keeps only
the keyring entry names.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from app.cli.output import print_json, print_table, terminal_safe, translate
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.i18n import translate as translate_template
from app.notify.config import KINDS, SECRET_FIELDS, SECURITY, ChannelConfig
from app.notify.events import TOPICS

_SECRET_ORDER = "; ".join(f"{k}: " + ", ".join(f.name + ("" if f.required else " (may be empty)")
                                               for f in SECRET_FIELDS[k]) for k in KINDS)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("notify", help=translate("LabGPU", "notices by mail, WeChat, Feishu, DingTalk, ntfy or "
                                                                 "webhook"))
    sub = p.add_subparsers(
        title=translate("LabGPU", "commands"), dest="notify_command", metavar="ACTION", required=True
    )

    add = sub.add_parser(
        "add",
        help=translate("LabGPU", "add (or replace) a channel; secrets are prompted for or read from stdin"),
        description=translate(
            "LabGPU", "Secrets are never arguments. On stdin (--secret-stdin), one line each, in this order — {order}."
        ).format(order=_SECRET_ORDER),
    )
    add.add_argument(
        "name", metavar="NAME", help=translate("LabGPU", "a name for the channel, e.g. phone or lab-feishu")
    )
    add.add_argument("--kind", required=True, choices=KINDS, help=translate("LabGPU", "the kind of channel"))
    add.add_argument(
        "--events",
        default=",".join(TOPICS),
        metavar="LIST",
        help=translate("LabGPU", "comma-separated, from: {topics} (default: all)").format(topics=", ".join(TOPICS)),
    )
    add.add_argument("--host", default="", help=translate("LabGPU", "email: the SMTP server, e.g. smtp.qq.com"))
    add.add_argument(
        "--port",
        type=int,
        default=None,
        help=translate("LabGPU", "email: 465 with --security ssl (default), 587 with starttls"),
    )
    add.add_argument(
        "--security", choices=SECURITY, default="ssl", help=translate("LabGPU", "email: implicit TLS or STARTTLS")
    )
    add.add_argument("--username", default="", help=translate("LabGPU", "email: the login (often the address itself)"))
    add.add_argument(
        "--from", dest="sender", default="", help=translate("LabGPU", "email: the sender address (default: --username)")
    )
    add.add_argument(
        "--to",
        action="append",
        default=[],
        metavar="ADDRESS",
        help=translate("LabGPU", "email: a recipient; repeatable"),
    )
    add.add_argument(
        "--priority",
        type=int,
        default=0,
        choices=range(0, 6),
        metavar="1-5",
        help=translate("LabGPU", "ntfy: the priority (default: the server's)"),
    )
    add.add_argument(
        "--endpoint",
        default="",
        metavar="URL",
        help=translate("LabGPU", "serverchan/pushplus: another https address for the service (a mirror)"),
    )
    add.add_argument(
        "--ca-file",
        default="",
        metavar="PEM",
        help=translate("LabGPU", "a CA to trust besides the system's (a self-hosted server with a private CA)"),
    )
    add.add_argument(
        "--max-per-hour", type=int, default=12, help=translate("LabGPU", "rate limit of this channel (default 12)")
    )
    add.add_argument(
        "--secret-stdin",
        action="store_true",
        help=translate("LabGPU", "read the secrets from stdin, one line each (see above), instead of prompting"),
    )
    add.set_defaults(func=cmd_add)

    ls = sub.add_parser("ls", help=translate("LabGPU", "list the channels and each one's last result"))
    ls.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    ls.set_defaults(func=cmd_ls)

    test = sub.add_parser("test", help=translate("LabGPU", "send a test notice on a channel now"))
    test.add_argument("name", metavar="NAME", help=translate("LabGPU", "channel name (labgpu notify ls)"))
    test.set_defaults(func=cmd_test)

    rm = sub.add_parser("rm", help=translate("LabGPU", "remove a channel and its keyring entries"))
    rm.add_argument("name", metavar="NAME", help=translate("LabGPU", "channel name (labgpu notify ls)"))
    rm.set_defaults(func=cmd_rm)


def _read_secrets(kind: str, from_stdin: bool) -> dict[str, str]:
    fields = SECRET_FIELDS[kind]
    if from_stdin or not sys.stdin.isatty():
        lines = sys.stdin.read().splitlines() if sys.stdin is not None else []
        values = {f.name: (lines[i].strip() if i < len(lines) else "") for i, f in enumerate(fields)}
        missing = [f.name for f in fields if f.required and not values[f.name]]
        if missing:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "No {what} on stdin."),
                QT_TRANSLATE_NOOP("LabGPU", "Pipe the secrets in, one line each: {order}."),
                code="EmptySecret",
                what=missing[0],
                order=", ".join(f.name for f in fields),
            )
        return values
    out = {}
    for f in fields:
        suffix = "" if f.required else " (Enter for none)"
        out[f.name] = getpass.getpass(f"{translate_template(f.label)}{suffix}: ").strip()
    return out


def _settings() -> Any:
    from app.core.paths import default_paths
    from app.core.settings import SettingsStore

    store = SettingsStore(default_paths())
    return store, store.load()


def cmd_add(args: argparse.Namespace) -> int:
    from app.notify.manage import save_channel

    events = [e.strip() for e in args.events.split(",") if e.strip()]
    port = args.port if args.port is not None else (587 if args.security == "starttls" else 465)
    cfg = ChannelConfig(
        name=args.name,
        kind=args.kind,
        events=events,
        host=args.host,
        port=port,
        security=args.security,
        username=args.username,
        sender=args.sender,
        recipients=args.to,
        priority=args.priority,
        endpoint=args.endpoint,
        ca_file=args.ca_file,
        max_per_hour=args.max_per_hour,
    )
    from app.notify.config import check_channel

    check_channel(cfg)  # before asking for any secret
    values = _read_secrets(args.kind, args.secret_stdin)
    store, settings = _settings()
    save_channel(settings, cfg, values)
    store.save(settings)
    print(
        translate(
            "LabGPU",
            "Added the {kind} channel {name}; its secrets are in the system keyring. Try it: labgpu notify test {name}",
        ).format(kind=args.kind, name=cfg.name)
    )
    return 0


def cmd_ls(args: argparse.Namespace) -> int:
    from app.notify.config import notify_settings
    from app.notify.dispatch import Notifier

    _store, settings = _settings()
    channels = notify_settings(settings).channels
    last = Notifier.from_paths().last_results()
    rows: list[dict[str, Any]] = []
    for c in channels:
        r = last.get(c.name)
        where = c.url_hint or c.endpoint or (f"{c.host}:{c.port}" if c.kind == "email" else "")
        item = {
            "name": c.name,
            "kind": c.kind,
            "enabled": c.enabled,
            "events": c.events,
            "where": where,
            "last_ok": r.ok if r else None,
            "last_at": r.at if r else "",
            "last": r.text() if r else "",
        }
        rows.append(item)
    if args.json:
        print_json(rows)
        return 0
    if not rows:
        print(translate("LabGPU", "No notification channels. Add one: labgpu notify add NAME --kind ntfy"))
        return 0
    print_table(
        [
            translate("LabGPU", "NAME"),
            translate("LabGPU", "KIND"),
            translate("LabGPU", "EVENTS"),
            translate("LabGPU", "WHERE"),
            translate("LabGPU", "LAST RESULT"),
        ],
        [
            [
                r["name"],
                r["kind"],
                ",".join(r["events"]) if len(r["events"]) < len(TOPICS) else "all",
                r["where"],
                (f"{r['last_at']} " + ("ok" if r["last_ok"] else r["last"]))[:120] if r["last_at"] else "-",
            ]
            for r in rows
        ],
    )
    return 0


def cmd_test(args: argparse.Namespace) -> int:
    from app.notify.dispatch import Notifier

    _store, settings = _settings()
    result = Notifier.from_paths().send_test(args.name, settings=settings)
    if result.ok:
        print(
            translate("LabGPU", "Sent a test notice on {name}: {text}").format(
                name=terminal_safe(args.name), text=terminal_safe(result.text())
            )
        )
        return 0
    print(
        translate("LabGPU", "labgpu: [NotifyFailed] {name}: {text}").format(
            name=terminal_safe(args.name), text=terminal_safe(result.text())
        ),
        file=sys.stderr,
    )
    return 1


def cmd_rm(args: argparse.Namespace) -> int:
    from app.notify.dispatch import Notifier
    from app.notify.manage import remove_channel

    store, settings = _settings()
    gone = remove_channel(settings, args.name)
    if gone is None:
        from app.notify.dispatch import HINT_NO_CHANNEL, MSG_NO_CHANNEL

        raise InputError(MSG_NO_CHANNEL, HINT_NO_CHANNEL, code="NoChannel", name=args.name)
    store.save(settings)
    Notifier.from_paths().forget(args.name)
    print(translate("LabGPU", "Removed the channel {name} and its keyring entries").format(name=args.name))
    return 0
