"""Rows for the before/after and history comparisons, from the runs as the history stored them."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from sbctune.history.records import Direction, Mode, RunRecord


@dataclass(frozen=True)
class ResultRow:
    """One direction × mode across runs: the mean per run (None: that run did not test it)."""

    direction: Direction
    mode: Mode
    values: list[float | None]
    significant: bool | None = None  # from sbctune.compare: the change exceeds the run's noise


def optional_core(module: str, attribute: str) -> Any:
    """A core API another part of the project is still building, or None while it is missing."""
    try:
        found = importlib.import_module(module)
    except ImportError:
        return None
    return getattr(found, attribute, None)


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
    compare = optional_core("sbctune.compare", "compare")
    if compare is None or len(runs) < 2:
        return {}
    try:
        comparison = compare(runs)
    except Exception:  # a comparison is a bonus; the table stands without it
        return {}
    found: dict[tuple[Direction, Mode], bool] = {}
    for row in getattr(comparison, "rows", []) or []:
        cells = getattr(row, "cells", None) or []
        last = cells[-1] if cells else None
        if last is not None and getattr(last, "verdict", None) in ("significant", "within_noise"):
            found[(row.direction, row.mode)] = bool(last.significant)
    return found
