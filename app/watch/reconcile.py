"""The ledger follows the cloud while something watches.

An instance started or stopped outside LabGPU (the cloud console, another computer) is seen at the next
reconcile, and its guards act on what the ledger then says. The watcher's loop calls :func:`poll` once
per pass (app/watch/watcher.py ``run()``); it never blocks: each account is reconciled on its own daemon
thread, at most every ``interval_s`` (60 s), and an account whose cloud hangs only keeps its own thread
busy (the next reconcile of that account waits until it answers; other accounts and the guards go on).
Every answer also sets the cloud clock (app.core.ledgerdb.CLOCK) the ledger counts time and cost on.

Tests inject the interval and the monotonic clock with :func:`attach` before the watcher runs, and wait
on :meth:`BackgroundReconciler.wait_runs` (an event, never a sleep).
"""

from __future__ import annotations

import logging
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from app.core.paths import Paths
from app.core.store import Store

log = logging.getLogger(__name__)

RECONCILE_INTERVAL_S = 60.0  # each account at most this often while watching ("within a minute")

ReconcileFn = Callable[[str], Any]  # account name → ReconcileResult (raises on failure)
AccountsFn = Callable[[], list[str]]  # the account names to reconcile


class BackgroundReconciler:
    def __init__(self, paths: Paths | None, store: Store, *, interval_s: float = RECONCILE_INTERVAL_S,
                 reconcile_fn: ReconcileFn | None = None, accounts_fn: AccountsFn | None = None,
                 mono: Callable[[], float] = time.monotonic) -> None:
        self.paths = paths
        self.store = store
        self.interval_s = float(interval_s)
        self.mono = mono
        self._reconcile_fn = reconcile_fn
        self._accounts_fn = accounts_fn
        self._last: dict[str, float] = {}  # account → mono time its last reconcile began
        self._flight: set[str] = set()
        self._cond = threading.Condition()
        self.runs: dict[str, int] = {}  # account → finished reconciles (ok or not)
        self.errors: dict[str, Exception] = {}  # account → why its last reconcile failed
        self._closed = False

    # -- the defaults: the cloud service of this data folder -------------------------------------------
    def _service(self) -> Any:
        from app.cloud.launch import CloudService

        return CloudService(self.paths, self.store)

    def _accounts(self) -> list[str]:
        if self._accounts_fn is not None:
            return list(self._accounts_fn())
        from app.core.accounts import AccountBook

        return [a.name for a in AccountBook(self.store).instance_accounts()]  # storage-only accounts have none

    def _reconcile(self, name: str) -> Any:
        if self._reconcile_fn is not None:
            return self._reconcile_fn(name)
        svc = self._service()
        try:
            result = svc.reconcile([name])
        finally:
            svc.close()
        if name in result.errors:
            raise result.errors[name]
        return result

    # -- the loop's one call ---------------------------------------------------------------------------
    def poll(self) -> list[str]:
        """Start the reconciles that are due (returns their account names); never waits on a cloud."""
        if self._closed:
            return []
        try:
            names = self._accounts()
        except Exception:  # noqa: BLE001 - a store hiccup must not stop the guards
            log.exception("accounts not read for the background reconcile")
            return []
        now = self.mono()
        started = []
        with self._cond:
            for name in names:
                last = self._last.get(name)
                if name in self._flight or (last is not None and now - last < self.interval_s):
                    continue
                self._last[name] = now
                self._flight.add(name)
                started.append(name)
        for name in started:
            threading.Thread(target=self._run, args=(name,), name=f"reconcile-{name}", daemon=True).start()
        return started

    def _run(self, name: str) -> None:
        try:
            self._reconcile(name)
            with self._cond:
                self.errors.pop(name, None)
        except Exception as exc:  # noqa: BLE001 - said in the log; the ledger keeps what it had
            log.warning("background reconcile of %s failed: %s", name, exc)
            with self._cond:
                self.errors[name] = exc
        finally:
            with self._cond:
                self._flight.discard(name)
                self.runs[name] = self.runs.get(name, 0) + 1
                self._cond.notify_all()

    def wait_runs(self, name: str, count: int, timeout: float = 30.0) -> bool:
        """Until ``name`` has finished ``count`` reconciles (tests; an upper bound, not a delay)."""
        with self._cond:
            return self._cond.wait_for(lambda: self.runs.get(name, 0) >= count, timeout)

    def in_flight(self) -> set[str]:
        with self._cond:
            return set(self._flight)

    def close(self) -> None:
        self._closed = True


_attached: weakref.WeakKeyDictionary[Any, BackgroundReconciler] = weakref.WeakKeyDictionary()
_attach_lock = threading.Lock()


def attach(watcher: Any, **options: Any) -> BackgroundReconciler:
    """The reconciler of this watcher (made with ``options`` when new: interval_s, reconcile_fn, mono…)."""
    with _attach_lock:
        rec = _attached.get(watcher)
        if rec is None or options:
            rec = BackgroundReconciler(getattr(watcher, "paths", None), watcher.store, **options)
            _attached[watcher] = rec
        return rec


def reconciler_of(watcher: Any) -> BackgroundReconciler | None:
    with _attach_lock:
        return _attached.get(watcher)


def poll(watcher: Any) -> None:
    """Called once per pass of the watcher's loop: reconciles that are due start in the background."""
    try:
        attach(watcher).poll()
    except Exception:  # noqa: BLE001 - the guards go on whatever happens here
        log.exception("background reconcile not started")


__all__ = ["RECONCILE_INTERVAL_S", "BackgroundReconciler", "attach", "poll", "reconciler_of"]
