"""walk19: "Tune & Measure finished: see the results." showed when Measure again was cut
short. The status bar now says it stopped, in the words of the Tune card on Results."""

from __future__ import annotations

from datetime import datetime, timezone

from PySide6.QtWidgets import QApplication

from sbctune.history.records import RunRecord
from sbctune.ui.main_window import MainWindow
from sbctune.workflow import FlowResult
from sbctune.workflow.keeping import NOTHING_TO_GAIN, STOPPED_EARLY, KeepDecision


def _run(complete: bool) -> RunRecord:
    return RunRecord(1, datetime(2026, 11, 30, tzinfo=timezone.utc), "quick", complete=complete)


def test_a_cut_short_measure_again_is_said_stopped_with_the_cards_reason(
    window: MainWindow, gui_app: QApplication
) -> None:
    result = FlowResult(1, baseline=_run(True), after=_run(False),
                        keep=KeepDecision(False, reason=STOPPED_EARLY))  # fmt: skip
    window.state.model.flow_finished(result)
    window._flow_finished(result)
    gui_app.processEvents()
    said = window.statusBar().currentMessage()
    assert "see the results" not in said and "stopped before it finished" in said
    assert said == f"Tune & Measure: {STOPPED_EARLY}."
    assert f"Tune & Measure: {STOPPED_EARLY}" in window.results_page.tuning_text.text()


def test_a_whole_run_still_says_finished(window: MainWindow, gui_app: QApplication) -> None:
    result = FlowResult(1, baseline=_run(True), after=_run(True),
                        keep=KeepDecision(False, reason=NOTHING_TO_GAIN))  # fmt: skip
    window._flow_finished(result)
    assert window.statusBar().currentMessage() == "Tune & Measure finished: see the results."
