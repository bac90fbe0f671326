"""Plans run each test as interleaved trials; a run folds them into one figure per direction
and mode and keeps each trial's mean."""

from __future__ import annotations

import pytest

from sbctune.measure.outcome import DirectionOutcome, Interval, MeasureRun
from sbctune.measure.plans import plan_named
from sbctune.measure.table import text
from sbctune.measure.trials import fold_all


def test_quick_plan_is_at_least_three_trials_of_five_seconds_interleaved() -> None:
    plan = plan_named("quick")
    assert plan.trials >= 3
    assert [(t.directions[0], t.trial) for t in plan.tests[:4]] == [
        ("pi_to_pc", 1), ("pc_to_pi", 1), ("pi_to_pc", 2), ("pc_to_pi", 2),
    ]  # fmt: skip
    assert all(t.duration >= 5 and t.omit >= 1 for t in plan.tests)
    assert "trial 2 of 3" in plan.tests[2].label
    thorough = plan_named("thorough")
    assert thorough.trials > plan.trials


def test_overrides_keep_or_change_the_trials() -> None:
    plan = plan_named("quick").with_overrides(duration=2)
    assert plan.trials == 3 and len(plan.tests) == 6 and plan.name == "custom"
    two = plan_named("quick").with_overrides(trials=2)
    assert two.trials == 2 and len(two.tests) == 4


def _trial(direction: str, readings: list[float], index: int) -> DirectionOutcome:
    intervals = [Interval(1.0, 900.0, omitted=True)] + [
        Interval(float(i + 2), x) for i, x in enumerate(readings)
    ]
    mean = sum(readings) / len(readings)
    return DirectionOutcome(direction, "half", mean_mbps=mean, complete=True,  # type: ignore[arg-type]
                            intervals=intervals, test_index=index, retransmits=1)  # fmt: skip


def test_trials_fold_into_one_figure_with_each_trials_mean() -> None:
    outcomes = [
        _trial("pi_to_pc", [730, 740], 0), _trial("pc_to_pi", [940, 950], 1),
        _trial("pi_to_pc", [720, 724], 2), _trial("pc_to_pi", [944, 946], 3),
    ]  # fmt: skip
    folded = fold_all(outcomes)
    assert [o.direction for o in folded] == ["pi_to_pc", "pc_to_pi"]
    tx = folded[0]
    assert tx.trial_means == [735.0, 722.0]
    assert tx.mean_mbps == pytest.approx(728.5)  # the omitted seconds are not counted
    assert tx.retransmits == 2 and tx.test_index == 0
    assert [i.t for i in tx.intervals] == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]  # one time axis
    assert fold_all(folded) == folded  # idempotent
    run = MeasureRun("pi", "eth1", "quick", "builtin", "pc", "pi", "now", tests=folded)
    assert "728 Mbit/s (2 trials, 722–735)" in text(run)
