"""The plots of one host: utilization, memory, temperature and power, one curve per GPU.

Drawing 24 h at 1 Hz for 8 GPUs × 4 metrics would be 2.7 million points per host; what the
screen can show is about one point pair per pixel column. So each curve is fed from a
:class:`PeakBins` buffer: the visible time range split into bins of ``bin_s`` seconds (about one per
pixel), each bin drawn as its minimum and maximum (peak downsampling: a one-second spike stays
visible), NaN where nothing is known (a gap, ``connect='finite'``). A new sample updates the last
bin or adds one — nothing is recomputed per tick — and the whole range is rebuilt from the
history only when the user zooms or pans (so the feeds are clipped to the view), and a curve is
handed new arrays only when its feed changed. Curves are plain ``PlotCurveItem``s (pyqtgraph's
PlotDataItem would redo its own clipping and downsampling on every range change): pen width 1,
no antialiasing, ``skipFiniteCheck``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QCoreApplication, QRectF, Qt
from PySide6.QtWidgets import QGraphicsItem

from app.ui import theme

# The metrics drawn, their plot titles and units. Memory and power also draw the GPU's total/limit.
PLOTTED = ("utilization_gpu", "memory_used_mib", "temperature_c", "power_w")
GPU_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf")

pg.setConfigOptions(antialias=False, background="w", foreground="#333333")


def plot_title(metric: str) -> str:
    titles = {
        "utilization_gpu": QCoreApplication.translate("MonitorPlots", "Utilization (%)"),
        "memory_used_mib": QCoreApplication.translate("MonitorPlots", "Memory used (GiB)"),
        "temperature_c": QCoreApplication.translate("MonitorPlots", "Temperature (°C)"),
        "power_w": QCoreApplication.translate("MonitorPlots", "Power (W)"),
    }
    return titles.get(metric, metric)


def gpu_color(index: int) -> str:
    return GPU_COLORS[index % len(GPU_COLORS)]


# Values are shown scaled: memory in GiB.
SCALE = {"memory_used_mib": 1 / 1024.0, "memory_total_mib": 1 / 1024.0}


MAX_JUMP_BINS = 100_000


class PeakBins:
    """Min/max per time bin over [t0, …), as interleaved (x, y) arrays ready for a curve."""

    def __init__(self, t0: float, bin_s: float, capacity: int = 1024) -> None:
        self.t0 = float(t0)
        self.bin_s = max(1.0, float(bin_s))
        self.n = 0  # bins in use
        self.version = 0  # bumped on every visible change
        self.loads = 0  # bumped when the whole feed is rebuilt
        self.lo = np.full(capacity, np.nan)
        self.hi = np.full(capacity, np.nan)
        self.x = np.empty(2 * capacity)
        self.y = np.full(2 * capacity, np.nan)

    def _grow(self, need: int) -> None:
        cap = len(self.lo)
        if need <= cap:
            return
        new = max(need, cap * 2)
        for name in ("lo", "hi"):
            arr = np.full(new, np.nan)
            arr[:cap] = getattr(self, name)
            setattr(self, name, arr)
        x = np.empty(2 * new)
        x[: 2 * cap] = self.x
        y = np.full(2 * new, np.nan)
        y[: 2 * cap] = self.y
        self.x, self.y = x, y

    def _set_x(self, start: int, stop: int) -> None:
        centres = self.t0 + (np.arange(start, stop) + 0.5) * self.bin_s
        self.x[2 * start: 2 * stop: 2] = centres
        self.x[2 * start + 1: 2 * stop: 2] = centres

    def load(self, t: np.ndarray, v: np.ndarray) -> None:
        """Replace the contents with the samples (t ascending, v with NaN for unknown)."""
        self.version += 1
        self.loads += 1
        self.n = 0
        if len(t) == 0:
            return
        idx = np.floor((t - self.t0) / self.bin_s).astype(np.int64)
        keep = idx >= 0
        idx, v = idx[keep], v[keep]
        if len(idx) == 0:
            return
        n = int(idx[-1]) + 1
        self._grow(n)
        self.lo[:n] = np.nan
        self.hi[:n] = np.nan
        starts = np.flatnonzero(np.r_[True, idx[1:] != idx[:-1]])
        bins = idx[starts]
        with np.errstate(invalid="ignore"):
            self.lo[bins] = np.fmin.reduceat(v, starts)
            self.hi[bins] = np.fmax.reduceat(v, starts)
        self.n = n
        self._set_x(0, n)
        self.y[0: 2 * n: 2] = self.lo[:n]
        self.y[1: 2 * n: 2] = self.hi[:n]

    def add(self, t: float, v: float | None) -> None:
        """One new sample (at or after the last one)."""
        b = int(math.floor((t - self.t0) / self.bin_s))
        if b < 0:
            return
        if b > self.n + MAX_JUMP_BINS:  # a clock jump: start over here rather than fill the gap
            self.t0, self.n, b = t, 0, 0
            self.version += 1
        if b >= self.n:
            self._grow(b + 1)
            self.lo[self.n: b + 1] = np.nan
            self.hi[self.n: b + 1] = np.nan
            self.y[2 * self.n: 2 * (b + 1)] = np.nan
            self._set_x(self.n, b + 1)
            self.n = b + 1
            self.version += 1
        if v is None or not math.isfinite(v):
            return
        lo, hi = self.lo[b], self.hi[b]
        if not (lo <= v):  # also true when lo is NaN
            self.lo[b] = v
            self.y[2 * b] = v
            self.version += 1
        if not (hi >= v):
            self.hi[b] = v
            self.y[2 * b + 1] = v
            self.version += 1

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(x, y) for the curve. Runs of NaN collapse to one NaN: a gap needs only one, and
        pyqtgraph's connect='finite' path building splits at every single NaN."""
        x, y = self.x[: 2 * self.n], self.y[: 2 * self.n]
        gap = np.isnan(y)
        if not gap.any():
            return x, y
        keep = ~gap
        keep[1:] |= gap[1:] & ~gap[:-1]  # the first NaN of each run
        start = int(np.argmax(~gap)) if (~gap).any() else len(y)
        keep[:start] = False  # nothing before the first known value
        return x[keep], y[keep]


