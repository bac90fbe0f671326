"""The change between two runs as a 95 % interval from their trials, and its verdict.

Recorded data: two `sbctune measure --nic eth1` runs (quick plan: 3 trials × 5 s per direction,
1 s omitted each) on the virtual Pi lab, profile pi4-ax88179, nothing changed between them
(stream P, 2026-11-23, a machine shared by several engineers). The per-second readings below
are the counted seconds of each run as the history stored them.
"""

from __future__ import annotations

import math
import statistics

import pytest

from sbctune.compare import change, compare, mean_interval, t975
from sbctune.history.records import Interval, RunRecord, TestRecord
from tests.unit.export.seed_runs import START

# PC → Pi, run 1 then run 2 (A/A): per-second readings and the three trial means.
AA_PC_TO_PI_SECONDS = (
    [948, 948, 939, 939, 949, 918, 940, 942, 939, 942, 924, 808, 879, 946, 899],
    [949, 949, 946, 948, 942, 944, 946, 947, 948, 947, 949, 948, 945, 944, 947],
)
AA_PC_TO_PI_TRIALS = ([944.6, 936.2, 891.2], [946.8, 946.4, 946.6])
# Pi → PC, the same two runs.
AA_PI_TO_PC_TRIALS = ([736.0, 736.8, 738.8], [741.2, 733.8, 731.0])


def old_rule_beyond_noise(first: list[float], second: list[float]) -> bool:
    """The rule compare used before trials: per-second readings taken as independent,
    |Δ| > max(2·√(s₁²/n₁ + s₂²/n₂), 2 % of the first mean)."""
    s1, s2 = statistics.pstdev(first), statistics.pstdev(second)
    se = math.sqrt(s1**2 / len(first) + s2**2 / len(second))
    delta = statistics.fmean(second) - statistics.fmean(first)
    return abs(delta) > max(2 * se, 0.02 * statistics.fmean(first))


def test_the_old_rule_called_this_a_a_pair_a_change_and_the_interval_does_not() -> None:
    before, after = AA_PC_TO_PI_SECONDS
    assert old_rule_beyond_noise(before, after)  # "+23 Mbit/s, beyond noise": wrong
    found = change(*AA_PC_TO_PI_TRIALS)
    assert found.verdict == "no_change"
    assert found.low < 0 < found.high
    assert found.text == "no change detected (−49 to +94)"


def test_a_steady_a_a_pair_is_no_change_either() -> None:
    found = change(*AA_PI_TO_PC_TRIALS)
    assert found.verdict == "no_change" and found.text.startswith("no change detected (")


def test_welch_interval_matches_a_hand_computation() -> None:
    # Δ = 3, SE = √(1/3 + 1/3), ν = 4 (equal variances and sizes), t = 2.776.
    found = change([10.0, 20.0, 30.0], [40.0, 50.0, 60.0])
    half = 2.776 * math.sqrt(2 * 100 / 3)
    assert found.df == pytest.approx(4)
    assert (found.low, found.high) == (pytest.approx(30 - half), pytest.approx(30 + half))
    assert found.verdict == "faster"
    assert found.text == f"faster by {30 - half:.0f} to {30 + half:.0f} Mbit/s"


def test_welch_satterthwaite_df_with_unequal_spreads() -> None:
    found = change([100.0, 110.0, 120.0, 130.0], [200.0, 201.0, 202.0])
    v1, v2 = statistics.variance([100, 110, 120, 130]) / 4, 1.0 / 3
    assert found.df == pytest.approx((v1 + v2) ** 2 / (v1**2 / 3 + v2**2 / 2))


@pytest.mark.parametrize(
    ("df", "expected"),
    [(1, 12.706), (4, 2.776), (30, 2.042), (35, 2.030), (50, 2.009), (1e9, 1.960), (0.3, 12.706)],
)
def test_t_quantile_from_the_table(df: float, expected: float) -> None:
    # 35 and 50 are not in the table: interpolated in 1/ν, within 0.1 % of the exact value.
    assert t975(df) == pytest.approx(expected, rel=1e-3)


