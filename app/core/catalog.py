"""The GPU offer catalog: bundled CSV facts, merged with cached live prices, filtered and sorted.

Everything here is pure (no Qt, no network) so the CLI, the offers page, the advisor and tests all
see the same numbers. A price nobody published is ``None`` and stays ``None`` through every
derived value: an unknown price is never turned into a guess, and unknown prices sort last.
A malformed catalog row is reported as ``"offers.csv line N: problem"``, skipped, and the rest loads,
so one bad edit to the file never empties the app.

This module loads and parses; the derived prices and price age live in offerprices.py and the
filters and sort keys in offerquery.py.
"""

from __future__ import annotations

import csv
import importlib
import io
import logging
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

from .currency import CURRENCIES
from .i18n import QT_TRANSLATE_NOOP
from .models import PROVIDERS, GpuSpec, Offer
from .resources import resource_path

__all__ = [
    "GPU_COLUMNS_REQUIRED", "OFFER_COLUMNS_OPTIONAL", "OFFER_COLUMNS_REQUIRED", "PLAUSIBLE_FACTOR", "UNKNOWN_PRICE",
    "CatalogLoad", "RowError", "load_catalog", "load_gpus", "load_offers", "merge_live", "offer_price_problem",
    "parse_gpu_row", "parse_offer_row", "price_problem",
]

log = logging.getLogger(__name__)

OFFER_COLUMNS_REQUIRED = (
    "provider", "region", "instance_type", "gpu_model", "gpu_count", "vram_gb", "vcpu", "ram_gb",
    "network_gbps", "price_on_demand", "price_spot", "price_prepaid_month", "currency",
    "price_source", "price_date",
)
OFFER_COLUMNS_OPTIONAL = ("spot_available", "interconnect", "dedicated", "notes", "zone")
GPU_COLUMNS_REQUIRED = ("model", "name", "vram_gb", "fp16_tflops", "fp32_tflops", "mem_bandwidth_gbs")

_TRUE = {"yes", "y", "true", "1"}
_FALSE = {"no", "n", "false", "0", ""}

UNKNOWN_PRICE = QT_TRANSLATE_NOOP("LabGPU", "unknown — refresh with an account")


class RowError(ValueError):
    """One problem with one catalog row (the message names the column)."""


@dataclass
class CatalogLoad:
    """What load_catalog found: usable offers, GPU specs by model key, and every problem seen."""

    offers: list[Offer]
    gpus: dict[str, GpuSpec]
    problems: list[str] = field(default_factory=list)
    live_count: int = 0  # offers whose prices came from the live cache


# ---------------------------------------------------------------------------------------------
# parsing


def _num(row: dict[str | None, Any], col: str, *, required: bool = False, integer: bool = False,
         positive: bool = False) -> float | None:
    raw = row.get(col)
    if raw is None:
        raise RowError(f"missing column {col!r}")
    text = raw.strip()
    if not text:
        if required:
            raise RowError(f"{col} is empty")
        return None
    try:
        value = float(text)
    except ValueError:
        raise RowError(f"{col} is not a number: {text!r}") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise RowError(f"{col} must be a {'positive' if positive else 'non-negative'} number: {text!r}")
    if integer:
        if value != int(value):
            raise RowError(f"{col} must be a whole number: {text!r}")
        return int(value)
    return value


def _text(row: dict[str | None, Any], col: str, *, required: bool = False) -> str:
    raw = row.get(col)
    if raw is None:
        raise RowError(f"missing column {col!r}")
    text = str(raw).strip()
    if required and not text:
        raise RowError(f"{col} is empty")
    return text


def _flag(row: dict[str | None, Any], col: str) -> bool:
    text = (row.get(col) or "").strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise RowError(f"{col} must be yes or no: {text!r}")


def _date(row: dict[str | None, Any], col: str) -> date | None:
    text = _text(row, col)
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise RowError(f"{col} is not a YYYY-MM-DD date: {text!r}") from None