class FastCurve(pg.PlotCurveItem):
    """A curve whose bounds come from its x ends and a fixed value band, not from scanning the data.

    The plots never auto-range (time is set by the page, values have fixed scales), so pyqtgraph's
    per-paint nanmin/nanmax over every point only served scene culling; here a cheap rectangle
    does (a curve is always inside its plot anyway).
    """

    Y_BAND = (-1.0e3, 1.0e6)

    def __init__(self, *args: object, **kwargs: object) -> None:
        self._fast_rect: QRectF | None = None
        super().__init__(*args, **kwargs)

    def invalidateBounds(self) -> None:  # noqa: N802 - pyqtgraph override
        self._fast_rect = None
        super().invalidateBounds()

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange: object = None) -> tuple[float | None, float | None]:  # noqa: N802,N803
        x = self.xData
        if x is None or len(x) == 0:
            return (None, None)
        if ax == 0:
            return (float(x[0]), float(x[-1]))
        return self.Y_BAND

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        if self._fast_rect is None:
            x0, x1 = self.dataBounds(0)
            if x0 is None or x1 is None:
                self._fast_rect = QRectF()
            else:
                y0, y1 = self.Y_BAND
                self._fast_rect = QRectF(x0, y0, max(x1 - x0, 1.0), y1 - y0)
        return self._fast_rect


LABEL_PX = 28  # at least this many pixels between two labelled values on a value axis


