"""`labgpu offers`: the offer catalog on the command line (same core as the offers page)."""

from __future__ import annotations

import argparse
import math
import sys

from app.cli.output import translate
from app.core.errors import InputError
from app.core.i18n import QT_TRANSLATE_NOOP


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
                   help=f"provider id ({' '.join(PROVIDERS)}); repeatable")
    p.add_argument("--min-vram", type=float, default=None, metavar="GB",
                   help=translate("LabGPU", "minimum VRAM per GPU"))
    p.add_argument("--gpus", type=float, default=None, metavar="N", help=translate("LabGPU", "exact number of GPUs"))
    p.add_argument("--max-price", type=float, default=None, metavar="AMOUNT",
                   help=translate("LabGPU", "maximum on-demand (or, with --spot, spot) price per hour"))
    p.add_argument("--currency", type=str.upper, choices=("CNY", "USD"), default="USD",
                   help=translate("LabGPU", "currency of --max-price (default USD)"))
    p.add_argument("--sort", choices=(*SORT_KEYS, *SORT_ALIASES), default="per_tflop", metavar="KEY",
                   help="sort as the app's offers table does: " + ", ".join(SORT_KEYS)
                   + " (vram = per GPU; price, price_per_tflop, price_per_gpu are accepted too; default per_tflop)")
    p.add_argument("--desc", action="store_true", help=translate("LabGPU", "largest first (unknown values still last)"))
    p.add_argument("--spot", action="store_true",
                   help=translate("LabGPU", "only offers with a spot/preemptible market"))
    p.add_argument("--region", default="", help=translate("LabGPU", "region contains this text"))
    p.add_argument("--json", action="store_true", help=translate("LabGPU", "print a JSON array"))
    p.set_defaults(func=run_offers)


def _fmt(v: float | None, digits: int = 4) -> str:
    if v is None:
        return "unknown"
    text = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return text or "0"


def run_offers(args: argparse.Namespace) -> int:
    from app.cli.output import print_json, print_table
    from app.core.catalog import load_catalog
    from app.core.currency import default_rate
    from app.core.models import PROVIDERS
    from app.core.offerprices import offer_to_dict, price_age, price_per_tflop_hour
    from app.core.offerquery import OfferFilter, filter_offers, sort_offers
    from app.core.paths import default_paths

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
                             code="offers.negative", option=name)

    load = load_catalog(default_paths())
    for problem in load.problems:
        print(f"labgpu: warning: {problem}", file=sys.stderr)
    rate = default_rate()
    flt = OfferFilter(providers=tuple(providers), gpu_models=tuple(args.gpu), min_vram=args.min_vram,
                      gpu_count=args.gpus, max_price=args.max_price, currency=args.currency,
                      spot_only=args.spot, region=args.region)
    offers = sort_offers(filter_offers(load.offers, flt, rate, load.gpus), args.sort, rate, args.desc)
    if args.json:
        print_json([offer_to_dict(o) for o in offers])
        return 0
    headers = ["provider", "region", "instance_type", "gpu", "n", "vram", "fp16_tf", "vcpu", "ram",
               "net_gbps", "on_demand/h", "spot/h", "prepaid/mo", "cur", "per_tflop_h", "price_age"]
    rows = []
    for o in offers:
        rows.append([
            o.provider, o.region, o.instance_type, o.gpu_model, _fmt(o.gpu_count, 2), _fmt(o.vram_gb, 1),
            _fmt(o.total_fp16_tflops, 1), o.vcpu if o.vcpu is not None else "", _fmt(o.ram_gb, 1)
            if o.ram_gb is not None else "", _fmt(o.network_gbps, 1) if o.network_gbps is not None else "",
            _fmt(o.price_on_demand), _fmt(o.price_spot) if o.spot_available else "-",
            _fmt(o.price_prepaid_month, 2), o.currency, _fmt(price_per_tflop_hour(o), 5),
            price_age(o).text(),
        ])
    print_table(headers, rows)
    print(f"\n{len(offers)} offer(s). 'unknown' = no public price: refresh with an account. "
          f"Rate for --max-price: {rate.describe()}", file=sys.stderr)
    return 0