def parse_offer_row(row: dict[str | None, Any], gpus: dict[str, GpuSpec]) -> Offer:
    """One CSV row → Offer; raises RowError naming the first problem."""
    if row.get(None):  # csv.DictReader puts surplus cells under the key None
        raise RowError(f"{len(row[None])} more cells than the header has columns")
    absent = [c for c in OFFER_COLUMNS_REQUIRED if row.get(c) is None]
    if absent:
        raise RowError(f"missing column(s) {', '.join(absent)} (the row ends early)")
    provider = _text(row, "provider", required=True).lower()
    if provider not in PROVIDERS:
        raise RowError(f"unknown provider {provider!r} (known: {', '.join(PROVIDERS)})")
    currency = _text(row, "currency", required=True).upper()
    if currency not in CURRENCIES:
        raise RowError(f"unknown currency {currency!r} (known: {', '.join(CURRENCIES)})")
    gpu_model = _text(row, "gpu_model", required=True)
    spec = gpus.get(gpu_model)
    if spec is None:
        raise RowError(f"unknown gpu_model {gpu_model!r} (not in gpus.csv)")
    price_on_demand = _num(row, "price_on_demand")
    price_spot = _num(row, "price_spot")
    price_prepaid = _num(row, "price_prepaid_month")
    price_source = _text(row, "price_source")
    if (price_on_demand is not None or price_spot is not None or price_prepaid is not None) \
            and not price_source:
        raise RowError("a price without price_source")
    spot_available = _flag(row, "spot_available") if "spot_available" in row else price_spot is not None
    return Offer(
        provider=provider,
        region=_text(row, "region", required=True),
        instance_type=_text(row, "instance_type", required=True),
        gpu_model=gpu_model,
        gpu_count=float(_num(row, "gpu_count", required=True, positive=True) or 0),
        vram_gb=float(_num(row, "vram_gb", required=True, positive=True) or 0),
        vcpu=_num(row, "vcpu", integer=True),  # type: ignore[arg-type]
        ram_gb=_num(row, "ram_gb"),
        network_gbps=_num(row, "network_gbps"),
        price_on_demand=price_on_demand,
        price_spot=price_spot,
        price_prepaid_month=price_prepaid,
        currency=currency,
        price_source=price_source,
        price_date=_date(row, "price_date"),
        fp16_tflops=spec.fp16_tflops,
        spot_available=spot_available or price_spot is not None,
        interconnect=(row.get("interconnect") or "").strip(),
        dedicated=_flag(row, "dedicated") if "dedicated" in row else False,
        notes=(row.get("notes") or "").strip(),
        zone=(row.get("zone") or "").strip(),
    )


def parse_gpu_row(row: dict[str | None, Any]) -> GpuSpec:
    if row.get(None):
        raise RowError(f"{len(row[None])} more cells than the header has columns")
    return GpuSpec(
        model=_text(row, "model", required=True),
        name=_text(row, "name", required=True),
        vram_gb=float(_num(row, "vram_gb", required=True, positive=True) or 0),
        fp16_tflops=_num(row, "fp16_tflops"),
        fp32_tflops=_num(row, "fp32_tflops"),
        mem_bandwidth_gbs=_num(row, "mem_bandwidth_gbs"),
        source=(row.get("source") or "").strip(),
    )


