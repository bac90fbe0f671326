"""Walk 15, problem 2: during Tune & Measure two progress bars were on the screen at once for
the one job: the measuring page's own bar (with its own time left) or the Tune page's busy bar,
above the flow's overall bar under the page. One job, one bar: the flow's. A measurement run
on its own keeps its page's bar (and then there is no flow bar)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QProgressBar

from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow
from sbctune.workflow.flow_types import FlowStep
from tests.gui.flow_pretend import PLAN, flow_running


def _bars(window: MainWindow) -> list[str]:
    return [bar.accessibleName() or bar.objectName() or repr(bar)
            for bar in window.findChildren(QProgressBar) if bar.isVisibleTo(window)]  # fmt: skip


def test_the_flow_shows_one_bar(
    window: MainWindow, gui_app: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    with flow_running(window, monkeypatch) as flow:
        for step in ("baseline", "tune", "measure_again", "keep"):
            flow._on_event(FlowStep(step, "started"))
            window._update_next()
            gui_app.processEvents()
            assert _bars(window) == ["Tune & Measure: overall progress"], step
            flow._on_event(FlowStep(step, "done"))


def test_a_measurement_on_its_own_keeps_its_pages_bar(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.go("baseline")
    window.baseline_page.attach(LiveMeasurement(PLAN, 1000.0))
    window._update_next()
    gui_app.processEvents()
    assert window.baseline_page.progress.isVisibleTo(window)
    assert not window.next_bar.flow_progress.isVisibleTo(window)
    window.baseline_page.stop_live("Stopped.")
