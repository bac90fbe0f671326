"""A run that stops early says no time left (s13 walk: after Cancel on Measure again, "about
0:35 left" stayed beside the bar under "Stopped early: cancelled by the user", as if it still
ran); nor after a failure."""

from __future__ import annotations

import pytest

from sbctune.measure.outcome import Interval
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import LiveInterval
from sbctune.measure.runner import TestStarted as Started
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow
from sbctune.workflow import Problem

PLAN = plan_named("quick")


@pytest.mark.parametrize("page_name", ["baseline_page", "again_page"])
@pytest.mark.parametrize("how", ["cancelled", "failed"])
def test_a_stopped_run_shows_no_time_left(window: MainWindow, page_name: str, how: str) -> None:
    now = [0.0]
    live = LiveMeasurement(PLAN, 1000.0, clock=lambda: now[0])
    page = getattr(window, page_name)
    page.attach(live)
    spec = PLAN.tests[0]
    live.feed(Started(0, spec))
    now[0] += 3.0
    live.feed(LiveInterval(0, spec, spec.directions[0], Interval(1.0, 900.0, 0, False)))
    page.refresh()
    assert page.remaining.text().startswith("about ")  # while it runs
    if how == "cancelled":
        page._cancelled()
        assert page.status.text().startswith("Cancelled")
    else:
        page._failed(Problem("The Pi stopped answering.", ""))
        assert page.status.text() == "Stopped."
    assert page.remaining.text() == ""
    assert not page.cancel_button.isEnabled()
