"""Start at login: the XDG autostart file and the macOS LaunchAgent, exactly as their readers read them."""

from __future__ import annotations

import configparser
import plistlib
import shlex

import pytest

from app.core import autostart
from app.core.errors import ConfigError


def _places(tmp_path):
    return autostart.AutostartPlaces(tmp_path / "config" / "autostart", tmp_path / "Library" / "LaunchAgents")


def test_xdg_entry_is_written_read_back_and_removed(tmp_path):
    places = _places(tmp_path)
    cmd = ["/opt/Lab GPU/bin/python3", "-m", "app", "--tray"]
    where = autostart.set_enabled(True, command=cmd, platform="xdg", places=places)
    path = places.xdg_dir / "labgpu.desktop"
    assert where == str(path)
    assert autostart.is_enabled("xdg", places)
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # keys are case-sensitive in desktop files
    parser.read_string(path.read_text(encoding="utf-8"))
    entry = parser["Desktop Entry"]
    assert entry["Type"] == "Application"
    assert entry["Name"] == "LabGPU"
    assert entry["Terminal"] == "false"
    # The spec's Exec quoting: a quoted argument keeps its space; shlex reads it the same way.
    assert shlex.split(entry["Exec"]) == cmd
    assert entry["Exec"].endswith("--tray")
    autostart.set_enabled(False, command=cmd, platform="xdg", places=places)
    assert not path.exists()
    assert not autostart.is_enabled("xdg", places)
    autostart.set_enabled(False, command=cmd, platform="xdg", places=places)  # removing twice is fine


def test_default_xdg_place_follows_xdg_config_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert autostart.entry_path("xdg") == str(tmp_path / "cfg" / "autostart" / "labgpu.desktop")


def test_macos_launch_agent_is_a_valid_plist_that_runs_at_load(tmp_path):
    places = _places(tmp_path)
    cmd = ["/Applications/LabGPU.app/Contents/MacOS/LabGPU", "--tray"]
    where = autostart.set_enabled(True, command=cmd, platform="macos", places=places)
    with open(where, "rb") as fh:
        doc = plistlib.load(fh)
    assert doc["Label"] == "io.labgpu.tray"
    assert doc["ProgramArguments"] == cmd
    assert doc["RunAtLoad"] is True
    assert where.endswith("Library/LaunchAgents/io.labgpu.tray.plist")
    autostart.set_enabled(False, platform="macos", places=places)
    assert not autostart.is_enabled("macos", places)


def test_windows_run_value_quotes_paths_with_spaces():
    value = autostart.windows_run_value([r"C:\Program Files\LabGPU\LabGPU.exe", "--tray"])
    assert value == r'"C:\Program Files\LabGPU\LabGPU.exe" --tray'


def test_unwritable_place_is_a_config_error_with_a_next_step(tmp_path):
    blocker = tmp_path / "config"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(ConfigError) as info:
        autostart.set_enabled(True, command=["labgpu", "--tray"], platform="xdg", places=_places(tmp_path))
    assert "labgpu.desktop" in info.value.text()
    assert info.value.hint()


def test_launch_command_starts_the_tray():
    assert autostart.launch_command()[-1] == "--tray"
