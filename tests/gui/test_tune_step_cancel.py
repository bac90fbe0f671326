"""walk19: during Tune & Measure's Tune step neither the Tune page nor the bar under it had a
Cancel (only closing the window stopped it). Now both have one while the flow runs; it
cancels the flow, and what the Pi read back after the revert is said on the page."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from sbctune.ui.controllers.flow import FlowController
from sbctune.ui.main_window import MainWindow
from sbctune.workflow.flow_types import FlowCancelled, FlowStep
from tests.gui.flow_pretend import flow_running

READ_BACK = "Cancelled: the tuning was reverted; every value it touched reads back as before."


def test_the_tune_step_has_a_cancel_that_stops_the_flow(
    window: MainWindow, gui_app: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    cancels: list[str] = []
    with flow_running(window, monkeypatch) as flow:
        monkeypatch.setattr(FlowController, "cancel", lambda self: cancels.append("flow"))
        flow._on_event(FlowStep("tune", "started", "Applying the recommended tweaks"))
        window._flow_step("tune", "started", "Applying the recommended tweaks")
        window._update_next()
        gui_app.processEvents()
        page = window.tune_page
        assert window.current_key() == "tune"
        assert page.cancel_button.isVisibleTo(window) and page.cancel_button.isEnabled()
        assert window.next_bar.cancel_button.isVisibleTo(window)
        # The page's own plan, loaded as it came into view, ends: the flow's row stays (the
        # lab walk: that hid Cancel before the guard was armed).
        window.tuning.busy.emit(True, "Reading the current settings on the Pi…")
        window.tuning.busy.emit(False, "")
        assert page.cancel_button.isVisibleTo(window), "the page's plan hid the flow's Cancel"
        assert page.status.text() == "Applying the recommended tweaks"
        QTest.mouseClick(page.cancel_button, Qt.MouseButton.LeftButton)
        assert cancels == ["flow"]
        assert not page.cancel_button.isEnabled()  # once
        assert "putting back what was applied" in page.status.text()
        QTest.mouseClick(window.next_bar.cancel_button, Qt.MouseButton.LeftButton)
        assert cancels == ["flow", "flow"]
        flow._on_event(FlowCancelled(READ_BACK))  # the flow's revert, read back
    window._flow_cancelled()
    window._update_next()
    gui_app.processEvents()
    assert READ_BACK in window.tune_page.events.toPlainText()  # on the page, in words
    assert window.statusBar().currentMessage() == READ_BACK
    assert not window.tune_page.cancel_button.isVisibleTo(window)
    assert not window.tune_page.busy_row.isVisibleTo(window)
    assert not window.next_bar.cancel_button.isVisibleTo(window)


def test_no_cancel_on_the_tune_page_when_no_flow_runs(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.go("tune")
    gui_app.processEvents()
    assert not window.tune_page.cancel_button.isVisibleTo(window)
    assert not window.next_bar.cancel_button.isVisibleTo(window)