def _read_rows(path: Path, required: Sequence[str], problems: list[str]) -> Iterable[tuple[int, dict[str | None, Any]]]:
    """Yield (line number, row) for each data row; a missing file or header becomes a problem."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"{path.name}: cannot read ({getattr(exc, 'strerror', None) or exc})")
        return
    with io.StringIO(text, newline="") as fh:
        reader = csv.reader(fh)
        try:
            header = [h.strip() for h in next(reader, [])]
        except csv.Error as exc:
            problems.append(f"{path.name} line 1: unreadable CSV header ({exc}); file skipped")
            return
        lacking = [c for c in required if c not in header]
        if lacking:
            problems.append(f"{path.name} line 1: header lacks column(s) {', '.join(lacking)}; file skipped")
            return
        start = reader.line_num + 1
        try:
            for cells in reader:
                # csv.reader (unlike DictReader) yields blank lines, so line numbers stay true
                line, start = start, reader.line_num + 1
                if not any(c.strip() for c in cells):
                    continue
                row: dict[Any, Any] = dict(zip(header, cells, strict=False))
                for col in header[len(cells):]:
                    row[col] = None
                if len(cells) > len(header):
                    row[None] = cells[len(header):]
                yield line, row
        except csv.Error as exc:
            problems.append(f"{path.name} line {reader.line_num}: unreadable CSV ({exc}); rest skipped")


def load_gpus(path: Path | None = None, problems: list[str] | None = None) -> dict[str, GpuSpec]:
    path = path or resource_path("catalog", "gpus.csv")
    problems = problems if problems is not None else []
    gpus: dict[str, GpuSpec] = {}
    for line, row in _read_rows(path, GPU_COLUMNS_REQUIRED, problems):
        try:
            spec = parse_gpu_row(row)
        except RowError as exc:
            problems.append(f"{path.name} line {line}: {exc}")
            continue
        if spec.model in gpus:
            problems.append(f"{path.name} line {line}: duplicate model {spec.model!r}; first kept")
            continue
        gpus[spec.model] = spec
    return gpus


def load_offers(path: Path, gpus: dict[str, GpuSpec], problems: list[str]) -> list[Offer]:
    offers: list[Offer] = []
    seen: set[tuple[str, str, str]] = set()
    for line, row in _read_rows(path, OFFER_COLUMNS_REQUIRED, problems):
        try:
            offer = parse_offer_row(row, gpus)
        except RowError as exc:
            problems.append(f"{path.name} line {line}: {exc}")
            continue
        if offer.key in seen:
            problems.append(f"{path.name} line {line}: duplicate offer {'/'.join(offer.key)}; first kept")
            continue
        seen.add(offer.key)
        offers.append(offer)
    return offers


def _load_live(paths: Any, problems: list[str]) -> list[Offer]:
    """Cached live prices from app.core.live_prices, if that feature is installed."""
    try:
        module = importlib.import_module("app.core.live_prices")
    except ModuleNotFoundError as exc:
        if exc.name == "app.core.live_prices":
            return []
        raise
    loader = getattr(module, "load_cached", None)
    if not callable(loader):
        return []
    try:
        return list(loader(paths))
    except Exception as exc:  # a broken cache must not hide the bundled catalog
        log.warning("live price cache unreadable: %s", exc, exc_info=True)
        problems.append(f"live price cache: {exc}; bundled prices shown")
        return []


# A fetched price is data from the network: one that is not a positive finite number, or more than
# PLAUSIBLE_FACTOR times off the bundled price of the same offer (in the same currency), is refused
# and the bundled price kept, so a hostile or broken price list cannot make an offer "free" (ranked
# first by the advisor) or infinitely dear. Real moves are far smaller: spot prices move within a few
# times of the on-demand price, list prices by tens of percent.
PLAUSIBLE_FACTOR = 20.0


def price_problem(price: float | None, reference: float | None) -> str | None:
    """Why `price` (per hour) is not believable next to `reference` (the bundled price), or None."""
    if price is None:
        return None
    if isinstance(price, bool) or not isinstance(price, (int, float)) or not math.isfinite(price) or price <= 0:
        return f"{price!r} is not a price"
    if (reference is not None and math.isfinite(reference) and reference > 0
            and not reference / PLAUSIBLE_FACTOR <= price <= reference * PLAUSIBLE_FACTOR):
        return f"{price:g} is more than {PLAUSIBLE_FACTOR:g} times off the bundled price {reference:g}"
    return None


def offer_price_problem(live: Offer, bundled: Offer | None) -> str | None:
    """The first implausible price of a fetched offer (on-demand, spot, prepaid month), named."""
    same = bundled is not None and bundled.currency == live.currency
    ref_od = bundled.price_on_demand if same and bundled is not None else None
    ref_spot = (bundled.price_spot or bundled.price_on_demand) if same and bundled is not None else None
    ref_month = bundled.price_prepaid_month if same and bundled is not None else None
    for kind, value, ref in (("on-demand", live.price_on_demand, ref_od), ("spot", live.price_spot, ref_spot),
                             ("prepaid month", live.price_prepaid_month, ref_month)):
        why = price_problem(value, ref)
        if why is not None:
            return f"{kind} {why} ({live.currency})"
    return None


def merge_live(bundled: Sequence[Offer], live: Sequence[Offer],
               gpus: dict[str, GpuSpec], problems: list[str] | None = None) -> tuple[list[Offer], int]:
    """Live offers replace bundled ones with the same key (in place, keeping order); others append.
    A live offer with an implausible price (``offer_price_problem``) is refused: the bundled one stays,
    and the refusal is named in ``problems``."""
    by_key: dict[tuple[str, str, str], Offer] = {}
    bundled_by_key = {o.key: o for o in bundled}
    refused = 0
    for o in live:
        base = bundled_by_key.get(o.key)
        why = offer_price_problem(o, base)
        if why is not None and why.startswith(("spot ", "prepaid month ")) \
                and offer_price_problem(replace(o, price_spot=None, price_prepaid_month=None), base) is None:
            # the on-demand price is believable: only the implausible one is refused (the bundled one kept)
            o = replace(o, price_spot=base.price_spot if base else None,
                        price_prepaid_month=base.price_prepaid_month if base else None)
            if problems is not None:
                problems.append(f"live price refused: {' '.join(o.key)}: {why}; "
                                + ("bundled one shown" if base is not None else "none shown"))
        elif why is not None:
            refused += 1
            if problems is not None:
                problems.append(f"live price refused: {' '.join(o.key)}: {why}; "
                                + ("bundled price shown" if o.key in bundled_by_key else "offer not shown"))
            continue
        if o.fp16_tflops is None and o.gpu_model in gpus:
            o = replace(o, fp16_tflops=gpus[o.gpu_model].fp16_tflops)
        if not o.live:
            o = replace(o, live=True)
        by_key[o.key] = o
    merged: list[Offer] = []
    for o in bundled:
        merged.append(by_key.pop(o.key, o))
    merged.extend(by_key.values())
    return merged, len(live) - refused


def load_catalog(paths: Any = None, *, offers_path: Path | None = None,
                 gpus_path: Path | None = None, include_live: bool = True) -> CatalogLoad:
    """Bundled GPUs and offers (or the given files) merged with cached live prices.

    `paths` is an ``app.core.paths.Paths`` (the live-price cache lives under it); None means the
    default locations. Never raises for bad data: problems are returned, one line each.
    """
    problems: list[str] = []
    gpus = load_gpus(gpus_path, problems)
    offers = load_offers(offers_path or resource_path("catalog", "offers.csv"), gpus, problems)
    live_count = 0
    if include_live:
        live = _load_live(paths, problems)
        if live:
            offers, live_count = merge_live(offers, live, gpus, problems)
    for p in problems:
        log.warning("catalog: %s", p)
    return CatalogLoad(offers, gpus, problems, live_count)
