"""What the measuring page shows while a run goes on: the big figures never show an omitted
(ramp-up) second and end on the test's result; the latency line is a median over a named
window; the plot's time axis grows when extra trials lengthen the run."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from sbctune.measure.latency.during import LiveLatency
from sbctune.measure.outcome import DirectionOutcome, Interval
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import LiveInterval
from sbctune.measure.runner import TestFinished as Finished
from sbctune.measure.runner import TestStarted as Started
from sbctune.measure.steady import ExtraTrial, TrialsAdded
from sbctune.ui.controllers.flow import FlowController
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import latency_text
from sbctune.workflow.estimate import (
    STEP_OVERHEAD_SECONDS,
    FlowEstimate,
    clock_text,
    measure_seconds,
)
from sbctune.workflow.flow_types import FlowStep, StepPlanned

PLAN = plan_named("quick")
STEPS = ["baseline", "tune", "measure_again", "keep", "results"]


def _live() -> LiveMeasurement:
    ticks = iter(float(x) for x in range(10_000))
    return LiveMeasurement(PLAN, 100.0, clock=lambda: next(ticks))


def test_the_big_figure_never_shows_an_omitted_second(window: MainWindow) -> None:
    live = _live()
    page = window.baseline_page
    page.show_still(live)
    spec = PLAN.tests[0]
    direction = spec.directions[0]
    big = page.now_pi_to_pc if direction == "pi_to_pc" else page.now_pc_to_pi
    live.feed(Started(0, spec))
    # A ramp-up burst above the line rate (as a USB NIC's buffers give): left out, not shown.
    live.feed(LiveInterval(0, spec, direction, Interval(1.0, 134.0, 0, omitted=True)))
    page.refresh()
    assert big.text() == "–"
    live.feed(LiveInterval(0, spec, direction, Interval(2.0, 90.0, 0)))
    live.feed(LiveInterval(0, spec, direction, Interval(3.0, 94.0, 0)))
    page.refresh()
    assert big.text() == "92.0 Mbit/s"  # the counted seconds' mean so far
    outcome = DirectionOutcome(direction, spec.mode, mean_mbps=92.7, complete=True)
    live.feed(Finished(0, spec, (outcome,)))
    page.refresh()
    assert big.text() == "92.7 Mbit/s"  # the test's result, as stored, not the last second


def test_the_latency_line_is_a_median_over_its_window() -> None:
    live = _live()
    spec = PLAN.tests[0]
    live.feed(Started(0, spec))
    # A queue-building spike among steady probes: the median holds, the last probe would not.
    for t, rtt in enumerate([5.0, 6.0, 5.5, 40.0]):
        live.feed(LiveLatency(0, spec, float(t), rtt, "loaded"))
    text = latency_text(*live.latest_latency(), live.latency_lost)  # the page's line
    assert text == "Latency, median of the last 5 s: 5.8 ms under load"


def test_the_time_axis_grows_with_extra_trials(window: MainWindow) -> None:
    live = _live()
    page = window.baseline_page
    page.show_still(live)
    planned = live.total_seconds
    assert page.throughput.getViewBox().viewRange()[0][1] < planned + 2
    last = PLAN.tests[-1]
    extra = ExtraTrial(replace(last, trial=4, trials=4, extra=True), "the trials disagree")
    live.feed(TrialsAdded(len(PLAN.tests), (extra,)))
    page.refresh()
    right = page.throughput.getViewBox().viewRange()[0][1]
    assert live.total_seconds > planned
    assert right >= live.total_seconds, (right, live.total_seconds)


def test_a_running_tests_figure_says_what_it_does_before_its_first_counted_second(
    window: MainWindow,
) -> None:
    live = _live()
    page = window.baseline_page
    page.attach(live)  # running: the page redraws on its timer
    first, second = PLAN.tests[0], PLAN.tests[1]
    assert (first.directions, second.directions) == (("pi_to_pc",), ("pc_to_pi",))
    live.feed(Started(0, first))
    live.feed(LiveInterval(0, first, "pi_to_pc", Interval(2.0, 91.0, 0)))
    live.feed(Finished(0, first, (DirectionOutcome("pi_to_pc", "half", 91.0, complete=True),)))
    live.feed(Started(1, second))  # PC → Pi: idle probes first, then the ramp-up
    page.refresh()
    assert page.now_pc_to_pi.text() == "starting…"
    assert page.now_pi_to_pc.text() == "91.0 Mbit/s"  # the last Pi → PC test's result
    live.feed(LiveInterval(1, second, "pc_to_pi", Interval(1.0, 134.0, 0, omitted=True)))
    page.refresh()
    assert page.now_pc_to_pi.text() == "warming up…"  # never the 134.0
    live.feed(LiveInterval(1, second, "pc_to_pi", Interval(2.0, 93.0, 0)))
    page.refresh()
    assert page.now_pc_to_pi.text() == "93.0 Mbit/s"


def test_a_last_test_past_its_plan_says_finishing_not_zero(window: MainWindow) -> None:
    now = [0.0]
    live = LiveMeasurement(PLAN, 100.0, clock=lambda: now[0])
    page = window.again_page
    page.attach(live)
    for i, spec in enumerate(PLAN.tests):
        live.feed(Started(i, spec))
        now[0] += 4.0
        if i < len(PLAN.tests) - 1:
            live.feed(Finished(i, spec, ()))
    page.refresh()
    assert page.remaining.text() == "about 0:04 left"
    now[0] += 60.0  # the last test runs on past its plan
    page.refresh()
    assert page.remaining.text() == "finishing…"


def test_the_overall_bar_counts_the_keep_steps_measurements(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Keeping only what helps" measuring 3 tweaks one at a time: the bar under the page says
    their time, not "about 0:00 left", and counts down as they run."""
    now = [100.0]
    flow = window.flow
    monkeypatch.setattr(FlowController, "running", property(lambda self: True))
    flow.estimate = FlowEstimate(STEPS, PLAN, clock=lambda: now[0])
    flow.step_ids = list(STEPS)
    window._flow_started_at = time.monotonic()
    for step in ("baseline", "tune", "measure_again"):
        flow._on_event(FlowStep(step, "started"))
        flow._on_event(FlowStep(step, "done"))
    flow._on_event(FlowStep("keep", "started"))
    flow._on_event(StepPlanned(3))
    window._update_next()
    text = window.next_bar.flow_text.text()
    each = measure_seconds(PLAN) + STEP_OVERHEAD_SECONDS
    assert text == (
        f"Tune & Measure, step 4 of 5 (Keeping only what helps): about {clock_text(3 * each)} left"
    )
    flow._on_event(Started(0, PLAN.tests[0]))
    now[0] += 5.0  # 5 s into the first tweak's run (its tuning is done once it measures)
    window._update_next()
    counting = clock_text(3 * each - STEP_OVERHEAD_SECONDS - 5)
    assert window.next_bar.flow_text.text().endswith(f": about {counting} left")
    monkeypatch.undo()  # the flow never ran: the window's close must not wait for it
