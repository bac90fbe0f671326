"""Grouped bars: each direction × mode, one bar per run (before/after, or several runs)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from sbctune.measure.plans import DIRECTION_LABEL
from sbctune.ui.controllers.results import ResultRow
from sbctune.ui.mode_words import mode_words
from sbctune.ui.settings import Units
from sbctune.ui.theme import Colors
from sbctune.ui.units import scale
from sbctune.ui.widgets.common import PassesTheWheel
from sbctune.ui.widgets.live_plots import (
    reserve_legend_strip,
    strip_legend,
    style_axes,
    style_legend,
)
from sbctune.ui.widgets.plot_heights import CHART_HEIGHT
from sbctune.ui.widgets.plot_menus import menus_off


def _half_width(row: ResultRow, run_index: int) -> float:
    halves = row.half_widths or []
    return (halves[run_index] if run_index < len(halves) else None) or 0.0


def _palette(colors: Colors, n: int, first: int = 0) -> list[str]:
    """`first`: the colour of the first run (1: an "after" without its "before" keeps the
    after's colour, not the before's grey)."""
    base = [colors.muted, colors.accent, colors.pc_to_pi, colors.good, colors.warning]
    return [base[(i + first) % len(base)] for i in range(n)]


LEGEND_COLUMNS = 4  # runs side by side in the legend's strip; more take a second line


class CompareChart(PassesTheWheel, pg.PlotWidget):  # type: ignore[misc]
    def __init__(self, colors: Colors) -> None:
        super().__init__()
        self.setFixedHeight(CHART_HEIGHT)
        self.getPlotItem().getAxis("bottom").setHeight(44)
        item = self.getPlotItem()
        menus_off(self)
        item.hideButtons()
        item.showGrid(y=True, alpha=0.15)
        self.setMouseEnabled(x=False, y=False)
        # The legend has a strip of its own above the plot (row 0 of the plot's layout, the
        # title's, which the chart does not use), so it never covers a bar (s12 walk: it sat
        # on the first one when anchored inside the plot).
        self.legend = strip_legend(item, LEGEND_COLUMNS)
        self._colors = colors
        self._data: tuple[list[str], list[ResultRow], Units, int] | None = None
        self.bars: list[pg.BarGraphItem] = []
        self.error_bars: list[pg.ErrorBarItem] = []  # each run's 95 % interval from its trials
        self.apply_theme(colors)

    def apply_theme(self, colors: Colors) -> None:
        self._colors = colors
        self.setBackground(colors.background)
        style_axes(self.getPlotItem(), colors)
        style_legend(self.legend, colors)
        if self._data is not None:
            self.show_rows(*self._data)

    def show_rows(
        self, labels: list[str], rows: list[ResultRow], units: Units, first_colour: int = 0
    ) -> None:
        self._data = (labels, rows, units, first_colour)
        for item in [*self.bars, *self.error_bars]:
            self.removeItem(item)
        self.bars, self.error_bars = [], []
        self.legend.clear()
        n = max(1, len(labels))
        width = 0.8 / n
        div = scale(units)
        peak = 0.0
        for run_index, (name, color) in enumerate(
            zip(labels, _palette(self._colors, n, first_colour), strict=True)
        ):
            xs, heights, halves = [], [], []
            for group, row in enumerate(rows):
                value = row.values[run_index] if run_index < len(row.values) else None
                if value is None:
                    continue
                half = _half_width(row, run_index) / div
                xs.append(group - 0.4 + width * (run_index + 0.5))
                heights.append(value / div)
                halves.append(half)
                peak = max(peak, value / div + half)
            bar = pg.BarGraphItem(x=xs, height=heights, width=width * 0.9, brush=color, pen=None)
            self.addItem(bar)
            self.bars.append(bar)
            if any(halves):
                self._add_error_bars(xs, heights, halves, width)
            self.legend.addItem(bar, name)
        reserve_legend_strip(self.getPlotItem(), self.legend)
        self._ticks(rows, units, peak)

    def _add_error_bars(
        self, xs: list[float], heights: list[float], halves: list[float], width: float
    ) -> None:
        errors = pg.ErrorBarItem(
            x=np.array(xs),
            y=np.array(heights),
            height=2 * np.array(halves),
            beam=width * 0.3,
            pen=pg.mkPen(self._colors.foreground, width=1.5),
        )
        self.addItem(errors)
        self.error_bars.append(errors)

    def _ticks(self, rows: list[ResultRow], units: Units, peak: float) -> None:
        ticks = [
            (i, f"{DIRECTION_LABEL[r.direction]}\n{mode_words(r.mode)}") for i, r in enumerate(rows)
        ]
        self.getPlotItem().getAxis("bottom").setTicks([ticks])
        self.getPlotItem().setLabel("left", units)
        self.setXRange(-0.6, max(0, len(rows) - 1) + 0.6, padding=0)
        self.setYRange(0, (peak or 1) * 1.1, padding=0)  # no legend to leave room for
