"""`labgpu prices refresh`: live prices with an account, or the public price lists; registered by cloud.py."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from app.cli.output import print_json, print_table, terminal_safe, translate
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP
from app.core.i18n import translate as translate_template

from .accountscmd import service

# -- prices ---------------------------------------------------------------------------------------


def cmd_prices_refresh(args: argparse.Namespace) -> int:
    if args.public and (args.account or args.types):
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "--account and --type do not apply to --public."),
            QT_TRANSLATE_NOOP(
                "LabGPU", "Public prices need no account: leave them out, or drop --public to refresh with an account."
            ),
            code="PublicWithAccount",
        )
    if args.public:
        return cmd_prices_refresh_public(args)
    if args.azure_endpoint is not None:
        raise InputError(
            QT_TRANSLATE_NOOP("LabGPU", "--azure-endpoint only applies to public prices."),
            QT_TRANSLATE_NOOP("LabGPU", "Add --public, or leave --azure-endpoint out."),
            code="AzureEndpointWithoutPublic",
        )
    errors: dict[str, Any] = {}
    offers = service().refresh_prices(args.account, args.types, errors=None if args.account else errors)
    for name, exc in errors.items():
        print(
            "labgpu: "
            + translate("LabGPU", "account {name}: {one_line}").format(
                name=name, one_line=terminal_safe(exc.one_line())
            ),
            file=sys.stderr,
        )  # a cloud's words
    status = 3 if errors else 0  # some accounts refreshed, some not
    if errors and not offers:
        status = 2
    if args.json:
        from dataclasses import asdict

        print_json([asdict(o) for o in offers])
        return status
    print_table(
        [
            translate("LabGPU", "PROVIDER"),
            translate("LabGPU", "REGION"),
            translate("LabGPU", "ZONE"),
            translate("LabGPU", "TYPE"),
            translate("LabGPU", "GPU"),
            translate("LabGPU", "ON-DEMAND/H"),
            translate("LabGPU", "SPOT/H"),
            translate("LabGPU", "CUR"),
            translate("LabGPU", "SOLD OUT"),
        ],
        [
            [
                o.provider,
                o.region,
                o.zone,
                o.instance_type,
                f"{o.gpu_count:g}x {o.gpu_model}",
                "" if o.price_on_demand is None else f"{o.price_on_demand:.4f}",
                "" if o.price_spot is None else f"{o.price_spot:.4f}",
                o.currency,
                "yes" if o.sold_out else "",
            ]
            for o in offers
        ],
    )
    print(translate("LabGPU", "{n} live prices cached").format(n=len(offers)), file=sys.stderr)
    return status


def cmd_prices_refresh_public(args: argparse.Namespace) -> int:
    """Public price lists (no account): Azure now; a failure keeps the bundled prices and says why."""
    from app.cloud.public_prices import no_public_list, refresh_public_prices
    from app.core.paths import default_paths
    from app.core.settings import SettingsStore

    paths = default_paths()
    setting = args.azure_endpoint
    if setting is None:
        setting = SettingsStore(paths).load().azure_prices_endpoint

    def progress(done: int, total: int, what: str) -> None:
        if what:
            print(
                translate("LabGPU", "[{n}/{total}] Azure {what}").format(n=done + 1, total=total, what=what),
                file=sys.stderr,
                flush=True,
            )

    result = refresh_public_prices(azure_endpoint_setting=setting, paths=paths, progress=progress)
    for key, reason in result.missing:
        print(
            "labgpu: "
            + translate("LabGPU", "{join}: {reason}; the bundled price is kept").format(
                join=terminal_safe("/".join(key)), reason=terminal_safe(reason)
            ),
            file=sys.stderr,
        )
    if args.json:
        from dataclasses import asdict

        print_json(
            {
                "endpoint": result.endpoint,
                "fetched_at": result.fetched_at,
                "offers": [asdict(o) for o in result.offers],
                "missing": [{"key": list(k), "reason": r} for k, r in result.missing],
                "no_public_list": {p: translate_template(r) for p, r in no_public_list().items()},
            }
        )
    else:
        print_table(
            [
                translate("LabGPU", "PROVIDER"),
                translate("LabGPU", "REGION"),
                translate("LabGPU", "TYPE"),
                translate("LabGPU", "GPU"),
                translate("LabGPU", "ON-DEMAND/H"),
                translate("LabGPU", "SPOT/H"),
                translate("LabGPU", "CUR"),
                translate("LabGPU", "FETCHED (UTC)"),
            ],
            [
                [
                    o.provider,
                    o.region,
                    o.instance_type,
                    f"{o.gpu_count:g}x {o.gpu_model}",
                    "" if o.price_on_demand is None else f"{o.price_on_demand:.4f}",
                    "" if o.price_spot is None else f"{o.price_spot:.4f}",
                    o.currency,
                    f"{o.fetched_at:%Y-%m-%d %H:%M}" if o.fetched_at else "",
                ]
                for o in result.offers
            ],
        )
        print(
            f"{len(result.offers)} public prices cached from {result.endpoint} ({result.requests} requests); "
            "no public list without an account for: "
            + "; ".join(f"{p} ({translate_template(r)})" for p, r in no_public_list().items()),
            file=sys.stderr,
        )
    if not result.offers:
        return 2
    return 3 if result.missing else 0
