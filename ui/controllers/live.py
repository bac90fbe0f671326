"""The live view of a running measurement: plot series, the Pi's load, time left.

A plain object fed with the runner's events; the page redraws from it on a timer, so a burst
of events costs one redraw, not one per event.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from sbctune.measure.iperf_output import Direction
from sbctune.measure.outcome import DirectionOutcome
from sbctune.measure.plans import DIRECTIONS, Plan, TestSpec
from sbctune.measure.runner import Event, LiveInterval, PiLoad, TestFinished, TestStarted
from sbctune.measure.sampler import PiSample


@dataclass
class Series:
    """One direction's points on the run's time axis; NaN separates tests (a gap in the line)."""

    xs: list[float] = field(default_factory=list)
    ys: list[float] = field(default_factory=list)

    def add(self, x: float, y: float) -> None:
        self.xs.append(x)
        self.ys.append(y)

    def gap(self) -> None:
        if self.xs and not math.isnan(self.ys[-1]):
            self.add(self.xs[-1], math.nan)


class LiveMeasurement:
    """Everything the Baseline / Measure again page draws while a plan runs."""

    def __init__(
        self,
        plan: Plan,
        line_rate_mbps: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.plan = plan
        self.line_rate_mbps = line_rate_mbps
        self._clock = clock
        self.offsets: list[float] = []
        start = 0.0
        for spec in plan.tests:
            self.offsets.append(start)
            start += spec.duration + spec.omit
        self.total_seconds = start
        self.series: dict[Direction, Series] = {d: Series() for d in DIRECTIONS}
        self.load: PiSample | None = None
        self.current: int | None = None
        self.finished: list[DirectionOutcome] = []
        self.points = 0
        self.dirty = True
        self._test_started_at: float | None = None
        self._done_seconds = 0.0
        self.started_at: float | None = None
        self.preparing: str | None = None  # what happens before the first test (an install)

    # ------------------------------------------------------------------ feeding
    def set_preparing(self, text: str) -> None:
        self.preparing = text
        self.dirty = True

    def feed(self, event: Event) -> None:
        if isinstance(event, LiveInterval):
            offset = self.offsets[event.test_index] if event.test_index < len(self.offsets) else 0
            self.series[event.direction].add(offset + event.interval.t, event.interval.mbps)
            self.points += 1
        elif isinstance(event, PiLoad):
            self.load = event.sample
        elif isinstance(event, TestStarted):
            if self.started_at is None:
                self.started_at = self._clock()
            self.current = event.test_index
            self._test_started_at = self._clock()
            for series in self.series.values():
                series.gap()
        elif isinstance(event, TestFinished):
            self.finished.extend(event.outcomes)
            self._done_seconds += event.spec.duration + event.spec.omit
            self._test_started_at = None
        self.dirty = True

    # ------------------------------------------------------------------ reading
    @property
    def current_spec(self) -> TestSpec | None:
        if self.current is None or self.current >= len(self.plan.tests):
            return None
        return self.plan.tests[self.current]

    def omitted_spans(self) -> list[tuple[float, float]]:
        """The seconds iperf3 leaves out of the figures (TCP ramp-up), per test."""
        return [
            (start, start + spec.omit)
            for start, spec in zip(self.offsets, self.plan.tests, strict=True)
            if spec.omit > 0
        ]

    def remaining_seconds(self) -> float:
        within = 0.0
        spec = self.current_spec
        if self._test_started_at is not None and spec is not None:
            within = min(self._clock() - self._test_started_at, spec.duration + spec.omit)
        return max(0.0, self.total_seconds - self._done_seconds - within)

    def progress(self) -> float:
        """0..1 of the plan's running time."""
        if self.total_seconds <= 0:
            return 0.0
        return 1.0 - self.remaining_seconds() / self.total_seconds

    def status(self) -> str:
        spec = self.current_spec
        if spec is None:
            return self.preparing or "Preparing (checking iperf3 and the route on the Pi)…"
        assert self.current is not None
        return f"Test {self.current + 1} of {len(self.plan.tests)}: {spec.label}"

    def latest(self, direction: Direction) -> float | None:
        ys = [y for y in self.series[direction].ys[-3:] if not math.isnan(y)]
        return ys[-1] if ys else None
