"""Object storage prices: standard-class storage per GB-month and internet egress per GB, per region.

The bundled table ``resources/catalog/storage_prices.csv`` keeps every price with the URL it was read
from and the day it was read (``date``); ``notes`` say which tier, which site and how old the document
is. A region no public page confirmed has no row: ``storage_price`` then answers None and the UI says
the cost is unknown, never a guess. A malformed row is reported as ``"storage_prices.csv line N:
problem"``, skipped, and the rest loads (the offers catalog's rule).

Pure: no Qt, no network. ``egress_warning`` returns a QT_TRANSLATE_NOOP template and its params; the
caller translates and formats it (``translate(template).format(**params)``).
"""

from __future__ import annotations

import csv
import io
import logging
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import providers
from .currency import CURRENCIES
from .i18n import QT_TRANSLATE_NOOP
from .resources import resource_path

__all__ = [
    "COLUMNS", "GB", "StoragePrice", "StoragePriceLoad", "egress_warning", "load_storage_prices",
    "monthly_cost", "parse_row", "storage_price",
]

log = logging.getLogger(__name__)

COLUMNS = ("provider", "region", "per_gb_month", "currency", "egress_per_gb", "source", "date")

# The GB the services bill storage in is 2**30 bytes. AWS, S3 FAQ (billing): "Total Byte-Hour usage /
# 1,073,741,824 bytes per GB / 744 hours per month = GB-Months". Tencent COS, 存储容量费用 (purchase guide):
# "计费单位是GB，容量单位换算是1024进制 … 1TB = 1024GB".
GB = 1024**3

_REGION_RE = re.compile(r"^[a-z]{2,}(-[a-z0-9]+)+$")

CROSS_REGION = QT_TRANSLATE_NOOP(
    "LabGPU",
    "The bucket is in {bucket_region} and the instance in {instance_region}: data leaves the bucket's "
    "region, moves more slowly and may be charged as egress, up to {egress} {currency} per GB.")
CROSS_REGION_UNPRICED = QT_TRANSLATE_NOOP(
    "LabGPU",
    "The bucket is in {bucket_region} and the instance in {instance_region}: data leaves the bucket's "
    "region, moves more slowly and may be charged as egress (LabGPU has no price for {bucket_region}).")
CROSS_CLOUD = QT_TRANSLATE_NOOP(
    "LabGPU",
    "The bucket is on {bucket_cloud} ({bucket_region}) and the instance on {instance_cloud}: data crosses "
    "the internet, moves more slowly and {bucket_cloud} charges internet egress, {egress} {currency} per GB.")
CROSS_CLOUD_UNPRICED = QT_TRANSLATE_NOOP(
    "LabGPU",
    "The bucket is on {bucket_cloud} ({bucket_region}) and the instance on {instance_cloud}: data crosses "
    "the internet, moves more slowly and {bucket_cloud} charges internet egress (LabGPU has no price for "
    "{bucket_region}).")


@dataclass(frozen=True)
class StoragePrice:
    """Standard-class storage of one provider in one region, as a public price page gave it."""

    provider: str  # provider id: aws, tencent, alibaba, huawei
    region: str
    per_gb_month: float  # per GB (2**30 bytes) stored for a month
    currency: str  # USD or CNY, the currency the page gives
    egress_per_gb: float | None  # internet egress (first tier) per GB; None = not confirmed
    source: str  # URL of the page the prices were read from
    date: date  # the day the price was read from that page
    notes: str = ""  # tier, site, the document's own date

    def __str__(self) -> str:
        egress = "unknown" if self.egress_per_gb is None else f"{self.egress_per_gb:g} {self.currency}/GB"
        return (f"{self.provider} {self.region}: {self.per_gb_month:g} {self.currency}/GB-month, egress {egress} "
                f"({self.source}, read {self.date.isoformat()}{'; ' + self.notes if self.notes else ''})")


@dataclass
class StoragePriceLoad:
    prices: dict[tuple[str, str], StoragePrice]
    problems: list[str]


class _RowError(ValueError):
    pass


def _cell(row: dict[str, str | None], col: str) -> str:
    value = row.get(col)
    if value is None:
        raise _RowError(f"missing column {col!r} (the row ends early)")
    return value.strip()


def _number(row: dict[str, str | None], col: str, *, required: bool) -> float | None:
    text = _cell(row, col)
    if not text:
        if required:
            raise _RowError(f"{col} is empty")
        return None
    try:
        value = float(text)
    except ValueError:
        raise _RowError(f"{col} is not a number: {text!r}") from None
    if not math.isfinite(value) or value < 0 or (required and value == 0):
        raise _RowError(f"{col} must be a {'positive' if required else 'non-negative'} number: {text!r}")
    return value


