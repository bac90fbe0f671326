"""One latency spike no longer flattens the rest of the line, and stays in sight with its value
(walk ux30, screens 19/20: the scale's top was the highest probe x 1.1, so a single spike
pressed every other probe onto the axis). The scale is made for the bulk of the probes; the
spike above it is marked at the top edge with its round trip."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.ui.controllers.live import LiveMeasurement, Series
from sbctune.ui.theme import LIGHT
from sbctune.ui.widgets.live_plots import LatencyPlot, ThroughputPlot

XS = [i / 10 for i in range(400)]  # 40 s of probes, ten a second


def _shown(gui_app: QApplication, loaded: list[float]) -> tuple[LatencyPlot, ThroughputPlot]:
    throughput = ThroughputPlot(LIGHT, "Mbit/s")
    throughput.setXRange(0, 40, padding=0)
    plot = LatencyPlot(LIGHT, throughput)
    plot.resize(900, plot.height())
    plot.show()
    live = SimpleNamespace(latency=Series(list(XS), loaded), latency_idle=Series())
    plot.set_live(cast(LiveMeasurement, live))
    gui_app.processEvents()
    return plot, throughput


@pytest.mark.parametrize("at", [2, 200, 398])  # at the left edge, the middle, the right edge
def test_a_spike_leaves_the_line_readable_and_says_its_value(
    gui_app: QApplication, at: int
) -> None:
    loaded = [4.0 + (i % 5) for i in range(len(XS))]  # 4-8 ms under load
    loaded[at] = 412.0
    plot, throughput = _shown(gui_app, loaded)
    top = plot.getPlotItem().vb.viewRange()[1][1]
    # the bulk (4-8 ms) spreads over at least a quarter of the band, not 2 % of it
    assert 8.0 / top >= 1 / 4, top
    # ... and the spike is still there, with its value, whole inside the plot's band
    assert plot.spike.isVisible()
    assert plot.spike.toPlainText() == "\u2191 412 ms"
    band = plot.getPlotItem().vb.sceneBoundingRect()
    marker = plot.spike.sceneBoundingRect()
    assert band.contains(marker), (band, marker)
    plot.close()
    throughput.close()


def test_several_spikes_are_counted_under_the_highest(gui_app: QApplication) -> None:
    loaded = [4.0 + (i % 5) for i in range(len(XS))]
    loaded[100], loaded[300] = 250.0, 380.0
    plot, throughput = _shown(gui_app, loaded)
    assert plot.spike.toPlainText() == "\u2191 380 ms (highest of 2 probes off the scale)"
    plot.close()
    throughput.close()


def test_a_noisy_line_without_a_spike_is_drawn_whole(gui_app: QApplication) -> None:
    """Walk ux30's baseline: 2-35 ms under load, no single outlier: nothing is clipped."""
    loaded = [3.0 + (i * 7) % 25 for i in range(len(XS))]
    loaded[150] = 35.0
    plot, throughput = _shown(gui_app, loaded)
    top = plot.getPlotItem().vb.viewRange()[1][1]
    assert top >= 35.0
    assert not plot.spike.isVisible()
    plot.close()
    throughput.close()
