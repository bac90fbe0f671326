"""The one-click flow's time left, from its own events (no Qt: the GUI only shows the words).

Every step counts what it plans: a measuring step one run of the plan (each test's idle
probes, warm-up and counted seconds), tuning a few SSH round trips, and a step that measures
each tweak on its own ("Find what helps", or "Keeping only what helps" when the tweaks
together helped) one run of the plan per tweak and one of the baseline again, as it
announces with `StepPlanned` before it begins. The running measurement counts down through its
tests, and extra trials (sbctune.measure.steady) add their seconds, so the estimate grows with
them. When a test runs longer than planned the estimate never claims "0:00": it says the flow
is finishing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from sbctune.measure.latency.during import IDLE_S
from sbctune.measure.plans import Plan, TestSpec
from sbctune.measure.runner import TestFinished, TestStarted
from sbctune.measure.steady import TrialsAdded
from sbctune.workflow.flow_types import FlowEvent, FlowStep, StepPlanned, TweaksPlanned

# What the tuning step takes, roughly: plan, apply, verify over SSH.
TUNE_SECONDS = 15.0
# Per tweak measured on its own, beyond the measurement: plan, apply, verify, revert.
STEP_OVERHEAD_SECONDS = 15.0
MEASURING_STEPS = ("baseline", "calibrate", "measure_again")
FINISHING = "finishing…"
# Until a flow that may measure each tweak alone has said how many tweaks it plans: a figure
# shown then left those runs out and jumped from 1:51 to 4:53 a few seconds later (walk 27).
ESTIMATING = "estimating the time left…"


def run_seconds(spec: TestSpec) -> float:
    """One test as it runs: the latency probes' idle seconds, its warm-up and its seconds."""
    return IDLE_S + spec.duration + spec.omit


def measure_seconds(plan: Plan) -> float:
    """One measurement of the plan, as the live view lays it out."""
    return float(sum(run_seconds(t) for t in plan.tests))


def per_tweak_seconds(plan: Plan) -> float:
    """One tweak measured on its own: a run of the plan and the tuning around it."""
    return measure_seconds(plan) + STEP_OVERHEAD_SECONDS


def runs_to_tell_apart(tweaks: int) -> int:
    """The runs "Find what helps" plans: one per tweak, and the baseline again after them
    (counted from the start: the time left may fall when it is not needed, never jump up)."""
    return tweaks + 1 if tweaks > 0 else 0


