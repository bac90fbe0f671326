"""Walk 27 (150 % on 1366 x 768, Tune & Measure against the pi4-ax88179 lab): while the flow
measured, the page showed its own Cancel beside Start, and the bar under the page showed the
flow's Cancel: two Cancels for the one job, with different ends. One job, one Cancel, as walk
15 made it one bar: the flow's. A measurement run on its own keeps its page's Cancel."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QPushButton

from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow
from sbctune.workflow.flow_types import FlowStep
from tests.gui.flow_pretend import PLAN, flow_running


def _cancels(window: MainWindow) -> list[str]:
    return sorted(
        button.accessibleName() or button.text()
        for button in window.findChildren(QPushButton)
        if "cancel" in (button.accessibleName() or button.text()).lower().replace("&", "")
        and button.isVisibleTo(window)
        and button.isEnabled()
    )


@pytest.mark.parametrize(("role", "key"), [("baseline", "baseline"), ("measure_again", "again")])
def test_the_flow_shows_one_cancel(
    window: MainWindow,
    gui_app: QApplication,
    monkeypatch: pytest.MonkeyPatch,
    role: str,
    key: str,
) -> None:
    page = window.baseline_page if role == "baseline" else window.again_page
    with flow_running(window, monkeypatch) as flow:
        flow._on_event(FlowStep(role, "started"))
        window.go(key)
        page.attach(LiveMeasurement(PLAN, 1000.0))
        window._update_next()
        gui_app.processEvents()
        assert _cancels(window) == ["Cancel Tune & Measure"]
        page.stop_live("Stopped.")
        flow._on_event(FlowStep(role, "done"))
    gui_app.processEvents()
    assert page.cancel_button.isVisibleTo(window), "the page's Cancel is back, disabled"
    assert not page.cancel_button.isEnabled()


def test_a_measurement_on_its_own_keeps_its_pages_cancel(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.go("baseline")
    window.baseline_page.attach(LiveMeasurement(PLAN, 1000.0))
    window._update_next()
    gui_app.processEvents()
    assert _cancels(window) == ["&Cancel"] or _cancels(window) == ["Cancel"], _cancels(window)
    window.baseline_page.stop_live("Stopped.")


def test_the_pages_start_waits_while_the_flow_prepares(
    window: MainWindow, gui_app: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Walk 27: in the seconds before the flow's baseline began, the Baseline page offered its
    own Start (enabled, the page's main button) beside "estimating the time left…"."""
    page = window.baseline_page
    window.go("baseline")
    monkeypatch.setattr(window.state, "session", object())  # connected
    window.state.model.flow_stopped()
    page._update_buttons()
    assert page.start_button.isEnabled(), "a connected, idle page offers Start"
    with flow_running(window, monkeypatch):
        monkeypatch.setattr(window.state, "session", object())
        window.state.model._changed("tuning")  # what flow_started says to the pages
        gui_app.processEvents()
        assert not page.start_button.isEnabled()
    monkeypatch.setattr(window.state, "session", object())  # flow_running undid every patch
    window.state.model._changed("tuning")
    gui_app.processEvents()
    assert page.start_button.isEnabled(), "Start is back once the flow stopped"
