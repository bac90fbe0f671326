"""Walk 25: `measure --trials 2` on the cm4-i340-igb lab measured PC -> Pi 938.3 and 930.7
Mbit/s and said "the 2 trials disagree (their mean ±5%, more than ±5%)": the interval's
5.15 % was rounded to the limit it exceeds. The spread reads larger than the limit now."""

from __future__ import annotations

from sbctune.measure.plans import plan_named
from sbctune.measure.steady import extra_round
from tests.unit.test_measure_steady import outcomes

TWO = plan_named("quick").with_overrides(trials=2)
WALK = {"pi_to_pc": [937.3, 943.3], "pc_to_pi": [938.3, 930.7]}  # the walk's trial means


def test_a_spread_just_over_the_limit_reads_over_it() -> None:
    (extra,) = extra_round(TWO, TWO.tests, outcomes(WALK))
    assert extra.why == (
        "PC → Pi: the 2 trials disagree (their mean ±5.2 %, more than ±5 %); one more trial"
    )