def clock_text(seconds: float) -> str:
    whole = max(0, round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def left_text(seconds: float, running: bool = True) -> str:
    """The time left in words, "about 3:20 left"; or "finishing…" while something still
    runs past its plan (never "0:00 left" while it runs)."""
    if running and seconds < 1:
        return FINISHING
    return f"about {clock_text(seconds)} left"


class Measurement:
    """The running measurement's plan and how far it got (extra trials included)."""

    def __init__(self, plan: Plan, clock: Callable[[], float]) -> None:
        self._clock = clock
        self.tests = list(plan.tests)
        self.done_seconds = 0.0
        self._test: TestSpec | None = None
        self._test_started_at = 0.0

    def feed(self, event: object) -> None:
        if isinstance(event, TestStarted):
            self._test = event.spec
            self._test_started_at = self._clock()
        elif isinstance(event, TrialsAdded):
            self.tests[event.test_index : event.test_index] = [e.spec for e in event.extra]
        elif isinstance(event, TestFinished):
            self.done_seconds += run_seconds(event.spec)
            self._test = None

    def seconds_left(self) -> float:
        """What is left of its plan; a test running past its plan counts as at its end."""
        total = sum(run_seconds(t) for t in self.tests)
        within = 0.0
        if self._test is not None:
            within = min(self._clock() - self._test_started_at, run_seconds(self._test))
        return max(0.0, total - self.done_seconds - within)


class FlowEstimate:
    """Fed with every event of one flow run; says the time left of the whole flow."""

    def __init__(
        self,
        steps: Sequence[str],
        plan: Plan,
        *,
        tweaks: int = 0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """`steps`: the step ids the flow runs, in order. `tweaks`: how many tweaks a "Find
        what helps" step is expected to measure (until the step says how many it does)."""
        self.steps = list(steps)
        self.plan = plan
        self._clock = clock
        self._expected_tweaks = tweaks
        self.current: str | None = None
        self._finished: set[str] = set()
        self._step_started_at = clock()
        self._planned: int | None = None  # measurements the current step announced
        self._started_runs = 0  # measurements of the current step begun so far
        self._measurement: Measurement | None = None
        self.ended = False
        # "Keeping only what helps" counts one run per tweak: known once the flow says how
        # many (TweaksPlanned, after its first SSH round trip) or given here.
        self._tweaks_said = tweaks > 0 or "keep" not in self.steps

    # ------------------------------------------------------------------ feeding
    def feed(self, event: FlowEvent) -> None:
        if isinstance(event, FlowStep):
            self._on_step(event)
        elif isinstance(event, TweaksPlanned):  # before the baseline, then after the tuning
            self._expected_tweaks = event.count
            self._tweaks_said = True
        elif isinstance(event, StepPlanned):  # said again before each tweak: from now on
            self._tweaks_said = True
            self._planned = event.measurements
            self._started_runs = 0
            self._measurement = None
        elif isinstance(event, TestStarted) and event.test_index == 0:
            self._started_runs += 1  # a new measurement of the current step
            self._measurement = Measurement(self.plan, self._clock)
            self._measurement.feed(event)
        elif isinstance(event, TestStarted | TestFinished | TrialsAdded) and self._measurement:
            self._measurement.feed(event)

    def _on_step(self, event: FlowStep) -> None:
        # past the tuning (which says its tweaks) or at the keep step, the count is its own
        self._tweaks_said = (
            self._tweaks_said
            or event.step == "keep"
            or (event.step == "tune" and event.status != "started")
        )
        if event.status == "started":
            self.current = event.step
            self._step_started_at = self._clock()
            self._planned = 1 if event.step in MEASURING_STEPS else None
            self._started_runs = 0
            self._measurement = None
            return
        self._finished.add(event.step)
        if event.step == self.current:
            self._measurement = None
        if event.step == "results" or all(s in self._finished for s in self.steps):
            self.ended = True

    # ------------------------------------------------------------------ reading
    def _planned_seconds(self, step: str) -> float:
        """A step not begun yet."""
        if step in MEASURING_STEPS:
            return measure_seconds(self.plan)
        if step == "tune":
            return TUNE_SECONDS
        if step == "find":
            return runs_to_tell_apart(self._expected_tweaks) * per_tweak_seconds(self.plan)
        if step == "keep" and self._expected_tweaks > 1:
            # Each tweak alone, counted from the start (the flow says how many it plans):
            # the time left may then fall when they did not help, rather than jump up.
            return runs_to_tell_apart(self._expected_tweaks) * per_tweak_seconds(self.plan)
        return 0.0

    def _current_seconds(self) -> float:
        step = self.current
        assert step is not None
        running = self._measurement.seconds_left() if self._measurement is not None else None
        if step == "tune":
            return max(0.0, TUNE_SECONDS - (self._clock() - self._step_started_at))
        if step in MEASURING_STEPS:
            return measure_seconds(self.plan) if running is None else running
        if step in ("find", "keep") and self._planned is None:  # until it says how many
            return self._planned_seconds(step)
        planned = self._planned or 0
        to_come = max(0, planned - self._started_runs) * per_tweak_seconds(self.plan)
        return to_come + (running or 0.0)

    def seconds_left(self) -> float:
        if self.ended:
            return 0.0
        left = 0.0
        begun = self.current is None
        for step in self.steps:
            begun = begun or step == self.current  # (also between a step's end and the next)
            if step in self._finished:
                continue
            if step == self.current:
                left += self._current_seconds()
            elif begun:
                left += self._planned_seconds(step)
        return left

    def fraction_done(self, elapsed: float) -> float:
        """0..1 of the whole flow, from the time it has run and the time left."""
        if self.ended:
            return 1.0
        if not self._tweaks_said:  # a share of a total not known yet would jump back
            return 0.0
        return elapsed / max(elapsed + self.seconds_left(), 1e-9)

    def text(self) -> str:
        if not self.ended and not self._tweaks_said:
            return ESTIMATING
        return left_text(self.seconds_left(), running=not self.ended)
