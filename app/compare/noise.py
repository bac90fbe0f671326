"""Run-to-run noise: when is a change between two runs more than the measurement's own wobble?

The rule (documented in the README): a change is significant when

    |Δ| > max(2 · √(s₁²/n₁ + s₂²/n₂),  2 % of the first run's value)

where s is the standard deviation of a test's per-second readings (omitted seconds excluded)
and n how many there were. The first term is twice the standard error of the difference of
two means (about 95 % confidence for independent readings). Per-second iperf3 readings are not
independent and a repeat run on a quiet network still drifts by a percent or two that one
run's spread cannot show, so the relative floor keeps "+8 Mbit/s at 940" from being called
a gain. Without readings (fewer than two per run) the verdict is "unknown", never a guess.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Any

from sbctune.history.records import RunRecord, TestRecord

SIGMAS = 2.0
RELATIVE_FLOOR = 0.02


@dataclass(frozen=True)
class Spread:
    """A test's mean with the spread of its per-second readings."""

    mean_mbps: float
    stdev_mbps: float
    samples: int


def _omit_seconds(run: RunRecord, test: TestRecord) -> float:
    """The plan's omitted seconds for this test (the stored readings include them)."""
    specs: list[Any] = (run.plan or {}).get("tests") or []
    for spec in specs:
        if not isinstance(spec, dict) or spec.get("mode") != test.mode:
            continue
        directions = spec.get("directions") or [spec.get("direction")]
        if test.direction in directions:
            try:
                return float(spec.get("omit") or 0)
            except (TypeError, ValueError):
                return 0.0
    return 0.0


def counted_readings(run: RunRecord, test: TestRecord) -> list[float]:
    """The per-second readings that make up the test's mean (omitted seconds dropped)."""
    omit = _omit_seconds(run, test)
    return [i.mbps for i in test.intervals if i.t > omit + 1e-6]


def spread(run: RunRecord, test: TestRecord) -> Spread | None:
    if test.mean_mbps is None:
        return None
    readings = counted_readings(run, test)
    if len(readings) < 2:
        return None
    stdev = test.stdev_mbps if test.stdev_mbps is not None else statistics.pstdev(readings)
    return Spread(test.mean_mbps, stdev, len(readings))


def noise_threshold(first: Spread, other: Spread) -> float:
    """The smallest change (Mbit/s) that counts as more than noise."""
    standard_error = math.sqrt(
        first.stdev_mbps**2 / first.samples + other.stdev_mbps**2 / other.samples
    )
    return max(SIGMAS * standard_error, RELATIVE_FLOOR * abs(first.mean_mbps))
