"""`labgpu keys new|ls|export|import|rm`: the encryption keys of bucket pairs (client-side AES-256-GCM).

A key lives only in the system keyring; the database keeps its name and key id. Its recovery phrase is
the only way to read the pair's objects on another computer: `export` prints it to a terminal (never
into a pipe or a file unless --show-phrase says so), `import` reads it from a hidden prompt or from
stdin — never from argv, which lands in the shell history and in `ps`.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from app.cli.output import print_json, print_table, read_stdin_secret, terminal_safe, translate
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = subparsers.add_parser("keys", help=translate("LabGPU", "encryption keys for bucket pairs (kept in the system "
                                                               "keyring)"))
    sub = p.add_subparsers(title=translate("LabGPU", "commands"), dest="keys_command", metavar="ACTION", required=True)

    new = sub.add_parser("new", help=translate("LabGPU", "create a key (then keep its recovery phrase: labgpu keys "
                                                         "export NAME)"))
    new.add_argument("name", metavar="NAME", help=translate("LabGPU", "a name for the key, e.g. lab"))
    new.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    new.set_defaults(func=cmd_new)

    ls = sub.add_parser("ls",
                        help=translate("LabGPU", "list the keys on this computer (names and key ids, never a key)"))
    ls.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    ls.set_defaults(func=cmd_ls)

    export = sub.add_parser("export", help=translate("LabGPU", "print a key's recovery phrase (to a terminal only)"),
                            description=translate("LabGPU", "Prints the recovery phrase. Anyone with it can read what "
                                                            "the key "
                                        "encrypted. Into a pipe or a file only with --show-phrase."))
    export.add_argument("name", metavar="NAME", help=translate("LabGPU", "key name (labgpu keys ls)"))
    export.add_argument("--show-phrase", action="store_true",
                        help=translate("LabGPU", "print it even when stdout is not a terminal (a pipe, a file)"))
    export.set_defaults(func=cmd_export)

    imp = sub.add_parser("import", help=translate("LabGPU", "store a key from its recovery phrase (prompted, or one "
                                                            "line on stdin)"))
    imp.add_argument("name", metavar="NAME", help=translate("LabGPU", "a name for the key on this computer"))
    imp.add_argument("--json", action="store_true", help=translate("LabGPU", "print JSON"))
    imp.set_defaults(func=cmd_import)

    rm = sub.add_parser("rm", help=translate("LabGPU", "delete a key from this computer (what it encrypted stays "
                                                       "unreadable "
                                   "without its recovery phrase)"))
    rm.add_argument("name", metavar="NAME", help=translate("LabGPU", "key name (labgpu keys ls)"))
    rm.add_argument("--yes", action="store_true", help=translate("LabGPU", "do not ask (needed when stdin is not a "
                                                                           "terminal)"))
    rm.set_defaults(func=cmd_rm)


def _keys() -> Any:
    from app.core.cryptkeys import CryptKeys
    from app.core.paths import default_paths

    return CryptKeys(default_paths())


def cmd_new(args: argparse.Namespace) -> int:
    keys = _keys()
    crypt = keys.create(args.name)
    if args.json:
        print_json(keys.info(args.name).to_json())
        return 0
    print(translate("LabGPU", "Created the key {name} (key id {key_id}); it is in the system keyring.\nKeep its "
                              "recovery phrase somewhere safe (without it, a lost computer means lost data): labgpu "
                              "keys export {name}").format(name=terminal_safe(args.name), key_id=crypt.key_id))
    return 0


def cmd_ls(args: argparse.Namespace) -> int:
    infos = _keys().infos()
    if args.json:
        print_json([i.to_json() for i in infos])
        return 0
    if not infos:
        print(translate("LabGPU", "No encryption keys. Create one: labgpu keys new NAME"))
        return 0
    print_table(
        [
            translate("LabGPU", "NAME"),
            translate("LabGPU", "KEY ID"),
            translate("LabGPU", "SOURCE"),
            translate("LabGPU", "CREATED"),
        ],
        [[i.name, i.key_id, i.source, i.created_at.isoformat()] for i in infos],
    )
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    if not args.show_phrase and not sys.stdout.isatty():
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "LabGPU prints a recovery phrase only to a terminal."),
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "Run it in a terminal, or add --show-phrase to write it into a pipe or "
                "a file (anyone who reads it can decrypt your data).",
            ),
            code="PhraseNotATerminal",
        )
    keys = _keys()
    phrase = keys.export_phrase(args.name)
    info = keys.info(args.name)
    if sys.stdout.isatty():
        print(
            translate(
                "LabGPU",
                "Recovery phrase of {name} (key id {key_id}). Write it down or keep it in a "
                "password manager; anyone with it can read what this key encrypted:\n",
            ).format(name=terminal_safe(args.name), key_id=info.key_id)
        )
        print(f"    {phrase}\n")
        print(
            translate("LabGPU", "On another computer: labgpu keys import {name}").format(name=terminal_safe(args.name))
        )
    else:
        print(phrase)
    return 0


def _read_phrase() -> str:
    if sys.stdin is not None and sys.stdin.isatty():
        phrase = getpass.getpass("Recovery phrase (not shown): ").strip()
        if not phrase:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "No recovery phrase was typed."),
                QT_TRANSLATE_NOOP("LabGPU", "Run the command again and type or paste the phrase."),
                code="EmptySecret",
            )
        return phrase
    return read_stdin_secret("recovery phrase", "keys import NAME")


def cmd_import(args: argparse.Namespace) -> int:
    from app.core.cryptkeys import check_key_name

    check_key_name(args.name)  # before asking for the phrase
    keys = _keys()
    crypt = keys.import_phrase(args.name, _read_phrase())
    if args.json:
        print_json(keys.info(args.name).to_json())
        return 0
    print(
        translate("LabGPU", "Imported the key {name} (key id {key_id}) into the system keyring.").format(
            name=terminal_safe(args.name), key_id=crypt.key_id
        )
    )
    return 0


def cmd_rm(args: argparse.Namespace) -> int:
    keys = _keys()
    info = keys.info(args.name)
    if not args.yes:
        if sys.stdin is None or not sys.stdin.isatty():
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "Removing the key '{name}' needs a confirmation."),
                QT_TRANSLATE_NOOP(
                    "LabGPU",
                    "Add --yes. What it encrypted stays readable only with its recovery "
                    "phrase (labgpu keys export {name}).",
                ),
                code="ConfirmNeeded",
                name=args.name,
            )
        answer = input(
            f"Remove the key {terminal_safe(args.name)} (key id {info.key_id})? Objects it encrypted "
            f"stay readable only with its recovery phrase. Type the key's name to confirm: "
        )
        if answer.strip() != args.name:
            print(translate("LabGPU", "Nothing removed."))
            return 1
    keys.remove(args.name)
    print(
        translate("LabGPU", "Removed the key {name} (key id {key_id}) from this computer.").format(
            name=terminal_safe(args.name), key_id=info.key_id
        )
    )
    return 0
