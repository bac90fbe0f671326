"""Extra trials when a test's trials disagree (sbctune.measure.steady).

The trial means are real: rounds of tests/bench/bench_noise.py on the pi4-ax88179 lab,
2026-11-23, on the busy 2-core machine (the figures in README, "Honest proof"): round 2's tuned
run measured PC -> Pi [799, 898, 948] where the baseline runs read [948, 948, 948]."""

from __future__ import annotations

from dataclasses import replace

from sbctune.compare import change
from sbctune.measure.outcome import DirectionOutcome
from sbctune.measure.plans import Plan, plan_named
from sbctune.measure.plans import TestSpec as Spec
from sbctune.measure.steady import extra_round

QUICK = plan_named("quick")
STEADY_PI_TO_PC = [739.0, 738.0, 738.0]  # round 1, baseline
DIPPED_PC_TO_PI = [799.0, 898.0, 948.0]  # round 2, tuned
STEADY_PC_TO_PI = [948.0, 948.0, 948.0]  # round 1, baseline


def outcomes(
    trials: dict[str, list[float]], mode: str = "half", complete: bool = True
) -> list[DirectionOutcome]:
    return [
        DirectionOutcome(direction, mode, mean_mbps=mean, complete=complete)  # type: ignore[arg-type]
        for direction, means in trials.items()
        for mean in means
    ]


def test_the_shipped_plans_allow_two_extra_trials_within_5_percent() -> None:
    for name in ("quick", "thorough"):
        plan = plan_named(name)
        assert (plan.extra_trials, plan.steady_within) == (2, 0.05)
    # --trials and the UDP option keep the rule.
    assert QUICK.with_overrides(trials=4).extra_trials == 2
    assert QUICK.with_udp(50).extra_trials == 2


def test_steady_trials_run_nothing_more() -> None:
    ran = outcomes({"pi_to_pc": STEADY_PI_TO_PC, "pc_to_pi": STEADY_PC_TO_PI})
    assert extra_round(QUICK, QUICK.tests, ran) == []


def test_a_dipped_trial_gets_one_more_trial_of_that_test_only() -> None:
    ran = outcomes({"pi_to_pc": STEADY_PI_TO_PC, "pc_to_pi": DIPPED_PC_TO_PI})
    extra = extra_round(QUICK, QUICK.tests, ran)
    assert len(extra) == 1
    spec = extra[0].spec
    assert spec.directions == ("pc_to_pi",) and spec.extra and spec.trial == 4
    assert (spec.duration, spec.omit, spec.streams) == (5, 1, 4)  # the planned test, again
    assert spec.label == "PC → Pi, one way, 4 streams, 5 s, extra trial 4 (the first 3 disagreed)"
    # 95 % interval of [799, 898, 948]: ±(4.303 × 76 / √3) = ±189 Mbit/s, 21 % of 882.
    assert extra[0].why == (
        "PC → Pi: the 3 trials disagree (their mean ±21 %, more than ±5 %); one more trial"
    )


def test_no_more_than_the_plans_extra_trials() -> None:
    ran = outcomes({"pi_to_pc": STEADY_PI_TO_PC, "pc_to_pi": [*DIPPED_PC_TO_PI, 800.0, 950.0]})
    first = extra_round(QUICK, QUICK.tests, ran)[0].spec
    second = replace(first, trial=5, trials=5)
    assert extra_round(QUICK, (*QUICK.tests, first, second), ran) == []
    assert len(extra_round(QUICK, (*QUICK.tests, first), ran)) == 1  # one left
    assert extra_round(replace(QUICK, extra_trials=0), QUICK.tests, ran) == []


def test_one_trial_or_incomplete_trials_give_no_interval_and_no_extra() -> None:
    one = QUICK.with_overrides(trials=1)
    assert extra_round(one, one.tests, outcomes({"pc_to_pi": [799.0]})) == []
    broken = outcomes({"pc_to_pi": DIPPED_PC_TO_PI}, complete=False)
    assert extra_round(QUICK, QUICK.tests, broken) == []


def test_full_duplex_says_which_mode_and_udp_tests_never_repeat() -> None:
    both = Spec("full", ("pi_to_pc", "pc_to_pi"), 13, 2, 10)
    udp = Spec("half", ("pc_to_pi",), 5, 1, 1, udp_mbps=50.0)
    plan = Plan("custom", "full", (both, replace(both, trial=2), udp), extra_trials=1)
    ran = outcomes({"pi_to_pc": [300.0, 160.0]}, mode="full")
    extra = extra_round(plan, plan.tests, ran)
    assert [e.spec.mode for e in extra] == ["full"]
    assert extra[0].why.startswith("Both ways, Pi → PC: the 2 trials disagree")


def test_extra_trials_turn_a_too_noisy_a_a_pair_into_no_change() -> None:
    """Why it exists: the same setup twice, one trial dipped. Three trials each cannot tell;
    with the two extra trials that run measured (steady again), the pair reads no change."""
    assert change(STEADY_PC_TO_PI, DIPPED_PC_TO_PI).verdict == "too_noisy"
    # The next rounds' PC -> Pi trials on the same setup (rounds 3 and 5): 945, 946.
    assert change(STEADY_PC_TO_PI, [*DIPPED_PC_TO_PI, 945.0, 946.0]).verdict == "no_change"
