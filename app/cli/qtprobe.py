"""Can Qt open the display? (``labgpu doctor``'s display row.) Asked of a separate Python, because Qt
aborts the process it fails in; here in the CLI, since app/core never touches Qt, not even in a string
it runs elsewhere."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass

_QT_PROBE = (
    "import sys\n"
    "from PySide6.QtGui import QGuiApplication\n"
    "app = QGuiApplication(sys.argv[:1])\n"
    "s = app.primaryScreen()\n"
    "size = s.size() if s is not None else None\n"
    "print(app.platformName(), size.width() if size else 0, size.height() if size else 0, flush=True)\n"
)


@dataclass(frozen=True)
class QtOpen:
    opened: bool | None  # None: not tried (a frozen build cannot run a probe)
    platform: str = ""  # Qt's platform plugin (xcb, wayland…)
    size: str = ""  # the primary screen, "1280×800"
    error: str = ""  # Qt's last words when it could not


def qt_opens(timeout_s: float = 60.0) -> QtOpen:
    """Can Qt open the display? Asked of a separate Python (Qt aborts the process it fails in)."""
    if getattr(sys, "frozen", False):
        return QtOpen(None)
    try:
        r = subprocess.run([sys.executable, "-c", _QT_PROBE], capture_output=True, text=True, timeout=timeout_s)
    except subprocess.TimeoutExpired:
        return QtOpen(False, error=f"no answer in {timeout_s:.0f} s")
    except OSError as exc:
        return QtOpen(False, error=str(exc))
    words = r.stdout.split()
    if r.returncode == 0 and len(words) == 3:
        return QtOpen(True, words[0], f"{words[1]}×{words[2]}" if words[1] != "0" else "")
    lines = [ln.strip() for ln in r.stderr.splitlines() if ln.strip()]
    said = next((ln for ln in lines if "could not" in ln.lower() or "cannot" in ln.lower()),
                lines[0] if lines else f"exit {r.returncode}")
    return QtOpen(False, error=said[:300])
