"""The live plots: throughput per direction against time, and the Pi's per-core load."""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QColor

from sbctune.measure.plans import DIRECTION_LABEL, DIRECTIONS
from sbctune.measure.sampler import PiSample
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.settings import Units
from sbctune.ui.theme import Colors
from sbctune.ui.units import scale
from sbctune.ui.widgets.common import PassesTheWheel
from sbctune.ui.widgets.latency_scale import LatencyScale, latency_scale, spike_ms
from sbctune.ui.widgets.plot_heights import CPU_HEIGHT, LATENCY_HEIGHT, THROUGHPUT_HEIGHT
from sbctune.ui.widgets.plot_menus import menus_off
from sbctune.wording import counted

HEADROOM = 1.3  # the throughput plot's top, as a multiple of the line rate or the peak
LEGEND_GAP = 4  # pixels between a legend's strip and its plot


def style_axes(plot: pg.PlotItem, colors: Colors) -> None:
    for axis in ("left", "bottom"):
        ax = plot.getAxis(axis)
        ax.setPen(pg.mkPen(colors.muted))
        ax.setTextPen(pg.mkPen(colors.foreground))
        # Major ticks and one minor level: the finest level's grid lines (hundreds of
        # translucent lines) made each repaint of the two live plots cost ~16 ms instead of ~4.
        ax.setStyle(maxTickLevel=1)


def style_legend(legend: pg.LegendItem, colors: Colors) -> None:
    """Legend text on the plot's own background, not on the data lines it overlaps."""
    backdrop = QColor(colors.background)
    backdrop.setAlpha(235)
    legend.setBrush(backdrop)
    legend.setPen(pg.mkPen(colors.muted))
    legend.setLabelTextColor(colors.foreground)
    for _sample, text in legend.items:  # labels made before keep their colour otherwise
        text.setText(text.text, color=colors.foreground)


TITLE_ROW = 30  # pixels: the height pyqtgraph's PlotItem.setTitle gives the title's row


def strip_legend(item: pg.PlotItem, columns: int, *, below_title: bool = False) -> pg.LegendItem:
    """A legend in a strip of its own above the plot, so it never covers data: row 0 of the
    plot's layout (the title's, for a plot without one), or row 1 (the top axis's, not shown)
    below a title. `reserve_legend_strip` sizes the strip."""
    legend = pg.LegendItem(offset=None, colCount=columns)
    legend.setParentItem(item)
    top = TITLE_ROW if below_title else 0
    legend.anchor(itemPos=(0.5, 0), parentPos=(0.5, 0), offset=(0, top + 2))
    return legend


def reserve_legend_strip(
    item: pg.PlotItem, legend: pg.LegendItem, *, below_title: bool = False
) -> None:
    """The plot starts below the legend: the strip's row as tall as the legend."""
    legend.updateSize()
    height = legend.boundingRect().height() + LEGEND_GAP if legend.items else 0.0
    item.layout.setRowFixedHeight(1 if below_title else 0, height)


