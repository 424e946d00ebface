"""Setting a guard: the one place a new guard's defaults come from, and the one way a guard is saved.

`labgpu guard set`, the "Edit guards…" dialog and the launch dialog all call :func:`set_guard`: it
validates and saves the guard, then makes the on-instance watchdog follow it over SSH (installed,
updated with the guard's window, or removed), confirms what the host says with ``watchdog.status``
and records it in the WatchdogBook. A watchdog the host refused is saved as no watchdog and said
with its reason: never reported as installed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

from app.core import vocab
from app.core.errors import LabGpuError
from app.core.guards import GuardConfig, GuardStore
from app.core.i18n import QT_TRANSLATE_NOOP, translate
from app.core.paths import Paths
from app.core.settings import Settings
from app.core.store import Store
from app.remote import watchdog
from app.usecases.changes import NO_CHANGES, Change, Changes

if TYPE_CHECKING:  # paramiko is imported when a host is first connected to, not with the guards (the tray)
    from app.remote.ssh import Connection

Connect = Callable[[], "Connection"]
Progress = Callable[[str], None]  # a translated sentence: the step now running


class WatchdogResult(str, Enum):
    """What :func:`set_guard` did with the target's watchdog (equal to its string)."""

    INSTALLED = "installed"  # running on the host with the guard's window (confirmed by its status)
    REMOVED = "removed"  # there before, removed with the guard's change
    NONE = "none"  # none wanted, none there
    FAILED = "failed"  # could not be installed (or removed): ``message`` says why


MSG_INSTALLED = QT_TRANSLATE_NOOP("LabGPU", "The watchdog runs on {host}: it shuts the machine down after {minutes} "
                                            "min with every GPU under {pct} %, even while this computer sleeps.")
MSG_REMOVED = QT_TRANSLATE_NOOP("LabGPU", "The watchdog on {host} was removed: it will not shut the machine down.")
MSG_FAILED = QT_TRANSLATE_NOOP("LabGPU", "The guard is saved, but the watchdog is not installed on {host}: {why}")
HINT_FAILED = QT_TRANSLATE_NOOP("LabGPU", "Until it is, only LabGPU's own guards act, while LabGPU runs. Fix the "
                                          "cause and save the guard again with the watchdog on.")
MSG_NOT_REMOVED = QT_TRANSLATE_NOOP("LabGPU", "The guard is saved, but the watchdog on {host} could not be "
                                              "removed: {why}")
HINT_NOT_REMOVED = QT_TRANSLATE_NOOP("LabGPU", "It may still shut the machine down after its idle window. Save the "
                                               "guard again once the host is reachable (or run `labgpu guard set "
                                               "{host} --no-watchdog`): that removes it.")
MSG_WD_NOT_REMOVED = QT_TRANSLATE_NOOP("LabGPU", "The guards of {id} are removed, but its watchdog could not be "
                                                 "removed: {why}")
HINT_WD_NOT_REMOVED = QT_TRANSLATE_NOOP("LabGPU", "It may still shut the machine down after its idle window. Run "
                                                  "`labgpu guard rm {id}` again once the host is reachable.")
STEP_CONNECT = QT_TRANSLATE_NOOP("LabGPU", "Connecting to {host}…")
STEP_INSTALL = QT_TRANSLATE_NOOP("LabGPU", "Installing the watchdog on {host}…")
STEP_REMOVE = QT_TRANSLATE_NOOP("LabGPU", "Removing the watchdog from {host}…")
MSG_TERMINATED = QT_TRANSLATE_NOOP("LabGPU", "the instance is terminated")
MSG_NOT_CONFIRMED = QT_TRANSLATE_NOOP("LabGPU", "it started, but its status does not show it running with the "
                                                "guard's window")


class _Sentence:
    """``message``/``hint``: translatable templates filled from ``params``; "" when nothing to say."""

    message: str
    hint: str
    params: Mapping[str, str]

    def text(self) -> str:
        return LabGpuError(self.message, **self.params).text() if self.message else ""

    def hint_text(self) -> str:
        return LabGpuError(self.message, self.hint, **self.params).hint() if self.hint else ""


@dataclass(frozen=True)
class GuardOutcome(_Sentence):
    """What :func:`set_guard` saved and did with the watchdog."""

    config: GuardConfig  # as saved: watchdog True only once the install is confirmed on the host
    watchdog: WatchdogResult
    message: str = ""
    hint: str = ""
    params: Mapping[str, str] = field(default_factory=dict)
    pid: int | None = None  # the watchdog's process on the host, when installed


@dataclass(frozen=True)
class RemovedGuard(_Sentence):
    """What :func:`remove_guard` did: ``removed`` False when there was no guard to remove."""

    removed: bool
    watchdog: WatchdogResult
    message: str = ""
    hint: str = ""
    params: Mapping[str, str] = field(default_factory=dict)


