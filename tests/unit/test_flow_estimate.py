"""The one-click flow's time left (sbctune.workflow.estimate), fed with the flow's own events
on a clock the test moves: it counts every step's plan, the tweaks a keep/find step measures
one at a time (and counts down through them), grows with extra trials, and never says "0:00
left" while a test runs past its plan."""

from __future__ import annotations

import itertools
from dataclasses import replace

from sbctune.measure.plans import TestSpec as Spec
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import TestFinished as Finished
from sbctune.measure.runner import TestStarted as Started
from sbctune.measure.steady import ExtraTrial, TrialsAdded
from sbctune.workflow.estimate import (
    FINISHING,
    STEP_OVERHEAD_SECONDS,
    TUNE_SECONDS,
    FlowEstimate,
    left_text,
    measure_seconds,
    run_seconds,
    runs_to_tell_apart,
)
from sbctune.workflow.flow_types import FlowStep, StepPlanned, TweaksPlanned

PLAN = plan_named("quick")
EACH = measure_seconds(PLAN)
FLOW = ["baseline", "tune", "measure_again", "keep", "results"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _estimate(steps: list[str], **kw: int) -> tuple[FlowEstimate, Clock]:
    clock = Clock()
    return FlowEstimate(steps, PLAN, clock=clock, **kw), clock


def _run_tests(est: FlowEstimate, clock: Clock, tests: list[Spec]) -> None:
    for i, spec in enumerate(tests):
        est.feed(Started(i, spec))
        clock.now += run_seconds(spec)
        est.feed(Finished(i, spec, ()))


def test_the_plan_of_a_quick_run_counts_idle_probes_warm_up_and_every_trial_once() -> None:
    assert len(PLAN.tests) == 6  # 3 trials per direction, each a test of its own
    assert EACH == 6 * (2 + 5 + 1)  # idle probes, test, warm-up: not times the trials again


def test_before_it_starts_every_step_counts_its_plan() -> None:
    est, _ = _estimate(FLOW)
    assert est.seconds_left() == 2 * EACH + TUNE_SECONDS  # keep: only if the tweaks helped
    find, _ = _estimate(["baseline", "find", "results"], tweaks=3)
    # three tweaks alone and the baseline again after them
    assert find.seconds_left() == EACH + 4 * (EACH + STEP_OVERHEAD_SECONDS)


def test_keeping_only_what_helps_counts_its_measurements_and_counts_down() -> None:
    est, clock = _estimate(FLOW)
    for step in ("baseline", "tune", "measure_again"):
        est.feed(FlowStep(step, "started"))
        est.feed(FlowStep(step, "done"))
    est.feed(FlowStep("keep", "started"))
    # The tweaks together helped: the step measures 3 of them, one at a time.
    est.feed(StepPlanned(3))
    first = est.seconds_left()
    assert first == 3 * (EACH + STEP_OVERHEAD_SECONDS)
    assert est.text() == f"about {first // 60:.0f}:{first % 60:02.0f} left" != "about 0:00 left"
    est.feed(Started(0, PLAN.tests[0]))
    clock.now += 4
    assert est.seconds_left() == first - STEP_OVERHEAD_SECONDS - 4  # counting down
    clock.now -= 4
    _run_tests(est, clock, list(PLAN.tests))
    est.feed(StepPlanned(2))  # the second tweak
    second = est.seconds_left()
    assert second == 2 * (EACH + STEP_OVERHEAD_SECONDS) < first
    est.feed(FlowStep("keep", "done"))
    assert est.seconds_left() == 0


def test_find_what_helps_counts_down_through_each_tweak() -> None:
    est, clock = _estimate(["baseline", "find", "results"], tweaks=2)
    est.feed(FlowStep("baseline", "started"))
    _run_tests(est, clock, list(PLAN.tests))
    est.feed(FlowStep("baseline", "done"))
    est.feed(FlowStep("find", "started"))
    seen = [est.seconds_left()]
    # as find_what_helps says it: each tweak with the baseline again after them, then that run
    for left in (runs_to_tell_apart(2), runs_to_tell_apart(1), 1):
        est.feed(StepPlanned(left))
        seen.append(est.seconds_left())
        for i, spec in enumerate(PLAN.tests):
            est.feed(Started(i, spec))
            clock.now += run_seconds(spec) / 2
            seen.append(est.seconds_left())
            clock.now += run_seconds(spec) / 2
            est.feed(Finished(i, spec, ()))
    assert seen[0] == 3 * (EACH + STEP_OVERHEAD_SECONDS)
    assert all(b <= a for a, b in itertools.pairwise(seen)), seen
    assert seen[-1] > 0


def test_the_time_left_grows_with_extra_trials() -> None:
    est, clock = _estimate(FLOW)
    est.feed(FlowStep("baseline", "started"))
    _run_tests(est, clock, list(PLAN.tests[:5]))
    before = est.seconds_left()
    last = PLAN.tests[-1]
    extra = ExtraTrial(replace(last, trial=4, trials=4, extra=True), "the trials disagree")
    est.feed(TrialsAdded(6, (extra,)))
    assert est.seconds_left() == before + run_seconds(extra.spec)


def test_a_test_past_its_plan_says_finishing_never_zero() -> None:
    est, clock = _estimate(["measure_again", "results"])
    est.feed(FlowStep("measure_again", "started"))
    _run_tests(est, clock, list(PLAN.tests[:5]))
    last = PLAN.tests[-1]
    est.feed(Started(5, last))
    clock.now += run_seconds(last) - 3
    assert est.text() == "about 0:03 left"
    clock.now += 20  # the last test runs on (a slow link, a retry): still running
    assert est.seconds_left() == 0
    assert est.text() == FINISHING
    est.feed(Finished(5, last, ()))
    est.feed(FlowStep("measure_again", "done"))
    est.feed(FlowStep("results", "started"))
    est.feed(FlowStep("results", "done"))
    assert est.text() == "about 0:00 left" and est.fraction_done(100.0) == 1.0


def test_the_words_for_the_time_left() -> None:
    assert left_text(125.4) == "about 2:05 left"
    assert left_text(0.4) == FINISHING == "finishing…"
    assert left_text(0.0, running=False) == "about 0:00 left"


def _through_tuning(est: FlowEstimate, clock: Clock) -> list[float]:
    """Baseline, tuning and measuring again, as the flow says them; the time left after each."""
    seen = []
    for step in ("baseline", "tune", "measure_again"):
        est.feed(FlowStep(step, "started"))
        if step != "tune":
            _run_tests(est, clock, list(PLAN.tests))
        else:
            clock.now += TUNE_SECONDS
        est.feed(FlowStep(step, "done"))
        seen.append(est.seconds_left())
    return seen


def test_keeping_only_what_helps_is_counted_from_the_start() -> None:
    """Walk 14: "about 1:49 left" at the start, 0:39 then 3:09 when the step began. The flow
    says how many tweaks it plans before the baseline: they are counted from then on, and the
    step's start does not make the time left jump up."""
    est, clock = _estimate(FLOW)
    est.feed(TweaksPlanned(3))
    each_alone = 4 * (EACH + STEP_OVERHEAD_SECONDS)  # three alone, the baseline again
    assert est.seconds_left() == 2 * EACH + TUNE_SECONDS + each_alone
    seen = [est.seconds_left(), *_through_tuning(est, clock)]
    est.feed(FlowStep("keep", "started"))
    seen.append(est.seconds_left())
    est.feed(StepPlanned(runs_to_tell_apart(3)))  # the tweaks together helped: as counted
    seen.append(est.seconds_left())
    assert all(b <= a for a, b in itertools.pairwise(seen)), seen
    assert seen[-1] == each_alone


def test_the_tuning_says_how_many_it_applied() -> None:
    est, _clock = _estimate(FLOW)
    est.feed(TweaksPlanned(3))
    est.feed(FlowStep("baseline", "started"))
    est.feed(FlowStep("baseline", "done"))
    est.feed(FlowStep("tune", "started"))
    est.feed(TweaksPlanned(1))  # one applied: nothing to tell apart afterwards
    est.feed(FlowStep("tune", "done"))
    assert est.seconds_left() == EACH


def test_the_first_estimate_counts_only_the_tweaks_the_tuning_will_change() -> None:
    """Walk 15, problem 2: the flow's first "time left" counted the lab's offloads (already on)
    as a fourth tweak to measure alone: ~1 min more than the tuning step then announced."""
    from sbctune.tuning import catalog
    from sbctune.tuning.model import Change, PlannedTweak
    from sbctune.workflow.steps import to_change

    def item(tweak: str, before: str) -> PlannedTweak:
        return PlannedTweak(catalog.tweak(tweak), True, "",
                            changes=[Change("knob", f"{tweak} value", before, "on")])  # fmt: skip

    items = [item("rps-rfs", "0"), item("cpu-governor-performance", "ondemand"),
             item("socket-buffers", "212992"), item("offloads-on", "on")]  # fmt: skip
    first, _ = _estimate(FLOW)
    first.feed(TweaksPlanned(to_change(items)))  # before the baseline (announce_tweaks)
    assert to_change(items) == 3  # as the tuning step counts "applied" afterwards
    # The bar's first words: three tweaks alone, as the flow will measure them, not four.
    each_alone = EACH + STEP_OVERHEAD_SECONDS
    assert first.seconds_left() == 2 * EACH + TUNE_SECONDS + 4 * each_alone  # + baseline again
