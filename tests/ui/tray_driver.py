"""Runs the real CostTray on a real X display (xcb), for tests/ui/test_tray.py.

Prints one JSON object per line: {"event": "started", "available": bool}, then
{"event": "shown", "geometry": [x, y, w, h], "menu": [...], "tooltip": "..."} once the icon is in a
tray and the costs are read. Then it waits for a line on stdin: "stop ID" asks to stop that
instance (the confirmation is accepted as a user would) and prints {"event": "stopped", ...} and,
after the costs are read again, {"event": "after", "menu": [...]}; "quit" exits.
"""

from __future__ import annotations

import json
import os
import sys
import threading

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton


def out(**doc: object) -> None:
    sys.stdout.write(json.dumps(doc) + "\n")
    sys.stdout.flush()


class Stdin(QObject):
    line = Signal(str)


def main() -> int:
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    from app.core.paths import default_paths
    from app.ui import tray as tray_mod
    from app.ui.context import AppContext

    tray_mod.TRAY_POLL_MS = int(os.environ.get("LABGPU_TRAY_POLL_MS", "250"))
    ctx = AppContext(default_paths(), "en")
    ctx.errors.interactive = False
    tray = tray_mod.CostTray(ctx, open_window=lambda: None, quit_app=app.quit)
    out(event="started", available=tray_mod.tray_available())
    tray.start()
    state = {"shown": False, "stopping": "", "stopped": False}

    def poll() -> None:
        if not state["shown"] and tray.is_shown() and tray.loaded:
            geo = tray.icon.geometry()
            if geo.width() > 0 or os.environ.get("LABGPU_TRAY_SNI"):
                state["shown"] = True
                out(event="shown", geometry=[geo.x(), geo.y(), geo.width(), geo.height()],
                    menu=tray.menu_texts(), tooltip=tray.icon.toolTip())
        if state["stopped"] and tray.loaded and not tray._loading \
                and all(r.id != state["stopping"] for r in tray.rows):
            state["stopped"] = False
            out(event="after", menu=tray.menu_texts(), tooltip=tray.icon.toolTip())

    timer = QTimer()
    timer.setInterval(100)
    timer.timeout.connect(poll)
    timer.start()

    def on_stopped(iid: str, ok: bool, message: str) -> None:
        out(event="stopped", id=iid, ok=ok, message=message)
        state["stopped"] = True

    tray.stop_finished.connect(on_stopped)
    reader = Stdin()

    def on_line(text: str) -> None:
        cmd, _, arg = text.strip().partition(" ")
        if cmd == "stop":
            state["stopping"] = arg
            action = tray.action(f"stop:{arg}")
            if action is None:
                out(event="error", message=f"no Stop action for {arg}", menu=tray.menu_texts())
                return
            action.trigger()  # what clicking "Stop …" in the menu does
            box = next(w for w in app.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible())
            out(event="confirm", text=box.text())
            box.findChild(QPushButton, "confirmStop").click()
        elif cmd == "quit":
            tray.close()
            ctx.shutdown(5000)
            app.quit()

    reader.line.connect(on_line)

    def read() -> None:
        for line in sys.stdin:
            reader.line.emit(line)
        reader.line.emit("quit")

    threading.Thread(target=read, name="stdin", daemon=True).start()
    return int(app.exec())


if __name__ == "__main__":
    sys.exit(main())
