"""Typed settings with a schema version, ordered migrations and atomic writes."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from .paths import Paths, atomic_write_text, default_paths

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
LANGUAGES = ("system", "en", "zh_CN")
CURRENCIES = ("CNY", "USD")


@dataclass
class Settings:
    schema_version: int = SCHEMA_VERSION
    language: str = "system"  # one of LANGUAGES
    display_currency: str = "CNY"  # one of CURRENCIES
    # USD→CNY display rate chosen by the user; None means the bundled/refreshed default.
    usd_cny_rate_override: float | None = None
    spot_bid_fraction: float = 0.8
    window_geometry: str = ""  # base64 of QWidget.saveGeometry()
    last_page: str = "offers"
    offers_filters: dict[str, Any] = field(default_factory=dict)
    # --- monitor and guards (issue 10) ---
    guard_idle_below_pct: float = 30.0  # default idle threshold for new guards, 1..100
    guard_idle_minutes: float = 10.0  # default idle window, 1..1440
    guard_on_idle: str = "notify"  # "notify" | "stop"
    keep_tray_when_closed: bool = True
    start_at_login: bool = False
    monitor_interval_s: float = 1.0  # nvidia-smi -l interval, 1..60
    # --- end monitor and guards ---
    extra: dict[str, Any] = field(default_factory=dict)  # per-feature settings, keyed by feature

    def validate(self) -> None:
        if self.language not in LANGUAGES:
            self.language = "system"
        if self.display_currency not in CURRENCIES:
            self.display_currency = "CNY"
        if not (0.05 <= float(self.spot_bid_fraction) <= 1.0):
            self.spot_bid_fraction = 0.8
        if self.usd_cny_rate_override is not None and not (0.5 < self.usd_cny_rate_override < 50):
            self.usd_cny_rate_override = None
        self._validate_monitor()

    def _validate_monitor(self) -> None:
        if not _number_between(self.guard_idle_below_pct, 1, 100):
            self.guard_idle_below_pct = 30.0
        if not _number_between(self.guard_idle_minutes, 1, 1440):
            self.guard_idle_minutes = 10.0
        if self.guard_on_idle not in ("notify", "stop"):
            self.guard_on_idle = "notify"
        if not _number_between(self.monitor_interval_s, 1, 60):
            self.monitor_interval_s = 1.0
        self.keep_tray_when_closed = bool(self.keep_tray_when_closed)
        self.start_at_login = bool(self.start_at_login)


def _number_between(value: Any, lo: float, hi: float) -> bool:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return False
    return lo <= v <= hi


Migration = Callable[[dict[str, Any]], dict[str, Any]]

# MIGRATIONS[n] turns a schema n document into schema n+1. Append only.
MIGRATIONS: dict[int, Migration] = {}


def _migrate(doc: dict[str, Any]) -> dict[str, Any]:
    version = int(doc.get("schema_version", 0) or 0)
    if version == 0:
        version = 1
    while version < SCHEMA_VERSION:
        doc = MIGRATIONS[version](doc)
        version += 1
    doc["schema_version"] = SCHEMA_VERSION
    return doc


class SettingsStore:
    def __init__(self, paths: Paths | None = None) -> None:
        self.paths = (paths or default_paths()).ensure()

    @property
    def file(self) -> Path:
        return self.paths.settings_file

    def load(self) -> Settings:
        try:
            raw = self.file.read_text(encoding="utf-8")
        except FileNotFoundError:
            return Settings()
        try:
            doc = json.loads(raw)
            if not isinstance(doc, dict):
                raise ValueError("not an object")
            doc = _migrate(doc)
        except (ValueError, KeyError) as exc:
            backup = self.file.with_suffix(".broken.json")
            self.file.replace(backup)
            log.warning("settings file unreadable (%s); kept as %s, using defaults", exc, backup)
            return Settings()
        known = {f.name for f in fields(Settings)}
        s = Settings(**{k: v for k, v in doc.items() if k in known})
        s.validate()
        return s

    def save(self, settings: Settings) -> None:
        settings.validate()
        atomic_write_text(self.file, json.dumps(asdict(settings), indent=2, sort_keys=True) + "\n")
