"""Live prices fetched from a provider with an account, cached with the time they were fetched.

The cache (``<cache_dir>/live_prices.json``) keeps one record per (provider, region, instance type,
zone). ``load_cached`` hands the catalog one Offer per (provider, region, instance type), as the
catalog merges by ``Offer.key``: the lowest spot price over the zones (its zone in ``Offer.zone``),
the on-demand price, ``live=True`` and ``fetched_at``. ``zone_prices`` gives the per-zone detail.

Contract:
    save(paths, offers)                       # merge into the cache (newer fetch wins)
    load_cached(paths=None) -> list[Offer]    # one per Offer.key, live=True, fetched_at set
    zone_prices(paths, provider, region, instance_type) -> list[Offer]
    refresh_prices(account, provider, creds, instance_types=(), paths=None) -> list[Offer]
``provider`` is an ``app.cloud.base.Provider`` (passed in: core does not import app.cloud).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import asdict, fields, replace
from datetime import date, datetime, timezone
from typing import Any

from .models import Offer
from .paths import Paths, atomic_write_text, default_paths

log = logging.getLogger(__name__)

CACHE_NAME = "live_prices.json"
CACHE_VERSION = 1
# One refresh keeps at most this many per-zone prices (a region's GPU types × zones are a few hundred);
# an answer with more is cut, so a broken or hostile API cannot grow the cache without bound.
MAX_LIVE_OFFERS = 5_000
_OFFER_FIELDS = {f.name for f in fields(Offer)}


def _path(paths: Paths | None) -> Any:
    return (paths or default_paths()).cache_dir / CACHE_NAME


def _to_doc(o: Offer) -> dict[str, Any]:
    d = asdict(o)
    d["price_date"] = o.price_date.isoformat() if o.price_date else None
    d["fetched_at"] = o.fetched_at.isoformat() if o.fetched_at else None
    d["extra"] = [list(x) for x in o.extra]
    return d


def _from_doc(d: dict[str, Any]) -> Offer:
    d = {k: v for k, v in d.items() if k in _OFFER_FIELDS}
    d["price_date"] = date.fromisoformat(d["price_date"]) if d.get("price_date") else None
    fetched = d.get("fetched_at")
    d["fetched_at"] = datetime.fromisoformat(fetched) if fetched else None
    d["extra"] = tuple(tuple(x) for x in d.get("extra") or ())
    d["live"] = True
    return Offer(**d)


def _zone_key(o: Offer) -> tuple[str, str, str, str]:
    return (o.provider, o.region, o.instance_type, o.zone)


def _read(paths: Paths | None) -> list[Offer]:
    path = _path(paths)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    if not isinstance(doc, dict) or doc.get("version") != CACHE_VERSION:
        raise ValueError(
            f"{path}: not a LabGPU live price cache"
            f" (version {doc.get('version') if isinstance(doc, dict) else '?'})"
        )
    return [_from_doc(x) for x in doc.get("offers", [])]


def save(paths: Paths | None, offers: Iterable[Offer]) -> int:
    """Merge ``offers`` into the cache; for the same zone key the newer fetch wins. Returns the count kept."""
    try:
        current = {_zone_key(o): o for o in _read(paths)}
    except (ValueError, KeyError, TypeError) as exc:
        log.warning("live price cache replaced (unreadable: %s)", exc)
        current = {}
    now = datetime.now(timezone.utc)
    for o in offers:
        o = replace(o, live=True, fetched_at=o.fetched_at or now)
        old = current.get(_zone_key(o))
        if old is None or (old.fetched_at or now) <= (o.fetched_at or now):
            current[_zone_key(o)] = o
    doc = {
        "version": CACHE_VERSION,
        "saved_at": now.isoformat(),
        "offers": [_to_doc(o) for o in sorted(current.values(), key=_zone_key)],
    }
    (paths or default_paths()).ensure()
    atomic_write_text(_path(paths), json.dumps(doc, indent=1, sort_keys=True) + "\n", mode=0o600)
    return len(current)


def zone_prices(paths: Paths | None, provider: str, region: str, instance_type: str) -> list[Offer]:
    return [
        o
        for o in _read(paths)
        if (o.provider, o.region, o.instance_type) == (provider, region, instance_type)
    ]


def _aggregate(group: Sequence[Offer]) -> Offer:
    """One offer for the catalog: the cheapest available spot zone, any known on-demand price."""
    oldest = datetime.min.replace(tzinfo=timezone.utc)
    newest = max(group, key=lambda o: o.fetched_at or oldest)
    spot = [o for o in group if o.price_spot is not None and not o.sold_out]
    best = min(spot, key=lambda o: o.price_spot or 0.0) if spot else None
    on_demand = next(
        (
            o.price_on_demand
            for o in sorted(group, key=lambda o: o.fetched_at or oldest, reverse=True)
            if o.price_on_demand is not None
        ),
        None,
    )
    zones = sorted({o.zone for o in group if o.zone})
    sold_out = all(o.sold_out for o in group)
    extra = dict(newest.extra)
    if zones:
        extra["zones"] = ",".join(zones)
    if best is not None and best.zone:
        extra["spot_zone"] = best.zone
    return replace(
        newest,
        price_on_demand=on_demand,
        price_spot=best.price_spot if best else None,
        spot_available=best is not None,
        zone=best.zone if best else newest.zone,
        sold_out=sold_out,
        live=True,
        extra=tuple(sorted(extra.items())),
    )


def load_cached(paths: Paths | None = None) -> list[Offer]:
    """Cached live offers, one per (provider, region, instance type), each with ``fetched_at``."""
    groups: dict[tuple[str, str, str], list[Offer]] = {}
    for o in _read(paths):
        groups.setdefault(o.key, []).append(o)
    return [_aggregate(g) for _k, g in sorted(groups.items())]


def refresh_prices(
    account: Any, provider: Any, creds: Any, instance_types: Sequence[str] = (), paths: Paths | None = None
) -> list[Offer]:
    """Ask the provider for live prices with this account and cache them. Returns the fresh offers."""
    offers = list(provider.refresh_prices(account, creds, list(instance_types)))
    if len(offers) > MAX_LIVE_OFFERS:
        log.warning("live prices: %d offers from %s, only the first %d kept", len(offers),
                    getattr(account, "name", "?"), MAX_LIVE_OFFERS)
        offers = offers[:MAX_LIVE_OFFERS]
    now = datetime.now(timezone.utc)
    offers = [replace(o, live=True, fetched_at=o.fetched_at or now) for o in offers]
    save(paths, offers)
    return offers
