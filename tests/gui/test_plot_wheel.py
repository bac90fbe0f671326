"""The mouse wheel over a plot scrolls the page (seen on a real X server at 800 × 600: the
Results page stopped scrolling as soon as the chart came under the pointer)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.selftest import load_sample_data
from sbctune.ui.widgets.compare_chart import CompareChart


def _wheel_down(widget: object) -> None:
    centre = QPointF(50, 50)
    event = QWheelEvent(
        centre,
        centre,
        QPoint(0, 0),
        QPoint(0, -120),  # one notch towards the user: scroll down
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)  # type: ignore[arg-type]


def test_the_wheel_over_the_results_chart_scrolls_the_page(
    window: MainWindow, gui_app: QApplication
) -> None:
    load_sample_data(window)
    window.resize(800, 600)
    window.go("results")
    gui_app.processEvents()
    page = window.page("results")
    (chart,) = page.findChildren(CompareChart)
    assert chart.isVisible()
    bar = page.verticalScrollBar()
    assert bar.maximum() > 0, "the page is longer than the window"
    bar.setValue(0)
    _wheel_down(chart.viewport())
    gui_app.processEvents()
    assert bar.value() > 0, "the page scrolled"
