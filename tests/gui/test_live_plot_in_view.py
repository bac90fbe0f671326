"""While a test runs, the throughput plot is seen whole without scrolling, at 800 x 600 and at
1366 x 768 with 150 % scaling (walk 14, problem 5: only its top showed, the measured lines
below the edge); its legend is above the data, not over the first seconds. When the test ends
the page is laid out as before (heading, figures, full-height plot)."""

from __future__ import annotations

from typing import cast

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QLabel

from sbctune.measure.plans import plan_named
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow
from sbctune.ui.widgets.lazy import Lazy
from sbctune.ui.widgets.plot_heights import THROUGHPUT_HEIGHT

# The window's logical size: 800 x 600 less a title bar; 1366 x 768 at 150 % (911 x 512) less
# a title bar and a desktop panel.
SIZES = [(800, 560), (910, 450), (1100, 780)]  # the last: nothing needs to give way


@pytest.mark.parametrize("size", SIZES)
def test_the_plot_is_in_view_while_a_test_runs(
    window: MainWindow, gui_app: QApplication, size: tuple[int, int]
) -> None:
    window.show()
    window.showNormal()
    window.resize(*size)
    window.go("baseline")
    page = window.baseline_page
    for _ in range(5):
        gui_app.processEvents()
    page.attach(LiveMeasurement(plan_named("quick"), 1000.0))
    for _ in range(5):
        gui_app.processEvents()
    holder = cast(Lazy, page.throughput)
    plot = holder.real()
    top = plot.mapTo(page.viewport(), QPoint(0, 0)).y()
    assert top >= 0 and top + plot.height() <= page.viewport().height(), (top, plot.height())
    assert plot.height() == holder.height() >= 170
    assert page.live_fit.compact == (size != SIZES[-1])
    assert page.cancel_button.isVisible() and page.cancel_button.isEnabled()
    assert page.now_pi_to_pc.isVisible() and page.now_pc_to_pi.isVisible()
    # the widest figure beside its title keeps the title on one line (on X it wrapped a word
    # a line, "Pi / → / PC, / this / test", the card then taller than before)
    page.now_pi_to_pc.setText("warming up…")
    page.now_pc_to_pi.setText("949.0 Mbit/s")
    for _ in range(3):
        gui_app.processEvents()
    for card, big in page.figure_cards:
        if page.live_fit.compact:  # (a tall window keeps the figures under their titles)
            assert card.height() <= big.sizeHint().height() + 30, card.title.text()  # one row
        assert big.isVisible() and big.width() >= big.sizeHint().width(), big.text()
    # ... and the page is no wider than the window (on X its Start button was cut off)
    assert page.widget().width() <= page.viewport().width()
    assert page.start_button.mapTo(
        page.viewport(), QPoint(0, 0)
    ).x() + page.start_button.width() <= (page.viewport().width())
    # the legend in a strip above the data
    item = plot.getPlotItem()
    legend = plot.legend.sceneBoundingRect()
    assert legend.height() > 0 and legend.bottom() <= item.vb.sceneBoundingRect().top()
    page.stop_live("Done.")
    for _ in range(3):
        gui_app.processEvents()
    intro = page.findChild(QLabel, "pageIntro")
    assert intro is not None and intro.isVisible()
    assert [card.title.text() for card, _ in page.figure_cards] == [
        "Pi → PC, this test",
        "PC → Pi, this test",
    ]
    assert plot.height() == holder.height() == THROUGHPUT_HEIGHT
    window.close()
