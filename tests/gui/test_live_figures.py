"""What the measuring page shows while a run goes on: the big figures never show an omitted
(ramp-up) second and end on the test's result; the latency line is a median over a named
window; the plot's time axis grows when extra trials lengthen the run."""

from __future__ import annotations

from dataclasses import replace

from sbctune.measure.latency.during import LiveLatency
from sbctune.measure.outcome import DirectionOutcome, Interval
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import LiveInterval
from sbctune.measure.runner import TestFinished as Finished
from sbctune.measure.runner import TestStarted as Started
from sbctune.measure.steady import ExtraTrial, TrialsAdded
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow
from sbctune.ui.pages.measure_page import latency_text

PLAN = plan_named("quick")


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
