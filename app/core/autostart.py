"""Start LabGPU in the tray at login: the platform's own autostart entry, written or removed.

- Linux (and other XDG desktops): ``$XDG_CONFIG_HOME/autostart/labgpu.desktop`` (Desktop Entry
  Specification, read by GNOME, KDE, Xfce… at login);
- Windows: the ``LabGPU`` value of ``HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run``;
- macOS: ``~/Library/LaunchAgents/io.labgpu.tray.plist`` with ``RunAtLoad``.

Pure (no Qt): the content builders are plain functions so tests check the exact bytes, and the
writers take their directories as arguments. The command started is ``<program> --tray``.
"""

from __future__ import annotations

import os
import plistlib
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from .errors import ConfigError
from .i18n import QT_TRANSLATE_NOOP
from .paths import atomic_write_text

DESKTOP_FILE = "labgpu.desktop"
LAUNCH_AGENT_LABEL = "io.labgpu.tray"
RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"
RUN_VALUE = "LabGPU"


def launch_command() -> list[str]:
    """How to start this LabGPU in the tray: the frozen executable, or this Python with ``-m app``."""
    if getattr(sys, "frozen", False):
        return [sys.executable, "--tray"]
    return [sys.executable, "-m", "app", "--tray"]


def _desktop_quote(arg: str) -> str:
    """Quote one Exec argument as the Desktop Entry Specification reads it."""
    if arg and not any(c in arg for c in ' \t\n"\'\\><~|&;$*?#()`%='):
        return arg
    escaped = arg.replace("\\", "\\\\").replace('"', '\\"').replace("`", "\\`").replace("$", "\\$")
    return '"' + escaped.replace("%", "%%") + '"'


def desktop_entry(command: list[str]) -> str:
    """The XDG autostart ``.desktop`` file for `command`."""
    exec_line = " ".join(_desktop_quote(a) for a in command)
    return (
        "[Desktop Entry]\n"
        "Type=Application\n"
        "Name=LabGPU\n"
        "Comment=LabGPU cost monitor in the system tray\n"
        "Comment[zh_CN]=LabGPU 托盘费用监视\n"
        f"Exec={exec_line}\n"
        "Icon=labgpu\n"
        "Terminal=false\n"
        "X-GNOME-Autostart-enabled=true\n"
        "X-GNOME-Autostart-Delay=5\n"
    )


def launch_agent(command: list[str]) -> bytes:
    """The macOS LaunchAgent property list for `command` (XML plist bytes)."""
    doc = {
        "Label": LAUNCH_AGENT_LABEL,
        "ProgramArguments": list(command),
        "RunAtLoad": True,
        "KeepAlive": False,
        "ProcessType": "Interactive",
    }
    return plistlib.dumps(doc, fmt=plistlib.FMT_XML, sort_keys=True)


def windows_run_value(command: list[str]) -> str:
    """The Run key's value: a command line as Windows parses it."""
    import subprocess

    return subprocess.list2cmdline(command)


@dataclass(frozen=True)
class AutostartPlaces:
    """Where each platform keeps its entry (tests point these at temporary folders)."""

    xdg_dir: Path
    launch_agents_dir: Path

    @staticmethod
    def default() -> AutostartPlaces:
        home = Path.home()
        config = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
        return AutostartPlaces(config / "autostart", home / "Library" / "LaunchAgents")


def _platform() -> str:
    if sys.platform.startswith("win"):
        return "windows"
    if sys.platform == "darwin":
        return "macos"
    return "xdg"


def entry_path(platform: str | None = None, places: AutostartPlaces | None = None) -> str:
    """Where the entry lives (a path, or the registry key and value on Windows), for display."""
    platform = platform or _platform()
    places = places or AutostartPlaces.default()
    if platform == "windows":
        return f"HKCU\\{RUN_KEY}\\{RUN_VALUE}"
    if platform == "macos":
        return str(places.launch_agents_dir / f"{LAUNCH_AGENT_LABEL}.plist")
    return str(places.xdg_dir / DESKTOP_FILE)


def _fail(exc: OSError, where: str) -> ConfigError:
    return ConfigError(
        QT_TRANSLATE_NOOP("Autostart", "Could not change the start-at-login entry {where}: {error}"),
        QT_TRANSLATE_NOOP("Autostart", "Check that the folder is writable, or turn the setting off again."),
        code="autostart", where=where, error=exc.strerror or str(exc),
    )


def set_enabled(enabled: bool, *, command: list[str] | None = None, platform: str | None = None,
                places: AutostartPlaces | None = None) -> str:
    """Write (or remove) the autostart entry; returns where it is. Raises ConfigError with a next step."""
    platform = platform or _platform()
    places = places or AutostartPlaces.default()
    command = command or launch_command()
    where = entry_path(platform, places)
    try:
        if platform == "windows":
            _set_windows(enabled, command)
        elif platform == "macos":
            path = Path(where)
            if enabled:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(launch_agent(command))
            else:
                path.unlink(missing_ok=True)
        else:
            path = Path(where)
            if enabled:
                path.parent.mkdir(parents=True, exist_ok=True)
                atomic_write_text(path, desktop_entry(command), mode=0o644)
            else:
                path.unlink(missing_ok=True)
    except OSError as exc:
        raise _fail(exc, where) from exc
    return where


def is_enabled(platform: str | None = None, places: AutostartPlaces | None = None) -> bool:
    platform = platform or _platform()
    if platform == "windows":
        return _read_windows() is not None
    return Path(entry_path(platform, places)).exists()


def _set_windows(enabled: bool, command: list[str]) -> None:  # pragma: no cover - Windows only
    import winreg  # type: ignore[import-not-found,unused-ignore]

    with winreg.CreateKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:  # type: ignore[attr-defined,unused-ignore]
        if enabled:
            winreg.SetValueEx(key, RUN_VALUE, 0, winreg.REG_SZ,  # type: ignore[attr-defined,unused-ignore]
                              windows_run_value(command))
        else:
            try:
                winreg.DeleteValue(key, RUN_VALUE)  # type: ignore[attr-defined,unused-ignore]
            except FileNotFoundError:
                pass


def _read_windows() -> str | None:  # pragma: no cover - Windows only
    try:
        import winreg  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    try:
        with winreg.OpenKey(winreg.HKEY_CURRENT_USER, RUN_KEY) as key:  # type: ignore[attr-defined,unused-ignore]
            value, _kind = winreg.QueryValueEx(key, RUN_VALUE)  # type: ignore[attr-defined,unused-ignore]
            return str(value)
    except OSError:
        return None


def describe(command: list[str]) -> str:
    """The command as a shell would show it (for the settings page)."""
    return " ".join(shlex.quote(a) for a in command)

