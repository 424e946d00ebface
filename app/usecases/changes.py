"""What a use case changed, said once, so every view that shows it refreshes at once.

A use case that wrote something (a stop, a launch, a guard, a host) calls ``changes.emit(Change.LEDGER)``
on the bus it was given; the instances page, the tray and the monitor page subscribe and reload
what they show, instead of waiting for their next poll. The bus is plain Python (no Qt): callbacks
run on the emitting thread, so a Qt subscriber hands them to the GUI thread itself
(app/ui/context.py does, through a queued signal). A failing subscriber is logged and never stops
the use case or the other subscribers.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from enum import Enum

log = logging.getLogger(__name__)


class Change(str, Enum):
    """One kind of state a use case can change (the value is what subscribers see)."""

    LEDGER = "ledger"  # instances: launched, stopped, started, terminated, states and costs
    GUARDS = "guards"  # a guard set, changed or removed; a watchdog installed or removed
    HOSTS = "hosts"  # the SSH host list
    ACCOUNTS = "accounts"  # cloud accounts
    SYNC = "sync"  # sync pairs and their run history
    JOBS = "jobs"  # training jobs: started, refreshed, stopped (app/usecases/jobs.py)


Listener = Callable[[frozenset[Change]], None]


class Changes:
    """A thread-safe list of listeners; ``emit`` tells each one which kinds changed."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Add a listener; returns the call that removes it again."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def emit(self, *kinds: Change | Iterable[Change]) -> None:
        flat: set[Change] = set()
        for k in kinds:
            if isinstance(k, Change):
                flat.add(k)
            else:
                flat.update(k)
        if not flat:
            return
        with self._lock:
            listeners = list(self._listeners)
        what = frozenset(flat)
        for listener in listeners:
            try:
                listener(what)
            except Exception:  # noqa: BLE001 - one broken view never stops the use case
                log.exception("a change listener failed")


NO_CHANGES = Changes()  # for callers with no view to tell (the CLI): emitting to it does nothing visible
