"""More trials of a test whose trials disagree, so that a comparison can still tell.

A plan runs each test a few times (sbctune.measure.plans); the trials' means are the samples
of the interval `compare` gives. With three trials, one that dipped (the PC or the link was
busy for a few seconds) widens that interval so much that two runs of the same setup read
"too noisy to tell": t(0.975, 2 df) is 4.3, t(4 df) 2.8. tests/bench/bench_noise.py saw it in
6 of 76 A/A pairs on a busy machine. So after the planned TCP trials, each test whose trials'
95 % interval of the mean is wider than ±`plan.steady_within` of it runs once more, at most
`plan.extra_trials` times, one round at a time (the noisy tests again, in plan order). A
steady run costs nothing; the user sees why each extra trial runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from sbctune.measure.outcome import DirectionOutcome
from sbctune.measure.plans import DIRECTION_LABEL, MODE_LABEL, Plan, TestSpec
from sbctune.stats import mean_interval
from sbctune.wording import percent


@dataclass(frozen=True)
class ExtraTrial:
    """One more trial of a test, and why it runs."""

    spec: TestSpec
    why: str


@dataclass(frozen=True)
class TrialsAdded:
    """An event of the run: some tests' trials disagreed, these run next, from `test_index`."""

    test_index: int
    extra: tuple[ExtraTrial, ...]


def _same_test(a: TestSpec, b: TestSpec) -> bool:
    return (a.mode, a.directions, a.udp_mbps, a.pc_cap_mbps) == (
        b.mode, b.directions, b.udp_mbps, b.pc_cap_mbps
    )  # fmt: skip


def _trial_means(spec: TestSpec, outcomes: Sequence[DirectionOutcome]) -> dict[str, list[float]]:
    """Per direction, the means of the complete TCP trials of `spec`'s test so far."""
    found: dict[str, list[float]] = {d: [] for d in spec.directions}
    for o in outcomes:
        if (
            o.mode == spec.mode
            and o.direction in found
            and o.protocol == "tcp"
            and o.complete
            and o.gap is None  # the link went down and up inside it: not the NIC's figure
            and o.mean_mbps is not None
        ):
            found[o.direction].append(o.mean_mbps)
    return found


def _gapped(spec: TestSpec, outcomes: Sequence[DirectionOutcome]) -> str | None:
    """Why one more trial of `spec`'s test runs in place of one left out, or None: fewer
    usable trials (complete, no gap) in a direction than trials with a gap would leave."""
    usable = _trial_means(spec, outcomes)
    for o in outcomes:
        if o.mode != spec.mode or o.direction not in usable or o.protocol != "tcp":
            continue
        if o.gap is not None and len(usable[o.direction]) < spec.trials:
            what = DIRECTION_LABEL[o.direction]
            if spec.mode != "half":
                what = f"{MODE_LABEL[spec.mode]}, {what}"
            return f"{what}: a trial is left out, {o.gap}; one more trial in its place"
    return None


def _spread(means: list[float]) -> float | None:
    """The 95 % interval's half-width of the trials' mean, as a fraction of it."""
    interval = mean_interval(means)
    if interval is None or interval.mean <= 0:
        return None
    return interval.half_width / interval.mean


def _beyond(spread: float, limit: float) -> str:
    """`spread` as a percentage that reads larger than `limit`: whole percents, or as many
    decimals as it takes (walk 25: 5.15 % read "their mean ±5%, more than ±5%")."""
    for places in range(4):
        if round(spread, places + 2) > limit:
            return percent(spread, places=places)
    return percent(spread, places=4)


def extra_round(plan: Plan, schedule: Sequence[TestSpec], outcomes: Sequence[DirectionOutcome]
                ) -> list[ExtraTrial]:  # fmt: skip
    """The next trial of every planned TCP test whose trials so far disagree, unless it has
    had `plan.extra_trials` extra trials already. `schedule`: what ran or will run so far."""
    if plan.extra_trials <= 0:
        return []
    out: list[ExtraTrial] = []
    for spec in (t for t in plan.tests if t.trial == 1 and t.protocol == "tcp"):
        runs = [t for t in schedule if _same_test(t, spec)]
        trials = max((t.trial for t in runs), default=0)
        if trials < 2 or sum(t.extra for t in runs) >= plan.extra_trials:
            continue
        gapped = _gapped(spec, outcomes)
        if gapped:  # another trial in its place, before any spread is judged
            out.append(ExtraTrial(replace(spec, trial=trials + 1, trials=trials + 1, extra=True),
                                  gapped))  # fmt: skip
            continue
        for direction, means in _trial_means(spec, outcomes).items():
            spread = _spread(means)
            if spread is None or spread <= plan.steady_within:
                continue
            what = DIRECTION_LABEL[direction]  # type: ignore[index]
            if spec.mode != "half":
                what = f"{MODE_LABEL[spec.mode]}, {what}"
            out.append(
                ExtraTrial(
                    replace(spec, trial=trials + 1, trials=trials + 1, extra=True),
                    f"{what}: the {len(means)} trials disagree (their mean "
                    f"±{_beyond(spread, plan.steady_within)}, more than "
                    f"±{percent(plan.steady_within, places=0)}); one more trial",
                )
            )
            break
    return out
