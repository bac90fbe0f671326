"""A window whose one-click flow is "running" without a Pi: the tests feed its events by hand."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from sbctune.measure.plans import plan_named
from sbctune.ui.controllers.flow import FlowController
from sbctune.ui.main_window import MainWindow
from sbctune.workflow.estimate import FlowEstimate

PLAN = plan_named("quick")
STEPS = ["baseline", "tune", "measure_again", "keep", "results"]


@contextmanager
def flow_running(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> Iterator[FlowController]:
    flow = window.flow
    monkeypatch.setattr(FlowController, "running", property(lambda self: True))
    flow._plan = PLAN
    flow.estimate = FlowEstimate(STEPS, PLAN)
    flow.step_ids = list(STEPS)
    window.state.model.flow_started()
    window._flow_started_at = time.monotonic()
    try:
        yield flow
    finally:
        window.state.model.flow_stopped()
        monkeypatch.undo()  # the flow never ran: the window's close must not wait for it
