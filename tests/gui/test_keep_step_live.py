"""Walk 15, problem 1: during Tune & Measure, step 4 ("Keeping only what helps") measures each
tweak on its own, but showed no live plot of the running test, though the baseline did. Each
of those runs is now shown live on the Measure again page, its status line saying which tweak
it measures; when the step ends the page shows the flow's Measure again run as before."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from PySide6.QtWidgets import QApplication

from sbctune.history.records import RunRecord, TestRecord
from sbctune.measure.outcome import Interval, MeasureRun
from sbctune.measure.runner import LiveInterval, RunStarted
from sbctune.measure.runner import TestStarted as Started
from sbctune.ui.main_window import MainWindow
from sbctune.workflow.flow_types import FlowStep, MeasuringAlone, StepPlanned
from tests.gui.flow_pretend import PLAN, flow_running


def _run() -> MeasureRun:
    return MeasureRun("pi", "eth1", "quick", "builtin", "198.18.0.1", "198.18.0.2", "now")


def _after() -> RunRecord:
    return RunRecord(
        device_id=1, started_at=datetime(2026, 11, 29, tzinfo=timezone.utc), plan_name="quick",
        complete=True, id=3,
        tests=[TestRecord("pi_to_pc", "half", mean_mbps=830.6, trial_means=[827.9, 833.3]),
               TestRecord("pc_to_pi", "half", mean_mbps=944.0, trial_means=[942.3, 945.7])],
    )  # fmt: skip


def test_each_tweak_alone_is_measured_live(
    window: MainWindow, gui_app: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    page = window.again_page
    with flow_running(window, monkeypatch) as flow:
        for step in ("baseline", "tune", "measure_again"):
            flow._on_event(FlowStep(step, "started"))
            flow._on_event(FlowStep(step, "done"))
        after_live = page.live
        window.state.model.measured("after", _after())
        flow._on_event(FlowStep("keep", "started"))
        gui_app.processEvents()
        assert window.current_key() == "tune"  # the tweaks are applied there
        for n, title in enumerate(("Receive packet steering", "CPU frequency governor"), 1):
            flow._on_event(StepPlanned(3 - n + 1))
            flow._on_event(MeasuringAlone(f"{title} on its own, {n} of 2"))
            flow._on_event(RunStarted(_run()))
            spec = PLAN.tests[0]
            flow._on_event(Started(0, spec))
            flow._on_event(LiveInterval(0, spec, "pi_to_pc", Interval(2.0, 801.0, 0)))
            gui_app.processEvents()
            page.refresh()
            assert window.current_key() == "again"
            assert page.live is not None and page.live is not after_live
            assert page.live.series["pi_to_pc"].ys == [801.0]  # drawn live
            assert page.timer.isActive() and page.plot_cards[0].isVisible()
            assert page.status.text().startswith(f"{title} on its own, {n} of 2. Test 1 of")
            assert page.now_pi_to_pc.text() == "801.0 Mbit/s"
        flow._on_event(FlowStep("keep", "done"))
        gui_app.processEvents()
        # The page is back on the flow's Measure again run, stopped.
        assert page.live is after_live and not page.timer.isActive()
        assert page.now_pi_to_pc.text() == "830.6 Mbit/s"
