"""Is there a display the window can open? Asked before Qt starts, because Qt aborts without one.

Qt's own message when it cannot connect ("xcb-cursor0 or libxcb-cursor0 is needed…") sends a student
to install a library that is installed; on a computer without a desktop (SSH, WSL without WSLg, a
container) LabGPU says so in plain words and names the command line instead.

- :func:`probe` looks at QT_QPA_PLATFORM, WAYLAND_DISPLAY and DISPLAY (Linux and the BSDs only; elsewhere
  there is always a desktop) and tries the connection itself: libxcb's ``xcb_connect`` (through ctypes:
  the same library, server and authorisation Qt's xcb platform uses) and the Wayland socket. No Qt.
- :func:`gui_blocker` is the message ``labgpu`` prints instead of starting the window, or None.
- :func:`missing_qt_libraries` lists the libraries the Qt xcb plugin does not find (``ldd``), for
  ``labgpu doctor`` when a display answers and Qt still cannot open it.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from .i18n import QT_TRANSLATE_NOOP, translate

# the platforms that need a display server; any other QT_QPA_PLATFORM (offscreen, vnc, eglfs…) is the user's choice
_SCREEN_PLATFORMS = ("xcb", "wayland", "wayland-egl", "wayland-brcm")
_HEADLESS_PLATFORMS = ("offscreen", "minimal", "minimalegl")

OK, NONE, UNREACHABLE, CHOSEN, SYSTEM = "ok", "none", "unreachable", "chosen", "system"


@dataclass(frozen=True)
class DisplayProbe:
    state: str  # ok | none (no display set) | unreachable | chosen (QT_QPA_PLATFORM names another) | system
    kind: str = ""  # "x11" | "wayland" | the QT_QPA_PLATFORM value | "" (system)
    name: str = ""  # ":0", "localhost:10.0", "wayland-0", "offscreen"
    variable: str = ""  # the environment variable that names it

    @property
    def headless(self) -> bool:
        """A window would be drawn nowhere a person sees it (QT_QPA_PLATFORM=offscreen, minimal)."""
        return self.state == CHOSEN and self.kind.split(":")[0] in _HEADLESS_PLATFORMS


def _needs_display_server() -> bool:
    return sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd"))


def _platforms() -> list[str]:
    """QT_QPA_PLATFORM's platform names ("wayland;xcb" is a list, "xcb:opt=1" carries options)."""
    value = os.environ.get("QT_QPA_PLATFORM", "")
    return [p.split(":", 1)[0].strip() for p in value.split(";") if p.strip()]


def x11_connects(name: str) -> bool | None:
    """Does the X server ``name`` accept this user? None: libxcb is not there to ask (Qt could not either)."""
    import ctypes  # here, not at the top: ``labgpu`` runs this module before every window (start-up time)

    try:
        xcb = ctypes.CDLL("libxcb.so.1")
    except OSError:
        return None
    xcb.xcb_connect.restype = ctypes.c_void_p
    xcb.xcb_connect.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int)]
    xcb.xcb_connection_has_error.restype = ctypes.c_int
    xcb.xcb_connection_has_error.argtypes = [ctypes.c_void_p]
    xcb.xcb_disconnect.argtypes = [ctypes.c_void_p]
    conn = xcb.xcb_connect(name.encode(), None)
    if not conn:
        return False
    try:
        return int(xcb.xcb_connection_has_error(conn)) == 0
    finally:
        xcb.xcb_disconnect(conn)  # a connection in error must be freed too


def wayland_connects(name: str) -> bool:
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if not os.path.isabs(name) and not runtime:
        return False
    path = Path(name) if os.path.isabs(name) else Path(runtime) / name
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(5)
        try:
            s.connect(str(path))
        except OSError:
            return False
    return True


