"""The GPU offer catalog: bundled CSV facts, merged with cached live prices, filtered and sorted.

Everything here is pure (no Qt, no network) so the CLI, the offers page, the advisor and tests all
see the same numbers. A price nobody published is ``None`` and stays ``None`` through every
derived value: an unknown price is never turned into a guess, and unknown prices sort last.
A malformed catalog row is reported as ``"offers.csv line N: problem"``, skipped, and the rest loads,
so one bad edit to the file never empties the app.
"""

from __future__ import annotations

import csv
import importlib
import io
import logging
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

from .currency import CURRENCIES, ExchangeRate, convert, default_rate
from .i18n import QT_TRANSLATE_NOOP, translate
from .models import PROVIDERS, GpuSpec, Offer
from .resources import resource_path

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


def merge_live(bundled: Sequence[Offer], live: Sequence[Offer],
               gpus: dict[str, GpuSpec]) -> tuple[list[Offer], int]:
    """Live offers replace bundled ones with the same key (in place, keeping order); others append."""
    by_key: dict[tuple[str, str, str], Offer] = {}
    for o in live:
        if o.fp16_tflops is None and o.gpu_model in gpus:
            o = replace(o, fp16_tflops=gpus[o.gpu_model].fp16_tflops)
        if not o.live:
            o = replace(o, live=True)
        by_key[o.key] = o
    merged: list[Offer] = []
    for o in bundled:
        merged.append(by_key.pop(o.key, o))
    merged.extend(by_key.values())
    return merged, len(live)


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
            offers, live_count = merge_live(offers, live, gpus)
    for p in problems:
        log.warning("catalog: %s", p)
    return CatalogLoad(offers, gpus, problems, live_count)


# ---------------------------------------------------------------------------------------------
# derived values


def price_per_gpu_hour(offer: Offer, kind: str = "on_demand") -> float | None:
    """Hourly price divided by the number of GPUs, in the offer's currency."""
    price = hourly_price(offer, kind)
    if price is None or offer.gpu_count <= 0:
        return None
    return price / offer.gpu_count


def price_per_tflop_hour(offer: Offer, kind: str = "on_demand") -> float | None:
    """Hourly price per FP16 dense tensor TFLOPS of the whole instance (all its GPUs)."""
    price = hourly_price(offer, kind)
    total = offer.total_fp16_tflops
    if price is None or not total:
        return None
    return price / total


def hourly_price(offer: Offer, kind: str = "on_demand") -> float | None:
    if kind == "spot":
        return offer.price_spot
    if kind == "on_demand":
        return offer.price_on_demand
    raise ValueError(f"unknown price kind {kind!r}")


def in_currency(amount: float | None, offer: Offer, currency: str, rate: ExchangeRate) -> float | None:
    return convert(amount, offer.currency, currency, rate)


# ---------------------------------------------------------------------------------------------
# price age

AGE_LIVE_NOW = QT_TRANSLATE_NOOP("LabGPU", "live, just now")
AGE_LIVE_MIN = QT_TRANSLATE_NOOP("LabGPU", "live {n} min ago")
AGE_LIVE_HOURS = QT_TRANSLATE_NOOP("LabGPU", "live {n} h ago")
AGE_LIVE_DAYS = QT_TRANSLATE_NOOP("LabGPU", "live {n} days ago")
AGE_FETCHED_NOW = QT_TRANSLATE_NOOP("LabGPU", "fetched just now")
AGE_FETCHED_MIN = QT_TRANSLATE_NOOP("LabGPU", "fetched {n} min ago")
AGE_FETCHED_HOURS = QT_TRANSLATE_NOOP("LabGPU", "fetched {n} h ago")
AGE_FETCHED_DAYS = QT_TRANSLATE_NOOP("LabGPU", "fetched {n} days ago")
AGE_UNDATED = QT_TRANSLATE_NOOP("LabGPU", "undated snapshot")
AGE_BUNDLED = QT_TRANSLATE_NOOP("LabGPU", "bundled, {date}")
AGE_BUNDLED_OLD = QT_TRANSLATE_NOOP("LabGPU", "bundled, {date} — over a year old")
AGE_FUTURE = QT_TRANSLATE_NOOP("LabGPU", "dated {date}")
AGE_NO_PRICE = QT_TRANSLATE_NOOP("LabGPU", "no price")
STALE_DAYS = 365  # a price older than this is flagged "over a year old"


