"""The tray cost monitor: what is billing right now, without opening the window.

- The icon shows the total running cost (so far, in the display currency) drawn on it; the tooltip
  lists each instance with its cost per hour and so far.
- The menu lists every running instance (cost per hour and so far) with a Stop… action that asks
  first, then Open LabGPU and Quit (which names the instances still billing and asks).
- Notifications for guard, spot-interruption (clicking it, or the menu's Relaunch…, opens the
  launch dialog prefilled with the same offer), training-job (those four: app/ui/tray_events.py) and VPN events.
- Qt decides at start-up which tray protocol to use, and an icon created before the panel exists
  stays hidden; so until ``QSystemTrayIcon.isSystemTrayAvailable()`` says yes, a timer asks again
  and shows the icon once a tray appears (login races).

Costs are :func:`app.usecases.costs.running_costs` (billing and totals as the instances page and
``labgpu cost`` count them), read in a task on every ``Change.LEDGER`` (``ctx.changed``) and every
15 s for other processes' changes; worker threads' events reach the tray through a queued signal.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QMessageBox, QSystemTrayIcon, QWidget

from app.core import providers
from app.core.vocab import InstanceState
from app.ui.monitor.costs import RunningRow, fmt_money, rows_of
from app.ui.shared.plain import cap, plain_tooltip
from app.ui.tray_parts import cost_icon
from app.usecases.changes import Change

if TYPE_CHECKING:
    from app.ui.context import AppContext
    from app.usecases.costs import RunningCosts

log = logging.getLogger(__name__)

REFRESH_MS = 15_000  # the ledger is re-read this often for other processes' changes (this one's: at once)
TRAY_POLL_MS = 2_000  # asking whether a tray has appeared
NOTIFY_MS = 15_000


def tray_available() -> bool:
    try:
        return bool(QSystemTrayIcon.isSystemTrayAvailable())
    except RuntimeError:
        return False


class CostTray(QObject):
    """The tray icon, its menu and its notifications. ``open_window`` shows (or builds) the window;
    ``quit_app`` quits without asking again (the tray asked already)."""

    rows_changed = Signal()
    stop_finished = Signal(str, bool, str)  # instance id, stopped, message
    event_received = Signal(object)  # a GuardEvent-like object from a worker thread (queued)
    available_changed = Signal(bool)
    notified = Signal(str, str)  # title, message of each notification shown

    def __init__(self, ctx: AppContext, open_window: Callable[[], None], quit_app: Callable[[], None],
                 parent: QObject | None = None, refresh_ms: int = REFRESH_MS) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.open_window = open_window
        self.quit_app = quit_app
        self.rows: list[RunningRow] = []
        self.costs: RunningCosts | None = None
        self.loaded = False
        self.load_error = ""
        self.stopping: set[str] = set()
        self.relaunch_offer: Any = None
        self.guards_elsewhere: int | None = None  # pid of the LabGPU that applies the guards, if not us
        self.guards_elsewhere_kind = ""  # "watch" | "tray" | "window" | "" (unknown)
        self.guards_here = False  # this LabGPU applies the guards
        self.blind: dict[str, str] = {}  # target → why its idle guard cannot see the GPUs (from the watcher)
        self.stop_pending: dict[str, str] = {}  # target → the escalated "could not stop" message
        self.relaunch_label = ""
        self._last_click: Callable[[], None] | None = None
        self._dialogs: list[QWidget] = []
        self._loading = False
        self._reload = False  # a change arrived while the ledger was being read: read it again
        self._closed = False
        self._vpn_connected = False
        self._vpn_states: dict[str, str] = {}
        self.tell_terminal = False  # tray-only (``labgpu --tray``): no tray at start is said on the terminal
        self.icon = QSystemTrayIcon(self)
        self.icon.setIcon(cost_icon(0.0, self.currency(), False))
        self.icon.setToolTip(self.tr("LabGPU: nothing is billing"))
        self.menu = QMenu()
        self.menu.setObjectName("trayMenu")
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._on_icon_activated)
        self.icon.messageClicked.connect(self._on_icon_message_clicked)
        self.event_received.connect(self._on_event_received, Qt.ConnectionType.QueuedConnection)
        self._build_menu()
        self.refresh_timer = QTimer(self)
        self.refresh_timer.setInterval(refresh_ms)
        self.refresh_timer.timeout.connect(self.refresh)
        self.poll_timer = QTimer(self)
        self.poll_timer.setInterval(TRAY_POLL_MS)
        self.poll_timer.timeout.connect(self._on_poll_timer_timeout)
        ctx.changed.connect(self._on_changed)

    # -- showing ---------------------------------------------------------------------------------
    def currency(self) -> str:
        return str(getattr(self.ctx.settings, "display_currency", "CNY") or "CNY")

    def start(self) -> None:
        """Show the icon now if a tray exists, else as soon as one appears; start reading costs."""
        self._connect_vpn()
        self.refresh_timer.start()
        self.refresh()
        if not self._show_if_available():
            log.info("no system tray yet; checking every %d ms", TRAY_POLL_MS)
            if self.tell_terminal:
                self._say_no_tray()
            self.poll_timer.start()

    def _say_no_tray(self) -> None:
        """``labgpu --tray`` with no tray shows nothing at all: say so once on the terminal."""
        from app.core.display import cli_command

        text = self.tr("LabGPU: there is no system tray here, so the cost monitor runs without its icon (the guards "
                       "still apply); the icon appears as soon as a tray starts. Meanwhile '{cli} cost' shows what "
                       "bills, and '{cli}' opens the window.").format(cli=cli_command())
        with contextlib.suppress(OSError, ValueError):  # no terminal (autostart): the log has it
            print(text, file=sys.stderr, flush=True)

    def _show_if_available(self) -> bool:
        if tray_available():
            self.icon.show()
            self.poll_timer.stop()
            self.available_changed.emit(True)
            return True
        return False

    @Slot()
    def _on_poll_timer_timeout(self) -> None:
        self._show_if_available()

    def is_shown(self) -> bool:
        """The icon is shown in a tray that exists (``isVisible`` alone says True without a tray)."""
        return self.icon.isVisible() and tray_available()

    # -- costs -----------------------------------------------------------------------------------
    @Slot(object)
    def _on_changed(self, kinds: frozenset[Change]) -> None:
        if Change.LEDGER in kinds:
            self.refresh()

    @Slot()
    def refresh(self) -> Any:
        if self._closed:
            return None
        if self._loading:
            self._reload = True
            return None
        self._loading = True
        self._reload = False
        from app.ui.monitor.costs import running_costs

        return self.ctx.runner.run(self, running_costs, self.ctx, name="tray-costs",
                                   on_done=self._on_costs_loaded, on_error=self._on_rows_failed)

    def _loaded_one(self) -> bool:
        """The read in flight ended; True when a change came meanwhile (it is read again)."""
        self._loading = False
        return bool(self._reload and self.refresh() is not None)

    @Slot(object)
    def _on_costs_loaded(self, costs: object) -> None:
        if self._loaded_one():
            return
        self.loaded = True
        self.load_error = ""
        self.costs = costs  # type: ignore[assignment]
        self.rows = rows_of(self.costs)  # type: ignore[arg-type]
        self._connect_vpn()
        self._update()

    @Slot(object)
    def _on_rows_failed(self, exc: object) -> None:
        from app.ui.cloud import error_sentence

        if self._loaded_one():
            return
        message, hint = error_sentence(exc)  # type: ignore[arg-type]
        self.load_error = message + (f" {hint}" if hint else "")
        self._update()

    def billing_text(self) -> str:
        """'Billing now: …' in the display currency, as the instances page and ``labgpu cost`` say it."""
        return self.costs.billing_text(self.currency()) if self.costs is not None else ""

    def _update(self) -> None:
        cur, c = self.currency(), self.costs
        self.icon.setIcon(cost_icon(c.so_far(cur) if c and c.known else None, cur, bool(self.rows),
                                    unknown=bool(c and c.unknown)))
        if self.rows:
            lines = [self.tr("LabGPU — {billing}").format(billing=self.billing_text())]
            for r in self.rows:
                lines.append(self.tr("{name}: {rate}/h, {total} so far").format(
                    name=r.label, rate=fmt_money(r.per_hour, r.currency), total=fmt_money(r.so_far, r.currency)))
        else:
            lines = [self.tr("LabGPU: nothing is billing")]
        if self.load_error:
            lines.append(self.tr("Costs could not be read: {error}").format(error=self.load_error))
        from app.core.ledgerdb import clock_warning  # a clock more than a minute off, and what to do

        lines += [w for w in (clock_warning(),) if w]
        self.icon.setToolTip(cap("\n".join(lines)))  # first line fixed, so Qt shows it as plain text
        self._build_menu()
        self.rows_changed.emit()

    def _build_menu(self) -> None:
        m = self.menu
        m.clear()
        if self.rows:
            head = m.addAction(self.billing_text())
            head.setObjectName("billingNow")
            head.setEnabled(False)
            for r in self.rows:
                sub = m.addMenu(self.tr("{name} — {rate}/h · {total}").format(
                    name=r.label, rate=fmt_money(r.per_hour, r.currency), total=fmt_money(r.so_far, r.currency)))
                sub.setObjectName(f"instance:{r.id}")
                info = sub.addAction(self.tr("Account {account}").format(account=r.account))
                info.setEnabled(False)
                stop = sub.addAction(self.tr("Stop {id}…").format(id=r.id))
                stop.setObjectName(f"stop:{r.id}")
                stop.setEnabled(r.id not in self.stopping and r.state == InstanceState.RUNNING)
                stop.triggered.connect(lambda _=False, iid=r.id: self.confirm_stop(iid))
        elif self.loaded:
            none = m.addAction(self.tr("Nothing is billing"))
            none.setEnabled(False)
        else:
            wait = m.addAction(self.tr("Reading costs…"))
            wait.setEnabled(False)
        if self.load_error:
            err = m.addAction(self.tr("Costs could not be read"))
            err.setToolTip(plain_tooltip(self.load_error))
            err.setEnabled(False)
        if self.guards_elsewhere is not None:
            pid = self.guards_elsewhere if self.guards_elsewhere > 0 else "?"
            who = {"watch": self.tr("labgpu watch"), "tray": self.tr("the tray"),
                   "window": self.tr("the LabGPU window")}.get(self.guards_elsewhere_kind)
            if who:
                text = self.tr("Guards are applied by {who} (process {pid}); this LabGPU takes over when it "
                               "ends").format(who=who, pid=pid)
            else:
                text = self.tr("Guards are applied by another LabGPU (process {pid})").format(pid=pid)
            other = m.addAction(text)
            other.setObjectName("guardsElsewhere")
            other.setEnabled(False)
        elif self.guards_here:
            here = m.addAction(self.tr("Guards are applied here (process {pid})").format(pid=os.getpid()))
            here.setObjectName("guardsHere")
            here.setEnabled(False)
        for target, why in sorted(self.stop_pending.items()):
            pending = m.addAction(self.tr("{id}: NOT stopped yet — still billing").format(id=target))
            pending.setObjectName(f"stopPending:{target}")
            pending.setToolTip(why)
            pending.setEnabled(False)
        for target, why in sorted(self.blind.items()):
            blind = m.addAction(self.tr("{id}: idle guard blind — {why}").format(id=target, why=why[:120]))
            blind.setObjectName(f"blind:{target}")
            blind.setEnabled(False)
        if self.relaunch_offer is not None:
            m.addSeparator()
            re = m.addAction(self.tr("Relaunch {what}…").format(what=self.relaunch_label))
            re.setObjectName("relaunch")
            re.triggered.connect(self.relaunch)
        m.addSeparator()
        open_action = m.addAction(self.tr("Open LabGPU"))
        open_action.setObjectName("open")
        open_action.triggered.connect(self.open_window)
        quit_action = m.addAction(self.tr("Quit LabGPU"))
        quit_action.setObjectName("quit")
        quit_action.triggered.connect(lambda: self.confirm_quit())

    def action(self, object_name: str) -> QAction | None:
        """The menu action with that object name (``stop:<id>``, ``open``, ``quit``, ``relaunch``)."""
        for a in self.menu.findChildren(QAction):
            if a.objectName() == object_name:
                return a
        return None

    def menu_texts(self) -> list[str]:
        out = []
        for a in self.menu.actions():
            sub = a.menu()
            out.append(sub.title() if isinstance(sub, QMenu) else a.text())
        return [t for t in out if t]

    # -- stop ------------------------------------------------------------------------------------
    def confirm_stop(self, instance_id: str) -> QMessageBox | None:
        row = next((r for r in self.rows if r.id == instance_id), None)
        if row is None:
            return None
        rate, total = fmt_money(row.per_hour, row.currency), fmt_money(row.so_far, row.currency)
        # A cloud with no stop (Capabilities.stop_terminates, Lambda): the action is a termination, said so.
        terminates = providers.has(row.provider, "stop_terminates")
        if terminates:
            box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Terminate {id}?").format(id=instance_id),
                              self.tr("{cloud} has no stop: terminate {name} ({account})? It costs {rate}/h now and "
                                      "{total} so far. Terminating ends its bill and deletes its disk: pull what "
                                      "you need first.").format(
                                  cloud=providers.display_name(row.provider), name=row.label, account=row.account,
                                  rate=rate, total=total))
        else:
            box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Stop {id}?").format(id=instance_id),
                              self.tr("Stop {name} ({account})? It costs {rate}/h now and {total} so far. "
                                      "Processes on it end; its disk is kept (and may still bill).").format(
                                  name=row.label, account=row.account, rate=rate, total=total))
        box.setTextFormat(Qt.TextFormat.PlainText)  # instance and account names are data
        box.setObjectName("trayStopConfirm")
        stop = box.addButton(self.tr("Terminate") if terminates else self.tr("Stop"),
                             QMessageBox.ButtonRole.DestructiveRole)
        stop.setObjectName("confirmStop")
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.buttonClicked.connect(lambda b: self.stop(instance_id, terminate=terminates) if b is stop else None)
        self._keep(box)
        box.open()
        return box

    def stop(self, instance_id: str, terminate: bool = False) -> Any:
        """Stop the instance (``terminate``: its cloud has no stop, so terminate it, as the guards do)."""
        from app.ui.cloud import cloud_service, error_sentence

        self.stopping.add(instance_id)
        self._build_menu()

        def done(result: Any) -> None:
            self.stopping.discard(instance_id)
            note = result[1] if isinstance(result, tuple) and len(result) > 1 else ""
            msg = (self.tr("{id} terminated: it no longer bills.").format(id=instance_id) if terminate
                   else self.tr("{id} stopped. {note}").format(id=instance_id, note=note).strip())
            self.notify(self.tr("Instance stopped"), msg)
            self.stop_finished.emit(instance_id, True, msg)
            self.ctx.changes.emit(Change.LEDGER)  # every view of the ledger (this tray too) reads it again

        def failed(exc: Any) -> None:
            self.stopping.discard(instance_id)
            message, hint = error_sentence(exc)
            msg = self.tr("{id} was NOT stopped: {message} {hint}").format(
                id=instance_id, message=message, hint=hint).strip()
            self.notify(self.tr("Stop failed"), msg, critical=True)
            self.stop_finished.emit(instance_id, False, msg)
            self.ctx.changes.emit(Change.LEDGER)  # a failed stop may still have changed the state

        svc = cloud_service(self.ctx)
        return self.ctx.runner.run(self, svc.terminate if terminate else svc.stop, instance_id,
                                   name="tray-stop", on_done=done, on_error=failed)

    # -- quit ------------------------------------------------------------------------------------
    def billing_names(self) -> list[str]:
        return [r.label for r in self.rows]

    def confirm_quit(self) -> QMessageBox | None:
        """Quit; while instances bill, ask first and name them."""
        names = self.billing_names()
        if not names:
            self.quit_app()
            return None
        box = quit_question(names, None, self.quit_app)
        self._keep(box)
        box.open()
        return box

    # -- notifications ---------------------------------------------------------------------------
    def notify(self, title: str, message: str, critical: bool = False,
               on_click: Callable[[], None] | None = None) -> None:
        self._last_click = on_click
        icon = QSystemTrayIcon.MessageIcon.Critical if critical else QSystemTrayIcon.MessageIcon.Information
        self.icon.showMessage(cap(title, 200), cap(message), icon, NOTIFY_MS)  # drawn as plain text; bounded
        log.info("notification: %s — %s", title, message)
        self.notified.emit(title, message)

    def post_event(self, event: Any) -> None:
        """Thread-safe: a watcher callback (worker thread) hands its GuardEvent here."""
        if not self._closed:
            self.event_received.emit(event)

    @Slot(object)
    def _on_event_received(self, event: Any) -> None:
        try:
            self.show_event(event)
        except Exception:  # noqa: BLE001 - a bad event must never take the tray down
            log.exception("could not show a watch event")

    def show_event(self, event: Any) -> None:
        """A watcher's event: its notification and the menu lines it leaves (app/ui/tray_events.py)."""
        from app.ui.tray_events import show_event

        show_event(self, event)

    @Slot()
    def relaunch(self) -> None:
        offer = self.relaunch_offer
        if offer is None:
            return
        self.open_window()
        self.ctx.navigate("instances", {"launch": offer, "spot": bool(getattr(offer, "spot_available", True))})

    @Slot()
    def _on_icon_message_clicked(self) -> None:
        cb, self._last_click = self._last_click, None
        if cb is not None:
            cb()

    @Slot(QSystemTrayIcon.ActivationReason)
    def _on_icon_activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason in (QSystemTrayIcon.ActivationReason.Trigger, QSystemTrayIcon.ActivationReason.DoubleClick):
            self.open_window()

    # -- VPN -------------------------------------------------------------------------------------
    def _connect_vpn(self) -> None:
        svc = self.ctx.services.vpn
        if svc is None or self._vpn_connected or not hasattr(svc, "status_changed"):
            return
        svc.status_changed.connect(self._on_vpn_status_changed)
        self._vpn_connected = True

    @Slot(str, object)
    def _on_vpn_status_changed(self, name: str, status: Any) -> None:
        state = str(getattr(status, "state", ""))
        before = self._vpn_states.get(name)
        self._vpn_states[name] = state
        if before == state:
            return
        if getattr(status, "is_up", False):
            self.notify(self.tr("VPN {name} connected").format(name=name), getattr(status, "local_ip", "") or "")
        elif (before is not None and state in ("FAILED", "NEEDS_CREDENTIALS")) or before == "CONNECTED":
            self.notify(self.tr("VPN {name}: {state}").format(name=name, state=state),
                        getattr(status, "message", "") or self.tr("Open the VPN page to reconnect."),
                        critical=True, on_click=self.open_window)

    # -- lifetime --------------------------------------------------------------------------------
    def _keep(self, w: QWidget) -> None:
        self._dialogs.append(w)

        def forget(_r: int = 0) -> None:
            if w in self._dialogs:
                self._dialogs.remove(w)
            w.deleteLater()

        w.finished.connect(forget)  # type: ignore[attr-defined]

    def close(self) -> None:
        self._closed = True
        self.refresh_timer.stop()
        self.poll_timer.stop()
        for d in list(self._dialogs):
            try:
                d.close()
            except RuntimeError:
                pass
        self.icon.hide()
        self.menu.deleteLater()


