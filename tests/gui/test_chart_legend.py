"""The Results chart's legend never covers a bar (s12 walk: it sat on top of the first bar):
it has a strip of its own above the plot, whatever the figures and however many runs."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QApplication

from sbctune.ui.controllers.results import ResultRow
from sbctune.ui.theme import DARK, LIGHT
from sbctune.ui.widgets.compare_chart import CompareChart


def _bar_rects(chart: CompareChart) -> list[QRectF]:
    """Every bar's and whisker's rectangle in the scene."""
    rects = []
    for bar in chart.bars:  # each bar from x - width/2 to x + width/2, 0 to its height
        half = float(bar.opts["width"]) / 2
        for x, height in zip(bar.opts["x"], bar.opts["height"], strict=True):
            rects.append(bar.mapRectToScene(QRectF(x - half, 0, 2 * half, height)))
    for whiskers in chart.error_bars:  # each from y - height/2 to y + height/2, beam wide
        beam = float(whiskers.opts["beam"])
        for x, y, height in zip(*(whiskers.opts[k] for k in ("x", "y", "height")), strict=True):
            box = QRectF(x - beam / 2, y - height / 2, beam, height)
            rects.append(whiskers.mapRectToScene(box))
    return [r for r in rects if r.height() > 0]


@pytest.mark.parametrize("runs", [2, 3, 5])
@pytest.mark.parametrize("width", [420, 900])
def test_legend_covers_no_bar(gui_app: QApplication, runs: int, width: int) -> None:
    labels = [f"#{i + 1}" for i in range(runs)]
    # The first bar the tallest (where the legend sat), the rest lower, with intervals.
    rows = [
        ResultRow("pi_to_pc", "half", [940.0 - 40 * i for i in range(runs)],
                  half_widths=[8.0] * runs),
        ResultRow("pc_to_pi", "half", [900.0 - 30 * i for i in range(runs)],
                  half_widths=[5.0] * runs),
    ]  # fmt: skip
    chart = CompareChart(LIGHT)
    chart.resize(width, 280)
    chart.show()
    chart.show_rows(labels, rows, "Mbit/s")
    chart.apply_theme(DARK)  # redrawn: the legend stays out of the way
    gui_app.processEvents()
    legend = chart.legend.sceneBoundingRect()
    assert legend.width() > 0 and legend.height() > 0
    assert len(chart.legend.items) == runs
    bars = _bar_rects(chart)
    assert len(bars) >= 2 * runs
    covered = [b for b in bars if b.intersects(legend)]
    assert not covered, (legend, covered)
    # above the plot, inside the widget, where the user sees it
    plot = chart.getPlotItem()
    assert legend.bottom() <= plot.vb.sceneBoundingRect().top(), legend
    assert plot.sceneBoundingRect().contains(legend), (plot.sceneBoundingRect(), legend)
    assert chart.rect().contains(chart.mapFromScene(legend).boundingRect())
    chart.close()
