"""Fold a plan's trials into one figure per direction and mode, keeping each trial's mean.

A plan runs each test several times, interleaved (see sbctune.measure.plans). What the user
reads, and what advice uses, is one figure per direction and mode: the mean over every trial's
counted seconds (trials have equal lengths, so it is also the mean of the trial means). The
trial means themselves go with it: they are the samples of the interval that compare gives.
"""

from __future__ import annotations

import statistics

from sbctune.measure.outcome import DirectionOutcome, Interval


def _key(outcome: DirectionOutcome) -> tuple[str, str]:
    return (outcome.direction, outcome.mode)


def _shifted(trials: list[DirectionOutcome]) -> list[Interval]:
    """The trials' readings on one time axis, each trial after the one before it."""
    out: list[Interval] = []
    offset = 0.0
    for trial in trials:
        for i in trial.intervals:
            out.append(Interval(round(i.t + offset, 3), i.mbps, i.retransmits, i.omitted))
        if trial.intervals:
            offset += max(i.t for i in trial.intervals)
    return out


def _mean(values: list[float | None]) -> float | None:
    found = [v for v in values if v is not None]
    return statistics.fmean(found) if found else None


def fold(trials: list[DirectionOutcome]) -> DirectionOutcome:
    """One outcome from the trials of one direction and mode (in the order they ran)."""
    first = trials[0]
    if len(trials) == 1:
        if first.mean_mbps is not None and not first.trial_means:
            first.trial_means = [first.mean_mbps]
        return first
    intervals = _shifted(trials)
    # A trial whose link went down and up inside it is left out of the figures (its readings
    # stay on the plot), unless no other trial is left.
    usable = [t for t in trials if t.gap is None] or trials
    counted = [i.mbps for i in _shifted(usable) if not i.omitted]
    retrans = [t.retransmits for t in trials if t.retransmits is not None]
    errors = [t.error for t in trials if t.error]
    return DirectionOutcome(
        first.direction,
        first.mode,
        mean_mbps=statistics.fmean(counted) if counted else None,
        min_mbps=min(counted) if counted else None,
        max_mbps=max(counted) if counted else None,
        stdev_mbps=statistics.pstdev(counted) if len(counted) > 1 else None,
        sender_mbps=_mean([t.sender_mbps for t in trials]),
        receiver_mbps=_mean([t.receiver_mbps for t in trials]),
        retransmits=sum(retrans) if retrans else None,
        complete=all(t.complete for t in trials),
        intervals=intervals,
        error=errors[0] if errors else None,
        test_index=first.test_index,
        trial_means=[t.mean_mbps for t in usable if t.mean_mbps is not None and t.complete],
        gap="; ".join(t.gap for t in trials if t.gap) or None,
    )


def fold_all(outcomes: list[DirectionOutcome]) -> list[DirectionOutcome]:
    """Per direction and mode, in the order each first appeared, the trials folded into one.
    Idempotent: folding folded outcomes changes nothing."""
    groups: dict[tuple[str, str], list[DirectionOutcome]] = {}
    for outcome in outcomes:
        groups.setdefault(_key(outcome), []).append(outcome)
    return [fold(group) for group in groups.values()]
