"""`labgpu accounts add|ls|test|rm|import`: cloud keys (secrets from stdin or a prompt, never argv); registered
by cloud.py."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from app.cli.output import print_json, print_table, translate
from app.core import providers
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.i18n import translate as translate_template


def service() -> Any:
    """The cloud service the commands act through (imported when a command runs, not at start)."""
    from app.cloud.launch import CloudService

    return CloudService()


# -- accounts ---------------------------------------------------------------------------------------


def _read_secrets(provider: str) -> tuple[str, str, str]:
    """(key id, secret, session token) from stdin, one per line, or from prompts; the provider's spec says
    which it asks for (only a secret for an API key) and whether the secret is a whole document (a JSON key:
    the rest of stdin, up to an empty line when a session token may follow it)."""
    spec = providers.spec(provider)
    key, secret, token_field = (spec.credential(k) for k in ("key_id", "secret", "session_token"))
    asks_key = key is not None or not spec.credentials
    labels = (
        (key.prompt or translate_template(key.label)) if key else "Key id",
        (secret.prompt or translate_template(secret.label)) if secret else "Secret",
    )
    document = secret is not None and secret.multiline
    if sys.stdin is not None and not sys.stdin.isatty():
        text = sys.stdin.read()
        lines = text.splitlines()
        if document:  # the key id line (if asked), then the document as it is
            rest = text
            first = ""
            if asks_key:
                head, _, rest = text.lstrip().partition("\n")
                first = head.strip()
            token = ""
            if token_field is not None:  # the document ends at an empty line (as when pasted); the token follows
                rest, _, after = rest.strip().replace("\r\n", "\n").partition("\n\n")
                token = after.strip()
            return _need_values(labels, asks_key, first, rest.strip()) + (token,)
        values = [ln.strip() for ln in lines if ln.strip()]
        if not asks_key:
            values = ["", *values]
        first_value = values[0] if values else ""
        second_value = values[1] if len(values) > 1 else ""
        found = _need_values(labels, asks_key, first_value, second_value)
        return found[0], found[1], values[2] if len(values) > 2 else ""
    first = getpass.getpass(f"{labels[0]}: ") if asks_key else ""
    if document:
        print(translate("LabGPU", "Paste {what}, then an empty line:").format(what=labels[1]), file=sys.stderr)
        pasted: list[str] = []
        while (line := sys.stdin.readline()).strip():
            pasted.append(line)
        second = "".join(pasted)
    else:
        second = getpass.getpass(f"{labels[1]}: ")
    token = getpass.getpass("Session token (Enter for none): ") if token_field is not None else ""
    return first.strip(), second.strip(), token.strip()


def _need_values(labels: tuple[str, str], asks_key: bool, first: str, second: str) -> tuple[str, str]:
    if (asks_key and not first) or not second:
        if not asks_key:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "{second} is needed on stdin."),
                QT_TRANSLATE_NOOP("LabGPU", "Pipe it in, e.g. from your password manager."),
                code="MissingSecret", second=labels[1],
            )
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "Two lines are needed on stdin: {first}, then {second}."),
            QT_TRANSLATE_NOOP("LabGPU", "Pipe them in one per line, e.g. from your password manager."),
            code="MissingSecret",
            first=labels[0],
            second=labels[1],
        )
    return first, second


def _settings(args: argparse.Namespace) -> dict[str, str]:
    """The provider's account fields given as options; an option of another cloud is refused."""
    spec = providers.spec(args.provider)
    given = {k[len("setting_"):]: v.strip() for k, v in vars(args).items()
             if k.startswith("setting_") and v is not None}
    for key in given:
        if spec.account_field(key) is None:
            raise InputError(
                QT_TRANSLATE_NOOP("LabGPU", "{option} is not a setting of {cloud} accounts."),
                QT_TRANSLATE_NOOP("LabGPU", "Leave it out; {cloud} accounts take: {options}."),
                code="BadSetting", option="--" + key.replace("_", "-"), cloud=spec.display_name(),
                options=" ".join(f.option for f in spec.account_fields) or "-",
            )
    return {k: v for k, v in given.items() if v}


