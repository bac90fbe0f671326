"""The guided path's "Next" step and the one-click flow's time left (no Qt: plain rules).

Each step of the path ends with one clear "Next: ..." action; which one depends on what has
been done so far (a Pi connected, inspected, a baseline, tuning applied, a measurement after).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sbctune.measure.plans import Plan
from sbctune.ui.controllers.live import LiveMeasurement

# What the one-click flow's tuning step takes, roughly: apply, verify, confirm over SSH.
TUNE_ESTIMATE_S = 15.0
MEASURING_STEPS = ("baseline", "calibrate", "measure_again")


@dataclass(frozen=True)
class Progress:
    """What the path has, as far as "Next" cares."""

    connected: bool
    inspected: bool
    baseline: bool
    tuned: bool  # tuning applied (guarded or kept) in this session
    after: bool


@dataclass(frozen=True)
class NextAction:
    page: str  # the page key to go to
    text: str  # the button's words
    focus: bool = True  # the natural way on: Enter takes it (not so a way round a step)


def next_action(page: str, done: Progress) -> NextAction | None:
    """The "Next" of `page`, once its step has done its work; None while it has not (or at
    the end of the path)."""
    if page == "connect" and done.connected:
        return NextAction("inspect", "Next: Inspect the Pi")
    if page == "inspect" and done.inspected:
        return NextAction("baseline", "Next: Measure a baseline")
    if page == "baseline" and done.baseline:
        return NextAction("tune", "Next: Tune")
    if page == "tune" and done.tuned:
        return NextAction("again", "Next: Measure again")
    if page == "tune" and done.baseline:
        return NextAction("results", "Next: Results, without tuning", focus=False)
    if page == "again" and done.after:
        return NextAction("results", "Next: Results")
    return None


def planned_seconds(plan: Plan) -> float:
    """A measurement's length as the live view lays it out (idle probes, warm-up, tests)."""
    return LiveMeasurement(plan).total_seconds


def flow_seconds_left(
    steps: Sequence[str], current: str | None, plan: Plan, live: LiveMeasurement | None
) -> float:
    """Time left of the one-click flow running `steps` (ids, in order), now at `current`.

    The running measurement counts what its live view has left, extra trials included, so
    the estimate grows when a measurement adds trials; later steps count their plan.
    """
    each = planned_seconds(plan)
    left = 0.0
    started = current is None
    for step in steps:
        if step == current:
            started = True
            if step in MEASURING_STEPS:
                left += live.remaining_seconds() if live is not None else each
            elif step == "tune":
                left += TUNE_ESTIMATE_S
            continue
        if not started:
            continue
        if step in MEASURING_STEPS:
            left += each
        elif step == "tune":
            left += TUNE_ESTIMATE_S
    return left


def clock_text(seconds: float) -> str:
    whole = max(0, round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"
