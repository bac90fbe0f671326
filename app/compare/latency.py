"""The "latency" rows of a comparison: per kind of load, each run's added latency under load
(loaded median minus idle median, sbctune.measure.latency) and its change against the first.

A change is put in words only from 5 ms on: below that DSLReports' grades do not tell links
apart (A+ is "less than 5 ms"), and a few ms is what two idle runs of the lab differ by.
Runs that kept each trial's added latency get the interval rule of throughput too
(`sbctune.compare.interval`, with 5 ms as its floor): `LatencyCell.change`, which the keep rule
reads (`sbctune.workflow.keeping`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from sbctune.compare.interval import Change, change, interval_digits, signed
from sbctune.history.records import RunRecord
from sbctune.measure.latency.stats import KEYS, LatencyResult, results, trial_added
from sbctune.wording import MODE_WORDS

MIN_CHANGE_MS = 5.0
# The Direction column of a comparison table; the Mode column says "Latency under load".
ROW_LABEL = {
    "half/pi_to_pc": "Pi → PC",
    "half/pc_to_pi": "PC → Pi",
    "full": MODE_WORDS["full"],
    "full_throttled": MODE_WORDS["full_throttled"],
}


@dataclass(frozen=True)
class LatencyCell:
    added_ms: float | None
    loaded_p50_ms: float | None
    loaded_p95_ms: float | None
    grade: str | None
    verdict: str
    delta_ms: float | None = None  # added latency vs the first run's
    # vs the first run's, from both runs' trials (None: a run kept no per-trial figures);
    # "faster" here means MORE added latency (the interval rule's words are throughput's).
    change: Change | None = None


@dataclass(frozen=True)
class LatencyRow:
    key: str  # "half/pi_to_pc", ..., see sbctune.measure.latency.stats.KEYS
    label: str
    cells: list[LatencyCell | None] = field(default_factory=list)  # one per run


def _cell(result: LatencyResult | None, base: LatencyCell | None) -> LatencyCell | None:
    if result is None:
        return None
    added = result.added_ms
    delta = None
    if base is not None and base.added_ms is not None and added is not None:
        delta = added - base.added_ms
    return LatencyCell(
        added, result.loaded.p50, result.loaded.p95, result.grade, result.verdict(), delta
    )


def latency_rows(runs: list[RunRecord]) -> list[LatencyRow]:
    per_run = [{r.key: r for r in results(run.latency)} for run in runs]
    rows = []
    for key in KEYS:
        found = [p.get(key) for p in per_run]
        if all(f is None for f in found):
            continue
        base = _cell(found[0], None)
        cells = [base] + [_cell(f, base) for f in found[1:]]
        first = trial_added(runs[0].latency, key)
        for i, run in enumerate(runs[1:], start=1):
            trials, cell = trial_added(run.latency, key), cells[i]
            if cell is not None and first and trials:
                cells[i] = replace(cell, change=change(first, trials, spread=MIN_CHANGE_MS))
        rows.append(LatencyRow(key, ROW_LABEL.get(key, key), cells))
    return rows


def interval_text(c: Change) -> str:
    """A latency change with its interval, in the words of latency (more is worse)."""
    d = interval_digits(c.low, c.high)  # its two ends apart, as throughput's
    if c.verdict == "faster":
        return f"up by {c.low:.{d}f} to {c.high:.{d}f} ms"
    if c.verdict == "slower":
        return f"down by {-c.high:.{d}f} to {-c.low:.{d}f} ms"
    return f"no change detected ({signed(c.low, d)} to {signed(c.high, d)} ms)"


def cell_text(cell: LatencyCell | None) -> str:
    if cell is None:
        return "not measured"
    if cell.added_ms is None:
        return f"— ({cell.grade})" if cell.grade else "—"
    return f"+{cell.added_ms:.1f} ms ({cell.grade})"


def change_text(cell: LatencyCell | None) -> str:
    if cell is None or cell.delta_ms is None:
        return "—"
    # One minus sign for every change the tables show, as the throughput's "−6 to +3" (the
    # s12 walk read "(−0.2 %)" beside "(-0.1 ms)").
    delta = signed(cell.delta_ms, 1)  # one that rounds to zero has no sign (s11 walk)
    if abs(cell.delta_ms) < MIN_CHANGE_MS:
        return f"no change in latency ({delta} ms)"
    word = "less queueing" if cell.delta_ms < 0 else "more queueing"
    return f"{word}: {delta} ms"
