"""The CPU chart's legend never covers a core's bar (s13 walk: at 800 x 600 the legend sat on
the top of both lab cores' bars, busy at 100 %): it has a strip of its own above the plot."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from sbctune.measure.sampler_data import CpuLoad, PiSample
from sbctune.ui.theme import DARK, LIGHT
from sbctune.ui.widgets.live_plots import CpuLoadPlot


def _core(cpu: int, user: float, system: float, irq: float, softirq: float) -> CpuLoad:
    busy = user + system + irq + softirq
    return CpuLoad(cpu, user, 0.0, system, irq, softirq, 0.0, 0.0, 100.0 - busy, busy)


def _sample(cores: int) -> PiSample:
    # every core busy to 100 %: the tallest bars the chart draws
    cpus = [_core(i, 60.0, 25.0, 5.0, 10.0) for i in range(cores)]
    return PiSample(0.5, 0.5, 1.0, cpus, [], [], [], None, None)


def _bar_rects(plot: CpuLoadPlot) -> list[QRectF]:
    rects = []
    for bar in plot.bars.values():
        half = float(bar.opts["width"]) / 2
        for x, height, y0 in zip(*(bar.opts[k] for k in ("x", "height", "y0")), strict=True):
            rects.append(bar.mapRectToScene(QRectF(x - half, y0, 2 * half, height)))
    return [r for r in rects if r.height() > 0]


@pytest.mark.parametrize("cores", [1, 2, 4])
@pytest.mark.parametrize("width", [440, 540, 900])
def test_cpu_legend_covers_no_bar(gui_app: QApplication, cores: int, width: int) -> None:
    plot = CpuLoadPlot(LIGHT)
    plot.resize(width, plot.height())
    plot.show()
    plot.show_sample(_sample(cores))
    plot.apply_theme(DARK)  # the legend is rebuilt: it stays out of the way
    gui_app.processEvents()
    legend = plot.legend.sceneBoundingRect()
    assert legend.width() > 0 and legend.height() > 0
    assert len(plot.legend.items) == 4
    bars = _bar_rects(plot)
    assert len(bars) == 4 * cores
    covered = [b for b in bars if b.intersects(legend)]
    assert not covered, (legend, covered)
    item = plot.getPlotItem()
    assert legend.bottom() <= item.vb.sceneBoundingRect().top(), legend
    assert plot.rect().contains(plot.mapFromScene(legend).boundingRect())
    plot.close()