class ThroughputPlot(PassesTheWheel, pg.PlotWidget):  # type: ignore[misc]
    """Mbit/s (or Gbit/s) per direction over the run; omitted seconds shaded; line rate drawn."""

    def __init__(self, colors: Colors, units: Units) -> None:
        super().__init__()
        self.setFixedHeight(THROUGHPUT_HEIGHT)
        self._units = units
        self._colors = colors
        item = self.getPlotItem()
        item.showGrid(x=True, y=True, alpha=0.15)
        menus_off(self)
        item.hideButtons()
        self.setMouseEnabled(x=False, y=False)
        # A strip of its own above the plot (walk 14: inside it, it sat over the first
        # seconds and their shading).
        self.legend = strip_legend(item, 2)
        self.curves = {
            d: self.plot([], [], name=DIRECTION_LABEL[d], connect="finite")
            for d in ("pi_to_pc", "pc_to_pi")
        }
        for curve in self.curves.values():
            self.legend.addItem(curve, curve.name())
        reserve_legend_strip(item, self.legend)
        self.line_rate = pg.InfiniteLine(angle=0, movable=False)
        self.line_rate.hide()
        self.addItem(self.line_rate)
        self._regions: list[pg.LinearRegionItem] = []
        self._laid_out_seconds = 0.0
        self._live: LiveMeasurement | None = None
        self.apply_theme(colors)
        self.set_units(units)

    def apply_theme(self, colors: Colors) -> None:
        self._colors = colors
        self.setBackground(colors.background)
        item = self.getPlotItem()
        style_axes(item, colors)
        self.curves["pi_to_pc"].setPen(pg.mkPen(colors.pi_to_pc, width=2))
        self.curves["pc_to_pi"].setPen(pg.mkPen(colors.pc_to_pi, width=2))
        self.line_rate.setPen(pg.mkPen(colors.line_rate, width=1.5, style=pg.QtCore.Qt.DashLine))
        style_legend(self.legend, colors)
        for region in self._regions:
            self._shade(region)

    def _shade(self, region: pg.LinearRegionItem) -> None:
        fill = QColor(self._colors.omitted)
        fill.setAlpha(60)
        region.setBrush(fill)
        for line in region.lines:
            line.setPen(pg.mkPen(None))

    def set_units(self, units: Units) -> None:
        self._units = units
        item = self.getPlotItem()
        item.setLabel("left", units)
        item.setLabel("bottom", "seconds")
        if self._live is not None:
            self.set_live(self._live)

    def set_live(self, live: LiveMeasurement) -> None:
        """A new run: axis range, shaded omitted spans and the line rate from its plan (again
        when extra trials lengthen the run: refresh sees the longer total)."""
        self._live = live
        self._laid_out_seconds = live.total_seconds
        for region in self._regions:
            self.removeItem(region)
        self._regions = []
        for start, end in live.omitted_spans():
            region = pg.LinearRegionItem(values=(start, end), movable=False)
            region.setZValue(-10)
            self._shade(region)
            self.addItem(region)
            self._regions.append(region)
        div = scale(self._units)
        if live.line_rate_mbps:
            self.line_rate.setValue(live.line_rate_mbps / div)
            self.line_rate.setToolTip(f"link line rate: {live.line_rate_mbps:g} Mbit/s")
            self.line_rate.show()
        else:
            self.line_rate.hide()
        top = (live.line_rate_mbps or 100.0) * HEADROOM / div
        self.setXRange(0, max(live.total_seconds, 1), padding=0.01)
        self.setYRange(0, top, padding=0)
        self.refresh(force=True)

    def refresh(self, *, force: bool = False) -> None:
        live = self._live
        if live is None or not (live.dirty or force):
            return
        if live.total_seconds != self._laid_out_seconds:  # extra trials: the axis grows
            self.set_live(live)
            return
        div = scale(self._units)
        peak = 0.0
        for direction in DIRECTIONS:
            curve = self.curves[direction]
            series = live.series[direction]
            ys = [y / div for y in series.ys]
            curve.setData(series.xs, ys)
            finite = [y for y in ys if not math.isnan(y)]
            peak = max([peak, *finite])
        top = max((live.line_rate_mbps or 0) / div, peak) * HEADROOM or 100.0 / div
        self.setYRange(0, top, padding=0)
        live.dirty = False


class LatencyPlot(PassesTheWheel, pg.PlotWidget):  # type: ignore[misc]
    """The latency probes' round trips (ms) on the throughput plot's time axis: dots on the
    idle link before each test, a line while it runs. A line well above the dots is a queue."""

    def __init__(self, colors: Colors, throughput: ThroughputPlot) -> None:
        super().__init__()
        self.setFixedHeight(LATENCY_HEIGHT)
        item = self.getPlotItem()
        item.showGrid(x=True, y=True, alpha=0.15)
        menus_off(self)
        item.hideButtons()
        self.setMouseEnabled(x=False, y=False)
        item.setLabel("left", "ms")
        self.setXLink(throughput)
        self._title = "Latency: round trip of the probes"
        # Below the title, above the plot: on no probe (s13 walk: in the top right corner it hid
        # the last seconds' highest round trips).
        self.legend = strip_legend(item, 2, below_title=True)
        self.loaded = self.plot([], [], name="under load", connect="finite")
        self.idle = self.plot([], [], name="idle", pen=None, symbol="o", symbolSize=4)
        self.legend.addItem(self.loaded, "under load")
        self.legend.addItem(self.idle, "idle")
        reserve_legend_strip(item, self.legend, below_title=True)
        # A spike above the scale: its value where it leaves the plot (ui/widgets/latency_scale).
        self.spike = pg.TextItem(anchor=(0.5, 0))
        self.spike.setZValue(10)
        self.spike.hide()
        self.addItem(self.spike, ignoreBounds=True)
        self._live: LiveMeasurement | None = None
        self._points = -1
        self.apply_theme(colors)

    def apply_theme(self, colors: Colors) -> None:
        self.setBackground(colors.background)
        style_axes(self.getPlotItem(), colors)
        style_legend(self.legend, colors)
        backdrop = QColor(colors.background)
        backdrop.setAlpha(235)
        self.spike.setColor(colors.foreground)
        self.spike.fill = pg.mkBrush(backdrop)
        self.spike.border = pg.mkPen(colors.muted)
        self.getPlotItem().setTitle(self._title, color=colors.foreground, size="9pt")
        self.loaded.setPen(pg.mkPen(colors.line_rate, width=1.5))
        self.idle.setSymbolBrush(colors.muted)
        self.idle.setSymbolPen(pg.mkPen(colors.muted))

    def set_live(self, live: LiveMeasurement) -> None:
        self._live = live
        self._points = -1
        self.refresh()

    def refresh(self) -> None:
        live = self._live
        if live is None:
            return
        count = len(live.latency.xs) + len(live.latency_idle.xs)
        if count == self._points:
            return  # nothing new: no repaint
        self._points = count
        self.loaded.setData(live.latency.xs, live.latency.ys)
        # Dots need no gaps: a NaN (a lost probe) only upsets the scatter's bounds.
        idle = live.latency_idle
        dots = [(x, y) for x, y in zip(idle.xs, idle.ys, strict=False) if not math.isnan(y)]
        self.idle.setData([x for x, _ in dots], [y for _, y in dots])
        points = [
            *zip(live.latency.xs, live.latency.ys, strict=False),
            *zip(idle.xs, idle.ys, strict=False),
        ]
        self.show_scale(latency_scale(points))

    def show_scale(self, scale: LatencyScale) -> None:
        """The scale from the bulk of the probes; a spike above it keeps its value in sight."""
        self.setYRange(0, scale.top, padding=0)
        if not scale.clipped:
            self.spike.hide()
            return
        words = f"\u2191 {spike_ms(scale.peak)}"
        if scale.clipped > 1:
            words += f" (highest of {counted(scale.clipped, 'probe')} off the scale)"
        self.spike.setText(words)
        # At the top edge, under the spike: the clipped line points at it.
        # Centred on it, or its end at the plot's edge: the value is never cut off at a side.
        left, right = self.getPlotItem().vb.viewRange()[0]
        place = (scale.peak_x - left) / (right - left) if right > left else 0.5
        self.spike.setAnchor((min(1.0, max(0.0, (place - 0.15) / 0.7)), 0))
        self.spike.setPos(scale.peak_x, scale.top)
        self.spike.show()


