"""The latency plot's legend never covers its probes (s13 walk: at 800 x 600 the legend, in
the plot's top right corner, hid the last seconds' highest round trips): it has a strip of its
own between the title and the plot."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.ui.theme import DARK, LIGHT
from sbctune.ui.widgets.live_plots import LatencyPlot, ThroughputPlot


@pytest.mark.parametrize("width", [300, 520, 900])
def test_latency_legend_is_outside_the_plot(gui_app: QApplication, width: int) -> None:
    throughput = ThroughputPlot(LIGHT, "Mbit/s")
    plot = LatencyPlot(LIGHT, throughput)
    plot.resize(width, plot.height())
    plot.show()
    xs = [float(x) for x in range(48)]
    plot.loaded.setData(xs, [5.0 + (x % 7) for x in xs])  # the highest probes at the right
    plot.apply_theme(DARK)
    gui_app.processEvents()
    legend = plot.legend.sceneBoundingRect()
    assert legend.width() > 0 and legend.height() > 0
    assert [text.text for _sample, text in plot.legend.items] == ["under load", "idle"]
    item = plot.getPlotItem()
    data = item.vb.sceneBoundingRect()
    assert legend.bottom() <= data.top(), (legend, data)  # on no probe, wherever it is
    title = item.titleLabel.sceneBoundingRect()
    assert not legend.intersects(title), (legend, title)
    assert item.titleLabel.text  # the title is still there
    assert plot.rect().contains(plot.mapFromScene(legend).boundingRect())
    plot.close()
    throughput.close()