def probe() -> DisplayProbe:
    """Where the window would appear, and whether it can. Opens and closes one connection; no Qt."""
    if not _needs_display_server():
        return DisplayProbe(SYSTEM)
    names = _platforms()
    if names and any(n not in _SCREEN_PLATFORMS for n in names):
        return DisplayProbe(CHOSEN, os.environ.get("QT_QPA_PLATFORM", ""), os.environ.get("QT_QPA_PLATFORM", ""),
                            "QT_QPA_PLATFORM")
    wayland = os.environ.get("WAYLAND_DISPLAY", "") if not names or any(n.startswith("wayland") for n in names) else ""
    x11 = os.environ.get("DISPLAY", "") if not names or "xcb" in names else ""
    if wayland and wayland_connects(wayland):
        return DisplayProbe(OK, "wayland", wayland, "WAYLAND_DISPLAY")
    if x11 and x11_connects(x11) is not False:
        return DisplayProbe(OK, "x11", x11, "DISPLAY")
    if x11:
        return DisplayProbe(UNREACHABLE, "x11", x11, "DISPLAY")
    if wayland:
        return DisplayProbe(UNREACHABLE, "wayland", wayland, "WAYLAND_DISPLAY")
    return DisplayProbe(NONE)


def cli_command() -> str:
    """How the command line is started here: ``labgpu``, or ``python3 main.py`` from a checkout."""
    if getattr(sys, "frozen", False):
        return "labgpu"
    prog = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    python = "python" if os.name == "nt" else "python3"
    if prog == "main.py":
        return f"{python} main.py"
    if prog == "__main__.py":
        return f"{python} -m app"
    return "labgpu"


def problem_text(p: DisplayProbe) -> str:
    """Why the window cannot open (one sentence), "" when it can."""
    if p.state == NONE:
        return translate(QT_TRANSLATE_NOOP(
            "LabGPU", "There is no graphical display here: DISPLAY and WAYLAND_DISPLAY are not set "
                      "(as over SSH, in WSL without WSLg or in a container)."))
    if p.state == UNREACHABLE:
        return translate(QT_TRANSLATE_NOOP(
            "LabGPU", "The display {name} ({variable}) does not answer, or refuses this user.")).format(
                name=p.name, variable=p.variable)
    return ""


def gui_blocker(p: DisplayProbe | None = None) -> str | None:
    """What ``labgpu`` prints instead of starting the window when no display can show it, or None
    (``p``: a probe already made)."""
    p = probe() if p is None else p
    why = problem_text(p)
    if not why:
        return None
    first = translate(QT_TRANSLATE_NOOP("LabGPU", "LabGPU cannot open its window."))
    cli = translate(QT_TRANSLATE_NOOP(
        "LabGPU", "Everything the window does is also a command: '{cli} --help' lists them, "
                  "'{cli} doctor' checks this computer.")).format(cli=cli_command())
    see = translate(QT_TRANSLATE_NOOP(
        "LabGPU", "To see the window, start LabGPU on a computer with a desktop, or connect with "
                  "'ssh -X' (X11 forwarding)."))
    sep = "" if first.endswith("。") else " "  # no space after a Chinese full stop
    return f"{first}{sep}{why}\n{cli}\n{see}"


def _xcb_plugin() -> Path | None:
    spec = importlib.util.find_spec("PySide6")  # finds the package without importing Qt
    if spec is None or not spec.origin:
        return None
    plugin = Path(spec.origin).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.is_file() else None


def missing_qt_libraries() -> list[str]:
    """The shared libraries Qt's xcb plugin (or Qt itself) needs and the system lacks, by ``ldd``."""
    import contextlib
    import re
    import shutil
    import subprocess

    plugin = _xcb_plugin()
    ldd = shutil.which("ldd")
    if plugin is None or ldd is None:
        return []
    out = ""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        out = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=30).stdout
    return sorted({m.group(1) for m in re.finditer(r"^\s*(\S+)\s*=>\s*not found", out, re.MULTILINE)})


def debian_package(soname: str) -> str:
    """The usual Debian/Ubuntu package of a library: libxcb-icccm.so.4 → libxcb-icccm4 (a guess by the rule)."""
    import re

    m = re.match(r"^(lib[^/]+?)\.so\.(\d+)", soname)
    if not m:
        return soname
    base, major = m.group(1).lower(), m.group(2)
    return f"{base}-{major}" if base[-1].isdigit() else f"{base}{major}"
