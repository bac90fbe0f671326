"""The live view of a running measurement: plot series, the Pi's load, time left.

A plain object fed with the runner's events; the page redraws from it on a timer, so a burst
of events costs one redraw, not one per event.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sbctune.measure.iperf_output import Direction as Direction  # the pages name it from here
from sbctune.measure.latency.during import IDLE_S, LiveLatency
from sbctune.measure.latency.report import notes as latency_notes
from sbctune.measure.latency.stats import results as latency_results
from sbctune.measure.outcome import DirectionOutcome
from sbctune.measure.plans import DIRECTIONS, Plan, TestSpec
from sbctune.measure.runner import Event, LiveInterval, PiLoad, TestFinished, TestStarted
from sbctune.measure.sampler import PiSample
from sbctune.measure.sampler_data import LabCpu as LabCpu  # the pages name it from here
from sbctune.measure.steady import TrialsAdded
from sbctune.workflow.estimate import Measurement

LATENCY_WINDOW_S = 5.0  # the latency line is the median of this many seconds of probes


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
        # The time left, counted as the one-click flow's estimate counts it; its list of tests
        # (the plan's, and extra trials when its trials disagree) is this view's too.
        self._countdown = Measurement(plan, clock)
        self.tests = self._countdown.tests
        self.line_rate_mbps = line_rate_mbps
        self._clock = clock
        self.offsets: list[float] = []
        self.total_seconds = 0.0
        self._lay_out()
        self.series: dict[Direction, Series] = {d: Series() for d in DIRECTIONS}
        # Latency probes' round trips in ms: while a test runs, and on the idle link before it.
        self.latency = Series()
        self.latency_idle = Series()
        self.latency_lost = 0
        self.load: PiSample | None = None
        self.current: int | None = None
        self.finished: list[DirectionOutcome] = []
        self.points = 0
        self.dirty = True
        self._test_started_at: float | None = None
        self.started_at: float | None = None
        self.preparing: str | None = None  # what happens before the first test (an install)
        self.topic: str | None = None  # what this run measures, when not the page's own run
        # The big figures: the current test's mean over its counted (not omitted) seconds,
        # then the test's result once it ends.
        self._counted: dict[Direction, list[float]] = {d: [] for d in DIRECTIONS}
        self._ramping: dict[Direction, bool] = dict.fromkeys(DIRECTIONS, False)
        self._result: dict[Direction, float | None] = dict.fromkeys(DIRECTIONS)

    def _lay_out(self) -> None:
        """Where each test starts on the plot's time axis, and the whole run's length."""
        self.offsets = []
        start = 0.0
        for spec in self.tests:
            start += IDLE_S  # the latency probes' idle seconds before each test
            self.offsets.append(start)
            start += spec.duration + spec.omit
        self.total_seconds = start

    # ------------------------------------------------------------------ feeding
    def set_preparing(self, text: str) -> None:
        self.preparing = text
        self.dirty = True

    def feed(self, event: Event) -> None:
        if isinstance(event, LiveInterval):
            offset = self.offsets[event.test_index] if event.test_index < len(self.offsets) else 0
            self.series[event.direction].add(offset + event.interval.t, event.interval.mbps)
            self.points += 1
            if not event.interval.omitted:
                self._counted[event.direction].append(event.interval.mbps)
            else:
                self._ramping[event.direction] = True
        elif isinstance(event, LiveLatency):
            self._feed_latency(event)
        elif isinstance(event, PiLoad):
            self.load = event.sample
        elif isinstance(event, TestStarted):
            if self.started_at is None:
                self.started_at = self._clock()
            self.current = event.test_index
            self._test_started_at = self._clock()
            self._countdown.feed(event)
            for direction in event.spec.directions:
                self._counted[direction] = []
                self._ramping[direction] = False
                self._result[direction] = None
            for series in (*self.series.values(), self.latency, self.latency_idle):
                series.gap()
        elif isinstance(event, TrialsAdded):
            self._countdown.feed(event)  # into `tests`
            self._lay_out()  # the status line says which trial is extra, and why
        elif isinstance(event, TestFinished):
            self.finished.extend(event.outcomes)
            for outcome in event.outcomes:
                if outcome.mean_mbps is not None:
                    self._result[outcome.direction] = outcome.mean_mbps
            self._countdown.feed(event)
            self._test_started_at = None
        self.dirty = True

    def _feed_latency(self, event: LiveLatency) -> None:
        if event.rtt_ms is None:
            self.latency_lost += 1
            return
        offset = self.offsets[event.test_index] if event.test_index < len(self.offsets) else 0
        series = self.latency_idle if event.phase == "idle" else self.latency
        series.add(offset + event.t, event.rtt_ms)

    # ------------------------------------------------------------------ reading
    @property
    def current_spec(self) -> TestSpec | None:
        if self.current is None or self.current >= len(self.tests):
            return None
        return self.tests[self.current]

    def omitted_spans(self) -> list[tuple[float, float]]:
        """The seconds iperf3 leaves out of the figures (TCP ramp-up), per test."""
        return [
            (start, start + spec.omit)
            for start, spec in zip(self.offsets, self.tests, strict=True)
            if spec.omit > 0
        ]

    def remaining_seconds(self) -> float:
        """What is left of the plan (extra trials included); a test past its plan counts as
        at its end."""
        return self._countdown.seconds_left()

    def progress(self) -> float:
        """0..1 of the plan's running time."""
        if self.total_seconds <= 0:
            return 0.0
        return 1.0 - self.remaining_seconds() / self.total_seconds

    def status(self) -> str:
        about = f"{self.topic}. " if self.topic else ""
        spec = self.current_spec
        if spec is None:
            return about + (
                self.preparing or "Preparing (checking iperf3 and the route on the Pi)…"
            )
        assert self.current is not None
        return f"{about}Test {self.current + 1} of {len(self.tests)}: {spec.label}"

    def latest_latency(self) -> tuple[float | None, float | None]:
        """(under load, on the idle link): the median round trip of the last
        LATENCY_WINDOW_S seconds of probes of each kind, in ms (one probe jumps around)."""
        found = []
        for series in (self.latency, self.latency_idle):
            points = [(x, y) for x, y in zip(series.xs, series.ys, strict=True) if y == y]
            recent = [y for x, y in points if points and x >= points[-1][0] - LATENCY_WINDOW_S]
            found.append(statistics.median(recent) if recent else None)
        return found[0], found[1]

    def waiting(self, direction: Direction) -> str | None:
        """Instead of the big figure, while this direction's test runs without a counted
        second yet: what it does meanwhile (probing the idle link, then the left-out ramp-up).
        None when there is a figure to show, or when this direction is not being tested."""
        spec = self.current_spec
        if self.latest(direction) is not None or self._test_started_at is None:
            return None
        if spec is None or direction not in spec.directions:
            return None
        return "warming up…" if self._ramping[direction] else "starting…"

    def latest(self, direction: Direction) -> float | None:
        """The big figure: the running test's mean over its counted seconds (none while it
        ramps up: omitted seconds are never shown), or the last test's result once it ended."""
        counted = self._counted[direction]
        if self._result[direction] is not None:
            return self._result[direction]
        return statistics.fmean(counted) if counted else None


def latency_verdicts(latency: dict[str, Any] | None) -> list[str]:
    """A finished run's latency in sentences (and why it was not measured, if it was not)."""
    lines = [r.verdict() for r in latency_results(latency)] + latency_notes(latency)
    return [line[:1].upper() + line[1:] for line in lines]