def cmd_accounts_add(args: argparse.Namespace) -> int:
    from app.core.accounts import Credentials, storage_only
    from app.usecases.accounts import add_account, new_account

    account = new_account(args.name, args.provider, args.region, args.endpoint, protocol=args.protocol,
                          extra=_settings(args))
    if args.test and storage_only(account):
        raise InputError(
            QT_TRANSLATE_NOOP(
                "LabGPU",
                "--test checks an account by asking for its instances; {cloud} accounts are for object storage only.",
            ),
            QT_TRANSLATE_NOOP("LabGPU", "Add it without --test, then list its buckets: labgpu buckets ls {name}"),
            code="StorageOnlyAccount",
            cloud=providers.display_name(account.provider),
            name=account.name,
        )
    key_id, secret, token = _read_secrets(args.provider)

    def saved(added: Any) -> None:
        acc = added.account
        print(
            translate(
                "LabGPU", "added {provider} account {name} ({region}, key {key_id_masked}); secrets are in the keyring"
            ).format(provider=acc.provider, name=acc.name, region=acc.region,
                     key_id_masked=added.info.key_id_masked or "-"),
            flush=True,
        )
        if storage_only(acc):
            print(
                translate(
                    "LabGPU",
                    "{name} is for {provider} object storage (OBS) only: bucket syncs take it "
                    "(--account); launch, instances and live prices do not",
                ).format(name=acc.name, provider=providers.display_name(acc.provider, "en")),
                flush=True,
            )

    added = add_account(service(), account, Credentials(key_id, secret, token), test=args.test, on_saved=saved)
    if args.test:
        print(translate("LabGPU", "connection ok: {connection}").format(connection=added.connection))
    return 0


def cmd_accounts_ls(args: argparse.Namespace) -> int:
    svc = service()
    infos = svc.accounts.infos()
    if args.json:
        print_json([i.to_json() for i in infos])
        return 0
    print_table(
        [
            translate("LabGPU", "NAME"),
            translate("LabGPU", "PROVIDER"),
            translate("LabGPU", "REGION"),
            translate("LabGPU", "KEY ID"),
            translate("LabGPU", "ENDPOINT"),
        ],
        [
            [
                i.account.name,
                i.account.provider + (" (storage only)" if providers.storage_only(i.account.provider) else ""),
                i.account.region,
                i.key_id_masked,
                i.account.endpoint,
            ]
            for i in infos
        ],
    )
    return 0


def cmd_accounts_test(args: argparse.Namespace) -> int:
    who = service().test_connection(args.name)
    print(translate("LabGPU", "connection ok: {who}").format(who=who))
    return 0


def cmd_accounts_rm(args: argparse.Namespace) -> int:
    svc = service()
    svc.accounts.remove(args.name)
    billing = [e for e in svc.ledger.list(include_terminated=False) if e.account == args.name]
    print(translate("LabGPU", "removed account {name}").format(name=args.name))
    if billing:
        print(
            f"warning: {len(billing)} instance(s) of this account may still bill: " + ", ".join(e.id for e in billing),
            file=sys.stderr,
        )
    return 0


def _print_imports(results: list[Any]) -> int:
    if not results:
        print(translate("LabGPU", "nothing to import"), file=sys.stderr)
        return 1
    for r in results:
        print(
            translate("LabGPU", "{status} {name} (from {source})").format(status=r.status, name=r.name, source=r.source)
        )
    return 0


def importer_options(parser: argparse.ArgumentParser, decl: providers.ImporterDecl) -> None:
    for opt in decl.options:
        parser.add_argument(f"--{opt.name}", required=opt.required, default=None, help=opt.help or None)
    parser.add_argument(
        "--replace", action="store_true", help=translate("LabGPU", "overwrite accounts of the same name")
    )
    parser.set_defaults(func=cmd_accounts_import, importer_id=decl.id)


def cmd_accounts_import(args: argparse.Namespace) -> int:
    from app.cloud.registry import run_importer

    decl = providers.find_importer(args.importer_id)
    assert decl is not None  # the parser offers declared importers only
    options = {o.name: getattr(args, o.name) for o in decl[1].options}
    cands = run_importer(args.importer_id, **options)
    return _print_imports(service().accounts.import_candidates(cands, replace=args.replace))