@dataclass(frozen=True)
class PriceAge:
    """How old a price is: `seconds` for sorting (inf when undated), a short label, and `stale` when
    the price is more than a year old."""

    seconds: float
    template: str
    n: int = 0
    day: str = ""
    stale: bool = False

    def text(self) -> str:
        return translate(self.template).format(n=self.n, date=self.day)

    @property
    def undated(self) -> bool:
        return math.isinf(self.seconds)

    @property
    def days(self) -> int | None:
        return None if self.undated else int(self.seconds // 86400)


def price_age(offer: Offer, now: datetime | None = None) -> PriceAge:
    """'fetched 5 min ago' for a public list, 'live 5 min ago' for an account's live price,
    'bundled, 2026-09-25' (flagged over a year old) for a dated catalog price, 'undated snapshot'
    otherwise. `now` is the clock (tests pass a fixed one)."""
    now = now or datetime.now(timezone.utc)
    if now.tzinfo is None:
        now = now.replace(tzinfo=timezone.utc)
    if offer.live and offer.fetched_at is not None:
        fetched = offer.fetched_at
        if fetched.tzinfo is None:
            fetched = fetched.replace(tzinfo=timezone.utc)
        secs = max(0.0, (now - fetched).total_seconds())
        public = offer.origin == "public"
        stale = secs > STALE_DAYS * 86400.0
        if secs < 60:
            return PriceAge(secs, AGE_FETCHED_NOW if public else AGE_LIVE_NOW)
        if secs < 3600:
            return PriceAge(secs, AGE_FETCHED_MIN if public else AGE_LIVE_MIN, int(secs // 60))
        if secs < 86400 * 2:
            return PriceAge(secs, AGE_FETCHED_HOURS if public else AGE_LIVE_HOURS, int(secs // 3600))
        return PriceAge(secs, AGE_FETCHED_DAYS if public else AGE_LIVE_DAYS, int(secs // 86400), stale=stale)
    if offer.price_on_demand is None and offer.price_spot is None and offer.price_prepaid_month is None:
        return PriceAge(math.inf, AGE_NO_PRICE)
    if offer.price_date is None:
        return PriceAge(math.inf, AGE_UNDATED)
    day = offer.price_date.isoformat()
    days = (now.date() - offer.price_date).days
    if days < 0:
        return PriceAge(0.0, AGE_FUTURE, day=day)
    if days > STALE_DAYS:
        return PriceAge(days * 86400.0, AGE_BUNDLED_OLD, days, day, stale=True)
    return PriceAge(days * 86400.0, AGE_BUNDLED, days, day)


# ---------------------------------------------------------------------------------------------
# filtering and sorting

_SPLIT = re.compile(r"[\s\-_/]+")


def _tokens(text: str) -> list[str]:
    return [t for t in _SPLIT.split(text.strip().lower()) if t]


def gpu_matches(query: str, model: str, spec: GpuSpec | None = None) -> bool:
    """Loose GPU match: 'A100' matches A100-40GB and A100-80GB-PCIe, but 'A10' does not match A100.

    The query's tokens must be a prefix of the model key's tokens (case and separators ignored),
    or the query equals the key with separators removed, or it names a whole word of the GPU's
    display name (so '4090' finds RTX4090).
    """
    q = _tokens(query)
    if not q:
        return True
    m = _tokens(model)
    if m[:len(q)] == q:
        return True
    if "".join(q) == "".join(m):
        return True
    if spec is not None:
        name = _tokens(spec.name)
        joined = " ".join(name)
        if f" {' '.join(q)} " in f" {joined} ":
            return True
    return False


@dataclass(frozen=True)
class OfferFilter:
    """What the user narrowed the table to. Empty/None fields do not filter."""

    providers: tuple[str, ...] = ()
    gpu_models: tuple[str, ...] = ()  # loose queries, any may match
    min_vram: float | None = None  # per GPU, GB
    gpu_count: float | None = None  # exact number of GPUs
    max_price: float | None = None  # per hour (spot when spot_only, else on-demand)
    currency: str = "USD"  # currency of max_price
    spot_only: bool = False
    region: str = ""  # case-insensitive substring
    text: str = ""  # free search over provider, region, instance type, GPU, notes

    def to_dict(self) -> dict[str | None, Any]:
        return {
            "providers": list(self.providers), "gpu_models": list(self.gpu_models),
            "min_vram": self.min_vram, "gpu_count": self.gpu_count, "max_price": self.max_price,
            "currency": self.currency, "spot_only": self.spot_only, "region": self.region,
            "text": self.text,
        }

    @classmethod
    def from_dict(cls, doc: Any) -> OfferFilter:
        """Tolerant: a settings file edited by hand yields the filters it can, defaults for the rest."""
        if not isinstance(doc, dict):
            return cls()

        def num(key: str) -> float | None:
            v = doc.get(key)
            try:
                f = float(v) if v is not None and v != "" else None
            except (TypeError, ValueError):
                return None
            return f if f is not None and math.isfinite(f) and f >= 0 else None

        def strs(key: str) -> tuple[str, ...]:
            v = doc.get(key) or ()
            if not isinstance(v, (list, tuple)):
                return ()
            return tuple(x for x in v if isinstance(x, str) and x)

        currency = str(doc.get("currency") or "USD").upper()
        return cls(
            providers=tuple(p for p in strs("providers") if p in PROVIDERS),
            gpu_models=strs("gpu_models"),
            min_vram=num("min_vram"),
            gpu_count=num("gpu_count") or None,
            max_price=num("max_price"),
            currency=currency if currency in CURRENCIES else "USD",
            spot_only=bool(doc.get("spot_only", False)),
            region=str(doc.get("region") or ""),
            text=str(doc.get("text") or ""),
        )


def offer_matches(offer: Offer, flt: OfferFilter, rate: ExchangeRate | None = None,
                  gpus: dict[str, GpuSpec] | None = None) -> bool:
    """Whether `offer` passes `flt`. An unknown price never passes a maximum-price filter."""
    if flt.providers and offer.provider not in flt.providers:
        return False
    if flt.gpu_models:
        spec = (gpus or {}).get(offer.gpu_model)
        if not any(gpu_matches(q, offer.gpu_model, spec) for q in flt.gpu_models):
            return False
    if flt.min_vram is not None and offer.vram_gb < flt.min_vram:
        return False
    if flt.gpu_count is not None and abs(offer.gpu_count - flt.gpu_count) > 1e-9:
        return False
    if flt.spot_only and not offer.spot_available:
        return False
    if flt.region and flt.region.lower() not in offer.region.lower() \
            and flt.region.lower() not in offer.zone.lower():
        return False
    if flt.max_price is not None:
        price = offer.price_spot if flt.spot_only else offer.price_on_demand
        if price is None:
            return False
        price = convert(price, offer.currency, flt.currency, rate or default_rate())
        if price is None or price > flt.max_price + 1e-9:
            return False
    if flt.text:
        hay = " ".join((PROVIDERS.get(offer.provider, ""), offer.provider, offer.region, offer.zone,
                        offer.instance_type, offer.gpu_model, offer.interconnect, offer.notes)).lower()
        if not all(word in hay for word in flt.text.lower().split()):
            return False
    return True


def filter_mask(offers: Sequence[Offer], flt: OfferFilter, rate: ExchangeRate | None = None,
                gpus: dict[str, GpuSpec] | None = None) -> list[bool]:
    """``[offer_matches(o, flt, rate, gpus) for o in offers]``, fast enough for 10,000 offers per keystroke.

    Same rules as offer_matches (a test holds them equal); the GPU match is decided once per
    distinct model and the conditions that are off are skipped instead of tested per offer.
    """
    rate = rate or default_rate()
    if flt == OfferFilter(currency=flt.currency):
        return [True] * len(offers)
    gpus = gpus or {}
    gpu_ok: dict[str, bool] = {}
    if flt.gpu_models:
        for model in {o.gpu_model for o in offers}:
            spec = gpus.get(model)
            gpu_ok[model] = any(gpu_matches(q, model, spec) for q in flt.gpu_models)
    providers = set(flt.providers)
    region = flt.region.lower()
    words = flt.text.lower().split()
    target = flt.currency.upper()
    # the limit expressed in each native currency, so each offer compares without converting
    limits: dict[str, float] = {}
    if flt.max_price is not None:
        for cur in CURRENCIES:
            limits[cur] = (convert(flt.max_price, target, cur, rate) or 0.0) * (1 + 1e-12) + 1e-9
    out: list[bool] = []
    append = out.append
    for o in offers:
        if providers and o.provider not in providers:
            append(False)
            continue
        if gpu_ok and not gpu_ok[o.gpu_model]:
            append(False)
            continue
        if flt.min_vram is not None and o.vram_gb < flt.min_vram:
            append(False)
            continue
        if flt.gpu_count is not None and abs(o.gpu_count - flt.gpu_count) > 1e-9:
            append(False)
            continue
        if flt.spot_only and not o.spot_available:
            append(False)
            continue
        if region and region not in o.region.lower() and region not in o.zone.lower():
            append(False)
            continue
        if limits:
            price = o.price_spot if flt.spot_only else o.price_on_demand
            if price is None or o.currency not in limits:
                append(False)
                continue
            if price > limits[o.currency]:
                append(False)
                continue
        if words:
            hay = " ".join((PROVIDERS.get(o.provider, ""), o.provider, o.region, o.zone, o.instance_type,
                            o.gpu_model, o.interconnect, o.notes)).lower()
            if not all(w in hay for w in words):
                append(False)
                continue
        append(True)
    return out


def filter_offers(offers: Iterable[Offer], flt: OfferFilter, rate: ExchangeRate | None = None,
                  gpus: dict[str, GpuSpec] | None = None) -> list[Offer]:
    offers = list(offers)
    return [o for o, ok in zip(offers, filter_mask(offers, flt, rate, gpus), strict=True) if ok]


# One set of sort keys for the offers table and `labgpu offers --sort` (the CLI's names are the
# table's column keys; the older CLI spellings stay as aliases). "vram" is VRAM per GPU, as the
# column shows and as --min-vram filters; "total_vram" is all GPUs together.
SORT_KEYS = (
    "provider", "region", "instance_type", "gpu", "count", "vram", "total_vram", "tflops", "vcpu", "ram",
    "network", "on_demand", "spot", "prepaid", "per_gpu", "per_tflop", "age", "source",
)
SORT_ALIASES = {"price": "on_demand", "price_per_tflop": "per_tflop", "price_per_gpu": "per_gpu"}


def sort_value(offer: Offer, key: str, rate: ExchangeRate, now: datetime | None = None) -> Any:
    """A comparable value for `key`: a number (prices in USD so currencies compare) or lower-case text;
    None = unknown (sorts last in both directions)."""
    key = SORT_ALIASES.get(key, key)
    if key == "provider":
        return PROVIDERS.get(offer.provider, offer.provider).lower()
    if key == "region":
        return offer.region.lower()
    if key == "instance_type":
        return offer.instance_type.lower()
    if key == "gpu":
        return offer.gpu_model.lower()
    if key == "count":
        return offer.gpu_count
    if key == "vram":
        return offer.vram_gb
    if key == "total_vram":
        return offer.total_vram_gb
    if key == "tflops":
        return offer.total_fp16_tflops
    if key == "vcpu":
        return offer.vcpu
    if key == "ram":
        return offer.ram_gb
    if key == "network":
        return offer.network_gbps
    if key == "on_demand":
        return convert(offer.price_on_demand, offer.currency, "USD", rate)
    if key == "spot":
        return convert(offer.price_spot, offer.currency, "USD", rate)
    if key == "prepaid":
        return convert(offer.price_prepaid_month, offer.currency, "USD", rate)
    if key == "per_gpu":
        return convert(price_per_gpu_hour(offer), offer.currency, "USD", rate)
    if key == "per_tflop":
        return convert(price_per_tflop_hour(offer), offer.currency, "USD", rate)
    if key == "age":
        seconds = price_age(offer, now).seconds
        return None if math.isinf(seconds) else seconds
    if key == "source":
        return offer.price_source.lower() or None
    raise ValueError(f"unknown sort key {key!r} (known: {', '.join(SORT_KEYS)})")


def sort_order(values: Sequence[Any], tie: Sequence[Any], keys: Sequence[Any], descending: bool = False) -> list[int]:
    """Row order for `values` (None = unknown, always last); equal values are ordered by `tie`
    (price per TFLOP-hour: the cheaper compute first) and then by `keys`, so the order is stable."""
    inf = math.inf
    known = [i for i, v in enumerate(values) if v is not None]
    unknown = [i for i, v in enumerate(values) if v is None]
    known.sort(key=lambda i: (values[i], inf if tie[i] is None else tie[i]), reverse=descending)
    unknown.sort(key=lambda i: (inf if tie[i] is None else tie[i], keys[i]))
    return known + unknown


def sort_offers(offers: Iterable[Offer], key: str = "per_tflop", rate: ExchangeRate | None = None,
                descending: bool = False, now: datetime | None = None) -> list[Offer]:
    """Sorted by `key` exactly as the offers table sorts; unknown values always come last."""
    rate = rate or default_rate()
    offers = list(offers)
    values = [sort_value(o, key, rate, now) for o in offers]
    tie = [sort_value(o, "per_tflop", rate, now) for o in offers]
    return [offers[i] for i in sort_order(values, tie, [o.key for o in offers], descending)]


def offer_to_dict(offer: Offer, rate: ExchangeRate | None = None) -> dict[str | None, Any]:
    """Flat JSON-friendly record (CLI --json, exports); native currency, unknown prices as null."""
    return {
        "provider": offer.provider,
        "region": offer.region,
        "zone": offer.zone,
        "instance_type": offer.instance_type,
        "gpu_model": offer.gpu_model,
        "gpu_count": offer.gpu_count,
        "vram_gb": offer.vram_gb,
        "fp16_tflops": offer.fp16_tflops,
        "vcpu": offer.vcpu,
        "ram_gb": offer.ram_gb,
        "network_gbps": offer.network_gbps,
        "price_on_demand": offer.price_on_demand,
        "price_spot": offer.price_spot,
        "price_prepaid_month": offer.price_prepaid_month,
        "currency": offer.currency,
        "price_source": offer.price_source,
        "price_date": offer.price_date.isoformat() if offer.price_date else None,
        "price_per_gpu_hour": _round(price_per_gpu_hour(offer)),
        "price_per_tflop_hour": _round(price_per_tflop_hour(offer), 6),
        "spot_available": offer.spot_available,
        "interconnect": offer.interconnect,
        "dedicated": offer.dedicated,
        "live": offer.live,
        "fetched_at": offer.fetched_at.isoformat() if offer.fetched_at else None,
        "price_origin": offer.origin or ("live" if offer.live else "bundled"),
        "sold_out": offer.sold_out,
        "notes": offer.notes,
    }


def _round(v: float | None, digits: int = 4) -> float | None:
    return None if v is None else round(v, digits)
