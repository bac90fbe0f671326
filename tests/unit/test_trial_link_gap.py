"""A trial whose link went down and up inside it is not a measure of the NIC (walk19: a 2 s
drop on pi4-rtl8153, under the 3 s a lost link takes, let a 578 Mbit/s trial count and the run
was called "too noisy"): it is found from its intervals, left out of the figures, said, and
another trial runs in its place (within the plan's extra trials).

RECORDED: the intervals of a real run on this machine's lab, 2026-11-30: `sbctune lab up
--profile pi4-rtl8153 --name wf19a`, then `sbctune measure pi@198.18.0.2 --duration 10 --omit 1
--trials 1 --no-latency --json` with the lab's host-side veth set down 9 s after the start and
up 2 s later (`ip link set dev sbct0n0 down; sleep 2; ip link set dev sbct0n0 up`); Pi → PC.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.measure.outcome import DirectionOutcome, Interval, data_gap, summarize
from sbctune.measure.plans import plan_named
from sbctune.measure.steady import extra_round
from sbctune.measure.trials import fold

RECORDED = [(1.0, 988.0, True), (2.0, 967.0, False), (3.0, 937.0, False), (4.0, 925.0, False),
            (5.0, 624.0, False), (6.0, 0.0, False), (7.0, 261.0, False), (8.0, 937.0, False),
            (9.0, 922.0, False), (10.0, 925.0, False), (11.0, 815.0, False)]  # fmt: skip
STEADY = [(t, 930.0, omitted) for t, _mbps, omitted in RECORDED]
QUICK = plan_named("quick")


def _intervals(rows: list[tuple[float, float, bool]]) -> list[Interval]:
    return [Interval(t, mbps, None, omitted) for t, mbps, omitted in rows]


def _trial(rows: list[tuple[float, float, bool]]) -> DirectionOutcome:
    return summarize("pi_to_pc", "half", _intervals(rows), [], complete=True)


def test_the_recorded_drop_is_found_and_said_in_seconds() -> None:
    trial = _trial(RECORDED)
    assert trial.complete  # the run did not see a lost link (no 3 s without data)
    assert trial.gap == "no data moved for about 2 s inside it (the link went down and up)"
    assert _trial(STEADY).gap is None


def test_a_link_that_never_came_back_or_a_slow_start_is_no_gap() -> None:
    lost = [(t, 0.0 if t >= 6 else mbps, o) for t, mbps, o in RECORDED]
    assert data_gap(_intervals(lost)) is None  # the run reports a lost link itself
    slow_start = [(2.0, 0.0, False), *STEADY[2:]]
    assert data_gap(_intervals(slow_start)) is None


def test_the_trial_is_left_out_and_another_runs_in_its_place() -> None:
    trials = [_trial(STEADY), _trial(RECORDED), _trial(STEADY)]
    extra = extra_round(QUICK, QUICK.tests, trials)
    assert len(extra) == 1 and extra[0].spec.directions == ("pi_to_pc",)
    assert extra[0].spec.extra and extra[0].spec.trial == 4
    assert extra[0].why == (
        "Pi → PC: a trial is left out, no data moved for about 2 s inside it (the link went "
        "down and up); one more trial in its place"
    )
    # The replacement measured steady: nothing more runs, and the figure is the NIC's.
    trials.append(_trial(STEADY))
    assert extra_round(QUICK, [*QUICK.tests, extra[0].spec], trials) == []
    folded = fold(trials)
    assert folded.trial_means == [930.0, 930.0, 930.0]
    assert folded.mean_mbps == 930.0 and folded.gap is not None


def test_the_extra_trials_stay_bounded() -> None:
    trials = [_trial(RECORDED)] * 5
    schedule = list(QUICK.tests)
    for _ in range(QUICK.extra_trials):
        extra = extra_round(QUICK, schedule, trials)
        assert extra
        schedule += [e.spec for e in extra]
    assert extra_round(QUICK, schedule, trials) == []


@given(st.lists(st.tuples(st.floats(0, 100), st.floats(allow_nan=True), st.booleans()),
                max_size=40))  # fmt: skip
def test_garbage_intervals_never_break_it(rows: list[tuple[float, float, bool]]) -> None:
    found = data_gap(_intervals(sorted(rows)))
    assert found is None or found.startswith("no data moved for about ")
