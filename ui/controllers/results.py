"""Rows for the before/after and history comparisons, from the runs as the history stored them."""

from __future__ import annotations

from dataclasses import dataclass

from sbctune.compare import compare
from sbctune.history.records import Direction, Mode, RunRecord


@dataclass(frozen=True)
class ResultRow:
    """One direction × mode across runs: the mean per run (None: that run did not test it)."""

    direction: Direction
    mode: Mode
    values: list[float | None]
    significant: bool | None = None  # from sbctune.compare: the change exceeds the run's noise


def result_rows(runs: list[RunRecord]) -> list[ResultRow]:
    keys: list[tuple[Direction, Mode]] = []
    for run in runs:
        for test in run.tests:
            if (test.direction, test.mode) not in keys:
                keys.append((test.direction, test.mode))
    significance = _significance(runs)
    rows = []
    for direction, mode in keys:
        values: list[float | None] = []
        for run in runs:
            found = [t for t in run.tests if t.direction == direction and t.mode == mode]
            values.append(found[0].mean_mbps if found else None)
        rows.append(ResultRow(direction, mode, values, significance.get((direction, mode))))
    return rows


def _significance(runs: list[RunRecord]) -> dict[tuple[Direction, Mode], bool]:
    """Whether the last run's change against the first exceeds the runs' noise, per row."""
    if len(runs) < 2:
        return {}
    found: dict[tuple[Direction, Mode], bool] = {}
    for row in compare(runs).rows:
        last = row.cells[-1] if row.cells else None
        if last is not None and last.verdict in ("significant", "within_noise"):
            found[(row.direction, row.mode)] = last.significant
    return found
