"""What the tray shows for a watcher's event (app/ui/tray.py): a guard's, a spot interruption's (its
offer kept for Relaunch…) and a training job's notification, and the menu lines they leave (an idle
guard that is blind, a stop that failed). Strings keep the tray's translation context, ``CostTray``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication

from app.core.vocab import GuardEventKind
from app.ui.shared.plain import cap
from app.ui.tray_parts import offer_from_entry, offer_from_options
from app.usecases.changes import Change

if TYPE_CHECKING:
    from app.ui.tray import CostTray


def show_event(tray: CostTray, event: Any) -> None:
    kind = str(getattr(event, "kind", ""))
    target = str(getattr(event, "target_id", ""))
    message = str(getattr(event, "message", ""))
    detail = getattr(event, "detail", None) or {}
    if kind == GuardEventKind.SPOT_NOTICE:
        offer = detail.get("offer") if isinstance(detail, dict) else None
        if offer is None:
            offer = _offer_for(tray, target)
        if offer is None and isinstance(detail, dict) and isinstance(detail.get("relaunch"), dict):
            offer = offer_from_options(detail["relaunch"])
        tray.relaunch_offer = offer
        tray.relaunch_label = getattr(offer, "instance_type", "") or target
        tray._build_menu()
        tray.notify(QCoreApplication.translate("CostTray", "{id} is being reclaimed").format(id=target),
                    message + "\n" + QCoreApplication.translate("CostTray", "Click to relaunch the same offer."),
                    critical=True, on_click=tray.relaunch if offer is not None else None)
    elif kind in (GuardEventKind.BLIND, GuardEventKind.SIGHTED):
        why = detail.get("why") if isinstance(detail, dict) else None
        if kind == GuardEventKind.BLIND:
            tray.blind[target] = str(why or message)
        else:
            tray.blind.pop(target, None)
        tray._build_menu()
        tray.notify(QCoreApplication.translate("CostTray", "Guard: {id}").format(id=target), message,
                    on_click=tray.open_window)
    elif kind in (GuardEventKind.STOP_FAILED, GuardEventKind.STOP_REFUSED,
                  GuardEventKind.TERMINATE_FAILED):  # still billing: told once, critical
        if kind == GuardEventKind.STOP_FAILED:
            tray.stop_pending[target] = message
            tray._build_menu()
        tray.notify(QCoreApplication.translate("CostTray", "Guard could not stop {id}").format(id=target), message,
                    critical=True, on_click=tray.open_window)
    elif kind in (GuardEventKind.JOB_ENDED, GuardEventKind.JOB_FAILED, GuardEventKind.JOB_STALLED):
        show_job_event(tray, kind, target, message, detail if isinstance(detail, dict) else {})
    else:
        tray.notify(QCoreApplication.translate("CostTray", "Guard: {id}").format(id=target), message,
                    critical=kind.endswith("stop"), on_click=tray.open_window)
    if kind in (GuardEventKind.STOPPED, GuardEventKind.TERMINATED) and \
            tray.stop_pending.pop(target, None) is not None:
        tray._build_menu()
    if kind in (GuardEventKind.STOPPED, GuardEventKind.TERMINATED, GuardEventKind.IDLE_STOP,
                GuardEventKind.BUDGET_STOP, GuardEventKind.MAX_RUNTIME, GuardEventKind.PROCESS_EXIT):
        tray.ctx.changes.emit(Change.LEDGER)


def show_job_event(tray: CostTray, kind: str, host: str, message: str, detail: dict[str, Any]) -> None:
    """A training job ended, failed or stalled: the notification names it (clicking it opens the Jobs page)."""
    name = cap(str(detail.get("name") or detail.get("job") or "?"), 80)
    if kind == GuardEventKind.JOB_ENDED:
        title = QCoreApplication.translate("CostTray", "Job {name} finished on {host}")
    elif kind == GuardEventKind.JOB_FAILED:
        title = QCoreApplication.translate("CostTray", "Job {name} failed on {host}")
    else:
        title = QCoreApplication.translate("CostTray", "Job {name} stalled on {host}")
    job = str(detail.get("job") or "")

    def show_jobs() -> None:
        tray.open_window()
        tray.ctx.navigate("jobs", {"job": job})

    tray.notify(title.format(name=name, host=cap(host, 80)), message, critical=kind != GuardEventKind.JOB_ENDED,
                on_click=show_jobs)


def _offer_for(tray: CostTray, instance_id: str) -> Any:
    row = next((r for r in tray.rows if r.id == instance_id), None)
    return offer_from_entry(row.entry) if row is not None and row.entry is not None else None
