"""walk19: Cancel during Tune & Measure's Measure again scrolled the page to the CPU chart (the
disabled Cancel passed its focus on, and the scroll area went to it) and the "Cancelled…" words
were only in the status bar. The view stays; the words are above the run's figures too. Since
walk 27 the Cancel of a flow is the bar's under the page (the page's own hides while the flow
measures: one job, one Cancel), so the user's click is on that one."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from sbctune.history.records import RunRecord
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import MeasurePage
from tests.gui.flow_pretend import PLAN, flow_running


def _settle(app: QApplication) -> None:
    for _ in range(5):
        app.processEvents()


def test_cancel_in_measure_again_keeps_the_view_and_says_it_by_the_figures(
    window: MainWindow, gui_app: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    window.resize(800, 600)
    window.show()
    window.activateWindow()
    with flow_running(window, monkeypatch):
        window.go("again")
        page = window.page("again")
        assert isinstance(page, MeasurePage)
        window.again.begin_live(PLAN)
        _settle(gui_app)
        cancel = window.next_bar.cancel_button
        assert cancel.isVisibleTo(window) and not page.cancel_button.isVisibleTo(window)
        cancel.setFocus(Qt.FocusReason.MouseFocusReason)  # the user's click on it
        _settle(gui_app)
        assert cancel.hasFocus()
        where = page.verticalScrollBar().value()
        kept = RunRecord(1, datetime(2026, 11, 30, tzinfo=timezone.utc), "quick", id=7)
        window.again.stopped_early.emit(kept)  # the flow kept the tests measured so far
    window.again.flow_ended("cancelled")
    _settle(gui_app)
    assert page.verticalScrollBar().value() == where, "the page scrolled away"
    note = page.results_note
    assert note.isVisibleTo(window) and note.text().startswith("Stopped early: cancelled")
    assert "run 7" in note.text() and note.text() == page.status.text()
    window.close()
