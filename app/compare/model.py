"""A comparison of runs: per direction and mode, each run's figure and its change vs the first."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Literal

from sbctune.history.records import Direction, Mode

Verdict = Literal["baseline", "significant", "within_noise", "unknown", "missing"]


@dataclass(frozen=True)
class RunSummary:
    id: int | None
    device_id: int
    started_at: datetime
    plan_name: str
    nic: str | None
    label: str  # short, for chart legends and table headers: "run 12"
    description: str  # longer: "run 12 · 2024-05-01 14:03 · eth1 · thorough"


@dataclass(frozen=True)
class Cell:
    """One run's figure for one direction and mode, with its change vs the first run."""

    mbps: float | None
    stdev_mbps: float | None = None
    samples: int | None = None
    complete: bool = True
    delta_mbps: float | None = None
    delta_pct: float | None = None
    noise_mbps: float | None = None  # the threshold the change was held against
    significant: bool = False
    verdict: Verdict = "unknown"


@dataclass(frozen=True)
class Row:
    direction: Direction
    mode: Mode
    cells: list[Cell]  # one per run, in the comparison's run order


@dataclass
class Comparison:
    runs: list[RunSummary]
    rows: list[Row] = field(default_factory=list)

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
