"""A comparison of runs: per direction and mode, each run's figure and its change vs the first."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Literal

from sbctune.compare.latency import LatencyRow
from sbctune.compare.udp import UdpRow
from sbctune.history.records import Direction, Mode

# faster/slower: the change's whole 95 % interval lies beyond the floor (sbctune.compare.interval)
Verdict = Literal["baseline", "faster", "slower", "no_change", "too_noisy", "unknown", "missing"]


@dataclass(frozen=True)
class RunSummary:
    id: int | None
    device_id: int
    started_at: datetime
    plan_name: str
    nic: str | None
    label: str  # short, for chart legends and table headers: "run 12"
    description: str  # longer: "run 12 · 2024-05-01 14:03 · eth1 · thorough"
    tuning_changed: bool = False  # its tuning changed while it ran (sbctune.history.run_tuning)


@dataclass(frozen=True)
class Cell:
    """One run's figure for one direction and mode, with its change vs the first run."""

    mbps: float | None
    # the spread of the run's per-second readings (iperf3's intervals over every trial): how
    # much one second varies, not how much a trial's mean does (that is trials_stdev_mbps)
    stdev_mbps: float | None = None
    samples: int | None = None  # how many trials the figure is the mean of
    complete: bool = True
    delta_mbps: float | None = None
    delta_pct: float | None = None
    noise_mbps: float | None = None  # half-width of the change's 95 % interval
    significant: bool = False  # faster or slower
    verdict: Verdict = "unknown"
    trials: list[float] = field(default_factory=list)  # each trial's mean
    half_width_mbps: float | None = None  # the run's own 95 % interval of its mean (error bars)
    change_low_mbps: float | None = None  # the 95 % interval of the change vs the first run
    change_high_mbps: float | None = None
    verdict_text: str = ""  # "faster by 60 to 110 Mbit/s", "no change detected (−15 to +25)"
    # the trials' spread: the sample standard deviation of their means (what the 95 % interval
    # is made from), beside `samples`; None with fewer than two trials
    trials_stdev_mbps: float | None = None


@dataclass(frozen=True)
class Row:
    direction: Direction
    mode: Mode
    cells: list[Cell]  # one per run, in the comparison's run order


@dataclass
class Comparison:
    runs: list[RunSummary]
    rows: list[Row] = field(default_factory=list)
    # "direction/mode" -> run-to-run spread from an A/A calibration, when one was used
    calibration: dict[str, float] = field(default_factory=dict)
    latency: list[LatencyRow] = field(default_factory=list)  # added latency under load per run
    udp: list[UdpRow] = field(default_factory=list)  # UDP tests per direction (compare.udp)

    def row(self, direction: Direction, mode: Mode) -> Row | None:
        return next((r for r in self.rows if r.direction == direction and r.mode == mode), None)

    @property
    def modes(self) -> list[Mode]:
        return list(dict.fromkeys(r.mode for r in self.rows))

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for run in data["runs"]:
            run["started_at"] = run["started_at"].isoformat()
        return data
