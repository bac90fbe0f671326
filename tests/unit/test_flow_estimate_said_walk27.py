"""Walk 27 (Tune & Measure at 150 % against the pi4-ax88179 lab): the bar under the page said
"step 1 of 5: about 1:51 left" as the flow began and "about 4:53 left" six seconds later: the
first figure was shown before the flow had said how many tweaks "Keeping only what helps" may
measure one at a time, so it left those runs out. Until the flow says it, the words say the
time is being estimated and the bar stands at its start; from then on the time left only
falls while the runs go as planned."""

from __future__ import annotations

from sbctune.workflow.estimate import ESTIMATING, FlowEstimate, measure_seconds, per_tweak_seconds
from sbctune.workflow.flow_types import FlowStep, TweaksPlanned
from tests.unit.test_flow_estimate import FLOW, PLAN, Clock

EACH = measure_seconds(PLAN)


def test_no_figure_before_the_flow_says_its_tweaks_then_the_whole_count() -> None:
    clock = Clock()
    est = FlowEstimate(FLOW, PLAN, clock=clock)
    est.feed(FlowStep("baseline", "started"))
    assert est.text() == ESTIMATING
    assert est.fraction_done(4.0) == 0.0
    clock.now += 4
    est.feed(TweaksPlanned(3))
    first = est.seconds_left()
    assert first >= 2 * EACH + 3 * per_tweak_seconds(PLAN), "the keep step's runs are counted"
    assert est.text().startswith("about ") and est.text() != ESTIMATING
    assert 0.0 < est.fraction_done(4.0) < 1.0


def test_a_flow_without_the_keep_step_or_with_its_tweaks_given_shows_a_figure_at_once() -> None:
    find = FlowEstimate(["baseline", "find", "results"], PLAN, tweaks=3, clock=Clock())
    assert find.text().startswith("about ")
    given = FlowEstimate(FLOW, PLAN, tweaks=2, clock=Clock())
    assert given.text().startswith("about ")


def test_no_tweak_to_change_is_said_too() -> None:
    est = FlowEstimate(FLOW, PLAN, clock=Clock())
    est.feed(TweaksPlanned(0))
    assert est.text().startswith("about ")
