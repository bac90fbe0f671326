"""Walk 24, after Tune & Measure at 800 x 600: Measure again showed "Nothing is in force on the
Pi: this would be a second baseline …" right above the run it had just measured with the tuning
in force (the flow then put back what did not help). Read top to bottom, the run below seemed
measured with nothing in force. Above a tuned run, the box now says that run had the tuning and
that it was put back since; above an untuned one it reads as before."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import MeasurePage
from tests.gui.test_baseline_words import GOVERNOR, _connected, _run


def _again(window: MainWindow) -> MeasurePage:
    _connected(window)
    window.go("again")
    page = window.page("again")
    assert isinstance(page, MeasurePage)
    return page


def test_a_tuned_run_under_nothing_in_force_says_it_had_the_tuning(window: MainWindow) -> None:
    page = _again(window)
    page.show_record(_run(window, 5, [GOVERNOR], 930.0))
    QApplication.processEvents()
    page._update_buttons()  # as the page's state changes do
    assert not page.in_force.isHidden()
    said = page.in_force_text.text()
    assert said.startswith("The run below was measured with the tuning in force; it was put "
                           "back since. Nothing is in force on the Pi"), said  # fmt: skip


def test_an_untuned_run_reads_as_before(window: MainWindow) -> None:
    page = _again(window)
    page.show_record(_run(window, 5, None, 737.0))
    page._update_buttons()
    assert page.in_force_text.text().startswith("Nothing is in force on the Pi: this would be")
