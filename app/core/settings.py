"""Typed settings with a schema version, ordered migrations and atomic writes.

Loading never raises and always returns valid, typed settings. Each field is checked against its
dataclass type (``typing.get_type_hints``), so a field another feature adds later is validated
without touching this loader; nested dataclass fields are checked the same way. A field with the
wrong type (or a value ``Settings.validate`` refuses) is reset to its default, alone, with a
warning, and the original file is kept as ``settings.broken-<UTC time>.json`` (a new name each
time: a second problem never overwrites the first copy). A file that is not JSON at all is moved
to such a name. A file written by a newer LabGPU (``schema_version`` above ours) is read as far as
we understand it and never rewritten: :attr:`SettingsStore.read_only` is set and :meth:`save` is
a no-op. Unknown keys are kept as they are on save. Problems are reported through :mod:`.damage`.

A numeric setting declares its range once, as its field's metadata (:func:`limited`: minimum, maximum,
step, decimals, unit): the loader's range check (:func:`check_limits`, run by ``Settings.validate`` and
by :func:`read_section` for a feature's section) and the spin boxes that edit it (app/ui/shared/limits.py)
read that one declaration.

A feature keeps its own settings in ``Settings.extra`` under its key (``extra["monitorui"]``...) as
a small dataclass of its own, read with :func:`read_section` and written back with
:func:`write_section`: the same per-field checks, the same JSON keys as before.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import math
import os
import shutil
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

from . import damage
from .launch_defaults import DEFAULT_SPOT_BID_FRACTION
from .paths import Paths, atomic_write_text, default_paths

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
LANGUAGES = ("system", "en", "zh_CN")
CURRENCIES = ("CNY", "USD")


@dataclass(frozen=True)
class Limits:
    """A numeric setting's range, kept in its field's metadata under ``"limits"`` (see :func:`limited`)."""

    min: float
    max: float
    step: float = 1.0
    decimals: int = 0
    unit: str = ""  # what the number counts: "%", "min", "s", "CNY per USD"
    scale: float = 1.0  # a spin box shows value × scale (0.8 of the on-demand price as 80 %)

    def allows(self, value: Any) -> bool:
        return _number_between(value, self.min, self.max)


def limited(default: float | None, lo: float, hi: float, *, step: float = 1.0, decimals: int = 0,
            unit: str = "", scale: float = 1.0) -> Any:
    """A dataclass field whose value must lie in ``[lo, hi]`` (``None`` stays allowed for an optional
    field): ``x: float = limited(0.8, 0.05, 1.0, step=0.01)``."""
    limits = Limits(lo, hi, step, decimals, unit, scale)
    return field(default=default, metadata={"limits": limits})


def field_limits(cls: type[Any] | Any, name: str) -> Limits:
    """The declared limits of field ``name`` of dataclass ``cls``; KeyError when it declares none."""
    for f in fields(cls):
        if f.name == name and "limits" in f.metadata:
            found: Limits = f.metadata["limits"]
            return found
    raise KeyError(name)


def check_limits(obj: Any) -> list[str]:
    """Put each limited field of dataclass instance ``obj`` whose value lies outside its limits back to
    its default (``None`` is left alone where the default is ``None``); the names of the fields reset."""
    reset = []
    for f in fields(obj):
        limits = f.metadata.get("limits")
        if limits is None:
            continue
        value = getattr(obj, f.name)
        if value is None and f.default is None:
            continue
        if not limits.allows(value):
            setattr(obj, f.name, f.default)
            reset.append(f.name)
    return reset


@dataclass
class Settings:
    schema_version: int = SCHEMA_VERSION
    language: str = "system"  # one of LANGUAGES
    display_currency: str = "CNY"  # one of CURRENCIES
    # USD→CNY display rate chosen by the user; None means the bundled/refreshed default.
    usd_cny_rate_override: float | None = limited(None, 0.5, 50.0, step=0.01, decimals=4, unit="CNY per USD")
    # the default spot price cap, a share of the on-demand price
    spot_bid_fraction: float = limited(DEFAULT_SPOT_BID_FRACTION, 0.05, 1.0, step=0.01, unit="%", scale=100.0)
    window_geometry: str = ""  # base64 of QWidget.saveGeometry()
    splitter_states: dict[str, str] = field(default_factory=dict)  # splitter name → base64 of saveState()
    last_page: str = "offers"
    offers_filters: dict[str, Any] = field(default_factory=dict)
    azure_prices_endpoint: str = ""  # Azure Retail Prices API address ("" = prices.azure.com); mirrors, tests
    # --- monitor and guards ---
    guard_idle_below_pct: float = limited(30.0, 1, 100, unit="%")  # default idle threshold for new guards
    guard_idle_minutes: float = limited(10.0, 1, 1440, unit="min")  # default idle window
    guard_on_idle: str = "notify"  # "notify" | "stop"
    keep_tray_when_closed: bool = True
    start_at_login: bool = False
    monitor_interval_s: float = limited(1.0, 1, 60, unit="s")  # nvidia-smi -l interval
    # --- end monitor and guards ---
    first_run_done: bool = False  # the welcome (language, account, tour) was finished or skipped
    extra: dict[str, Any] = field(default_factory=dict)  # per-feature settings, keyed by feature

    def validate(self) -> None:
        """Values of the right type but out of range fall back to their defaults (types are the loader's job)."""
        if self.language not in LANGUAGES:
            self.language = "system"
        if self.display_currency not in CURRENCIES:
            self.display_currency = "CNY"
        check_limits(self)
        if self.guard_on_idle not in ("notify", "stop"):
            self.guard_on_idle = "notify"
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

_MISSING = object()


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def _json_clean(value: Any, depth: int = 0) -> bool:
    """True for a value that survives a JSON round trip unchanged (no NaN/inf, str keys, not too deep)."""
    if depth > 32:
        return False
    if value is None or isinstance(value, (bool, str, int)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_json_clean(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_clean(v, depth + 1) for k, v in value.items())
    return False


def coerce(value: Any, tp: Any) -> Any:
    """``value`` as type ``tp``, or ``_MISSING`` when it is not one (no lossy conversion)."""
    if tp is Any:
        return value if _json_clean(value) else _MISSING
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            got = coerce(value, arg)
            if got is not _MISSING:
                return got
        return _MISSING
    if tp is type(None):
        return None if value is None else _MISSING
    if origin is typing.Literal:
        return value if any(value == a and type(value) is type(a) for a in typing.get_args(tp)) else _MISSING
    if tp is bool:
        return value if isinstance(value, bool) else _MISSING
    if tp is int:
        return value if isinstance(value, int) and not isinstance(value, bool) else _MISSING
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return _MISSING
        try:
            f = float(value)
        except OverflowError:
            return _MISSING
        return f if math.isfinite(f) else _MISSING
    if tp is str:
        return value if isinstance(value, str) else _MISSING
    if origin is dict or tp is dict:
        if not isinstance(value, dict):
            return _MISSING
        kt, vt = (typing.get_args(tp) or (Any, Any))
        out = {}
        for k, v in value.items():
            ck, cv = coerce(k, kt), coerce(v, vt)
            if ck is _MISSING or cv is _MISSING:
                return _MISSING
            out[ck] = cv
        return out
    if origin in (list, tuple) or tp in (list, tuple):
        if not isinstance(value, list):
            return _MISSING
        args = typing.get_args(tp)
        if origin is tuple and args and args[-1] is not Ellipsis:
            if len(args) != len(value):
                return _MISSING
            items = [coerce(v, a) for v, a in zip(value, args, strict=True)]
        else:
            items = [coerce(v, args[0] if args else Any) for v in value]
        if any(i is _MISSING for i in items):
            return _MISSING
        return tuple(items) if origin is tuple or tp is tuple else items
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(value, dict):
            return _MISSING
        obj, bad, _unknown = build(tp, value)
        return _MISSING if bad else obj
    return _MISSING  # a type this loader does not know: keep the default rather than guess


def build(cls: type[Any], doc: dict[str, Any]) -> tuple[Any, list[str], dict[str, Any]]:
    """An instance of dataclass ``cls`` from ``doc``: (instance, names of fields reset, unknown keys)."""
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # noqa: BLE001 - an annotation that does not resolve: JSON-clean values only
        log.warning("type hints of %s do not resolve; its fields are checked as plain JSON", cls.__name__)
        hints = {}
    kwargs: dict[str, Any] = {}
    bad: list[str] = []
    for f in fields(cls):
        if not f.init:
            continue
        if f.name not in doc:
            continue
        got = coerce(doc[f.name], hints.get(f.name, Any))
        if got is _MISSING:
            bad.append(f.name)
            continue
        kwargs[f.name] = got
    known = {f.name for f in fields(cls)}
    unknown = {k: v for k, v in doc.items() if k not in known}
    return cls(**kwargs), bad, unknown


T = TypeVar("T")


def _section_doc(extra: dict[str, Any], path: Sequence[str]) -> Any:
    doc: Any = extra
    for key in path:
        doc = doc.get(key) if isinstance(doc, dict) else None
    return doc


def read_section(settings: Settings, path: Sequence[str], cls: type[T]) -> T:
    """The feature settings kept at ``settings.extra[path[0]][path[1]]...``, as dataclass ``cls``.

    Never raises: a missing or non-object section gives ``cls()``; each field of the wrong type
    falls back to its default, alone, with a warning; then ``cls.validate()`` (when it has one)
    puts values of the right type but out of range back to their defaults. Keys ``cls`` does not
    know are left in ``extra`` untouched.
    """
    doc = _section_doc(settings.extra, path)
    obj, bad, _unknown = build(cls, doc if isinstance(doc, dict) else {})
    validate = getattr(obj, "validate", None)
    try:
        check_limits(obj)
    except (TypeError, ValueError, OverflowError):
        obj = cls()
    if callable(validate):
        try:
            validate()
        except (TypeError, ValueError, OverflowError):
            log.warning("settings %s could not be validated; defaults used", "/".join(path))
            obj = cls()
    if bad:
        log.warning("settings %s: %s of the wrong type; defaults used", "/".join(path), ", ".join(bad))
    result: T = obj
    return result


def write_section(settings: Settings, path: Sequence[str], value: Any) -> None:
    """Store dataclass ``value`` at ``settings.extra[path...]``, in its JSON form (other keys are kept).

    Only ``settings`` changes; saving the file is the caller's ``SettingsStore.save``.
    """
    if not path:
        raise ValueError("a settings section needs a key")
    parent = settings.extra
    for key in path[:-1]:
        child = parent.get(key)
        if not isinstance(child, dict):
            child = parent[key] = {}
        parent = child
    old = parent.get(path[-1])
    fresh = json.loads(json.dumps(asdict(value)))  # as it will be read back from the file (tuples as lists)
    parent[path[-1]] = {**(old if isinstance(old, dict) else {}), **fresh}


def _validated(settings: Settings) -> list[str]:
    """Run ``validate`` (ranges); the names of the fields it changed."""
    before = {f.name: getattr(settings, f.name) for f in fields(settings)}
    try:
        settings.validate()
    except (TypeError, ValueError, OverflowError):  # a validate() that trips on an odd value
        fresh = Settings()
        changed = []
        for f in fields(settings):
            if _differs(before[f.name], getattr(fresh, f.name)):
                setattr(settings, f.name, getattr(fresh, f.name))
                changed.append(f.name)
        return changed
    return [f.name for f in fields(settings) if _differs(before[f.name], getattr(settings, f.name))]


def _differs(a: Any, b: Any) -> bool:
    return type(a) is not type(b) or a != b


def _migrate(doc: dict[str, Any]) -> dict[str, Any]:
    version = doc.get("schema_version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        version = 1
    while version < SCHEMA_VERSION:
        doc = MIGRATIONS[version](doc)
        version += 1
    doc["schema_version"] = SCHEMA_VERSION
    return doc


class SettingsStore:
    def __init__(self, paths: Paths | None = None) -> None:
        self.paths = (paths or default_paths()).ensure()
        self.read_only = False  # a newer LabGPU's file: read, never written
        self.notices: list[damage.DamageNotice] = []  # what the last load() reported
        self._unknown: dict[str, Any] = {}

    @property
    def file(self) -> Path:
        return self.paths.settings_file

    def _report(self, notice: damage.DamageNotice) -> None:
        self.notices.append(notice)
        damage.report(notice)

    def _move_aside(self, why: str) -> Settings:
        copy: Path | None
        try:
            copy = damage.claim_copy_name(self.file, "broken")  # a name no other process can take
            try:
                os.replace(self.file, copy)
            except OSError:
                if self.file.is_dir():  # an unreadable folder where the file should be
                    copy.unlink()
                    os.replace(self.file, copy)
                else:
                    raise
        except OSError:
            copy = None
        self._report(damage.DamageNotice("settings", self.file, copy, why))
        return Settings()

    def _keep_copy(self) -> Path | None:
        try:
            copy = damage.claim_copy_name(self.file, "broken")
            shutil.copyfile(self.file, copy)
            return copy
        except OSError:
            return None

    def load(self) -> Settings:
        """Never raises; always valid, typed settings."""
        self.notices = []
        self.read_only = False
        self._unknown = {}
        try:
            raw = self.file.read_text(encoding="utf-8")
        except FileNotFoundError:
            return Settings()
        except (OSError, UnicodeDecodeError) as exc:
            return self._move_aside(f"unreadable: {getattr(exc, 'strerror', None) or exc}")
        try:
            doc = json.loads(raw)
        except (ValueError, RecursionError) as exc:
            return self._move_aside(f"not valid JSON: {str(exc)[:200]}")
        if not isinstance(doc, dict):
            return self._move_aside(f"a JSON {type(doc).__name__}, not an object")
        version = doc.get("schema_version", 1)
        bad_version = False
        if isinstance(version, int) and not isinstance(version, bool) and version > SCHEMA_VERSION:
            self.read_only = True
            self._report(damage.DamageNotice(
                "settings-newer", self.file, None,
                f"schema version {version}, this LabGPU knows {SCHEMA_VERSION}"))
        else:
            bad_version = coerce(version, int) is _MISSING or version < 1
            try:
                doc = _migrate(doc)
            except Exception as exc:  # noqa: BLE001 - a migration that trips on odd data: start clean
                return self._move_aside(f"could not be migrated: {type(exc).__name__}")
        built, bad, unknown = build(Settings, doc)
        settings: Settings = built
        if not self.read_only and bad_version:
            bad.insert(0, "schema_version")
        if self.read_only:
            settings.schema_version = SCHEMA_VERSION
            bad = [b for b in bad if b != "schema_version"]
        bad += [n for n in _validated(settings) if n not in bad]
        self._unknown = unknown
        if bad and not self.read_only:
            copy = self._keep_copy()
            self._report(damage.DamageNotice(
                "settings-fields", self.file, copy, "wrong types or values", fields=tuple(bad)))
            try:
                self.save(settings)
            except OSError as exc:
                log.warning("could not rewrite the repaired settings: %s", exc)
        elif bad:
            log.warning("settings %s of a newer LabGPU's file not understood; defaults used", bad)
        return settings

    def save(self, settings: Settings) -> None:
        if self.read_only:
            log.info("settings not saved: %s belongs to a newer LabGPU", self.file)
            return
        _validated(settings)
        doc = {**self._unknown, **asdict(settings)}
        atomic_write_text(self.file, json.dumps(doc, indent=2, sort_keys=True) + "\n")
