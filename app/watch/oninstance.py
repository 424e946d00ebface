"""What the Watcher watches on the instance itself: spot notices (one per reclaim, one pull in flight),
the zone's spot price, the on-instance watchdog matching its guard, and a Tencent OS shutdown settled as a
stop without charging (see app/watch/watcher.py)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import timezone
from typing import Any

from app.core.errors import LabGpuError
from app.core.guards import (
    GuardEvent,
)
from app.core.vocab import GuardEventKind, InstanceState

from .messages import (
    MSG_NO_PULL,
    MSG_SETTLE_FAILED,
    MSG_SETTLED,
    MSG_SPOT,
    MSG_SYNC_DONE,
    MSG_SYNC_FAILED,
)
from .parts import (
    SPOT_PRICE_REFRESH_S,
    WatcherBase,
    bind_connect,
    problem_logger,
)

log = logging.getLogger("app.watch.watcher")


class OnInstance(WatcherBase):
    """The on-instance half of Watcher (a mixin: it uses the Watcher's ledger, guards and events)."""

    def spot_notice(self, target_id: str, notice: Any, wait: bool = False) -> GuardEvent | None:
        """A spot notice arrived: notify once per reclaim time (a watch restarted, or a second watch
        of the same host, announces nothing twice) and start the host's "on interruption" sync at
        once on its own thread — unless one is in flight for that host (then logged, not doubled).
        Returns the event, None when this reclaim was announced already."""
        key = notice.time.astimezone(timezone.utc).isoformat()
        with self._mutex:
            seen = self._spot_seen.setdefault(target_id, set())
            if key in seen:
                log.info("spot notice of %s for %s: announced already", target_id, key)
                return None
            seen.add(key)
        when = notice.time.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
        ev = self._event(self.clock(), target_id, GuardEventKind.SPOT_NOTICE, MSG_SPOT,
                         {"target": target_id, "when": when, "action": notice.action},
                         {"notice_time": notice.time.isoformat(), "provider": notice.provider,
                          "relaunch": self.relaunch_options(target_id)})

        def pull() -> None:
            try:
                n = self.run_sync(target_id, "on-interruption")
            except Exception as exc:  # noqa: BLE001
                why = exc.one_line() if isinstance(exc, LabGpuError) else f"{type(exc).__name__}: {exc}"
                self._event(self.clock(), target_id, GuardEventKind.SYNC_FAILED, MSG_SYNC_FAILED,
                            {"target": target_id, "why": why})
                return
            if n == 0:
                self._event(self.clock(), target_id, GuardEventKind.SYNC_NONE, MSG_NO_PULL, {"target": target_id})
                return
            self._event(self.clock(), target_id, GuardEventKind.SYNC_DONE, MSG_SYNC_DONE,
                        {"target": target_id, "purpose": "on-interruption"})

        with self._mutex:
            running = self._spot_pulls.get(target_id)
            if running is not None and running.is_alive():
                log.info("spot notice of %s: its pull is still running; no second one started", target_id)
                t = running
            else:
                t = threading.Thread(target=pull, name=f"spot-sync-{target_id}", daemon=True)
                self._spot_pulls[target_id] = t
                self._sync_threads.append(t)
                t.start()
        # a recovery policy relaunches it by itself (app/watch/recovery.py; nothing when none applies)
        rt = self.start_recovery(target_id, notice.time)
        if wait:
            t.join()
            if rt is not None:
                rt.join()
        return ev

    def start_spot_watches(self, connect: Callable[[str], Any], interval_s: float = 5.0) -> list[Any]:
        """One SpotWatch per running spot instance in the ledger whose provider can run spot and
        declares where its notices are read (ProviderSpec.spot_notice)."""
        from app.core import providers
        from app.remote.spotwatch import SpotWatch

        started = []
        for e in self.ledger.list(include_terminated=False):
            if not e.spot or e.state != InstanceState.RUNNING or e.id in self._spot:
                continue
            if not providers.has(e.provider, "spot") or providers.spot_notice_source(e.provider) is None:
                continue
            sw = SpotWatch(e.id, e.provider, bind_connect(connect, e.id), self._notice_handler(e.id),
                           on_problem=problem_logger(e.id), interval_s=interval_s)
            self._spot[e.id] = sw.start()
            started.append(sw)
        return started

    # the on-instance watchdog ------------------------------------------------------------------
    def check_watchdogs(self, connect: Callable[[str], Any]) -> list[threading.Thread]:
        """Once per run of each guarded instance with the on-instance watchdog (and once per watcher for a
        server with no cloud API, or after its guard changed): make the watchdog match its guard on the
        host (app/remote/watchdog.reconcile: started again after a stop/start, installed anew after a guard
        change, its refused shutdowns read), each on its own thread; what it found is an event."""
        from app.remote import watchdog

        entries = {e.id: e for e in self.ledger.list(include_terminated=False)}
        started = []
        for target, cfg in self.guards.all().items():
            if not getattr(cfg, "watchdog", False):
                continue
            e = entries.get(target)
            if e is not None and e.state != InstanceState.RUNNING:
                continue  # a stopped instance has no watchdog to check: its next run is checked
            try:
                key = (str(e.started_at) if e is not None else "host", repr(watchdog.params_for_guard(cfg).conf()))
            except LabGpuError as exc:
                log.info("%s: watchdog settings not usable: %s", target, exc)
                continue
            if self._watchdog_seen.get(target) == key:
                continue
            self._watchdog_seen[target] = key
            th = threading.Thread(target=self._check_watchdog, args=(connect, target, cfg, key), daemon=True,
                                  name=f"labgpu-watchdog-{target}")
            th.start()
            started.append(th)
        return started

    def _check_watchdog(self, connect: Callable[[str], Any], target: str, cfg: Any, key: tuple[str, str]) -> None:
        from app.remote import watchdog

        try:
            report = watchdog.reconcile(connect(target), target, cfg,
                                        watchdog.WatchdogBook(self.paths.data_dir / "watchdog.json"))
        except Exception as exc:  # noqa: BLE001 - an unreachable host is checked again at the next scan
            log.info("%s: watchdog not checked: %s", target, exc)
            if self._watchdog_seen.get(target) == key:
                self._watchdog_seen.pop(target, None)
            return
        text = report.text()
        if text:
            self._event(self.clock(), target, GuardEventKind.WATCHDOG, "{message}", {"message": text, "target": target},
                        {"state": report.state})

    def settle_os_shutdowns(self) -> list[threading.Thread]:
        """A Tencent instance whose watchdog shut its OS down stays STOPPED with KEEP_CHARGING: its compute
        still bills. Once per such stop, ask the cloud to stop it without charging
        (CloudService.settle_os_shutdown), on its own thread; what it did is an event."""
        started = []
        for e in self.ledger.list(include_terminated=False):
            if e.state != InstanceState.STOPPED_BILLING:
                continue
            cfg = self.guards.get(e.id)
            if cfg is None or not getattr(cfg, "watchdog", False):
                continue
            key = (e.id, str(e.started_at))
            if key in self._settled:
                continue
            self._settled.add(key)
            th = threading.Thread(target=self._settle, args=(e.id,), daemon=True, name=f"labgpu-settle-{e.id}")
            th.start()
            started.append(th)
        return started

    def _settle(self, target: str) -> None:
        from app.cloud.launch import CloudService

        svc = CloudService(self.paths, self.store)
        try:
            note = svc.settle_os_shutdown(target)
        except LabGpuError as exc:
            self._event(self.clock(), target, GuardEventKind.WATCHDOG, MSG_SETTLE_FAILED,
                        {"target": target, "why": exc.one_line()})
            return
        except Exception as exc:  # noqa: BLE001 - an SDK's own exception
            self._event(self.clock(), target, GuardEventKind.WATCHDOG, MSG_SETTLE_FAILED,
                        {"target": target, "why": f"{type(exc).__name__}: {exc}"})
            return
        finally:
            svc.close()
        if note:
            self._event(self.clock(), target, GuardEventKind.WATCHDOG, MSG_SETTLED, {"target": target, "note": note})

    def _notice_handler(self, target_id: str) -> Callable[[Any], None]:
        def handle(notice: Any) -> None:
            self.spot_notice(target_id, notice)

        return handle

    # spot prices --------------------------------------------------------------------------------
    def current_spot_price(self, entry: Any) -> float | None:
        """The zone's spot price fetched after this run started (live price cache), else None."""
        if not entry.spot or entry.started_at is None:
            return None
        from app.core import live_prices

        for o in live_prices.zone_prices(self.paths, entry.provider, entry.region, entry.instance_type):
            fetched = getattr(o, "fetched_at", None)
            if o.zone == entry.zone and o.price_spot is not None and fetched is not None \
                    and o.currency == entry.currency and fetched >= entry.started_at:
                return float(o.price_spot)
        return None

    def refresh_spot_prices(self, force: bool = False) -> list[str]:
        """Re-read the live prices of running spot instances' types (one cheap price call per account
        and type, at most every SPOT_PRICE_REFRESH_S). Returns the instance ids refreshed."""
        from app.cloud.launch import CloudService

        now = time.monotonic()
        done = []
        svc: Any = None
        for e in self.ledger.list(include_terminated=False):
            if not e.spot or e.state != InstanceState.RUNNING:
                continue
            last = self._spot_price_at.get(e.id)
            if not force and last is not None and now - last < SPOT_PRICE_REFRESH_S:
                continue
            self._spot_price_at[e.id] = now
            svc = svc or CloudService(self.paths, self.store)
            errors: dict[str, LabGpuError] = {}
            svc.refresh_prices(e.account, [e.instance_type], errors=errors)
            if errors:
                log.info("spot price of %s not re-read: %s", e.id, errors[e.account].one_line())
                continue
            done.append(e.id)
        return done
