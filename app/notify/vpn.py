"""A VPN tunnel that dropped by itself, told to the notifier.

The VPN monitor (app/remote/vpn/monitor.py, Qt-free, in app.remote, which never imports app.notify)
reports each state to its listener; the desktop app's VpnService (app/ui/remote/vpn_watcher.py) passes
each one here as plain values. A tunnel that was up (CONNECTED) and is no longer, while the student did
not ask for it to go down, is a "vpn-down" notice; the reconnect attempts that follow are not (the
notifier also drops a second notice about the same tunnel within its de-duplication window).
"""

from __future__ import annotations

import threading

from .dispatch import Notifier
from .events import VPN_DOWN


class VpnDropWatch:
    def __init__(self, notifier: Notifier) -> None:
        self.notifier = notifier
        self._up: dict[str, bool] = {}
        self._lock = threading.Lock()

    def observe(self, name: str, state: str, is_up: bool, message: str, user_down: bool) -> bool:
        """One state of tunnel ``name``; True when it was told as a drop."""
        with self._lock:
            was_up = self._up.get(name, False)
            self._up[name] = is_up
        if not was_up or is_up or user_down:
            return False
        self.notifier.notify(VPN_DOWN, {"state": state, "why": message or state}, target=name)
        return True