# Plain names in the legend (issue 22 walk); the kernel's terms are in the plot's tooltip.
_CPU_PARTS = (
    ("user", "cpu_user", "programs"),
    ("system", "cpu_system", "kernel"),
    ("irq", "cpu_irq", "interrupts"),
    ("softirq", "cpu_softirq", "packet work"),
)
CPU_TOOLTIP = (
    "How busy each core of the Pi is, by what it works on:\n"
    "programs: programs such as iperf3 (the kernel calls it \u201cuser\u201d time)\n"
    "kernel: the kernel working for them (\u201csystem\u201d)\n"
    "interrupts: the network adapter's interrupts (\u201cirq\u201d)\n"
    "packet work: the kernel handling the packets after an interrupt (\u201csoftirq\u201d); "
    "a core near 100 % here limits the speed"
)


class CpuLoadPlot(PassesTheWheel, pg.PlotWidget):  # type: ignore[misc]
    """A stacked bar per core: user, system, irq, softirq (the network's work is the last two)."""

    def __init__(self, colors: Colors) -> None:
        super().__init__()
        self.setFixedHeight(CPU_HEIGHT)
        self.setToolTip(CPU_TOOLTIP)
        item = self.getPlotItem()
        menus_off(self)
        item.hideButtons()
        self.setMouseEnabled(x=False, y=False)
        item.setLabel("left", "% of core")
        item.showGrid(y=True, alpha=0.15)
        # The legend has a strip above the plot: it never covers a busy core's bar (s13 walk:
        # the headroom above 100 % left for it inside the plot was too low at 800 x 600).
        self.setYRange(0, 105, padding=0)
        item.getAxis("left").setTicks([[(v, str(v)) for v in (0, 25, 50, 75, 100)]])
        self.legend = strip_legend(item, 4)
        self.bars: dict[str, pg.BarGraphItem] = {}
        for field, _color, name in _CPU_PARTS:
            bar = pg.BarGraphItem(x=[], height=[], width=0.6, y0=[], name=name)
            self.addItem(bar)
            self.bars[field] = bar
        self._sample: PiSample | None = None
        self.apply_theme(colors)

    def apply_theme(self, colors: Colors) -> None:
        self.setBackground(colors.background)
        style_axes(self.getPlotItem(), colors)
        style_legend(self.legend, colors)
        for field, color_key, _name in _CPU_PARTS:
            color = getattr(colors, color_key)
            self.bars[field].setOpts(brush=color, pen=pg.mkPen(color))
        # The legend keeps the old swatches; rebuild it with the new brushes.
        self.legend.clear()
        for field, _color, name in _CPU_PARTS:
            self.legend.addItem(self.bars[field], name)
        reserve_legend_strip(self.getPlotItem(), self.legend)

    def show_sample(self, sample: PiSample | None) -> None:
        if sample is None or sample is self._sample:
            return
        self._sample = sample
        cores = sample.cpus
        xs = [c.cpu for c in cores]
        base = [0.0] * len(cores)
        for field, _color, _name in _CPU_PARTS:
            if field == "user":
                heights = [c.user + c.nice for c in cores]
            else:
                heights = [getattr(c, field) for c in cores]
            self.bars[field].setOpts(x=xs, height=heights, y0=list(base))
            base = [b + h for b, h in zip(base, heights, strict=True)]
        axis = self.getPlotItem().getAxis("bottom")
        axis.setTicks([[(c.cpu, f"cpu{c.cpu}") for c in cores]])
        if xs:
            self.setXRange(min(xs) - 0.6, max(xs) + 0.6, padding=0)