def parse_row(row: dict[str, str | None]) -> StoragePrice:
    """One CSV row → StoragePrice; raises ValueError naming the first problem."""
    provider = _cell(row, "provider").lower()
    if providers.find_spec(provider) is None:
        raise _RowError(f"unknown provider {provider!r}")
    region = _cell(row, "region")
    if not _REGION_RE.match(region):
        raise _RowError(f"{region!r} is not a region id")
    currency = _cell(row, "currency").upper()
    if currency not in CURRENCIES:
        raise _RowError(f"unknown currency {currency!r} (known: {', '.join(CURRENCIES)})")
    per_gb = _number(row, "per_gb_month", required=True)
    egress = _number(row, "egress_per_gb", required=False)
    source = _cell(row, "source")
    if not source.startswith("https://"):
        raise _RowError("a price without a source URL (https://…)")
    day_text = _cell(row, "date")
    try:
        day = date.fromisoformat(day_text)
    except ValueError:
        raise _RowError(f"date is not a YYYY-MM-DD date: {day_text!r}") from None
    return StoragePrice(provider, region, float(per_gb or 0), currency, egress, source, day,
                        (row.get("notes") or "").strip())


def _rows(path: Path, problems: list[str]) -> Iterator[tuple[int, dict[str, str | None]]]:
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(f"{path.name}: cannot read ({getattr(exc, 'strerror', None) or exc})")
        return
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = [h.strip() for h in next(reader, [])]
        lacking = [c for c in COLUMNS if c not in header]
        if lacking:
            problems.append(f"{path.name} line 1: header lacks column(s) {', '.join(lacking)}; file skipped")
            return
        start = reader.line_num + 1
        for cells in reader:
            line, start = start, reader.line_num + 1  # csv.reader keeps blank lines, so numbers stay true
            if not any(c.strip() for c in cells):
                continue
            if len(cells) > len(header):
                problems.append(f"{path.name} line {line}: {len(cells) - len(header)} more cells than the "
                                "header has columns")
                continue
            row: dict[str, str | None] = dict.fromkeys(header)
            row.update(zip(header, cells, strict=False))
            yield line, row
    except csv.Error as exc:
        problems.append(f"{path.name} line {reader.line_num}: unreadable CSV ({exc}); rest skipped")


def load_storage_prices(path: Path | None = None) -> StoragePriceLoad:
    """Every usable row of ``path`` (default: the bundled table) and every problem, one line each.
    Never raises for bad data."""
    path = path or resource_path("catalog", "storage_prices.csv")
    problems: list[str] = []
    prices: dict[tuple[str, str], StoragePrice] = {}
    for line, row in _rows(path, problems):
        try:
            price = parse_row(row)
        except ValueError as exc:
            problems.append(f"{path.name} line {line}: {exc}")
            continue
        key = (price.provider, price.region)
        if key in prices:
            problems.append(f"{path.name} line {line}: duplicate {'/'.join(key)}; first kept")
            continue
        prices[key] = price
    for p in problems:
        log.warning("storage prices: %s", p)
    return StoragePriceLoad(prices, problems)


@lru_cache(maxsize=1)
def _bundled() -> dict[tuple[str, str], StoragePrice]:
    return load_storage_prices().prices


def storage_price(provider: str, region: str) -> StoragePrice | None:
    """The bundled price of standard storage in ``region`` of ``provider``; None when no page confirmed one."""
    return _bundled().get((provider.lower(), region.strip()))


def monthly_cost(provider: str, region: str, nbytes: int) -> tuple[float, StoragePrice] | None:
    """What keeping ``nbytes`` in standard storage costs for a month (first price tier, before free
    allowances), in ``price.currency``; None when the price is unknown."""
    price = storage_price(provider, region)
    if price is None:
        return None
    return max(0, nbytes) / GB * price.per_gb_month, price


def egress_warning(bucket_provider: str, bucket_region: str, instance_provider: str,
                   instance_region: str) -> tuple[str, dict[str, Any]] | None:
    """Why moving data between a bucket and an instance costs money and time, or None when both are in
    the same region of the same cloud (or the instance's cloud or region is not known).

    Returns a QT_TRANSLATE_NOOP template and its params. The egress figure is the bucket region's
    internet egress price (first tier): a transfer to another region of the same cloud is often billed
    less (AWS: 0.02 USD per GB from us-east-1), never more, hence "up to"."""
    if not instance_provider or not instance_region or not bucket_provider or not bucket_region:
        return None
    if bucket_provider == instance_provider and bucket_region == instance_region:
        return None
    price = storage_price(bucket_provider, bucket_region)
    priced = price is not None and price.egress_per_gb is not None
    params: dict[str, Any] = {"bucket_region": bucket_region, "instance_region": instance_region,
                              "bucket_cloud": providers.display_name(bucket_provider),
                              "instance_cloud": providers.display_name(instance_provider)}
    if priced and price is not None:
        params.update(egress=f"{price.egress_per_gb:g}", currency=price.currency)
    if bucket_provider == instance_provider:
        return (CROSS_REGION if priced else CROSS_REGION_UNPRICED), params
    return (CROSS_CLOUD if priced else CROSS_CLOUD_UNPRICED), params
