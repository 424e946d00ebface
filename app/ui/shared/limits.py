"""Spin boxes that edit a numeric setting take its range from the setting's declaration
(app/core/settings.py: ``limited`` field metadata), never from numbers of their own."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QDoubleSpinBox

from app.core.settings import Limits, Settings, field_limits


def setting_limits(name: str, cls: type[Any] = Settings) -> Limits:
    """The declared limits of setting ``name`` (a field of ``Settings`` or of a feature's section)."""
    return field_limits(cls, name)


def apply_limits(spin: QDoubleSpinBox, limits: Limits, *, suffix: str | None = None,
                 none_text: str = "") -> None:
    """Range, step and decimals of ``spin`` from ``limits`` (in the spin box's unit: value × scale).

    ``suffix``: what follows the number (None: " %" for a percentage, else nothing). ``none_text``: for
    an optional setting, the text shown one step below the minimum, the spin box's value for "not set"."""
    lo, hi, step = limits.min * limits.scale, limits.max * limits.scale, limits.step * limits.scale
    spin.setDecimals(limits.decimals)
    spin.setRange(lo - step if none_text else lo, hi)
    spin.setSingleStep(step)
    if none_text:
        spin.setSpecialValueText(none_text)
    if suffix is None:
        suffix = " %" if limits.unit == "%" else ""
    spin.setSuffix(suffix)


def spin_value(spin: QDoubleSpinBox, limits: Limits) -> float:
    """The setting's value a spin box set up by :func:`apply_limits` shows."""
    return spin.value() / limits.scale


def spin_optional(spin: QDoubleSpinBox, limits: Limits) -> float | None:
    """As :func:`spin_value`, None where the spin box shows its "not set" text."""
    if spin.specialValueText() and spin.value() <= spin.minimum():
        return None
    return spin_value(spin, limits)


def show_value(spin: QDoubleSpinBox, limits: Limits, value: float | None) -> None:
    spin.setValue(spin.minimum() if value is None else float(value) * limits.scale)
