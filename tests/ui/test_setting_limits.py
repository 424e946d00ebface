"""Each numeric setting's range is declared once (app/core/settings.py field metadata): the spin box that
edits it offers exactly that range, and a value outside it is refused when the settings are read."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from app.core.paths import default_paths
from app.core.settings import Limits, Settings, SettingsStore, field_limits

# setting → the Settings page's spin box that edits it
SPINS = {
    "usd_cny_rate_override": "rate_spin",
    "spot_bid_fraction": "bid_spin",
    "guard_idle_below_pct": "idle_pct_spin",
    "guard_idle_minutes": "idle_min_spin",
}
NO_SPIN_BOX = {"monitor_interval_s"}  # set in the settings file only (labgpu watch and the monitor read it)


def _expected_range(limits: Limits, optional: bool) -> tuple[float, float]:
    lo, hi = limits.min * limits.scale, limits.max * limits.scale
    return (lo - limits.step * limits.scale if optional else lo), hi


def test_every_limited_setting_is_listed_here():
    assert {f.name for f in fields(Settings) if "limits" in f.metadata} == set(SPINS) | NO_SPIN_BOX


@pytest.mark.parametrize("name", sorted(SPINS))
def test_the_settings_page_spin_box_offers_the_declared_range(app_window, name):
    ctx, window = app_window
    assert window.show_page("settings")
    spin = getattr(window.pages["settings"], SPINS[name])
    limits = field_limits(Settings, name)
    optional = getattr(Settings(), name) is None
    assert (spin.minimum(), spin.maximum()) == pytest.approx(_expected_range(limits, optional))
    assert spin.singleStep() == pytest.approx(limits.step * limits.scale)
    assert spin.decimals() == limits.decimals
    # the user cannot type past the declared maximum: the spin box holds it at the limit
    spin.setValue(limits.max * limits.scale * 10)
    assert spin.value() == pytest.approx(limits.max * limits.scale)


def test_the_guard_editor_offers_the_declared_idle_ranges(qtbot):
    from app.core.guards import GuardConfig
    from app.ui.shared.guards_ui import GuardEditor

    editor = GuardEditor(GuardConfig())
    qtbot.addWidget(editor)
    for spin, name in ((editor.idle_pct, "guard_idle_below_pct"), (editor.idle_minutes, "guard_idle_minutes")):
        limits = field_limits(Settings, name)
        assert (spin.minimum(), spin.maximum()) == (limits.min, limits.max), name


@pytest.mark.parametrize("name", sorted(set(SPINS) | NO_SPIN_BOX))
def test_a_value_outside_the_limits_is_refused_when_read(name):
    limits = field_limits(Settings, name)
    default = getattr(Settings(), name)
    for outside in (limits.max + limits.step, limits.min - limits.step):
        store = SettingsStore(default_paths())
        store.file.write_text(json.dumps({"schema_version": 1, name: outside}), encoding="utf-8")
        got = store.load()
        assert getattr(got, name) == default, (name, outside)
        assert any(name in n.fields for n in store.notices), name  # and the user is told which field
    for inside in (limits.min, limits.max):
        s = Settings(**{name: inside})
        s.validate()
        assert getattr(s, name) == inside, (name, inside)


def test_a_feature_section_declares_its_limits_the_same_way():
    """A feature's own settings (Settings.extra[...], read_section) are checked against their declared
    limits too, each field alone."""
    from dataclasses import dataclass

    from app.core.settings import limited, read_section

    @dataclass
    class Section:
        window_s: float = limited(30.0, 5, 600, unit="s")
        retries: float = limited(3.0, 0, 10)

    s = Settings()
    s.extra["probe"] = {"window_s": 5000.0, "retries": 4.0}
    got = read_section(s, ("probe",), Section)
    assert (got.window_s, got.retries) == (30.0, 4.0)
    s.extra["probe"] = {"window_s": 5.0, "retries": -1.0}
    got = read_section(s, ("probe",), Section)
    assert (got.window_s, got.retries) == (5.0, 3.0)
