"""The guided path's "Next" after each step, and Tune & Measure's time left, which grows when
a measurement adds extra trials (sbctune.measure.steady)."""

from __future__ import annotations

from dataclasses import replace

from sbctune.measure.plans import plan_named
from sbctune.measure.runner import TestStarted as Started
from sbctune.measure.steady import ExtraTrial, TrialsAdded
from sbctune.ui.controllers.live import LiveMeasurement
from sbctune.ui.controllers.wizard import (
    TUNE_ESTIMATE_S,
    Progress,
    flow_seconds_left,
    next_action,
    planned_seconds,
)

PLAN = plan_named("quick")
STEPS = ["baseline", "tune", "measure_again", "results"]
NOTHING = Progress(connected=False, inspected=False, baseline=False, tuned=False, after=False)


def _next(page: str, **done: bool) -> str | None:
    action = next_action(page, replace(NOTHING, **done))
    return None if action is None else f"{action.page}: {action.text}"


def test_each_step_leads_to_the_next_once_done() -> None:
    assert _next("connect") is None
    assert _next("connect", connected=True) == "inspect: Next: Inspect the Pi"
    assert _next("inspect", connected=True) is None  # still reading the Pi
    assert _next("inspect", inspected=True) == "baseline: Next: Measure a baseline"
    assert _next("baseline", inspected=True) is None
    assert _next("baseline", baseline=True) == "tune: Next: Tune"
    assert _next("tune", baseline=True) == "results: Next: Results, without tuning"
    assert _next("tune", baseline=True, tuned=True) == "again: Next: Measure again"
    assert _next("again", baseline=True, tuned=True) is None
    assert _next("again", after=True) == "results: Next: Results"
    assert _next("results", after=True) is None


def test_skipping_tuning_is_offered_but_not_focused() -> None:
    skip = next_action("tune", replace(NOTHING, baseline=True))
    tune = next_action("baseline", replace(NOTHING, baseline=True))
    assert skip is not None and not skip.focus
    assert tune is not None and tune.focus


def test_the_time_left_counts_every_step_still_to_come() -> None:
    each = planned_seconds(PLAN)
    assert flow_seconds_left(STEPS, "baseline", PLAN, None) == 2 * each + TUNE_ESTIMATE_S
    assert flow_seconds_left(STEPS, "tune", PLAN, None) == each + TUNE_ESTIMATE_S
    assert flow_seconds_left(STEPS, "results", PLAN, None) == 0


def test_the_time_left_grows_with_extra_trials() -> None:
    ticks = iter(float(x) for x in range(10_000))
    live = LiveMeasurement(PLAN, 1000.0, clock=lambda: next(ticks))
    live.feed(Started(0, PLAN.tests[0]))
    before = flow_seconds_left(STEPS, "baseline", PLAN, live)
    last = PLAN.tests[-1]
    extra = ExtraTrial(replace(last, trial=4, trials=4, extra=True), "the trials disagree")
    live.feed(TrialsAdded(len(PLAN.tests), (extra,)))
    after = flow_seconds_left(STEPS, "baseline", PLAN, live)
    assert after >= before + extra.spec.duration, (before, after)
