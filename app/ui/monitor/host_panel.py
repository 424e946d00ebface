"""One host's column on the monitor page: its state, its error, its plots, its GPUs and processes."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.ui import theme
from app.ui.monitor.plots import PLOTTED, SCALE, HostPlots, gpu_color
from app.ui.shared.fit_columns import cell_margin, fit_columns, refit
from app.ui.shared.plain import PlainLabel, plain_tooltip

GPU_ELIDED = (0, 5)  # the GPU's name and its status: free text; the readings are never elided
PROC_ELIDED = (2,)  # the process's name

if TYPE_CHECKING:
    from app.core.gpumon import HostSample


def na() -> str:
    return QCoreApplication.translate("HostPanel", "N/A")


def num(v: float | None, digits: int = 0, unit: str = "") -> str:
    """A reading as text; an unknown value is "N/A", never 0."""
    if v is None or not math.isfinite(v):
        return na()
    return f"{v:,.{digits}f}{unit}"


def pair(a: float | None, b: float | None, digits: int, unit: str) -> str:
    if a is None and b is None:
        return na()
    return f"{num(a, digits)} / {num(b, digits)}{unit}"


def unit_below(header: str) -> str:
    """"Power (W)" → "Power" over "(W)"."""
    return header.replace(" (", "\n(", 1)


def gpu_label(index: int | None, name: str | None) -> str:
    """"● 0  A100-SXM4-80GB": the GPU's index and model; the vendor's name, the same on every row, is left
    to the tooltip so that the model is read whole in a narrow panel."""
    model = (name or "").removeprefix("NVIDIA ").strip()
    return f"● {index if index is not None else '?'}  {model}".rstrip()


def state_text(state: str) -> str:
    names = {
        "idle": QCoreApplication.translate("HostPanel", "waiting"),
        "connecting": QCoreApplication.translate("HostPanel", "connecting…"),
        "streaming": QCoreApplication.translate("HostPanel", "live"),
        "live": QCoreApplication.translate("HostPanel", "live"),
        "reconnecting": QCoreApplication.translate("HostPanel", "reconnecting…"),
        "error": QCoreApplication.translate("HostPanel", "error"),
        "stopped": QCoreApplication.translate("HostPanel", "stopped"),
    }
    return names.get(state, state)


class HostPanel(QFrame):
    def __init__(self, host: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.host = host
        self.setObjectName(f"hostPanel:{host}")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setMinimumWidth(300)
        self.gpu_rows: dict[str, int] = {}  # uuid → row
        self.gpu_index: dict[str, int] = {}  # uuid → colour index
        self.state = "idle"
        self.error: str | None = None
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)
        self.title = PlainLabel(self)
        self.title.setObjectName("hostTitle")
        self.title.setStyleSheet("font-weight: 600; font-size: 14px;")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        head = QHBoxLayout()
        head.addWidget(self.title, 1)
        self.guard_button = QToolButton(self)
        self.guard_button.setObjectName("editGuards")
        self.guard_button.setText(self.tr("Edit guards…"))
        head.addWidget(self.guard_button)
        layout.addLayout(head)
        self.guard_label = PlainLabel(self)
        self.guard_label.setObjectName("guardBadge")
        self.guard_label.setWordWrap(True)
        self.guard_label.setStyleSheet("color: palette(mid);")
        layout.addWidget(self.guard_label)
        self.error_label = PlainLabel(self)
        self.error_label.setObjectName("hostError")
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.setStyleSheet(
            f"background: {theme.css('error_bg')}; color: {theme.css('error')}; "
            f"border: 1px solid {theme.css('error_border')}; border-radius: 3px; padding: 4px;")
        self.error_label.hide()
        layout.addWidget(self.error_label)
        self.plots = HostPlots(self)
        self.plots.setMinimumHeight(320)
        layout.addWidget(self.plots, 3)
        self.gpu_table = QTableWidget(0, 6, self)
        self.gpu_table.setObjectName("gpuTable")
        self.gpu_table.verticalHeader().hide()
        self.gpu_table.verticalHeader().setDefaultSectionSize(22)
        self.gpu_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.gpu_table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        # ResizeToContents would measure every cell on every change (each second): the columns are sized
        # per new GPU and when a reading no longer fits; in a narrow panel the GPU's name and its status
        # give up width (elided, whole in the tooltip), the readings never do
        fit_columns(self.gpu_table, GPU_ELIDED)
        # the GPUs and their processes share one place below the plots (all 8 GPU rows stay visible)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("hostTabs")
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.gpu_table, "")
        layout.addWidget(self.tabs, 1)
        self.proc_table = QTableWidget(0, 4, self)
        self.proc_table.setObjectName("processTable")
        self.proc_table.verticalHeader().hide()
        self.proc_table.verticalHeader().setDefaultSectionSize(22)
        self.proc_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        fit_columns(self.proc_table, PROC_ELIDED)
        self.tabs.addTab(self.proc_table, "")
        self.retranslate()
        self._update_title()

    def retranslate(self) -> None:
        # a unit under its name: the readings' columns no wider than their numbers need
        self.gpu_table.setHorizontalHeaderLabels([
            self.tr("GPU"), self.tr("Util."), unit_below(self.tr("Memory (GiB)")), self.tr("Temp."),
            unit_below(self.tr("Power (W)")), self.tr("Status")])
        self.gpu_table.setMinimumHeight(8 * 22 + self.gpu_table.horizontalHeader().sizeHint().height() + 4)
        self.proc_table.setHorizontalHeaderLabels([
            self.tr("GPU"), self.tr("PID"), self.tr("Process"), self.tr("Memory (MiB)")])
        self.tabs.setTabText(0, self.tr("GPUs"))
        self.tabs.setTabText(1, self.tr("Compute processes"))

    def set_guard(self, text: str) -> None:
        self.guard_label.setText(self.tr("Guards: {guards}").format(guards=text))

    def set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self._update_title()

    def _update_title(self) -> None:
        n = len(self.gpu_rows)
        text = self.tr("{host} — {state} · 1 GPU") if n == 1 else self.tr("{host} — {state} · {n} GPUs")
        self.title.setText(text.format(host=self.host, state=state_text(self.state), n=n))

    def set_error(self, error: str | None) -> None:
        if error == self.error:
            return
        self.error = error
        if error:
            self.error_label.setText(self.tr("nvidia-smi on {host}: {error}").format(host=self.host, error=error))
            self.error_label.show()
        else:
            self.error_label.hide()

    def color_index(self, uuid: str, index: int | None) -> int:
        if uuid not in self.gpu_index:
            self.gpu_index[uuid] = index if index is not None else len(self.gpu_index)
        return self.gpu_index[uuid]

    def show_sample(self, sample: HostSample) -> None:
        """The latest values in the tables (the plots are fed separately)."""
        self.set_error(sample.error)
        if sample.error:
            self._mark_no_data()
        new_gpu = grown = False
        for g in sample.gpus:
            ci = self.color_index(g.uuid, g.index)
            self.plots.ensure_curve(g.uuid, ci)
            row = self.gpu_rows.get(g.uuid)
            if row is None:
                row = self.gpu_rows[g.uuid] = self.gpu_table.rowCount()
                self.gpu_table.insertRow(row)
                new_gpu = True
            label = gpu_label(g.index, g.name)
            mem = pair(_gib(g.memory_used_mib), _gib(g.memory_total_mib), 1, "")
            status = g.status if g.status != "ok" else self.tr("ok")
            cells = [label, num(g.utilization_gpu, 0, " %"), mem, num(g.temperature_c, 0, " °C"),
                     pair(g.power_w, g.power_limit_w, 0, ""), status]
            for c, text in enumerate(cells):
                item = self.gpu_table.item(row, c)
                if item is None:
                    item = QTableWidgetItem(text)
                    if c == 0:
                        item.setForeground(QColor(gpu_color(ci)))
                        item.setToolTip(plain_tooltip(f"{g.name or ''}\n{g.uuid}".strip()))
                    if 1 <= c <= 4:
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    if c == 5:
                        item.setToolTip(plain_tooltip(text))
                    self.gpu_table.setItem(row, c, item)
                elif item.text() != text:
                    item.setText(text)
                    grown = grown or self._wider_than_column(self.gpu_table, c, text)
                    if c == 5:
                        item.setToolTip(plain_tooltip(text))
                if c == 5:
                    item.setForeground(theme.color("error") if g.status != "ok" else theme.color("ok"))
            self.plots.set_limit(g.uuid, ci, "memory_used_mib", _gib(g.memory_total_mib))
            self.plots.set_limit(g.uuid, ci, "power_w", g.power_limit_w)
        if new_gpu:
            self._update_title()
        if new_gpu or grown:
            refit(self.gpu_table, GPU_ELIDED)
        self._show_processes(sample)

    @staticmethod
    def _wider_than_column(table: QTableWidget, column: int, text: str) -> bool:
        """A reading that grew (286 → 1,024 W) and no longer fits its column (Qt's measure, as the columns
        are sized: the text, its margins and the grid line; cell_margin keeps one pixel spare)."""
        return table.fontMetrics().horizontalAdvance(text) + cell_margin(table) - 1 > table.columnWidth(column)

    def _mark_no_data(self) -> None:
        """The host failed: its GPUs' last values are no longer true, so they read N/A."""
        for row in self.gpu_rows.values():
            for c in range(1, 6):
                item = self.gpu_table.item(row, c)
                if item is None:
                    continue
                item.setText(self.tr("no data") if c == 5 else na())
                if c == 5:
                    item.setForeground(theme.color("error"))

    def _show_processes(self, sample: HostSample) -> None:
        procs = list(sample.processes)
        index_of = {g.uuid: g.index for g in sample.gpus}
        if sample.error and not procs:
            return  # keep the last known list while the host is failing
        grew = len(procs) != self.proc_table.rowCount()
        if grew:
            self.proc_table.setRowCount(len(procs))
        for r, p in enumerate(sorted(procs, key=lambda p: (index_of.get(p.gpu_uuid) or 0, p.pid))):
            idx = index_of.get(p.gpu_uuid)
            cells = [str(idx) if idx is not None else p.gpu_uuid[:12], str(p.pid), p.name,
                     num(p.used_memory_mib, 0)]
            for c, text in enumerate(cells):
                item = self.proc_table.item(r, c)
                if item is None:
                    item = QTableWidgetItem(text)
                    self.proc_table.setItem(r, c, item)
                elif item.text() != text:
                    item.setText(text)
                    grew = grew or self._wider_than_column(self.proc_table, c, text)
                else:
                    continue
                if c == 2:
                    item.setToolTip(plain_tooltip(text))
        if grew:
            refit(self.proc_table, PROC_ELIDED)
            self.tabs.setTabText(1, self.tr("Compute processes ({n})").format(n=len(procs)))

    def add_to_feeds(self, sample: HostSample) -> list[tuple[str, str]]:
        """Put a sample into the plot feeds; returns the keys touched. An error sample is a gap."""
        t = sample.time.timestamp()
        touched = []
        if sample.error:
            for key in list(self.plots.feeds):
                self.plots.feeds[key].add(t, None)
                touched.append(key)
            return touched
        for g in sample.gpus:
            for metric in PLOTTED:
                v = getattr(g, metric)
                if v is not None:
                    v = v * SCALE.get(metric, 1.0)
                self.plots.feed(g.uuid, metric).add(t, v)
                touched.append((g.uuid, metric))
        return touched


def _gib(mib: float | None) -> float | None:
    return None if mib is None else mib / 1024.0
