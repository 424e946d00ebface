"""`labgpu offers`: the offer catalog on the command line (same core as the offers page)."""

from __future__ import annotations

import argparse
import math
import sys
from typing import TYPE_CHECKING, Any

from app.cli.output import translate
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP

if TYPE_CHECKING:
    from app.core.currency import ExchangeRate
    from app.core.models import Offer


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from app.core.models import PROVIDERS
    from app.core.offerquery import SORT_ALIASES, SORT_KEYS

    p = subparsers.add_parser(
        "offers", help=translate("LabGPU", "list GPU offers across clouds"),
        description=translate("LabGPU", "List GPU offers from the bundled catalog (and cached live prices). Prices are "
                    "shown in each provider's own currency; --max-price converts with the default "
                    "USD/CNY rate. Unknown prices are empty (null in JSON) and sort last."))
    p.add_argument("--gpu", action="append", default=[], metavar="MODEL",
                   help=translate("LabGPU", "GPU model, matched loosely (A100 matches A100-40GB and A100-80GB); "
                                            "repeatable"))
    p.add_argument("--provider", action="append", default=[], metavar="ID",
                   help=translate("LabGPU", "provider id ({ids}); repeatable").format(ids=" ".join(PROVIDERS)))
    p.add_argument("--min-vram", type=float, default=None, metavar="GB",
                   help=translate("LabGPU", "minimum VRAM per GPU"))
    p.add_argument("--gpus", type=float, default=None, metavar="N", help=translate("LabGPU", "exact number of GPUs"))
    p.add_argument("--max-price", type=float, default=None, metavar="AMOUNT",
                   help=translate("LabGPU", "maximum on-demand (or, with --spot, spot) price per hour"))
    p.add_argument("--currency", type=str.upper, choices=("CNY", "USD"), default=None,
                   help=translate("LabGPU", "show every price in this currency, converted as the window does "
                                            "(the rate and its date are printed once); also the currency of "
                                            "--max-price (default: each provider's own currency, --max-price "
                                            "in USD)"))
    p.add_argument("--sort", choices=(*SORT_KEYS, *SORT_ALIASES), default="per_tflop", metavar="KEY",
                   help=translate("LabGPU", "sort as the app's offers table does: {keys} (vram = per GPU; price, "
                                            "price_per_tflop, price_per_gpu are accepted too; default per_tflop)"
                                  ).format(keys=", ".join(SORT_KEYS)))
    p.add_argument("--desc", action="store_true", help=translate("LabGPU", "largest first (unknown values still last)"))
    p.add_argument("--spot", action="store_true",
                   help=translate("LabGPU", "only offers with a spot/preemptible market"))
    p.add_argument("--region", default="", help=translate("LabGPU", "region contains this text"))
    p.add_argument("--json", action="store_true", help=translate("LabGPU", "print a JSON array"))
    p.set_defaults(func=run_offers)


def _fmt(v: float | None, digits: int = 4) -> str:
    if v is None:
        return translate("LabGPU", "unknown")
    text = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return text or "0"


def _converted(offer: Offer, currency: str, rate: ExchangeRate) -> dict[str, float | None]:
    """The offer's prices in ``currency`` (the window's offers table converts the same way)."""
    from app.core.currency import convert
    from app.core.offerprices import price_per_tflop_hour

    def conv(amount: float | None) -> float | None:
        value = convert(amount, offer.currency, currency, rate)
        return None if value is None else round(value, 6)

    return {"price_on_demand": conv(offer.price_on_demand),
            "price_spot": conv(offer.price_spot) if offer.spot_available else None,
            "price_prepaid_month": conv(offer.price_prepaid_month),
            "price_per_tflop_hour": conv(price_per_tflop_hour(offer))}