def test_a_modelled_gain_is_called_faster_with_its_interval() -> None:
    found = change([736.0, 736.8, 738.8], [830.4, 836.2, 833.0])
    assert found.verdict == "faster"
    assert found.text.startswith("faster by ") and found.low > 80 and found.high < 110


def test_a_loss_is_called_slower() -> None:
    found = change([949.0, 947.0, 948.5], [901.0, 905.0, 899.0])
    assert found.verdict == "slower" and found.text.startswith("slower by ")


def test_wild_trials_are_too_noisy_to_tell() -> None:
    found = change([600.0, 900.0, 750.0], [700.0, 950.0, 640.0])
    assert found.verdict == "too_noisy"
    assert found.text.startswith("too noisy to tell (") and "run the thorough plan" in found.text


def test_a_tiny_sure_change_is_not_called_a_gain() -> None:
    # +2 Mbit/s at 940 with tiny spread: sure, but below the 1 % floor.
    found = change([940.0, 940.1, 939.9], [942.0, 942.1, 941.9])
    assert found.low > 0 and found.verdict == "no_change"


def test_an_a_a_calibration_raises_the_floor() -> None:
    before, after = [736.0, 736.8, 738.8], [750.1, 751.0, 752.2]
    assert change(before, after).verdict == "faster"
    # Two identical runs on this Pi came out 20 Mbit/s apart: +14 is not a change here.
    assert change(before, after, spread=20.0).verdict == "no_change"


def test_an_interval_far_off_zero_is_not_no_change() -> None:
    # bench_noise round 8 (2026-11-23, busy machine): the tuned run's first trial dipped, the
    # two extra trials were steady. The interval (+2 to +142) is narrower than ±10 % of 736
    # but reaches +19 %: not "no change detected"; the old rule said so.
    found = change([735.0, 737.0, 736.0], [709.0, 829.0, 835.0, 835.0, 834.0])
    assert 0 < found.low < found.floor and found.high > 0.10 * 736
    assert found.verdict == "too_noisy"


def test_one_trial_gives_no_interval() -> None:
    found = change([736.0], [834.0, 830.0])
    assert found.verdict == "unknown" and found.text.startswith("no interval")
    assert mean_interval([736.0]) is None


def _run(run_id: int, trials: list[float]) -> RunRecord:
    mean = statistics.fmean(trials)
    test = TestRecord(
        "pi_to_pc", "half", mean_mbps=mean, trial_means=trials,
        intervals=[Interval(float(i + 1), x) for i, x in enumerate(trials)],
    )  # fmt: skip
    return RunRecord(1, START, "quick", tests=[test], id=run_id)


def test_compare_gives_each_cell_its_interval_and_verdict() -> None:
    before = _run(1, [736.0, 736.8, 738.8])
    same = _run(2, [741.2, 733.8, 731.0])
    tuned = _run(3, [830.4, 836.2, 833.0])
    row = compare([before, same, tuned]).row("pi_to_pc", "half")
    assert row is not None
    base, aa, ab = row.cells
    assert base.verdict == "baseline" and base.half_width_mbps is not None
    own = mean_interval(before.tests[0].trial_means)
    assert own is not None and base.half_width_mbps == pytest.approx(own.half_width)
    assert aa.verdict == "no_change" and not aa.significant
    assert ab.verdict == "faster" and ab.significant
    assert ab.change_low_mbps is not None and ab.change_low_mbps > 80
    assert ab.verdict_text.startswith("faster by ")


def test_compare_uses_the_calibration_given() -> None:
    before, after = _run(1, [736.0, 736.8, 738.8]), _run(2, [750.1, 751.0, 752.2])
    row = compare([before, after], {"pi_to_pc/half": 20.0}).row("pi_to_pc", "half")
    assert row is not None and row.cells[1].verdict == "no_change"
