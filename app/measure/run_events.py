"""What a measurement reports while it runs (`sbctune.measure.runner.measure`'s `on_event`)."""

from __future__ import annotations

from dataclasses import dataclass

from sbctune.measure.iperf_output import Direction
from sbctune.measure.latency.during import LiveLatency
from sbctune.measure.outcome import DirectionOutcome, Interval, MeasureRun
from sbctune.measure.plans import TestSpec
from sbctune.measure.sampler import PiSample
from sbctune.measure.steady import TrialsAdded


@dataclass(frozen=True)
class LiveInterval:
    """One second of one direction, as the Pi's client printed it."""

    test_index: int
    spec: TestSpec
    direction: Direction
    interval: Interval
    # This PC's monotonic clock at the test's t = 0 as known so far (PlanTest.clock_zero):
    # the live total of NICs measured at once adds only seconds that passed together.
    clock_zero: float | None = None


@dataclass(frozen=True)
class TestStarted:
    test_index: int
    spec: TestSpec


@dataclass(frozen=True)
class TestFinished:
    test_index: int
    spec: TestSpec
    outcomes: tuple[DirectionOutcome, ...]


@dataclass(frozen=True)
class PiLoad:
    """One sample of the Pi's per-core load and NIC counters (at least once a second)."""

    sample: PiSample


@dataclass(frozen=True)
class RunStarted:
    """The run's record, filled in as tests finish; kept by callers that want partial results
    when the run is cancelled."""

    run: MeasureRun
    # How the test reaches its NIC where that is not plain: a bridge port tested through its
    # bridge's address (measure.stacked_route), said when the run starts.
    path_note: str | None = None


Event = LiveInterval | TestStarted | TestFinished | PiLoad | RunStarted | LiveLatency | TrialsAdded