def run_offers(args: argparse.Namespace) -> int:
    from app.cli.output import print_json, print_table, rate_text
    from app.core.catalog import load_catalog
    from app.core.currency import default_rate, effective_rate, money_text
    from app.core.models import PROVIDERS
    from app.core.offerprices import offer_to_dict, price_age, price_per_tflop_hour
    from app.core.offerquery import OfferFilter, filter_offers, sort_offers
    from app.core.paths import default_paths
    from app.core.settings import SettingsStore

    providers = [p.strip().lower() for p in args.provider if p.strip()]
    unknown = [p for p in providers if p not in PROVIDERS]
    if unknown:
        raise InputError(QT_TRANSLATE_NOOP("LabGPU", "Unknown provider {name}."),
                         QT_TRANSLATE_NOOP("LabGPU", "Use one of: {known}."),
                         code="offers.provider", name=", ".join(unknown), known=" ".join(PROVIDERS))
    checks = (("--min-vram", args.min_vram), ("--max-price", args.max_price), ("--gpus", args.gpus))
    for name, value in checks:
        if value is not None and not math.isfinite(value):
            raise InputError(QT_TRANSLATE_NOOP("LabGPU", "{option} must be a number, not {value}."),
                             QT_TRANSLATE_NOOP("LabGPU", "Give a plain amount such as 1.5 (or leave it out)."),
                             code="offers.not_a_number", option=name, value=value)
        if value is not None and not value >= 0:
            raise InputError(QT_TRANSLATE_NOOP("LabGPU", "{option} must be zero or more."),
                             QT_TRANSLATE_NOOP("LabGPU", "Give a plain amount such as 1.5 (or leave it out)."),
                             code="offers.negative", option=name)

    load = load_catalog(default_paths())
    for problem in load.problems:
        print(translate("LabGPU", "labgpu: warning: {problem}").format(problem=problem), file=sys.stderr)
    # Converted as the window converts: with the rate of Settings (the user's override, else the bundled one).
    rate = effective_rate(SettingsStore().load()) if args.currency else default_rate()
    shown = args.currency
    flt = OfferFilter(providers=tuple(providers), gpu_models=tuple(args.gpu), min_vram=args.min_vram,
                      gpu_count=args.gpus, max_price=args.max_price, currency=args.currency or "USD",
                      spot_only=args.spot, region=args.region)
    offers = sort_offers(filter_offers(load.offers, flt, rate, load.gpus), args.sort, rate, args.desc)
    if args.json:
        records = [offer_to_dict(o) for o in offers]
        if shown:  # the native prices stay as they were; the converted ones are added beside them
            for record, o in zip(records, offers, strict=True):
                record["display"] = {"currency": shown, **_converted(o, shown, rate), "usd_cny": rate.usd_cny,
                                  "rate_source": rate.source,
                                  "rate_date": rate.as_of.isoformat() if rate.as_of else None}
        print_json(records)
        return 0
    headers = [translate("LabGPU", "provider"), translate("LabGPU", "region"), translate("LabGPU", "instance_type"),
               translate("LabGPU", "gpu"), translate("LabGPU", "n"), translate("LabGPU", "vram"),
               translate("LabGPU", "fp16_tf"), translate("LabGPU", "vcpu"), translate("LabGPU", "ram"),
               translate("LabGPU", "net_gbps")]
    prices = [translate("LabGPU", "on_demand/h"), translate("LabGPU", "spot/h"), translate("LabGPU", "prepaid/mo")]
    if shown:
        symbol = " (¥)" if shown == "CNY" else " ($)"
        headers += [h + symbol for h in (*prices, translate("LabGPU", "per_tflop_h"))]
    else:
        headers += [*prices, translate("LabGPU", "cur"), translate("LabGPU", "per_tflop_h")]
    headers.append(translate("LabGPU", "price_age"))
    rows: list[list[Any]] = []
    for o in offers:
        region = translate("LabGPU", "all regions") if o.region == "all regions" else o.region
        row = [o.provider, region, o.instance_type, o.gpu_model, _fmt(o.gpu_count, 2), _fmt(o.vram_gb, 1),
               _fmt(o.total_fp16_tflops, 1), o.vcpu if o.vcpu is not None else "", _fmt(o.ram_gb, 1)
               if o.ram_gb is not None else "", _fmt(o.network_gbps, 1) if o.network_gbps is not None else ""]
        if shown:
            c = _converted(o, shown, rate)
            row += [money_text(c["price_on_demand"], shown),
                    money_text(c["price_spot"], shown) if o.spot_available else "-",
                    money_text(c["price_prepaid_month"], shown), money_text(c["price_per_tflop_hour"], shown, 4)]
        else:
            row += [_fmt(o.price_on_demand), _fmt(o.price_spot) if o.spot_available else "-",
                    _fmt(o.price_prepaid_month, 2), o.currency, _fmt(price_per_tflop_hour(o), 5)]
        rows.append([*row, price_age(o).text()])
    print_table(headers, rows)
    print("\n" + translate("LabGPU", "{n} offer(s). 'unknown' = no public price: refresh with an account.").format(
        n=len(offers)), file=sys.stderr)
    if shown:
        print(translate("LabGPU", "Prices converted to {currency} for comparison (billed in the provider's own "
                                  "currency) at {rate}.").format(currency=shown, rate=rate_text(rate)),
              file=sys.stderr)
    else:
        print(translate("LabGPU", "Each provider's own currency; --currency CNY or USD converts. Rate for "
                                  "--max-price: {rate}").format(rate=rate_text(rate)), file=sys.stderr)
    return 0
