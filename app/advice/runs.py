"""Stored runs boiled down per NIC: the latest figure per direction and mode, with its evidence."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sbctune.history.records import Direction, Mode, RunRecord, TestRecord

LABEL: dict[str, str] = {"pi_to_pc": "Pi → PC", "pc_to_pi": "PC → Pi"}
MODE_LABEL: dict[str, str] = {
    "half": "one direction at a time",
    "full": "both directions at once",
    "full_throttled": "both directions, PC throttled",
}


@dataclass(frozen=True)
class Figure:
    """One direction of one test: what the user saw, and where it came from."""

    direction: Direction
    mode: Mode
    mbps: float
    run_id: int | None
    retransmits: int | None = None
    seconds: float | None = None  # how long it was measured (from the live intervals)
    stdev_mbps: float | None = None
    pi_cpu: dict[str, Any] | None = None
    trial_means: tuple[float, ...] = ()  # each trial's mean, in the order they ran

    @property
    def best_mbps(self) -> float:
        """The best trial's mean (the figure itself when there were no trials to choose
        from). Load on the PC or the network only ever lowers a trial, so what the link can
        carry is shown by its best trial, not by one that dipped."""
        return max((self.mbps, *self.trial_means))

    @property
    def label(self) -> str:
        return f"{LABEL[self.direction]} ({MODE_LABEL[self.mode]})"

    def cite(self) -> str:
        spread = f" ± {self.stdev_mbps:.0f}" if self.stdev_mbps else ""
        run = f", run {self.run_id}" if self.run_id is not None else ""
        return f"{self.label}: {self.mbps:.0f}{spread} Mbit/s{run}"


@dataclass
class NicRuns:
    """Everything measured on one NIC; later runs replace earlier figures."""

    nic: str | None
    figures: dict[tuple[Direction, Mode], Figure] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # route warnings: not this NIC's traffic
    latency: dict[str, Any] | None = None  # the latest run's latency probes (measure.latency)
    latency_run: int | None = None

    def get(self, direction: Direction, mode: Mode = "half") -> Figure | None:
        return self.figures.get((direction, mode))

    def mode(self, mode: Mode) -> list[Figure]:
        return [f for (_, m), f in self.figures.items() if m == mode]

    def pair(self, mode: Mode) -> tuple[Figure, Figure] | None:
        a, b = self.get("pi_to_pc", mode), self.get("pc_to_pi", mode)
        return (a, b) if a and b else None


def _seconds(test: TestRecord) -> float | None:
    times = [i.t for i in test.intervals]
    if len(times) < 2:
        return float(len(times)) if times else None
    step = (times[-1] - times[0]) / (len(times) - 1)
    return times[-1] - times[0] + step


def digest(runs: list[RunRecord]) -> dict[str | None, NicRuns]:
    """Per NIC (by name), the latest usable figure of each direction and mode, measured alone
    (runs of an aggregate are for sbctune.advice.aggregate)."""
    out: dict[str | None, NicRuns] = {}
    for run in sorted(runs, key=lambda r: (r.started_at, r.id or 0)):
        if run.aggregate_id:
            continue  # measured while other NICs carried traffic: not this NIC's own figures
        entry = out.setdefault(run.nic, NicRuns(run.nic))
        if run.route_warning and run.route_warning not in entry.notes:
            entry.notes.append(run.route_warning)
        # Probes of a run that stopped early (the link lost, a cancel, the window closed) went
        # unanswered because of the stop: no evidence of a queue (walk19: a link down for 4 s
        # became "98 % of the probes got no answer: bufferbloat").
        if run.complete and run.latency and run.latency.get("groups"):
            entry.latency, entry.latency_run = run.latency, run.id
        for test in run.tests:
            if test.mean_mbps is None:
                continue  # a test that failed says nothing about the hardware
            entry.figures[(test.direction, test.mode)] = Figure(
                direction=test.direction,
                mode=test.mode,
                mbps=test.mean_mbps,
                run_id=run.id,
                retransmits=test.retransmits,
                seconds=_seconds(test),
                stdev_mbps=test.stdev_mbps,
                pi_cpu=test.pi_cpu,
                trial_means=tuple(test.trial_means),
            )
    return out
