"""The latency plot's data band is tall enough to read (walk ux29/ux30 at 150 % on 1366 x 768:
under its title and legend strip the probes had 80 px, two tick labels, a spike pressing the
rest of the line flat on the axis; at 800 x 600 the same). The band where the probes are drawn
is at least 130 px, on the measure page as it is laid out, in both themes' fonts."""

from __future__ import annotations

from typing import cast

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.measure.plans import plan_named
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow
from sbctune.ui.widgets.lazy import Lazy
from sbctune.ui.widgets.live_plots import LatencyPlot

BAND = 130  # px: about two thirds of the throughput plot's; room for three or four tick labels


@pytest.mark.parametrize("size", [(800, 581), (911, 460)])  # 1366 x 768 at 150 %: 911 x 512
def test_the_latency_band_is_readable(
    window: MainWindow, gui_app: QApplication, size: tuple[int, int]
) -> None:
    window.resize(*size)
    window.go("baseline")
    page = window.baseline_page
    page.attach(LiveMeasurement(plan_named("quick"), 1000.0, clock=lambda: 0.0))
    for _ in range(5):
        gui_app.processEvents()
    holder = cast(Lazy, page.latency)
    plot = cast(LatencyPlot, holder.real())
    assert plot.isVisible()
    band = plot.getPlotItem().vb.sceneBoundingRect()
    assert band.height() >= BAND, (band, plot.height())
    legend = plot.legend.sceneBoundingRect()
    assert legend.bottom() <= band.top()  # still on no probe
    assert holder.height() == plot.height()  # its place as tall as it