def quit_question(names: list[str], parent: QWidget | None, on_quit: Callable[[], None]) -> QMessageBox:
    """"Quit while these bill?" — names every instance; Cancel is the default button."""
    listing = "\n".join(f"• {n}" for n in names)
    text = QCoreApplication.translate(
        "CostTray", "These instances keep running and billing after LabGPU quits, and no guard watches them "
                    "until it starts again:\n{names}").format(names=listing)
    box = QMessageBox(QMessageBox.Icon.Warning, QCoreApplication.translate("CostTray", "Quit while instances run?"),
                      text,
                      parent=parent)
    box.setTextFormat(Qt.TextFormat.PlainText)  # instance names are data
    box.setObjectName("quitConfirm")
    quit_btn = box.addButton(QCoreApplication.translate("CostTray", "Quit anyway"), QMessageBox.ButtonRole.AcceptRole)
    quit_btn.setObjectName("quitAnyway")
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.buttonClicked.connect(lambda b: on_quit() if b is quit_btn else None)
    return box


class TrayShell(QObject):
    """The window and the tray together: closing the window keeps LabGPU in the tray while
    instances bill (setting ``keep_tray_when_closed``); quitting while they bill asks first.

    ``window`` may be None (``labgpu --tray``): it is built the first time Open LabGPU is chosen.
    """

    def __init__(self, ctx: AppContext, app: Any, window: Any = None, window_factory: Callable[[], Any] | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.app = app
        self.window = window
        self.window_factory = window_factory
        self.quitting = False
        self.tray = CostTray(ctx, self.show_window, self.quit_now, self)
        self.tray.tell_terminal = window is None  # the tray is all there is: no tray is said once
        app.setQuitOnLastWindowClosed(False)
        if window is not None:
            self._attach(window)

    def _attach(self, window: Any) -> None:
        window.close_hook = self.on_window_close
        window.quit_hook = self.request_quit

    def start(self, guards: bool = True) -> None:
        self.tray.start()
        if guards:
            self.start_guards()

    def start_guards(self) -> None:
        """Run the guards here (unless ``labgpu watch`` or another LabGPU already does)."""
        try:
            from app.ui.monitor.watch_service import watch_service

            svc = watch_service(self.ctx, kind="tray" if self.window is None else "window")
            svc.event.connect(self.tray.show_event)
            svc.state_changed.connect(self._on_guards_taken_over, Qt.ConnectionType.QueuedConnection)
            if not svc.start():
                self.tray.guards_elsewhere = svc.holder or -1
                self.tray.guards_elsewhere_kind = svc.holder_kind
            else:
                self.tray.guards_here = True
            self.tray._build_menu()
        except Exception:  # noqa: BLE001 - the tray and the window work without guards; say so in the log
            log.exception("the guards could not start")

    @Slot()
    def _on_guards_taken_over(self) -> None:
        """The other watcher ended and this LabGPU applies the guards now."""
        self.tray.guards_elsewhere, self.tray.guards_elsewhere_kind = None, ""
        self.tray.guards_here = True
        self.tray._build_menu()

    @Slot()
    def show_window(self) -> None:
        if self.window is None and self.window_factory is not None:
            self.window = self.window_factory()
            self._attach(self.window)
        if self.window is None:
            return
        self.window.show()
        self.window.raise_()
        self.window.activateWindow()

    def keep_in_tray(self) -> bool:
        return bool(getattr(self.ctx.settings, "keep_tray_when_closed", True)) and self.tray.is_shown()

    def on_window_close(self, event: Any) -> bool:
        """The window's closeEvent asks this first; False: the window only hides (or nothing happens)."""
        if self.quitting:
            return True
        if self.tray.rows and self.keep_in_tray():
            event.ignore()
            self.window.hide()
            if not getattr(self, "_told", False):
                self._told = True
                n = len(self.tray.rows)
                still = (self.tr("1 instance still bills; its cost and guards stay here.") if n == 1
                         else self.tr("{n} instances still bill; their costs and guards stay here."))
                self.tray.notify(self.tr("LabGPU keeps running in the tray"), still.format(n=n))
            return False
        if self.tray.rows:
            event.ignore()
            self.request_quit()
            return False
        self.quitting = True  # nothing bills: closing the window quits, as without a tray
        self.tray.close()
        QTimer.singleShot(0, self.app.quit)
        return True

    @Slot()
    def request_quit(self) -> Any:
        return self.tray.confirm_quit()

    def close(self) -> None:
        self.tray.close()

    @Slot()
    def quit_now(self) -> None:
        self.quitting = True
        if self.window is not None:
            self.window.close()
        self.tray.close()
        self.app.quit()
