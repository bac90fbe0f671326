"""New content opens at its page's top, not at the scroll the old content was left at (s10 walk on
X at 800x600: after a one-click flow Results opened half-way down, past its Keep; a second Pi's
Inspect page opened on its "Other findings"; the Baseline page ran a new test out of sight).
Coming back to the same content keeps the user's scroll; the last export's line and its Open
buttons go with the runs they were for."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.inspect_page import InspectPage
from sbctune.ui.pages.measure_page import MeasurePage
from sbctune.ui.pages.results_page import ResultsPage
from sbctune.ui.sample_data import sample_inventory, sample_live
from sbctune.ui.selftest import load_sample_data


def _to_bottom(page: ResultsPage | InspectPage | MeasurePage, app: QApplication) -> int:
    app.processEvents()
    bar = page.verticalScrollBar()
    assert bar.maximum() > 0, "the page is taller than the 800x600 window"
    bar.setValue(bar.maximum())
    return bar.value()


def test_results_open_at_the_top_for_other_runs(
    window: MainWindow, gui_app: QApplication, tmp_path: Path
) -> None:
    window.resize(800, 600)
    window.show()
    load_sample_data(window)
    window.go("results")
    page = window.page("results")
    assert isinstance(page, ResultsPage)
    _to_bottom(page, gui_app)
    page._exported("csv", str(tmp_path / "sbctune-runs-1-2.csv"))
    assert not page.opened.isHidden()
    for _ in range(3):
        gui_app.processEvents()  # the export scrolls to its line (after a layout pass)
    bottom = page.verticalScrollBar().value()

    window.go("history")
    window.go("results")
    gui_app.processEvents()
    assert page.verticalScrollBar().value() == bottom, "the same runs: the user's scroll kept"

    window.go("inspect")
    load_sample_data(window)  # other runs (new ids), as after a second Tune & Measure
    window.go("results")
    gui_app.processEvents()
    assert page.verticalScrollBar().value() == 0
    assert page.export_log.text() == "" and page.opened.isHidden()


def test_inspect_and_a_new_run_start_at_the_top(window: MainWindow, gui_app: QApplication) -> None:
    window.resize(800, 600)
    window.show()
    load_sample_data(window)
    window.go("inspect")
    inspect = window.page("inspect")
    assert isinstance(inspect, InspectPage)
    _to_bottom(inspect, gui_app)
    window.go("connect")  # connecting to another Pi: its hardware arrives, then Inspect shows
    inspect.show_inventory(sample_inventory())
    gui_app.processEvents()
    window.go("inspect")
    gui_app.processEvents()
    assert inspect.verticalScrollBar().value() == 0

    window.go("baseline")
    baseline = window.page("baseline")
    assert isinstance(baseline, MeasurePage)
    _to_bottom(baseline, gui_app)
    baseline.attach(sample_live())  # what the controller's "started" hands the page
    baseline.timer.stop()
    gui_app.processEvents()
    assert baseline.verticalScrollBar().value() == 0
