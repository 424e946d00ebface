"""Filtering and sorting catalog offers: the loose GPU match, OfferFilter, the fast filter mask, sort keys.

Split out of app/core/catalog.py (which re-exports every name here). One set of rules for the
offers table and `labgpu offers`; unknown prices never pass a price limit and always sort last.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .currency import CURRENCIES, ExchangeRate, convert, default_rate
from .models import PROVIDERS, GpuSpec, Offer
from .offerprices import price_age, price_per_gpu_hour, price_per_tflop_hour
from .providers import display_name

_SPLIT = re.compile(r"[\s\-_/]+")


def _tokens(text: str) -> list[str]:
    return [t for t in _SPLIT.split(text.strip().lower()) if t]


def _provider_words(provider_id: str) -> str:
    """A provider's names in both languages, so a search finds it by the name either UI shows."""
    return f"{display_name(provider_id, 'en')} {display_name(provider_id, 'zh_CN')}"


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

    def to_dict(self) -> dict[str, Any]:
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
        hay = " ".join((_provider_words(offer.provider), offer.provider, offer.region, offer.zone,
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
            hay = " ".join((_provider_words(o.provider), o.provider, o.region, o.zone, o.instance_type,
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


_TEXT_KEYS = {"region": "region", "instance_type": "instance_type", "gpu": "gpu_model"}
_NUMBER_KEYS = {"count": "gpu_count", "vram": "vram_gb", "total_vram": "total_vram_gb", "tflops": "total_fp16_tflops",
                "vcpu": "vcpu", "ram": "ram_gb", "network": "network_gbps"}
_PRICE_KEYS: dict[str, Callable[[Offer], float | None]] = {
    "on_demand": lambda o: o.price_on_demand,
    "spot": lambda o: o.price_spot,
    "prepaid": lambda o: o.price_prepaid_month,
    "per_gpu": price_per_gpu_hour,
    "per_tflop": price_per_tflop_hour,
}


def sort_value(offer: Offer, key: str, rate: ExchangeRate, now: datetime | None = None) -> Any:
    """A comparable value for `key`: a number (prices in USD so currencies compare) or lower-case text;
    None = unknown (sorts last in both directions)."""
    key = SORT_ALIASES.get(key, key)
    if key in _TEXT_KEYS:
        return str(getattr(offer, _TEXT_KEYS[key])).lower()
    if key in _NUMBER_KEYS:
        return getattr(offer, _NUMBER_KEYS[key])
    if key in _PRICE_KEYS:
        return convert(_PRICE_KEYS[key](offer), offer.currency, "USD", rate)
    if key == "provider":
        return display_name(offer.provider).lower()
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