def default_guard(settings: Settings, *, currency: str | None = None) -> GuardConfig:
    """A new guard's values: the settings' idle rule; the budget in ``currency`` (an instance's
    billing currency) or else the display currency."""
    return GuardConfig(
        idle_below_pct=float(settings.guard_idle_below_pct),
        idle_minutes=float(settings.guard_idle_minutes),
        on_idle=str(settings.guard_on_idle),
        currency=currency or str(settings.display_currency),
    )


def default_guard_for(settings: Settings, store: Store, target_id: str) -> GuardConfig:
    """A new guard for ``target_id``: an instance's budget in its billing currency, a server's in the
    display currency."""
    from app.core.instances import Ledger

    entry = Ledger(store).get(target_id)
    return default_guard(settings, currency=entry.currency if entry is not None else None)


def watcher_pull(paths: Paths, store: Store, changes: Changes = NO_CHANGES) -> Callable[[str, str], int | None]:
    """The Watcher's ``pull`` (the pull-then-stop step, and a spot notice's pull): the host's saved
    pairs that download, each verified, through the sync use case (a sync of the same pair that is
    running is waited for); what it ran is told to ``changes``."""

    def pull(host: str, purpose: str) -> int:
        from app.usecases.sync import pull_for_guard  # the sync engine (paramiko) when a guard first pulls

        return pull_for_guard(paths, store, host, purpose, changes=changes)

    return pull


def book_for(paths: Paths) -> watchdog.WatchdogBook:
    return watchdog.WatchdogBook(paths.data_dir / "watchdog.json")


def connect_target(paths: Paths, target_id: str) -> Connect:
    """The target's host (a saved host, or a running instance's host record) with its host key
    verified: a key not known or vouched for by the cloud's console is refused, never accepted here."""

    def connect() -> Connection:
        from app.remote.ssh import open_connection
        from app.remote.ssh.target import find_host

        return open_connection(find_host(target_id, paths), paths, None)

    return connect


def save_pulls(store: Store, target_id: str, pulls: Sequence[tuple[str, str]]) -> None:
    """The guard's "before stop" pulls (remote folder → local folder) as the host's sync pairs that
    pull; a pair already saved is kept as it is."""
    from app.core.syncmodel import DOWN
    from app.core.syncpairs import SyncPair, SyncStore

    ss = SyncStore(store)
    have = {(p.remote_path, p.local_path) for p in ss.pairs() if p.host == target_id and p.direction == DOWN}
    for remote, local in pulls:
        if (remote, local) not in have:
            ss.save(SyncPair(host=target_id, local_path=local, remote_path=remote, direction=DOWN))
            have.add((remote, local))


def set_guard(paths: Paths, store: Store, target_id: str, cfg: GuardConfig, *,
              connect: Connect | None = None, changes: Changes = NO_CHANGES,
              pulls: Sequence[tuple[str, str]] = (), progress: Progress | None = None,
              book: watchdog.WatchdogBook | None = None) -> GuardOutcome:
    """Validate and save ``cfg`` as the guard of ``target_id`` (with its ``pulls``), then make its
    watchdog follow it.

    Blocking (SSH): call it in a task. Raises InputError for a value that cannot work (nothing saved).
    The watchdog is touched only when ``cfg.watchdog`` or when one was installed before; SSH problems
    never raise: they are the outcome's FAILED with the reason, and the guard is saved without it.
    """
    cfg = replace(cfg)
    cfg.validate()
    guards = GuardStore(store)
    book = book or book_for(paths)
    previous = guards.get(target_id)
    had = bool(previous is not None and previous.watchdog) or book.get(target_id) is not None
    guards.set(target_id, cfg)
    try:
        save_pulls(store, target_id, pulls)
        if not (cfg.watchdog or had):
            return GuardOutcome(cfg, WatchdogResult.NONE)
        return _follow(store, target_id, cfg, guards, book, connect or connect_target(paths, target_id),
                       progress or _quiet)
    finally:
        changes.emit(Change.GUARDS)


