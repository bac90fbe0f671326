"""When Tune & Measure stops on a problem (walk19: iperf3 missing, "Not now"), the status bar
no longer says the step it stopped in has "started"."""

from __future__ import annotations

from sbctune.errors import UserError
from sbctune.ui.main_window import MainWindow
from sbctune.workflow import problem_from


def test_a_failed_flow_says_stopped_in_the_status_bar(window: MainWindow) -> None:
    window._flow_step("baseline", "started", "")
    assert "started" in window.statusBar().currentMessage()
    problem = problem_from(UserError("iperf3 is not installed on the Pi.", "Install it."))
    window._flow_failed(problem)
    message = window.statusBar().currentMessage()
    assert "started" not in message and "stopped" in message
