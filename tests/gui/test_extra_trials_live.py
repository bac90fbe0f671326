"""The Baseline page while a run adds an extra trial (sbctune.measure.steady): the status line
says which trial is extra and why, and the progress and time left count it."""

from __future__ import annotations

from dataclasses import replace

from sbctune.measure.iperf_output import Direction
from sbctune.measure.outcome import Interval
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import LiveInterval
from sbctune.measure.runner import TestFinished as Finished
from sbctune.measure.runner import TestStarted as Started
from sbctune.measure.steady import ExtraTrial, TrialsAdded
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.main_window import MainWindow


def test_the_page_shows_the_extra_trial_and_counts_its_time(window: MainWindow) -> None:
    plan = plan_named("quick")
    ticks = iter(float(x) for x in range(10_000))
    live = LiveMeasurement(plan, 1000.0, clock=lambda: next(ticks))
    planned_seconds = live.total_seconds
    for index, spec in enumerate(plan.tests):
        live.feed(Started(index, spec))
        direction: Direction = spec.directions[0]
        live.feed(LiveInterval(index, spec, direction, Interval(1.0, 900.0, 0, False)))
        live.feed(Finished(index, spec, ()))
    last = plan.tests[-1]  # PC -> Pi, trial 3
    extra = ExtraTrial(
        replace(last, trial=4, trials=4, extra=True),
        "PC → Pi: the 3 trials disagree (their mean ±21 %, more than ±5 %); one more trial",
    )
    at = len(plan.tests)
    live.feed(TrialsAdded(at, (extra,)))
    live.feed(Started(at, extra.spec))
    page = window.baseline_page
    page.show_still(live)
    page.refresh()
    assert page.status.text() == (
        "Test 7 of 7: PC → Pi, one way, 4 streams, 5 s, extra trial 4 (the first 3 disagreed)"
    )
    # The extra trial's seconds (its idle probes, warm-up and test) join the run's length, so
    # the bar is not full while it runs and the time left is not zero.
    assert live.total_seconds > planned_seconds + extra.spec.duration
    assert 0 < page.progress.value() < 1000
    assert page.remaining.text().startswith("about ")
    assert page.remaining.text() != "about 0:00 left"
