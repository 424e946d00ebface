"""Derived prices of one catalog offer: per GPU-hour, per TFLOP-hour, in a currency, and how old the price is.

Split out of app/core/catalog.py (which re-exports every name here). Pure: no Qt, no network. An
unknown price is ``None`` and stays ``None`` through every derived value.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from .currency import ExchangeRate
from .i18n import QT_TRANSLATE_NOOP, translate
from .models import Offer

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
