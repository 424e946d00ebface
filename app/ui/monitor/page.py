"""The GPU monitor page: live nvidia-smi graphs of every chosen host, side by side.

Samples come from the Qt-free :class:`app.watch.MonitorHub` (``ctx.services.monitor``) on its
worker threads; a subscriber only emits a Qt signal, which Qt queues onto the GUI thread. Each
sample updates its host's peak-bin feeds and tables at once (cheap); the curves are given their
arrays by a 1-second timer, so the page redraws at most once a second however many hosts report.
Zoom/pan (mouse on the time axis) leaves live mode and rebuilds the feeds for the range shown,
from the 1 Hz ring buffers and, further back, the 1-minute archive. Pause freezes the view.
Nothing a host sends can take the page down: a failing sample is logged and skipped.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal, Slot
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QMenu,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.monitor.hints import HintsBox
from app.ui.monitor.host_panel import HostPanel
from app.ui.monitor.hub_link import SampleBridge, list_hosts, monitor_hub
from app.ui.monitor.page_settings import RANGES, monitor_settings, range_title, save_monitor_settings
from app.ui.monitor.plots import PLOTTED, SCALE, bin_seconds
from app.ui.monitor.steps import JobStepsPart
from app.ui.shared.plain import PlainLabel

if TYPE_CHECKING:
    from app.ui.context import AppContext

log = logging.getLogger(__name__)

REDRAW_MS = 1_000
HINTS_EVERY_S = 60.0
HINT_WINDOW = 1_800  # samples kept per host for tuning hints (30 min at 1 Hz)
REBUILD_DEBOUNCE_MS = 200
LIVE_STEPS = 20  # the live window jumps by 1/20 of its span when the newest sample reaches its edge


class MonitorPage(QWidget, JobStepsPart):
    page_id = "monitor"
    redrawn = Signal()  # after each redraw (tests and the benchmark wait on it)
    hints_changed = Signal()

    @staticmethod
    def nav_title() -> str:
        return QCoreApplication.translate("MonitorPage", "GPU monitor")

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, hub: Any = None,
                 clock: Any = time.time, autostart: bool = True) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.clock = clock
        self.hub = hub if hub is not None else monitor_hub(ctx)
        self.panels: dict[str, HostPanel] = {}
        self.available: list[tuple[str, str]] = []
        self.guards: dict[str, Any] = {}  # target → GuardConfig
        self.span_s = monitor_settings(ctx).span_s
        self.following = True
        self.paused = False
        self.dirty: set[str] = set()
        self.pending_keys: dict[str, set[tuple[str, str]]] = {}
        self.recent: dict[str, deque[Any]] = {}
        self.latest: dict[str, Any] = {}  # host → newest sample not yet in its tables
        self.redraws = 0
        self._last_hints = 0.0
        self._programmatic = 0
        self._bins_width = 0  # plot width the feeds' bins were made for
        self._shown_live: tuple[float, float] = (0.0, 0.0)
        self._closed = False
        self._dialogs: list[Any] = []
        self.bridge = SampleBridge(self)
        self.bridge.sample_received.connect(self._on_sample_received, Qt.ConnectionType.QueuedConnection)
        self._unsubscribe = self.hub.subscribe(self.bridge.deliver)
        self._build()
        self.redraw_timer = QTimer(self)
        self.redraw_timer.setInterval(REDRAW_MS)
        self.redraw_timer.timeout.connect(self.redraw)
        self.rebuild_timer = QTimer(self)
        self.rebuild_timer.setSingleShot(True)
        self.rebuild_timer.setInterval(REBUILD_DEBOUNCE_MS)
        self.rebuild_timer.timeout.connect(self._on_rebuild_timer_timeout)
        ctx.changed.connect(self._on_changed)
        self._init_steps()  # the training jobs' steps/s (app/ui/monitor/steps.py)
        if autostart:
            self.redraw_timer.start()
            self.jobs_timer.start()
            self.load_hosts()

    # -- layout ----------------------------------------------------------------------------------
    def _build(self) -> None:
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 8)
        layout.setSpacing(6)
        bar = QHBoxLayout()
        title = PlainLabel(self.tr("GPU monitor"), self)
        title.setStyleSheet("font-size: 18px; font-weight: 600;")
        bar.addWidget(title)
        bar.addSpacing(12)
        self.hosts_button = QToolButton(self)
        self.hosts_button.setObjectName("hostsButton")
        self.hosts_button.setText(self.tr("Hosts…"))
        self.hosts_button.setToolTip(self.tr("Choose the hosts to watch (servers of the Hosts page and "
                                             "LabGPU's running instances)"))
        self.hosts_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.hosts_button.setStyleSheet("QToolButton { padding: 3px 18px 3px 8px; }"
                                        "QToolButton::menu-indicator { subcontrol-position: right center;"
                                        " right: 4px; }")
        self.hosts_menu = QMenu(self.hosts_button)
        self.hosts_button.setMenu(self.hosts_menu)
        bar.addWidget(self.hosts_button)
        self.range_combo = QComboBox(self)
        self.range_combo.setObjectName("rangeCombo")
        for s in RANGES:
            self.range_combo.addItem(range_title(s), s)
        self.range_combo.setCurrentIndex(max(0, self.range_combo.findData(self.span_s)))
        self.range_combo.currentIndexChanged.connect(self._on_range_combo_changed)
        bar.addWidget(self.range_combo)
        self.pause_button = QPushButton(self.tr("Pause"), self)
        self.pause_button.setObjectName("pauseButton")
        self.pause_button.setCheckable(True)
        self.pause_button.setToolTip(self.tr("Freeze the graphs; samples are still recorded"))
        self.pause_button.toggled.connect(self._on_pause_button_toggled)
        bar.addWidget(self.pause_button)
        self.live_button = QPushButton(self.tr("Back to live"), self)
        self.live_button.setObjectName("liveButton")
        self.live_button.setToolTip(self.tr("Follow the newest samples again"))
        self.live_button.clicked.connect(self.go_live)
        self.live_button.hide()
        bar.addWidget(self.live_button)
        self.export_button = QPushButton(self.tr("Export CSV…"), self)
        self.export_button.setObjectName("exportButton")
        self.export_button.clicked.connect(lambda: self.open_export())
        bar.addWidget(self.export_button)
        bar.addStretch(1)
        self.status_label = PlainLabel(self)
        self.status_label.setObjectName("monitorStatus")
        self.status_label.setStyleSheet("color: palette(mid);")
        bar.addWidget(self.status_label)
        layout.addLayout(bar)

        self.hints_box = HintsBox(self)
        self.hints = self.hints_box.hints  # (host, Hint) shown now; the box keeps this list up to date
        self.hints_box.changed.connect(self.hints_changed)
        layout.addWidget(self.hints_box)

        self.empty_label = PlainLabel(self.tr("No host is watched. Choose hosts with Hosts… — the servers of the "
                                          "Hosts page and LabGPU's running instances are listed there."), self)
        self.empty_label.setObjectName("monitorEmpty")
        self.empty_label.setWordWrap(True)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.empty_label.setStyleSheet("color: palette(mid); font-size: 14px; padding: 40px;")
        layout.addWidget(self.empty_label, 1)  # takes the room, so the toolbar stays at the top
        self.scroll_area = QScrollArea(self)
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.columns = QWidget(self.scroll_area)
        self.columns_layout = QHBoxLayout(self.columns)
        self.columns_layout.setContentsMargins(0, 0, 0, 0)
        self.columns_layout.setSpacing(6)
        self.scroll_area.setWidget(self.columns)
        layout.addWidget(self.scroll_area, 1)
        self.scroll_area.hide()

    # -- hosts -----------------------------------------------------------------------------------
    @Slot(object)
    def _on_changed(self, kinds: object) -> None:
        """A use case changed the ledger (instances to watch: launched, stopped) or the guards."""
        from app.usecases.changes import Change

        if self._closed:
            return
        if Change.LEDGER in kinds or Change.HOSTS in kinds:  # type: ignore[operator]
            self.load_hosts()  # reads the guards too
        elif Change.GUARDS in kinds:  # type: ignore[operator]
            self.load_guards()

    def load_hosts(self) -> Any:
        self.load_guards()
        return self.ctx.runner.run(self, list_hosts, self.ctx.paths, name="monitor-hosts",
                                   on_done=self._on_hosts_loaded, on_error=self._on_hosts_failed)

    def load_guards(self) -> Any:
        from app.core.guards import GuardStore

        return self.ctx.runner.run(self, lambda: GuardStore(self.ctx.store).all(), name="monitor-guards",
                                   on_done=self._on_guards_loaded, on_error=self._on_hosts_failed)

    @Slot(object)
    def _on_guards_loaded(self, guards: object) -> None:
        self.guards = dict(guards)  # type: ignore[call-overload]
        for host, panel in self.panels.items():
            self._show_guard(host, panel)

    def can_stop(self, host: str) -> bool:
        """Guards may stop LabGPU's own instances; a Hosts-page server has no cloud API."""
        kind = dict(self.available).get(host)
        return kind == "instance" or (kind is None and host.startswith(("ins-", "i-")))

    def _show_guard(self, host: str, panel: HostPanel) -> None:
        from app.ui.shared.guards_ui import badge

        panel.set_guard(badge(self.guards.get(host), self.can_stop(host)))

    def edit_guards(self, host: str) -> Any:
        from app.ui.shared.guards_ui import EditGuardsDialog

        dialog = EditGuardsDialog(self.ctx, host, self.guards.get(host), self.can_stop(host), self)
        dialog.saved.connect(self._on_guard_saved)
        self._dialogs.append(dialog)
        dialog.finished.connect(lambda _r: self._dialogs.remove(dialog) if dialog in self._dialogs else None)
        dialog.open()
        return dialog

    @Slot(str, object)
    def _on_guard_saved(self, target: str, cfg: object) -> None:
        if cfg is None:
            self.guards.pop(target, None)
        else:
            self.guards[target] = cfg
        panel = self.panels.get(target)
        if panel is not None:
            self._show_guard(target, panel)
        svc = self.ctx.services.watch
        if svc is not None and cfg is not None:
            svc.guard_changed(target)

    @Slot(object)
    def _on_hosts_loaded(self, hosts: object) -> None:
        self.available = list(hosts)  # type: ignore[call-overload]
        wanted = monitor_settings(self.ctx).hosts
        names = {n for n, _k in self.available}
        for h in wanted:
            if h in names and h not in self.panels:
                self.watch(h, remember=False)
        self._fill_hosts_menu()

    @Slot(object)
    def _on_hosts_failed(self, exc: object) -> None:
        from app.ui.errors import describe

        message, hint = describe(exc)  # type: ignore[arg-type]
        self.status_label.setText(self.tr("Hosts could not be listed: {message} {hint}").format(
            message=message, hint=hint))

    def _fill_hosts_menu(self) -> None:
        self.hosts_menu.clear()
        if not self.available:
            a = self.hosts_menu.addAction(self.tr("No host yet: add one on the Hosts page"))
            a.setEnabled(False)
        for name, kind in self.available:
            label = name if kind != "instance" else self.tr("{name} (instance)").format(name=name)
            a = self.hosts_menu.addAction(label)
            a.setObjectName(f"host:{name}")
            a.setCheckable(True)
            a.setChecked(name in self.panels)
            a.toggled.connect(lambda on, n=name: self.watch(n) if on else self.unwatch(n))

    def watch(self, host: str, remember: bool = True) -> HostPanel:
        panel = self.panels.get(host)
        if panel is None:
            panel = HostPanel(host, self.columns)
            self.panels[host] = panel
            self.columns_layout.addWidget(panel, 1)
            main = next(iter(self.panels.values())).plots.main_plot()
            if panel.plots.main_plot() is not main:
                panel.plots.main_plot().setXLink(main)
            else:
                main.sigXRangeChanged.connect(self._on_view_range_changed)
            panel.guard_button.clicked.connect(lambda _=False, h=host: self.edit_guards(h))
            self._show_guard(host, panel)
            self._load_panel(panel)
            try:
                self.hub.watch(host)
            except Exception as exc:  # noqa: BLE001 - shown on the host's column, others keep going
                log.warning("could not watch %s: %s", host, exc)
                panel.set_error(str(exc))
        self._update_empty()
        if remember:
            self._remember()
        return panel

    def unwatch(self, host: str) -> None:
        panel = self.panels.pop(host, None)
        try:
            self.hub.unwatch(host)
        except Exception as exc:  # noqa: BLE001
            log.warning("could not stop watching %s: %s", host, exc)
        if panel is not None:
            was_main = panel.plots.main_plot()
            panel.setParent(None)
            panel.deleteLater()
            if self.panels:
                first = next(iter(self.panels.values())).plots.main_plot()
                if was_main is not first:
                    first.setXLink(None)
                    try:
                        first.sigXRangeChanged.connect(self._on_view_range_changed,
                                                       Qt.ConnectionType.UniqueConnection)
                    except (RuntimeError, TypeError):
                        pass
                    for p in list(self.panels.values())[1:]:
                        p.plots.main_plot().setXLink(first)
        self.recent.pop(host, None)
        self._update_empty()
        self._remember()

    def _remember(self) -> None:
        save_monitor_settings(self.ctx, replace(monitor_settings(self.ctx), hosts=list(self.panels),
                                                span_s=self.span_s))

    def _update_empty(self) -> None:
        has = bool(self.panels)
        self.empty_label.setVisible(not has)
        self.scroll_area.setVisible(has)

    # -- time range ------------------------------------------------------------------------------
    def view_range(self) -> tuple[float, float]:
        if self.panels:
            (x0, x1), _y = next(iter(self.panels.values())).plots.main_plot().viewRange()
            return float(x0), float(x1)
        now = self.clock()
        return now - self.span_s, now

    def _live_range(self) -> tuple[float, float]:
        """The live window: it ends a little ahead of now and moves in steps of 1/20 of its span,
        so between steps the axes and the curves' bounds stay as they are (cheap repaints)."""
        now = self.clock()
        step = max(1.0, self.span_s / LIVE_STEPS)
        right = (int(now // step) + 1) * step
        return right - self.span_s, right

    def _set_x(self, t0: float, t1: float) -> None:
        if not self.panels:
            return
        self._programmatic += 1
        try:
            next(iter(self.panels.values())).plots.set_x_range(t0, t1)
        finally:
            self._programmatic -= 1

    def _plot_width(self) -> int:
        for p in self.panels.values():
            w = int(p.plots.main_plot().vb.width())
            if w > 50:
                return w
        return 400

    def _load_panel(self, panel: HostPanel, t0: float | None = None, t1: float | None = None) -> None:
        """(Re)build a host's feeds over [t0, t1] from the ring buffers and the archive."""
        hist = self.hub.history
        if t0 is None or t1 is None:
            t0, t1 = self._live_range()
        span = max(1.0, t1 - t0)
        self._bins_width = self._plot_width()
        bin_s = bin_seconds(span, self._bins_width)
        for g in hist.gpus(panel.host):
            panel.plots.ensure_curve(g.uuid, panel.color_index(g.uuid, g.index))
        last = hist.last_sample(panel.host) if hasattr(hist, "last_sample") else None
        if last is not None:
            panel.show_sample(last)
        order = list(self.panels).index(panel.host) if panel.host in self.panels else 0
        panel.plots.reset_feeds(t0, bin_s, phase=(order % 4) / 4.0)
        earliest = hist.earliest(panel.host) if hasattr(hist, "earliest") else None
        archive = getattr(self.hub, "archive", None)
        import numpy as np

        for (uuid, metric) in list(panel.plots.curves):
            t, v = hist.series(panel.host, uuid, metric, t0, None)
            if archive is not None and (earliest is None or earliest > t0):
                try:
                    at, av = archive.series(panel.host, uuid, metric, t0, earliest if earliest is not None else t1)
                except Exception as exc:  # noqa: BLE001 - an unreadable archive leaves a gap
                    log.warning("archive unreadable for %s: %s", panel.host, exc)
                    at, av = np.empty(0), np.empty(0)
                if len(at):
                    t = np.concatenate([at, t])
                    v = np.concatenate([av, v])
            scale = SCALE.get(metric, 1.0)
            panel.plots.feed(uuid, metric).load(t, v * scale if scale != 1.0 else v)
        panel.plots.push()
        if self.following and not self.paused:
            self._set_x(*self._live_range())

    @Slot(int)
    def _on_range_combo_changed(self, _i: int) -> None:
        self.span_s = int(self.range_combo.currentData())
        self._remember()
        self.go_live()

    @Slot()
    def go_live(self) -> None:
        self.following = True
        self.live_button.hide()
        if self.pause_button.isChecked():
            self.pause_button.setChecked(False)  # resumes and rebuilds
            return
        self.rebuild()

    def rebuild(self) -> None:
        """Rebuild every host's feeds for the current range (live window, or what is shown)."""
        rng = self._live_range() if self.following else self.view_range()
        for panel in self.panels.values():
            self._load_panel(panel, *rng)
        if self.following:
            self._shown_live = rng
            self._set_x(*rng)

    @Slot(object, object)
    def _on_view_range_changed(self, _vb: object, _rng: object) -> None:
        if self._programmatic or self._closed:
            return
        # the user zoomed or panned: stop following and rebuild for what is shown
        if self.following:
            self.following = False
            self.live_button.show()
        self.rebuild_timer.start()

    @Slot()
    def _on_rebuild_timer_timeout(self) -> None:
        if not self.following:
            self.rebuild()

    @Slot(bool)
    def _on_pause_button_toggled(self, on: bool) -> None:
        self.paused = on
        self.pause_button.setText(self.tr("Resume") if on else self.tr("Pause"))
        if not on:
            self.following = True
            self.live_button.hide()
            self.rebuild()

    # -- samples ---------------------------------------------------------------------------------
    @Slot(object)
    def _on_sample_received(self, sample: object) -> None:
        if self._closed:
            return
        try:
            self.take_sample(sample)
        except Exception:  # noqa: BLE001 - a strange sample must never take the app down
            log.exception("monitor: could not show a sample from %s", getattr(sample, "host", "?"))

    def take_sample(self, sample: Any) -> None:
        panel = self.panels.get(sample.host)
        if panel is None:
            return
        known = set(panel.plots.curves)
        if sample.error or any((g.uuid, PLOTTED[0]) not in known for g in sample.gpus):
            panel.show_sample(sample)  # at once: a new GPU needs its curves, an error its banner
            self.latest.pop(sample.host, None)
        else:
            self.latest[sample.host] = sample  # the tables show the newest sample at the next redraw
        if any((g.uuid, PLOTTED[0]) not in known for g in sample.gpus):
            # a GPU seen for the first time: build its feeds (with its history) over the range shown
            self._load_panel(panel, *(self._live_range() if self.following else self.view_range()))
            self.dirty.add(sample.host)
            self.recent.setdefault(sample.host, deque(maxlen=HINT_WINDOW)).append(sample)
            return  # the history already holds this sample
        keys = panel.add_to_feeds(sample)
        self.pending_keys.setdefault(sample.host, set()).update(keys)
        self.dirty.add(sample.host)
        self.recent.setdefault(sample.host, deque(maxlen=HINT_WINDOW)).append(sample)

    @Slot()
    def redraw(self) -> None:
        """At most once a second: give the changed curves their data and move the live window."""
        if self._closed:
            return
        try:
            for host, sample in list(self.latest.items()):  # the tables follow even while paused
                panel = self.panels.get(host)
                if panel is not None:
                    panel.show_sample(sample)
            self.latest.clear()
        except Exception:  # noqa: BLE001
            log.exception("monitor: table update failed")
        if self.paused:
            return
        try:
            states = self.hub.states() if hasattr(self.hub, "states") else {}
            for host, panel in self.panels.items():
                if host in states:
                    panel.set_state(states[host])
            if self.dirty:
                for host in list(self.dirty):
                    panel = self.panels.get(host)
                    if panel is not None:
                        panel.plots.push(list(self.pending_keys.get(host, ())))
                self.dirty.clear()
                self.pending_keys.clear()
            if self.following and self.panels:
                t0, t1 = self._live_range()
                if (t0, t1) != self._shown_live:
                    self._shown_live = (t0, t1)
                    self._set_x(t0, t1)
                first = next(iter(self.panels.values())).plots
                f = next(iter(first.feeds.values()), None)
                width = self._plot_width()
                if f is not None and (f.n * f.bin_s) > 1.5 * self.span_s + 60:
                    self.rebuild()  # drop bins that slid out of the window
                elif abs(width - self._bins_width) > 0.3 * max(self._bins_width, 1):
                    self.rebuild()  # the plots were resized: about one bin per pixel again
            live = self.tr("Live · 1 host") if len(self.panels) == 1 else self.tr("Live · {n} hosts")
            self.status_label.setText(live.format(n=len(self.panels)) if self.following
                                      else self.tr("Showing a chosen range"))
            now = self.clock()
            if now - self._last_hints >= HINTS_EVERY_S:
                self._last_hints = now
                self.check_hints()
        except Exception:  # noqa: BLE001
            log.exception("monitor: redraw failed")
        self.redraws += 1
        self.redrawn.emit()

    # -- tuning hints ----------------------------------------------------------------------------
    def check_hints(self) -> None:
        self.hints_box.check(self.recent, self.panels)

    # -- export ----------------------------------------------------------------------------------
    def open_export(self) -> Any:
        from app.ui.monitor.export_dialog import ExportDialog

        t0, t1 = self.view_range()
        dialog = ExportDialog(self.ctx, self.hub, list(self.panels) or [n for n, _k in self.available],
                              t0, t1, self)
        self._dialogs.append(dialog)
        dialog.finished.connect(lambda _r: self._dialogs.remove(dialog) if dialog in self._dialogs else None)
        dialog.open()
        return dialog

    # -- page protocol ---------------------------------------------------------------------------
    def activate(self, payload: object) -> None:
        """``{"watch": host}`` adds a host to the page."""
        if isinstance(payload, dict) and payload.get("watch"):
            host = str(payload["watch"])
            self.watch(host)
            self._fill_hosts_menu()

    def refresh(self) -> None:
        self.load_hosts()

    def shutdown(self) -> None:
        self._closed = True
        self.redraw_timer.stop()
        self.rebuild_timer.stop()
        self.jobs_timer.stop()
        try:
            self._unsubscribe()
        except Exception:  # noqa: BLE001 - shutting down: nothing more to do about it
            log.debug("monitor: unsubscribe failed", exc_info=True)
        for d in list(self._dialogs):
            try:
                d.close()
            except RuntimeError:
                pass
