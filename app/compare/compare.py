"""Compare two or more runs (before/after tuning, adapter A vs B, board vs board)."""

from __future__ import annotations

import math
import statistics
from dataclasses import replace

from sbctune.compare.interval import change, mean_interval
from sbctune.compare.latency import latency_rows
from sbctune.compare.model import Cell, Comparison, Row, RunSummary
from sbctune.compare.udp import udp_rows
from sbctune.errors import UserError
from sbctune.history.records import DIRECTIONS, MODES, Direction, Mode, RunRecord, TestRecord
from sbctune.history.run_tuning import CHANGED, IN_FORCE, changed_during_run, tweaks_in_force
from sbctune.measure.plans import plan_title


def run_label(run: RunRecord) -> str:
    return f"run {run.id}" if run.id is not None else "run"


def run_description(run: RunRecord) -> str:
    parts = [run_label(run), run.started_at.astimezone().strftime("%Y-%m-%d %H:%M")]
    if run.nic:
        parts.append(run.nic)
    # the plan by the name its title starts with, as History's list says it ("Quick",
    # "Custom, from Quick"), not the record's key ("custom")
    parts.append(plan_title(run.plan_name, run.plan).split(" (")[0].strip() or run.plan_name)
    if run.note:
        parts.append(run.note)
    if changed_during_run(run):  # never silently the "before" or "after" of a comparison
        parts.append(CHANGED.upper())
    elif tweaks_in_force(run):  # as read back: a tuned run is never taken for a baseline
        parts.append(IN_FORCE)
    return " · ".join(parts)


def summarize_run(run: RunRecord) -> RunSummary:
    return RunSummary(
        run.id, run.device_id, run.started_at, run.plan_name, run.nic,
        run_label(run), run_description(run), changed_during_run(run),
    )  # fmt: skip


def find_test(run: RunRecord, direction: Direction, mode: Mode) -> TestRecord | None:
    """The run's test for this direction and mode (the last one, if a plan repeated it)."""
    found = [t for t in run.tests if t.direction == direction and t.mode == mode]
    return found[-1] if found else None


def spread_key(direction: Direction, mode: Mode) -> str:
    return f"{direction}/{mode}"


def _figure(test: TestRecord) -> Cell:
    assert test.mean_mbps is not None
    mine = mean_interval(test.trial_means)
    return Cell(
        test.mean_mbps,
        stdev_mbps=test.stdev_mbps,
        samples=len(test.trial_means) or None,
        complete=test.complete,
        verdict="baseline",
        trials=list(test.trial_means),
        half_width_mbps=mine.half_width if mine else None,
        trials_stdev_mbps=statistics.stdev(test.trial_means) if len(test.trial_means) > 1 else None,
    )


def _cell(test: TestRecord | None, base: Cell, spread: float | None) -> Cell:
    if test is None or test.mean_mbps is None:
        return Cell(None, complete=test.complete if test else False, verdict="missing")
    cell = replace(_figure(test), verdict="unknown")
    if base.mbps is None:
        return cell
    delta = test.mean_mbps - base.mbps
    pct = delta / base.mbps * 100 if base.mbps else None
    found = change(base.trials, cell.trials, spread=spread)
    cell = replace(cell, delta_mbps=delta, delta_pct=pct, verdict_text=found.text)
    if found.verdict == "unknown":
        return cell
    return replace(
        cell,
        noise_mbps=(found.high - found.low) / 2,
        change_low_mbps=found.low,
        change_high_mbps=found.high,
        significant=found.verdict in ("faster", "slower"),
        verdict=found.verdict,
    )


def compare(runs: list[RunRecord], calibration: dict[str, float] | None = None) -> Comparison:
    """Per direction × mode present in any run: each run's figure and its change vs the first,
    as a 95 % interval from the runs' trials. `calibration`: the run-to-run spread an A/A
    calibration measured for this Pi, per "direction/mode" (see spread_key)."""
    if not runs:
        raise UserError("Nothing to compare: no runs given.", "Name two or more run ids.")
    spreads = {k: v for k, v in (calibration or {}).items() if math.isfinite(v)}
    comparison = Comparison([summarize_run(r) for r in runs], calibration=spreads)
    for mode in MODES:
        for direction in DIRECTIONS:
            tests = [find_test(r, direction, mode) for r in runs]
            if all(t is None for t in tests):
                continue
            first = tests[0]
            if first is None or first.mean_mbps is None:
                base = Cell(None, verdict="missing")
            else:
                base = _figure(first)
            spread = spreads.get(spread_key(direction, mode))
            cells = [base] + [_cell(test, base, spread) for test in tests[1:]]
            comparison.rows.append(Row(direction, mode, cells))
    comparison.latency = latency_rows(runs)
    comparison.udp = udp_rows(runs)
    return comparison