def remove_guard(paths: Paths, store: Store, target_id: str, *, connect: Connect | None = None,
                 changes: Changes = NO_CHANGES, progress: Progress | None = None,
                 book: watchdog.WatchdogBook | None = None) -> RemovedGuard:
    """Remove the guard of ``target_id`` and the watchdog installed with it (its configuration first,
    so even a process the kill misses never acts). A watchdog that cannot be removed now is recorded
    as removal pending (the outcome's FAILED says why)."""
    guards = GuardStore(store)
    book = book or book_for(paths)
    cfg = guards.get(target_id)
    pending = book.get(target_id) is not None
    try:
        removed = guards.remove(target_id)
        if not ((cfg is not None and cfg.watchdog) or pending) or _terminated(store, target_id):
            book.forget(target_id)  # none installed, or the machine went with it
            return RemovedGuard(removed, WatchdogResult.NONE)
        report = progress or _quiet
        try:
            report(_step(STEP_CONNECT, target_id))
            conn = (connect or connect_target(paths, target_id))()
            try:
                report(_step(STEP_REMOVE, target_id))
                watchdog.remove(conn)
            finally:
                conn.close()
        except (LabGpuError, OSError) as exc:
            why = _why(exc)
            book.set(target_id, "removal-pending", why)
            return RemovedGuard(removed, WatchdogResult.FAILED, MSG_WD_NOT_REMOVED, HINT_WD_NOT_REMOVED,
                                {"id": target_id, "why": why})
        book.forget(target_id)
        return RemovedGuard(removed, WatchdogResult.REMOVED, MSG_REMOVED, params={"host": target_id})
    finally:
        changes.emit(Change.GUARDS)


def _quiet(_text: str) -> None:
    return None


def _step(template: str, host: str) -> str:
    return translate(template).format(host=host)


def _terminated(store: Store, target_id: str) -> bool:
    from app.core.instances import Ledger

    entry = Ledger(store).get(target_id)
    return entry is not None and entry.state == vocab.InstanceState.TERMINATED


def _follow(store: Store, target_id: str, cfg: GuardConfig, guards: GuardStore, book: watchdog.WatchdogBook,
            connect: Connect, progress: Progress) -> GuardOutcome:
    if _terminated(store, target_id):  # the machine is gone, and its watchdog with it
        book.forget(target_id)
        if not cfg.watchdog:
            return GuardOutcome(cfg, WatchdogResult.NONE)
        return _failed(target_id, cfg, guards, book, LabGpuError(MSG_TERMINATED))
    try:
        progress(_step(STEP_CONNECT, target_id))
        conn = connect()
    except (LabGpuError, OSError) as exc:
        if cfg.watchdog:
            return _failed(target_id, cfg, guards, book, exc)
        return _not_removed(target_id, cfg, book, exc)
    try:
        if cfg.watchdog:
            progress(_step(STEP_INSTALL, target_id))
            return _install(target_id, cfg, guards, book, conn)
        progress(_step(STEP_REMOVE, target_id))
        try:
            was = watchdog.remove(conn)
        except (LabGpuError, OSError) as exc:
            return _not_removed(target_id, cfg, book, exc)
        book.forget(target_id)
        if was:
            return GuardOutcome(cfg, WatchdogResult.REMOVED, MSG_REMOVED, params={"host": target_id})
        return GuardOutcome(cfg, WatchdogResult.NONE)
    finally:
        conn.close()


def _install(target_id: str, cfg: GuardConfig, guards: GuardStore, book: watchdog.WatchdogBook,
             conn: Connection) -> GuardOutcome:
    try:
        p = watchdog.params_for_guard(cfg)
        before = watchdog.status(conn)
        if before.running and before.configured and before.conf == p.conf() and not before.failed:
            pid = before.pid  # it already follows this window: left running as it is
        else:
            pid = watchdog.install_params(conn, p)
        st = watchdog.status(conn)
    except (LabGpuError, OSError) as exc:
        return _failed(target_id, cfg, guards, book, exc)
    if not (st.running and st.pid == pid and st.conf == p.conf()):
        return _failed(target_id, cfg, guards, book, LabGpuError(MSG_NOT_CONFIRMED))
    book.set(target_id, "running")
    return GuardOutcome(cfg, WatchdogResult.INSTALLED, MSG_INSTALLED,
                        params={"host": target_id, "minutes": f"{cfg.idle_minutes:g}",
                                "pct": f"{cfg.idle_below_pct:g}"}, pid=pid)


def _why(exc: BaseException) -> str:
    if isinstance(exc, LabGpuError):
        return f"{exc.text()} {exc.hint()}".strip()
    return watchdog.plain(str(exc)) or type(exc).__name__


def _failed(target_id: str, cfg: GuardConfig, guards: GuardStore, book: watchdog.WatchdogBook,
            exc: BaseException) -> GuardOutcome:
    saved = replace(cfg, watchdog=False)
    guards.set(target_id, saved)
    why = _why(exc)
    book.set(target_id, "gone", why)
    return GuardOutcome(saved, WatchdogResult.FAILED, MSG_FAILED, HINT_FAILED, {"host": target_id, "why": why})


def _not_removed(target_id: str, cfg: GuardConfig, book: watchdog.WatchdogBook,
                 exc: BaseException) -> GuardOutcome:
    why = _why(exc)
    book.set(target_id, "removal-pending", why)
    return GuardOutcome(cfg, WatchdogResult.FAILED, MSG_NOT_REMOVED, HINT_NOT_REMOVED,
                        {"host": target_id, "why": why})