class ValueAxis(pg.AxisItem):
    """A value axis that labels fewer values when its plot is short: at most one label every LABEL_PX
    pixels (two at the least), and no minor ticks under 160 px, so a short plot's labels never crowd."""

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:  # noqa: N802,N803
        levels = list(super().tickSpacing(minVal, maxVal, size))
        dif = abs(maxVal - minVal)
        if not levels or dif == 0 or size <= 0:
            return levels
        most = max(2, int(size // LABEL_PX))
        lo, hi = sorted((minVal, maxVal))

        def count(step: float) -> int:
            return math.floor(hi / step + 1e-9) - math.ceil(lo / step - 1e-9) + 1

        major = levels[0][0]
        while count(major) > most:  # the next round step up (1, 2, 5 × 10^n) while two labels remain
            exp = math.floor(math.log10(major))
            base = major / 10 ** exp
            up = next((m for m in (2.0, 2.5, 5.0, 10.0) if m > base + 1e-9), 10.0) * 10 ** exp
            if count(up) < 2:
                break
            major = up
        if count(major) > most:  # still crowded: label only the lowest and the highest round value
            first = math.ceil(lo / major - 1e-9) * major
            last = math.floor(hi / major + 1e-9) * major
            return [(last - first, first)]
        if size < 160 or major != levels[0][0]:
            return [(major, 0.0)]  # minor ticks only on a tall plot, and only under pyqtgraph's own major
        return levels[:2]


def bin_seconds(span_s: float, width_px: int) -> float:
    """About one bin per pixel column, in whole seconds (at least 1 s: the sample rate)."""
    return float(max(1, math.ceil(span_s / max(50, width_px))))


class HostPlots(pg.GraphicsLayoutWidget):
    """Four stacked plots of one host with a shared, linked time axis."""

    def __init__(self, parent: object = None) -> None:
        # the plots' background and axes follow the light or dark scheme (read when they are built)
        dark = theme.is_dark()
        pg.setConfigOptions(background="#1e1e1e" if dark else "w", foreground="#d0d0d0" if dark else "#333333")
        super().__init__(parent=parent)
        self.setObjectName("hostPlots")
        self.ci.setContentsMargins(2, 2, 2, 2)
        self.ci.setSpacing(2)
        self.plots: dict[str, pg.PlotItem] = {}
        self.curves: dict[tuple[str, str], FastCurve] = {}  # (uuid, metric) → curve
        self.pushed: dict[tuple[str, str], tuple[int, int, int]] = {}  # what each curve was last given
        self.limit_lines: dict[tuple[str, str], pg.InfiniteLine] = {}
        self.feeds: dict[tuple[str, str], PeakBins] = {}
        self._steps_plot: pg.PlotItem | None = None  # training steps/s: made when a job of the host shows
        self.steps_curves: dict[str, pg.PlotCurveItem] = {}  # job id → its curve
        for row, metric in enumerate(PLOTTED):
            axis = pg.DateAxisItem(orientation="bottom")
            p = self.addPlot(row=row, col=0, axisItems={"bottom": axis, "left": ValueAxis(orientation="left")})
            p.setTitle(plot_title(metric), size="9pt")
            p.setMenuEnabled(False)
            p.setMouseEnabled(x=True, y=False)
            p.hideButtons()
            p.showGrid(x=False, y=False)  # grid lines cost ~25 % of each repaint; dashed limits stay
            p.getAxis("left").setWidth(34)
            if row < len(PLOTTED) - 1:
                p.hideAxis("bottom")  # one time axis, under the last plot
            for name in ("left", "bottom"):
                axis_item = p.getAxis(name)
                axis_item.enableAutoSIPrefix(False)
            # the value axis does not change while time moves: paint it from a pixmap cache
            p.getAxis("left").setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            if metric == "utilization_gpu":
                p.setYRange(0, 100, padding=0.02)
            elif metric == "temperature_c":
                p.setYRange(20, 95, padding=0.02)
            p.enableAutoRange(axis="y", enable=False)
            self.plots[metric] = p
        first = self.plots[PLOTTED[0]]
        for metric in PLOTTED[1:]:
            self.plots[metric].setXLink(first)

    def main_plot(self) -> pg.PlotItem:
        return self.plots[PLOTTED[0]]

    # training steps/s, beside the GPUs' utilization ---------------------------------------------------
    def steps_plot(self) -> pg.PlotItem:
        """The plot of the host's training jobs' steps/s, made on first use right under utilization (the
        other plots move down a row), on the shared time axis; its values scale to what the jobs do."""
        if self._steps_plot is not None:
            return self._steps_plot
        for row in range(len(PLOTTED) - 1, 0, -1):  # memory, temperature, power: one row down
            item = self.plots[PLOTTED[row]]
            self.ci.removeItem(item)
            self.ci.addItem(item, row=row + 1, col=0)
        plot = self.ci.addPlot(row=1, col=0, axisItems={"left": ValueAxis(orientation="left")})
        plot.setTitle(QCoreApplication.translate("MonitorPlots", "Training steps/s"), size="9pt")
        plot.setMenuEnabled(False)
        plot.setMouseEnabled(x=True, y=False)
        plot.hideButtons()
        plot.hideAxis("bottom")
        plot.getAxis("left").setWidth(34)
        plot.getAxis("left").enableAutoSIPrefix(False)
        plot.enableAutoRange(axis="x", enable=False)  # time is the page's (linked), never the data's
        plot.enableAutoRange(axis="y", enable=True)
        plot.setXLink(self.main_plot())
        self.setMinimumHeight(self.minimumHeight() * (len(PLOTTED) + 1) // len(PLOTTED))  # as tall a row as the rest
        self._steps_plot = plot
        return plot

    def show_steps(self, series: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
        """One curve per job (job id → (times, steps/s)); a job no longer given keeps its curve until the
        plot is rebuilt (its run stays visible in the window)."""
        plot = self.steps_plot()
        for i, (job, (t, v)) in enumerate(sorted(series.items())):
            curve = self.steps_curves.get(job)
            if curve is None:
                curve = pg.PlotCurveItem(pen=pg.mkPen(GPU_COLORS[-1 - i % len(GPU_COLORS)], width=1),
                                         connect="finite", antialias=False)
                plot.addItem(curve)
                self.steps_curves[job] = curve
            curve.setData(t, v, connect="finite")

    def ensure_curve(self, uuid: str, index: int) -> None:
        for metric in PLOTTED:
            key = (uuid, metric)
            if key in self.curves:
                continue
            pen = pg.mkPen(gpu_color(index), width=1)
            c = FastCurve(pen=pen, connect="finite", antialias=False, skipFiniteCheck=True)
            self.plots[metric].addItem(c)
            self.curves[key] = c

    def set_limit(self, uuid: str, index: int, metric: str, value: float | None) -> None:
        """A dashed line at a GPU's memory total or power limit (and the y range to fit it)."""
        key = (uuid, metric)
        line = self.limit_lines.get(key)
        if value is None or not math.isfinite(value):
            if line is not None:
                line.hide()
            return
        if line is None:
            line = pg.InfiniteLine(angle=0, movable=False,
                                   pen=pg.mkPen(gpu_color(index), width=1, style=Qt.PenStyle.DashLine))
            self.plots[metric].addItem(line, ignoreBounds=True)
            self.limit_lines[key] = line
        if line.value() != value:
            line.setValue(value)
        line.show()
        top = max((ln.value() for (_u, m), ln in self.limit_lines.items() if m == metric and ln.isVisible()),
                  default=value)
        plot = self.plots[metric]
        if abs(plot.viewRange()[1][1] - top * 1.05) > 1e-6 * max(1.0, top):
            plot.setYRange(0, top * 1.05, padding=0)

    def reset_feeds(self, t0: float, bin_s: float, phase: float = 0.0) -> None:
        """New feeds from t0 - phase × bin_s (phase in [0, 1): the bins' offset for this host)."""
        start = t0 - phase * bin_s
        self.feeds = {key: PeakBins(start, bin_s) for key in self.curves}
        self.pushed.clear()

    def feed(self, uuid: str, metric: str) -> PeakBins:
        key = (uuid, metric)
        f = self.feeds.get(key)
        if f is None:
            any_feed = next(iter(self.feeds.values()), None)
            f = PeakBins(any_feed.t0 if any_feed else 0.0, any_feed.bin_s if any_feed else 1.0)
            self.feeds[key] = f
        return f

    def push(self, keys: Sequence[tuple[str, str]] | None = None) -> None:
        """Give the curves their feeds' arrays (only the listed ones, or all)."""
        for key in keys if keys is not None else list(self.feeds):
            curve = self.curves.get(key)
            f = self.feeds.get(key)
            if curve is None or f is None:
                continue
            # A curve is handed new arrays when a bin closes (or the feed was rebuilt): the newest bin
            # is about one pixel wide, so its growth shows one bin later (≤ bin_s); with the bins of
            # each host shifted by a phase, hosts close bins on different seconds and a redraw repaints
            # one host's plots, not all of them.
            stamp = (id(f), f.loads, f.n) if f.bin_s > 1 else (id(f), f.loads, f.version)
            if self.pushed.get(key) == stamp:
                continue
            self.pushed[key] = stamp
            x, y = f.arrays()
            curve.setData(x, y, connect="finite", skipFiniteCheck=True)

    def set_x_range(self, t0: float, t1: float) -> None:
        self.main_plot().setXRange(t0, t1, padding=0)
