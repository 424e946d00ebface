"""Stop episodes of the Watcher: one round of stop calls, its retries and back-off, the one escalation,
and the documented alternative when the cloud refuses a stop for good (see app/watch/watcher.py)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from app.core import providers
from app.core.errors import LabGpuError
from app.core.guards import (
    GuardEvent,
)
from app.core.i18n import translate
from app.core.vocab import GuardEventKind, InstanceState

from .messages import (
    MSG_EPISODE_ENDED,
    MSG_NO_ANSWER,
    MSG_STOP_FAILED,
    MSG_STOP_FAILED_CLOCK,
    MSG_STOP_FAILED_NETWORK,
    MSG_STOP_REFUSED,
    MSG_STOPPED,
    MSG_TERMINATE_FAILED,
    MSG_TERMINATED,
    MSG_TERMINATED_CHOSEN,
    MSG_TERMINATED_NO_PULL,
)
from .parts import (
    STOPPED_STATES,
    TargetState,
    WatcherBase,
    cloud_stop,
    cloud_terminate,
    default_sync,
    num_text,
)

log = logging.getLogger("app.watch.watcher")


class StopEpisodes(WatcherBase):
    """The stop half of Watcher (a mixin: it uses the Watcher's store, clock, audit and events)."""

    def _stop_round(self, t: float, target_id: str, st: TargetState) -> list[GuardEvent]:
        """One round of stop calls in the episode; escalated once when it fails, quiet after that."""
        ep = st.episode
        assert ep is not None
        st.stopping = True
        try:
            ok, events, refused, why, cause = self._stop_with_retries(target_id, ep.guard, quiet=True,
                                                                      terminate=ep.terminate)
            if refused is not None:
                ok, events = self._end_unstoppable(target_id, ep.guard, refused, ep.pulled)
                st.episode, st.stopped = None, True  # terminated, or told once: never the refused stop again
                st.stopped_at = time.time() if ok else None
                return events
            if ok:
                st.episode, st.stopped, st.stopped_at = None, True, time.time()
                return events
            state = self._cloud_state(target_id) if cause in ("refused", "network") else None
            # it did stop (an answer lost, or stopped elsewhere); a termination ends only when terminated
            if state is not None and state != InstanceState.RUNNING and \
                    (not ep.terminate or state in (InstanceState.TERMINATING, InstanceState.TERMINATED)):
                self._audit("guard-stop", target_id, f"ok ({ep.guard}, {state} at the cloud after: {why})")
                st.episode, st.stopped, st.stopped_at = None, True, time.time()
                return [self._event(self.clock(), target_id, GuardEventKind.STOPPED, MSG_EPISODE_ENDED,
                                    {"target": target_id, "state": state}, {"state": state})]
            ep.rounds += 1
            wait = min(self.stop_backoff_cap_s, self.stop_backoff_s * 2 ** (ep.rounds - 1))
            ep.next_try = t + wait
            if ep.escalated:
                self._audit("guard-stop", target_id, f"still not stopped (round {ep.rounds}, {cause}; next try "
                                                     f"in {wait:g} s): {why}")
                return []
            ep.escalated = True
            template = {"clock": MSG_STOP_FAILED_CLOCK, "network": MSG_STOP_FAILED_NETWORK}.get(cause,
                                                                                              MSG_STOP_FAILED)
            return [self._event(self.clock(), target_id, GuardEventKind.STOP_FAILED, template,
                                {"target": target_id, "tries": max(1, self.stop_retries), "why": why},
                                {"cause": cause, "next_try_s": wait})]
        finally:
            st.stopping = False

    def run_sync(self, host: str, purpose: str) -> int | None:
        """Run the host's pull pairs; returns how many ran (0: none is set up; None: unknown)."""
        fn = self._sync_fn or default_sync(self.paths, self.store)
        self._audit("sync-" + purpose, host, "start")
        n = fn(host, purpose)
        self._audit("sync-" + purpose, host, "ok" if n != 0 else "ok (no pull pair)")
        return n

    def stop_instance(self, target_id: str, guard: str = "manual") -> bool:
        """Stop through the cloud layer with retries; True only when the cloud confirms."""
        ok, _events, _refused, _why, _cause = self._stop_with_retries(target_id, guard)
        return ok

    def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` waited for at most ``target_deadline_s``; TimeoutError after that (the call
        goes on in its thread and its late answer is dropped: the next round asks the cloud again)."""
        box: dict[str, Any] = {}
        done = threading.Event()

        def run() -> None:
            try:
                box["value"] = fn(*args)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller
                box["error"] = exc
            finally:
                done.set()

        threading.Thread(target=run, name="guard-cloud-call", daemon=True).start()
        if not done.wait(self.target_deadline_s):
            raise TimeoutError(translate(MSG_NO_ANSWER).format(seconds=num_text(self.target_deadline_s)))
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def _cloud_state(self, target_id: str) -> str | None:
        """After a failed round: the instance's state as its cloud says it now (the account is
        reconciled, under the call deadline), so a stop whose answer was lost, or one done in the
        console, ends the episode instead of being asked again; None when unknown."""
        if self._stop_fn is not None:  # an injected stop (tests of the rules): no cloud to ask
            return None
        entry = self.ledger.get(target_id)
        if entry is None:
            return None
        try:
            from app.cloud.launch import CloudService

            self._call(lambda: CloudService(self.paths, self.store).reconcile([entry.account]))
        except Exception as exc:  # noqa: BLE001 - unknown: the next round asks again
            log.info("reconcile of %s after a failed stop: %s", entry.account, exc)
            return None
        fresh = self.ledger.get(target_id)
        return None if fresh is None else fresh.state

    def _stop_with_retries(self, target_id: str, guard: str, quiet: bool = False, terminate: bool = False
                           ) -> tuple[bool, list[GuardEvent], Any, str, str]:
        """(confirmed, events, the StopRefusedError when the cloud refuses the stop for good (no
        retry), why the last try failed, its cause: "clock" | "network" | "refused"). ``quiet``: no
        "stop-failed" event (the episode decides whether to escalate). ``terminate``: the calls
        terminate (a job's "pull-and-terminate"), confirmed by a terminating/terminated state."""
        from app.cloud.base import StopRefusedError
        from app.cloud.errors import ClockSkewError, NetworkError

        if terminate:
            ended = cloud_terminate(self.paths, self.store) if self._terminate_fn is None else self._terminate_fn
            fn: Callable[[str], Any] = lambda iid: ended(iid, f"terminated: {guard}")  # noqa: E731
        else:
            fn = self._stop_fn or cloud_stop(self.paths, self.store)
        why, cause = "", "refused"
        tries = max(1, self.stop_retries)
        for i in range(tries):
            try:
                got = self._call(fn, target_id)
                if isinstance(got, tuple):
                    got = got[0]
                state = getattr(got, "state", "")
                if state in ((InstanceState.TERMINATING, InstanceState.TERMINATED) if terminate else STOPPED_STATES):
                    self._audit("guard-stop", target_id, f"ok ({guard}, {state})")
                    ev = self._event(self.clock(), target_id,
                                     GuardEventKind.TERMINATED if terminate else GuardEventKind.STOPPED,
                                     MSG_TERMINATED_CHOSEN if terminate else MSG_STOPPED,
                                     {"target": target_id, "guard": guard}, {"state": state})
                    return True, [ev], None, "", ""
                why, cause = f"the cloud still reports {state or 'no state'}", "refused"
            except StopRefusedError as exc:
                reason = str(exc.params.get("reason") or exc.code)
                self._audit("guard-stop", target_id, f"refused ({guard}): {reason}", exc.one_line())
                return False, [], exc, reason, "refused"
            except ClockSkewError as exc:
                why, cause = exc.one_line(), "clock"
            except NetworkError as exc:
                why, cause = exc.one_line(), "network"
            except TimeoutError as exc:
                why, cause = str(exc), "network"
            except LabGpuError as exc:
                why, cause = exc.one_line(), "refused"
            except (OSError, ConnectionError) as exc:
                why, cause = f"{type(exc).__name__}: {exc}", "network"
            except Exception as exc:  # noqa: BLE001 - an SDK's own exception
                why, cause = f"{type(exc).__name__}: {exc}", "refused"
            self._audit("guard-stop", target_id, f"failed try {i + 1}: {why}")
            if i < tries - 1:
                self.sleep(self.retry_delay_s)
        if quiet:
            return False, [], None, why, cause
        ev = self._event(self.clock(), target_id, GuardEventKind.STOP_FAILED, MSG_STOP_FAILED,
                         {"target": target_id, "tries": tries, "why": why}, {"cause": cause})
        return False, [ev], None, why, cause

    def _end_unstoppable(self, target_id: str, guard: str, refused: Any,
                         pulled: bool | None) -> tuple[bool, list[GuardEvent]]:
        """The documented alternative to a refused stop: terminate, unless the pull before it failed
        (then say so once, with what to do). True when the cloud confirms the termination."""
        reason = str(refused.params.get("reason") or refused.code)  # the English template
        params = {"target": target_id, "guard": guard, "reason": translate(reason)}
        if pulled is False:
            self._audit("guard-stop", target_id, f"not terminated ({guard}): the pull before it failed; {reason}")
            return False, [self._event(self.clock(), target_id, GuardEventKind.STOP_REFUSED, MSG_STOP_REFUSED, params,
                                       {"code": refused.code})]
        fn = self._terminate_fn or cloud_terminate(self.paths, self.store)
        audit_reason = f"terminated: {reason}"
        why = ""
        tries = max(1, self.stop_retries)
        for i in range(tries):
            try:
                got = self._call(fn, target_id, audit_reason)
                state = getattr(got, "state", "")
                if state in (InstanceState.TERMINATING, InstanceState.TERMINATED):
                    self._audit("guard-stop", target_id, audit_reason, f"{guard}: {audit_reason} ({state})")
                    template = MSG_TERMINATED if pulled else MSG_TERMINATED_NO_PULL
                    return True, [self._event(self.clock(), target_id, GuardEventKind.TERMINATED, template, params,
                                              {"state": state, "code": refused.code})]
                why = f"the cloud still reports {state or 'no state'}"
            except LabGpuError as exc:
                why = exc.one_line()
            except Exception as exc:  # noqa: BLE001 - an SDK's own exception
                why = f"{type(exc).__name__}: {exc}"
            self._audit("guard-stop", target_id, f"terminate failed try {i + 1}: {why}")
            if i < tries - 1:
                self.sleep(self.retry_delay_s)
        cloud = providers.display_name(str(getattr(refused, "provider", "") or "")) or "?"
        return False, [self._event(self.clock(), target_id, GuardEventKind.TERMINATE_FAILED, MSG_TERMINATE_FAILED,
                                   {**params, "tries": tries, "why": why, "cloud": cloud})]
