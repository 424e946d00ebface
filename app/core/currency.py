"""USD↔CNY conversion for display only, with the rate's source and date always at hand.

Prices are stored and billed in their native currency (see ``models.NATIVE_CURRENCY``). A converted
number is an estimate for comparison, so every conversion goes through an ``ExchangeRate`` that
says where it came from and when; the UI shows that next to converted figures. Nothing here ever
feeds a billing record.
"""

from __future__ import annotations

import csv
import logging
import math
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any

from .i18n import QT_TRANSLATE_NOOP
from .resources import resource_path

log = logging.getLogger(__name__)

CURRENCIES = ("USD", "CNY")
SYMBOLS = {"USD": "$", "CNY": "¥"}

# Used only if the bundled fx.csv is missing or unreadable (a broken install): the same figure
# as the shipped file, so the app still converts offline. Source: CFETS central parity 2026-01-08.
_FALLBACK_RATE = 7.0197
_FALLBACK_SOURCE = "CFETS RMB central parity (China Foreign Exchange Trade System)"
_FALLBACK_DATE = date(2026, 1, 8)

SOURCE_YOUR_SETTING = QT_TRANSLATE_NOOP("LabGPU", "your setting")
# The short names of the sources LabGPU ships or writes itself, shown in the user's language; any other
# source (a file someone edited) is shown as written.
KNOWN_SOURCES = (SOURCE_YOUR_SETTING, QT_TRANSLATE_NOOP("LabGPU", "CFETS RMB central parity"))


@dataclass(frozen=True)
class ExchangeRate:
    """CNY per 1 USD, with where the figure comes from and the day it was true (None: unknown)."""

    usd_cny: float
    source: str
    as_of: date | None
    url: str = ""

    def describe(self) -> str:
        """One line for tooltips and CLI footers: '1 USD = 7.0197 CNY (source, 2026-01-08)'."""
        day = self.as_of.isoformat() if self.as_of else "undated"
        return f"1 USD = {self.usd_cny:.4f} CNY ({self.source}, {day})"


def _valid_rate(value: float) -> bool:
    # Same sanity window as Settings.validate: anything outside is a typo, not a market move.
    return math.isfinite(value) and 0.5 < value < 50


def load_rate_file(path: Path) -> ExchangeRate:
    """Read the USD/CNY row of an fx.csv; raises ValueError naming the file and line if unusable."""
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        for line_no, row in enumerate(reader, start=2):
            if (row.get("pair") or "").strip().upper() != "USD/CNY":
                continue
            try:
                rate = float((row.get("rate") or "").strip())
            except ValueError:
                raise ValueError(f"{path.name} line {line_no}: rate is not a number") from None
            if not _valid_rate(rate):
                raise ValueError(f"{path.name} line {line_no}: rate {rate} out of range")
            as_of_text = (row.get("as_of") or "").strip()
            try:
                as_of = date.fromisoformat(as_of_text) if as_of_text else None
            except ValueError:
                raise ValueError(f"{path.name} line {line_no}: as_of is not a YYYY-MM-DD date") from None
            return ExchangeRate(rate, (row.get("source") or "").strip() or path.name, as_of,
                                (row.get("url") or "").strip())
    raise ValueError(f"{path.name}: no USD/CNY row")


@lru_cache(maxsize=1)
def default_rate() -> ExchangeRate:
    """The bundled rate from resources/catalog/fx.csv (works offline)."""
    path = resource_path("catalog", "fx.csv")
    try:
        return load_rate_file(path)
    except (OSError, ValueError) as exc:
        log.warning("bundled exchange rate unusable (%s); using built-in fallback", exc)
        return ExchangeRate(_FALLBACK_RATE, _FALLBACK_SOURCE, _FALLBACK_DATE)


def effective_rate(settings: Any = None) -> ExchangeRate:
    """The user's override if set (source 'your setting', dated today), else the bundled default."""
    override = getattr(settings, "usd_cny_rate_override", None) if settings is not None else None
    if override is not None:
        try:
            value = float(override)
        except (TypeError, ValueError):
            value = float("nan")
        if _valid_rate(value):
            return ExchangeRate(value, SOURCE_YOUR_SETTING, None)
        log.warning("ignoring invalid usd_cny_rate_override %r", override)
    return default_rate()


def convert(amount: float | None, src: str, dst: str, rate: ExchangeRate) -> float | None:
    """`amount` in `src` expressed in `dst`; None stays None (an unknown price stays unknown)."""
    if amount is None:
        return None
    src, dst = src.upper(), dst.upper()
    if src not in CURRENCIES or dst not in CURRENCIES:
        raise ValueError(f"unsupported currency conversion {src}→{dst}")
    if src == dst:
        return float(amount)
    if src == "USD":
        return float(amount) * rate.usd_cny
    return float(amount) / rate.usd_cny


def format_money(amount: float | None, currency: str, decimals: int | None = None) -> str:
    """'¥12.34', '$1.29'; small amounts keep more digits ('$0.0042'). None → '' (the UI says why)."""
    if amount is None:
        return ""
    symbol = SYMBOLS.get(currency.upper(), currency.upper() + " ")
    if decimals is None:
        mag = abs(amount)
        decimals = 2 if mag >= 1 or mag == 0 else (3 if mag >= 0.1 else 4)
    sign = "-" if amount < 0 else ""
    return f"{sign}{symbol}{abs(amount):,.{decimals}f}"


MONEY_UNKNOWN = QT_TRANSLATE_NOOP("LabGPU", "unknown")


def money_text(amount: float | None, currency: str, decimals: int | None = None) -> str:
    """Money as every page, the tray and every command print it: '¥12.34', '$0.0042' (small amounts
    keep more digits unless `decimals` is given); an unknown amount is the word "unknown" (未知),
    never 0, '?', 'N/A' or an empty cell."""
    if amount is None:
        from .i18n import translate

        return translate(MONEY_UNKNOWN)
    return format_money(amount, currency, decimals)


def source_text(rate: ExchangeRate) -> str:
    """The rate's source, short, in the user's language (bundled sources are marked for translation)."""
    from .i18n import translate

    src = rate.source if len(rate.source) <= 40 else rate.source.split("(")[0].strip()
    return translate(src) if src in KNOWN_SOURCES else src
