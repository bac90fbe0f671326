"""Compare two or more runs (before/after tuning, adapter A vs B, board vs board)."""

from __future__ import annotations

from dataclasses import replace

from sbctune.compare.model import Cell, Comparison, Row, RunSummary, Verdict
from sbctune.compare.noise import Spread, noise_threshold, spread
from sbctune.errors import UserError
from sbctune.history.records import DIRECTIONS, MODES, Direction, Mode, RunRecord, TestRecord


def run_label(run: RunRecord) -> str:
    return f"run {run.id}" if run.id is not None else "run"


def run_description(run: RunRecord) -> str:
    parts = [run_label(run), run.started_at.astimezone().strftime("%Y-%m-%d %H:%M")]
    if run.nic:
        parts.append(run.nic)
    parts.append(run.plan_name)
    if run.note:
        parts.append(run.note)
    return " · ".join(parts)


def summarize_run(run: RunRecord) -> RunSummary:
    return RunSummary(
        run.id, run.device_id, run.started_at, run.plan_name, run.nic,
        run_label(run), run_description(run),
    )  # fmt: skip


def find_test(run: RunRecord, direction: Direction, mode: Mode) -> TestRecord | None:
    """The run's test for this direction and mode (the last one, if a plan repeated it)."""
    found = [t for t in run.tests if t.direction == direction and t.mode == mode]
    return found[-1] if found else None


def _figure(run: RunRecord, test: TestRecord, verdict: Verdict) -> tuple[Cell, Spread | None]:
    assert test.mean_mbps is not None
    mine = spread(run, test)
    cell = Cell(
        test.mean_mbps,
        stdev_mbps=mine.stdev_mbps if mine else test.stdev_mbps,
        samples=mine.samples if mine else None,
        complete=test.complete,
        verdict=verdict,
    )
    return cell, mine


def _cell(run: RunRecord, test: TestRecord | None, base: Cell, base_spread: Spread | None) -> Cell:
    if test is None or test.mean_mbps is None:
        return Cell(None, complete=test.complete if test else False, verdict="missing")
    cell, mine = _figure(run, test, "unknown")
    if base.mbps is None:
        return cell
    delta = test.mean_mbps - base.mbps
    pct = delta / base.mbps * 100 if base.mbps else None
    cell = replace(cell, delta_mbps=delta, delta_pct=pct)
    if mine is None or base_spread is None:
        return cell
    noise = noise_threshold(base_spread, mine)
    significant = abs(delta) > noise
    verdict: Verdict = "significant" if significant else "within_noise"
    return replace(cell, noise_mbps=noise, significant=significant, verdict=verdict)


def compare(runs: list[RunRecord]) -> Comparison:
    """Per direction × mode present in any run: each run's figure and its change vs the first."""
    if not runs:
        raise UserError("Nothing to compare: no runs given.", "Name two or more run ids.")
    comparison = Comparison([summarize_run(r) for r in runs])
    for mode in MODES:
        for direction in DIRECTIONS:
            tests = [find_test(r, direction, mode) for r in runs]
            if all(t is None for t in tests):
                continue
            base_spread: Spread | None = None
            if tests[0] is None or tests[0].mean_mbps is None:
                base = Cell(None, verdict="missing")
            else:
                base, base_spread = _figure(runs[0], tests[0], "baseline")
            cells = [base] + [
                _cell(run, test, base, base_spread)
                for run, test in zip(runs[1:], tests[1:], strict=True)
            ]
            comparison.rows.append(Row(direction, mode, cells))
    return comparison
