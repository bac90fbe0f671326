"""The measure pages show no progress bar before their first run (walk ux30 at 800 x 600 on X:
an empty bar sat under Baseline's and Measure again's plan before any test, as if one were
due); a run shows it."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.measure.plans import plan_named
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow


@pytest.mark.parametrize(("step", "page_name"), [("baseline", "baseline_page"),
                                                 ("again", "again_page")])  # fmt: skip
def test_no_bar_before_a_first_run(
    window: MainWindow, gui_app: QApplication, step: str, page_name: str
) -> None:
    window.go(step)
    page = getattr(window, page_name)
    gui_app.processEvents()
    assert page.isVisible()
    assert not page.progress.isVisibleTo(window)
    page.attach(LiveMeasurement(plan_named("quick"), 1000.0))
    gui_app.processEvents()
    assert page.progress.isVisibleTo(window)
