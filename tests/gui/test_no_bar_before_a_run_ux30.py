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


def test_no_empty_rows_before_a_first_run(window: MainWindow, gui_app: QApplication) -> None:
    """Nor the rows of its time left and words: at 150 % the hidden bar's row still held an
    empty line, a gap of ~60 px between the plan and the figures."""
    window.resize(911, 460)
    window.go("baseline")
    page = window.baseline_page
    for _ in range(3):
        gui_app.processEvents()
    card = page.figure_cards[0][0]
    gap = card.mapTo(page.widget(), card.rect().topLeft()).y() - (
        page.plan.mapTo(page.widget(), page.plan.rect().bottomLeft()).y()
    )
    assert gap < 60, gap
    assert not page.remaining.isVisibleTo(window)
