"""The Qt-free watch engine shared by the window, the tray and `labgpu watch`.

- ``MonitorHub``: one GPU stream per watched host, history (memory + SQLite minutes), subscribers.
- ``Watcher``: the guards (idle, budget, max runtime, process exit), the spot-interruption watch and
  the running-cost loop; exactly one Watcher acts at a time (``WatchLock``).
Callbacks arrive on worker threads; the UI marshals them with Qt signals.
"""

from .hub import MonitorHub
from .lock import WatchLock, WatchLockedError
from .watcher import Watcher

__all__ = ["MonitorHub", "Watcher", "WatchLock", "WatchLockedError"]
